"""nn.Cell page, insert_child_to_cell example."""
# parity: modes=pynative
import mindspore as ms
from mindspore import Tensor, nn

net1 = nn.ReLU()
net2 = nn.Dense(2, 2)
net1.insert_child_to_cell("child", net2)
print(net1)
# beyond the page: the child's parameters are reachable through the parent
print([name for name, _ in net1.parameters_and_names()])

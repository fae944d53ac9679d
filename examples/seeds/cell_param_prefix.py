"""nn.Cell page, param_prefix example."""
# parity: modes=pynative
import mindspore as ms
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        x = self.dense(x)
        return x


net = Net()
net.update_cell_prefix()
print(net.dense.param_prefix)

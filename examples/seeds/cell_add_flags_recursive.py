"""nn.Cell page, add_flags_recursive example."""
# parity: modes=pynative
import mindspore as ms
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x


net = Net()
net.add_flags_recursive(sink_mode=True)
print(net.sink_mode)
# beyond the page: the flag reached the child cell too
print(net.relu.sink_mode)

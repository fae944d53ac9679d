"""nn.Cell page, cells example."""
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
print(net.cells())

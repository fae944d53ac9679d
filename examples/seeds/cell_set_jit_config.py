"""nn.Cell page, set_jit_config example."""
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
jitconfig = ms.JitConfig()
net.set_jit_config(jitconfig)
# beyond the page: the cell still runs
print(net(Tensor([-1.0, 0.5, 2.0])))

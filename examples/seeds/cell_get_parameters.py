"""nn.Cell page, get_parameters example."""
# parity: modes=pynative
import mindspore as ms
from mindspore import nn, ops, Tensor
import numpy as np


class TestNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_w1 = ms.Parameter(Tensor(np.ones([4, 4]), ms.float32))
        self.my_w2 = ms.Parameter(Tensor(np.ones([16]), ms.float32))

    def construct(self, x):
        x += self.my_w1
        x = ops.reshape(x, (16,)) - self.my_w2
        return x


class TestNet2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_t1 = ms.Parameter(Tensor(np.ones([4, 4]), ms.float32))
        # self.subcell is a subcell of TestNet2, when using expand=True, the parameters of TestNet will
        # also be gathered.
        self.subcell = TestNet()

    def construct(self, x):
        x += self.my_w1
        x = ops.reshape(x, (16,)) - self.my_w2
        return x


net = TestNet2()
print([p for p in net.get_parameters(expand=True)])
# beyond the page: expand=False, and TestNet's forward
print([p for p in net.get_parameters(expand=False)])
print(net.subcell(Tensor(np.arange(16).reshape(4, 4), ms.float32)))

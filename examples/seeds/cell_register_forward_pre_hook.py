"""nn.Cell page, register_forward_pre_hook example."""
# parity: modes=pynative
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)


def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.mul = nn.MatMul()
        self.handle = self.mul.register_forward_pre_hook(forward_pre_hook_fn)

    def construct(self, x, y):
        x = x + x
        x = self.mul(x, y)
        return x


grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)), Tensor(np.ones([1]).astype(np.float32)))
print(output)

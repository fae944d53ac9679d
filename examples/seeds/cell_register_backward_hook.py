"""nn.Cell page, register_backward_hook example."""
# parity: modes=pynative
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)


def backward_hook_fn(cell, grad_input, grad_output):
    print("backward input: ", grad_output)
    print("backward output: ", grad_input)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_backward_hook(backward_hook_fn)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x


grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
print(output)
# beyond the page: after handle.remove() the hook no longer runs
net.handle.remove()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
print(output)

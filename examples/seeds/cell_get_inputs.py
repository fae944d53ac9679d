"""nn.Cell page, get_inputs example."""
# parity: modes=pynative
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class ReluNet(nn.Cell):
    def __init__(self):
        super(ReluNet, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x)


net = ReluNet()
input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
net.set_inputs(input_dyn)
get_inputs = net.get_inputs()
print(get_inputs)

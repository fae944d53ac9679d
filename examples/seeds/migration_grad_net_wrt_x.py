"""Migration guide, GradNetWrtX: GradOperation applied to a network inside a Cell.

The guide shows only the wrapper; the network is the one of GradOperation's API page, with fixed
inputs.
"""
# parity: modes=pynative,graph
import argparse

import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
from mindspore.ops import GradOperation

parser = argparse.ArgumentParser()
parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
if parser.parse_args().mode == "graph":
    ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name='z')

    def construct(self, x, y):
        x = x * self.z
        out = self.matmul(x, y)
        return out


class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super(GradNetWrtX, self).__init__()
        self.net = net
        self.grad_op = GradOperation()

    def construct(self, x, y):
        gradient_function = self.grad_op(self.net)
        return gradient_function(x, y)


x = Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], dtype=ms.float32)
y = Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], dtype=ms.float32)
output = GradNetWrtX(Net())(x, y)
print(output)

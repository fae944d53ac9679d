"""nn.Cell page, set_inputs example, with printed outputs.

The page feeds ``np.random.random``; a seeded generator keeps the outputs comparable.
"""
# parity: modes=pynative,graph
import argparse

import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

parser = argparse.ArgumentParser()
parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
if parser.parse_args().mode == "graph":
    ms.set_context(mode=ms.GRAPH_MODE)
np.random.seed(0)


class ReluNet(nn.Cell):
    def __init__(self):
        super(ReluNet, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x)


net = ReluNet()
input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
net.set_inputs(input_dyn)
input = Tensor(np.random.random([3, 10]) - 0.5, dtype=ms.float32)
output = net(input)
print(output.shape)
print(output)

net2 = ReluNet()
net2.set_inputs(x=input_dyn)
output = net2(input)
print(output.shape)
# beyond the page: a second width goes through the same dynamic input
output = net(Tensor(np.random.random([3, 4]) - 0.5, dtype=ms.float32))
print(output.shape)
print(output)

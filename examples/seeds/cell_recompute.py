"""nn.Cell page, recompute: gradients of a network whose block is recomputed equal the plain ones.

The page has no example for recompute; this one marks a block and compares its gradients with
those of the same network without recompute.
"""
# parity: modes=pynative,graph
import argparse

import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, ParameterTuple

parser = argparse.ArgumentParser()
parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
if parser.parse_args().mode == "graph":
    ms.set_context(mode=ms.GRAPH_MODE)


class Block(nn.Cell):
    def __init__(self):
        super(Block, self).__init__()
        self.dense1 = nn.Dense(4, 8, weight_init=Tensor(np.linspace(-1, 1, 32).reshape(8, 4), ms.float32),
                              bias_init='zeros')
        self.relu = nn.ReLU()
        self.dense2 = nn.Dense(8, 3, weight_init=Tensor(np.linspace(1, -1, 24).reshape(3, 8), ms.float32),
                              bias_init='zeros')

    def construct(self, x):
        return self.dense2(self.relu(self.dense1(x)))


class Net(nn.Cell):
    def __init__(self, recompute):
        super(Net, self).__init__()
        self.block = Block()
        if recompute:
            self.block.recompute()
        self.head = nn.Dense(3, 1, weight_init='ones', bias_init='zeros')

    def construct(self, x):
        return self.head(self.block(x)).sum()


x = Tensor(np.arange(8).reshape(2, 4) / 4.0, ms.float32)
for recompute in (False, True):
    net = Net(recompute)
    grad_fn = ops.GradOperation(get_by_list=True)(net, ParameterTuple(net.trainable_params()))
    grads = grad_fn(x)
    print("recompute:", recompute, "loss:", net(x))
    for param, grad in zip(net.trainable_params(), grads):
        print(param.name, grad.asnumpy().round(5).tolist())

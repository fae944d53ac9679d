"""nn.Cell page, apply example."""
# parity: modes=pynative
import mindspore.nn as nn
from mindspore.common.initializer import initializer, One

net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))


def func(cell):
    if isinstance(cell, nn.Dense):
        cell.weight.set_data(initializer(One(), cell.weight.shape, cell.weight.dtype))


print(net.apply(func))
print(net[0].weight.asnumpy())

"""nn.Cell page, place example (has no effect before communication.init())."""
# parity: modes=pynative
from mindspore import context
import mindspore.nn as nn
context.set_context(mode=context.GRAPH_MODE)
fc = nn.Dense(2, 3)
fc.place('MS_WORKER', 0)
# beyond the page
print(fc)

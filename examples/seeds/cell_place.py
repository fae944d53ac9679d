"""nn.Cell page, place example (it has no effect before communication.init())."""
# parity: modes=pynative
# parity: no-mindspore=MindSpore 2.10's Cell has no place() although the nn.Cell page documents it (AttributeError)
# parity: expected-stdout=Dense(input_channels=2, output_channels=3, has_bias=True)
from mindspore import context
import mindspore.nn as nn
context.set_context(mode=context.GRAPH_MODE)
fc = nn.Dense(2, 3)
fc.place('MS_WORKER', 0)
# beyond the page
print(fc)

"""nn.Cell page, to_float example, plus the computed dtype."""
# parity: modes=pynative
import numpy as np
import mindspore.nn as nn
from mindspore import dtype as mstype
from mindspore import Tensor

net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
print(net.to_float(mstype.float16))
# beyond the page: a small Dense in float16, with fixed weights
dense = nn.Dense(3, 2, weight_init='ones', bias_init='zeros').to_float(mstype.float16)
out = dense(Tensor(np.array([[0.5, 1.0, 2.0]], np.float32)))
print(out.dtype, dense.weight.dtype)
print(out)

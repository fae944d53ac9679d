"""Tensor operators on shapes that cannot broadcast raise MindSpore's ValueError at call/trace time."""
import operator

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn, ops


class _Op(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, a, b):
        return self.fn(a, b)


@pytest.mark.parametrize("fn, prim", [(operator.add, "Add"), (operator.sub, "Sub"), (operator.mul, "Mul"),
                                      (operator.truediv, "Div"), (operator.lt, "Less"), (operator.eq, "Equal")])
def test_binary_operator_shape_mismatch(mode, fn, prim):
    a, b = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((4, 3), np.float32))
    with pytest.raises(ValueError, match=rf"For '{prim}', input1.shape and input2.shape need to broadcast. The value "
                                         r"of input1.shape\[-2\] or input2.shape\[-2\] must be 1 or -1 when they are "
                                         r"not the same, but got input1.shape = \(2, 3\) and input2.shape = \(4, 3\)"):
        _Op(fn)(a, b)


def test_ops_add_names_the_failing_axis(mode):
    with pytest.raises(ValueError, match=r"x.shape\[-1\] or y.shape\[-1\].*\(2, 3\) and y.shape = \(2, 4\)"):
        _Op(ops.add)(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((2, 4), np.float32)))


def test_broadcastable_shapes_still_work(mode):
    out = _Op(operator.add)(ms.Tensor(np.ones((2, 1, 3), np.float32)), ms.Tensor(np.ones((4, 1), np.float32)))
    assert out.shape == (2, 4, 3)
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 4, 3), 2.0, np.float32))

"""Bad inputs raise errors that name the op, the argument and the value."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, Tensor, ops

X = Tensor(np.ones((2, 3), np.float32))

ERRORS = [
    (lambda: ops.reshape(X, (4, 2)), ValueError, r"For 'Reshape'.*'input_shape'.*8.*6"),
    (lambda: ops.Reshape()(X, (-1, -1)), ValueError, r"For 'Reshape'.*at most one '-1'"),
    (lambda: ops.transpose(X, (0,)), ValueError, r"For 'Transpose', size of perm.*1 and 2"),
    (lambda: ops.Concat(3)((X, X)), ValueError, r"For 'Concat', the 'axis' must be in range \[-2, 2\), but got 3"),
    (lambda: ops.concat((X, Tensor(np.ones((3, 3), np.float32))), 1), ValueError, r"For 'Concat'.*shapes"),
    (lambda: ops.Softmax(2)(X), ValueError, r"For 'Softmax', the 'axis'.*but got 2"),
    (lambda: ops.ReduceMean()(X, 3), ValueError, r"For 'ReduceMean', the 'axis'.*but got 3"),
    (lambda: ops.ReduceMean("yes"), TypeError, r"For 'ReduceMean', the 'keep_dims' must be a bool.*'yes'"),
    (lambda: ops.MatMul()(X, X), ValueError, r"For 'MatMul' the input dimensions must be equal.*3.*2"),
    (lambda: ops.matmul(X, X), ValueError, r"For 'matmul'.*3.*2"),
    (lambda: ops.Conv2D(4, 3, pad=1), ValueError, r"For 'Conv2D', the 'pad' must be zero.*'pad_mode': valid"),
    (lambda: ops.Conv2D(4, 3, pad_mode="full"), ValueError, r"For 'Conv2D', the 'pad_mode'.*'full'"),
    (lambda: ops.one_hot(X, 3), TypeError, r"For 'OneHot', the 'indices' must be an int tensor.*Float32"),
    (lambda: ops.cross_entropy(Tensor(np.ones((2, 3), np.int32)), Tensor(np.ones(2, np.int32))), TypeError,
     r"cross_entropy.*Int32"),
    (lambda: ops.cross_entropy(X, Tensor(np.ones(2, np.int32)), reduction="avg"), ValueError,
     r"'reduction'.*'avg'"),
    (lambda: ops.clip_by_global_norm((X,), -1.0), ValueError, r"'clip_norm'.*-1.0"),
    (lambda: ops.dropout(X, 1.5), ValueError,
     r"For 'dropout', the 'p' must be a float in range \[0.0, 1.0\], but got 1.5"),
    (lambda: ops.pad(X, (1, 2, 3)), ValueError, r"For 'pad'.*even.*\(1, 2, 3\)"),
    (lambda: ops.interpolate(Tensor(np.ones((1, 1, 2, 2), np.float32))), ValueError,
     r"For 'interpolate', exactly one of 'size' and 'scale_factor'"),
    (lambda: ops.Squeeze(1)(X), ValueError, r"For 'Squeeze'.*axis 1 must be 1"),
    (lambda: ops.assign(3.0, X), TypeError, r"For 'Assign', the 'variable' must be a Parameter, but got float"),
    (lambda: ops.assign(Parameter(X, name="w"), Tensor(np.ones((3, 3), np.float32))), ValueError,
     r"For 'Assign'.*\(3, 3\).*\(2, 3\)"),
    (lambda: ops.relu("abc"), TypeError, r"For 'relu', the 'input' must be a Tensor, but got 'abc' of type str"),
    (lambda: ops.add(X, object()), TypeError,
     r"For 'add', the 'other' must be a Tensor, but got <object object .*> of type object"),
    (lambda: ops.cast(X, "float7"), TypeError, r"For 'Cast', the 'dtype' must be a mindspore dtype.*float7"),
    (lambda: ops.zeros((2, -1)), ValueError, r"For 'zeros'.*non-negative.*\(2, -1\)"),
    (lambda: ops.Split(1, 2)(X), ValueError, r"For 'Split', the 'output_num' must divide.*3.*2"),
    (lambda: ops.AddN()(3), TypeError, r"For 'AddN', the 'x' must be a non-empty tuple"),
    (lambda: ops.Dropout(keep_prob=0.0), ValueError,
     r"For 'Dropout', the 'keep_prob' must be a float in range \(0.0, 1.0\], but got 0.0"),
    (lambda: ops.gelu(X, "fast"), ValueError, r"For 'gelu', the 'approximate'.*'fast'"),
    (lambda: ops.topk(X, 5), ValueError, r"For 'topk', the 'k' must be at most.*5"),
    (lambda: ops.Print()(), ValueError, r"For 'Print', the number of inputs must be at least 1"),
    (lambda: ops.bias_add(X, Tensor(np.ones(2, np.float32))), ValueError, r"For 'BiasAdd'.*2.*3"),
    (lambda: ops.clamp(X), ValueError, r"For 'clamp', at least one of 'min' and 'max'"),
    (lambda: ops.arange(0, 5, 0), ValueError, r"For 'arange', the 'step' cannot be 0"),
    (lambda: ops.broadcast_to(X, (4, 3)), ValueError, r"For 'broadcast_to'.*\(2, 3\).*\(4, 3\)"),
    (lambda: ops.stack((X, Tensor(np.ones((3, 2), np.float32)))), ValueError, r"For 'Stack'.*\(2, 3\).*\(3, 2\)"),
]


@pytest.mark.parametrize("fn,exc,pattern", ERRORS)
def test_error_messages(fn, exc, pattern):
    with pytest.raises(exc, match=pattern):
        fn()


def test_errors_raised_while_tracing():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(ms.nn.Cell):
        def construct(self, x):
            return ops.reshape(x, (5,))

    with pytest.raises(ValueError, match="For 'Reshape'"):
        Net()(X)

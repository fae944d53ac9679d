"""Lowering a traced network to MindSpore primitives: folding, layouts, refused ops and their messages."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import nn, ops
from tfspore.train.mindir import _save


def _prims(net, *inputs):
    return [p.op_type for p in _save.build(net, inputs).primitives]


class _ShapeArithmetic(nn.Cell):
    def construct(self, x):
        n, c = x.shape[0], x.shape[1] * x.shape[2]
        return ops.reshape(x, (n, c)) * ops.ones((n, c), ms.float32)


class _Conv(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1)
        self.conv2 = nn.Conv2d(3, 3, 1)

    def construct(self, x):
        return self.conv2(ops.relu(self.conv(x)))


class _Dropout(nn.Cell):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.drop(x)


def test_shape_arithmetic_folds_to_constants():
    prims = _prims(_ShapeArithmetic(), ms.Tensor(np.ones((2, 3, 4), np.float32)))
    assert prims == ["Reshape", "Mul"]


def test_convolutions_are_channels_first_with_the_padding_in_conv2d():
    model = _save.build(_Conv(), (ms.Tensor(np.ones((1, 2, 5, 5), np.float32)),))
    assert [p.op_type for p in model.primitives] == ["Conv2D", "ReLU", "Conv2D"]
    conv = model.primitives[0]
    attrs = {a.name: a for a in conv.attribute}
    assert attrs["pad_mode"].s == b"pad" and [v.ints[0] for v in attrs["pad"].values] == [1, 1, 1, 1]
    assert attrs["format"].s == b"NCHW"


def test_training_mode_random_op_is_refused_with_the_hint():
    net = _Dropout()
    net.set_train(True)
    with pytest.raises(NotImplementedError, match=r"the operation '\w+' .*net.set_train\(False\)"):
        _save.build(net, (ms.Tensor(np.ones((2, 4), np.float32)),))
    net.set_train(False)
    assert _prims(net, ms.Tensor(np.ones((2, 4), np.float32))) == []


def test_dynamic_shape_inputs_are_refused():
    net = _ShapeArithmetic()
    net.set_inputs(ms.Tensor(shape=[None, 3, 4], dtype=ms.float32))
    with pytest.raises(ValueError, match=r"For 'export', input 0 has the shape \(None, 3, 4\)"):
        _save.build(net, (ms.Tensor(np.ones((2, 3, 4), np.float32)),))

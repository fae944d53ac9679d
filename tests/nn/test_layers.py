"""Behaviour of the nn layers: constructor checks, parameter names and shapes, reprs, math."""
import math
import re
from collections import OrderedDict

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Parameter, Tensor, nn
from tfspore.common.initializer import HeUniform
from tfspore._internal import layout as _layout


def _addr(text):
    return re.sub(r"0x[0-9a-fA-F]+", "0x", text)


def _t(a, dtype=np.float32):
    return Tensor(np.asarray(a, dtype))


def _np_conv_nchw(x, w, stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1)):
    x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[1]), (pads[2], pads[3])))
    n, c, h, wd = x.shape
    o, ci, kh, kw = w.shape
    ekh, ekw = (kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1
    oh, ow = (h - ekh) // stride[0] + 1, (wd - ekw) // stride[1] + 1
    out = np.zeros((n, o, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            r, c = i * stride[0], j * stride[1]
            patch = x[:, :, r:r + ekh:dilation[0], c:c + ekw:dilation[1]]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


# ------------------------------------------------------------------------------------------- Dense
class TestDense:
    def test_params_and_repr(self):
        d = nn.Dense(3, 2)
        assert [(p.name, p.shape) for p in d.get_parameters()] == [("weight", (2, 3)), ("bias", (2,))]
        assert repr(d) == "Dense(input_channels=3, output_channels=2, has_bias=True)"
        assert repr(nn.Dense(3, 2, has_bias=False)) == "Dense(input_channels=3, output_channels=2)"
        assert nn.Dense(3, 2, has_bias=False).bias is None
        assert repr(nn.Dense(3, 2, activation="relu")) == (
            "Dense(\n  input_channels=3, output_channels=2, has_bias=True, activation=ReLU()\n"
            "  (activation): ReLU()\n)")

    def test_default_init_bounds(self):
        d = nn.Dense(16, 50)
        bound = 1 / math.sqrt(16)
        assert np.abs(d.weight.asnumpy()).max() <= bound
        assert np.abs(d.bias.asnumpy()).max() <= bound
        assert np.abs(d.weight.asnumpy()).std() > bound / 4

    def test_math_and_ranks(self, mode):
        rng = np.random.default_rng(0)
        w = rng.standard_normal((4, 3)).astype(np.float32)
        b = rng.standard_normal(4).astype(np.float32)
        d = nn.Dense(3, 4, weight_init=Tensor(w), bias_init=Tensor(b), activation=nn.Tanh())
        x = rng.standard_normal((2, 5, 3)).astype(np.float32)
        out = d(Tensor(x))
        assert out.shape == (2, 5, 4)
        np.testing.assert_allclose(out.asnumpy(), np.tanh(x @ w.T + b), rtol=1e-5, atol=1e-6)
        assert d(Tensor(x[0, 0])).shape == (4,)

    def test_validation(self):
        with pytest.raises(ValueError, match=r"For 'Dense', the 'in_channels' must be a positive int, but got 0\."):
            nn.Dense(0, 2)
        with pytest.raises(TypeError, match="out_channels"):
            nn.Dense(2, 2.0)
        with pytest.raises(TypeError, match="has_bias"):
            nn.Dense(2, 2, has_bias=1)
        with pytest.raises(ValueError, match="weight init shape error"):
            nn.Dense(3, 2, weight_init=Tensor(np.zeros((3, 2), np.float32)))
        with pytest.raises(KeyError, match="'name' must be in"):
            nn.Dense(3, 2, activation="nope")
        with pytest.raises(TypeError, match="activation"):
            nn.Dense(3, 2, activation=3)

    def test_to_float_and_input_dtype(self, mode):
        d = nn.Dense(2, 3, weight_init="ones", bias_init="zeros").to_float(ms.float16)
        out = d(_t([[1.0, 2.0]]))
        assert out.dtype == ms.float16 and d.weight.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), [[3, 3, 3]])
        d32 = nn.Dense(2, 3, weight_init="ones", bias_init="zeros")
        assert d32(_t([[1.0, 2.0]], np.float16)).dtype == ms.float16


# ------------------------------------------------------------------------------------------ Conv2d
class TestConv2d:
    def test_defaults_names_repr(self):
        c = nn.Conv2d(1, 4, 3)
        assert [(p.name, p.shape) for p in c.get_parameters()] == [("weight", (4, 1, 3, 3))]
        assert isinstance(c.weight_init, HeUniform)
        assert _addr(repr(c)) == (
            "Conv2d(input_channels=1, output_channels=4, kernel_size=(3, 3), stride=(1, 1), pad_mode=same, "
            "padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=<mindspore.common.initializer."
            "HeUniform object at 0x>, bias_init=None, format=NCHW)")
        c2 = nn.Conv2d(3, 4, (3, 5), weight_init="normal", has_bias=True, bias_init="zeros", pad_mode="pad",
                       padding=(1, 1, 2, 2))
        assert repr(c2) == (
            "Conv2d(input_channels=3, output_channels=4, kernel_size=(3, 5), stride=(1, 1), pad_mode=pad, "
            "padding=(1, 1, 2, 2), dilation=(1, 1), group=1, has_bias=True, weight_init=normal, bias_init=zeros, "
            "format=NCHW)")
        assert nn.Conv2d(4, 6, 3, group=2).weight.shape == (6, 2, 3, 3)
        bound = 1 / math.sqrt(2 * 9)
        assert np.abs(nn.Conv2d(4, 6, 3, group=2, has_bias=True).bias.asnumpy()).max() <= bound

    @pytest.mark.parametrize("kwargs,shape", [
        (dict(), (2, 4, 9, 9)),
        (dict(stride=2), (2, 4, 5, 5)),
        (dict(pad_mode="valid"), (2, 4, 7, 7)),
        (dict(pad_mode="pad", padding=1, stride=2), (2, 4, 5, 5)),
        (dict(pad_mode="pad", padding=(0, 1, 2, 3), dilation=2), (2, 4, 6, 10)),
    ])
    def test_shapes(self, mode, kwargs, shape):
        c = nn.Conv2d(3, 4, 3, **kwargs)
        assert c(Tensor(np.ones((2, 3, 9, 9), np.float32))).shape == shape

    @pytest.mark.parametrize("kwargs,pads", [
        (dict(pad_mode="valid", stride=2), (0, 0, 0, 0)),
        (dict(pad_mode="pad", padding=(1, 0, 2, 1), dilation=(2, 1)), (1, 0, 2, 1)),
        (dict(pad_mode="same"), (1, 1, 1, 1)),
    ])
    def test_math_against_numpy(self, mode, kwargs, pads):
        rng = np.random.default_rng(1)
        c = nn.Conv2d(2, 3, 3, has_bias=True, **kwargs)
        x = rng.standard_normal((2, 2, 7, 6)).astype(np.float32)
        want = _np_conv_nchw(x, c.weight.asnumpy(), stride=c.stride, pads=pads, dilation=c.dilation)
        want += c.bias.asnumpy()[None, :, None, None]
        np.testing.assert_allclose(c(Tensor(x)).asnumpy(), want, rtol=1e-4, atol=1e-5)

    def test_grouped_matches_split(self, mode):
        rng = np.random.default_rng(2)
        c = nn.Conv2d(4, 6, 3, group=2, pad_mode="valid")
        x = rng.standard_normal((1, 4, 5, 5)).astype(np.float32)
        w = c.weight.asnumpy()
        want = np.concatenate([_np_conv_nchw(x[:, :2], w[:3]), _np_conv_nchw(x[:, 2:], w[3:])], axis=1)
        np.testing.assert_allclose(c(Tensor(x)).asnumpy(), want, rtol=1e-4, atol=1e-5)

    @pytest.mark.parametrize("nchw", [True, False], ids=["nchw", "nhwc"])
    def test_layout_paths_agree(self, monkeypatch, nchw):
        rng = np.random.default_rng(3)
        cells = [nn.Conv2d(2, 3, 3, has_bias=True, stride=2), nn.Conv2d(2, 3, 3, pad_mode="pad", padding=(1, 0, 0, 1)),
                 nn.Conv2d(2, 4, 3, group=2, dilation=2), nn.Conv2dTranspose(2, 3, 3, stride=2, dilation=2),
                 nn.MaxPool2d(3, 2, pad_mode="same"), nn.AvgPool2d(2, 2)]
        x = Tensor(rng.standard_normal((2, 2, 8, 8)).astype(np.float32))
        want = [c(x).asnumpy() for c in cells]
        monkeypatch.setattr(_layout, "_CACHE", {"gpu": False, "conv": nchw, "conv_transpose": nchw,
                                                "maxpool": nchw, "avgpool": nchw})
        for cell, expected in zip(cells, want):
            try:
                got = cell(x).asnumpy()
            except (tf.errors.UnimplementedError, tf.errors.InvalidArgumentError):
                continue  # this TensorFlow build has no NCHW kernel for the op on CPU
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)

    def test_validation(self):
        with pytest.raises(ValueError, match="'pad' must be zero when 'pad_mode' is not 'pad'"):
            nn.Conv2d(1, 1, 3, padding=1)
        with pytest.raises(ValueError, match="'pad_mode' must be one of"):
            nn.Conv2d(1, 1, 3, pad_mode="SAME")
        with pytest.raises(ValueError, match="'group' should be divisible"):
            nn.Conv2d(3, 4, 3, group=2)
        with pytest.raises(ValueError, match="NHWC"):
            nn.Conv2d(1, 1, 3, data_format="NHWC")
        with pytest.raises(ValueError, match="in_channels.*but got 0"):
            nn.Conv2d(0, 1, 3)
        with pytest.raises(ValueError, match="pad size"):
            nn.Conv2d(1, 1, 3, pad_mode="pad", padding=(1, 2))
        with pytest.raises(ValueError, match="kernel_size"):
            nn.Conv2d(1, 1, 0)


# ----------------------------------------------------------------------------------------- pooling
class TestPooling:
    def test_repr_and_defaults(self):
        assert repr(nn.MaxPool2d(kernel_size=2, stride=2)) == "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"
        assert repr(nn.AvgPool2d(kernel_size=2)) == "AvgPool2d(kernel_size=2, stride=1, pad_mode=VALID)"
        assert repr(nn.MaxPool2d((2, 3), (1, 2), "same")) == (
            "MaxPool2d(kernel_size=(2, 3), stride=(1, 2), pad_mode=SAME)")
        assert repr(nn.AvgPool2d(2, (2,))) == "AvgPool2d(kernel_size=2, stride=2, pad_mode=VALID)"

    def test_values(self, mode):
        x = np.arange(2 * 1 * 4 * 4, dtype=np.float32).reshape(2, 1, 4, 4)
        out = nn.MaxPool2d(2, 2)(Tensor(x)).asnumpy()
        np.testing.assert_array_equal(out[0, 0], [[5, 7], [13, 15]])
        out = nn.AvgPool2d(2, 2)(Tensor(x)).asnumpy()
        np.testing.assert_array_equal(out[0, 0], [[2.5, 4.5], [10.5, 12.5]])
        assert nn.MaxPool2d(2, 2)(Tensor(x[0])).shape == (1, 2, 2)

    def test_pad_mode(self, mode):
        x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
        avg = nn.AvgPool2d(2, 2, pad_mode="pad", padding=1)(Tensor(x)).asnumpy()[0, 0]
        np.testing.assert_allclose(avg, [[0, 0.75, 1.75], [3.75, 9, 11], [8.75, 19, 21]], rtol=1e-6)
        avg = nn.AvgPool2d(2, 2, pad_mode="pad", padding=1, count_include_pad=False)(Tensor(x)).asnumpy()[0, 0]
        np.testing.assert_allclose(avg, [[0, 1.5, 3.5], [7.5, 9, 11], [17.5, 19, 21]], rtol=1e-6)
        mx = nn.MaxPool2d(2, 2, pad_mode="pad", padding=1, ceil_mode=True)(Tensor(x)).asnumpy()[0, 0]
        np.testing.assert_allclose(mx, [[0, 2, 4], [10, 12, 14], [20, 22, 24]])
        same = nn.AvgPool2d(3, 2, pad_mode="same")(Tensor(x)).asnumpy()[0, 0]
        np.testing.assert_allclose(same[0], [3, 4.5, 6], rtol=1e-6)

    def test_validation(self):
        with pytest.raises(ValueError, match="pad_mode"):
            nn.MaxPool2d(2, pad_mode="full")
        with pytest.raises(ValueError, match="kernel_size"):
            nn.MaxPool2d(0)
        with pytest.raises(ValueError, match="can not be set to non-default value"):
            nn.MaxPool2d(2, padding=1)
        with pytest.raises(TypeError, match="kernel_size"):
            nn.AvgPool2d(2.0)


# ------------------------------------------------------------------------------------- activations
class TestActivations:
    @pytest.mark.parametrize("name,fn", [
        ("relu", lambda x: np.maximum(x, 0)),
        ("sigmoid", lambda x: 1 / (1 + np.exp(-x))),
        ("tanh", np.tanh),
        ("softmax", lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
        ("logsoftmax", lambda x: x - np.log(np.exp(x).sum(-1, keepdims=True))),
        ("gelu", lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    ])
    def test_values(self, mode, name, fn):
        x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
        cell = nn.get_activation(name)
        np.testing.assert_allclose(cell(Tensor(x)).asnumpy(), fn(x.astype(np.float64)), rtol=1e-5, atol=1e-6)

    def test_reprs(self):
        assert [repr(c) for c in (nn.ReLU(), nn.Sigmoid(), nn.Tanh(), nn.Softmax(), nn.LogSoftmax(), nn.GELU())] == [
            "ReLU()", "Sigmoid()", "Tanh()", "Softmax()", "LogSoftmax()", "GELU()"]

    def test_softmax_axis_and_errors(self):
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        out = nn.Softmax(axis=0)(Tensor(x)).asnumpy()
        np.testing.assert_allclose(out.sum(0), [1, 1, 1], rtol=1e-6)
        with pytest.raises(TypeError, match="axis"):
            nn.Softmax(axis=1.5)
        with pytest.raises(TypeError, match="approximate"):
            nn.GELU(approximate=1)

    def test_to_float(self):
        out = nn.ReLU().to_float(ms.float16)(_t([-1.0, 2.0]))
        assert out.dtype == ms.float16


# ------------------------------------------------------------------------ Flatten, Dropout, Identity
class TestBasic:
    def test_flatten(self, mode):
        x = Tensor(np.ones((2, 3, 4, 5), np.float32))
        assert nn.Flatten()(x).shape == (2, 60)
        assert nn.Flatten(0, 1)(x).shape == (6, 4, 5)
        assert nn.Flatten(1, 2)(x).shape == (2, 12, 5)
        assert nn.Flatten(-2)(x).shape == (2, 3, 20)
        assert repr(nn.Flatten()) == "Flatten()"

    def test_flatten_errors(self):
        with pytest.raises(ValueError, match="out of range"):
            nn.Flatten(4)(Tensor(np.ones((2, 3), np.float32)))
        with pytest.raises(ValueError, match="start_dim"):
            nn.Flatten(1, 0)(Tensor(np.ones((2, 3), np.float32)))
        assert nn.Flatten(0)(Tensor(np.float32(1.0))).shape == (1,)

    def test_dropout(self, mode):
        x = Tensor(np.ones((200, 50), np.float32))
        d = nn.Dropout(p=0.4)
        assert repr(d) == "Dropout(p=0.4)" and repr(nn.Dropout()) == "Dropout(keep_prob=0.5)"
        np.testing.assert_array_equal(d(x).asnumpy(), x.asnumpy())
        d.set_train()
        out = d(x).asnumpy()
        kept = out != 0
        assert 0.5 < kept.mean() < 0.7
        np.testing.assert_allclose(out[kept], 1 / 0.6, rtol=1e-5)
        out2 = d(x).asnumpy()
        assert (out2 != out).any()
        np.testing.assert_array_equal(nn.Dropout(p=0.0).set_train()(x).asnumpy(), x.asnumpy())

    def test_dropout_validation(self):
        with pytest.raises(ValueError, match=r"'p' must be a number in range \[0, 1\), but got 1"):
            nn.Dropout(p=1)
        with pytest.raises(ValueError, match="keep_prob"):
            nn.Dropout(keep_prob=0.0)
        with pytest.raises(TypeError, match="keep_prob"):
            nn.Dropout(keep_prob=1)

    def test_identity(self, mode):
        x = _t([1.0, 2.0])
        np.testing.assert_array_equal(nn.Identity(3, a=1)(x).asnumpy(), [1, 2])
        assert repr(nn.Identity()) == "Identity()"

    def test_matmul(self, mode):
        rng = np.random.default_rng(4)
        a = rng.standard_normal((2, 3, 4)).astype(np.float32)
        b = rng.standard_normal((4, 5)).astype(np.float32)
        np.testing.assert_allclose(nn.MatMul()(Tensor(a), Tensor(b)).asnumpy(), a @ b, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(nn.MatMul(transpose_x1=True, transpose_x2=True)(Tensor(b), Tensor(a)).asnumpy(),
                                   b.T @ np.swapaxes(a, -1, -2), rtol=1e-5, atol=1e-5)
        v = rng.standard_normal(4).astype(np.float32)
        np.testing.assert_allclose(nn.MatMul()(Tensor(a), Tensor(v)).asnumpy(), a @ v, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(nn.MatMul()(Tensor(v), Tensor(v)).asnumpy(), v @ v, rtol=1e-5)
        with pytest.raises(ValueError, match="x1_col"):
            nn.MatMul()(Tensor(a), Tensor(a))
        assert repr(nn.MatMul()) == "MatMul()"


# --------------------------------------------------------------------------------------- BatchNorm
class TestBatchNorm:
    def test_names(self):
        bn = nn.BatchNorm2d(4)
        assert [(n, p.name, p.requires_grad) for n, p in bn.parameters_and_names()] == [
            ("moving_mean", "mean", False), ("moving_variance", "variance", False), ("gamma", "gamma", True),
            ("beta", "beta", True)]
        assert not nn.BatchNorm2d(4, affine=False).gamma.requires_grad

    def test_training_and_eval(self, mode):
        rng = np.random.default_rng(5)
        x = rng.standard_normal((8, 3, 4, 4)).astype(np.float32) * 2 + 1
        bn = nn.BatchNorm2d(3, momentum=0.9)
        bn.set_train()
        out = bn(Tensor(x)).asnumpy()
        mean = x.mean((0, 2, 3))
        var = x.var((0, 2, 3))
        want = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.9 + 0.1 * x.var((0, 2, 3), ddof=1), rtol=1e-5)
        bn.set_train(False)
        mm, mv = bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()
        out = bn(Tensor(x)).asnumpy()
        want = (x - mm[None, :, None, None]) / np.sqrt(mv[None, :, None, None] + 1e-5)
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(bn.moving_mean.asnumpy(), mm)

    def test_batchnorm1d_and_validation(self):
        bn = nn.BatchNorm1d(3, use_batch_statistics=True)
        out = bn(Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))).asnumpy()
        np.testing.assert_allclose(out.mean(0), 0, atol=1e-5)
        with pytest.raises(ValueError, match="momentum"):
            nn.BatchNorm2d(3, momentum=1.5)
        with pytest.raises(ValueError, match="num_features"):
            nn.BatchNorm2d(0)
        with pytest.raises(ValueError, match="4 dims"):
            nn.BatchNorm2d(3)(Tensor(np.ones((2, 3), np.float32)))


# ---------------------------------------------------------------------------------------- containers
class TestContainers:
    def test_sequential(self, mode):
        seq = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 2)])
        assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
        assert len(seq) == 3 and isinstance(seq[1], nn.ReLU) and seq[-1] is seq[2]
        assert seq(Tensor(np.ones((5, 4), np.float32))).shape == (5, 2)
        seq.append(nn.Dense(2, 1))
        assert seq.get_parameters and [p.name for p in seq[3].get_parameters()] == ["3.weight", "3.bias"]
        assert seq(Tensor(np.ones((5, 4), np.float32))).shape == (5, 1)
        with pytest.raises(IndexError, match="range"):
            seq[4]
        with pytest.raises(TypeError, match="each cell must be subclass of Cell"):
            seq.append(3)

    def test_sequential_ordered_dict_slice_insert_del(self):
        seq = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 2)), ("act", nn.ReLU())]))
        assert [p.name for p in seq.get_parameters()] == ["fc.weight", "fc.bias"]
        assert list(seq.name_cells()) == ["fc", "act"]
        seq2 = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))
        seq2.insert(0, nn.Dense(2, 2))
        assert [p.name for p in seq2.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias", "2.weight",
                                                           "2.bias"]
        del seq2[0]
        assert [p.name for p in seq2.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias"]
        sl = seq2[0:1]
        assert isinstance(sl, nn.SequentialCell) and len(sl) == 1
        with pytest.raises(TypeError, match="must be Cell, list or orderedDict"):
            nn.SequentialCell({"a": nn.ReLU()})

    def test_nested_names_and_repr(self):
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.layers = nn.SequentialCell([nn.Dense(3, 3), nn.ReLU()])
                self.cl = nn.CellList([nn.Dense(3, 3)])
                self.cd = nn.CellDict({"a": nn.Dense(3, 1)})

            def construct(self, x):
                return self.cd["a"](self.cl[0](self.layers(x)))

        net = Net()
        net.layers.append(nn.Dense(3, 3))
        net.cl.append(nn.Dense(3, 3))
        assert [p.name for p in net.get_parameters()] == [
            "layers.0.weight", "layers.0.bias", "layers.2.weight", "layers.2.bias", "cl.0.weight", "cl.0.bias",
            "cl.1.weight", "cl.1.bias", "cd.a.weight", "cd.a.bias"]
        assert repr(net.cl) == ("CellList(\n  (0): Dense(input_channels=3, output_channels=3, has_bias=True)\n"
                                "  (1): Dense(input_channels=3, output_channels=3, has_bias=True)\n)")
        assert net(Tensor(np.ones((2, 3), np.float32))).shape == (2, 1)

    def test_celllist(self):
        cl = nn.CellList([nn.Dense(2, 2)])
        cl.extend([nn.ReLU(), nn.Dense(2, 2)])
        cl.insert(1, nn.Dense(2, 2))
        assert len(cl) == 4 and isinstance(cl[2], nn.ReLU)
        assert [p.name for p in cl.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias", "3.weight",
                                                         "3.bias"]
        assert isinstance(cl[1:], nn.CellList) and len(cl[1:]) == 3
        assert [type(c).__name__ for c in cl] == ["Dense", "Dense", "ReLU", "Dense"]
        del cl[0]
        assert list(cl.name_cells()) == ["0", "1", "2"]
        assert [p.name for p in cl.get_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
        with pytest.raises(TypeError, match="instance of list"):
            cl.extend(nn.ReLU())
        with pytest.raises(TypeError, match="'index' must be int or slice"):
            cl["a"]

    def test_celldict(self):
        cd = nn.CellDict([("a", nn.Dense(2, 2)), ("b", nn.ReLU())])
        assert list(cd.keys()) == ["a", "b"] and len(cd) == 2 and "a" in cd
        assert [p.name for p in cd.get_parameters()] == ["a.weight", "a.bias"]
        assert isinstance(cd.pop("b"), nn.ReLU) and list(cd) == ["a"]
        cd.update({"c": nn.Tanh()})
        assert [k for k, _ in cd.items()] == ["a", "c"]
        with pytest.raises(KeyError, match="contain"):
            cd["x.y"] = nn.ReLU()
        with pytest.raises(TypeError, match="can not be CellDict, CellList or SequentialCell"):
            cd["s"] = nn.SequentialCell([nn.ReLU()])
        with pytest.raises(TypeError, match="cell can not be None"):
            cd["n"] = None
        cd.clear()
        assert len(cd) == 0


# --------------------------------------------------------------------------- spec 1.3 / 4 example
def test_spec_example_network_names_and_repr():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3)
            self.bn = nn.BatchNorm2d(4)
            self.relu = nn.ReLU()
            self.flatten = nn.Flatten()
            self.layers = nn.SequentialCell([nn.Dense(256, 10), nn.ReLU(), nn.Dense(10, 3)])
            self.cl = nn.CellList([nn.Dense(3, 3)])
            self.scale = Parameter(Tensor(1.0), name="scale")
            self.p_noname = Parameter(Tensor(np.zeros(2)))

        def construct(self, x):
            return self.layers(self.flatten(self.relu(self.bn(self.conv1(x)))))

    net = Net()
    got = [(n, p.shape, p.requires_grad) for n, p in net.parameters_and_names()]
    assert got == [("scale", (), True), ("p_noname", (2,), True), ("conv1.weight", (4, 1, 3, 3), True),
                   ("bn.moving_mean", (4,), False), ("bn.moving_variance", (4,), False), ("bn.gamma", (4,), True),
                   ("bn.beta", (4,), True), ("layers.0.weight", (10, 256), True), ("layers.0.bias", (10,), True),
                   ("layers.2.weight", (3, 10), True), ("layers.2.bias", (3,), True), ("cl.0.weight", (3, 3), True),
                   ("cl.0.bias", (3,), True)]
    assert [n for n, _ in net.cells_and_names()] == ["", "conv1", "bn", "relu", "flatten", "layers", "layers.0",
                                                     "layers.1", "layers.2", "cl", "cl.0"]
    lines = _addr(repr(net)).split("\n")
    assert lines[0] == "Net("
    assert lines[1] == ("  (conv1): Conv2d(input_channels=1, output_channels=4, kernel_size=(3, 3), stride=(1, 1), "
                        "pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, weight_init=<mindspore."
                        "common.initializer.HeUniform object at 0x>, bias_init=None, format=NCHW)")
    assert lines[2] == ("  (bn): BatchNorm2d(num_features=4, eps=1e-05, momentum=0.9, gamma=Parameter (name=bn.gamma, "
                        "shape=(4,), dtype=Float32, requires_grad=True), beta=Parameter (name=bn.beta, shape=(4,), "
                        "dtype=Float32, requires_grad=True), moving_mean=Parameter (name=bn.moving_mean, shape=(4,), "
                        "dtype=Float32, requires_grad=False), moving_variance=Parameter (name=bn.moving_variance, "
                        "shape=(4,), dtype=Float32, requires_grad=False))")
    assert lines[3:] == [
        "  (relu): ReLU()", "  (flatten): Flatten()", "  (layers): SequentialCell(",
        "    (0): Dense(input_channels=256, output_channels=10, has_bias=True)", "    (1): ReLU()",
        "    (2): Dense(input_channels=10, output_channels=3, has_bias=True)", "  )", "  (cl): CellList(",
        "    (0): Dense(input_channels=3, output_channels=3, has_bias=True)", "  )", ")"]
    assert net(Tensor(np.ones((2, 1, 8, 8), np.float32))).shape == (2, 3)


def test_public_exports():
    import tfspore.nn.layer as layer
    for name in ("Dense", "Conv2d", "MaxPool2d", "AvgPool2d", "ReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
                 "GELU", "Flatten", "Dropout", "Identity", "SequentialCell", "CellList", "CellDict", "MatMul",
                 "BatchNorm2d", "BatchNorm1d", "get_activation"):
        assert name in layer.__all__ and getattr(nn, name) is getattr(layer, name)

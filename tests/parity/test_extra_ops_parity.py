"""Further primitives and functions (Rint, DiagPart, LpNorm, MatrixInverse, InplaceAdd, tensor_dot, ger, the optimizer
updates ApplyMomentum / Adam / AdamWeightDecay) against MindSpore 2.10 on CPU."""
import numpy as np
import pytest

import tfspore as ts
from tests.parity._ms_helpers import _warm_mindspore  # noqa: F401  (autouse fixture)

ms = pytest.importorskip("mindspore")

R = np.random.RandomState(5)


def _cmp(m, t, rtol=1e-5, atol=1e-6):
    assert str(m.dtype) == str(t.dtype) and m.shape == t.shape
    np.testing.assert_allclose(t.asnumpy(), m.asnumpy(), rtol=rtol, atol=atol)


def _both(make, *arrays):
    return make(ms)(*[ms.Tensor(a) for a in arrays]), make(ts)(*[ts.Tensor(a) for a in arrays])


@pytest.mark.parametrize("make,arrays", [
    (lambda fw: fw.ops.Rint(), (np.array([0.5, 1.5, -2.5, 2.4, -0.6], np.float32),)),
    (lambda fw: fw.ops.DiagPart(), (R.standard_normal((2, 3, 2, 3)).astype(np.float32),)),
    (lambda fw: fw.ops.LpNorm(axis=[0, 1], p=2), (R.standard_normal((3, 4, 2)).astype(np.float32),)),
    (lambda fw: fw.ops.LpNorm(axis=1, p=1, keep_dims=True), (R.standard_normal((3, 4, 2)).astype(np.float32),)),
    (lambda fw: fw.ops.LpNorm(axis=-1, p=3), (R.standard_normal((3, 4)).astype(np.float32),)),
    (lambda fw: fw.ops.LpNorm(axis=1, p=2, epsilon=0.5), (np.array([[0, 0], [.1, .1], [3, 4]], np.float32),)),
    (lambda fw: fw.ops.LpNorm(axis=1, p=0, epsilon=0.5), (np.array([[0, 0], [.1, 0], [3, 4]], np.float32),)),
    (lambda fw: fw.ops.MatrixInverse(), (np.eye(3, dtype=np.float32) * 2 + R.uniform(0, .3, (2, 3, 3)).astype(
        np.float32),)),
    (lambda fw: fw.ops.InplaceAdd((0, 2)), (R.standard_normal((3, 2)).astype(np.float32),
                                           R.standard_normal((2, 2)).astype(np.float32))),
    (lambda fw: lambda a, b: fw.ops.tensor_dot(a, b, ((0, 1), (1, 2))),
     (R.standard_normal((2, 3, 4)).astype(np.float32), R.standard_normal((4, 2, 3)).astype(np.float32))),
    (lambda fw: lambda a, b: fw.ops.tensor_dot(a, b, 1),
     (R.standard_normal((2, 3, 4)).astype(np.float32), R.standard_normal((4, 2, 3)).astype(np.float32))),
    (lambda fw: fw.ops.ger, (R.standard_normal(3).astype(np.float32), R.standard_normal(4).astype(np.float32))),
    (lambda fw: fw.ops.Gelu(), (R.standard_normal(5).astype(np.float32),)),
    (lambda fw: fw.ops.batch_dot, (R.standard_normal((2, 3)).astype(np.float32),
                                   R.standard_normal((2, 3)).astype(np.float32))),
    (lambda fw: fw.ops.batch_dot, (R.standard_normal((2, 3, 4, 5)).astype(np.float32),
                                   R.standard_normal((2, 5, 6)).astype(np.float32))),
    (lambda fw: lambda a, b: fw.ops.batch_dot(a, b, (1, 2)), (R.standard_normal((2, 3, 4)).astype(np.float32),
                                                              R.standard_normal((2, 5, 3)).astype(np.float32))),
    (lambda fw: lambda a: fw.ops.svd(a)[0], (R.standard_normal((2, 4, 3)).astype(np.float32),)),
    (lambda fw: lambda a, b: fw.ops.IndexAdd(axis=1)(a, fw.Tensor(np.array([0, 2, 0], np.int32)), b),
     (R.standard_normal((2, 4)).astype(np.float32), R.standard_normal((2, 3)).astype(np.float32))),
])
def test_elementwise_and_linear(make, arrays):
    m, t = _both(make, *arrays)
    _cmp(m, t, rtol=1e-5, atol=1e-5)


def _params(fw, arrays):
    return [fw.Parameter(fw.Tensor(a.copy()), name=f"p{i}") for i, a in enumerate(arrays)]


@pytest.mark.parametrize("nesterov", [False])  # MindSpore 2.10's CPU kernel ignores use_nesterov (unit-tested)
def test_apply_momentum(nesterov):
    w, a, g = (R.standard_normal((3, 2)).astype(np.float32) for _ in range(3))
    out = {}
    for fw in (ms, ts):
        var, acc = _params(fw, [w, a])
        op = fw.ops.ApplyMomentum(use_nesterov=nesterov)
        for _ in range(2):
            op(var, acc, fw.Tensor(0.1, fw.float32), fw.Tensor(g), fw.Tensor(0.9, fw.float32))
        out[fw] = (var.asnumpy(), acc.asnumpy())
    for x, y in zip(out[ts], out[ms]):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("nesterov", [False, True])
def test_adam(nesterov):
    w, g = R.standard_normal((4,)).astype(np.float32), R.standard_normal((4,)).astype(np.float32)
    m0, v0 = R.standard_normal((4,)).astype(np.float32) * .1, R.uniform(0, .1, (4,)).astype(np.float32)
    out = {}
    for fw in (ms, ts):
        var, m, v = _params(fw, [w, m0, v0])
        f32 = lambda x: fw.Tensor(x, fw.float32)  # noqa: E731
        fw.ops.Adam(use_nesterov=nesterov)(var, m, v, f32(0.9 ** 3), f32(0.999 ** 3), f32(0.01), f32(0.9),
                                           f32(0.999), f32(1e-8), fw.Tensor(g))
        out[fw] = (var.asnumpy(), m.asnumpy(), v.asnumpy())
    for x, y in zip(out[ts], out[ms]):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)


def test_adam_weight_decay():
    w, g = R.standard_normal((4,)).astype(np.float32), R.standard_normal((4,)).astype(np.float32)
    m0, v0 = R.standard_normal((4,)).astype(np.float32) * .1, R.uniform(0, .1, (4,)).astype(np.float32)
    out = {}
    for fw in (ms, ts):
        var, m, v = _params(fw, [w, m0, v0])
        fw.ops.AdamWeightDecay()(var, m, v, 0.01, 0.9, 0.999, 1e-6, 0.05, fw.Tensor(g))
        out[fw] = (var.asnumpy(), m.asnumpy(), v.asnumpy())
    for x, y in zip(out[ts], out[ms]):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample(mode, padding_mode, align_corners):
    x = R.standard_normal((2, 3, 5, 6)).astype(np.float32)
    grid = R.uniform(-1.3, 1.3, (2, 4, 3, 2)).astype(np.float32)
    m, t = _both(lambda fw: lambda a, b: fw.ops.grid_sample(a, b, mode, padding_mode, align_corners), x, grid)
    _cmp(m, t, rtol=1e-5, atol=1e-5)


def test_svd_reconstructs():
    x = R.standard_normal((4, 3)).astype(np.float32)
    s, u, v = ts.ops.svd(ts.Tensor(x))
    ms_s = ms.ops.svd(ms.Tensor(x))[0]
    np.testing.assert_allclose(s.asnumpy(), ms_s.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose((u.asnumpy() * s.asnumpy()) @ v.asnumpy().T, x, atol=1e-5)


def test_adam_no_update_param():
    g = R.standard_normal((4,)).astype(np.float32)
    m0, v0 = R.standard_normal((4,)).astype(np.float32) * .1, R.uniform(0, .1, (4,)).astype(np.float32)
    out = {}
    for fw in (ms, ts):
        m, v = _params(fw, [m0, v0])
        f32 = lambda x: fw.Tensor(x, fw.float32)  # noqa: E731
        delta = fw.ops.AdamNoUpdateParam()(m, v, f32(0.9 ** 2), f32(0.999 ** 2), f32(0.01), f32(0.9), f32(0.999),
                                           f32(1e-8), fw.Tensor(g))
        out[fw] = (delta.asnumpy(), m.asnumpy(), v.asnumpy())
    for x, y in zip(out[ts], out[ms]):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("var_dtype", [np.float32, np.float16])
def test_fused_cast_adam_weight_decay(var_dtype):
    w = R.standard_normal((4,)).astype(var_dtype)
    g = R.standard_normal((4,)).astype(np.float16)
    m0, v0 = R.standard_normal((4,)).astype(np.float32) * .1, R.uniform(0, .1, (4,)).astype(np.float32)
    out = {}
    for fw in (ms, ts):
        var, m, v = _params(fw, [w, m0, v0])

        class Net(fw.nn.Cell):
            def __init__(self):
                super().__init__()
                self.opt = fw.ops.FusedCastAdamWeightDecay()
                self.var, self.m, self.v = var, m, v

            def construct(self, grad):
                return self.opt(self.var, self.m, self.v, 0.01, 0.9, 0.999, 1e-6, 0.05, grad, 2.0)
        fw.set_context(mode=fw.GRAPH_MODE)
        try:
            Net()(fw.Tensor(g))
        finally:
            fw.set_context(mode=fw.PYNATIVE_MODE)
        out[fw] = (var.asnumpy(), m.asnumpy(), v.asnumpy())
    for x, y in zip(out[ts], out[ms]):
        assert x.dtype == y.dtype
        np.testing.assert_allclose(x.astype(np.float32), y.astype(np.float32), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("kw", [
    dict(kernel_size=(3, 3), strides=(1, 1, 1, 1), padding=(1, 1, 1, 1)),
    dict(kernel_size=(3, 2), strides=(1, 1, 2, 1), padding=(0, 1, 1, 0), dilations=(1, 1, 1, 2),
         deformable_groups=2),
    dict(kernel_size=(3, 3), strides=(1, 1, 2, 2), padding=(1, 1, 1, 1), groups=2),
])
def test_deformable_conv2d(kw):
    n, c, h, w, o = 2, 4, 7, 6, 6
    kh, kwid = kw["kernel_size"]
    st, pad, dil = kw["strides"], kw["padding"], kw.get("dilations", (1, 1, 1, 1))
    ho = (h + pad[0] + pad[1] - (kh - 1) * dil[2] - 1) // st[2] + 1
    wo = (w + pad[2] + pad[3] - (kwid - 1) * dil[3] - 1) // st[3] + 1
    dg = kw.get("deformable_groups", 1)
    x = R.standard_normal((n, c, h, w)).astype(np.float32)
    wt = R.standard_normal((o, c // kw.get("groups", 1), kh, kwid)).astype(np.float32)
    off = R.uniform(-2.5, 2.5, (n, 3 * dg * kh * kwid, ho, wo)).astype(np.float32)
    off[:, 2 * dg * kh * kwid:] = R.uniform(0, 1, off[:, 2 * dg * kh * kwid:].shape)
    bias = R.standard_normal(o).astype(np.float32)
    m = ms.ops.deformable_conv2d(ms.Tensor(x), ms.Tensor(wt), ms.Tensor(off), bias=ms.Tensor(bias), **kw)
    t = ts.ops.deformable_conv2d(ts.Tensor(x), ts.Tensor(wt), ts.Tensor(off), bias=ts.Tensor(bias), **kw)
    _cmp(m, t, rtol=1e-4, atol=1e-4)

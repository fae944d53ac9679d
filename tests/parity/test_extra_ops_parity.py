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

"""Further primitives and functions: make_range, tensor_dot, pows, scalar helpers, Rint, DiagPart, LpNorm, split
dropout, Dropout3D, InplaceAdd, Randperm, the 1.x names, and the optimizer-update primitives."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, Tensor, ops
from tfspore.ops import composite as C, functional as F, operations as P

R = np.random.RandomState(8)


def test_make_range():
    assert F.make_range(4) == (0, 1, 2, 3) and ops.make_range(1, 7, 2) == (1, 3, 5)
    assert F.make_range(5, 1, -2) == (5, 3) and F.make_range(Tensor(np.int32(3))) == (0, 1, 2)
    with pytest.raises(TypeError, match="For 'make_range', the 0th input should be a int scalar, but got 2.0"):
        F.make_range(2.0)
    with pytest.raises(RuntimeError, match="'step' could not be 0"):
        F.make_range(0, 5, 0)
    with pytest.raises(ValueError, match="the number of inputs must be 1, 2 or 3, but got 4"):
        F.make_range(1, 2, 3, 4)


def test_tensor_dot_and_ger(mode, run):
    a, b = R.standard_normal((2, 3, 4)).astype(np.float32), R.standard_normal((4, 2, 3)).astype(np.float32)
    out = run(lambda x, y: ops.tensor_dot(x, y, ((0, 1), (1, 2))), Tensor(a), Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), np.tensordot(a, b, ((0, 1), (1, 2))), rtol=1e-5)
    np.testing.assert_allclose(C.tensor_dot(Tensor(a), Tensor(b), 1).asnumpy(), np.tensordot(a, b, 1), rtol=1e-5)
    np.testing.assert_allclose(ops.ger(Tensor(a[0, 0]), Tensor(b[0, 0])).asnumpy(), np.outer(a[0, 0], b[0, 0]),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="the contracted dimensions must match"):
        ops.tensor_dot(Tensor(a), Tensor(b), ((0,), (0,)))
    with pytest.raises(ValueError, match=r"the value in 'axes' must be in range: \[-3, 2\], but got 5"):
        ops.tensor_dot(Tensor(a), Tensor(b), ((5,), (0,)))


def test_pows_and_scalar_helpers():
    assert ops.pows is F.pows
    np.testing.assert_allclose(ops.pows(Tensor(np.array([2.0, 3.0], np.float32)), 2.0).asnumpy(), [4.0, 9.0])
    assert P.ScalarCast()(3.7, ms.int64) == 3 and isinstance(ops.ScalarCast()(3, ms.float32), float)
    t = P.ScalarToArray()(2.5)
    assert isinstance(t, Tensor) and t.shape == () and t.asnumpy() == 2.5


def test_elementwise_primitives(mode, run):
    x = np.array([0.5, 1.5, -2.5, 2.4], np.float32)
    np.testing.assert_array_equal(run(lambda t: P.Rint()(t), Tensor(x)).asnumpy(), np.rint(x))
    d = R.standard_normal((2, 3, 2, 3)).astype(np.float32)
    np.testing.assert_array_equal(run(lambda t: P.DiagPart()(t), Tensor(d)).asnumpy(),
                                  np.einsum("ijij->ij", d))
    y = R.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(run(lambda t: P.LpNorm(axis=1, p=3)(t), Tensor(y)).asnumpy(),
                               (np.abs(y) ** 3).sum(1) ** (1 / 3), rtol=1e-5)
    np.testing.assert_allclose(run(lambda t: P.LpNorm(axis=(0, 1), p=0)(t), Tensor(y)).asnumpy(), 12.0)
    m = np.eye(3, dtype=np.float32) * 2 + 0.1
    np.testing.assert_allclose(run(lambda t: P.MatrixInverse()(t), Tensor(m)).asnumpy(), np.linalg.inv(m),
                               rtol=1e-5)
    z = np.zeros((4, 2), np.float32)
    np.testing.assert_array_equal(run(lambda a, b: P.InplaceAdd((1, 3))(a, b), Tensor(z),
                                      Tensor(np.ones((2, 2), np.float32))).asnumpy(), [[0, 0], [1, 1], [0, 0],
                                                                                        [1, 1]])


def test_split_dropout_and_dropout3d(mode, run):
    x = np.ones((50, 40), np.float32)

    def fn(t):
        mask = P.DropoutGenMask(Seed0=1, Seed1=2)((50, 40), Tensor(np.float32(0.5)))
        return P.DropoutDoMask()(t, mask, Tensor(np.float32(0.5)))
    out = run(fn, Tensor(x)).asnumpy()
    assert set(np.unique(out)) <= {0.0, 2.0} and 0.4 < (out > 0).mean() < 0.6
    y, mask = P.Dropout3D(0.5)(Tensor(np.ones((2, 30, 2, 2, 2), np.float32)))
    per_channel = y.asnumpy().reshape(2, 30, -1)
    assert mask.dtype == ms.bool_ and np.all(per_channel.min(-1) == per_channel.max(-1))


def test_randperm_and_old_names():
    out = P.Randperm(max_length=6, pad=-1)(Tensor(np.array([4], np.int32))).asnumpy()
    assert sorted(out[:4].tolist()) == [0, 1, 2, 3] and out[4:].tolist() == [-1, -1]
    assert isinstance(P.Pack(1), P.Stack) and isinstance(P.Unpack(), P.Unstack)
    assert isinstance(P.Gelu(), P.GeLU) and isinstance(P.FastGelu(), P.FastGeLU)
    assert repr(P.Gelu()) == "Prim[Gelu]"


def _params(*arrays):
    return [Parameter(Tensor(a.copy()), name=f"p{i}") for i, a in enumerate(arrays)]


@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_momentum(nesterov):
    w, a, g = (R.standard_normal(3).astype(np.float32) for _ in range(3))
    var, acc = _params(w, a)
    P.ApplyMomentum(use_nesterov=nesterov)(var, acc, Tensor(np.float32(0.1)), Tensor(g), Tensor(np.float32(0.9)))
    na = a * 0.9 + g
    expect = w - (g * 0.1 + na * 0.9 * 0.1) if nesterov else w - 0.1 * na
    np.testing.assert_allclose(acc.asnumpy(), na, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), expect, rtol=1e-6)


def test_fused_weight_scale_momentum_in_graph():
    w, a, g = (R.standard_normal(3).astype(np.float32) for _ in range(3))
    var, acc = _params(w, a)

    class Step(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = P.FusedWeightScaleApplyMomentum()
            self.var, self.acc = var, acc

        def construct(self, grad):
            return self.op(Tensor(np.float32(0.01)), Tensor(np.float32(4.0)), self.var, self.acc,
                           Tensor(np.float32(0.1)), grad, Tensor(np.float32(0.9)))
    ms.set_context(mode=ms.GRAPH_MODE)
    Step()(Tensor(g))
    na = a * 0.9 + (g / 4.0 + 0.01 * w)
    np.testing.assert_allclose(var.asnumpy(), w - 0.1 * na, rtol=1e-5)


def test_optimizer_primitive_errors():
    with pytest.raises(TypeError, match="For 'ApplyMomentum', the 'gradient_scale' must be float"):
        P.ApplyMomentum(gradient_scale=1)
    with pytest.raises(TypeError, match="For 'AdamWeightDecay', the 'var' must be a Parameter, but got ndarray"):
        P.AdamWeightDecay()(np.zeros(2), None, None, 0.1, 0.9, 0.99, 1e-8, 0.0, np.zeros(2))

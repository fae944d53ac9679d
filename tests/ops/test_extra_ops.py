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
            return self.op(Tensor(np.float32(0.01)), Tensor(np.float32(0.25)), self.var, self.acc,
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


def test_batch_dot_svd_grid_sample_in_both_modes(mode, run):
    a, b = R.standard_normal((2, 3, 4)).astype(np.float32), R.standard_normal((2, 4, 5)).astype(np.float32)
    np.testing.assert_allclose(run(lambda x, y: ops.batch_dot(x, y), Tensor(a), Tensor(b)).asnumpy(),
                               np.einsum("bij,bjk->bik", a, b), rtol=1e-5)
    s = run(lambda x: ops.svd(x, compute_uv=False), Tensor(a))
    np.testing.assert_allclose(s.asnumpy(), np.linalg.svd(a, compute_uv=False), rtol=1e-5)
    img = R.standard_normal((1, 2, 4, 4)).astype(np.float32)
    ident = np.stack(np.meshgrid(np.linspace(-1, 1, 4), np.linspace(-1, 1, 4)), -1)[None].astype(np.float32)
    out = run(lambda x, g: ops.grid_sample(x, g, align_corners=True), Tensor(img), Tensor(ident))
    np.testing.assert_allclose(out.asnumpy(), img, rtol=1e-5, atol=1e-6)


def test_index_add_updates_parameter():
    p = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="x")
    out = P.IndexAdd(axis=1)(p, Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [[2, 0, 1], [2, 0, 1]])
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())
    with pytest.raises(ValueError, match="For 'IndexAdd', the 'indices' must be 1-D"):
        P.IndexAdd(0)(p, Tensor(np.zeros((1, 1), np.int32)), Tensor(np.ones((1, 3), np.float32)))


def test_batch_dot_and_grid_sample_errors():
    with pytest.raises(ValueError, match="For 'batch_dot', the 'axes' cannot contain 0"):
        ops.batch_dot(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)), 0)
    with pytest.raises(NotImplementedError, match="'reflection'"):
        ops.grid_sample(Tensor(np.ones((1, 1, 2, 2), np.float32)), Tensor(np.zeros((1, 1, 1, 2), np.float32)),
                        padding_mode="reflection")


def test_parameter_server_ops_raise_when_called():
    push, pull = P.Push("ApplyMomentum", []), P.Pull()
    assert push.optim_type == "ApplyMomentum"
    with pytest.raises(RuntimeError, match="For 'Pull', the parameter server mode is not available"):
        pull(Tensor(np.zeros(1, np.float32)), Tensor(np.zeros(1, np.float32)))
    with pytest.raises(RuntimeError, match="For 'Push', the parameter server mode"):
        push((1.0,), (1,))


def test_fused_momentum_in_a_zoo_style_optimizer():
    """The pattern of the zoo's ResNet ``src/momentum.py``: hyper_map over a Tensor-typed MultitypeFuncGraph."""
    run_opt = ops.MultitypeFuncGraph("momentum_opt")

    @run_opt.register("Function", "Tensor", "Tensor", "Tensor", "Tensor", "Tensor", "Tensor", "Tensor")
    def _run(opt, weight_decay, scale, momentum, lr, gradient, weight, moment):
        return ops.depend(True, opt(weight_decay, scale, weight, moment, lr, gradient, momentum))

    class FusedMomentum(ms.nn.Optimizer):
        def __init__(self, params):
            super().__init__(0.1, params, 0.0, 4.0)
            self.momentum = Parameter(Tensor(0.9, ms.float32), name="momentum")
            self.moments = self.parameters.clone(prefix="moments", init="zeros")
            self.hyper_map = ops.HyperMap()
            self.opt = P.FusedWeightScaleApplyMomentum()

        def construct(self, gradients):
            return self.hyper_map(ops.partial(run_opt, self.opt, Tensor(0.0, ms.float32), self.reciprocal_scale,
                                              self.momentum, self.get_lr()), gradients, self.parameters,
                                  self.moments)

    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")
    opt = FusedMomentum([w])
    ms.set_context(mode=ms.GRAPH_MODE)
    opt((Tensor(np.full(3, 4.0, np.float32)),))
    np.testing.assert_allclose(w.asnumpy(), 0.9, rtol=1e-6)  # 1 - 0.1 * (4 / 4)


def test_deformable_conv2d_zero_offsets_is_conv(mode, run):
    x = R.standard_normal((1, 3, 6, 5)).astype(np.float32)
    w = R.standard_normal((4, 3, 3, 3)).astype(np.float32)
    off = np.zeros((1, 27, 6, 5), np.float32)
    off[:, 18:] = 1.0
    out = run(lambda a, b, c: ops.deformable_conv2d(a, b, c, (3, 3), (1, 1, 1, 1), (1, 1, 1, 1)),
              Tensor(x), Tensor(w), Tensor(off))
    ref = ops.Conv2D(4, 3, pad_mode="pad", pad=1)(Tensor(x), Tensor(w))
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-4, atol=1e-5)


def test_deformable_conv2d_gradient_reaches_offsets_and_errors():
    import tensorflow as tf
    x = Tensor(R.standard_normal((1, 2, 5, 5)).astype(np.float32))
    w = Tensor(R.standard_normal((2, 2, 3, 3)).astype(np.float32))
    off = tf.Variable(R.uniform(-1, 1, (1, 27, 3, 3)).astype(np.float32))
    with tf.GradientTape() as tape:
        y = ops.deformable_conv2d(x, w, Tensor._from_tf(tf.convert_to_tensor(off)), (3, 3), (1, 1, 1, 1),
                                  (0, 0, 0, 0))._value()
        loss = tf.reduce_sum(y * y)
    assert np.abs(tape.gradient(loss, off).numpy()).sum() > 0
    with pytest.raises(ValueError, match="the 'modulated' must be True"):
        ops.deformable_conv2d(x, w, Tensor(off.numpy()), (3, 3), (1, 1, 1, 1), (0, 0, 0, 0), modulated=False)
    with pytest.raises(TypeError, match="the 'strides' must be a tuple of 4 ints"):
        ops.deformable_conv2d(x, w, Tensor(off.numpy()), (3, 3), (1, 1), (0, 0, 0, 0))


def test_split_accepts_the_1x_output_num_form(mode, run):
    x = Tensor(np.arange(12, dtype=np.float32).reshape(2, 6))
    parts = run(lambda t: ops.split(t, axis=1, output_num=3), x)
    assert len(parts) == 3 and all(p.shape == (2, 2) for p in parts)
    np.testing.assert_array_equal(parts[2].asnumpy(), [[4, 5], [10, 11]])
    with pytest.raises(ValueError, match="must be divisible by 'output_num' 4"):
        ops.split(x, axis=1, output_num=4)

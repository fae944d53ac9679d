"""Math ops (element-wise, comparisons, reductions, matmul) against numpy, in both modes."""
import math

import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, ops

R = np.random.RandomState(0)
X = R.uniform(-2, 2, (2, 3)).astype(np.float32)
XP = R.uniform(0.1, 2, (2, 3)).astype(np.float32)
I = R.randint(0, 5, (2, 3)).astype(np.int32)
B = np.array([[True, False, True], [False, True, True]])

CASES = [
    ("abs", lambda x: ops.abs(x), [X], np.abs),
    ("neg", lambda x: ops.Neg()(x), [X], np.negative),
    ("sqrt", lambda x: ops.sqrt(x), [XP], np.sqrt),
    ("sqrt_int_is_float", lambda x: ops.Sqrt()(x), [I], lambda a: np.sqrt(a.astype(np.float32))),
    ("rsqrt", lambda x: ops.Rsqrt()(x), [XP], lambda a: 1 / np.sqrt(a)),
    ("square", lambda x: ops.square(x), [X], np.square),
    ("exp", lambda x: ops.Exp()(x), [X], np.exp),
    ("log", lambda x: ops.log(x), [XP], np.log),
    ("log1p_expm1", lambda x: (ops.log1p(x), ops.Expm1()(x)), [XP], lambda a: (np.log1p(a), np.expm1(a))),
    ("trig", lambda x: (ops.Sin()(x), ops.Cos()(x), ops.tan(x)), [X], lambda a: (np.sin(a), np.cos(a), np.tan(a))),
    ("erf", lambda x: ops.erf(x), [X], lambda a: np.vectorize(math.erf)(a).astype(np.float32)),
    ("floor_ceil", lambda x: (ops.Floor()(x), ops.ceil(x)), [X], lambda a: (np.floor(a), np.ceil(a))),
    ("round_half_even", lambda x: ops.Round()(x), [np.array([0.5, 1.5, 2.5, -0.5], np.float32)], np.round),
    ("sign", lambda x: ops.Sign()(x), [X], np.sign),
    ("reciprocal", lambda x: ops.reciprocal(x), [XP], lambda a: 1 / a),
    ("isnan", lambda x: (ops.isnan(x), ops.IsInf()(x), ops.isfinite(x)),
     [np.array([np.nan, np.inf, 1.0], np.float32)], lambda a: (np.isnan(a), np.isinf(a), np.isfinite(a))),
    ("add", lambda x, y: ops.add(x, y), [X, XP], np.add),
    ("add_broadcast", lambda x, y: ops.Add()(x, y), [X, XP[0]], np.add),
    ("sub_mul", lambda x, y: (ops.Sub()(x, y), ops.mul(x, y)), [X, XP], lambda a, b: (a - b, a * b)),
    ("div_int_true", lambda x, y: ops.div(x, y), [I, I + 1], lambda a, b: (a / b).astype(np.float32)),
    ("div_floor_trunc", lambda x, y: (ops.div(x, y, rounding_mode="floor"), ops.div(x, y, rounding_mode="trunc")),
     [np.array([-7., 7.], np.float32), np.array([2., 2.], np.float32)],
     lambda a, b: (np.floor(a / b), np.trunc(a / b))),
    ("floordiv_mod", lambda x, y: (ops.FloorDiv()(x, y), ops.FloorMod()(x, y), ops.Mod()(x, y)),
     [np.array([-7, 7, -3], np.int32), np.array([2, -2, 2], np.int32)],
     lambda a, b: (np.floor_divide(a, b), np.mod(a, b), np.fmod(a, b))),
    ("pow", lambda x, y: ops.Pow()(x, y), [XP, X], np.power),
    ("max_min", lambda x, y: (ops.maximum(x, y), ops.Minimum()(x, y)), [X, XP], lambda a, b: (np.maximum(a, b),
                                                                                           np.minimum(a, b))),
    ("compare", lambda x, y: (ops.equal(x, y), ops.NotEqual()(x, y), ops.gt(x, y), ops.GreaterEqual()(x, y),
                              ops.less(x, y), ops.LessEqual()(x, y)), [I, I[::-1]],
     lambda a, b: (a == b, a != b, a > b, a >= b, a < b, a <= b)),
    ("logical", lambda x, y: (ops.logical_and(x, y), ops.LogicalOr()(x, y), ops.LogicalNot()(x)), [B, B[::-1]],
     lambda a, b: (a & b, a | b, ~a)),
    ("addn", lambda x, y: ops.AddN()((x, y, x)), [X, XP], lambda a, b: 2 * a + b),
    ("squared_difference", lambda x, y: ops.SquaredDifference()(x, y), [X, XP], lambda a, b: (a - b) ** 2),
    ("reduce_mean", lambda x: (ops.ReduceMean()(x), ops.ReduceMean(True)(x, 1), ops.ReduceMean()(x, (0, 1))), [X],
     lambda a: (a.mean(), a.mean(1, keepdims=True), a.mean())),
    ("reduce_sum", lambda x: (ops.ReduceSum()(x), ops.ReduceSum(keep_dims=True)(x, 0), ops.ReduceSum()(x, -1)), [X],
     lambda a: (a.sum(), a.sum(0, keepdims=True), a.sum(-1))),
    ("reduce_max_min_prod", lambda x: (ops.ReduceMax()(x, 1), ops.ReduceMin(True)(x), ops.ReduceProd()(x, 0)), [X],
     lambda a: (a.max(1), a.min(keepdims=True), a.prod(0))),
    ("reduce_all_any", lambda x: (ops.ReduceAll()(x, 1), ops.ReduceAny()(x)), [B], lambda a: (a.all(1), a.any())),
    ("mean_sum", lambda x: (ops.mean(x, 1), ops.sum(x, (0, 1), True)), [X],
     lambda a: (a.mean(1), a.sum(keepdims=True))),
    ("sum_int_is_int64", lambda x: ops.sum(x), [I], lambda a: a.sum().astype(np.int64)),
    ("amax_amin", lambda x: (ops.amax(x, 1), ops.amin(x)), [X], lambda a: (a.max(1), a.min())),
    ("prod", lambda x: ops.prod(x, 1, True), [X], lambda a: a.prod(1, keepdims=True)),
    ("std_var", lambda x: (ops.std(x), ops.var(x, 1, ddof=1)), [X], lambda a: (a.std(), a.var(1, ddof=1))),
    ("all_any", lambda x: (ops.all(x, 1), ops.any(x)), [B], lambda a: (a.all(1), a.any())),
    ("argmin", lambda x: (ops.argmin(x, 1), ops.Argmin()(x)), [X],
     lambda a: (a.argmin(1).astype(np.int32), a.argmin(-1).astype(np.int32))),
    ("max_with_index", lambda x: ops.max(x, 1), [X], lambda a: (a.max(1), a.argmax(1).astype(np.int64))),
    ("cumsum", lambda x: (ops.cumsum(x, 1), ops.CumSum(exclusive=True)(x, 1), ops.CumSum(reverse=True)(x, 0)), [X],
     lambda a: (np.cumsum(a, 1), np.cumsum(a, 1) - a, np.cumsum(a[::-1], 0)[::-1])),
    ("logsumexp", lambda x: ops.logsumexp(x, 1), [X], lambda a: np.log(np.exp(a).sum(1))),
    ("norm", lambda x: (ops.norm(x), ops.norm(x, dim=1), ops.norm(x, 1)), [X],
     lambda a: (np.linalg.norm(a), np.linalg.norm(a, axis=1), np.linalg.norm(a, 1))),
    ("isclose", lambda x, y: ops.isclose(x, y), [X, X + 1e-7], np.isclose),
    ("matmul", lambda x, y: (ops.matmul(x, y), ops.MatMul(transpose_b=True)(x, x)), [X, XP.T.copy()],
     lambda a, b: (a @ b, a @ a.T)),
    ("batch_matmul", lambda x, y: (ops.BatchMatMul()(x, y), ops.bmm(x, y)),
     [R.rand(4, 2, 3).astype(np.float32), R.rand(4, 3, 5).astype(np.float32)], lambda a, b: (a @ b, a @ b)),
    ("clamp", lambda x: (ops.clamp(x, -1, 1), ops.clip_by_value(x, -0.5, 0.5), ops.clamp(x, max=0.0)), [X],
     lambda a: (np.clip(a, -1, 1), np.clip(a, -0.5, 0.5), np.minimum(a, 0))),
    ("clip_by_global_norm", lambda x, y: ops.clip_by_global_norm((x, y), 1.0), [X, XP],
     lambda a, b: tuple(t / max(np.sqrt((a ** 2).sum() + (b ** 2).sum()), 1.0) for t in (a, b))),
]


@pytest.mark.parametrize("name,fn,inputs,expect", CASES, ids=[c[0] for c in CASES])
def test_math(mode, run, npify, name, fn, inputs, expect):
    out = npify(run(fn, *[Tensor(a) for a in inputs]))
    ref = expect(*inputs)
    outs, refs = (out, ref) if isinstance(ref, tuple) else ((out,), (ref,))
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs):
        r = np.asarray(r)
        assert o.shape == r.shape, name
        if r.dtype.kind == "f":
            np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-5)
        else:
            np.testing.assert_array_equal(o, r)
            assert o.dtype == r.dtype, (name, o.dtype, r.dtype)


@pytest.mark.parametrize("op,scalar,dtype,expected_dtype", [
    (lambda x, s: ops.Add()(x, s), 2.5, np.int32, ms.float32),
    (lambda x, s: ops.Add()(x, s), 2, np.int32, ms.int32),
    (lambda x, s: ops.Mul()(x, s), 2, np.float16, ms.float16),
    (lambda x, s: ops.mul(s, x), 0.5, np.float32, ms.float32),
    (lambda x, s: ops.pow(x, s), 2, np.int32, ms.int32),
    (lambda x, s: ops.pow(x, s), 0.5, np.int32, ms.float32),
    (lambda x, s: ops.equal(x, s), 2, np.int32, ms.bool_),
])
def test_scalar_promotion(op, scalar, dtype, expected_dtype):
    out = op(Tensor(np.array([1, 2, 3]).astype(dtype)), scalar)
    assert out.dtype == expected_dtype


def test_scalar_promotion_values():
    x = Tensor(np.array([1, 2, 3], np.int32))
    np.testing.assert_allclose(ops.Add()(x, 2.5).asnumpy(), [3.5, 4.5, 5.5])
    np.testing.assert_allclose(ops.pow(x, 0.5).asnumpy(), np.sqrt([1, 2, 3]), rtol=1e-6)
    assert ops.Add()(1, 2).asnumpy() == 3


def test_dtype_rules():
    i = Tensor(np.array([1, 2, 3], np.int32))
    assert ops.ReduceMean()(i).dtype == ms.int32  # integer mean truncates, as MindSpore
    assert ops.ReduceSum()(Tensor(np.array([True, True]))).dtype == ms.bool_
    assert ops.sum(Tensor(np.array([True, True]))).asnumpy() == 2
    assert ops.prod(i).dtype == ms.int64
    assert ops.argmax(Tensor(X)).dtype == ms.int64
    assert ops.Argmax()(Tensor(X)).dtype == ms.int32
    assert ops.ArgMaxWithValue()(Tensor(X))[0].dtype == ms.int64


def test_norm_matrix_orders():
    a = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
    t = Tensor(a)
    np.testing.assert_allclose(ops.norm(t, 2).asnumpy(), np.linalg.norm(a, 2), rtol=1e-5)
    np.testing.assert_allclose(ops.norm(t, -2).asnumpy(), np.linalg.norm(a, -2), rtol=1e-5)
    np.testing.assert_allclose(ops.norm(t, "nuc").asnumpy(), np.linalg.norm(a, "nuc"), rtol=1e-5)
    np.testing.assert_allclose(ops.norm(t, float("inf")).asnumpy(), np.linalg.norm(a, np.inf), rtol=1e-5)
    np.testing.assert_allclose(ops.norm(t, 3, 1).asnumpy(), (np.abs(a) ** 3).sum(1) ** (1 / 3), rtol=1e-5)

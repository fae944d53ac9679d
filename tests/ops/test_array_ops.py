"""Array ops (creation, shape, indexing, scatter, sort) against numpy, in both modes."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, ops

R = np.random.RandomState(1)
X = R.uniform(-2, 2, (2, 3)).astype(np.float32)
X3 = R.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
I = np.array([2, 0, 1], np.int32)
B = np.array([[True, False, True], [False, True, True]])


def _take_along(a, idx, axis):
    return np.take_along_axis(a, idx.astype(np.int64), axis)


CASES = [
    ("reshape", lambda x: (ops.reshape(x, (3, 2)), ops.Reshape()(x, (-1,))), [X], lambda a: (a.reshape(3, 2),
                                                                                              a.reshape(-1))),
    ("transpose", lambda x: (ops.transpose(x, (2, 0, 1)), ops.Transpose()(x, (0, 2, 1)), ops.permute(x, (1, 0, 2))),
     [X3], lambda a: (a.transpose(2, 0, 1), a.transpose(0, 2, 1), a.transpose(1, 0, 2))),
    ("cast", lambda x: (ops.cast(x, ms.int32), ops.Cast()(x, ms.float16)), [X],
     lambda a: (a.astype(np.int32), a.astype(np.float16))),
    ("concat_stack", lambda x, y: (ops.concat((x, y), 1), ops.cat((x, y)), ops.stack((x, y), -1), ops.Stack()((x, y))),
     [X, X * 2], lambda a, b: (np.concatenate([a, b], 1), np.concatenate([a, b]), np.stack([a, b], -1),
                               np.stack([a, b]))),
    ("unstack_split", lambda x: (ops.Unstack(1)(x), ops.split(x, 1, 1), ops.Split(0, 2)(x), ops.chunk(x, 2, 1)), [X],
     lambda a: (tuple(a[:, i] for i in range(3)), tuple(a[:, i:i + 1] for i in range(3)), (a[:1], a[1:]),
                (a[:, :2], a[:, 2:]))),
    ("squeeze_expand", lambda x: (ops.squeeze(x), ops.Squeeze(0)(x), ops.expand_dims(x, 0), ops.unsqueeze(x, -1)),
     [X[None, :, :1].copy()], lambda a: (a.squeeze(), a[0], a[None], a[..., None])),
    ("one_hot", lambda i: (ops.one_hot(i, 4), ops.one_hot(i, 3, 1.0, 0.0, 0)), [I],
     lambda i: (np.eye(4, dtype=np.int64)[i], np.eye(3, dtype=np.float32)[i].T)),
    ("select_where", lambda c, x, y: (ops.select(c, x, y), ops.Select()(c, x, y), ops.where(c, x, 0.5)), [B, X, -X],
     lambda c, a, b: (np.where(c, a, b), np.where(c, a, b), np.where(c, a, 0.5).astype(np.float32))),
    ("tile", lambda x: (ops.tile(x, (2, 1)), ops.Tile()(x, (2, 1, 2))), [X],
     lambda a: (np.tile(a, (2, 1)), np.tile(a, (2, 1, 2)))),
    ("gather", lambda x, i: (ops.gather(x, i, 1), ops.Gather()(x, i[:2] % 2, 0)), [X, I],
     lambda a, i: (a[:, i], a[i[:2] % 2])),
    ("gather_d", lambda x, i: ops.gather_d(x, 1, i), [X, np.array([[2, 0, 1], [1, 1, 0]], np.int32)],
     lambda a, i: _take_along(a, i, 1)),
    ("gather_nd", lambda x, i: ops.gather_nd(x, i), [X, np.array([[1, 2], [0, 1]], np.int32)],
     lambda a, i: a[i[:, 0], i[:, 1]]),
    ("scatter_nd", lambda i, u: ops.ScatterNd()(i, u, (4,)), [np.array([[0], [2], [0]], np.int32),
                                                              np.array([1., 2., 3.], np.float32)],
     lambda i, u: np.array([4., 0., 2., 0.], np.float32)),
    ("tensor_scatter_update", lambda x, i, u: ops.TensorScatterUpdate()(x, i, u),
     [X, np.array([[0, 1], [1, 2]], np.int32), np.array([9., 8.], np.float32)],
     lambda a, i, u: np.where(np.isin(np.arange(6).reshape(2, 3), [1, 5]), np.array([[0, 9, 0], [0, 0, 8]]),
                              a).astype(np.float32)),
    ("tensor_scatter_elements", lambda x, i, u: ops.tensor_scatter_elements(x, i, u, 1, "add"),
     [np.zeros((2, 3), np.float32), np.array([[1, 1], [2, 0]], np.int32), np.array([[5., 1.], [6., 2.]], np.float32)],
     lambda a, i, u: np.array([[0., 6., 0.], [2., 0., 6.]], np.float32)),
    ("masked_fill", lambda x, m: ops.masked_fill(x, m, 0.5), [X, B], lambda a, m: np.where(m, 0.5, a)),
    ("slices", lambda x: (ops.Slice()(x, (0, 1), (2, -1)), ops.StridedSlice()(x, (0, 0), (2, 3), (1, 2))), [X],
     lambda a: (a[:, 1:], a[:, ::2])),
    ("flatten", lambda x: (ops.flatten(x), ops.flatten(x, start_dim=0), ops.Flatten()(x)), [X3],
     lambda a: (a.reshape(2, -1), a.reshape(-1), a.reshape(2, -1))),
    ("broadcast_to", lambda x: ops.broadcast_to(x, (4, -1, 3)), [X], lambda a: np.broadcast_to(a, (4, 2, 3))),
    ("zeros_ones_fill", lambda x: (ops.zeros_like(x), ops.ones_like(x), ops.fill(ms.float32, (2,), 3),
                                   ops.zeros((2, 2), ms.int32), ops.ones(3)), [X],
     lambda a: (np.zeros_like(a), np.ones_like(a), np.full(2, 3, np.float32), np.zeros((2, 2), np.int32),
                np.ones(3, np.float32))),
    ("arange_linspace", lambda: (ops.arange(5), ops.arange(0, 1, 0.25), ops.linspace(0, 1, 5)), [],
     lambda: (np.arange(5), np.arange(0, 1, 0.25, dtype=np.float32), np.linspace(0, 1, 5, dtype=np.float32))),
    ("topk_sort", lambda x: (ops.topk(x, 2), ops.sort(x, 0, descending=True)), [X],
     lambda a: ((-np.sort(-a, 1)[:, :2], np.argsort(-a, 1)[:, :2].astype(np.int32)),
                (-np.sort(-a, 0), np.argsort(-a, 0).astype(np.int32)))),
    ("unique", lambda x: ops.unique(x), [np.array([3, 1, 3, 2], np.int32)],
     lambda a: (np.array([3, 1, 2], np.int32), np.array([0, 1, 0, 2], np.int32))),
    ("tril_triu", lambda x: (ops.tril(x), ops.triu(x, 1)), [X], lambda a: (np.tril(a), np.triu(a, 1))),
    ("identity_flip", lambda x: (ops.Identity()(x), ops.flip(x, (1,))), [X], lambda a: (a, a[:, ::-1])),
]


@pytest.mark.parametrize("name,fn,inputs,expect", CASES, ids=[c[0] for c in CASES])
def test_array(mode, run, npify, name, fn, inputs, expect):
    out = npify(run(fn, *[Tensor(a) for a in inputs]))
    ref = expect(*inputs)

    def check(o, r):
        if isinstance(r, tuple):
            assert isinstance(o, tuple) and len(o) == len(r), name
            for a, b in zip(o, r):
                check(a, b)
            return
        r = np.asarray(r)
        assert o.shape == r.shape, (name, o.shape, r.shape)
        assert o.dtype == r.dtype, (name, o.dtype, r.dtype)
        np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-6)
    check(out, ref)


def test_shape_dtype_rank_size():
    x = Tensor(X3)
    assert ops.shape(x) == (2, 3, 4) and ops.Shape()(x) == (2, 3, 4)
    assert ops.rank(x) == 3 and ops.size(x) == 24
    assert ops.dtype(x) == ms.float32 and ops.DType()(x) == ms.float32
    np.testing.assert_array_equal(ops.TensorShape()(x).asnumpy(), [2, 3, 4])


def test_shape_inside_graph(mode, run):
    out = run(lambda x: ops.reshape(x, (ops.shape(x)[0], -1)), Tensor(X3))
    assert out.shape == (2, 12)


def test_tuple_to_array_and_scalar_to_tensor():
    assert ops.tuple_to_array((1, 2)).dtype == ms.int32
    assert ops.tuple_to_array((1.0, 2)).dtype == ms.float32
    t = ops.scalar_to_tensor(3)
    assert t.dtype == ms.float32 and t.shape == () and t.asnumpy() == 3.0


def test_full_defaults_to_int64_like_mindspore():
    assert ops.full((2,), 3).dtype == ms.int64
    np.testing.assert_array_equal(ops.full((2,), 1.5, dtype=ms.float32).asnumpy(), [1.5, 1.5])


def test_where_single_argument():
    rows, cols = ops.where(Tensor(B))
    np.testing.assert_array_equal(rows.asnumpy(), np.nonzero(B)[0])
    np.testing.assert_array_equal(cols.asnumpy(), np.nonzero(B)[1])

"""tfspore.Tensor: construction, conversion, operators, promotion, indexing, printing and methods."""
import copy
import pickle

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor
from tfspore.common import dtype as mstype
from tfspore.common.initializer import One, Normal


def _np(t):
    return t.asnumpy()


# ----------------------------------------------------------------------------- construction
@pytest.mark.parametrize("data,dtype", [
    (1.0, mstype.float32), (1, mstype.int64), (True, mstype.bool_), ([1.0, 2.0], mstype.float32),
    (np.float64(1), mstype.float64), ([1, 2], mstype.int64), ((1, 2.5), mstype.float32),
    ([True, False], mstype.bool_), (np.array([1, 2], np.int32), mstype.int32), ([np.float64(1.0), 2.0], mstype.float32),
    ([np.int32(1), 2], mstype.int64), ([np.int8(1), np.int8(2)], mstype.int8), (np.int8(3), mstype.int8),
    (np.ones(2, np.float16), mstype.float16), ([1.0, True], mstype.float32), (2 ** 63, mstype.uint64),
    (1 + 2j, mstype.complex128), ([], mstype.float32), ([[1, 2], [3, 4]], mstype.int64)])
def test_default_dtypes(data, dtype):
    assert Tensor(data).dtype == dtype


def test_construction_with_dtype_and_sources():
    t = Tensor([[1, 2], [3, 4]], mstype.float32)
    assert t.dtype == mstype.float32 and t.shape == (2, 2) and isinstance(t.shape, tuple)
    assert Tensor(t, mstype.int32).dtype == mstype.int32
    assert Tensor(np.arange(3), dtype=ms.float16).dtype == mstype.float16
    assert Tensor(1.5, mstype.bfloat16).dtype == mstype.bfloat16
    assert Tensor(tf.constant([1.0, 2.0])).dtype == mstype.float32
    assert Tensor([Tensor(1.0), Tensor(2.0)]).shape == (2,)
    assert Tensor(np.float32(2.0)).shape == ()
    copied = Tensor(t)
    assert copied is not t and np.array_equal(_np(copied), _np(t))
    assert Tensor(shape=(2, 3), dtype=mstype.float32).asnumpy().tolist() == [[0.0] * 3] * 2
    assert ms.tensor([1, 2, 3]).dtype == mstype.int64 and ms.is_tensor(t) and not ms.is_tensor(1)


@pytest.mark.parametrize("kwargs,exc,match", [
    ({}, TypeError, "input_data"),
    ({"input_data": None}, TypeError, "NoneType"),
    ({"input_data": "abc"}, TypeError, "input_data"),
    ({"input_data": {"a": 1}}, TypeError, "dict"),
    ({"input_data": [1, "a"]}, TypeError, "unsupported element"),
    ({"input_data": [[1, 2], [3]]}, TypeError, "unsupported element"),
    ({"input_data": [1, 2], "shape": (2,)}, ValueError, "'shape' should be set to None"),
    ({"input_data": [1, 2], "init": One()}, ValueError, "at the same time"),
    ({"shape": (2,), "init": One()}, ValueError, "at the same time"),
    ({"shape": [None, 3], "dtype": mstype.float32, "init": One()}, ValueError, "dynamic shape"),
    ({"input_data": 1, "const_arg": 1}, TypeError, "const_arg"),
    ({"input_data": 1, "device": "Ascend"}, ValueError, "device"),
    ({"input_data": 1, "dtype": "float32"}, TypeError, "dtype"),
    ({"input_data": 1, "dtype": mstype.number}, TypeError, "dtype"),
])
def test_construction_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        Tensor(**kwargs)


def test_lazy_init():
    t = Tensor(shape=(2, 3), dtype=mstype.float32, init=One())
    assert t.has_init and t.shape == (2, 3) and t.dtype == mstype.float32 and isinstance(t.init, One)
    assert repr(t) == "Tensor(shape=[2, 3], dtype=Float32, value=<uninitialized>)"
    assert t.init_data() is t and not t.has_init and t.init is None
    assert _np(t).tolist() == [[1.0] * 3] * 2
    # used before init_data: initialised on first use
    u = Tensor(shape=2, dtype=mstype.int32, init="ones")
    assert (u + 1).asnumpy().tolist() == [2, 2]
    n = Tensor(shape=(4,), dtype=mstype.float16, init=Normal(0.01))
    assert n.init_data().dtype == mstype.float16


def test_placeholder_for_set_inputs():
    t = Tensor(shape=[None, 3], dtype=mstype.float32)
    assert t.shape == (-1, 3) and t.ndim == 2 and t.dtype == mstype.float32 and not t.has_init
    assert repr(t) == "Tensor(shape=[-1, 3], dtype=Float32, value=\n)"
    with pytest.raises(TypeError, match="placeholder"):
        t.init_data()
    with pytest.raises(TypeError, match="placeholder"):
        t.asnumpy()
    unknown_rank = Tensor(dtype=mstype.int32)
    assert unknown_rank.shape == (-2,) and repr(unknown_rank) == "Tensor(shape=[-2], dtype=Int32, value= )"


# ----------------------------------------------------------------------------- conversion
def test_properties_and_conversions():
    t = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t.ndim == 2 and t.size == 6 and t.itemsize == 4 and t.nbytes == 24 and t.strides == (12, 4)
    assert t.numel() == 6 and t.nelement() == 6 and t.dim() == 2 and t.ndimension() == 2
    assert np.asarray(t).dtype == np.float32 and np.array(t, dtype=np.float64).dtype == np.float64
    assert t.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and t.numpy().shape == (2, 3)
    assert Tensor([[3.5]]).item() == 3.5 and type(Tensor(3).item()) is int and Tensor(True).item() is True
    assert type(Tensor(1.5, mstype.bfloat16).item()) is float and Tensor([1.5], mstype.bfloat16).tolist() == [1.5]
    assert t.item(4) == 4.0
    assert int(Tensor([3])) == 3 and float(Tensor([[2.5]])) == 2.5 and bool(Tensor([0])) is False
    assert [10, 20, 30][Tensor(2)] == 30
    c = t.copy()
    assert c is not t and np.array_equal(_np(c), _np(t)) and t.clone().shape == (2, 3)
    assert t.value() is t and t.contiguous() is t and t.is_contiguous()
    assert Tensor.from_numpy(np.ones(2, np.int16)).dtype == mstype.int16


@pytest.mark.parametrize("call,exc,match", [
    (lambda: Tensor([1.0, 2.0]).item(), ValueError, "only one element"),
    (lambda: int(Tensor([1, 2])), ValueError, "Only one element tensors"),
    (lambda: float(Tensor([1.0, 2.0])), ValueError, "Only one element tensors"),
    (lambda: bool(Tensor([1, 2])), ValueError, "ambiguous"),
    (lambda: Tensor(2.0).__index__(), ValueError, "integer tensors"),
    (lambda: len(Tensor(1)), TypeError, "0-D"),
    (lambda: list(Tensor(1)), TypeError, "0-d"),
])
def test_conversion_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_len_iter_contains():
    t = Tensor([[1, 2], [3, 4], [5, 6]])
    assert len(t) == 3
    rows = list(t)
    assert len(rows) == 3 and rows[1].asnumpy().tolist() == [3, 4] and isinstance(rows[0], Tensor)
    assert 4 in t and 9 not in t and "x" not in t


def test_astype_variants():
    f = Tensor([1.5, -2.0])
    assert f.astype(mstype.int32).asnumpy().tolist() == [1, -2]
    assert f.astype("float16").dtype == mstype.float16 and f.astype(np.float64).dtype == mstype.float64
    assert f.astype(int).dtype == mstype.int64 and f.astype(bool).dtype == mstype.bool_
    assert f.to(mstype.int8).dtype == mstype.int8 and f.type() == "Float32" and f.type(mstype.int32).dtype == mstype.int32
    assert f.float().dtype == mstype.float32 and f.half().dtype == mstype.float16 and f.double().dtype == mstype.float64
    assert f.int().dtype == mstype.int32 and f.long().dtype == mstype.int64 and f.bool().dtype == mstype.bool_
    assert f.type_as(Tensor([1], mstype.uint8)).dtype == mstype.uint8
    with pytest.raises(TypeError, match="Tensor.astype"):
        f.astype(mstype.number)


def test_tf_and_numpy_interop():
    t = Tensor([1.0, 2.0])
    out = tf.add(t, 1.0)
    assert isinstance(out, tf.Tensor) and out.numpy().tolist() == [2.0, 3.0]
    assert tf.convert_to_tensor(t).dtype == tf.float32
    assert tf.reduce_sum(Tensor([1, 2, 3])).numpy() == 6

    @tf.function
    def f(x):
        return tf.square(x)
    assert f(Tensor([3.0])).numpy().tolist() == [9.0]
    assert np.asarray(Tensor([1, 2])).tolist() == [1, 2]


# ----------------------------------------------------------------------------- operators
def test_arithmetic_and_reflected():
    a = Tensor([1.0, 2.0, 4.0])
    assert _np(a + 1).tolist() == [2, 3, 5] and _np(1 + a).tolist() == [2, 3, 5]
    assert _np(a - 1).tolist() == [0, 1, 3] and _np(10 - a).tolist() == [9, 8, 6]
    assert _np(a * 2).tolist() == [2, 4, 8] and _np(2 * a).tolist() == [2, 4, 8]
    assert _np(a / 2).tolist() == [0.5, 1, 2] and _np(4 / a).tolist() == [4, 2, 1]
    assert _np(a // 3).tolist() == [0, 0, 1] and _np(7 // a).tolist() == [7, 3, 1]
    assert _np(a % 3).tolist() == [1, 2, 1] and _np(7 % a).tolist() == [0, 1, 3]
    assert _np(a ** 2).tolist() == [1, 4, 16] and _np(2 ** a).tolist() == [2, 4, 16]
    assert _np(-a).tolist() == [-1, -2, -4] and (+a) is a and _np(abs(-a)).tolist() == [1, 2, 4]
    m = Tensor([[1.0, 2.0], [3.0, 4.0]])
    assert _np(m @ m).tolist() == [[7, 10], [15, 22]] and _np(m @ Tensor([1.0, 1.0])).tolist() == [3, 7]
    assert (Tensor([1, 2, 3]) @ Tensor([1, 2, 3])).item() == 14
    assert _np(np.ones((2, 2), np.float32) @ m).tolist() == [[4, 6], [4, 6]]
    i = Tensor([1, 2, 3])
    assert _np(i ** -1).tolist() == [1, 0, 0] and _np(Tensor([-1, -1]) ** Tensor([-1, -2])).tolist() == [-1, 1]
    assert _np(Tensor(-7) // 2).item() == -4 and _np(Tensor(-7.0) % 2).item() == 1.0 and _np(-7 % i).tolist() == [0, 1, 2]
    assert round(Tensor(2.5)).item() == 2.0


@pytest.mark.parametrize("a,b,expected", [
    (mstype.bool_, mstype.int8, mstype.int8), (mstype.int8, mstype.uint8, mstype.int16),
    (mstype.uint8, mstype.int16, mstype.int16), (mstype.int32, mstype.int64, mstype.int64),
    (mstype.int64, mstype.float16, mstype.float16), (mstype.float16, mstype.float32, mstype.float32),
    (mstype.float16, mstype.bfloat16, mstype.float32), (mstype.bfloat16, mstype.int64, mstype.bfloat16),
    (mstype.float32, mstype.float64, mstype.float64), (mstype.bool_, mstype.bool_, mstype.bool_),
    (mstype.uint8, mstype.uint8, mstype.uint8), (mstype.int16, mstype.bool_, mstype.int16)])
def test_tensor_tensor_promotion(a, b, expected):
    x, y = Tensor([1, 2], a), Tensor([1, 2], b)
    assert (x + y).dtype == expected and (y + x).dtype == expected and (x * y).dtype == expected


@pytest.mark.parametrize("tdt,scalar,expected", [
    (mstype.int32, 2, mstype.int32), (mstype.int32, True, mstype.int32), (mstype.int32, 2.5, mstype.float32),
    (mstype.int8, 2.5, mstype.float32), (mstype.uint8, 2, mstype.uint8), (mstype.bool_, 2, mstype.int64),
    (mstype.bool_, True, mstype.bool_), (mstype.bool_, 2.5, mstype.float32), (mstype.float16, 2, mstype.float16),
    (mstype.float16, 2.5, mstype.float16), (mstype.float16, np.float64(2.5), mstype.float16),
    (mstype.float64, 2.5, mstype.float64), (mstype.bfloat16, 2.5, mstype.bfloat16), (mstype.int64, 2.5, mstype.float32),
    (mstype.int32, (1, 2), mstype.int32), (mstype.float16, [1.0, 2.0], mstype.float16), (mstype.int32, [1.5, 2.0],
                                                                                          mstype.float32)])
def test_tensor_scalar_promotion(tdt, scalar, expected):
    t = Tensor([1, 2], tdt)
    assert (t + scalar).dtype == expected and (scalar - t).dtype == expected and (t * scalar).dtype == expected


def test_division_dtypes():
    i = Tensor([1, 2], mstype.int32)
    assert (i / 2).dtype == mstype.float32 and (i / i).dtype == mstype.float32 and (1 / i).dtype == mstype.float32
    assert (Tensor([1, 2]) / Tensor([2, 2])).dtype == mstype.float32
    assert (Tensor([True]) / Tensor([True])).dtype == mstype.float32
    assert (Tensor([1, 2], mstype.float16) / 2).dtype == mstype.float16
    assert (i // 2).dtype == mstype.int32 and (i % 2).dtype == mstype.int32 and (i // 2.0).dtype == mstype.float32
    assert (i ** 2).dtype == mstype.int32 and (i ** 0.5).dtype == mstype.float32 and (2.0 ** i).dtype == mstype.float32


def test_bool_arithmetic():
    b = Tensor([True, False])
    assert (b + b).dtype == mstype.bool_ and _np(b + b).tolist() == [True, False]
    assert _np(b * Tensor([True, True])).tolist() == [True, False]
    with pytest.raises(TypeError, match="Neg"):
        -b
    with pytest.raises(TypeError, match="FloorMod"):
        b % b


def test_comparisons_and_logic():
    a = Tensor([1, 2, 3])
    for r in (a == 2, a != 2, a < 2, a <= 2, a > 2, a >= 2, a == 2.0, Tensor([1.5]) > a):
        assert r.dtype == mstype.bool_
    assert _np(a == 2).tolist() == [False, True, False] and _np(a >= 2).tolist() == [False, True, True]
    assert (a == None) is False and (a != "x") is True and (a == [1, 2, 3]) is False  # noqa: E711
    b = Tensor([True, False, True])
    assert _np(b & Tensor([True, True, False])).tolist() == [True, False, False]
    assert _np(b | False).tolist() == [True, False, True] and _np(b ^ True).tolist() == [False, True, False]
    assert _np(a & 3).tolist() == [1, 2, 3] and (a | b).dtype == mstype.int64 and _np(a ^ a).tolist() == [0, 0, 0]
    assert _np(~b).tolist() == [False, True, False]
    assert (~a).dtype == mstype.bool_ and _np(~Tensor([0, 1])).tolist() == [True, False]  # MindSpore: logical not
    with pytest.raises(TypeError, match="BitwiseAnd"):
        a & Tensor([1.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        a + "x"
    with pytest.raises(TypeError):
        a + None


# ----------------------------------------------------------------------------- indexing
X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
NESTED = ((0, 1),)  # a tuple inside the index tuple is a sequence index, as in numpy


@pytest.mark.parametrize("index", [
    (0, 1), (Ellipsis, 0), None, (slice(None), None, 1), [0, 1], ([0, 1], [1, 2]), (slice(None), [0, 2]),
    ([0, 1], slice(None), [1, 2]), (-1, -1, -1), (slice(None, None, 2), slice(None, None, -1)), (0, [0, 2], slice(1, 3)),
    ([0, 1], 1), (1, Ellipsis, None, 2), (slice(1, None), None, Ellipsis), (slice(None), 1, [0, 3]), (0, slice(None), [0, 3]),
    ([0, 1], [0, 1], [0, 1]), (slice(None), slice(None), [True, False, True, False]), [True, False],
    np.array([[0, 1], [1, 0]]), (np.array([True, False]), 1), NESTED, (slice(None), slice(None), -1)])
def test_getitem_matches_numpy(index):
    t = Tensor(X)
    expected = X[[0, 1]] if index is NESTED else X[index]
    got = t[index]
    assert isinstance(got, Tensor) and got.shape == expected.shape
    np.testing.assert_array_equal(_np(got), expected)


def test_getitem_tensor_indices():
    t = Tensor(X)
    assert t[Tensor(1)].shape == (3, 4) and t[Tensor([True, False])].shape == (1, 3, 4)
    np.testing.assert_array_equal(_np(t[t > 20]), [21, 22, 23])
    np.testing.assert_array_equal(_np(t[0, Tensor([2, 0])]), X[0, [2, 0]])
    np.testing.assert_array_equal(_np(t[(Tensor([0, 1]), Tensor([1, 2]))]), X[[0, 1], [1, 2]])
    mask = np.array([[True, False, True], [False, False, True]])
    np.testing.assert_array_equal(_np(t[Tensor(mask)]), X[mask])
    assert t[True].shape == (1, 2, 3, 4) and t[0, 1, 2].dtype == mstype.float32


@pytest.mark.parametrize("index,exc", [(5, IndexError), ((slice(None), 7), IndexError), (0.5, IndexError), ("a", IndexError),
                                       (False, IndexError), ([5], IndexError), ((0, 0, 0, 0), IndexError)])
def test_getitem_errors(index, exc):
    with pytest.raises(exc):
        Tensor(X)[index]


@pytest.mark.parametrize("index,value", [
    (0, 1), ((0, 1), -1), ((slice(None), 1), Tensor([7.0, 8.0, 9.0])), ([0, 2], 5), ((Ellipsis, -1), 3),
    (1, Tensor(2)), (0, Tensor([1, 2, 3, 4])), ((slice(1, None), slice(2, None)), Tensor([[1.0], [2.0]])),
    (([0, 1], [1, 2]), 100), ((slice(None), [0, 2]), Tensor([[1.0, 2.0]])), (0, 2.7), (0, [9, 8, 7, 6]),
    (1, (1, 2, 3, 4)), ((0, [True, False, True, True]), 0), (Ellipsis, 0), (None, 1)])
def test_setitem_matches_numpy(index, value):
    y = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = Tensor(y.copy())
    t[index] = value
    y[index] = np.asarray(value) if not isinstance(value, Tensor) else value.asnumpy()
    np.testing.assert_array_equal(_np(t), y)


def test_setitem_masks_and_casts():
    t = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    t[t > 5] = 0
    assert _np(t).tolist() == [[0, 1, 2, 3], [4, 5, 0, 0], [0, 0, 0, 0]]
    t[Tensor([True, False, True])] = -1
    assert _np(t)[0].tolist() == [-1] * 4 and _np(t)[2].tolist() == [-1] * 4
    i = Tensor(np.arange(4, dtype=np.int32))
    i[0] = 2.5
    assert i.dtype == mstype.int32 and _np(i).tolist() == [2, 1, 2, 3]


def test_setitem_through_views_changes_the_parent():
    x = Tensor(np.zeros((2, 3), np.float32))
    x[0][1] = 5
    row = x[1]
    row[2] = 7
    assert _np(x).tolist() == [[0, 5, 0], [0, 0, 7]]


# ----------------------------------------------------------------------------- printing
@pytest.mark.parametrize("t,text", [
    (Tensor(2.5), "Tensor(shape=[], dtype=Float32, value= 2.5)"),
    (Tensor(1.0), "Tensor(shape=[], dtype=Float32, value= 1)"),
    (Tensor(1 / 3), "Tensor(shape=[], dtype=Float32, value= 0.333333)"),
    (Tensor(123456789.0), "Tensor(shape=[], dtype=Float32, value= 1.23457e+08)"),
    (Tensor(0.1, mstype.float16), "Tensor(shape=[], dtype=Float16, value= 0.0999756)"),
    (Tensor(-5), "Tensor(shape=[], dtype=Int64, value= -5)"),
    (Tensor(False), "Tensor(shape=[], dtype=Bool, value= False)"),
    (Tensor(np.array([1, 2], np.int32)), "Tensor(shape=[2], dtype=Int32, value= [1, 2])"),
    (Tensor([True, False]), "Tensor(shape=[2], dtype=Bool, value= [ True, False])"),
    (Tensor(np.array([1, 255], np.uint8)), "Tensor(shape=[2], dtype=UInt8, value= [  1, 255])"),
    (Tensor([0.1, 1.0, -2.0], mstype.float16),
     "Tensor(shape=[3], dtype=Float16, value= [ 9.9976e-02,  1.0000e+00, -2.0000e+00])"),
    (Tensor([np.nan, np.inf, -np.inf, 1.0]),
     "Tensor(shape=[4], dtype=Float32, value= [            nan,             inf,            -inf,  1.00000000e+00])"),
    (Tensor(np.zeros((0, 3), np.float32)), "Tensor(shape=[0, 3], dtype=Float32, value=\n)"),
    (Tensor(np.zeros((0,), np.int32)), "Tensor(shape=[0], dtype=Int32, value= )"),
    (Tensor(np.array([[-1, 200], [3, 4]], np.int32)),
     "Tensor(shape=[2, 2], dtype=Int32, value=\n[[ -1, 200],\n [  3,   4]])"),
    (Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)),
     "Tensor(shape=[2, 3], dtype=Float32, value=\n[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00],\n"
     " [ 3.00000000e+00,  4.00000000e+00,  5.00000000e+00]])"),
    (Tensor([0.1, 2.0, -3.5], mstype.bfloat16), "Tensor(shape=[3], dtype=BFloat16, value= [0.100098,        2,     -3.5])"),
    (Tensor(np.arange(1001)), "Tensor(shape=[1001], dtype=Int64, value= [   0,    1,    2 ...  998,  999, 1000])"),
])
def test_repr(t, text):
    assert repr(t) == text


def test_repr_layout_rules():
    assert repr(Tensor(np.arange(25))).endswith("22, 23, \n 24])")
    assert repr(Tensor(np.arange(12, dtype=np.float32))).endswith("1.10000000e+01\n ])")
    assert repr(Tensor(np.arange(1000, dtype=np.float32))).count("...") == 0
    r = repr(Tensor(np.arange(14, dtype=np.int32).reshape(2, 7)))
    assert r == "Tensor(shape=[2, 7], dtype=Int32, value=\n[[ 0,  1,  2 ...  4,  5,  6],\n [ 7,  8,  9 ... 11, 12, 13]])"
    r = repr(Tensor(np.arange(7, dtype=np.int32).reshape(7, 1, 1)))
    assert r == "Tensor(shape=[7, 1, 1], dtype=Int32, value=\n[[[0]],\n [[1]],\n [[2]],\n ...\n [[4]],\n [[5]],\n [[6]]])"


def test_str_and_format():
    assert str(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))) == "[[0. 1. 2.]\n [3. 4. 5.]]"
    assert str(Tensor([1.5, -2.25])) == "[ 1.5  -2.25]" and str(Tensor(3.0)) == "3.0"
    assert f"{Tensor(2.5)}" == "2.5" and f"{Tensor(2.5):.3f}" == "2.500" and format(Tensor([1, 2])) == "[1 2]"
    with pytest.raises(TypeError):
        format(Tensor([1.0, 2.0]), ".2f")


# ----------------------------------------------------------------------------- methods
def test_reductions():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    i32 = Tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    b = Tensor(np.array([[True, False, True], [True, True, True]]))
    assert x.sum().item() == 15 and _np(x.sum(1)).tolist() == [3, 12] and _np(x.sum(dim=1)).tolist() == [3, 12]
    assert x.sum(1, keepdim=True).shape == (2, 1) and x.sum(axis=1, keepdims=True).shape == (2, 1)
    assert x.sum((0, 1)).item() == 15 and x.sum(dtype=mstype.float64).dtype == mstype.float64
    assert _np(x.sum(axis=0, initial=10)).tolist() == [13, 15, 17]
    assert i32.sum().dtype == mstype.int64 and b.sum().dtype == mstype.int64 and b.sum().item() == 5
    assert x.mean().item() == 2.5 and x.mean(axis=1, keep_dims=True).shape == (2, 1)
    assert x.mean(dim=1, keepdim=True).shape == (2, 1) and i32.mean(1).dtype == mstype.int32
    with pytest.raises(TypeError, match="mean"):
        b.mean()
    assert i32.prod().dtype == mstype.int64 and _np(x.prod(1)).tolist() == [0, 60]
    assert x.prod(dim=1, keepdim=True).shape == (2, 1)
    assert b.all().item() is False and _np(b.all(1)).tolist() == [False, True] and b.any().item() is True
    assert b.all(axis=1, keep_dims=True).shape == (2, 1) and x.any(1).dtype == mstype.bool_
    assert _np(x.cumsum(1)).tolist() == [[0, 1, 3], [3, 7, 12]] and Tensor([True, False]).cumsum(0).dtype == mstype.int32
    assert x.cumsum().shape == (6,) and _np(x.cumprod(1))[1].tolist() == [3, 12, 60]
    assert i32.count_nonzero().dtype == mstype.int32 and i32.count_nonzero().item() == 5
    np.testing.assert_allclose(_np(x.logsumexp(1)), np.log(np.exp(X2).sum(1)), rtol=1e-6)


X2 = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_max_min_forms():
    x = Tensor(X2)
    assert x.max().item() == 5 and x.max(axis=1).shape == (2,) and x.max(axis=None).item() == 5
    vals, idx = x.max(1)
    assert _np(vals).tolist() == [2, 5] and idx.dtype == mstype.int64 and _np(idx).tolist() == [2, 2]
    vals, idx = x.max(dim=1, keepdim=True)
    assert vals.shape == (2, 1) and idx.shape == (2, 1)
    vals, idx = x.min(axis=0, return_indices=True)
    assert _np(vals).tolist() == [0, 1, 2] and _np(idx).tolist() == [0, 0, 0]
    assert _np(x.max(axis=0, initial=4.5)).tolist() == [4.5, 4.5, 5]
    where = Tensor([[True, False, True], [True, True, False]])
    assert _np(x.max(axis=1, where=where, initial=-1.0)).tolist() == [2, 4]
    assert x.min(0)[0].shape == (3,) and Tensor([1, 5], mstype.int32).max().dtype == mstype.int32
    assert x.amax().item() == 5 and _np(x.amin(axis=1, keepdims=True)).tolist() == [[0], [3]]


def test_argmax_argmin_dtypes():
    x = Tensor(X2)
    assert x.argmax().dtype == mstype.int64 and x.argmax().item() == 5
    assert _np(x.argmax(1)).tolist() == [2, 2] and x.argmax(dim=1, keepdim=True).shape == (2, 1)
    assert x.argmax(axis=1, keepdims=True).shape == (2, 1) and x.argmax(None).item() == 5
    assert x.argmin().dtype == mstype.int32 and x.argmin(axis=0).dtype == mstype.int32
    assert x.argmin(0, keepdims=True).shape == (1, 3)


def test_std_var_norm():
    x = Tensor(X2)
    np.testing.assert_allclose(x.std().item(), X2.std(), rtol=1e-6)
    np.testing.assert_allclose(_np(x.std(axis=1, ddof=1)), X2.std(1, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(_np(x.var(1)), X2.var(1), rtol=1e-6)
    np.testing.assert_allclose(_np(x.var(dim=1, correction=1, keepdim=True)), X2.var(1, ddof=1, keepdims=True))
    assert Tensor([1, 2], mstype.int32).std().dtype == mstype.float32 and x.std(keepdims=True).shape == (1, 1)
    np.testing.assert_allclose(x.norm().item(), np.linalg.norm(X2), rtol=1e-6)
    np.testing.assert_allclose(x.norm(1).item(), np.linalg.norm(X2, 1), rtol=1e-6)
    np.testing.assert_allclose(x.norm(float("inf")).item(), np.linalg.norm(X2, np.inf), rtol=1e-6)
    np.testing.assert_allclose(x.norm(2).item(), np.linalg.norm(X2, 2), rtol=1e-5)
    np.testing.assert_allclose(x.norm("nuc").item(), np.linalg.norm(X2, "nuc"), rtol=1e-5)
    np.testing.assert_allclose(_np(x.norm(dim=1)), np.linalg.norm(X2, axis=1), rtol=1e-6)
    np.testing.assert_allclose(_np(x.norm(ord=1, dim=1)), [3, 12], rtol=1e-6)
    assert x.norm(dim=1, keepdim=True).shape == (2, 1) and Tensor([3, 4]).norm().item() == 5.0
    assert Tensor([3.0, 4.0]).norm(0).item() == 2.0 and x.norm(dtype=mstype.float64).dtype == mstype.float64
    with pytest.raises(ValueError, match="ord"):
        x.norm(0)


def test_shape_methods():
    x = Tensor(X2)
    assert x.reshape(3, 2).shape == (3, 2) and x.reshape((1, 6)).shape == (1, 6) and x.reshape([6]).shape == (6,)
    assert x.reshape(shape=(3, -1)).shape == (3, 2) and x.view(3, 2).shape == (3, 2) and x.view(-1).shape == (6,)
    assert x.view(mstype.int32).dtype == mstype.int32 and x.view_as(Tensor(np.ones((3, 2)))).shape == (3, 2)
    y = Tensor(np.ones((2, 3, 4)))
    assert y.flatten().shape == (24,) and y.flatten(start_dim=1).shape == (2, 12) and y.flatten(1).shape == (2, 12)
    assert y.flatten(0, 1).shape == (6, 4) and Tensor(1.0).flatten().shape == (1,)
    np.testing.assert_array_equal(_np(x.flatten(order="F")), X2.flatten("F"))
    z = Tensor(np.ones((1, 3, 1)))
    assert z.squeeze().shape == (3,) and z.squeeze(0).shape == (3, 1) and z.squeeze((0, 2)).shape == (3,)
    assert z.squeeze(axis=2).shape == (1, 3) and z.squeeze(1).shape == (1, 3, 1)
    assert x.expand_dims(0).shape == (1, 2, 3) and x.expand_dims(-1).shape == (2, 3, 1) and x.unsqueeze(2).shape == (2, 3, 1)
    assert x.transpose().shape == (3, 2) and x.transpose(1, 0).shape == (3, 2) and x.transpose((1, 0)).shape == (3, 2)
    assert y.transpose(0, 2).shape == (4, 3, 2) and y.transpose(2, 0, 1).shape == (4, 2, 3)
    assert y.permute(2, 0, 1).shape == (4, 2, 3) and y.permute((1, 0, 2)).shape == (3, 2, 4)
    assert y.swapaxes(0, 1).shape == (3, 2, 4) and x.T.shape == (3, 2) and y.mT.shape == (2, 4, 3)
    assert x.ravel().shape == (6,)


def test_broadcast_tile_repeat():
    x = Tensor(X2)
    assert x.broadcast_to((2, 2, 3)).shape == (2, 2, 3) and x.broadcast_to(2, 2, 3).shape == (2, 2, 3)
    assert x.broadcast_to((4, -1, 3)).shape == (4, 2, 3) and x.expand(2, 2, 3).shape == (2, 2, 3)
    assert x.expand_as(Tensor(np.ones((5, 2, 3)))).shape == (5, 2, 3)
    with pytest.raises(ValueError, match="broadcast_to"):
        x.broadcast_to((-1, 2, 3))
    assert x.tile((2, 1)).shape == (4, 3) and x.tile(2).shape == (2, 6) and x.tile(dims=(1, 2)).shape == (2, 6)
    assert x.tile((2, 1, 1)).shape == (2, 2, 3)
    np.testing.assert_array_equal(_np(x.repeat(3, 2)), np.tile(X2, (3, 2)))
    assert _np(Tensor([1, 2]).repeat(2)).tolist() == [1, 2, 1, 2] and x.repeat((1, 2, 1)).shape == (1, 4, 3)
    assert _np(Tensor([1, 2]).repeat(2, axis=0)).tolist() == [1, 1, 2, 2]
    with pytest.raises(RuntimeError, match="repeat"):
        x.repeat(2)
    assert x.repeat_interleave(2).shape == (12,) and x.repeat_interleave(2, 1).shape == (2, 6)


def test_selection_and_sorting():
    x = Tensor(X2)
    assert _np(x.gather(Tensor([1, 0]), 0)).tolist() == [[3, 4, 5], [0, 1, 2]]
    assert _np(x.index_select(1, Tensor([2, 0]))).tolist() == [[2, 0], [5, 3]]
    assert _np(x.masked_fill(x > 1, 0.0)).tolist() == [[0, 1, 0], [0, 0, 0]]
    assert _np(x.masked_select(x > 2)).tolist() == [3, 4, 5] and _np(x.where(x > 1, 0)).tolist() == [[0, 0, 2], [3, 4, 5]]
    nz = x.nonzero()
    assert nz.dtype == mstype.int64 and nz.shape == (5, 2) and len(x.nonzero(as_tuple=True)) == 2
    vals, idx = x.topk(2)
    assert _np(vals).tolist() == [[2, 1], [5, 4]] and idx.dtype == mstype.int32
    vals, idx = x.topk(1, dim=0, largest=False)
    assert _np(vals).tolist() == [[0, 1, 2]]
    vals, idx = x.sort(axis=0, descending=True)
    assert _np(vals).tolist() == [[3, 4, 5], [0, 1, 2]] and idx.dtype == mstype.int32
    assert x.argsort().dtype == mstype.int32 and _np(x.argsort(axis=1, descending=True))[0].tolist() == [2, 1, 0]
    assert [t.shape for t in x.split(2, 1)] == [(2, 2), (2, 1)] and len(x.split([1, 2], axis=1)) == 2
    assert len(x.chunk(3, 1)) == 3 and x.narrow(0, 1, 1).shape == (1, 3)
    assert _np(x.flip(0))[0].tolist() == [3, 4, 5] and _np(x.roll(1, 1))[0].tolist() == [2, 0, 1]
    assert _np(x.tril()).tolist() == [[0, 0, 0], [3, 4, 0]] and _np(x.triu(1)).tolist() == [[0, 1, 2], [0, 0, 5]]
    assert x.trace().item() == 4 and _np(x.diagonal()).tolist() == [0, 4]


def test_elementwise_methods():
    x = Tensor(X2)
    i = Tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert i.abs().dtype == mstype.int32 and Tensor([True]).abs().dtype == mstype.bool_
    assert i.sqrt().dtype == mstype.float32 and i.reciprocal().dtype == mstype.float32 and i.exp().dtype == mstype.float32
    assert i.square().dtype == mstype.int32 and i.neg().dtype == mstype.int32 and i.sign().dtype == mstype.int32
    assert i.round().dtype == mstype.int32 and i.floor().dtype == mstype.int32
    np.testing.assert_allclose(_np(x.sigmoid()), 1 / (1 + np.exp(-X2)), rtol=1e-6)
    np.testing.assert_allclose(_np(x.log1p()), np.log1p(X2), rtol=1e-6)
    np.testing.assert_allclose(_np((x + 1).log2()), np.log2(X2 + 1), rtol=1e-6)
    assert _np(x.clip(1, 3)).tolist() == [[1, 1, 2], [3, 3, 3]] and _np(x.clip(1.5, None))[0].tolist() == [1.5, 1.5, 2]
    assert _np(x.clip(None, 2))[1].tolist() == [2, 2, 2] and _np(x.clip(min=1))[0].tolist() == [1, 1, 2]
    assert i.clip(1, 3).dtype == mstype.int32 and i.clip(1.5, 3.5).dtype == mstype.float32
    assert x.clamp(Tensor(1.0), Tensor(4.0)).dtype == mstype.float32
    with pytest.raises(ValueError, match="clip"):
        x.clip(None, None)
    assert i.pow(0.5).dtype == mstype.float32 and i.float_power(2).dtype == mstype.float64
    assert _np(x.add(1, alpha=2))[0].tolist() == [2, 3, 4] and _np(x.sub(1, alpha=2))[0].tolist() == [-2, -1, 0]
    assert i.div(2).dtype == mstype.float32 and _np(x.div(2, rounding_mode="floor"))[0].tolist() == [0, 0, 1]
    assert _np(Tensor([-7, 7]).div(2, rounding_mode="trunc")).tolist() == [-3, 3]
    assert _np(Tensor([-7.0]).fmod(2)).tolist() == [-1] and _np(Tensor([-7.0]).remainder(2)).tolist() == [1]
    assert i.maximum(2.5).dtype == mstype.float32 and _np(x.minimum(2))[1].tolist() == [2, 2, 2]
    assert x.matmul(x.T).shape == (2, 2) and _np(Tensor([1.0, 2.0]).outer(Tensor([1.0, 2.0]))).tolist() == [[1, 2], [2, 4]]
    assert x.eq(1).dtype == mstype.bool_ and x.equal(x).all().item() and x.isclose(x).all().item() and x.allclose(x)
    assert x.softmax(1).shape == (2, 3) and x.softmax(-1, dtype=mstype.float16).dtype == mstype.float16
    assert _np(Tensor([np.nan, 1.0]).isnan()).tolist() == [True, False] and Tensor([np.inf]).isinf().item()
    assert _np(Tensor([np.nan, np.inf, 1.0]).isfinite()).tolist() == [False, False, True]
    assert [_np(f()).tolist() for f in (i.isnan, i.isinf, i.isfinite)] == [[[False] * 3] * 2, [[False] * 3] * 2, [[True] * 3] * 2]
    a, b = Tensor([0, 1, 2, 0]), Tensor([0.0, 0.0, 0.5, 3.0])
    assert [_np(f(b)).tolist() for f in (a.logical_and, a.logical_or, a.logical_xor)] == [
        [False, False, True, False], [False, True, True, True], [False, True, False, True]]
    assert _np(Tensor([np.nan, np.inf]).nan_to_num(posinf=9.0)).tolist() == [0, 9]
    assert _np(x.lerp(x + 1, 0.5))[0].tolist() == [0.5, 1.5, 2.5] and Tensor([1.25]).round(1).item() == pytest.approx(1.2)


def test_creation_and_inplace_methods():
    x = Tensor(X2)
    assert x.new_zeros((2,), dtype=mstype.int32).dtype == mstype.int32 and x.new_ones(3).dtype == mstype.float32
    assert _np(x.new_full((2,), 3)).tolist() == [3, 3] and x.fill(3.5).dtype == mstype.float32
    assert _np(Tensor([1, 2]).fill(3.5)).tolist() == [3, 3]
    y = Tensor([1.0, 2.0])
    assert y.add_(1) is y and _np(y).tolist() == [2, 3]
    y.mul_(2).sub_(1)
    assert _np(y).tolist() == [3, 5]
    y.clamp_(0, 4).fill_(1)
    assert _np(y).tolist() == [1, 1] and _np(y.zero_()).tolist() == [0, 0]
    y.copy_(Tensor([7, 8]))
    assert _np(y).tolist() == [7, 8] and y.dtype == mstype.float32
    assert y.set_dtype(mstype.float16) == mstype.float16 and y.dtype == mstype.float16
    assert y.assign_value(Tensor([1, 2, 3])).shape == (3,)
    assert x.is_floating_point() and not x.is_complex() and x.is_signed() and not Tensor([1], mstype.uint8).is_signed()


def test_pickle_and_copy():
    t = Tensor([[1.0, 2.0]])
    for c in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t), copy.copy(t)):
        assert c is not t and c.dtype == t.dtype and _np(c).tolist() == [[1.0, 2.0]]
    lazy = pickle.loads(pickle.dumps(Tensor(shape=(2,), dtype=mstype.float32, init="ones")))
    assert lazy.has_init and _np(lazy.init_data()).tolist() == [1, 1]
    assert hash(t) == hash(t) and hash(t) != hash(copy.copy(t))


# ----------------------------------------------------------------------------- inside tf.function
def test_methods_work_on_symbolic_tensors():
    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(v):
        x = Tensor(v)
        seen["shape"] = x.shape
        seen["repr"] = repr(x)
        y = (x * 2 + 1).sum(axis=1) + x.max(axis=1) + x[:, 0] + x.mean(1) + x.std(1)
        z = x.reshape(-1, 3).transpose()[0] + x.flatten()[:1].astype(mstype.float32)
        n = x.shape[0]
        w = x[x > 2].sum() + x.clip(0, 1).norm() + x.argmax(1).astype(mstype.float32).sum()
        x2 = Tensor(v)
        x2[:, 0] = 0.0
        return y, z, w, n, x2.size, x2._value()

    y, z, w, n, size, x2 = f(tf.constant(X2[:, :3]))
    assert isinstance(seen["shape"][0], Tensor) and seen["shape"][1] == 3
    assert seen["repr"] == "Tensor(shape=[-1, 3], dtype=Float32, value=<symbolic>)"
    assert y.shape == (2,) and int(n) == 2 and int(size) == 6 and x2.numpy()[:, 0].tolist() == [0, 0]


def test_asnumpy_and_bool_in_graph_raise():
    @tf.function(autograph=False)  # converted code stages bool(t) instead (tests/common/test_control_flow.py)
    def f(v):
        x = Tensor(v)
        with pytest.raises(RuntimeError, match="asnumpy"):
            x.asnumpy()
        with pytest.raises(RuntimeError, match="__bool__"):
            bool(x > 0)
        return v

    f(tf.constant([1.0]))

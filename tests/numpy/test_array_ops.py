"""Unit tests of tfspore.numpy's array manipulation and selection functions."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp

C3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def t(x):
    return ms.Tensor(x)


def test_shape_functions_match_numpy():
    np.testing.assert_array_equal(mnp.moveaxis(t(C3), [0, 2], [2, 0]).asnumpy(), np.moveaxis(C3, [0, 2], [2, 0]))
    np.testing.assert_array_equal(mnp.rollaxis(t(C3), 2, 1).asnumpy(), np.rollaxis(C3, 2, 1))
    np.testing.assert_array_equal(mnp.swapaxes(t(C3), 0, -1).asnumpy(), np.swapaxes(C3, 0, -1))
    assert mnp.expand_dims(t(C3), (0, -1)).shape == (1, 2, 3, 4, 1)
    assert mnp.atleast_3d(t(np.ones(5, np.float32))).shape == (1, 5, 1)
    np.testing.assert_array_equal(mnp.rot90(t(C3), 3, (1, 2)).asnumpy(), np.rot90(C3, 3, (1, 2)))


def test_squeeze_leaves_axes_longer_than_one():
    assert mnp.squeeze(t(np.ones((1, 3, 1), np.float32)), (0, 1)).shape == (3, 1)


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="out of bounds"):
        mnp.swapaxes(t(C3), 0, 3)
    with pytest.raises(ValueError, match="cannot reshape"):
        mnp.reshape(t(C3), (5, 5))
    with pytest.raises(ValueError, match="equal division"):
        mnp.split(t(C3), 5, axis=2)
    with pytest.raises(ValueError, match="cannot broadcast"):
        mnp.broadcast_to(t(C3), (3, 3, 4))
    with pytest.raises(TypeError, match="expect Tensor"):
        mnp.tile([1, 2], 2)
    with pytest.raises(ValueError, match="Axes must be different"):
        mnp.rot90(t(C3), 1, (1, 1))


def test_joining_promotes_dtypes():
    out = mnp.concatenate((t(np.ones(2, np.int32)), t(np.ones(2, np.float16))))
    assert out.dtype == ms.float16
    out = mnp.stack([t(np.ones(2, np.uint8)), t(np.ones(2, np.int8))])
    assert out.dtype == ms.int16


def test_split_variants_match_numpy():
    x = np.arange(10, dtype=np.float32)
    for got, exp in zip(mnp.array_split(t(x), 4), np.array_split(x, 4)):
        np.testing.assert_array_equal(got.asnumpy(), exp)
    for got, exp in zip(mnp.split(t(x), [2, 20, 5]), np.split(x, [2, 20, 5])):
        np.testing.assert_array_equal(got.asnumpy(), exp)


def test_roll_tile_repeat_match_numpy():
    np.testing.assert_array_equal(mnp.roll(t(C3), -5).asnumpy(), np.roll(C3, -5))
    np.testing.assert_array_equal(mnp.tile(t(C3), (2, 1, 1, 2)).asnumpy(), np.tile(C3, (2, 1, 1, 2)))
    np.testing.assert_array_equal(mnp.repeat(t(C3), [1, 0, 2], 1).asnumpy(), np.repeat(C3, [1, 0, 2], 1))


def test_where_take_choose_select():
    c = np.array([True, False, True])
    np.testing.assert_array_equal(mnp.where(t(c), 1, 2).asnumpy(), np.where(c, 1, 2))
    assert mnp.where(t(c), 1, 2.0).dtype == ms.float32
    nz = mnp.where(t(np.array([[0, 1], [2, 0]], np.int32)))
    np.testing.assert_array_equal([x.asnumpy() for x in nz], np.nonzero(np.array([[0, 1], [2, 0]])))
    idx = np.array([[3, 0], [1, 2], [0, 0]], np.int32)
    np.testing.assert_array_equal(mnp.take_along_axis(t(C3[0]), t(idx), 1).asnumpy(),
                                  np.take_along_axis(C3[0], idx, 1))
    np.testing.assert_array_equal(mnp.take(t(C3), t(np.array([30, -1], np.int32))).asnumpy(), [23.0, 23.0])
    choices = [np.arange(4, dtype=np.float32), -np.arange(4, dtype=np.float32)]
    a = np.array([0, 1, 1, 0], np.int32)
    np.testing.assert_array_equal(mnp.choose(t(a), [t(x) for x in choices]).asnumpy(), np.choose(a, choices))
    x = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(mnp.select([t(x < 2), t(x > 3)], [t(x), t(x * 10)], -1).asnumpy(),
                                  np.select([x < 2, x > 3], [x, x * 10], -1))


def test_unique_keeps_first_occurrence_order():
    vals, inv = mnp.unique(t(np.array([[4, 1], [4, 7]], np.int32)), return_inverse=True)
    np.testing.assert_array_equal(vals.asnumpy(), [4, 1, 7])
    np.testing.assert_array_equal(inv.asnumpy(), [0, 1, 0, 2])


def test_unravel_index_argwhere_intersect():
    got = mnp.unravel_index(t(np.array([1, 11, 6], np.int32)), (3, 4))
    for g, e in zip(got, np.unravel_index([1, 11, 6], (3, 4))):
        np.testing.assert_array_equal(g.asnumpy(), e)
    np.testing.assert_array_equal(mnp.argwhere(t(C3[0] > 8)).asnumpy(), np.argwhere(C3[0] > 8))
    np.testing.assert_array_equal(
        mnp.intersect1d(t(np.array([5, 1, 3, 1], np.int32)), t(np.array([3, 5, 9], np.int32))).asnumpy(), [3, 5])


def test_apply_along_and_over_axes():
    out = mnp.apply_along_axis(lambda r: mnp.stack([mnp.sum(r), mnp.amax(r)]), 1, t(C3[0]))
    np.testing.assert_array_equal(out.asnumpy(), np.stack([C3[0].sum(1), C3[0].max(1)], 1))
    out = mnp.apply_over_axes(mnp.sum, t(C3), [0, 2])
    np.testing.assert_array_equal(out.asnumpy(), np.apply_over_axes(np.sum, C3, [0, 2]))

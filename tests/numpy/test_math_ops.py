"""Unit tests of tfspore.numpy's element-wise math (dtype promotion, values against numpy)."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp

X = np.array([[-1.5, 0.0, 2.25], [3.0, -0.5, 7.0]], np.float32)
Y = np.array([[2.0, -3.0, 1.5], [0.5, 4.0, -2.0]], np.float32)


def t(x):
    return ms.Tensor(x)


def test_python_scalars_are_int32_or_float32_tensors():
    h = t(np.ones(2, np.float16))
    assert mnp.add(h, 1.0).dtype == ms.float32  # 1.0 becomes a float32 tensor, as in mindspore.numpy
    assert mnp.add(t(np.ones(2, np.int32)), 1).dtype == ms.int32
    assert mnp.multiply(t(np.ones(2, np.int8)), t(np.ones(2, np.uint8))).dtype == ms.int16
    assert mnp.add(t(np.ones(2, np.int32)), 1, dtype=ms.float16).dtype == ms.float16


def test_promote_types_table():
    assert mnp.promote_types(mnp.uint64, mnp.int8) == ms.float64
    assert mnp.promote_types("uint16", "float64") == ms.float32
    assert mnp.promote_types(mnp.bool_, mnp.int16) == ms.int16
    assert mnp.result_type(1, 2.0) == ms.float32


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "power", "hypot", "arctan2", "maximum",
                                  "minimum", "logaddexp", "copysign", "heaviside"])
def test_binary_functions_match_numpy(name):
    x = np.abs(X) + 0.5 if name == "power" else X
    np.testing.assert_allclose(getattr(mnp, name)(t(x), t(Y)).asnumpy(), getattr(np, name)(x, Y), rtol=1e-5)


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod"])
def test_integer_division_family_matches_numpy(name):
    a = np.array([7, -7, 7, -7, 0], np.int32)
    b = np.array([2, 2, -2, -2, 3], np.int32)
    np.testing.assert_array_equal(getattr(mnp, name)(t(a), t(b)).asnumpy(), getattr(np, name)(a, b))
    np.testing.assert_allclose(getattr(mnp, name)(t(X), 0.75).asnumpy(), getattr(np, name)(X, np.float32(0.75)),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["sqrt", "exp", "expm1", "exp2", "log", "log1p", "log2", "log10", "cbrt", "sin",
                                  "cos", "tan", "arctan", "sinh", "cosh", "tanh", "arcsinh", "floor", "ceil", "trunc",
                                  "rint", "sign", "square", "absolute", "negative", "reciprocal", "deg2rad",
                                  "rad2deg"])
def test_unary_functions_match_numpy(name):
    x = np.abs(X) + 0.25 if name.startswith(("sqrt", "log", "reciprocal")) else X
    np.testing.assert_allclose(getattr(mnp, name)(t(x)).asnumpy(), getattr(np, name)(x), rtol=1e-5, atol=1e-6)


def test_trig_of_small_ints_is_float16():
    assert mnp.sin(t(np.array([1, 2], np.int8))).dtype == ms.float16
    assert mnp.cos(t(np.array([1, 2], np.int32))).dtype == ms.float32
    with pytest.raises(TypeError, match="expect Tensor"):
        mnp.sin([1.0])


def test_minimum_maximum_keep_tensor_dtype_with_scalar_and_propagate_nan():
    out = mnp.maximum(t(np.array([1, 5], np.int32)), 2.5)
    assert out.dtype == ms.int32
    assert np.isnan(mnp.minimum(t(np.array([np.nan, 1.0], np.float32)), 0.0).asnumpy()[0])


def test_gcd_lcm_bitwise():
    a, b = np.array([12, -18, 0, 7], np.int32), np.array([8, 12, 5, 0], np.int32)
    np.testing.assert_array_equal(mnp.gcd(t(a), t(b)).asnumpy(), np.gcd(a, b))
    np.testing.assert_array_equal(mnp.lcm(t(a), t(b)).asnumpy(), np.lcm(a, b))
    np.testing.assert_array_equal(mnp.bitwise_xor(t(a), t(b)).asnumpy(), np.bitwise_xor(a, b))
    np.testing.assert_array_equal(mnp.invert(t(a)).asnumpy(), np.invert(a))


def test_around_clip_and_errors():
    np.testing.assert_allclose(mnp.around(t(X * 1.2345), 2).asnumpy(), np.around(X * 1.2345, 2), atol=1e-6)
    np.testing.assert_array_equal(mnp.clip(t(X), -1, 2).asnumpy(), np.clip(X, -1, 2))
    with pytest.raises(ValueError, match="One of max or min"):
        mnp.clip(t(X), None, None)
    with pytest.raises(ValueError, match="decimals"):
        mnp.around(t(X), -1)
    with pytest.raises(TypeError, match="bool"):
        mnp.sign(t(np.array([True])))

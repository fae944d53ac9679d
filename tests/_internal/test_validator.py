"""Tests of tfspore._internal.validator: the one message template, exception types and edge values."""
import math
import re

import numpy as np
import pytest
import tensorflow as tf

from tfspore._internal import validator as v


def _raises(exc, text, fn, *args, **kwargs):
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    assert str(info.value) == text
    return info.value


# ------------------------------------------------------------------------------------ the template
def test_issue_example_message():
    _raises(ValueError, "For 'Model.train', the 'epoch' must be a positive int, but got 0.",
            v.check_positive_int, 0, "epoch", "Model.train")


def test_type_error_adds_the_type_and_no_api_starts_with_the():
    _raises(TypeError, "For 'Dense', the 'has_bias' must be a bool, but got 1 of type int.",
            v.check_bool, 1, "has_bias", "Dense")
    _raises(TypeError, "The 'has_bias' must be a bool, but got 'yes' of type str.", v.check_bool, "yes", "has_bias")


def test_phrase_names_are_not_quoted_and_long_values_are_shortened():
    err = v.value_error(list(range(200)), "each interval in intervals", "X", "short")
    assert str(err).startswith("For 'X', the each interval in intervals must be short, but got [0, 1, 2")
    assert str(err).endswith("...."), str(err)
    assert len(str(err)) < 200
    assert "shape=(3, 4)" in v.message(np.zeros((3, 4)), "x", None, "small")


def test_builders_return_exceptions_of_the_right_type():
    assert isinstance(v.type_error(1, "a", "B", "str"), TypeError)
    assert isinstance(v.value_error(1, "a", "B", "2"), ValueError)


# ------------------------------------------------------------------------------------------- ints
@pytest.mark.parametrize("value", [1, np.int32(3), np.int64(2 ** 40), np.uint8(7)])
def test_numpy_ints_are_ints(value):
    out = v.check_positive_int(value, "n", "Api")
    assert out == int(value) and type(out) is int


@pytest.mark.parametrize("fn", [v.check_int, v.check_positive_int, v.check_non_negative_int])
@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, "1", None, np.float32(1)])
def test_bool_float_and_str_are_not_ints(fn, value):
    with pytest.raises(TypeError, match=r"^For 'Api', the 'n' must be .*int, but got .* of type \w+\.$"):
        fn(value, "n", "Api")


def test_int_bounds():
    assert v.check_non_negative_int(0, "n") == 0
    _raises(ValueError, "The 'n' must be a non-negative int, but got -1.", v.check_non_negative_int, -1, "n")
    _raises(ValueError, "For 'Batch', the 'batch_size' must be an int in range [1, 2147483647], but got 0.",
            v.check_int_range, 0, "batch_size", "Batch", 1, v.INT32_MAX)
    assert v.check_int_range(v.INT32_MAX, "batch_size", "Batch", 1, v.INT32_MAX) == v.INT32_MAX
    _raises(ValueError, "For 'A', the 'k' must be an int in range (0, 3), but got 3.",
            v.check_int_range, 3, "k", "A", 0, 3, inc_low=False, inc_high=False)
    _raises(ValueError, "For 'A', the 'k' must be an int >= 2, but got 1.", v.check_int_range, 1, "k", "A", 2, None)


# ----------------------------------------------------------------------------------------- floats
def test_float_checks_and_allow_int():
    assert v.check_float(1, "x") == 1.0 and type(v.check_float(np.float32(0.5), "x")) is float
    _raises(TypeError, "For 'Adam', the 'eps' must be a positive float, but got 1 of type int.",
            v.check_positive_float, 1, "eps", "Adam", allow_int=False)
    _raises(TypeError, "The 'x' must be a float or int, but got True of type bool.", v.check_float, True, "x")


@pytest.mark.parametrize("fn, args", [
    (v.check_positive_float, ()), (v.check_non_negative_float, ()),
    (v.check_float_range, (0.0, 1.0)), (v.check_range, (0.0, 1.0)), (v.check_finite, ()),
])
def test_nan_fails_every_range_check(fn, args):
    with pytest.raises(ValueError, match=r"but got nan\.$"):
        fn(float("nan"), "x", "Api", *args)


def test_float_range_open_and_closed_ends():
    _raises(ValueError, "For 'Adam', the 'beta1' must be a float in range (0.0, 1.0), but got 1.0.",
            v.check_float_range, 1.0, "beta1", "Adam", 0.0, 1.0, inc_low=False, inc_high=False)
    assert v.check_float_range(1.0, "rho", "Adadelta", 0.0, 1.0) == 1.0
    _raises(ValueError, "For 'X', the 'lr' must be a finite number, but got inf.", v.check_finite, math.inf, "lr", "X")


def test_compare_and_number():
    _raises(ValueError, "For 'FTRL', the 'l1' must be >= 0.0, but got -1.0.", v.check_compare, -1.0, ">=", 0.0, "l1",
            "FTRL")
    assert v.check_compare(-1.0, "<=", 0.0, "lr_power") == -1.0
    with pytest.raises(ValueError, match="unknown relation"):
        v.check_compare(1, "=>", 0, "x")
    _raises(TypeError, "For 'clamp', the 'min' must be an int or float, but got 'a' of type str.",
            v.check_number, "a", "min", "clamp")


# ---------------------------------------------------------------------------------- types, strings
def test_check_type_bool_only_when_listed():
    _raises(TypeError, "For 'X', the 'n' must be int or float, but got True of type bool.",
            v.check_type, True, (int, float), "n", "X")
    assert v.check_type(True, (bool, int), "n") is True
    assert v.check_type(None, (str, type(None)), "d") is None


def test_check_isinstance_is_a_value_error_as_in_mindspore():
    _raises(ValueError, "For 'OnRequestExit', the 'sig' must be int, but got '2' of type str.",
            v.check_isinstance, "2", int, "sig", "OnRequestExit")


def test_check_string():
    assert v.check_string("SUM", ("none", "sum"), "reduction", "L", lower=True) == "sum"
    _raises(ValueError, "For 'L', the 'reduction' must be one of ['none', 'sum'], but got 'avg'.",
            v.check_string, "avg", ("none", "sum"), "reduction", "L")
    with pytest.raises(ValueError):  # MindSpore raises ValueError for a non-str too
        v.check_string(1, ("none",), "reduction", "L")


# -------------------------------------------------------------------------------------- sequences
def test_int_tuple_and_pair():
    assert v.check_int_tuple(3, "axis", "A") == (3,)
    assert v.check_int_tuple([1, np.int64(2)], "axis", "A") == (1, 2)
    assert v.check_int_pair(3, "kernel_size", "MaxPool2d") == (3, 3)
    _raises(TypeError, "For 'MaxPool2d', the 'kernel_size' must be a positive int or a tuple of two positive ints, "
            "but got 'a' of type str.", v.check_int_pair, "a", "kernel_size", "MaxPool2d")
    _raises(ValueError, "For 'MaxPool2d', the 'kernel_size' must be a positive int or a tuple of two positive ints, "
            "but got (1, 0).", v.check_int_pair, (1, 0), "kernel_size", "MaxPool2d")
    assert v.check_int_pair((1, 0), "padding", "P", allow_zero=True) == (1, 0)
    with pytest.raises(ValueError):
        v.check_int_pair((1, 2, 3), "stride", "P")
    with pytest.raises(TypeError):
        v.check_int_tuple((1, True), "axis", "A")
    with pytest.raises(TypeError):
        v.check_int_tuple(1, "axis", "A", allow_int=False)


def test_sequence_names_and_min_max():
    assert v.check_sequence((1.0, 2.0), float, "xs", "A", length=2) == [1.0, 2.0]
    with pytest.raises(ValueError):
        v.check_sequence([], float, "xs", "A", non_empty=True)
    with pytest.raises(TypeError):
        v.check_sequence([True], int, "xs", "A")
    assert v.check_unique_names("a", "columns", "Map") == ["a"]
    assert v.check_unique_names(None, "columns", "Map", allow_none=True) is None
    for bad in ([], ["a", "a"], [""]):
        with pytest.raises(ValueError, match=re.escape(f"but got {bad!r}.")):
            v.check_unique_names(bad, "columns", "Map")
    with pytest.raises(TypeError):
        v.check_unique_names(["a", 1], "columns", "Map")
    assert v.check_min_max((0.1, 0.5), "scale", "Erase", 0.0, 1.0) == (0.1, 0.5)
    _raises(ValueError, "For 'Erase', the 'scale' must be a (min, max) pair of numbers in [0.0, 1.0], but got "
            "(0.5, 0.1).", v.check_min_max, (0.5, 0.1), "scale", "Erase", 0.0, 1.0)


# ------------------------------------------------------------------------------------ axes, shapes
def test_axis_and_axes():
    assert v.check_axis(-1, "axis", "Concat", 2) == 1
    assert v.check_axis(0, "axis", "sum", 0) == 0  # a scalar counts as rank 1
    _raises(ValueError, "For 'Concat', the 'axis' must be in range [-2, 2), but got 3.", v.check_axis, 3, "axis",
            "Concat", 2)
    assert v.check_axis(7, "axis", "Concat", None) == 7
    assert v.check_axes([0, -1], "axis", "sum", 3) == (0, 2)
    _raises(ValueError, "For 'sum', the 'axis' must be axes without repeats, but got (0, -3).", v.check_axes,
            [0, -3], "axis", "sum", 3)


def test_shape():
    assert v.check_shape((2, np.int64(3)), "shape", "zeros") == (2, 3)
    assert v.check_shape(4, "shape") == (4,)
    assert v.check_shape((-1, 3), "shape", allow_unknown=True) == (-1, 3)
    with pytest.raises(ValueError):
        v.check_shape((-1, 3), "shape")
    with pytest.raises(TypeError):
        v.check_shape((2.0, 3), "shape")


# ---------------------------------------------------------------------------------------- tensors
def test_tensor_checks():
    assert v.check_tensor(tf.constant(1.0), "x", "abs") is not None
    _raises(TypeError, "For 'abs', the 'x' must be a Tensor, but got [1, 2] of type list.", v.check_tensor, [1, 2],
            "x", "abs")
    assert v.check_tensor_like([1, 2], "x", "add") == [1, 2]
    with pytest.raises(TypeError, match="but got 'a' of type str"):
        v.check_tensor_like("a", "x", "add")
    assert v.check_float_dtype(tf.float16, "x", "dropout") == tf.float16
    _raises(TypeError, "For 'dropout', the dtype of 'x' must be float16, float32 or float64, but got Int32.",
            v.check_float_dtype, tf.int32, "x", "dropout")
    with pytest.raises(TypeError, match="but got UInt8"):
        v.check_float_dtype(np.uint8, "x", "dropout")


def test_tfspore_tensor_is_a_tensor():
    import tfspore as ms
    assert v.is_tensor(ms.Tensor(np.ones(2, np.float32)))
    assert not v.is_tensor(np.ones(2))

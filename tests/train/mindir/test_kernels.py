"""MindIR operator kernels: MindSpore's attributes and input-passed arguments map to the same computation."""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import ops
from tfspore.train.mindir._kernels import STRUCTURAL, build, has_kernel, supported
from tfspore.train.mindir._reader import DType, MONAD

A = np.arange(6, dtype=np.float32).reshape(2, 3)
B = np.arange(12, dtype=np.float32).reshape(4, 3) / 7


def test_matmul_flags_as_inputs_or_attributes():
    new_style = build("MatMul", {}, "n")(A, B, False, True)  # MindSpore 2.x: flags are node inputs
    old_style = build("MatMul", {"transpose_b": True}, "n")(A, B)
    np.testing.assert_allclose(np.asarray(new_style), A @ B.T, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(old_style), A @ B.T, rtol=1e-6)


def test_cast_takes_a_type_id_or_a_dtype():
    assert build("Cast", {}, "n")(A, 34).dtype == tf.int32  # MindSpore's TypeId of int32
    assert build("Cast", {}, "n")(A, DType(np.dtype(np.float16))).dtype == tf.float16
    with pytest.raises(ValueError, match="type id 99"):
        build("Cast", {}, "n")(A, 99)


def test_conv2d_attributes_as_mindspore_stores_them():
    x = np.random.RandomState(0).standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = np.random.RandomState(1).standard_normal((3, 2, 3, 3)).astype(np.float32)
    attrs = {"kernel_size": (3, 3), "out_channel": 3, "pad_mode": 0, "pad": (1, 1, 1, 1), "stride": (1, 1, 2, 2),
             "dilation": (1, 1, 1, 1), "group": 1, "format": "NCHW"}  # pad_mode 0 is MindSpore's enum 'pad'
    got = np.asarray(build("Conv2D", attrs, "n")(x, w))
    want = ops.conv2d(x, w, stride=2, pad_mode="pad", padding=1).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_strided_slice_masks_as_inputs():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got = build("StridedSlice", {}, "n")(x, (0, 0), (0, 1), (1, 1), 1, 1, 0, 0, 2)  # x[:, 0]
    np.testing.assert_array_equal(np.asarray(got), x[:, 0])


def test_structural_operators():
    assert STRUCTURAL["MakeTuple"]([1, 2]) == (1, 2)
    assert STRUCTURAL["TupleGetItem"]([(5, 6), 1]) == 6
    assert STRUCTURAL["UpdateState"]([MONAD, 3]) is MONAD
    assert STRUCTURAL["Depend"](["value", MONAD]) == "value"


def test_unknown_operator_and_bad_attributes():
    assert not has_kernel("FancyAct") and "Conv2D" in supported() and "Depend" in supported()
    with pytest.raises(RuntimeError, match="operator 'FancyAct' at node 'x' of 'f.mindir' is not supported"):
        build("FancyAct", {}, "node 'x' of 'f.mindir'")
    with pytest.raises(RuntimeError, match="'Conv2D' at n has attributes tfspore cannot read"):
        build("Conv2D", {"kernel_size": (3, 3)}, "n")


def test_padv3_paddings_run_from_the_last_dimension():
    x = np.ones((1, 2, 2, 2), np.float32)
    got = np.asarray(build("PadV3", {"mode": "constant", "paddings_contiguous": True}, "n")(
        x, (1, 0, 2, 1), np.array([5.0], np.float32)))  # W: (1, 0), H: (2, 1)
    want = np.pad(x, ((0, 0), (0, 0), (2, 1), (1, 0)), constant_values=5.0)
    np.testing.assert_array_equal(got, want)
    split = np.asarray(build("PadV3", {"mode": "constant", "paddings_contiguous": False}, "n")(x, (1, 2, 0, 1), 0))
    np.testing.assert_array_equal(split, np.pad(x, ((0, 0), (0, 0), (2, 1), (1, 0))))


def test_top_k_and_gather_nd():
    x = np.array([[3.0, 1.0, 4.0, 1.5], [2.0, 7.0, 1.0, 8.0]], np.float32)
    values, indices = build("TopK", {"sorted": True}, "n")(x, 2)
    np.testing.assert_array_equal(np.asarray(values), [[4.0, 3.0], [8.0, 7.0]])
    assert indices.dtype == tf.int32 and np.asarray(indices).tolist() == [[2, 0], [3, 1]]
    picked = build("GatherNd", {}, "n")(x, np.array([[1, 3], [0, 0]], np.int32))
    np.testing.assert_array_equal(np.asarray(picked), [8.0, 3.0])

"""RowTensor: MindSpore's row-sliced sparse tensor, usable where the zoo's grad helpers use it."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import RowTensor, Tensor
from tfspore.ops import composite as C
from tfspore.ops import functional as F


def test_parts_and_dense_value():
    rt = RowTensor(Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.array([[1., 2.], [3., 4.], [5., 6.]],
                                                                             np.float32)), (3, 2))
    np.testing.assert_array_equal(rt.indices.asnumpy(), [0, 2, 0])
    assert rt.values.shape == (3, 2) and rt.dense_shape == (3, 2) and rt.dtype == ms.float32
    # rows named twice are summed, as a gather's gradient is
    np.testing.assert_array_equal(rt.to_dense().asnumpy(), [[6., 8.], [0., 0.], [3., 4.]])
    np.testing.assert_array_equal(tf.convert_to_tensor(rt).numpy(), rt.to_dense().asnumpy())
    copy = RowTensor(row_tensor=rt)
    np.testing.assert_array_equal(copy.to_dense().asnumpy(), rt.to_dense().asnumpy())


def test_errors():
    with pytest.raises(TypeError, match="Expect input `row_tensor` to be a RowTensor, but got <class 'int'>"):
        RowTensor(row_tensor=3)
    rt = RowTensor(Tensor(np.array([0], np.int32)), Tensor(np.ones((1, 2), np.float32)), (2, 2))
    with pytest.raises(TypeError, match="should all be `None`"):
        RowTensor(Tensor(np.array([0], np.int32)), row_tensor=rt)


def test_in_a_compiled_function():
    @tf.function
    def dense(indices, values):
        return RowTensor(indices, values, (3, 2)).to_dense()._value()

    out = dense(tf.constant([1], tf.int32), tf.constant([[1., 1.]]))
    np.testing.assert_array_equal(out.numpy(), [[0., 0.], [1., 1.], [0., 0.]])


def test_multitype_dispatch_picks_the_row_tensor_implementation():
    # the zoo's grad-scale helper: one implementation for dense grads, one for RowTensor grads
    grad_scale = C.MultitypeFuncGraph("grad_scale")

    @grad_scale.register("Tensor", "Tensor")
    def _dense(scale, grad):
        return grad / scale

    @grad_scale.register("Tensor", "RowTensor")
    def _rows(scale, grad):
        return RowTensor(grad.indices, grad.values / F.cast(scale, F.dtype(grad.values)), grad.dense_shape)

    scale = Tensor(np.float32(2.0))
    rt = RowTensor(Tensor(np.array([1], np.int32)), Tensor(np.array([[4., 8.]], np.float32)), (2, 2))
    out = grad_scale(scale, rt)
    assert isinstance(out, RowTensor)
    np.testing.assert_array_equal(out.to_dense().asnumpy(), [[0., 0.], [2., 4.]])
    np.testing.assert_array_equal(grad_scale(scale, Tensor(np.ones(2, np.float32))).asnumpy(), [0.5, 0.5])


def test_import_paths():
    ms.alias_mindspore()
    try:
        from mindspore.common import RowTensor as r1
        from mindspore import RowTensor as r2
    finally:
        ms.unalias_mindspore()
    assert r1 is RowTensor and r2 is RowTensor

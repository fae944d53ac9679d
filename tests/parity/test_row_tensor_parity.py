"""RowTensor against MindSpore 2.10: the same parts and the same construction errors."""
import numpy as np
import pytest

import tfspore as tfs

ms = pytest.importorskip("mindspore")


def test_parts_match_mindspore():
    indices, values = np.array([0, 2], np.int32), np.array([[1., 2.], [3., 4.]], np.float32)
    theirs = ms.RowTensor(ms.Tensor(indices), ms.Tensor(values), (3, 2))
    ours = tfs.RowTensor(tfs.Tensor(indices), tfs.Tensor(values), (3, 2))
    np.testing.assert_array_equal(ours.indices.asnumpy(), theirs.indices.asnumpy())
    np.testing.assert_array_equal(ours.values.asnumpy(), theirs.values.asnumpy())
    assert ours.dense_shape == theirs.dense_shape
    copy_theirs, copy_ours = ms.RowTensor(row_tensor=theirs), tfs.RowTensor(row_tensor=ours)
    np.testing.assert_array_equal(copy_ours.values.asnumpy(), copy_theirs.values.asnumpy())


def test_bad_row_tensor_argument_like_mindspore():
    with pytest.raises(TypeError) as theirs:
        ms.RowTensor(row_tensor=3)
    with pytest.raises(TypeError) as ours:
        tfs.RowTensor(row_tensor=3)
    assert str(ours.value) == str(theirs.value)

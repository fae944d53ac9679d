"""Slice, PadEnd, Mask and Relational (values as MindSpore 2.10 gives them), strings, pipelines, errors."""
import numpy as np
import pytest

import tfspore.dataset as ds
import tfspore.dataset.transforms as transforms
import tfspore.dataset.transforms.c_transforms as c_transforms
from tfspore.common import dtype as mstype
from tfspore.dataset.transforms import Relational

X = np.arange(12).reshape(3, 4)


def test_module_paths():
    for name in ("Slice", "PadEnd", "Mask", "Relational"):
        assert getattr(c_transforms, name) is getattr(transforms, name)


def test_slice():
    assert transforms.Slice(1)(X).tolist() == [[4, 5, 6, 7]]
    assert transforms.Slice([0, 2])(X).tolist() == [[0, 1, 2, 3], [8, 9, 10, 11]]
    assert transforms.Slice(slice(0, 3, 2), -1)(X).tolist() == [[3], [11]]
    assert transforms.Slice(Ellipsis, [1, 3])(X).tolist() == [[1, 3], [5, 7], [9, 11]]
    assert transforms.Slice(None)(X).shape == (3, 4)
    assert transforms.Slice([1])(np.array(["a", "b"])).tolist() == ["b"]
    with pytest.raises(RuntimeError, match="For 'Slice'"):
        transforms.Slice(5)(X)
    with pytest.raises(TypeError, match="For 'Slice', the 'slice'"):
        transforms.Slice(1.5)


def test_pad_end():
    assert transforms.PadEnd([5])(np.array([1, 2, 3])).tolist() == [1, 2, 3, 0, 0]
    assert transforms.PadEnd([2])(np.array([1, 2, 3])).tolist() == [1, 2]
    assert transforms.PadEnd([2, 4], 9)(np.array([[1, 2], [3, 4], [5, 6]])).tolist() == [[1, 2, 9, 9], [3, 4, 9, 9]]
    assert transforms.PadEnd([3, None], -1)(np.array([[1, 2]])).tolist() == [[1, 2], [-1, -1], [-1, -1]]
    assert transforms.PadEnd([3], "x")(np.array(["a"])).tolist() == ["a", "x", "x"]
    assert transforms.PadEnd([3])(np.array(["a"])).tolist() == ["a", "", ""]
    assert transforms.PadEnd([3], 1.5)(np.array([1, 2])).tolist() == [1, 2, 1]
    with pytest.raises(ValueError, match=r"For 'PadEnd', the 'pad_shape\[0\]' must be in range"):
        transforms.PadEnd([0])
    with pytest.raises(TypeError, match="For 'PadEnd', a value in pad_shape is not an integer"):
        transforms.PadEnd([1.5])


def test_mask():
    assert transforms.Mask(Relational.GT, 2)(np.array([1, 2, 3, 4])).tolist() == [False, False, True, True]
    assert transforms.Mask(Relational.EQ, 2, mstype.int32)(np.array([1, 2, 3])).tolist() == [0, 1, 0]
    assert transforms.Mask(Relational.NE, "b")(np.array(["a", "b"])).tolist() == [True, False]
    out = transforms.Mask(Relational.LE, 1.5, mstype.float32)(np.array([1, 2]))
    assert out.dtype == np.float32 and out.tolist() == [1.0, 0.0]
    with pytest.raises(TypeError, match="For 'Mask', the 'operator' must be Relational, but got 'GT'"):
        transforms.Mask("GT", 1)


def test_in_a_pipeline():
    data = ds.NumpySlicesDataset({"ids": np.array([[5, 6, 7], [8, 9, 10]], np.int32)}, shuffle=False)
    data = data.map([transforms.Slice([0, 1]), transforms.PadEnd([4], 0)], "ids")
    data = data.map(transforms.Mask(Relational.NE, 0, mstype.int32), "ids", "mask")
    assert [row[0].tolist() for row in data.create_tuple_iterator(output_numpy=True)] == [[1, 1, 0, 0]] * 2

"""tfspore.dataset.transforms: TypeCast, OneHot, Compose, Duplicate, Fill, Concatenate, RandomApply, RandomChoice."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds
import tfspore.dataset.transforms as transforms
import tfspore.dataset.transforms.c_transforms as c_transforms
import tfspore.dataset.transforms.py_transforms as py_transforms
import tfspore.dataset.vision as vision
from tfspore.dataset.transforms._base import TensorOperation

IMG = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)


def _map(op, columns, input_columns, output_columns=None):
    data = ds.NumpySlicesDataset(columns, shuffle=False)
    data = data.map(op, input_columns=input_columns, output_columns=output_columns)
    return list(data.create_tuple_iterator(output_numpy=True))


def test_module_paths():
    assert c_transforms.TypeCast is transforms.TypeCast and py_transforms.Compose is transforms.Compose
    assert isinstance(transforms.OneHot(2), TensorOperation)


def test_typecast():
    assert transforms.TypeCast(ms.int32)(np.array([1, 2], np.uint32)).dtype == np.int32
    assert transforms.TypeCast(np.float16)(np.array([1.5])).dtype == np.float16
    assert transforms.TypeCast("float64")(np.array([1], np.int8)).dtype == np.float64
    assert transforms.TypeCast(ms.int32)(np.array([1.7, -2.7], np.float32)).tolist() == [1, -2]
    rows = _map(transforms.TypeCast(ms.int32), {"label": np.arange(3, dtype=np.uint32)}, "label")
    assert [r[0].dtype for r in rows] == [np.int32] * 3
    with pytest.raises(TypeError, match=r"For 'TypeCast'.*data_type.*'nonsense'"):
        transforms.TypeCast("nonsense")
    with pytest.raises(TypeError, match=r"For 'TypeCast'.*data_type.*None"):
        transforms.TypeCast(None)


def test_one_hot():
    assert transforms.OneHot(3)(np.array(1, np.int32)).tolist() == [0, 1, 0]
    assert transforms.OneHot(3)(np.array(1, np.int32)).dtype == np.int32
    assert transforms.OneHot(4)(np.array([0, 3], np.uint32)).tolist() == [[1, 0, 0, 0], [0, 0, 0, 1]]
    assert transforms.OneHot(4)(np.array([0, 3], np.uint32)).dtype == np.uint32
    smooth = transforms.OneHot(3, 0.3)(np.array(1))
    assert smooth.dtype == np.float64 and np.allclose(smooth, [0.1, 0.8, 0.1])
    rows = _map(transforms.OneHot(5), {"label": np.array([4, 0], np.int32)}, "label")
    assert [r[0].tolist() for r in rows] == [[0, 0, 0, 0, 1], [1, 0, 0, 0, 0]]
    with pytest.raises(ValueError, match=r"For 'OneHot', input num_classes must be greater than 0, but got 0"):
        transforms.OneHot(0)
    with pytest.raises(ValueError, match=r"For 'OneHot', the 'smoothing_rate' must be in range \[0.0, 1.0\], but "
                                          "got 1.5"):
        transforms.OneHot(3, 1.5)
    with pytest.raises(TypeError, match=r"For 'OneHot'.*num_classes.*3.0"):
        transforms.OneHot(3.0)
    with pytest.raises(RuntimeError, match=r"For 'OneHot'.*integer.*float64"):
        transforms.OneHot(3)(np.array(1.0))


def test_duplicate_fill_concatenate():
    a, b = transforms.Duplicate()(np.array([1, 2]))
    assert a.tolist() == b.tolist() == [1, 2]
    rows = _map(transforms.Duplicate(), {"x": np.array([[1, 2], [3, 4]])}, "x", ["x", "y"])
    assert [r[1].tolist() for r in rows] == [[1, 2], [3, 4]]
    filled = transforms.Fill(3)(np.array([1.5, 2.0]))
    assert filled.tolist() == [3.0, 3.0] and filled.dtype == np.float64
    assert transforms.Fill(7)(np.zeros((2, 2), np.uint8)).tolist() == [[7, 7], [7, 7]]
    assert transforms.Fill("z")(np.array(["a", "b"])).tolist() == ["z", "z"]
    with pytest.raises(TypeError, match=r"For 'Fill'.*fill_value.*\[1\]"):
        transforms.Fill([1])
    cat = transforms.Concatenate(0, np.array([9]), np.array([8, 7]))
    assert cat(np.array([1, 2])).tolist() == [9, 1, 2, 8, 7]
    assert transforms.Concatenate(append=np.array(["!"]))(np.array(["a"])).tolist() == ["a", "!"]
    with pytest.raises(ValueError, match=r"For 'Concatenate'.*axis=1"):
        transforms.Concatenate(1)
    with pytest.raises(ValueError, match=r"For 'Concatenate', can only prepend 1D arrays.*\(1, 1\)"):
        transforms.Concatenate(0, np.zeros((1, 1)))


def test_compose():
    op = transforms.Compose([vision.Resize((2, 2)), vision.Rescale(0.5, 0), vision.HWC2CHW()])
    out = op(IMG)
    assert out.shape == (3, 2, 2) and out.dtype == np.float32
    assert not op.random
    nested = transforms.Compose([transforms.Compose([vision.HWC2CHW()]), vision.Rescale(1, 0)])
    assert len(nested.transforms) == 2
    assert hasattr(op, "_tf_apply")
    rows = _map(op, {"image": IMG[None]}, "image")
    np.testing.assert_array_equal(rows[0][0], out)
    # a Python function inside runs the whole Compose as Python in pipelines
    mixed = transforms.Compose([lambda x: x + 1, vision.HWC2CHW()])
    assert not hasattr(mixed, "_tf_apply")
    assert mixed(IMG).shape == (3, 4, 6)
    rows = _map(mixed, {"image": IMG[None]}, "image")
    np.testing.assert_array_equal(rows[0][0], (IMG + 1).transpose(2, 0, 1))
    with pytest.raises(ValueError, match=r"For 'Compose', the 'transforms' must be a non-empty list, but got \[\]"):
        transforms.Compose([])
    with pytest.raises(TypeError, match=r"For 'Compose'.*transforms.*HWC2CHW"):
        transforms.Compose(vision.HWC2CHW())
    with pytest.raises(ValueError, match=r"transforms\[0\].*missing parentheses"):
        transforms.Compose([vision.HWC2CHW])
    with pytest.raises(TypeError, match=r"For 'Compose', the 'transforms\[1\]' must be a transform or"):
        transforms.Compose([vision.HWC2CHW(), 3])
    with pytest.raises(TypeError, match=r"Compose was called without an image"):
        op()


def test_random_apply_and_choice():
    flip = vision.HorizontalFlip()
    np.testing.assert_array_equal(transforms.RandomApply([flip], prob=1.0)(IMG), IMG[:, ::-1])
    np.testing.assert_array_equal(transforms.RandomApply([flip], prob=0.0)(IMG), IMG)
    np.testing.assert_array_equal(transforms.RandomChoice([flip])(IMG), IMG[:, ::-1])
    choice = transforms.RandomChoice([vision.HorizontalFlip(), vision.VerticalFlip()])
    assert choice.random and transforms.RandomApply([flip]).random
    ds.config.set_seed(2)
    outs = {choice(IMG).tobytes() for _ in range(12)}
    assert len(outs) == 2
    with pytest.raises(ValueError, match=r"For 'RandomApply', the 'prob' must be in range \[0.0, 1.0\], but got 2"):
        transforms.RandomApply([flip], prob=2)
    with pytest.raises(ValueError, match=r"For 'RandomChoice', the 'transforms' must be a non-empty list"):
        transforms.RandomChoice([])


def test_random_compounds_in_pipelines_are_seeded():
    images = np.stack([IMG] * 8)

    def run():
        data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
        data = data.map([transforms.RandomApply([vision.HorizontalFlip()]),
                         transforms.RandomChoice([vision.VerticalFlip(), vision.Pad(0)])], "image")
        return [r[0] for r in data.create_tuple_iterator(output_numpy=True)]

    ds.config.set_seed(21)
    first = run()
    ds.config.set_seed(21)
    second = run()
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert len({a.tobytes() for a in first}) > 1


def test_random_choice_needs_one_dtype_in_pipelines():
    op = transforms.RandomChoice([vision.VerticalFlip(), vision.Rescale(1, 0)])
    assert op(IMG).dtype in (np.uint8, np.float32)  # eagerly each call may differ
    traced = tf.function(lambda x: op._tf_apply(x, seed=tf.constant([1, 2], tf.int64)),  # pylint: disable=W0212
                         autograph=False)
    with pytest.raises(TypeError, match=r"For 'RandomChoice', inside a pipeline every transform must return"):
        traced(tf.constant(IMG))


def test_graph_tracing_with_unknown_shapes():
    op = transforms.Compose([transforms.TypeCast(ms.float32), transforms.Fill(2)])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)], autograph=False)
    def run(x):
        return op._tf_apply(x)  # pylint: disable=protected-access

    assert run(tf.constant([1, 2, 3])).numpy().tolist() == [2.0, 2.0, 2.0]

"""CutOut and RandomErasing: patch geometry, statistics of the random positions, layouts, errors."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore.dataset as ds
import tfspore.dataset.vision as vision
import tfspore.dataset.vision.c_transforms as c_vision
import tfspore.dataset.vision.py_transforms as py_vision


def _run(op, image, seed):
    return op._tf_apply(tf.constant(image), seed=tf.constant([seed, 5], tf.int64)).numpy()  # pylint: disable=W0212


def test_module_paths():
    assert c_vision.CutOut is vision.CutOut and py_vision.RandomErasing is vision.RandomErasing


def test_cutout_zeroes_clipped_squares_on_every_channel():
    image = np.full((8, 8, 3), 9, np.uint8)
    for seed in range(20):
        out = _run(vision.CutOut(4), image, seed)
        zero = out[:, :, 0] == 0
        assert np.array_equal(zero, out[:, :, 1] == 0) and np.array_equal(zero, out[:, :, 2] == 0)
        assert set(np.unique(out)) <= {0, 9}
        if zero.any():
            rows, cols = np.flatnonzero(zero.any(1)), np.flatnonzero(zero.any(0))
            assert zero[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].all()  # one rectangle
            assert len(rows) <= 4 and len(cols) <= 4
            assert len(rows) == 4 or rows[0] == 0 or rows[-1] == 7  # shorter only where clipped


def test_cutout_mean_area_matches_mindspore_placement():
    """Corners uniform in [-L, H] x [-L, W]: the mean erased area of L=4 on 8x8 is (32/13)^2."""
    op = vision.CutOut(4)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int64)], autograph=False)
    def erased_area(seed):
        out = op._tf_apply(tf.ones((8, 8, 3), tf.uint8), seed=seed)  # pylint: disable=protected-access
        return tf.reduce_sum(tf.cast(tf.equal(out[:, :, 0], 0), tf.int32))

    areas = [int(erased_area(tf.constant([s, 5], tf.int64))) for s in range(400)]
    assert abs(np.mean(areas) - (32 / 13) ** 2) < 0.6


def test_cutout_chw_and_several_patches():
    image = np.full((3, 6, 7), 5.0, np.float32)
    out = _run(vision.CutOut(3, num_patches=4, is_hwc=False), image, 3)
    assert out.shape == (3, 6, 7) and out.dtype == np.float32
    assert np.array_equal(out[0] == 0, out[2] == 0)
    assert (out[0] == 0).sum() <= 4 * 9


def test_cutout_errors():
    with pytest.raises(ValueError, match="For 'CutOut', the 'length' must be in range"):
        vision.CutOut(0)
    with pytest.raises(TypeError, match="For 'CutOut', the 'is_hwc'"):
        vision.CutOut(2, is_hwc=1)
    with pytest.raises(RuntimeError, match="For 'CutOut'"):
        vision.CutOut(9)(np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(RuntimeError, match="For 'CutOut', the input image should be in shape of <H,W,C>"):
        vision.CutOut(2)(np.zeros((8, 8), np.uint8))


def test_random_erasing_fills_one_box():
    image = np.full((3, 16, 20), 7.0, np.float32)
    for seed in range(10):
        out = _run(vision.RandomErasing(prob=1.0, value=(1, 2, 3)), image, seed)
        erased = out[0] != 7
        rows, cols = np.flatnonzero(erased.any(1)), np.flatnonzero(erased.any(0))
        assert erased[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].all()
        assert 0.02 * 320 - 3 <= erased.sum() <= 0.33 * 320 + 12
        assert set(out[0][erased]) == {1.0} and set(out[1][erased]) == {2.0} and set(out[2][erased]) == {3.0}
    np.testing.assert_array_equal(_run(vision.RandomErasing(prob=0.0), image, 1), image)
    noisy = _run(vision.RandomErasing(prob=1.0, value="random"), image, 2)
    assert (noisy != 7).sum() > 0 and noisy.dtype == np.float32


def test_random_erasing_in_a_pipeline_and_errors():
    data = ds.NumpySlicesDataset({"image": np.ones((2, 3, 8, 8), np.float32)}, shuffle=False)
    data = data.map(vision.RandomErasing(prob=1.0), "image")
    outs = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    assert all(o.shape == (3, 8, 8) and (o == 0).any() for o in outs)
    with pytest.raises(ValueError, match="For 'RandomErasing', the value for erasing"):
        vision.RandomErasing(value="noise")
    with pytest.raises(ValueError, match=r"For 'RandomErasing', the 'scale' must be a \(min, max\) pair"):
        vision.RandomErasing(scale=(0.5, 0.1))

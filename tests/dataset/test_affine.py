"""Affine and RandomAffine: exact shifts and quarter turns, the random ranges, errors, in-graph runs."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore.dataset.vision as vision
import tfspore.dataset.vision.c_transforms as c_vision
from tfspore.dataset.vision import Inter

IMG = np.arange(1, 8 * 10 * 3 + 1, dtype=np.int64).reshape(8, 10, 3).astype(np.uint8)
SQUARE = np.random.RandomState(2).randint(1, 256, (9, 9, 3)).astype(np.uint8)


def _shifted(image, dx, dy, fill=0):
    out = np.full_like(image, fill)
    h, w = image.shape[:2]
    out[max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = image[max(-dy, 0):h - max(dy, 0),
                                                                      max(-dx, 0):w - max(dx, 0)]
    return out


def test_module_paths():
    assert c_vision.RandomAffine is vision.RandomAffine and c_vision.Affine is vision.Affine


def test_translation_moves_by_whole_pixels():
    np.testing.assert_array_equal(vision.Affine(0, (0.2, -0.25), 1.0, 0)(IMG), _shifted(IMG, 2, -2))
    op = vision.RandomAffine(0, translate=(0.3, 0.3, 0.25, 0.25), fill_value=(5, 6, 7))
    expected = _shifted(IMG, 3, 2)
    expected[:2, :, :] = [5, 6, 7]
    expected[:, :3, :] = [5, 6, 7]
    np.testing.assert_array_equal(op(IMG), expected)


def test_quarter_turn_about_the_centre():
    out = vision.RandomAffine((90, 90))(SQUARE)
    np.testing.assert_array_equal(out, np.rot90(SQUARE, k=-1))  # MindSpore's positive angle turns clockwise here
    np.testing.assert_array_equal(vision.RandomAffine((-90, -90))(SQUARE), np.rot90(SQUARE, k=1))


def test_random_draws_stay_in_range_and_vary():
    op = vision.RandomAffine(0, translate=(-0.4, 0.4))

    outs = set()
    for s in range(8):
        out = op._tf_apply(tf.constant(IMG), seed=tf.constant([s, 9], tf.int64)).numpy()  # pylint: disable=W0212
        shifts = [dx for dx in range(-4, 5) if np.array_equal(out, _shifted(IMG, dx, 0))]
        assert len(shifts) == 1
        outs.add(shifts[0])
    assert len(outs) > 1


def test_bilinear_scale_keeps_size_and_dtype():
    out = vision.RandomAffine(0, scale=(1.5, 1.5), resample=Inter.BILINEAR)(SQUARE)
    assert out.shape == SQUARE.shape and out.dtype == np.uint8
    assert out[4, 4].tolist() == SQUARE[4, 4].tolist()  # the centre is fixed
    assert vision.RandomAffine(10, shear=5)(SQUARE[:, :, 0]).shape == (9, 9)


def test_errors():
    with pytest.raises(ValueError, match=r"For 'RandomAffine', the translate at 0 must be in range \[-1.0, 1.0\], "
                                          "but got -2"):
        vision.RandomAffine(0, translate=(-2, 0))
    with pytest.raises(TypeError, match="For 'RandomAffine', translate should be a list or tuple of length 2 or 4"):
        vision.RandomAffine(0, translate=(0.1,))
    with pytest.raises(ValueError, match=r"For 'RandomAffine', input scale\[1\] must be equal to or greater"):
        vision.RandomAffine(0, scale=(2, 1))
    with pytest.raises(ValueError, match="For 'RandomAffine', input shear"):
        vision.RandomAffine(0, shear=(5, 1))
    with pytest.raises(TypeError, match="For 'RandomAffine', the 'resample'"):
        vision.RandomAffine(0, resample=Inter.CUBIC)
    with pytest.raises(ValueError, match=r"For 'Affine', the 'degrees' must be in range \[-180, 180\], but got 200"):
        vision.Affine(200, (0, 0), 1.0, 0)
    with pytest.raises(ValueError, match=r"For 'Affine', the 'scale' must be in range"):
        vision.Affine(0, (0, 0), 0.0, 0)

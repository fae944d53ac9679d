"""The AutoAugment family's pixel transforms: Equalize, AutoContrast, Invert, Posterize, Solarize, RandomColor,
sharpness and RandomGrayscale (values against numpy references, randomness, errors, in-graph runs)."""
import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfspore.dataset as ds
import tfspore.dataset.vision as vision
import tfspore.dataset.vision.c_transforms as c_vision
import tfspore.dataset.vision.py_transforms as py_vision
import tfspore.dataset.vision.transforms as vision_transforms

RGB = np.random.RandomState(5).randint(0, 256, (9, 11, 3)).astype(np.uint8)
LOW = np.random.RandomState(6).randint(60, 140, (7, 9, 3)).astype(np.uint8)


def _graph(op, image, seed=(1, 2)):
    @tf.function(input_signature=[tf.TensorSpec([None] * image.ndim, tf.as_dtype(image.dtype))], autograph=False)
    def run(x):
        return op._tf_apply(x, seed=tf.constant(seed, tf.int64))  # pylint: disable=protected-access

    return run(image).numpy()


def _equalize_reference(channel):
    hist = np.bincount(channel.ravel(), minlength=256)
    first = np.flatnonzero(hist)[0]
    if hist[first] == channel.size:
        return np.full_like(channel, first)
    scale = np.float32(255.0) / np.float32(channel.size - hist[first])
    cum = np.cumsum(hist) - np.cumsum(hist)[first]
    lut = np.where(np.arange(256) > first, np.clip(np.rint(cum.astype(np.float32) * scale), 0, 255), 0)
    return lut.astype(np.uint8)[channel]


def _auto_contrast_reference(channel, cutoff):
    hist = np.bincount(channel.ravel(), minlength=256)
    cut = int(cutoff / 100.0 * hist.sum())
    for order in (range(256), range(255, -1, -1)):
        left = cut
        for i in order:
            take = min(left, hist[i])
            hist[i] -= take
            left -= take
    used = np.flatnonzero(hist)
    lo, hi = used[0], used[-1]
    scale = np.float32(255.0) / np.float32(hi - lo)
    lut = np.clip((np.arange(256, dtype=np.float32) * scale - np.float32(lo) * scale).astype(np.int32), 0, 255)
    return lut.astype(np.uint8)[channel]


def test_module_paths():
    for name in ("Equalize", "AutoContrast", "Invert", "Posterize", "RandomPosterize", "Solarize", "RandomSolarize",
                 "RandomColor", "RandomSharpness", "AdjustSharpness", "RandomGrayscale", "RandomEqualize",
                 "RandomInvert", "RandomAutoContrast", "RandomAdjustSharpness"):
        cls = getattr(vision, name)
        assert getattr(c_vision, name) is cls and getattr(py_vision, name) is cls
        assert getattr(vision_transforms, name) is cls


def test_equalize_matches_opencv_reference():
    out = vision.Equalize()(LOW)
    expected = np.stack([_equalize_reference(LOW[:, :, k]) for k in range(3)], axis=2)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(_graph(vision.Equalize(), LOW), expected)
    gray = LOW[:, :, 0]
    np.testing.assert_array_equal(vision.Equalize()(gray), _equalize_reference(gray))
    np.testing.assert_array_equal(vision.Equalize()(np.full((2, 3, 3), 9, np.uint8)), np.full((2, 3, 3), 9))


@pytest.mark.parametrize("cutoff", [0, 10.7, 30])
def test_auto_contrast_matches_reference(cutoff):
    out = vision.AutoContrast(cutoff=cutoff)(LOW)
    expected = np.stack([_auto_contrast_reference(LOW[:, :, k], int(cutoff)) for k in range(3)], axis=2)
    np.testing.assert_array_equal(out, expected)
    assert out.min() == 0 and out.max() == 255


def test_auto_contrast_ignore_and_flat_images():
    image = np.array([[[10, 10, 10], [20, 20, 20], [250, 250, 250]]], np.uint8)
    np.testing.assert_array_equal(vision.AutoContrast(ignore=250)(image)[0, :, 0], [0, 255, 255])
    flat = np.full((2, 2, 3), 77, np.uint8)
    np.testing.assert_array_equal(vision.AutoContrast()(flat), flat)


def test_invert_posterize_solarize():
    np.testing.assert_array_equal(vision.Invert()(RGB), 255 - RGB)
    np.testing.assert_allclose(vision.Invert()(RGB.astype(np.float32)), 255.0 - RGB)
    np.testing.assert_array_equal(vision.Posterize(3)(RGB), RGB & 0b11100000)
    np.testing.assert_array_equal(vision.Posterize(0)(RGB), np.zeros_like(RGB))
    np.testing.assert_array_equal(vision.Solarize(100)(RGB), np.where(RGB >= 100, 255 - RGB, RGB))
    np.testing.assert_array_equal(vision.Solarize((50, 150))(RGB),
                                  np.where((RGB >= 50) & (RGB <= 150), 255 - RGB, RGB))


def test_random_posterize_and_solarize_draw_within_their_ranges():
    outs = [_graph(vision.RandomPosterize((2, 4)), RGB, seed=(s, 1)) for s in range(12)]
    masks = {tuple(np.unique(o & ~RGB)) for o in outs}
    assert masks == {(0,)}  # posterizing only clears bits
    assert {int(np.unique(RGB & ~o).max()).bit_length() for o in outs} <= {4, 5, 6}
    assert len({o.tobytes() for o in outs}) > 1
    for s in range(6):
        out = _graph(vision.RandomSolarize((100, 140)), RGB, seed=(s, 3))
        changed = out != RGB
        assert np.all((RGB[changed] >= 100) & (RGB[changed] <= 255))
        np.testing.assert_array_equal(out[changed], 255 - RGB[changed])


def test_random_color_blends_with_gray():
    gray = vision.ConvertColor(vision.ConvertMode.COLOR_RGB2GRAY)(RGB)
    np.testing.assert_array_equal(vision.RandomColor((0, 0))(RGB), np.stack([gray] * 3, axis=2))
    np.testing.assert_array_equal(vision.RandomColor((1, 1))(RGB), RGB)
    half = vision.RandomColor((0.5, 0.5))(RGB).astype(np.int32)
    expected = np.rint(RGB * np.float32(0.5) + gray[:, :, None] * np.float32(0.5))
    assert np.abs(half - expected).max() <= 1


def test_sharpness():
    np.testing.assert_array_equal(vision.RandomSharpness((1.0, 1.0))(RGB), RGB)
    blurred = vision.AdjustSharpness(0.0)(RGB).astype(np.float32)
    kernel = np.ones((3, 3), np.float32) / 13
    kernel[1, 1] = 5 / 13
    centre = sum(RGB[dy:dy + 7, dx:dx + 9].astype(np.float32) * kernel[dy, dx] for dy in range(3) for dx in range(3))
    np.testing.assert_array_equal(blurred[1:-1, 1:-1], np.rint(centre))
    np.testing.assert_array_equal(blurred[0], RGB[0])  # borders kept
    sharp = vision.AdjustSharpness(2.0)(RGB).astype(np.int32)
    np.testing.assert_array_equal(sharp, np.clip(np.rint(2.0 * RGB - blurred), 0, 255))
    assert vision.RandomSharpness()(RGB[:, :, 0]).shape == (9, 11)


def test_random_grayscale_uses_pillow_luma():
    gray = np.asarray(Image.fromarray(RGB).convert("L"))
    np.testing.assert_array_equal(vision.RandomGrayscale(1.0)(RGB), np.stack([gray] * 3, axis=2))
    np.testing.assert_array_equal(vision.RandomGrayscale(0.0)(RGB), RGB)
    np.testing.assert_array_equal(vision.RandomGrayscale(1.0)(RGB[:, :, 0]), RGB[:, :, 0])


def test_random_apply_versions_respect_prob():
    for cls, plain in ((vision.RandomEqualize, vision.Equalize()), (vision.RandomInvert, vision.Invert()),
                       (vision.RandomAutoContrast, vision.AutoContrast())):
        np.testing.assert_array_equal(cls(prob=1.0)(LOW), plain(LOW))
        np.testing.assert_array_equal(cls(prob=0.0)(LOW), LOW)
    np.testing.assert_array_equal(vision.RandomAdjustSharpness(2.0, prob=1.0)(RGB), vision.AdjustSharpness(2.0)(RGB))


def test_in_pipeline_with_seed_is_reproducible():
    def run():
        ds.config.set_seed(5)
        data = ds.NumpySlicesDataset({"image": np.stack([RGB] * 3)}, shuffle=False)
        data = data.map([vision.RandomColor(), vision.RandomSharpness(), vision.RandomSolarize()], "image")
        return [row[0] for row in data.create_tuple_iterator(output_numpy=True)]

    first, second = run(), run()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert first[0].tobytes() != first[1].tobytes()


def test_errors():
    with pytest.raises(ValueError, match=r"For 'AutoContrast', the 'cutoff' must be in range \[0, 50\), but got 50"):
        vision.AutoContrast(cutoff=50)
    with pytest.raises(ValueError, match="For 'AutoContrast', the 'ignore'"):
        vision.AutoContrast(ignore=[256])
    with pytest.raises(ValueError, match="For 'Posterize', the 'bits'"):
        vision.Posterize(9)
    with pytest.raises(ValueError, match="For 'RandomPosterize', bits should be in"):
        vision.RandomPosterize((5, 2))
    with pytest.raises(TypeError, match="For 'RandomSolarize', the 'threshold'"):
        vision.RandomSolarize([0, 255])
    with pytest.raises(ValueError, match="For 'Solarize', threshold must be in order"):
        vision.Solarize((200, 100))
    with pytest.raises(ValueError, match="For 'RandomColor', degrees should be in"):
        vision.RandomColor((1.5, 0.5))
    with pytest.raises(TypeError, match="For 'RandomSharpness', degrees must be either a tuple or a list"):
        vision.RandomSharpness(0.5)
    with pytest.raises(ValueError, match="For 'RandomGrayscale', the 'prob'"):
        vision.RandomGrayscale(1.5)
    with pytest.raises(RuntimeError, match="For 'Equalize', the input image should be of type uint8"):
        vision.Equalize()(RGB.astype(np.float32))
    with pytest.raises(RuntimeError, match="For 'Invert', the input should be an <H,W,3> image"):
        vision.Invert()(RGB[:, :, 0])
    with pytest.raises(RuntimeError, match="For 'RandomColor', the input should be an <H,W,3> RGB image"):
        vision.RandomColor()(RGB[:, :, 0])

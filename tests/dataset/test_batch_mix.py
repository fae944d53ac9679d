"""MixUpBatch (one lam per batch, a permutation of the batch), NormalizePad and RandomResize."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore.dataset as ds
import tfspore.dataset.transforms as transforms
import tfspore.dataset.vision as vision
import tfspore.dataset.vision.c_transforms as c_vision

IMAGES = np.random.RandomState(4).randint(0, 256, (6, 5, 5, 3)).astype(np.uint8)
LABELS = np.eye(6, dtype=np.int32)


def test_mixup_blends_with_a_permutation():
    """labels[i] = lam * e_i + (1 - lam) * e_perm[i]: read lam and perm back and check the images."""
    op = vision.MixUpBatch(0.8)
    assert c_vision.MixUpBatch is vision.MixUpBatch
    moved = 0
    for seed in range(5):
        images, labels = op._tf_apply(tf.constant(IMAGES), tf.constant(LABELS),  # pylint: disable=W0212
                                      seed=tf.constant([seed, 2], tf.int64))
        images, labels = images.numpy(), labels.numpy()
        assert images.dtype == np.uint8 and labels.dtype == np.float32
        np.testing.assert_allclose(labels.sum(axis=1), 1.0, rtol=1e-6)
        lam = float(np.diag(labels)[np.count_nonzero(labels, axis=1) == 2][0]) \
            if (np.count_nonzero(labels, axis=1) == 2).any() else 1.0
        perm = np.array([i if np.count_nonzero(row) == 1 else int(np.flatnonzero((row > 0) & (np.arange(6) != i))[0])
                         for i, row in enumerate(labels)])
        assert sorted(perm) == list(range(6))
        moved += int((perm != np.arange(6)).sum())
        expected = np.clip(np.rint(lam * IMAGES.astype(np.float32) + (1 - lam) * IMAGES[perm]), 0, 255)
        assert np.abs(images.astype(np.int32) - expected).max() <= 1
    assert moved > 0


def test_mixup_after_batch_in_a_pipeline():
    data = ds.NumpySlicesDataset({"image": IMAGES, "label": np.arange(6, dtype=np.int32)}, shuffle=False)
    data = data.map(transforms.OneHot(6), "label").batch(3).map(vision.MixUpBatch(), ["image", "label"])
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [r[0].shape for r in rows] == [(3, 5, 5, 3)] * 2 and rows[0][1].shape == (3, 6)


def test_mixup_errors():
    with pytest.raises(ValueError, match="For 'MixUpBatch', the 'alpha' must be in range \\(0.0, "):
        vision.MixUpBatch(0)
    with pytest.raises(RuntimeError, match="For 'MixUpBatch', please make sure images are HWC or CHW and batched"):
        vision.MixUpBatch()(IMAGES[0], LABELS[0])
    with pytest.raises(RuntimeError, match="For 'MixUpBatch', wrong labels type"):
        vision.MixUpBatch()(IMAGES, LABELS.astype(np.float32))


def test_normalize_pad_appends_a_zero_channel():
    image = IMAGES[0]
    out = vision.NormalizePad([100.0, 110.0, 120.0], [50.0, 60.0, 70.0])(image)
    expected = (image - np.array([100.0, 110.0, 120.0], np.float32)) / np.array([50.0, 60.0, 70.0], np.float32)
    assert out.shape == (5, 5, 4) and out.dtype == np.float32
    np.testing.assert_allclose(out[..., :3], expected, rtol=1e-6)
    assert not out[..., 3].any()
    chw = vision.NormalizePad([1.0] * 3, [2.0] * 3, dtype="float16", is_hwc=False)(image.transpose(2, 0, 1))
    assert chw.shape == (4, 5, 5) and chw.dtype == np.float16 and not chw[3].any()
    with pytest.raises(ValueError, match="For 'NormalizePad', dtype only supports float32 or float16"):
        vision.NormalizePad([1.0], [1.0], dtype="float64")


def test_random_resize_uses_several_interpolations():
    image = IMAGES[0]
    op = vision.RandomResize((3, 4))
    seeds = [tf.constant([s, 1], tf.int64) for s in range(24)]
    outs = {op._tf_apply(tf.constant(image), seed=seed).numpy().tobytes() for seed in seeds}  # pylint: disable=W0212
    modes = {vision.Resize((3, 4), mode)(image).tobytes() for mode in (vision.Inter.LINEAR, vision.Inter.NEAREST,
                                                                        vision.Inter.CUBIC, vision.Inter.AREA)}
    assert outs == modes
    assert c_vision.RandomResize(2)(image).shape == (2, 2, 3)

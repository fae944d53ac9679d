"""ResizeBilinear (MindSpore 1.x) and CropAndResize."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, ops

X = np.random.RandomState(0).standard_normal((2, 3, 4, 5)).astype(np.float32)


@pytest.mark.parametrize("kw", [dict(), dict(align_corners=True), dict(half_pixel_centers=True)])
def test_resize_bilinear_matches_v2(mode, run, kw):
    out = run(lambda x: ops.ResizeBilinear((7, 9), **kw)(x), Tensor(X))
    ref = ops.ResizeBilinearV2(**kw)(Tensor(X), (7, 9))
    assert out.shape == (2, 3, 7, 9) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-6)


def test_resize_bilinear_align_corners_values_and_dtype():
    x = Tensor(np.array([[[[1, 2], [3, 4]]]], np.float16))
    out = ops.ResizeBilinear([3, 3], align_corners=True)(x)
    assert out.dtype == ms.float16
    np.testing.assert_allclose(out.asnumpy()[0, 0], [[1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]])


def test_resize_bilinear_errors():
    with pytest.raises(TypeError, match="For 'ResizeBilinear', the 'size' must be a tuple or list of 2 ints"):
        ops.ResizeBilinear(3)
    with pytest.raises(ValueError, match="'half_pixel_centers' must be False when 'align_corners' is True"):
        ops.ResizeBilinear((2, 2), True, True)
    with pytest.raises(ValueError, match="must be a 4-D NCHW Tensor"):
        ops.ResizeBilinear((2, 2))(Tensor(X[0]))


def test_crop_and_resize(mode, run):
    img = np.random.RandomState(1).standard_normal((2, 6, 7, 3)).astype(np.float32)
    boxes = np.array([[0, 0, 1, 1], [0.2, 0.1, 0.8, 0.9]], np.float32)
    idx = np.array([1, 0], np.int32)
    out = run(lambda a, b, c: ops.CropAndResize()(a, b, c, (4, 5)), Tensor(img), Tensor(boxes), Tensor(idx))
    ref = tf.image.crop_and_resize(img, boxes, idx, [4, 5]).numpy()
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-6)
    with pytest.raises(NotImplementedError, match="'bilinear_v2'"):
        ops.CropAndResize("bilinear_v2")(Tensor(img), Tensor(boxes), Tensor(idx), (4, 5))
    with pytest.raises(ValueError, match="For 'CropAndResize', the 'method' must be one of"):
        ops.CropAndResize("area")

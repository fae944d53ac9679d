"""RandomResizedCrop's crop box and RandomCropDecodeResize (JPEG crop-decode path and the other formats)."""
import io

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfspore.dataset as ds
import tfspore.dataset.vision as vision
import tfspore.dataset.vision.c_transforms as c_vision
import tfspore.dataset.vision.py_transforms as py_vision
import tfspore.dataset.vision.transforms as vision_transforms
from tfspore.dataset.vision import Inter


def _encode(arr, fmt):
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format=fmt)
    return np.frombuffer(buf.getvalue(), np.uint8).copy()


GRADIENT = (np.arange(32)[:, None, None] * 7 + np.arange(32)[None, :, None] * 3 + np.arange(3) * 50).astype(np.uint8)
JPEG = _encode(GRADIENT, "JPEG")
PNG = _encode(GRADIENT, "PNG")


def _windows(image, h, w):
    return {image[i:i + h, j:j + w].tobytes() for i in range(image.shape[0] - h + 1)
            for j in range(image.shape[1] - w + 1)}


def test_module_paths():
    assert c_vision.RandomCropDecodeResize is vision.RandomCropDecodeResize
    assert py_vision.RandomCropDecodeResize is vision.RandomCropDecodeResize
    assert vision_transforms.RandomCropDecodeResize is vision.RandomCropDecodeResize


def test_whole_image_box_is_decode_then_resize():
    op = vision.RandomCropDecodeResize((10, 12), scale=(1.0, 1.0), ratio=(1.0, 1.0))
    for encoded in (JPEG, PNG):
        expected = vision.Resize((10, 12))(vision.Decode()(encoded))
        np.testing.assert_array_equal(op(encoded), expected)


@pytest.mark.parametrize("shape, ratio, box", [((15, 24), (1.0, 1.0), (0, 5, 15, 15)),  # wide: left rounds 4.5 up
                                               ((24, 15), (1.0, 1.0), (5, 0, 15, 15)),  # tall
                                               ((15, 24), (0.5, 1.2), (0, 3, 15, 18))])  # ratio clamped to 1.2
def test_fallback_box_is_centred_with_mindspore_rounding(shape, ratio, box):
    image = np.random.RandomState(1).randint(0, 256, shape + (3,)).astype(np.uint8)
    top, left, h, w = box
    op = vision.RandomCropDecodeResize((h, w), scale=(1.0, 1.0), ratio=ratio, interpolation=Inter.NEAREST)
    np.testing.assert_array_equal(op(_encode(image, "PNG")), image[top:top + h, left:left + w])
    rrc = vision.RandomResizedCrop((h, w), scale=(1.0, 1.0), ratio=ratio, interpolation=Inter.NEAREST)
    np.testing.assert_array_equal(rrc(image), image[top:top + h, left:left + w])


def _crop_decodes(encoded, h, w):
    """Every h x w window as libjpeg-turbo's crop decode gives it (its edge columns upsample chroma
    from inside the window, so they differ from a crop of the full decode, in MindSpore as here)."""
    return {tf.image.decode_and_crop_jpeg(encoded.tobytes(), [i, j, h, w], channels=3,
                                          dct_method="INTEGER_ACCURATE").numpy().tobytes()
            for i in range(33 - h) for j in range(33 - w)}


@pytest.mark.parametrize("encoded", [JPEG, PNG], ids=["jpeg", "png"])
def test_random_boxes_are_windows_of_the_image(encoded):
    """A quarter-area square resized to its own size is exactly one window of the image."""
    windows = _crop_decodes(encoded, 16, 16) if encoded is JPEG else _windows(vision.Decode()(encoded), 16, 16)
    op = vision.RandomCropDecodeResize((16, 16), scale=(0.25, 0.25), ratio=(1.0, 1.0))
    data = ds.NumpySlicesDataset({"image": [encoded] * 8}, shuffle=False).map(op, "image")
    outs = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    assert all(out.shape == (16, 16, 3) and out.dtype == np.uint8 for out in outs)
    assert all(out.tobytes() in windows for out in outs)
    assert len({out.tobytes() for out in outs}) > 1  # the box moves from row to row


def test_graph_with_unknown_shape_and_string_input():
    op = vision.RandomCropDecodeResize((6, 5), interpolation=Inter.CUBIC)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.uint8)], autograph=False)
    def run(x):
        return op._tf_apply(x, seed=tf.constant([1, 2], tf.int64))  # pylint: disable=protected-access

    assert run(tf.constant(JPEG)).shape == (6, 5, 3)
    raw = tf.constant(JPEG.tobytes())
    assert op._tf_apply(raw, seed=tf.constant([1, 2], tf.int64)).shape == (6, 5, 3)  # pylint: disable=W0212


def test_argument_and_input_errors():
    with pytest.raises(ValueError, match=r"For 'RandomCropDecodeResize', the 'scale' must be a \(min, max\) pair"):
        vision.RandomCropDecodeResize(4, scale=(0.9, 0.1))
    with pytest.raises(ValueError, match=r"For 'RandomCropDecodeResize', the 'max_attempts'.*0"):
        vision.RandomCropDecodeResize(4, max_attempts=0)
    with pytest.raises(TypeError, match="For 'RandomCropDecodeResize', the 'interpolation'"):
        vision.RandomCropDecodeResize(4, interpolation="bilinear")
    with pytest.raises(TypeError, match="encoded image with uint8 type in 1-D"):
        vision.RandomCropDecodeResize(4)(GRADIENT)
    with pytest.raises(TypeError, match="encoded image in 1-D NumPy format"):
        vision.RandomCropDecodeResize(4)([1, 2, 3])

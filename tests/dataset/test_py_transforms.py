"""The legacy py_transforms modules: CHW Normalize after ToTensor, Pillow's ANTIALIAS resize, the module names."""
import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfspore.dataset as ds
import tfspore.dataset.transforms.py_transforms as py_transforms
import tfspore.dataset.vision as vision
import tfspore.dataset.vision.py_transforms as py_vision
from tfspore.dataset.transforms import PyTensorOperation
from tfspore.dataset.vision import Inter

RGB = np.random.RandomState(3).randint(0, 256, (40, 50, 3)).astype(np.uint8)


def test_normalize_after_to_tensor_is_chw():
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    chw = py_vision.ToTensor()(RGB)
    out = py_vision.Normalize(mean=mean, std=std)(chw)
    expected = (RGB.transpose(2, 0, 1) / np.float32(255) - np.array(mean, np.float32)[:, None, None]) \
        / np.array(std, np.float32)[:, None, None]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    assert py_vision.Normalize is not vision.Normalize and py_vision.Resize is vision.Resize
    with pytest.raises(ValueError, match="For 'Normalize', length of mean and std must be equal"):
        py_vision.Normalize([0.5], [0.5, 0.5])


@pytest.mark.parametrize("size", [(17, 23), (64, 31), (40, 12), (224, 224)])
def test_antialias_resize_is_pillow_lanczos(size):
    expected = np.asarray(Image.fromarray(RGB).resize(size[::-1], Image.LANCZOS))
    op = py_vision.Resize(size, interpolation=Inter.ANTIALIAS)
    np.testing.assert_array_equal(op(RGB), expected)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.uint8)], autograph=False)
    def run(x):
        return op._tf_apply(x)  # pylint: disable=protected-access

    np.testing.assert_array_equal(run(RGB).numpy(), expected)


def test_a_py_transforms_pipeline():
    ops = py_transforms.Compose([py_vision.Resize((32, 32), interpolation=Inter.ANTIALIAS), py_vision.CenterCrop(28),
                                 py_vision.ToTensor(), py_vision.Normalize(mean=[0.5] * 3, std=[0.5] * 3)])
    data = ds.NumpySlicesDataset({"image": np.stack([RGB] * 2)}, shuffle=False).map(ops, "image")
    rows = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    assert [r.shape for r in rows] == [(3, 28, 28)] * 2 and rows[0].dtype == np.float32
    assert -1.0 <= rows[0].min() and rows[0].max() <= 1.0
    assert py_transforms.PyTensorOperation is PyTensorOperation

"""AutoAugment, RandAugment, TrivialAugmentWide and their operations (``apply_augment``)."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore.dataset as ds
from tfspore.dataset import vision
from tfspore.dataset.vision import c_transforms
from tfspore.dataset.vision._augment_policies import POLICIES, apply_augment, magnitude_space

IMAGE = (np.arange(8 * 8 * 3) * 7 % 256).astype(np.uint8).reshape(8, 8, 3)


def test_legacy_paths_and_policy_tables():
    assert c_transforms.AutoAugment is vision.AutoAugment and c_transforms.TrivialAugmentWide is vision.TrivialAugmentWide
    for subs in POLICIES.values():
        assert len(subs) == 25 and all(len(sub) == 2 for sub in subs)
        for sub in subs:
            for name, prob, bin_id in sub:
                assert name in magnitude_space("auto", 10) and 0.0 <= prob <= 1.0 and -1 <= bin_id < 10


@pytest.mark.parametrize("name, magnitude, want", [
    ("Invert", 0.0, 255 - IMAGE),
    ("Identity", 0.0, IMAGE),
    ("Posterize", 3.0, IMAGE & 0b11100000),
    ("Solarize", 128.0, np.where(IMAGE >= 128, 255 - IMAGE, IMAGE)),
    ("Brightness", 0.0, IMAGE),
])
def test_point_operations(name, magnitude, want):
    np.testing.assert_array_equal(np.asarray(apply_augment(IMAGE, name, magnitude)), want)


def test_translations_move_by_whole_pixels():
    out = np.asarray(apply_augment(IMAGE, "TranslateX", 2.9, fill_value=(1, 2, 3)))  # truncated to 2
    np.testing.assert_array_equal(out[:, 2:], IMAGE[:, :-2])
    np.testing.assert_array_equal(out[:, :2], np.broadcast_to([1, 2, 3], (8, 2, 3)))
    out = np.asarray(apply_augment(IMAGE, "TranslateY", -3.0))
    np.testing.assert_array_equal(out[:-3], IMAGE[3:])
    assert (out[-3:] == 0).all()


def test_unknown_operation():
    with pytest.raises(ValueError, match="'Blur' is not supported"):
        apply_augment(IMAGE, "Blur", 1.0)


def test_argument_errors():
    with pytest.raises(TypeError, match="policy"):
        vision.AutoAugment("imagenet")
    with pytest.raises(TypeError, match="interpolation"):
        vision.RandAugment(interpolation=vision.Inter.BICUBIC)
    with pytest.raises(ValueError, match=r"'magnitude' must be in \[0, 5\)"):
        vision.RandAugment(magnitude=5, num_magnitude_bins=5)
    with pytest.raises(ValueError, match="num_magnitude_bins"):
        vision.TrivialAugmentWide(num_magnitude_bins=1)
    with pytest.raises((TypeError, ValueError), match="fill_value"):
        vision.TrivialAugmentWide(fill_value=(1, 2))


@pytest.mark.parametrize("op", [vision.AutoAugment(), vision.RandAugment(), vision.TrivialAugmentWide()])
def test_inputs_must_be_rgb_uint8(op):
    with pytest.raises(RuntimeError, match="<H,W,3>"):
        op(np.zeros((4, 4), np.uint8))
    with pytest.raises(RuntimeError, match="uint8"):
        op(np.zeros((4, 4, 3), np.float32))


def test_rand_augment_without_operations_is_identity():
    np.testing.assert_array_equal(vision.RandAugment(num_ops=0)(IMAGE), IMAGE)


def test_rand_augment_in_a_pipeline_draws_each_operation_per_row():
    """Rows vary, and the loop draws its two operations separately (not the same one twice)."""
    op = vision.RandAugment(num_ops=2, magnitude=30)
    singles = set()
    for name, (table, signed) in magnitude_space("rand", 31).items():
        mags = [0.0] if table is None else ([float(table[30])] if not isinstance(table, str) else [3.0, -3.0])
        for m in mags + ([-m for m in mags] if signed else []):
            singles.add(np.asarray(apply_augment(IMAGE, name, m)).tobytes())
    data = ds.NumpySlicesDataset({"x": np.stack([IMAGE] * 40)}, shuffle=False).map(op, input_columns="x")
    outs = [row[0].tobytes() for row in data.create_tuple_iterator(output_numpy=True)]
    assert len(set(outs)) > 8
    assert any(o not in singles for o in outs)  # some rows went through two different operations
    assert tf.is_tensor(apply_augment(tf.constant(IMAGE), "Equalize", 0.0))

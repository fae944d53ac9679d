"""RandomSelectSubpolicy and UniformAugment: which members run, in a pipeline, errors."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore.dataset as ds
import tfspore.dataset.transforms as transforms
import tfspore.dataset.vision as vision
import tfspore.dataset.vision.c_transforms as c_vision

RGB = np.random.RandomState(9).randint(0, 256, (6, 7, 3)).astype(np.uint8)


def _run(op, seed):
    return op._tf_apply(tf.constant(RGB), seed=tf.constant([seed, 1], tf.int64)).numpy()  # pylint: disable=W0212


def test_module_paths():
    assert c_vision.RandomSelectSubpolicy is vision.RandomSelectSubpolicy
    assert c_vision.UniformAugment is vision.UniformAugment


def test_subpolicy_steps_apply_in_order():
    op = vision.RandomSelectSubpolicy([[(vision.Invert(), 1.0), (vision.Posterize(2), 1.0)]])
    np.testing.assert_array_equal(op(RGB), (255 - RGB) & 0b11000000)
    skip = vision.RandomSelectSubpolicy([[(vision.Invert(), 0.0), (vision.Posterize(2), 1.0)]])
    np.testing.assert_array_equal(skip(RGB), RGB & 0b11000000)


def test_subpolicy_choice_covers_each_subpolicy():
    subs = [[(vision.Invert(), 1.0)], [(vision.Equalize(), 1.0)], [(vision.Posterize(1), 1.0), (vision.Invert(), 0.5)]]
    op = vision.RandomSelectSubpolicy(subs)
    candidates = {"invert": (255 - RGB).tobytes(), "equalize": vision.Equalize()(RGB).tobytes(),
                  "posterize": (RGB & 0x80).tobytes(), "posterize+invert": (255 - (RGB & 0x80)).tobytes()}
    seen = {name for s in range(24) for name, value in candidates.items() if _run(op, s).tobytes() == value}
    assert seen == set(candidates)


def test_efficientnet_style_policy_in_a_pipeline():
    policy = [[(vision.Equalize(), 0.4), (vision.RandomSolarize((0, 128)), 0.2)],
              [(transforms.RandomChoice([vision.RandomAffine(degrees=0, shear=(-9, -9)),
                                         vision.RandomAffine(degrees=0, shear=(9, 9))]), 0.6),
               (vision.RandomColor((0.4, 0.4)), 1.0)],
              [(vision.RandomSharpness((0.5, 0.5)), 0.4), (vision.AutoContrast(), 0.6)]]
    data = ds.NumpySlicesDataset({"image": np.stack([RGB] * 2)}, shuffle=False)
    data = data.map(vision.RandomSelectSubpolicy(policy), "image")
    outs = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    assert all(o.shape == RGB.shape and o.dtype == np.uint8 for o in outs)


def test_uniform_augment_applies_num_ops_members():
    np.testing.assert_array_equal(vision.UniformAugment([vision.Invert(), vision.Invert()], num_ops=2)(RGB), RGB)
    np.testing.assert_array_equal(vision.UniformAugment([vision.Invert(), vision.Invert()], num_ops=1)(RGB),
                                  255 - RGB)
    op = vision.UniformAugment([vision.Invert(), vision.Posterize(1), vision.Equalize()], num_ops=1)
    singles = {(255 - RGB).tobytes(), (RGB & 0x80).tobytes(), vision.Equalize()(RGB).tobytes()}
    assert {_run(op, s).tobytes() for s in range(30)} == singles


def test_errors():
    with pytest.raises(ValueError, match="For 'RandomSelectSubpolicy', policy can not be empty"):
        vision.RandomSelectSubpolicy([])
    with pytest.raises(TypeError, match=r"For 'RandomSelectSubpolicy', policy\[0\]\[0\] should be a tuple"):
        vision.RandomSelectSubpolicy([[vision.Invert()]])
    with pytest.raises(ValueError, match=r"For 'RandomSelectSubpolicy', the prob of \(op, prob\) policy\[0\]\[0\] "
                                          "must be in range"):
        vision.RandomSelectSubpolicy([[(vision.Invert(), 1.5)]])
    with pytest.raises(ValueError, match="For 'UniformAugment', the 'num_ops' must be in range"):
        vision.UniformAugment([vision.Invert()], num_ops=2)

"""``nn.ClipByNorm`` and ``nn.Norm`` (tfspore/nn/layer/clip.py)."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, nn


def _ref(x, c, axis):
    norm = np.sqrt((x.astype(np.float64) ** 2).sum(axis=axis, keepdims=True))
    return (x * c / np.maximum(norm, c)).astype(np.float32)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1, [1]])
def test_clip_by_norm_matches_formula(mode, axis):
    x = np.random.default_rng(0).standard_normal((3, 4, 5)).astype(np.float32)
    out = nn.ClipByNorm(axis)(Tensor(x), Tensor(np.array([1.5], np.float32)))
    ref_axis = tuple(axis) if isinstance(axis, list) else axis
    np.testing.assert_allclose(out.asnumpy(), _ref(x, 1.5, ref_axis), rtol=1e-5, atol=1e-6)


def test_clip_by_norm_small_norm_unchanged_zero_stays_zero_and_float32_out():
    x = np.array([[0.3, 0.4], [0.0, 0.0]], np.float32)
    clip = nn.ClipByNorm()
    np.testing.assert_allclose(clip(Tensor(x), Tensor(1.0)).asnumpy(), x)
    np.testing.assert_array_equal(clip(Tensor(np.zeros((2, 2), np.float32)), Tensor(1.0)).asnumpy(), 0)
    half = clip(Tensor(np.array([3.0, 4.0], np.float16)), Tensor(np.float16(1.0)))
    assert half.dtype == ms.float32
    np.testing.assert_allclose(half.asnumpy(), [0.6, 0.8], rtol=1e-6)
    # a clip_norm broadcast against x clips each column with its own bound
    out = clip(Tensor(np.ones((2, 3), np.float32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32))).asnumpy()
    np.testing.assert_allclose(out[0], [1 / np.sqrt(6), 2 / np.sqrt(6), 1.0], rtol=1e-6)


def test_clip_by_norm_gradient_and_in_tf_function():
    clip = nn.ClipByNorm()
    x = tf.Variable([[3.0, 4.0], [0.0, 0.0]])
    r = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def grad():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.convert_to_tensor(clip(Tensor(x), Tensor(1.0))) * r)
        return tape.gradient(loss, x)

    # d/dx sum(r * x / |x|) = r / |x| - (r.x) x / |x|^3, |x| = 5, r.x = 11
    want = np.array([[0.2 - 11 * 3 / 125, 0.4 - 11 * 4 / 125], [0.6, 0.8]], np.float32)
    np.testing.assert_allclose(grad().numpy(), want, rtol=1e-5)


def test_clip_by_norm_errors():
    for bad, msg in [("a", "type of 'axis' should be one of '\\['int', 'tuple', 'list'\\]', but got type 'str'"),
                     (1.5, "but got type 'float'"), ((0, "b"), "type of 'axis\\[1\\]' should be 'int'")]:
        with pytest.raises(TypeError, match=msg):
            nn.ClipByNorm(axis=bad)
    with pytest.raises(TypeError, match=r"input argument\[x\] must be a type of \{Float16, Float32\}, but got Int32"):
        nn.ClipByNorm()(Tensor(np.ones(3, np.int32)), Tensor(1.0))
    with pytest.raises(TypeError, match=r"argument\[clip_norm\].*but got Int32"):
        nn.ClipByNorm()(Tensor(np.ones(3, np.float32)), Tensor(np.int32(1)))


def test_norm(mode):
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_allclose(nn.Norm()(Tensor(x)).asnumpy(), np.linalg.norm(x), rtol=1e-6)
    np.testing.assert_allclose(nn.Norm(axis=1)(Tensor(x)).asnumpy(), np.linalg.norm(x, axis=1), rtol=1e-6)
    assert nn.Norm(axis=1, keep_dims=True)(Tensor(x)).shape == (2, 1)
    assert repr(nn.Norm(axis=1)) == "Norm(axis=1, keep_dims=False)"
    with pytest.raises(TypeError, match="'keep_dims' should be 'bool'"):
        nn.Norm(keep_dims=1)

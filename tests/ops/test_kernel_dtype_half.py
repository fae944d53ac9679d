"""float16 composite activations compute in float32 and round once
(``tfspore.ops.function.kernel_dtype.float32_for_half``), on every device.

Evaluated op by op in float16, the tanh GELU ``0.5 x (1 + tanh(z))`` cancels near ``x = -3`` and was
off by up to 4% of the value, LogSoftmax by 2%; MindSpore's CPU kernels compute these activations
in float32 for float16 data.
"""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import Tensor, nn, ops
from tfspore.ops import operations as P
from tfspore.ops.function.kernel_dtype import float32_for_half


def _half_data(seed=0, shape=(16, 64)):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3).astype(np.float16)
    x[0, :8] = np.array([-3.6, -3.5, -3.1, -2.0, -0.01, 0.0, 2.5, 4.0], np.float16)
    return x


def test_float32_for_half_rounds_the_float32_result_once():
    seen = []

    def fn(t):
        seen.append(t.dtype)
        return tf.tanh(t) * 3.0 + 1.0

    x = tf.constant(_half_data())
    y = float32_for_half(fn, x)
    assert y.dtype == tf.float16 and seen == [tf.float32]
    np.testing.assert_array_equal(y.numpy(), tf.cast(fn(tf.cast(x, tf.float32)), tf.float16).numpy())
    b = float32_for_half(fn, tf.cast(x, tf.bfloat16))
    assert b.dtype == tf.bfloat16 and seen[-1] == tf.float32
    f = float32_for_half(fn, tf.cast(x, tf.float32))
    assert f.dtype == tf.float32 and seen[-1] == tf.float32
    d = float32_for_half(fn, tf.cast(x, tf.float64))
    assert d.dtype == tf.float64 and seen[-1] == tf.float64  # other dtypes compute as they are


_CASES = {
    "ops.gelu tanh": (lambda t: ops.gelu(t, approximate="tanh"), lambda t: ops.gelu(t, approximate="tanh")),
    "ops.gelu erf": (ops.gelu, ops.gelu),
    "P.GeLU": (P.GeLU(), P.GeLU()),
    "nn.GELU": (nn.GELU(), nn.GELU()),
    "nn.GELU exact": (nn.GELU(approximate=False), nn.GELU(approximate=False)),
    "P.FastGeLU": (P.FastGeLU(), P.FastGeLU()),
    "nn.FastGelu": (nn.FastGelu(), nn.FastGelu()),
    "ops.log_softmax": (ops.log_softmax, ops.log_softmax),
    "Tensor.log_softmax": (lambda t: t.log_softmax(1), lambda t: t.log_softmax(1)),
    "P.LogSoftmax": (P.LogSoftmax(), P.LogSoftmax()),
    "nn.LogSoftmax": (nn.LogSoftmax(), nn.LogSoftmax()),
    "nn.LogSoftmaxExt": (nn.LogSoftmaxExt(1), nn.LogSoftmaxExt(1)),
    "ops.softplus": (ops.softplus, ops.softplus),
    "nn.Softplus": (nn.Softplus(), nn.Softplus()),
}


@pytest.mark.parametrize("name", sorted(_CASES))
def test_half_activation_is_the_float32_result_rounded(name):
    half_fn, float_fn = _CASES[name]
    x = _half_data()
    y = half_fn(Tensor(x))
    assert y.dtype == ops.dtype(Tensor(x))
    want = float_fn(Tensor(x.astype(np.float32))).asnumpy().astype(np.float16)
    np.testing.assert_array_equal(y.asnumpy(), want)

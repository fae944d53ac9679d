"""Neural-network functions: activations, dropout, convolution, normalisation (pooling, padding,
resizing and losses come from ``_pool`` and ``_loss``).

Image tensors use MindSpore's NCHW layout and Conv2d weights ``(out, in / groups, kh, kw)``.
TensorFlow kernels run NCHW natively where the device supports it (GPUs, and CPUs with
oneDNN); elsewhere the ops transpose to NHWC and back.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.relu(Tensor(np.array([-1.0, 2.0], np.float32)))
    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  2.00000000e+00])
"""
from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function.kernel_dtype import float32_for_half, kernel_dtype
from tfspore._internal.layout import elementwise_through_nchw, gpu_visible, nchw_supported
from tfspore.ops.function._utils import norm_axis, pads4, positive_pair, tf_dtype, to_float, to_tf

__all__ = [
    "relu", "relu6", "sigmoid", "tanh", "gelu", "fast_gelu", "silu", "softmax", "log_softmax", "softmin",
    "hardswish", "hardsigmoid", "hardtanh", "leaky_relu", "elu", "selu", "celu", "softplus", "softsign", "mish",
    "logsigmoid", "prelu", "glu", "dropout", "dropout2d", "conv2d", "bias_add", "max_pool2d", "avg_pool2d",
    "adaptive_avg_pool2d", "adaptive_max_pool2d", "pad", "interpolate", "upsample", "cross_entropy", "nll_loss",
    "mse_loss", "l1_loss", "smooth_l1_loss", "binary_cross_entropy_with_logits", "binary_cross_entropy", "kl_div",
    "l2_normalize", "normalize", "batch_norm", "layer_norm", "cosine_embedding_loss", "softmax_cross_entropy",
    "sparse_softmax_cross_entropy", "sigmoid_cross_entropy", "l2_loss",
]


# ---------------------------------------------------------------------------- activations
def _act(op: str, fn, float_only: bool = True):
    def f(input: Any) -> Tensor:  # noqa: A002
        t = to_tf(input, op, "input")
        return _wrap(fn(to_float(t) if float_only else t))
    f.__name__ = f.__qualname__ = op
    f.__doc__ = (f"Element-wise ``{op}`` activation.\n\n    Args:\n        input: a Tensor.\n\n"
                 f"    Returns:\n        Tensor: the activation.\n")
    return f


def relu(input: Any, inplace: bool = False) -> Tensor:  # noqa: A002
    """Element-wise ``max(input, 0)`` (integer inputs keep their dtype)."""
    t = to_tf(input, "relu", "input")
    return _wrap(elementwise_through_nchw(tf.nn.relu, t) if t.dtype != tf.bool else t)


relu6 = _act("relu6", tf.nn.relu6, False)
sigmoid = _act("sigmoid", tf.sigmoid)
tanh = _act("tanh", tf.tanh)
silu = _act("silu", lambda t: t * tf.sigmoid(t))
softsign = _act("softsign", tf.nn.softsign)
mish = _act("mish", lambda t: t * tf.tanh(tf.nn.softplus(t)))
logsigmoid = _act("logsigmoid", tf.math.log_sigmoid)
selu = _act("selu", tf.nn.selu)
hardswish = _act("hardswish", lambda t: t * tf.nn.relu6(t + 3) / 6, False)
hardsigmoid = _act("hardsigmoid", lambda t: tf.nn.relu6(t + 3) / 6, False)


def _gelu_tanh(t: tf.Tensor) -> tf.Tensor:
    c = tf.cast(math.sqrt(2.0 / math.pi), t.dtype)
    return 0.5 * t * (1.0 + tf.tanh(c * (t + tf.cast(0.044715, t.dtype) * t * t * t)))


def _gelu_erf(t: tf.Tensor) -> tf.Tensor:
    return 0.5 * t * (1.0 + tf.math.erf(t / tf.cast(math.sqrt(2.0), t.dtype)))


def gelu(input: Any, approximate: str = "none") -> Tensor:  # noqa: A002
    """Gaussian error linear unit: exact (erf) with ``approximate='none'``, tanh form with 'tanh'.

    Raises:
        ValueError: when ``approximate`` is not 'none' or 'tanh'.
    """
    V.check_string(approximate, ("none", "tanh"), "approximate", "gelu")
    t = to_float(to_tf(input, "gelu", "input"))
    return _wrap(float32_for_half(_gelu_erf if approximate == "none" else _gelu_tanh, t))


def _fast_gelu(t: tf.Tensor) -> tf.Tensor:
    a = tf.abs(t)
    return t / (1.0 + tf.exp(-1.702 * a)) * tf.exp(0.851 * (t - a))


def fast_gelu(x: Any) -> Tensor:
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, MindSpore's FastGeLU."""
    t = to_float(to_tf(x, "fast_gelu", "x"))
    return _wrap(float32_for_half(_fast_gelu, t))


def _softmax_axis(op: str, axis: Any, rank: int | None) -> Any:
    if isinstance(axis, (list, tuple)):
        ax = norm_axis(op, "axis", axis, rank)
        return ax[0] if len(ax) == 1 else list(ax)
    return V.check_axis(axis, "axis", op, rank)


def softmax(input: Any, axis: Any = -1, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Softmax along ``axis``.

    Args:
        input: a float tensor.
        axis: the axis (an int, or a tuple of one int).
        dtype: cast the input to this dtype first.

    Returns:
        Tensor: the probabilities.

    Raises:
        ValueError: when ``axis`` is out of range.
    """
    t = to_tf(input, "Softmax", "input")
    if dtype is not None:
        t = tf.cast(t, tf_dtype(dtype, "Softmax"))
    t = to_float(t)
    a = _softmax_axis("Softmax", axis, t.shape.rank)
    if isinstance(a, list):
        m = tf.reduce_max(t, a, keepdims=True)
        e = tf.exp(t - m)
        return _wrap(e / tf.reduce_sum(e, a, keepdims=True))
    return _wrap(tf.nn.softmax(t, axis=a))


def log_softmax(logits: Any, axis: int = -1) -> Tensor:
    """Log-softmax along ``axis``."""
    t = to_float(to_tf(logits, "LogSoftmax", "logits"))
    a = _softmax_axis("LogSoftmax", axis, t.shape.rank)
    return _wrap(float32_for_half(lambda v: tf.nn.log_softmax(v, axis=a), t))


def softmin(x: Any, axis: int = -1, *, dtype: Any = None) -> Tensor:
    """Softmax of ``-x``."""
    t = to_float(to_tf(x, "softmin", "x"))
    return softmax(Tensor._from_tf(-t), axis, dtype=dtype)


def hardtanh(input: Any, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    """Clamp to ``[min_val, max_val]``."""
    t = to_tf(input, "hardtanh", "input")
    return _wrap(tf.clip_by_value(t, tf.cast(min_val, t.dtype), tf.cast(max_val, t.dtype)))


def leaky_relu(input: Any, alpha: float = 0.2) -> Tensor:  # noqa: A002
    """``max(input, 0) + alpha * min(input, 0)``."""
    t = to_float(to_tf(input, "leaky_relu", "input"))
    return _wrap(tf.where(t >= 0, t, t * tf.cast(alpha, t.dtype)))


def elu(input_x: Any, alpha: float = 1.0) -> Tensor:
    """Exponential linear unit with scale ``alpha``."""
    t = to_float(to_tf(input_x, "elu", "input_x"))
    return _wrap(tf.where(t > 0, t, tf.cast(alpha, t.dtype) * tf.math.expm1(t)))


def celu(x: Any, alpha: float = 1.0) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    t = to_float(to_tf(x, "celu", "x"))
    a = tf.cast(alpha, t.dtype)
    return _wrap(tf.maximum(t, 0) + tf.minimum(tf.zeros_like(t), a * tf.math.expm1(t / a)))


def softplus(input: Any, beta: float = 1, threshold: float = 20) -> Tensor:  # noqa: A002
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``."""
    t = to_float(to_tf(input, "softplus", "input"))

    def fn(v: tf.Tensor) -> tf.Tensor:
        bx = v * tf.cast(beta, v.dtype)
        return tf.where(bx > threshold, v, tf.nn.softplus(bx) / tf.cast(beta, v.dtype))

    return _wrap(float32_for_half(fn, t))


def prelu(x: Any, weight: Any) -> Tensor:
    """Parametric ReLU with one slope per channel (dimension 1) or a single slope."""
    t = to_float(to_tf(x, "prelu", "x"))
    w = to_tf(weight, "prelu", "weight", t.dtype)
    if t.shape.rank is not None and t.shape.rank >= 2 and w.shape.rank == 1:
        w = tf.reshape(w, [1, -1] + [1] * (t.shape.rank - 2))
    return _wrap(tf.where(t >= 0, t, t * w))


def glu(x: Any, axis: int = -1) -> Tensor:
    """Gated linear unit: ``a * sigmoid(b)`` with ``a, b`` the halves of ``x`` along ``axis``."""
    t = to_float(to_tf(x, "glu", "x"))
    a, b = tf.split(t, 2, axis=axis)
    return _wrap(a * tf.sigmoid(b))


# ---------------------------------------------------------------------------- dropout
def _dropout_mask(t: tf.Tensor, keep: float, seed: int | None, noise_shape: Any = None) -> tf.Tensor:
    shp = tf.shape(t) if noise_shape is None else noise_shape
    u = tf.random.uniform(shp, 0.0, 1.0, dtype=tf.float32, seed=seed)
    return tf.cast(u < keep, t.dtype)


def dropout(input: Any, p: float = 0.5, training: bool = True, seed: int | None = None) -> Tensor:  # noqa: A002
    """Zero elements with probability ``p`` and scale the rest by ``1 / (1 - p)`` when ``training``.

    Args:
        input: a float tensor.
        p: the drop probability, in [0, 1].
        training: apply dropout when True, return ``input`` unchanged otherwise.
        seed: an op-level seed (the global seed of ``set_seed`` applies as well).

    Returns:
        Tensor: the result.

    Raises:
        ValueError: when ``p`` is outside [0, 1].
    """
    V.check_float_range(p, "p", "dropout", 0.0, 1.0)
    t = to_tf(input, "dropout", "input")
    if not training or p == 0:
        return _wrap(t)
    if p == 1:
        return _wrap(tf.zeros_like(t))
    keep = 1.0 - float(p)
    return _wrap(t * _dropout_mask(t, keep, seed) / tf.cast(keep, t.dtype))


def dropout2d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:  # noqa: A002
    """Zero whole channels of an NCHW tensor with probability ``p``."""
    V.check_float_range(p, "p", "dropout2d", 0.0, 1.0)
    t = to_tf(input, "dropout2d", "input")
    if not training or p == 0:
        return _wrap(t)
    keep = 1.0 - float(p)
    shp = tf.concat([tf.shape(t)[:2], tf.ones([tf.rank(t) - 2], tf.int32)], 0)
    mask = _dropout_mask(t, keep, None, shp)
    return _wrap(t * mask / tf.cast(keep, t.dtype) if keep > 0 else tf.zeros_like(t))


# ---------------------------------------------------------------------------- convolution
def _conv_core(op: str, x: tf.Tensor, w: tf.Tensor, stride: tuple, dilation: tuple, pad_mode: str,
               pads: tuple, groups: int) -> tf.Tensor:
    """NCHW convolution with weight (out, in / groups, kh, kw)."""
    if x.shape.rank != 4:
        raise ValueError(f"For '{op}', the input must be a 4-D NCHW tensor, but got shape {tuple(x.shape.as_list())}.")
    if w.shape.rank != 4:
        raise ValueError(f"For '{op}', the 'weight' must be a 4-D tensor (out, in, kh, kw), but got shape "
                         f"{tuple(w.shape.as_list())}.")
    cin, wcin = x.shape[1], w.shape[1]
    if cin is not None and wcin is not None and cin != wcin * groups:
        raise ValueError(f"For '{op}', the input channels {cin} must equal weight in-channels {wcin} times 'group' "
                         f"{groups}, but got x shape {tuple(x.shape.as_list())} and weight shape "
                         f"{tuple(w.shape.as_list())}.")
    if w.dtype != x.dtype:
        w = tf.cast(w, x.dtype)
    low = x.dtype
    cdt = kernel_dtype(low)  # float16 computes in float32 off GPU, as on MindSpore's CPU build
    if cdt != low:
        return tf.cast(_conv_core(op, tf.cast(x, cdt), tf.cast(w, cdt), stride, dilation, pad_mode, pads,
                                  groups), low)
    filt = tf.transpose(w, [2, 3, 1, 0])
    t, b, l, r = pads
    padding: Any = "SAME" if pad_mode == "same" else "VALID"
    explicit = pad_mode == "pad" and any(pads)
    if nchw_supported("conv"):
        if explicit and gpu_visible():
            padding = [[0, 0], [0, 0], [t, b], [l, r]]
        elif explicit:  # CPU kernels take explicit padding only in NHWC: pad first, then VALID
            x = tf.pad(x, [[0, 0], [0, 0], [t, b], [l, r]])
        return tf.nn.conv2d(x, filt, [1, 1, stride[0], stride[1]], padding, data_format="NCHW",
                            dilations=[1, 1, dilation[0], dilation[1]])
    if explicit:
        padding = [[0, 0], [t, b], [l, r], [0, 0]]
    y = tf.nn.conv2d(tf.transpose(x, [0, 2, 3, 1]), filt, [1, stride[0], stride[1], 1], padding,
                     dilations=[1, dilation[0], dilation[1], 1])
    return tf.transpose(y, [0, 3, 1, 2])


def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid",  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """2-D convolution of an NCHW tensor with weight ``(out, in / groups, kh, kw)``.

    Args:
        input: ``(N, C_in, H, W)``.
        weight: ``(C_out, C_in / groups, kh, kw)``.
        bias: ``(C_out,)`` or None.
        stride: an int or a tuple of 2 ints.
        pad_mode: 'valid', 'same' or 'pad'.
        padding: with 'pad': an int, a tuple of 2 ints (h, w) or of 4 (top, bottom, left, right).
        dilation: an int or a tuple of 2 ints.
        groups: the number of groups.

    Returns:
        Tensor: ``(N, C_out, H_out, W_out)``.

    Raises:
        ValueError: for inconsistent shapes or padding.
    """
    x = to_tf(input, "conv2d", "input")
    w = to_tf(weight, "conv2d", "weight")
    pad_mode = V.check_string(pad_mode, ("valid", "same", "pad"), "pad_mode", "conv2d", lower=True)
    st = positive_pair("conv2d", "stride", stride, False)
    dl = positive_pair("conv2d", "dilation", dilation, False)
    V.check_positive_int(groups, "groups", "conv2d")
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        pads = (padding[0], padding[0], padding[1], padding[1])
    else:
        pads = pads4("conv2d", padding)
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': {pads} "
                         f"and 'pad_mode': {pad_mode}.")
    out = _conv_core("conv2d", x, w, st, dl, pad_mode, pads, groups)
    if bias is not None:
        out = _bias_add(out, to_tf(bias, "conv2d", "bias", out.dtype), "NCHW")
    return _wrap(out)


def _bias_add(x: tf.Tensor, b: tf.Tensor, data_format: str) -> tf.Tensor:
    r = x.shape.rank
    if data_format == "NHWC" or r == 2:
        return x + b
    return x + tf.reshape(b, [1, -1] + [1] * (r - 2))


def bias_add(input_x: Any, bias: Any, data_format: str = "NCHW") -> Tensor:
    """Add the 1-D ``bias`` along the channel dimension (1 for NCHW / NCDHW, last for NHWC)."""
    V.check_string(data_format, ("NCHW", "NHWC", "NCDHW"), "data_format", "BiasAdd")
    x = to_tf(input_x, "BiasAdd", "input_x")
    b = to_tf(bias, "BiasAdd", "bias", x.dtype)
    if b.shape.rank != 1:
        raise ValueError(f"For 'BiasAdd', the 'bias' must be 1-D, but got shape {tuple(b.shape.as_list())}.")
    if x.shape.rank is not None and x.shape.rank < 2:
        raise ValueError(f"For 'BiasAdd', the rank of 'input_x' must be at least 2, but got {x.shape.rank}.")
    c = x.shape[-1] if data_format == "NHWC" else x.shape[1]
    if c is not None and b.shape[0] is not None and c != b.shape[0]:
        raise ValueError(f"For 'BiasAdd', the 'bias' length {b.shape[0]} must equal the channel dimension {c} of "
                         f"'input_x'.")
    return _wrap(_bias_add(x, b, data_format))


# ---------------------------------------------------------------------------- normalisation
def l2_normalize(x: Any, axis: Any = 0, epsilon: float = 1e-4) -> Tensor:
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``, MindSpore's L2Normalize."""
    t = to_float(to_tf(x, "L2Normalize", "x"))
    ax = norm_axis("L2Normalize", "axis", axis, t.shape.rank)
    ss = tf.reduce_sum(tf.square(t), axis=list(ax), keepdims=True)
    return _wrap(t / tf.sqrt(tf.maximum(ss, tf.cast(epsilon, t.dtype))))


def normalize(input: Any, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:  # noqa: A002
    """``input / max(||input||_p, eps)`` along ``dim``."""
    t = to_float(to_tf(input, "normalize", "input"))
    n = tf.pow(tf.reduce_sum(tf.pow(tf.abs(t), p), axis=dim, keepdims=True), 1.0 / p)
    return _wrap(t / tf.maximum(n, tf.cast(eps, t.dtype)))


def batch_norm(input_x: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Batch normalisation over dimension 1 of an ``(N, C, ...)`` tensor.

    In training, normalises with the batch statistics and updates the ``running_mean`` /
    ``running_var`` Parameters in place: ``running = (1 - momentum) * running + momentum * batch``
    (the unbiased batch variance for ``running_var``).

    Returns:
        Tensor: the normalised tensor.
    """
    x = to_tf(input_x, "batch_norm", "input_x")
    c_shape = [1, -1] + [1] * (x.shape.rank - 2)
    axes = [0] + list(range(2, x.shape.rank))
    xf = tf.cast(x, tf.float32) if x.dtype in (tf.float16, tf.bfloat16) else x
    g = tf.reshape(to_tf(weight, "batch_norm", "weight", xf.dtype), c_shape)
    b = tf.reshape(to_tf(bias, "batch_norm", "bias", xf.dtype), c_shape)
    if training:
        mean, var = tf.nn.moments(xf, axes)
        n = tf.cast(tf.reduce_prod(tf.gather(tf.shape(xf), axes)), xf.dtype)
        unbiased = var * n / tf.maximum(n - 1, 1)
        _update_running(running_mean, mean, momentum)
        _update_running(running_var, unbiased, momentum)
    else:
        mean = to_tf(running_mean, "batch_norm", "running_mean", xf.dtype)
        var = to_tf(running_var, "batch_norm", "running_var", xf.dtype)
    y = (xf - tf.reshape(mean, c_shape)) * tf.math.rsqrt(tf.reshape(var, c_shape) + eps) * g + b
    return _wrap(tf.cast(y, x.dtype))


def _update_running(p: Any, batch: tf.Tensor, momentum: float) -> None:
    from tfspore.common.parameter import Parameter
    if isinstance(p, Parameter):
        v = p._var
        v.assign(tf.cast((1.0 - momentum) * tf.cast(v, batch.dtype) + momentum * batch, v.dtype))
    elif isinstance(p, Tensor):
        cur = p._value()
        p._t = tf.cast((1.0 - momentum) * tf.cast(cur, batch.dtype) + momentum * batch, cur.dtype)


def layer_norm(input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None,  # noqa: A002
               eps: float = 1e-5) -> Tensor:
    """Layer normalisation over the trailing ``normalized_shape`` dimensions."""
    t = to_tf(input, "layer_norm", "input")
    ns = V.check_int_tuple(normalized_shape, "normalized_shape", "layer_norm")
    axes = list(range(t.shape.rank - len(ns), t.shape.rank))
    y = _layer_norm_core(t, axes, weight, bias, eps)[0]
    return _wrap(y)


def _layer_norm_core(t: tf.Tensor, axes: list, weight: Any, bias: Any, eps: float) -> tuple:
    xf = tf.cast(t, tf.float32) if t.dtype in (tf.float16, tf.bfloat16) else to_float(t)
    mean, var = tf.nn.moments(xf, axes, keepdims=True)
    rstd = tf.math.rsqrt(var + tf.cast(eps, xf.dtype))
    y = (xf - mean) * rstd
    if weight is not None:
        y = y * to_tf(weight, "layer_norm", "weight", xf.dtype)
    if bias is not None:
        y = y + to_tf(bias, "layer_norm", "bias", xf.dtype)
    return tf.cast(y, t.dtype) if t.dtype != xf.dtype else y, mean, var, rstd


from tfspore.ops.function._pool import *  # noqa: E402,F401,F403
from tfspore.ops.function._loss import *  # noqa: E402,F401,F403

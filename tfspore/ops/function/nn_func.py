"""Neural-network functions: activations, convolution, pooling, padding, resizing, losses, dropout.

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
import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common.tensor import Tensor, _wrap
from tfspore.ops.function import _checks as V
from tfspore.ops.function._layout import gpu_visible, nchw_supported
from tfspore.ops.function._utils import binary, norm_axis, tf_dtype, to_float, to_tf

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
    return _wrap(tf.nn.relu(t) if t.dtype != tf.bool else t)


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
    V.check_string("gelu", "approximate", approximate, ("none", "tanh"))
    t = to_float(to_tf(input, "gelu", "input"))
    return _wrap(_gelu_erf(t) if approximate == "none" else _gelu_tanh(t))


def fast_gelu(x: Any) -> Tensor:
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, MindSpore's FastGeLU."""
    t = to_float(to_tf(x, "fast_gelu", "x"))
    a = tf.abs(t)
    return _wrap(t / (1.0 + tf.exp(-1.702 * a)) * tf.exp(0.851 * (t - a)))


def _softmax_axis(op: str, axis: Any, rank: int | None) -> Any:
    if isinstance(axis, (list, tuple)):
        ax = norm_axis(op, "axis", axis, rank)
        return ax[0] if len(ax) == 1 else list(ax)
    return V.check_axis(op, "axis", axis, rank)


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
    return _wrap(tf.nn.log_softmax(t, axis=a))


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
    bx = t * tf.cast(beta, t.dtype)
    return _wrap(tf.where(bx > threshold, t, tf.nn.softplus(bx) / tf.cast(beta, t.dtype)))


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
    V.check_float_range("dropout", "p", p, 0.0, 1.0)
    t = to_tf(input, "dropout", "input")
    if not training or p == 0:
        return _wrap(t)
    if p == 1:
        return _wrap(tf.zeros_like(t))
    keep = 1.0 - float(p)
    return _wrap(t * _dropout_mask(t, keep, seed) / tf.cast(keep, t.dtype))


def dropout2d(input: Any, p: float = 0.5, training: bool = True) -> Tensor:  # noqa: A002
    """Zero whole channels of an NCHW tensor with probability ``p``."""
    V.check_float_range("dropout2d", "p", p, 0.0, 1.0)
    t = to_tf(input, "dropout2d", "input")
    if not training or p == 0:
        return _wrap(t)
    keep = 1.0 - float(p)
    shp = tf.concat([tf.shape(t)[:2], tf.ones([tf.rank(t) - 2], tf.int32)], 0)
    mask = _dropout_mask(t, keep, None, shp)
    return _wrap(t * mask / tf.cast(keep, t.dtype) if keep > 0 else tf.zeros_like(t))


# ---------------------------------------------------------------------------- convolution
def _pair(op: str, arg: str, v: Any, allow4: bool = True) -> tuple[int, int]:
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        return int(v), int(v)
    vals = V.check_int_tuple(op, arg, v)
    if len(vals) == 2:
        return vals
    if len(vals) == 4 and allow4:
        return vals[2], vals[3]
    raise ValueError(f"For '{op}', the '{arg}' must be an int or a tuple of 2{' or 4' if allow4 else ''} ints, but "
                     f"got {v!r}.")


def _positive_pair(op: str, arg: str, v: Any, allow4: bool = True) -> tuple[int, int]:
    p = _pair(op, arg, v, allow4)
    if p[0] <= 0 or p[1] <= 0:
        raise ValueError(f"For '{op}', the '{arg}' must be positive, but got {v!r}.")
    return p


def _pads4(op: str, pad: Any) -> tuple[int, int, int, int]:
    if isinstance(pad, numbers.Integral) and not isinstance(pad, bool):
        vals = (int(pad),) * 4
    else:
        vals = V.check_int_tuple(op, "pad", pad)
        if len(vals) != 4:
            raise ValueError(f"For '{op}', the 'pad' must be an int or a tuple of 4 ints, but got {pad!r}.")
    if min(vals) < 0:
        raise ValueError(f"For '{op}', the 'pad' must be non-negative, but got {pad!r}.")
    return vals


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
    pad_mode = V.check_string("conv2d", "pad_mode", pad_mode, ("valid", "same", "pad"), lower=True)
    st = _positive_pair("conv2d", "stride", stride, False)
    dl = _positive_pair("conv2d", "dilation", dilation, False)
    V.check_positive_int("conv2d", "groups", groups)
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        pads = (padding[0], padding[0], padding[1], padding[1])
    else:
        pads = _pads4("conv2d", padding)
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
    V.check_string("BiasAdd", "data_format", data_format, ("NCHW", "NHWC", "NCDHW"))
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


# ---------------------------------------------------------------------------- pooling
def _pool_nchw(kind: str, x: tf.Tensor, ksize: tuple, strides: tuple, padding: str) -> tf.Tensor:
    fn = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
    if nchw_supported(kind + "pool"):
        return fn(x, list(ksize), list(strides), padding, data_format="NCHW")
    y = fn(tf.transpose(x, [0, 2, 3, 1]), list(ksize), list(strides), padding)
    return tf.transpose(y, [0, 3, 1, 2])


def _pool_out(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    eff = d * (k - 1) + 1
    num = n + 2 * p - eff
    out = (-(-num // s) if ceil_mode else num // s) + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _lowest(dt: tf.DType) -> Any:
    return -np.inf if dt.is_floating else dt.min


def _check_4d(op: str, x: tf.Tensor) -> tuple[int, int]:
    if x.shape.rank not in (3, 4):
        raise ValueError(f"For '{op}', the input must be a 3-D or 4-D tensor, but got shape "
                         f"{tuple(x.shape.as_list()) if x.shape.rank is not None else None}.")
    h, w = x.shape[-2], x.shape[-1]
    if h is None or w is None:
        raise ValueError(f"For '{op}', the spatial dimensions must be static, but got shape "
                         f"{tuple(x.shape.as_list())}.")
    return h, w


def max_pool2d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               return_indices: bool = False, ceil_mode: bool = False) -> Any:
    """2-D max pooling of an NCHW (or CHW) tensor, with PyTorch-style padding, dilation and ceil mode.

    Args:
        x: ``(N, C, H, W)`` or ``(C, H, W)``.
        kernel_size: an int or a tuple of 2 ints.
        stride: an int or a tuple of 2 ints; None means ``kernel_size``.
        padding: an int or a tuple of 2 ints (implicit -inf padding on both sides).
        dilation: an int or a tuple of 2 ints.
        return_indices: also return the int64 argmax positions within each ``H * W`` plane.
        ceil_mode: round the output size up.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_indices``.
    """
    t = to_tf(x, "max_pool2d", "x")
    squeeze = t.shape.rank == 3
    h, w = _check_4d("max_pool2d", t)
    if squeeze:
        t = t[None]
    k = _positive_pair("max_pool2d", "kernel_size", kernel_size, False)
    s = k if stride is None else _positive_pair("max_pool2d", "stride", stride, False)
    p = _pair("max_pool2d", "padding", padding, False)
    d = _positive_pair("max_pool2d", "dilation", dilation, False)
    if p[0] > k[0] // 2 or p[1] > k[1] // 2 or min(p) < 0:
        raise ValueError(f"For 'max_pool2d', the 'padding' must be non-negative and at most half of 'kernel_size', "
                         f"but got padding={padding!r}, kernel_size={kernel_size!r}.")
    oh, ow = (_pool_out(h, k[0], s[0], p[0], d[0], ceil_mode), _pool_out(w, k[1], s[1], p[1], d[1], ceil_mode))
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For 'max_pool2d', the output size ({oh}, {ow}) must be positive; the input ({h}, {w}) is "
                         f"too small for kernel_size={kernel_size!r}.")
    need_h = (oh - 1) * s[0] + d[0] * (k[0] - 1) + 1
    need_w = (ow - 1) * s[1] + d[1] * (k[1] - 1) + 1
    ph = (p[0], max(need_h - h - p[0], 0))
    pw = (p[1], max(need_w - w - p[1], 0))
    low = _lowest(t.dtype)
    tp = tf.pad(t, [[0, 0], [0, 0], list(ph), list(pw)], constant_values=low) if any(ph + pw) else t
    if d == (1, 1) and not return_indices:
        out = _pool_nchw("max", tp, k, s, "VALID")
        out = out[:, :, :oh, :ow]
        return _wrap(out[0] if squeeze else out)
    nhwc = tf.transpose(tp, [0, 2, 3, 1])
    patches = tf.image.extract_patches(nhwc, [1, k[0], k[1], 1], [1, s[0], s[1], 1], [1, d[0], d[1], 1], "VALID")
    n_, c_ = tf.shape(nhwc)[0], tf.shape(nhwc)[3]
    patches = tf.reshape(patches, tf.stack([n_, tf.shape(patches)[1], tf.shape(patches)[2], k[0] * k[1], c_]))
    patches = patches[:, :oh, :ow]
    out = tf.transpose(tf.reduce_max(patches, axis=3), [0, 3, 1, 2])
    if not return_indices:
        return _wrap(out[0] if squeeze else out)
    arg = tf.argmax(patches, axis=3, output_type=tf.int64)  # (n, oh, ow, c), position within the window
    ki, kj = arg // k[1], arg % k[1]
    oi = tf.range(oh, dtype=tf.int64)[None, :, None, None]
    oj = tf.range(ow, dtype=tf.int64)[None, None, :, None]
    row = oi * s[0] + ki * d[0] - p[0]
    col = oj * s[1] + kj * d[1] - p[1]
    idx = tf.transpose(row * w + col, [0, 3, 1, 2])
    if squeeze:
        out, idx = out[0], idx[0]
    return _wrap(out), _wrap(idx)


def _avg_divisors(n: int, k: int, s: int, p: int, out: int, count_include_pad: bool) -> np.ndarray:
    res = []
    for o in range(out):
        start = o * s - p
        end = min(start + k, n + p)
        size = end - start
        start, end = max(start, 0), min(end, n)
        res.append(size if count_include_pad else end - start)
    return np.asarray(res, np.float64)


def avg_pool2d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> Tensor:
    """2-D average pooling of an NCHW (or CHW) tensor with PyTorch-style padding and divisors.

    Args:
        input_x: ``(N, C, H, W)`` or ``(C, H, W)``.
        kernel_size: an int or a tuple of 2 ints.
        stride: an int or a tuple of 2 ints.
        padding: an int or a tuple of 2 or 4 ints (zero padding).
        ceil_mode: round the output size up.
        count_include_pad: count padded zeros in the divisor.
        divisor_override: a fixed divisor when non-zero.

    Returns:
        Tensor: the pooled tensor.
    """
    t = to_tf(input_x, "avg_pool2d", "input_x")
    squeeze = t.shape.rank == 3
    h, w = _check_4d("avg_pool2d", t)
    if squeeze:
        t = t[None]
    k = _positive_pair("avg_pool2d", "kernel_size", kernel_size, False)
    s = _positive_pair("avg_pool2d", "stride", stride, False)
    if isinstance(padding, (tuple, list)) and len(padding) == 4:
        if padding[0] != padding[1] or padding[2] != padding[3]:
            raise ValueError(f"For 'avg_pool2d', asymmetric 'padding' is not supported, but got {padding!r}.")
        p = (int(padding[0]), int(padding[2]))
    else:
        p = _pair("avg_pool2d", "padding", padding, False)
    V.check_int("avg_pool2d", "divisor_override", divisor_override)
    oh = _pool_out(h, k[0], s[0], p[0], 1, ceil_mode)
    ow = _pool_out(w, k[1], s[1], p[1], 1, ceil_mode)
    need_h, need_w = (oh - 1) * s[0] + k[0], (ow - 1) * s[1] + k[1]
    ph = (p[0], max(need_h - h - p[0], 0))
    pw = (p[1], max(need_w - w - p[1], 0))
    xt = to_float(t)
    tp = tf.pad(xt, [[0, 0], [0, 0], list(ph), list(pw)]) if any(ph + pw) else xt
    sums = _pool_nchw("avg", tp, k, s, "VALID")[:, :, :oh, :ow] * float(k[0] * k[1])
    if divisor_override:
        return _wrap(sums / tf.cast(divisor_override, sums.dtype) if not squeeze else sums[0] / divisor_override)
    dh = _avg_divisors(h, k[0], s[0], p[0], oh, count_include_pad)
    dw = _avg_divisors(w, k[1], s[1], p[1], ow, count_include_pad)
    div = tf.constant(np.outer(dh, dw), sums.dtype)
    out = sums / div
    return _wrap(out[0] if squeeze else out)


def _adaptive_bins(n: int, out: int) -> list[tuple[int, int]]:
    return [((i * n) // out, -(-((i + 1) * n) // out)) for i in range(out)]


def _out_size2(op: str, output_size: Any, h: int, w: int) -> tuple[int, int]:
    if isinstance(output_size, numbers.Integral):
        return int(output_size), int(output_size)
    if isinstance(output_size, (list, tuple)) and len(output_size) == 2:
        return (h if output_size[0] is None else int(output_size[0]), w if output_size[1] is None else
                int(output_size[1]))
    raise ValueError(f"For '{op}', the 'output_size' must be an int or a tuple of 2 ints, but got {output_size!r}.")


def _area_matrix(n: int, out: int) -> np.ndarray:
    m = np.zeros((out, n), np.float64)
    for i, (a, b) in enumerate(_adaptive_bins(n, out)):
        m[i, a:b] = 1.0 / (b - a)
    return m


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """Adaptive average pooling of an NCHW (or CHW) tensor to ``output_size``."""
    t = to_float(to_tf(input, "adaptive_avg_pool2d", "input"))
    h, w = _check_4d("adaptive_avg_pool2d", t)
    oh, ow = _out_size2("adaptive_avg_pool2d", output_size, h, w)
    if (oh, ow) == (1, 1):
        return _wrap(tf.reduce_mean(t, axis=[-2, -1], keepdims=True))
    mh = tf.constant(_area_matrix(h, oh), t.dtype)
    mw = tf.constant(_area_matrix(w, ow), t.dtype)
    return _wrap(tf.einsum("oh,...hw,pw->...op", mh, t, mw))


def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:  # noqa: A002
    """Adaptive max pooling of an NCHW (or CHW) tensor to ``output_size``."""
    t = to_tf(input, "adaptive_max_pool2d", "input")
    h, w = _check_4d("adaptive_max_pool2d", t)
    oh, ow = _out_size2("adaptive_max_pool2d", output_size, h, w)
    rows = []
    for a, b in _adaptive_bins(h, oh):
        cols = [tf.reduce_max(t[..., a:b, c:d], axis=[-2, -1]) for c, d in _adaptive_bins(w, ow)]
        rows.append(tf.stack(cols, -1))
    out = tf.stack(rows, -2)
    if return_indices:
        raise ValueError("For 'adaptive_max_pool2d', 'return_indices=True' is not supported.")
    return _wrap(out)


# ---------------------------------------------------------------------------- padding
def _edge_index(n: Any, lo: int, hi: int, mode: str) -> tf.Tensor:
    idx = tf.range(-lo, n + hi)
    if mode == "replicate":
        return tf.clip_by_value(idx, 0, n - 1)
    if mode == "circular":
        return tf.math.floormod(idx, n)
    # reflect (edge not repeated)
    period = 2 * (n - 1)
    m = tf.math.floormod(idx, tf.maximum(period, 1))
    return tf.where(m >= n, period - m, m)


def pad(input_x: Any, padding: Any, mode: str = "constant", value: Any = None) -> Tensor:
    """Pad the last ``len(padding) // 2`` dimensions, last dimension first (PyTorch order).

    Args:
        input_x: the tensor.
        padding: ``(left_last, right_last, left_second_last, ...)``; negative values crop.
        mode: 'constant', 'reflect', 'replicate' or 'circular'.
        value: the fill value of 'constant' mode (0 by default).

    Returns:
        Tensor: the padded tensor.

    Raises:
        ValueError: for an odd-length or too long ``padding`` or an unknown ``mode``.
    """
    t = to_tf(input_x, "pad", "input_x")
    if isinstance(padding, Tensor):
        padding = tuple(padding.asnumpy().tolist())
    pads = V.check_int_tuple("pad", "padding", padding, allow_int=False)
    mode = V.check_string("pad", "mode", mode, ("constant", "reflect", "replicate", "circular"))
    r = t.shape.rank
    if len(pads) % 2 or len(pads) // 2 > r:
        raise ValueError(f"For 'pad', the length of 'padding' must be even and at most 2 * rank ({2 * r}), but got "
                         f"{padding!r}.")
    if value is not None and mode != "constant":
        raise ValueError(f"For 'pad', the 'value' can only be set in 'constant' mode, but got mode '{mode}'.")
    n_pad = len(pads) // 2
    spec = [[0, 0] for _ in range(r)]
    for i in range(n_pad):
        spec[r - 1 - i] = [pads[2 * i], pads[2 * i + 1]]
    # negative padding crops
    begin = [-min(lo, 0) for lo, _ in spec]
    size = [-1] * r
    if any(lo < 0 or hi < 0 for lo, hi in spec):
        shp = tf.shape(t)
        size = [shp[d] - begin[d] + min(spec[d][1], 0) for d in range(r)]
        t = tf.slice(t, begin, tf.stack(size))
        spec = [[max(lo, 0), max(hi, 0)] for lo, hi in spec]
    if mode == "constant":
        cv = 0 if value is None else value
        return _wrap(tf.pad(t, spec, constant_values=tf.cast(cv, t.dtype)))
    if mode == "reflect":
        for d in range(r):
            n = t.shape[d]
            if n is not None and (spec[d][0] >= n or spec[d][1] >= n):
                raise ValueError(f"For 'pad', the 'reflect' padding ({spec[d][0]}, {spec[d][1]}) must be less than "
                                 f"the input dimension {n}.")
        if all(lo < (t.shape[d] or 0) and hi < (t.shape[d] or 0) for d, (lo, hi) in enumerate(spec)):
            return _wrap(tf.pad(t, spec, mode="REFLECT"))
    for d in range(r):
        lo, hi = spec[d]
        if lo or hi:
            t = tf.gather(t, _edge_index(tf.shape(t)[d], lo, hi, mode), axis=d)
    return _wrap(t)


# ---------------------------------------------------------------------------- interpolate
def _linear_matrix(n: int, out: int, scale: float, align: bool) -> np.ndarray:
    """The (out, n) interpolation matrix of linear resizing (PyTorch's source-index rule)."""
    m = np.zeros((out, n), np.float64)
    for o in range(out):
        if align:
            src = o * (n - 1) / (out - 1) if out > 1 else 0.0
        else:
            src = max((o + 0.5) * scale - 0.5, 0.0)
        i0 = min(int(math.floor(src)), n - 1)
        i1 = min(i0 + 1, n - 1)
        lam = src - i0
        m[o, i0] += 1.0 - lam
        m[o, i1] += lam
    return m


def _nearest_index(n: int, out: int, scale: float, exact: bool) -> np.ndarray:
    o = np.arange(out, dtype=np.float64)
    src = np.floor((o + 0.5) * scale) if exact else np.floor(o * scale)
    return np.minimum(src, n - 1).astype(np.int32)


_INTERP_DIMS = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}


def interpolate(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",  # noqa: A002
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """Resize the spatial dimensions of an ``(N, C, *spatial)`` tensor, as PyTorch / MindSpore interpolate.

    Args:
        input: a 3-D, 4-D or 5-D tensor.
        size: the output spatial size (an int or a tuple).
        scale_factor: a float or a tuple of floats (when ``size`` is None).
        mode: 'nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic', 'trilinear' or 'area'.
        align_corners: align corner pixels (linear modes only).
        recompute_scale_factor: compute the scale from the output size instead of ``scale_factor``.

    Returns:
        Tensor: the resized tensor.

    Raises:
        ValueError: for inconsistent arguments.
    """
    op = "interpolate"
    t = to_tf(input, op, "input")
    mode = V.check_string(op, "mode", mode, ("nearest", "nearest-exact", "linear", "bilinear", "bicubic",
                                              "trilinear", "area"))
    r = t.shape.rank
    nsp = r - 2
    if r not in (3, 4, 5):
        raise ValueError(f"For '{op}', the input must be 3-D, 4-D or 5-D, but got rank {r}.")
    if mode in _INTERP_DIMS and _INTERP_DIMS[mode] != nsp:
        raise ValueError(f"For '{op}', mode '{mode}' needs a {_INTERP_DIMS[mode] + 2}-D input, but got a {r}-D input.")
    if align_corners and mode not in ("linear", "bilinear", "bicubic", "trilinear"):
        raise ValueError(f"For '{op}', 'align_corners' can only be set with linear, bilinear, bicubic or trilinear "
                         f"mode, but got mode '{mode}'.")
    in_sz = t.shape.as_list()[2:]
    if any(d is None for d in in_sz):
        raise ValueError(f"For '{op}', the spatial dimensions must be static, but got shape {tuple(t.shape.as_list())}.")
    if (size is None) == (scale_factor is None):
        raise ValueError(f"For '{op}', exactly one of 'size' and 'scale_factor' must be set, but got size={size!r}, "
                         f"scale_factor={scale_factor!r}.")
    if size is not None:
        out_sz = list(V.check_int_tuple(op, "size", size)) * (nsp if isinstance(size, numbers.Integral) else 1)
        if len(out_sz) != nsp:
            raise ValueError(f"For '{op}', the 'size' must have {nsp} elements, but got {size!r}.")
        scales = [i / o for i, o in zip(in_sz, out_sz)]
    else:
        sf = [float(scale_factor)] * nsp if isinstance(scale_factor, numbers.Number) else [float(v) for v in scale_factor]
        if len(sf) != nsp or min(sf) <= 0:
            raise ValueError(f"For '{op}', the 'scale_factor' must be positive with {nsp} elements, but got "
                             f"{scale_factor!r}.")
        out_sz = [int(math.floor(i * f)) for i, f in zip(in_sz, sf)]
        scales = [i / o for i, o in zip(in_sz, out_sz)] if recompute_scale_factor else [1.0 / f for f in sf]
    if min(out_sz) <= 0:
        raise ValueError(f"For '{op}', the output size must be positive, but got {tuple(out_sz)}.")
    if mode == "bicubic":
        # MindSpore's bicubic kernel is TensorFlow's (Keys cubic, a = -0.5)
        nhwc = tf.transpose(to_float(t), [0, 2, 3, 1])
        if align_corners:
            y = tf.compat.v1.image.resize_bicubic(nhwc, out_sz, align_corners=True)
        else:
            y = tf.image.resize(nhwc, out_sz, "bicubic")
        return _wrap(tf.cast(tf.transpose(y, [0, 3, 1, 2]), nhwc.dtype))
    y = t
    letters = "xyz"[:nsp]
    for d in range(nsp):
        n, o, sc = in_sz[d], out_sz[d], scales[d]
        axis = 2 + d
        if mode in ("nearest", "nearest-exact"):
            y = tf.gather(y, tf.constant(_nearest_index(n, o, sc, mode == "nearest-exact")), axis=axis)
            continue
        if mode == "area":
            mat = _area_matrix(n, o)
        else:
            mat = _linear_matrix(n, o, sc, bool(align_corners))
        y = to_float(y)
        src = "".join(letters)
        dst = src.replace(letters[d], "o")
        y = tf.einsum(f"o{letters[d]},nc{src}->nc{dst}", tf.constant(mat, y.dtype), y)
    return _wrap(y)


def upsample(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",  # noqa: A002
             align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> Tensor:
    """Alias of :func:`interpolate`."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


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
    ns = V.check_int_tuple("layer_norm", "normalized_shape", normalized_shape)
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


# ---------------------------------------------------------------------------- losses
def _reduce_loss(x: tf.Tensor, reduction: str) -> tf.Tensor:
    if reduction == "mean":
        return tf.reduce_mean(x)
    if reduction == "sum":
        return tf.reduce_sum(x)
    return x


def _weighted_reduce(x: tf.Tensor, reduction: str, weights: Any = None) -> tf.Tensor:
    dt = x.dtype
    xf = tf.cast(x, tf.float32)
    if weights is not None:
        xf = xf * tf.cast(weights, tf.float32)
    return tf.cast(_reduce_loss(xf, reduction), dt)


def mse_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Mean squared error ``(input - target) ** 2`` with 'mean', 'sum' or 'none' reduction."""
    V.check_reduction("mse_loss", reduction)
    a, b = binary("mse_loss", input, target)
    return _wrap(_weighted_reduce(tf.square(a - b), reduction))


def l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Mean absolute error ``|input - target|`` with 'mean', 'sum' or 'none' reduction."""
    V.check_reduction("l1_loss", reduction)
    a, b = binary("l1_loss", input, target)
    return _wrap(_weighted_reduce(tf.abs(a - b), reduction))


def smooth_l1_loss(input: Any, target: Any, beta: float = 1.0, reduction: str = "none") -> Tensor:  # noqa: A002
    """Smooth L1: ``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere."""
    V.check_reduction("smooth_l1_loss", reduction)
    if beta <= 0:
        raise ValueError(f"For 'smooth_l1_loss', the 'beta' must be positive, but got {beta}.")
    a, b = binary("smooth_l1_loss", input, target)
    d = tf.abs(a - b)
    bt = tf.cast(beta, d.dtype)
    loss = tf.where(d < bt, 0.5 * d * d / bt, d - 0.5 * bt)
    return _wrap(_weighted_reduce(loss, reduction))


def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None, pos_weight: Any = None,  # noqa: A002
                                     reduction: str = "mean") -> Tensor:
    """Sigmoid + binary cross entropy, computed stably, with optional ``weight`` and ``pos_weight``."""
    V.check_reduction("binary_cross_entropy_with_logits", reduction)
    x = to_tf(input, "binary_cross_entropy_with_logits", "input")
    V.check_float_tensor("binary_cross_entropy_with_logits", "input", x.dtype)
    z = to_tf(target, "binary_cross_entropy_with_logits", "target", x.dtype)
    softplus_neg = tf.math.log1p(tf.exp(-tf.abs(x))) + tf.maximum(-x, 0)
    if pos_weight is not None:
        pw = to_tf(pos_weight, "binary_cross_entropy_with_logits", "pos_weight", x.dtype)
        lw = (pw - 1) * z + 1
        loss = (1 - z) * x + lw * softplus_neg
    else:
        loss = (1 - z) * x + softplus_neg
    if weight is not None:
        loss = loss * to_tf(weight, "binary_cross_entropy_with_logits", "weight", x.dtype)
    return _wrap(_reduce_loss(loss, reduction))


def binary_cross_entropy(input: Any, target: Any, weight: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Binary cross entropy of probabilities (logs clamped at ``log(1e-12)``)."""
    V.check_reduction("binary_cross_entropy", reduction)
    x = to_tf(input, "binary_cross_entropy", "input")
    V.check_float_tensor("binary_cross_entropy", "input", x.dtype)
    y = to_tf(target, "binary_cross_entropy", "target", x.dtype)
    eps = tf.cast(1e-12, x.dtype)
    loss = -(y * tf.math.log(tf.maximum(x, eps)) + (1 - y) * tf.math.log(tf.maximum(1 - x, eps)))
    if weight is not None:
        loss = loss * to_tf(weight, "binary_cross_entropy", "weight", x.dtype)
    return _wrap(_reduce_loss(loss, reduction))


def kl_div(logits: Any, labels: Any, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """KL divergence ``labels * (log(labels) - logits)`` ('mean', 'sum', 'none' or 'batchmean')."""
    V.check_string("kl_div", "reduction", reduction, ("none", "mean", "sum", "batchmean"))
    x = to_tf(logits, "kl_div", "logits")
    y = to_tf(labels, "kl_div", "labels", x.dtype)
    if log_target:
        loss = tf.exp(y) * (y - x)
    else:
        loss = tf.where(y > 0, y * (tf.math.log(tf.where(y > 0, y, tf.ones_like(y))) - x), -y * x * 0)
    if reduction == "batchmean":
        return _wrap(tf.reduce_sum(loss) / tf.cast(tf.shape(x)[0], x.dtype))
    return _wrap(_reduce_loss(loss, reduction))


def _nll_core(logp: tf.Tensor, target: tf.Tensor, weight: tf.Tensor | None, ignore_index: int | None,
              reduction: str, label_smoothing: float) -> tf.Tensor:
    """NLL over class dimension 1 (0 for 1-D input), MindSpore's formula (weighted mean divides by the weight sum)."""
    class_dim = 0 if logp.shape.rank == 1 else 1
    n_classes = tf.shape(logp)[class_dim]
    target = tf.cast(target, tf.int32)
    if ignore_index is not None:
        ignored = tf.equal(target, ignore_index)
        safe_t = tf.where(ignored, tf.zeros_like(target), target)
    else:
        ignored = None
        safe_t = target
    moved = logp if class_dim == logp.shape.rank - 1 else tf.experimental.numpy.moveaxis(logp, class_dim, -1)
    picked = tf.gather(moved, safe_t[..., None], batch_dims=safe_t.shape.rank)[..., 0]
    if weight is not None:
        w_t = tf.gather(weight, safe_t)
        loss = -picked * w_t
        smooth = -tf.reduce_sum(moved * weight, -1)
    else:
        w_t = tf.ones_like(picked)
        loss = -picked
        smooth = -tf.reduce_sum(moved, -1)
    if ignored is not None:
        zero = tf.zeros_like(loss)
        loss, w_t, smooth = tf.where(ignored, zero, loss), tf.where(ignored, zero, w_t), tf.where(ignored, zero, smooth)
    if reduction == "sum":
        loss, smooth = tf.reduce_sum(loss), tf.reduce_sum(smooth)
    elif reduction == "mean":
        denom = tf.reduce_sum(w_t)
        loss, smooth = tf.reduce_sum(loss) / denom, tf.reduce_sum(smooth) / denom
    if label_smoothing:
        eps_i = label_smoothing / tf.cast(n_classes, logp.dtype)
        loss = (1.0 - label_smoothing) * loss + eps_i * smooth
    return loss


def _check_ce_args(op: str, ignore_index: Any, reduction: Any, label_smoothing: Any) -> None:
    V.check_int(op, "ignore_index", ignore_index)
    V.check_reduction(op, reduction)
    V.check_float_range(op, "label_smoothing", label_smoothing, 0.0, 1.0)


def nll_loss(inputs: Any, target: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
             label_smoothing: float = 0.0) -> Tensor:
    """Negative log-likelihood of log-probabilities ``inputs`` (class dimension 1) at ``target`` indices.

    Args:
        inputs: ``(N, C)``, ``(C,)`` or ``(N, C, d1, ...)`` log-probabilities.
        target: class indices ``(N,)`` / ``()`` / ``(N, d1, ...)``.
        weight: per-class weights ``(C,)``.
        ignore_index: a target value that contributes nothing.
        reduction: 'mean' (divided by the sum of the weights), 'sum' or 'none'.
        label_smoothing: in [0, 1].

    Returns:
        Tensor: the loss.
    """
    _check_ce_args("nll_loss", ignore_index, reduction, label_smoothing)
    x = to_tf(inputs, "nll_loss", "inputs")
    V.check_float_tensor("nll_loss", "inputs", x.dtype)
    t = to_tf(target, "nll_loss", "target")
    w = None if weight is None else to_tf(weight, "nll_loss", "weight", x.dtype)
    return _wrap(_nll_core(x, t, w, ignore_index, reduction, label_smoothing))


def cross_entropy(input: Any, target: Any, weight: Any = None, ignore_index: int = -100,  # noqa: A002
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross entropy of logits ``input`` (class dimension 1) with class indices or class probabilities.

    Args:
        input: ``(N, C)``, ``(C,)`` or ``(N, C, d1, ...)`` logits (float).
        target: int class indices, or float probabilities shaped like ``input``.
        weight: per-class weights ``(C,)``.
        ignore_index: with class indices, a target value that contributes nothing.
        reduction: 'mean', 'sum' or 'none'.
        label_smoothing: in [0, 1].

    Returns:
        Tensor: the loss.

    Raises:
        TypeError: when ``input`` is not a float tensor.
    """
    _check_ce_args("cross_entropy", ignore_index, reduction, label_smoothing)
    x = to_tf(input, "cross_entropy", "input")
    if x.dtype not in (tf.float16, tf.float32, tf.float64):
        raise TypeError(f"For cross_entropy, the input dtype should be mstype.float64, mstype.float32 or "
                        f"mstype.float16, but got dtype:{_ms(x.dtype)}.")
    t = to_tf(target, "cross_entropy", "target")
    class_dim = 0 if x.shape.rank == 1 else 1
    logp = x - tf.reduce_logsumexp(x, axis=class_dim, keepdims=True)
    w = None if weight is None else to_tf(weight, "cross_entropy", "weight", x.dtype)
    if t.dtype.is_floating:
        t = tf.cast(t, x.dtype)
        n_classes = tf.cast(tf.shape(x)[class_dim], x.dtype)
        if label_smoothing > 0:
            t = t * (1 - label_smoothing) + label_smoothing / n_classes
        if w is not None and x.shape.rank != 1:
            w = tf.reshape(w, [1, -1] + [1] * (x.shape.rank - 2))
        prod = logp * t * (w if w is not None else 1.0)
        if reduction == "mean":
            return _wrap(-tf.reduce_sum(prod) / (tf.cast(tf.size(x), x.dtype) / n_classes))
        if reduction == "sum":
            return _wrap(-tf.reduce_sum(prod))
        return _wrap(-tf.reduce_sum(prod, class_dim))
    return _wrap(_nll_core(logp, t, w, ignore_index, reduction, label_smoothing))


def _ms(dt):
    from tfspore.common.dtype import from_tf_dtype
    return from_tf_dtype(dt)


def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos`` for target 1, ``max(0, cos - margin)`` for target -1."""
    V.check_reduction("cosine_embedding_loss", reduction)
    a, b = binary("cosine_embedding_loss", input1, input2)
    y = to_tf(target, "cosine_embedding_loss", "target", a.dtype)
    eps = tf.cast(1e-12, a.dtype)
    cos = tf.reduce_sum(a * b, -1) / tf.sqrt(tf.reduce_sum(a * a, -1) * tf.reduce_sum(b * b, -1) + eps)
    loss = tf.where(y > 0, 1 - cos, tf.maximum(tf.zeros_like(cos), cos - margin))
    return _wrap(_reduce_loss(loss, reduction))


def softmax_cross_entropy(logits: Any, labels: Any) -> tuple:
    """Per-sample cross entropy of logits with probability labels, and its gradient ``softmax - labels``."""
    x = to_tf(logits, "SoftmaxCrossEntropyWithLogits", "logits")
    V.check_float_tensor("SoftmaxCrossEntropyWithLogits", "logits", x.dtype)
    y = to_tf(labels, "SoftmaxCrossEntropyWithLogits", "labels", x.dtype)
    if not x.shape.is_compatible_with(y.shape):
        raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', the 'logits' and 'labels' must have the same shape, "
                         f"but got {tuple(x.shape.as_list())} and {tuple(y.shape.as_list())}.")
    loss = tf.nn.softmax_cross_entropy_with_logits(y, x, axis=-1)
    return _wrap(loss), _wrap(tf.nn.softmax(x, -1) - y)


def sparse_softmax_cross_entropy(logits: Any, labels: Any, is_grad: bool = False) -> Tensor:
    """Mean cross entropy of logits with int labels; with ``is_grad`` its gradient w.r.t. the logits."""
    x = to_tf(logits, "SparseSoftmaxCrossEntropyWithLogits", "logits")
    V.check_float_tensor("SparseSoftmaxCrossEntropyWithLogits", "logits", x.dtype)
    y = to_tf(labels, "SparseSoftmaxCrossEntropyWithLogits", "labels")
    if not y.dtype.is_integer:
        raise TypeError(f"For 'SparseSoftmaxCrossEntropyWithLogits', the 'labels' must be int32 or int64, but got "
                        f"{_ms(y.dtype)}.")
    if is_grad:
        n = tf.cast(tf.shape(x)[0], x.dtype)
        return _wrap((tf.nn.softmax(x, -1) - tf.one_hot(y, tf.shape(x)[-1], dtype=x.dtype)) / n)
    return _wrap(tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, x)))


def sigmoid_cross_entropy(logits: Any, labels: Any) -> Tensor:
    """Element-wise sigmoid cross entropy of logits (no reduction)."""
    x = to_tf(logits, "SigmoidCrossEntropyWithLogits", "logits")
    V.check_float_tensor("SigmoidCrossEntropyWithLogits", "logits", x.dtype)
    y = to_tf(labels, "SigmoidCrossEntropyWithLogits", "labels", x.dtype)
    return _wrap(tf.nn.sigmoid_cross_entropy_with_logits(y, x))


def l2_loss(x: Any) -> Tensor:
    """``sum(x ** 2) / 2``."""
    t = to_float(to_tf(x, "L2Loss", "input"))
    return _wrap(tf.reduce_sum(tf.square(t)) / 2)

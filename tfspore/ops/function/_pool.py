"""Pooling, padding and resizing of NCHW tensors (``ops.max_pool2d``, ``ops.pad``, ``ops.interpolate``).

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.max_pool2d(Tensor(np.ones((1, 1, 4, 4), np.float32)), 2).shape
    (1, 1, 2, 2)
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore._internal.layout import TO_NCHW, nchw_supported, to_nhwc
from tfspore._internal.pool_window import adaptive_bins, adaptive_output_size2, pooled_length
from tfspore.ops.function._utils import pair, positive_pair, to_float, to_tf

__all__ = [
    "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "adaptive_max_pool2d", "pad", "interpolate", "upsample",
]


# ---------------------------------------------------------------------------- pooling
def _pool_nchw(kind: str, x: tf.Tensor, ksize: tuple, strides: tuple, padding: str) -> tf.Tensor:
    fn = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
    if nchw_supported(kind + "pool", x.dtype):
        return fn(x, list(ksize), list(strides), padding, data_format="NCHW")
    y = fn(to_nhwc(x), list(ksize), list(strides), padding)
    return tf.transpose(y, TO_NCHW)


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


def _batched_nchw(op: str, x: Any, arg: str) -> tuple[tf.Tensor, bool, int, int]:
    """``x`` as a 4-D NCHW tensor, whether it was 3-D (CHW), and its static height and width."""
    t = to_tf(x, op, arg)
    squeeze = t.shape.rank == 3
    h, w = _check_4d(op, t)
    return (t[None] if squeeze else t), squeeze, h, w


def _pads(n: int, out: int, k: int, s: int, p: int, d: int = 1) -> tuple[int, int]:
    """The (start, end) padding of a length-``n`` axis: ``p`` before, and after it what the last of
    ``out`` windows needs beyond ``p`` (windows of ``k`` taps ``d`` apart, ``s`` apart)."""
    need = (out - 1) * s + d * (k - 1) + 1
    return p, max(need - n - p, 0)


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
    t, squeeze, h, w = _batched_nchw("max_pool2d", x, "x")
    k = positive_pair("max_pool2d", "kernel_size", kernel_size, False)
    s = k if stride is None else positive_pair("max_pool2d", "stride", stride, False)
    p = pair("max_pool2d", "padding", padding, False)
    d = positive_pair("max_pool2d", "dilation", dilation, False)
    if p[0] > k[0] // 2 or p[1] > k[1] // 2 or min(p) < 0:
        raise ValueError(f"For 'max_pool2d', the 'padding' must be non-negative and at most half of 'kernel_size', "
                         f"but got padding={padding!r}, kernel_size={kernel_size!r}.")
    oh = pooled_length(h, k[0], s[0], p[0], dilation=d[0], ceil_mode=ceil_mode)
    ow = pooled_length(w, k[1], s[1], p[1], dilation=d[1], ceil_mode=ceil_mode)
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For 'max_pool2d', the output size ({oh}, {ow}) must be positive; the input ({h}, {w}) is "
                         f"too small for kernel_size={kernel_size!r}.")
    ph = _pads(h, oh, k[0], s[0], p[0], d[0])
    pw = _pads(w, ow, k[1], s[1], p[1], d[1])
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
    t, squeeze, h, w = _batched_nchw("avg_pool2d", input_x, "input_x")
    k = positive_pair("avg_pool2d", "kernel_size", kernel_size, False)
    s = positive_pair("avg_pool2d", "stride", stride, False)
    if isinstance(padding, (tuple, list)) and len(padding) == 4:
        if padding[0] != padding[1] or padding[2] != padding[3]:
            raise ValueError(f"For 'avg_pool2d', asymmetric 'padding' is not supported, but got {padding!r}.")
        p = (int(padding[0]), int(padding[2]))
    else:
        p = pair("avg_pool2d", "padding", padding, False)
    V.check_int(divisor_override, "divisor_override", "avg_pool2d")
    oh = pooled_length(h, k[0], s[0], p[0], ceil_mode=ceil_mode)
    ow = pooled_length(w, k[1], s[1], p[1], ceil_mode=ceil_mode)
    ph = _pads(h, oh, k[0], s[0], p[0])
    pw = _pads(w, ow, k[1], s[1], p[1])
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


def _area_matrix(n: int, out: int) -> np.ndarray:
    m = np.zeros((out, n), np.float64)
    for i, (a, b) in enumerate(adaptive_bins(n, out)):
        m[i, a:b] = 1.0 / (b - a)
    return m


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """Adaptive average pooling of an NCHW (or CHW) tensor to ``output_size``."""
    t = to_float(to_tf(input, "adaptive_avg_pool2d", "input"))
    h, w = _check_4d("adaptive_avg_pool2d", t)
    oh, ow = adaptive_output_size2("adaptive_avg_pool2d", output_size, h, w)
    if (oh, ow) == (1, 1):
        return _wrap(tf.reduce_mean(t, axis=[-2, -1], keepdims=True))
    mh = tf.constant(_area_matrix(h, oh), t.dtype)
    mw = tf.constant(_area_matrix(w, ow), t.dtype)
    return _wrap(tf.einsum("oh,...hw,pw->...op", mh, t, mw))


def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:  # noqa: A002
    """Adaptive max pooling of an NCHW (or CHW) tensor to ``output_size``."""
    t = to_tf(input, "adaptive_max_pool2d", "input")
    h, w = _check_4d("adaptive_max_pool2d", t)
    oh, ow = adaptive_output_size2("adaptive_max_pool2d", output_size, h, w)
    rows = []
    for a, b in adaptive_bins(h, oh):
        cols = [tf.reduce_max(t[..., a:b, c:d], axis=[-2, -1]) for c, d in adaptive_bins(w, ow)]
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
    pads = V.check_int_tuple(padding, "padding", "pad", allow_int=False)
    mode = V.check_string(mode, ("constant", "reflect", "replicate", "circular"), "mode", "pad")
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
    mode = V.check_string(mode, ("nearest", "nearest-exact", "linear", "bilinear", "bicubic",
                                              "trilinear", "area"), "mode", op)
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
        out_sz = list(V.check_int_tuple(size, "size", op)) * (nsp if isinstance(size, numbers.Integral) else 1)
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

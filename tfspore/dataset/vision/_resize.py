"""Image resampling with OpenCV's numerics, as TensorFlow ops.

MindSpore resizes numpy images with OpenCV's ``cv::resize``. ``tf.image.resize`` differs from
it in several places (bicubic uses a=-0.5 and renormalises at the border, nearest rounds
half-pixel centres, area upsampling is a box filter), so the resampling is written here
directly: each axis is resampled separately with a small gather of taps and their weights,
computed as OpenCV computes them:

- ``linear``: half-pixel centres, clamped at the borders; for uint8 the weights are quantised
  to 11 bits and the two passes are combined in fixed point as OpenCV's SIMD path does;
- ``cubic``: Keys' kernel with a=-0.75, border pixels replicated; uint8 in 11-bit fixed point;
- ``nearest``: ``floor(dst * src / dst)``, no half-pixel shift;
- ``area``: exact box averaging when shrinking both axes, OpenCV's "area" variant of bilinear
  otherwise;
- ``pilcubic``: Pillow's bicubic (a=-0.5, kernel widened when shrinking), uint8 in Pillow's
  22-bit fixed point with the intermediate rounded to uint8, as MindSpore's PILCUBIC does;
- ``pillanczos``: Pillow's LANCZOS (``Inter.ANTIALIAS``; sinc windowed over 3 lobes, widened when
  shrinking), with the same fixed-point passes.

All functions take an HWC (or HW) tensor of dynamic shape and keep its dtype: integer outputs
are rounded and saturated.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple, Union

import numpy as np
import tensorflow as tf

__all__ = ["resize", "LINEAR", "NEAREST", "CUBIC", "AREA", "PILCUBIC", "PILLANCZOS"]

LINEAR = "linear"
NEAREST = "nearest"
CUBIC = "cubic"
AREA = "area"
PILCUBIC = "pilcubic"
PILLANCZOS = "pillanczos"

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS
_CUBIC_A = -0.75
_PIL_BITS = 22
_DBL_EPSILON = 2.220446049250313e-16

IntLike = Union[int, tf.Tensor]


class _NumpyMath:
    """The array functions the tap computations need, on numpy (sizes known when tracing)."""

    @staticmethod
    def arange(n):
        return np.arange(n, dtype=np.float64)

    @staticmethod
    def cast(x, dtype: str):
        return np.asarray(x).astype(dtype)

    floor = staticmethod(np.floor)
    sin = staticmethod(np.sin)
    round = staticmethod(np.round)  # half to even, as cvRound
    abs = staticmethod(np.abs)
    where = staticmethod(np.where)
    minimum = staticmethod(np.minimum)
    maximum = staticmethod(np.maximum)

    @staticmethod
    def clip(x, lo, hi):
        return np.clip(x, lo, hi)

    @staticmethod
    def stack(xs):
        return np.stack(xs, axis=1)

    @staticmethod
    def ones(n):
        return np.ones([n, 1], np.float32)


class _TFMath:
    """The same functions on TensorFlow tensors (sizes known only when running)."""

    @staticmethod
    def arange(n):
        return tf.cast(tf.range(n), tf.float64)

    @staticmethod
    def cast(x, dtype: str):
        return tf.cast(x, tf.as_dtype(dtype))

    floor = staticmethod(tf.floor)
    sin = staticmethod(tf.sin)
    round = staticmethod(tf.round)
    abs = staticmethod(tf.abs)
    where = staticmethod(tf.where)
    minimum = staticmethod(tf.minimum)
    maximum = staticmethod(tf.maximum)

    @staticmethod
    def clip(x, lo, hi):
        return tf.clip_by_value(x, lo, hi)

    @staticmethod
    def stack(xs):
        return tf.stack(xs, axis=1)

    @staticmethod
    def ones(n):
        return tf.ones([n, 1], tf.float32)


def _scale(m, in_size, out_size):
    """OpenCV's ``scale = 1 / (dst / src)`` and ``inv_scale = dst / src`` (double)."""
    inv = m.cast(out_size, "float64") / m.cast(in_size, "float64")
    return 1.0 / inv, inv


def _linear_taps(m, in_size, out_size, area_mode: bool, clamp_weights: bool):
    """Two taps per output position: indices [out, 2] int32 and weights [out, 2] float32.

    OpenCV moves border taps inside the image (zeroing the fraction) along x only; along y it
    keeps the fraction and clips the row indices, which matters once weights are quantised.
    """
    scale, inv_scale = _scale(m, in_size, out_size)
    d = m.arange(out_size)
    if area_mode:
        sx = m.floor(d * scale)
        fx = m.cast((d + 1.0) - (sx + 1.0) * inv_scale, "float32")
        fx = m.where(fx <= 0.0, fx * 0.0, fx - m.floor(fx))
    else:
        f = m.cast((d + 0.5) * scale - 0.5, "float32")
        sx = m.floor(f)
        fx = f - sx
    sx = m.cast(sx, "int32")
    if clamp_weights:
        low = sx < 0
        fx = m.where(low, fx * 0.0, fx)
        sx = m.where(low, sx * 0, sx)
        high = sx >= in_size - 1
        fx = m.where(high, fx * 0.0, fx)
        sx = m.where(high, sx * 0 + (in_size - 1), sx)
    idx = m.stack([m.clip(sx, 0, in_size - 1), m.clip(sx + 1, 0, in_size - 1)])
    return idx, m.stack([1.0 - fx, fx])


def _cubic_taps(m, in_size, out_size):
    """Four taps per output position (OpenCV's ``interpolateCubic``, a=-0.75), rows/cols clipped."""
    scale, _ = _scale(m, in_size, out_size)
    d = m.arange(out_size)
    f = m.cast((d + 0.5) * scale - 0.5, "float32")
    sx_f = m.floor(f)
    x = f - sx_f
    sx = m.cast(sx_f, "int32")
    a = _CUBIC_A
    c0 = ((a * (x + 1.0) - 5.0 * a) * (x + 1.0) + 8.0 * a) * (x + 1.0) - 4.0 * a
    c1 = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    c2 = ((a + 2.0) * (1.0 - x) - (a + 3.0)) * (1.0 - x) * (1.0 - x) + 1.0
    c3 = 1.0 - c0 - c1 - c2
    idx = m.stack([m.clip(sx + k, 0, in_size - 1) for k in (-1, 0, 1, 2)])
    return idx, m.stack([c0, c1, c2, c3])


def _nearest_index(m, in_size, out_size):
    """OpenCV's INTER_NEAREST: ``min(floor(dst * src / dst), src - 1)``."""
    scale, _ = _scale(m, in_size, out_size)
    return m.minimum(m.cast(m.floor(m.arange(out_size) * scale), "int32"), in_size - 1)


def _area_matrix(m, in_size, out_size):
    """Box-filter weights [out, in] (rows sum to 1) for shrinking by ``in/out >= 1``."""
    scale, _ = _scale(m, in_size, out_size)
    d = m.arange(out_size)[:, None]
    i = m.arange(in_size)[None, :]
    lo = d * scale
    hi = m.minimum((d + 1.0) * scale, m.cast(in_size, "float64"))
    overlap = m.maximum(m.minimum(i + 1.0, hi) - m.maximum(i, lo), 0.0)
    return m.cast(overlap / (hi - lo), "float32")


def _integer_scale(m, in_size, out_size):
    """OpenCV's ``|scale - round(scale)| < DBL_EPSILON``."""
    scale, _ = _scale(m, in_size, out_size)
    return m.abs(scale - m.round(scale)) < _DBL_EPSILON


def _sinc(m, x):
    safe = m.where(x == 0.0, x * 0.0 + 1.0, x * np.pi)
    return m.where(x == 0.0, x * 0.0 + 1.0, m.sin(safe) / safe)


def _pil_weights(m, in_size, out_size, kernel: str = PILCUBIC):
    """Pillow's weights [out, in] (float64) for bicubic (a=-0.5) or LANCZOS, the kernel widened when shrinking."""
    in_f = m.cast(in_size, "float64")
    scale = in_f / m.cast(out_size, "float64")
    filterscale = m.maximum(scale, 1.0)
    support = (3.0 if kernel == PILLANCZOS else 2.0) * filterscale
    center = (m.arange(out_size) + 0.5) * scale
    xmin = m.maximum(m.floor(center - support + 0.5), 0.0)
    xmax = m.minimum(m.floor(center + support + 0.5), in_f)
    i = m.arange(in_size)[None, :]
    if kernel == PILLANCZOS:
        t = (i - center[:, None] + 0.5) / filterscale
        w = m.where(m.abs(t) < 3.0, _sinc(m, t) * _sinc(m, t / 3.0), t * 0.0)
    else:
        t = m.abs((i - center[:, None] + 0.5) / filterscale)
        a = -0.5
        w = m.where(t < 1.0, ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0,
                    m.where(t < 2.0, (((t - 5.0) * t + 8.0) * t - 4.0) * a, t * 0.0))
    inside = (i >= xmin[:, None]) & (i < xmax[:, None])
    w = m.where(inside, w, w * 0.0)
    total = (w.sum(axis=1, keepdims=True) if isinstance(w, np.ndarray)
             else tf.reduce_sum(w, axis=1, keepdims=True))
    safe = m.where(total == 0.0, total * 0.0 + 1.0, total)
    return w / safe


# ------------------------------------------------------------------------------------ applying taps
def _const(value: Any) -> tf.Tensor:
    return tf.constant(value) if isinstance(value, np.ndarray) else value


def _apply_taps(x: tf.Tensor, idx, w, axis: int) -> tf.Tensor:
    """Resample `x` (HWC) along `axis` (0 or 1) with taps idx/w of shape [out, K]."""
    idx, w = _const(idx), _const(w)
    g = tf.gather(x, idx, axis=axis)  # axis 0: [out, K, W, C]; axis 1: [H, out, K, C]
    if axis == 0:
        return tf.reduce_sum(g * tf.cast(w, g.dtype)[:, :, None, None], axis=1)
    return tf.reduce_sum(g * tf.cast(w, g.dtype)[None, :, :, None], axis=2)


def _apply_matrix(x: tf.Tensor, mat, axis: int) -> tf.Tensor:
    mat = tf.cast(_const(mat), x.dtype)
    if axis == 0:
        return tf.einsum("oh,hwc->owc", mat, x)
    return tf.einsum("ow,hwc->hoc", mat, x)


def _round_saturate(y: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    if dtype.is_floating:
        return tf.cast(y, dtype)
    return tf.cast(tf.clip_by_value(tf.round(y), dtype.min, dtype.max), dtype)


def _quantize(w) -> tf.Tensor:
    if isinstance(w, np.ndarray):
        return tf.constant(np.round(w * _COEF_SCALE).astype(np.int32))
    return tf.cast(tf.round(w * _COEF_SCALE), tf.int32)


def _fixed_point_linear_u8(x: tf.Tensor, idx_y, w_y, idx_x, w_x) -> tf.Tensor:
    """OpenCV's uint8 bilinear: 11-bit weights, int horizontal pass, SIMD vertical rounding."""
    xi = tf.cast(x, tf.int32)
    ax = _quantize(w_x)
    idx_x, idx_y = _const(idx_x), _const(idx_y)
    # one gather per tap (no reduction over a middle axis): [H, ow, C]
    h = (tf.gather(xi, idx_x[:, 0], axis=1) * ax[:, 0][None, :, None]
         + tf.gather(xi, idx_x[:, 1], axis=1) * ax[:, 1][None, :, None])
    h = tf.bitwise.right_shift(h, 4)
    by = _quantize(w_y)
    t = (tf.bitwise.right_shift(by[:, 0][:, None, None] * tf.gather(h, idx_y[:, 0], axis=0), 16)
         + tf.bitwise.right_shift(by[:, 1][:, None, None] * tf.gather(h, idx_y[:, 1], axis=0), 16))
    return tf.cast(tf.clip_by_value(tf.bitwise.right_shift(t + 2, 2), 0, 255), tf.uint8)


def _fixed_point_cubic_u8(x: tf.Tensor, idx_y, w_y, idx_x, w_x) -> tf.Tensor:
    """OpenCV's uint8 bicubic: 11-bit weights, int horizontal pass, rounded vertical pass."""
    xi = tf.cast(x, tf.int32)
    ax = _quantize(w_x)
    h = tf.reduce_sum(tf.gather(xi, _const(idx_x), axis=1) * ax[None, :, :, None], axis=2)
    by = tf.cast(_quantize(w_y), tf.float32)
    rows = tf.cast(tf.gather(h, _const(idx_y), axis=0), tf.float32)  # [oh, 4, ow, C]
    acc = tf.reduce_sum(rows * by[:, :, None, None], axis=1) * (1.0 / (_COEF_SCALE * _COEF_SCALE))
    return tf.cast(tf.clip_by_value(tf.round(acc), 0.0, 255.0), tf.uint8)


def _box_sum(x: tf.Tensor, m, in_h, in_w, out_h, out_w) -> Tuple[tf.Tensor, Any]:
    """Exact block sums for integer shrink factors (a 0/1 matrix per axis) and the area."""
    def ones_matrix(in_size, out_size):
        k = in_size // out_size
        kf = m.cast(k, "float64")
        rows = m.arange(out_size)[:, None]
        cols = m.arange(in_size)[None, :]
        return m.cast((cols >= rows * kf) & (cols < (rows + 1.0) * kf), "float32"), k
    mx, kw = ones_matrix(in_w, out_w)
    my, kh = ones_matrix(in_h, out_h)
    acc = tf.float64 if x.dtype == tf.float64 else tf.float32
    total = _apply_matrix(_apply_matrix(tf.cast(x, acc), mx, 1), my, 0)
    return total, kh * kw


def _area_fast(x: tf.Tensor, m, in_h, in_w, out_h, out_w) -> tf.Tensor:
    """OpenCV's integer-factor shrink: block sums, ``(s + 2) >> 2`` for 2x2 uint8, else ``round(s / area)``."""
    total, area = _box_sum(x, m, in_h, in_w, out_h, out_w)
    dtype = x.dtype
    scale = tf.cast(1.0, total.dtype) / tf.cast(area, total.dtype)
    if dtype == tf.uint8:
        scaled = tf.round(tf.cast(total, tf.float32) * tf.cast(scale, tf.float32))
        half_up = tf.floor((total + 2.0) / 4.0)
        out = tf.where(tf.equal(area, 4), half_up, scaled)
        return tf.cast(tf.clip_by_value(out, 0.0, 255.0), dtype)
    return _round_saturate(total * scale, dtype)


def _pil_pass(x: tf.Tensor, m, in_size, out_size, axis: int, fixed: bool, kernel: str = PILCUBIC) -> tf.Tensor:
    """One Pillow resampling pass along `axis` (fixed point with uint8 rounding for uint8 images)."""
    w = _pil_weights(m, in_size, out_size, kernel)
    if fixed:
        scaled = w * float(1 << _PIL_BITS)
        w = m.where(scaled < 0.0, -m.floor(-scaled + 0.5), m.floor(scaled + 0.5))
        acc = _apply_matrix(x, w, axis) + float(1 << (_PIL_BITS - 1))
        return tf.clip_by_value(tf.floor(acc / float(1 << _PIL_BITS)), 0.0, 255.0)
    return _apply_matrix(x, w, axis)


def _static(value: Any) -> Optional[int]:
    if isinstance(value, (int, np.integer)):
        return int(value)
    return None


def resize(image: tf.Tensor, out_h: IntLike, out_w: IntLike, method: str = LINEAR) -> tf.Tensor:
    """Resize an HWC or HW image to ``(out_h, out_w)`` with OpenCV's numerics.

    When the input and output sizes are known while tracing, the taps are computed with numpy
    and embedded as constants; otherwise they are computed with TF ops at run time.

    Args:
        image: A rank-2 or rank-3 tensor (uint8, uint16, int16, float32 or float64).
        out_h: Output height (int or scalar int tensor).
        out_w: Output width.
        method: One of ``linear``, ``nearest``, ``cubic``, ``area``, ``pilcubic``, ``pillanczos``.

    Returns:
        The resized image, same rank and dtype as `image`.
    """
    rank2 = image.shape.rank == 2
    x = image[:, :, None] if rank2 else image
    dtype = x.dtype
    sizes = (x.shape[0], x.shape[1], _static(out_h), _static(out_w))
    static = all(isinstance(v, int) for v in sizes)
    if static:
        m: Any = _NumpyMath
        in_h, in_w, out_h, out_w = sizes
    else:
        m = _TFMath
        shape = tf.shape(x)
        in_h, in_w = shape[0], shape[1]
        out_h, out_w = tf.cast(out_h, tf.int32), tf.cast(out_w, tf.int32)
    work = tf.float64 if dtype == tf.float64 else tf.float32

    def linear(area_mode: bool) -> tf.Tensor:
        idx_x, w_x = _linear_taps(m, in_w, out_w, area_mode, clamp_weights=True)
        idx_y, w_y = _linear_taps(m, in_h, out_h, area_mode, clamp_weights=False)
        if dtype == tf.uint8:
            return _fixed_point_linear_u8(x, idx_y, w_y, idx_x, w_x)
        return _round_saturate(_apply_taps(_apply_taps(tf.cast(x, work), idx_x, w_x, 1), idx_y, w_y, 0), dtype)

    def area_general() -> tf.Tensor:
        y = _apply_matrix(_apply_matrix(tf.cast(x, work), _area_matrix(m, in_w, out_w), 1),
                          _area_matrix(m, in_h, out_h), 0)
        return _round_saturate(y, dtype)

    if method == NEAREST:
        out = tf.gather(tf.gather(x, _const(_nearest_index(m, in_w, out_w)), axis=1),
                        _const(_nearest_index(m, in_h, out_h)), axis=0)
    elif method == CUBIC:
        idx_x, w_x = _cubic_taps(m, in_w, out_w)
        idx_y, w_y = _cubic_taps(m, in_h, out_h)
        if dtype == tf.uint8:
            out = _fixed_point_cubic_u8(x, idx_y, w_y, idx_x, w_x)
        else:
            out = _round_saturate(_apply_taps(_apply_taps(tf.cast(x, work), idx_x, w_x, 1), idx_y, w_y, 0), dtype)
    elif method in (PILCUBIC, PILLANCZOS):
        fixed = dtype == tf.uint8
        y = tf.cast(x, tf.float64)
        if static:
            if in_w != out_w:
                y = _pil_pass(y, m, in_w, out_w, 1, fixed, method)
            if in_h != out_h:
                y = _pil_pass(y, m, in_h, out_h, 0, fixed, method)
        else:
            y = tf.cond(tf.equal(in_w, out_w), lambda: y, lambda: _pil_pass(y, m, in_w, out_w, 1, fixed, method))
            y = tf.cond(tf.equal(in_h, out_h), lambda: y, lambda: _pil_pass(y, m, in_h, out_h, 0, fixed, method))
        out = _round_saturate(y, dtype)
    elif method == LINEAR:
        # OpenCV resizes by exactly one half on both axes with the (faster) area code.
        if static:
            halving = in_w == 2 * out_w and in_h == 2 * out_h
            out = _area_fast(x, m, in_h, in_w, out_h, out_w) if halving else linear(False)
        else:
            halving = tf.logical_and(tf.equal(in_w, 2 * out_w), tf.equal(in_h, 2 * out_h))
            out = tf.cond(halving, lambda: _area_fast(x, m, in_h, in_w, out_h, out_w), lambda: linear(False))
    elif method == AREA:
        # Shrinking averages boxes (block sums for integer factors); enlarging is a bilinear variant.
        if static:
            if in_w >= out_w and in_h >= out_h:
                fast = bool(_integer_scale(m, in_w, out_w)) and bool(_integer_scale(m, in_h, out_h))
                out = _area_fast(x, m, in_h, in_w, out_h, out_w) if fast else area_general()
            else:
                out = linear(True)
        else:
            fast = tf.logical_and(_integer_scale(m, in_w, out_w), _integer_scale(m, in_h, out_h))
            shrinking = tf.logical_and(in_w >= out_w, in_h >= out_h)
            out = tf.cond(shrinking,
                          lambda: tf.cond(fast, lambda: _area_fast(x, m, in_h, in_w, out_h, out_w), area_general),
                          lambda: linear(True))
    else:
        raise ValueError(f"Unknown resize method {method!r}.")
    return out[:, :, 0] if rank2 else out

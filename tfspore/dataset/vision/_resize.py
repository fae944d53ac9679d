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
  22-bit fixed point with the intermediate rounded to uint8, as MindSpore's PILCUBIC does.

All functions take an HWC (or HW) tensor of dynamic shape and keep its dtype: integer outputs
are rounded and saturated.
"""
from __future__ import annotations

from typing import Tuple, Union

import tensorflow as tf

__all__ = ["resize", "LINEAR", "NEAREST", "CUBIC", "AREA", "PILCUBIC"]

LINEAR = "linear"
NEAREST = "nearest"
CUBIC = "cubic"
AREA = "area"
PILCUBIC = "pilcubic"

_COEF_BITS = 11
_COEF_SCALE = 1 << _COEF_BITS
_CUBIC_A = -0.75
_PIL_BITS = 22

IntLike = Union[int, tf.Tensor]


def _scale(in_size: tf.Tensor, out_size: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    """OpenCV's ``scale = 1 / (dst / src)`` (double) and ``inv_scale = dst / src``."""
    inv = tf.cast(out_size, tf.float64) / tf.cast(in_size, tf.float64)
    return 1.0 / inv, inv


def _linear_taps(in_size: tf.Tensor, out_size: tf.Tensor, area_mode: bool,
                 clamp_weights: bool) -> Tuple[tf.Tensor, tf.Tensor]:
    """Two taps per output position: indices [out, 2] int32 and weights [out, 2] float32.

    OpenCV moves border taps inside the image (zeroing the fraction) along x only; along y it
    keeps the fraction and clips the row indices, which matters once weights are quantised.
    """
    scale, inv_scale = _scale(in_size, out_size)
    d = tf.cast(tf.range(out_size), tf.float64)
    if area_mode:
        sx = tf.floor(d * scale)
        fx = tf.cast((d + 1.0) - (sx + 1.0) * inv_scale, tf.float32)
        fx = tf.where(fx <= 0.0, tf.zeros_like(fx), fx - tf.floor(fx))
    else:
        f = tf.cast((d + 0.5) * scale - 0.5, tf.float32)
        sx = tf.cast(tf.floor(f), tf.float64)
        fx = f - tf.cast(sx, tf.float32)
    sx = tf.cast(sx, tf.int32)
    if not clamp_weights:
        idx = tf.stack([tf.clip_by_value(sx, 0, in_size - 1), tf.clip_by_value(sx + 1, 0, in_size - 1)], axis=1)
        return idx, tf.stack([1.0 - fx, fx], axis=1)
    low = sx < 0
    fx = tf.where(low, tf.zeros_like(fx), fx)
    sx = tf.where(low, tf.zeros_like(sx), sx)
    high = sx >= in_size - 1
    fx = tf.where(high, tf.zeros_like(fx), fx)
    sx = tf.where(high, tf.fill(tf.shape(sx), in_size - 1), sx)
    idx = tf.stack([sx, tf.minimum(sx + 1, in_size - 1)], axis=1)
    w = tf.stack([1.0 - fx, fx], axis=1)
    return idx, w


def _cubic_taps(in_size: tf.Tensor, out_size: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    """Four taps per output position (OpenCV's ``interpolateCubic``, a=-0.75)."""
    scale, _ = _scale(in_size, out_size)
    d = tf.cast(tf.range(out_size), tf.float64)
    f = tf.cast((d + 0.5) * scale - 0.5, tf.float32)
    sx_f = tf.floor(f)
    x = f - sx_f
    sx = tf.cast(sx_f, tf.int32)
    a = _CUBIC_A
    c0 = ((a * (x + 1.0) - 5.0 * a) * (x + 1.0) + 8.0 * a) * (x + 1.0) - 4.0 * a
    c1 = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    c2 = ((a + 2.0) * (1.0 - x) - (a + 3.0)) * (1.0 - x) * (1.0 - x) + 1.0
    c3 = 1.0 - c0 - c1 - c2
    idx = tf.stack([tf.clip_by_value(sx + k, 0, in_size - 1) for k in (-1, 0, 1, 2)], axis=1)
    w = tf.stack([c0, c1, c2, c3], axis=1)
    return idx, w


def _nearest_taps(in_size: tf.Tensor, out_size: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    scale, _ = _scale(in_size, out_size)
    d = tf.cast(tf.range(out_size), tf.float64)
    sx = tf.minimum(tf.cast(tf.floor(d * scale), tf.int32), in_size - 1)
    return sx[:, None], tf.ones([out_size, 1], tf.float32)


def _area_matrix(in_size: tf.Tensor, out_size: tf.Tensor) -> tf.Tensor:
    """Box-filter weights [out, in] (each row sums to 1) for shrinking by ``in/out >= 1``."""
    scale, _ = _scale(in_size, out_size)
    d = tf.cast(tf.range(out_size), tf.float64)[:, None]
    i = tf.cast(tf.range(in_size), tf.float64)[None, :]
    lo = d * scale
    hi = tf.minimum((d + 1.0) * scale, tf.cast(in_size, tf.float64))
    overlap = tf.maximum(tf.minimum(i + 1.0, hi) - tf.maximum(i, lo), 0.0)
    return tf.cast(overlap / (hi - lo), tf.float32)


def _area_fast(x: tf.Tensor, out_h: tf.Tensor, out_w: tf.Tensor) -> tf.Tensor:
    """OpenCV's integer-factor box shrink: an exact block sum, then OpenCV's rounding."""
    shape = tf.shape(x)
    kh = shape[0] // out_h
    kw = shape[1] // out_w
    dtype = x.dtype
    acc = tf.int32 if dtype.is_integer else (tf.float64 if dtype == tf.float64 else tf.float32)
    blocks = tf.reshape(tf.cast(x, acc), tf.stack([out_h, kh, out_w, kw, shape[2]]))
    total = tf.reduce_sum(blocks, axis=[1, 3])
    if dtype == tf.uint8:
        def _half_up():
            return tf.bitwise.right_shift(total + 2, 2)

        def _scaled():
            scale = 1.0 / tf.cast(kh * kw, tf.float32)
            return tf.cast(tf.round(tf.cast(total, tf.float32) * scale), tf.int32)
        two = tf.logical_and(tf.equal(kh, 2), tf.equal(kw, 2))
        out = tf.cond(two, _half_up, _scaled)
        return tf.cast(tf.clip_by_value(out, 0, 255), dtype)
    scale = 1.0 / tf.cast(kh * kw, tf.float32)
    if dtype.is_integer:
        return _round_saturate(tf.cast(total, tf.float32) * scale, dtype)
    return tf.cast(total, dtype) * tf.cast(scale, dtype)


def _integer_scale(in_size: tf.Tensor, out_size: tf.Tensor) -> tf.Tensor:
    """OpenCV's ``|scale - round(scale)| < DBL_EPSILON``."""
    scale, _ = _scale(in_size, out_size)
    return tf.abs(scale - tf.round(scale)) < 2.220446049250313e-16


def _apply_taps(x: tf.Tensor, idx: tf.Tensor, w: tf.Tensor, axis: int) -> tf.Tensor:
    """Resample `x` (rank 3, HWC) along `axis` (0 or 1) with taps idx/w of shape [out, K]."""
    g = tf.gather(x, idx, axis=axis)  # axis 0: [out, K, W, C]; axis 1: [H, out, K, C]
    if axis == 0:
        return tf.reduce_sum(g * tf.cast(w, g.dtype)[:, :, None, None], axis=1)
    return tf.reduce_sum(g * tf.cast(w, g.dtype)[None, :, :, None], axis=2)


def _apply_matrix(x: tf.Tensor, m: tf.Tensor, axis: int) -> tf.Tensor:
    m = tf.cast(m, x.dtype)
    if axis == 0:
        return tf.einsum("oh,hwc->owc", m, x)
    return tf.einsum("ow,hwc->hoc", m, x)


def _round_saturate(y: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    if dtype.is_floating:
        return tf.cast(y, dtype)
    y = tf.round(y)  # half to even, as cvRound
    return tf.cast(tf.clip_by_value(y, dtype.min, dtype.max), dtype)


def _quantize(w: tf.Tensor) -> tf.Tensor:
    return tf.cast(tf.round(w * _COEF_SCALE), tf.int32)


def _fixed_point_linear_u8(x: tf.Tensor, idx_y, w_y, idx_x, w_x) -> tf.Tensor:
    """OpenCV's uint8 bilinear: 11-bit weights, int horizontal pass, SIMD vertical rounding."""
    xi = tf.cast(x, tf.int32)
    ax = _quantize(w_x)
    h = tf.reduce_sum(tf.gather(xi, idx_x, axis=1) * ax[None, :, :, None], axis=2)  # [H, ow, C]
    by = _quantize(w_y)
    rows = tf.gather(h, idx_y, axis=0)  # [oh, 2, ow, C]
    s0 = tf.bitwise.right_shift(rows[:, 0], 4)
    s1 = tf.bitwise.right_shift(rows[:, 1], 4)
    b0 = by[:, 0][:, None, None]
    b1 = by[:, 1][:, None, None]
    t = tf.bitwise.right_shift(b0 * s0, 16) + tf.bitwise.right_shift(b1 * s1, 16)
    out = tf.bitwise.right_shift(t + 2, 2)
    return tf.cast(tf.clip_by_value(out, 0, 255), tf.uint8)


def _fixed_point_cubic_u8(x: tf.Tensor, idx_y, w_y, idx_x, w_x) -> tf.Tensor:
    """OpenCV's uint8 bicubic: 11-bit weights, int horizontal pass, rounded vertical pass."""
    xi = tf.cast(x, tf.int32)
    ax = _quantize(w_x)
    h = tf.reduce_sum(tf.gather(xi, idx_x, axis=1) * ax[None, :, :, None], axis=2)
    by = tf.cast(_quantize(w_y), tf.float32)
    rows = tf.cast(tf.gather(h, idx_y, axis=0), tf.float32)  # [oh, 4, ow, C]
    acc = tf.reduce_sum(rows * by[:, :, None, None], axis=1) * (1.0 / (_COEF_SCALE * _COEF_SCALE))
    return tf.cast(tf.clip_by_value(tf.round(acc), 0.0, 255.0), tf.uint8)


def _pil_weights(in_size: tf.Tensor, out_size: tf.Tensor) -> tf.Tensor:
    """PIL's bicubic (a=-0.5) weights [out, in] (float64), widened when shrinking."""
    in_f = tf.cast(in_size, tf.float64)
    scale = in_f / tf.cast(out_size, tf.float64)
    filterscale = tf.maximum(scale, 1.0)
    support = 2.0 * filterscale
    center = (tf.cast(tf.range(out_size), tf.float64) + 0.5) * scale
    xmin = tf.maximum(tf.floor(center - support + 0.5), 0.0)
    xmax = tf.minimum(tf.floor(center + support + 0.5), in_f)
    i = tf.cast(tf.range(in_size), tf.float64)[None, :]
    t = tf.abs((i - center[:, None] + 0.5) / filterscale)
    a = -0.5
    w = tf.where(t < 1.0, ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0,
                 tf.where(t < 2.0, (((t - 5.0) * t + 8.0) * t - 4.0) * a, tf.zeros_like(t)))
    inside = tf.logical_and(i >= xmin[:, None], i < xmax[:, None])
    w = tf.where(inside, w, tf.zeros_like(w))
    total = tf.reduce_sum(w, axis=1, keepdims=True)
    return tf.where(tf.equal(total, 0.0), w, w / tf.where(tf.equal(total, 0.0), tf.ones_like(total), total))


def _pil_pass(x: tf.Tensor, in_size: tf.Tensor, out_size: tf.Tensor, axis: int, fixed: bool) -> tf.Tensor:
    """One PIL resampling pass along `axis`; skipped when the size does not change."""
    def _run():
        w = _pil_weights(in_size, out_size)
        if fixed:
            scaled = w * float(1 << _PIL_BITS)
            w = tf.where(scaled < 0.0, tf.math.ceil(scaled - 0.5), tf.floor(scaled + 0.5))
            acc = _apply_matrix(x, w, axis) + float(1 << (_PIL_BITS - 1))
            return tf.clip_by_value(tf.floor(acc / float(1 << _PIL_BITS)), 0.0, 255.0)
        return _apply_matrix(x, w, axis)
    return tf.cond(tf.equal(in_size, out_size), lambda: x, _run)


def resize(image: tf.Tensor, out_h: IntLike, out_w: IntLike, method: str = LINEAR) -> tf.Tensor:
    """Resize an HWC or HW image to ``(out_h, out_w)`` with OpenCV's numerics.

    Args:
        image: A rank-2 or rank-3 tensor (uint8, uint16, int16, float32 or float64).
        out_h: Output height (int or scalar int tensor).
        out_w: Output width.
        method: One of ``linear``, ``nearest``, ``cubic``, ``area``, ``pilcubic``.

    Returns:
        The resized image, same rank and dtype as `image`.
    """
    rank2 = image.shape.rank == 2
    x = image[:, :, None] if rank2 else image
    dtype = x.dtype
    shape = tf.shape(x)
    in_h, in_w = shape[0], shape[1]
    out_h = tf.cast(out_h, tf.int32)
    out_w = tf.cast(out_w, tf.int32)
    work = tf.float64 if dtype == tf.float64 else tf.float32

    def _float_taps(idx_y, w_y, idx_x, w_x):
        xf = tf.cast(x, work)
        return _round_saturate(_apply_taps(_apply_taps(xf, idx_x, w_x, 1), idx_y, w_y, 0), dtype)

    def _area_down():
        xf = tf.cast(x, work)
        y = _apply_matrix(_apply_matrix(xf, _area_matrix(in_w, out_w), 1), _area_matrix(in_h, out_h), 0)
        return _round_saturate(y, dtype)

    def _linear(area_mode: bool):
        idx_x, w_x = _linear_taps(in_w, out_w, area_mode, clamp_weights=True)
        idx_y, w_y = _linear_taps(in_h, out_h, area_mode, clamp_weights=False)
        if dtype == tf.uint8:
            return _fixed_point_linear_u8(x, idx_y, w_y, idx_x, w_x)
        return _float_taps(idx_y, w_y, idx_x, w_x)

    if method == NEAREST:
        idx_x, _ = _nearest_taps(in_w, out_w)
        idx_y, _ = _nearest_taps(in_h, out_h)
        out = tf.gather(tf.gather(x, idx_x[:, 0], axis=1), idx_y[:, 0], axis=0)
    elif method == CUBIC:
        idx_x, w_x = _cubic_taps(in_w, out_w)
        idx_y, w_y = _cubic_taps(in_h, out_h)
        if dtype == tf.uint8:
            out = _fixed_point_cubic_u8(x, idx_y, w_y, idx_x, w_x)
        else:
            out = _float_taps(idx_y, w_y, idx_x, w_x)
    elif method == PILCUBIC:
        fixed = dtype == tf.uint8
        xf = tf.cast(x, tf.float64)
        y = _pil_pass(_pil_pass(xf, in_w, out_w, 1, fixed), in_h, out_h, 0, fixed)
        out = _round_saturate(y, dtype)
    elif method in (LINEAR, AREA):
        # OpenCV: exact halving of both axes takes the area path; area shrinking averages boxes
        # (block sums for integer factors), area enlarging is a variant of bilinear.
        fast = tf.logical_and(_integer_scale(in_w, out_w), _integer_scale(in_h, out_h))
        if method == LINEAR:
            halving = tf.logical_and(tf.equal(in_w, 2 * out_w), tf.equal(in_h, 2 * out_h))
            out = tf.cond(tf.logical_and(halving, fast), lambda: _area_fast(x, out_h, out_w),
                          lambda: _linear(False))
        else:
            shrinking = tf.logical_and(in_w >= out_w, in_h >= out_h)

            def _shrink():
                return tf.cond(fast, lambda: _area_fast(x, out_h, out_w), _area_down)
            out = tf.cond(shrinking, _shrink, lambda: _linear(True))
    else:
        raise ValueError(f"Unknown resize method {method!r}.")
    same = tf.logical_and(tf.equal(in_h, out_h), tf.equal(in_w, out_w))
    out = tf.cond(same, lambda: x, lambda: out) if method != NEAREST else out
    return out[:, :, 0] if rank2 else out

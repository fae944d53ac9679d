"""Image operations as TensorFlow ops, with OpenCV's numerics where MindSpore uses OpenCV.

Images are HWC tensors (``as_hwc`` lifts HW images to HW1 and ``restore`` drops the channel
again). Integer results are rounded half to even and saturated, as OpenCV's
``saturate_cast`` does.
"""
from __future__ import annotations

import math
from typing import Sequence, Tuple

import tensorflow as tf

from tfspore.dataset.vision.utils import Border

# OpenCV's fixed-point RGB -> gray coefficients (14 bits) and their float versions.
_GRAY_BITS = 14
_R2Y, _G2Y, _B2Y = 4899, 9617, 1868
_R2Y_F, _G2Y_F, _B2Y_F = 0.299, 0.587, 0.114


def as_hwc(image: tf.Tensor) -> Tuple[tf.Tensor, bool]:
    """Return the image as rank 3 and whether it was rank 2."""
    if image.shape.rank == 2:
        return image[:, :, None], True
    return image, False


def restore(image: tf.Tensor, was_2d: bool) -> tf.Tensor:
    return image[:, :, 0] if was_2d else image


def saturate(values: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    """Round (half to even) and clip float `values` into `dtype` (floats are only cast)."""
    if dtype.is_floating:
        return tf.cast(values, dtype)
    return tf.cast(tf.clip_by_value(tf.round(values), dtype.min, dtype.max), dtype)


def work_dtype(dtype: tf.DType) -> tf.DType:
    return tf.float64 if dtype == tf.float64 else tf.float32


# ------------------------------------------------------------------------------------ decoding
def decode_image(raw: tf.Tensor) -> tf.Tensor:
    """Decode JPEG/PNG/BMP/GIF bytes (a string scalar) to HWC uint8 RGB.

    JPEG uses libjpeg's accurate integer IDCT with fancy upsampling, as OpenCV (and so
    MindSpore) decodes it; the first frame of an animated GIF is returned.
    """
    def _jpeg():
        return tf.io.decode_jpeg(raw, channels=3, dct_method="INTEGER_ACCURATE")

    def _other():
        return tf.io.decode_image(raw, channels=3, dtype=tf.uint8, expand_animations=False)

    image = tf.cond(tf.io.is_jpeg(raw), _jpeg, _other)
    return tf.ensure_shape(image, [None, None, 3])


# ------------------------------------------------------------------------------------ geometry
def _border_index(index: tf.Tensor, size: tf.Tensor, mode: Border) -> tf.Tensor:
    """Source index for `index` (possibly outside ``[0, size)``) under a border mode."""
    if mode == Border.EDGE:
        return tf.clip_by_value(index, 0, size - 1)
    if mode == Border.REFLECT:  # reflect without repeating the edge (OpenCV's REFLECT_101)
        period = tf.maximum(2 * size - 2, 1)
        j = tf.math.floormod(index, period)
        j = tf.where(j >= size, period - j, j)
        return tf.where(tf.equal(size, 1), tf.zeros_like(j), j)
    # SYMMETRIC: reflect repeating the edge (OpenCV's REFLECT)
    period = 2 * size
    j = tf.math.floormod(index, period)
    return tf.where(j >= size, period - 1 - j, j)


def fill_vector(fill: Sequence[float], channels: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    """A per-channel fill value of length `channels` (a 3-tuple fill; gray takes the first, RGBA adds 0)."""
    values = tf.constant(list(fill) + [0.0] * 8, tf.float64)
    vec = tf.cond(tf.equal(channels, 1), lambda: values[:1], lambda: values[:channels])
    return saturate(vec, dtype)


def pad(image: tf.Tensor, left: int, top: int, right: int, bottom: int, mode: Border = Border.CONSTANT,
        fill: Sequence[float] = (0, 0, 0)) -> tf.Tensor:
    """Pad an HWC image; `left`..`bottom` may be ints or scalar int32 tensors."""
    if mode == Border.CONSTANT:
        padded = tf.pad(image, [[top, bottom], [left, right], [0, 0]])
        if all(float(f) == 0.0 for f in fill):
            return padded
        inside = tf.pad(tf.ones(tf.shape(image)[:2], tf.bool), [[top, bottom], [left, right]])
        value = fill_vector(fill, tf.shape(image)[2], image.dtype)
        return tf.where(inside[:, :, None], padded, value[None, None, :])
    shape = tf.shape(image)
    rows = _border_index(tf.range(-top, shape[0] + bottom), shape[0], mode)
    cols = _border_index(tf.range(-left, shape[1] + right), shape[1], mode)
    return tf.gather(tf.gather(image, rows, axis=0), cols, axis=1)


def crop(image: tf.Tensor, top, left, height, width) -> tf.Tensor:
    """The window ``[top:top+height, left:left+width]`` of an HWC image."""
    return tf.slice(image, tf.stack([tf.cast(top, tf.int32), tf.cast(left, tf.int32), 0]),
                    tf.stack([tf.cast(height, tf.int32), tf.cast(width, tf.int32), -1]))


def center_crop(image: tf.Tensor, crop_h: int, crop_w: int) -> tf.Tensor:
    """MindSpore's CenterCrop: pad by the crop size where the image is smaller, then crop at floor offsets."""
    shape = tf.shape(image)
    pad_h = tf.where(crop_h > shape[0], crop_h, 0)
    pad_w = tf.where(crop_w > shape[1], crop_w, 0)
    padded = tf.pad(image, [[pad_h, pad_h], [pad_w, pad_w], [0, 0]])
    top = (shape[0] + 2 * pad_h - crop_h) // 2
    left = (shape[1] + 2 * pad_w - crop_w) // 2
    out = crop(padded, top, left, crop_h, crop_w)
    return tf.ensure_shape(out, [crop_h, crop_w, image.shape[2]])


_AB_BITS = 10
_INTER_BITS = 5
_INTER_TAB = 1 << _INTER_BITS
_REMAP_BITS = 15


def _bilinear_table() -> tf.Tensor:
    """OpenCV's fixed-point bilinear weights for the 32x32 sub-pixel positions: [1024, 4] int32."""
    k = tf.range(_INTER_TAB, dtype=tf.int32)
    fy = k[:, None]
    fx = k[None, :]
    scale = (1 << _REMAP_BITS) // (_INTER_TAB * _INTER_TAB)  # (32-fy)(32-fx)/1024 * 32768, exact
    w = tf.stack([(_INTER_TAB - fy) * (_INTER_TAB - fx), (_INTER_TAB - fy) * fx,
                  fy * (_INTER_TAB - fx), fy * fx], axis=-1) * scale
    return tf.reshape(w, [_INTER_TAB * _INTER_TAB, 4])


def warp_affine(image: tf.Tensor, matrix: Sequence[tf.Tensor], out_h, out_w, method: str,
                fill: Sequence[float]) -> tf.Tensor:
    """OpenCV's ``warpAffine`` (forward `matrix` src -> dst, inverted as OpenCV does), constant border.

    Coordinates are fixed point (1/1024, then 1/32 of a pixel for bilinear) and uint8 bilinear
    weights are 15-bit integers, as in OpenCV.
    """
    m0, m1, m2, m3, m4, m5 = [tf.cast(v, tf.float64) for v in matrix]
    det = m0 * m4 - m1 * m3
    inv = tf.where(tf.equal(det, 0.0), tf.zeros_like(det), 1.0 / det)
    a11, a22 = m4 * inv, m0 * inv
    a12, a21 = -m1 * inv, -m3 * inv
    b1 = -a11 * m2 - a12 * m5
    b2 = -a21 * m2 - a22 * m5
    shape = tf.shape(image)
    h, w, channels = shape[0], shape[1], shape[2]
    ab_scale = float(1 << _AB_BITS)
    xs = tf.cast(tf.range(out_w), tf.float64)
    ys = tf.cast(tf.range(out_h), tf.float64)
    adelta = tf.cast(tf.round(a11 * xs * ab_scale), tf.int64)
    bdelta = tf.cast(tf.round(a21 * xs * ab_scale), tf.int64)
    nearest = method == "NEAREST"
    round_delta = (1 << _AB_BITS) // 2 if nearest else (1 << _AB_BITS) // _INTER_TAB // 2
    x0 = tf.cast(tf.round((a12 * ys + b1) * ab_scale), tf.int64) + round_delta
    y0 = tf.cast(tf.round((a22 * ys + b2) * ab_scale), tf.int64) + round_delta
    big_x = x0[:, None] + adelta[None, :]
    big_y = y0[:, None] + bdelta[None, :]
    fill_vec = fill_vector(fill, channels, tf.float32)
    flat = tf.reshape(tf.cast(image, tf.float32), tf.stack([h * w, channels]))
    h64 = tf.cast(h, tf.int64)
    w64 = tf.cast(w, tf.int64)

    def sample(sy, sx):
        valid = (sx >= 0) & (sx < w64) & (sy >= 0) & (sy < h64)
        index = tf.where(valid, sy * w64 + sx, tf.zeros_like(sx))
        values = tf.gather(flat, index)
        return tf.where(valid[:, :, None], values, fill_vec[None, None, :])

    if nearest:
        out = sample(tf.bitwise.right_shift(big_y, _AB_BITS), tf.bitwise.right_shift(big_x, _AB_BITS))
        return saturate(out, image.dtype)
    big_x = tf.bitwise.right_shift(big_x, _AB_BITS - _INTER_BITS)
    big_y = tf.bitwise.right_shift(big_y, _AB_BITS - _INTER_BITS)
    sx = tf.bitwise.right_shift(big_x, _INTER_BITS)
    sy = tf.bitwise.right_shift(big_y, _INTER_BITS)
    alpha = tf.bitwise.bitwise_and(big_y, _INTER_TAB - 1) * _INTER_TAB + tf.bitwise.bitwise_and(big_x, _INTER_TAB - 1)
    weights = tf.gather(_bilinear_table(), alpha)  # [oh, ow, 4]
    taps = [sample(sy, sx), sample(sy, sx + 1), sample(sy + 1, sx), sample(sy + 1, sx + 1)]
    if image.dtype == tf.uint8:
        acc = tf.add_n([tf.cast(t, tf.int32) * weights[:, :, k:k + 1] for k, t in enumerate(taps)])
        out = tf.bitwise.right_shift(acc + (1 << (_REMAP_BITS - 1)), _REMAP_BITS)
        return tf.cast(tf.clip_by_value(out, 0, 255), tf.uint8)
    wf = tf.cast(weights, tf.float32) / float(1 << _REMAP_BITS)
    out = tf.add_n([t * wf[:, :, k:k + 1] for k, t in enumerate(taps)])
    return saturate(out, image.dtype)


def rotate(image: tf.Tensor, degrees: tf.Tensor, method: str, expand: bool, center, fill: Sequence[float]
           ) -> tf.Tensor:
    """Rotate counter-clockwise by `degrees` as MindSpore does (``getRotationMatrix2D`` + ``warpAffine``).

    Args:
        image: HWC image.
        degrees: Angle (scalar float tensor).
        method: ``"NEAREST"`` or ``"BILINEAR"``.
        expand: Grow the output to hold the whole rotated image.
        center: ``(x, y)`` or None for the image centre ``((w-1)/2, (h-1)/2)``.
        fill: Per-channel fill value of the uncovered area (R, G, B).
    """
    shape = tf.shape(image)
    h = tf.cast(shape[0], tf.float64)
    w = tf.cast(shape[1], tf.float64)
    if center is None:
        cx, cy = (w - 1.0) / 2.0, (h - 1.0) / 2.0
    else:
        cx, cy = tf.constant(float(center[0]), tf.float64), tf.constant(float(center[1]), tf.float64)
    theta = tf.cast(degrees, tf.float64) * (math.pi / 180.0)
    alpha = tf.cos(theta)
    beta = tf.sin(theta)
    # getRotationMatrix2D(center, angle, 1)
    m2 = (1.0 - alpha) * cx - beta * cy
    m5 = beta * cx + (1.0 - alpha) * cy
    out_h, out_w = shape[0], shape[1]
    if expand:
        # cv::RotatedRect(center, size, angle).boundingRect2f(), in float32 as OpenCV
        a32 = tf.cast(tf.abs(alpha), tf.float32)
        b32 = tf.cast(tf.abs(beta), tf.float32)
        bw = tf.cast(w, tf.float32) * a32 + tf.cast(h, tf.float32) * b32
        bh = tf.cast(w, tf.float32) * b32 + tf.cast(h, tf.float32) * a32
        m2 = m2 + tf.cast(bw, tf.float64) / 2.0 - w / 2.0
        m5 = m5 + tf.cast(bh, tf.float64) / 2.0 - h / 2.0
        out_w = tf.cast(tf.round(bw), tf.int32)
        out_h = tf.cast(tf.round(bh), tf.int32)
    return warp_affine(image, [alpha, beta, m2, -beta, alpha, m5], out_h, out_w, method, fill)


# ------------------------------------------------------------------------------------ color
def rgb_to_gray(image: tf.Tensor, bgr: bool = False) -> tf.Tensor:
    """OpenCV's RGB/BGR(A) -> gray; uint8 in 14-bit fixed point. Returns HW1."""
    r = image[:, :, 2 if bgr else 0]
    g = image[:, :, 1]
    b = image[:, :, 0 if bgr else 2]
    if image.dtype == tf.uint8:
        y = (tf.cast(r, tf.int32) * _R2Y + tf.cast(g, tf.int32) * _G2Y + tf.cast(b, tf.int32) * _B2Y
             + (1 << (_GRAY_BITS - 1)))
        return tf.cast(tf.bitwise.right_shift(y, _GRAY_BITS), tf.uint8)[:, :, None]
    work = work_dtype(image.dtype)
    y = (tf.cast(r, work) * _R2Y_F + tf.cast(g, work) * _G2Y_F + tf.cast(b, work) * _B2Y_F)
    return saturate(y, image.dtype)[:, :, None]


def _blend(image: tf.Tensor, other: tf.Tensor, alpha) -> tf.Tensor:
    """``saturate(image * alpha + other * (1 - alpha))`` (OpenCV's addWeighted, float32 math)."""
    work = work_dtype(image.dtype)
    alpha = tf.cast(alpha, work)
    out = tf.cast(image, work) * alpha + tf.cast(other, work) * (1.0 - alpha)
    return saturate(out, image.dtype)


def adjust_brightness(image: tf.Tensor, factor) -> tf.Tensor:
    """``saturate(image * factor)`` (OpenCV's ``convertTo`` with a scale)."""
    work = work_dtype(image.dtype)
    return saturate(tf.cast(image, work) * tf.cast(factor, work), image.dtype)


def adjust_contrast(image: tf.Tensor, factor) -> tf.Tensor:
    """Blend with the mean of the grayscale image (rounded to the image dtype)."""
    gray = rgb_to_gray(image)
    mean = tf.reduce_mean(tf.cast(gray, tf.float64))
    mean = saturate(mean, image.dtype)
    return _blend(image, tf.fill(tf.shape(image), mean), factor)


def adjust_saturation(image: tf.Tensor, factor) -> tf.Tensor:
    """Blend with the grayscale image."""
    gray = rgb_to_gray(image)
    return _blend(image, tf.broadcast_to(gray, tf.shape(image)), factor)


def _rgb_to_hsv_full_u8(image: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """OpenCV's ``COLOR_RGB2HSV_FULL`` for uint8 (12-bit fixed point, hue in [0, 256))."""
    shift = 12
    rgb = tf.cast(image, tf.int32)
    r, g, b = rgb[:, :, 0], rgb[:, :, 1], rgb[:, :, 2]
    v = tf.maximum(tf.maximum(r, g), b)
    vmin = tf.minimum(tf.minimum(r, g), b)
    diff = v - vmin
    # sdiv_table[i] = round((255 << 12) / i), hdiv_table[i] = round((256 << 12) / (6 i)); index 0 -> 0
    v_f = tf.cast(v, tf.float64)
    d_f = tf.cast(diff, tf.float64)
    sdiv = tf.where(v > 0, tf.cast(tf.round((255.0 * (1 << shift)) / tf.maximum(v_f, 1.0)), tf.int32), 0)
    hdiv = tf.where(diff > 0, tf.cast(tf.round((256.0 * (1 << shift)) / (6.0 * tf.maximum(d_f, 1.0))), tf.int32), 0)
    s = tf.bitwise.right_shift(diff * sdiv + (1 << (shift - 1)), shift)
    vr = tf.equal(v, r)
    vg = tf.equal(v, g)
    h = tf.where(vr, g - b, tf.where(vg, b - r + 2 * diff, r - g + 4 * diff))
    h = tf.bitwise.right_shift(h * hdiv + (1 << (shift - 1)), shift)
    h = tf.where(h < 0, h + 256, h)
    h = tf.clip_by_value(h, 0, 255)
    return h, s, v


def _hsv_full_to_rgb_u8(h: tf.Tensor, s: tf.Tensor, v: tf.Tensor) -> tf.Tensor:
    """OpenCV's ``COLOR_HSV2RGB_FULL`` for uint8 (float math; OpenCV scales the hue by 6/255 here)."""
    hf = tf.cast(h, tf.float32) * (6.0 / 255.0)
    sf = tf.cast(s, tf.float32) * (1.0 / 255.0)
    vf = tf.cast(v, tf.float32) * (1.0 / 255.0)
    hf = tf.where(hf >= 6.0, hf - 6.0, hf)
    sector = tf.floor(hf)
    frac = hf - sector
    sector = tf.cast(sector, tf.int32)
    t0 = vf
    t1 = vf * (1.0 - sf)
    t2 = vf * (1.0 - sf * frac)
    t3 = vf * (1.0 - sf * (1.0 - frac))
    tab = tf.stack([t0, t1, t2, t3], axis=-1)
    # sector_data rows give the tab index of (b, g, r)
    sector_data = tf.constant([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]], tf.int32)
    sel = tf.gather(sector_data, tf.clip_by_value(sector, 0, 5))
    bgr = tf.gather(tab, sel, batch_dims=2)
    bgr = tf.where(tf.equal(s, 0)[:, :, None], tf.stack([vf, vf, vf], axis=-1), bgr)
    rgb = bgr[:, :, ::-1] * 255.0
    return saturate(rgb, tf.uint8)


def adjust_hue(image: tf.Tensor, factor) -> tf.Tensor:
    """Shift the hue by ``factor`` turns (in [-0.5, 0.5]).

    uint8 images go through OpenCV's 8-bit HSV_FULL round trip (hue shifted by
    ``uint8(factor * 255)`` with wrap-around), as MindSpore does; float images use
    ``tf.image.adjust_hue``.
    """
    if image.dtype == tf.uint8:
        h, s, v = _rgb_to_hsv_full_u8(image[:, :, :3])
        delta = tf.cast(tf.cast(tf.cast(factor, tf.float32) * 255.0, tf.int32), tf.int32)
        h = tf.math.floormod(h + delta, 256)
        rgb = _hsv_full_to_rgb_u8(h, s, v)
        if image.shape[2] is not None and image.shape[2] > 3:
            rgb = tf.concat([rgb, image[:, :, 3:]], axis=2)
        return rgb
    return tf.cast(tf.image.adjust_hue(tf.cast(image, tf.float32), tf.cast(factor, tf.float32)), image.dtype)

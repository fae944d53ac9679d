"""``ops.deformable_conv2d``: modulated deformable convolution (v2) of NCHW data.

Each output position samples its ``kh x kw`` taps at the regular grid position plus a learned
offset, bilinearly (zero outside the image), scales them by a learned mask, and convolves the
samples with the weight.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> x = Tensor(np.ones((1, 3, 6, 6), np.float32))
    >>> w = Tensor(np.ones((2, 3, 3, 3), np.float32))
    >>> off = Tensor(np.zeros((1, 27, 4, 4), np.float32))
    >>> ops.deformable_conv2d(x, w, off, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0)).shape
    (1, 2, 4, 4)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import to_tf

__all__ = ["deformable_conv2d"]

_OP = "deformable_conv2d"


def _int_tuple(arg: str, v: Any, n: int) -> tuple:
    if not isinstance(v, tuple) or len(v) != n or not all(isinstance(e, numbers.Integral) and not isinstance(e, bool)
                                                         for e in v):
        raise TypeError(f"For '{_OP}', the '{arg}' must be a tuple of {n} ints, but got {v!r}.")
    return tuple(int(e) for e in v)


def _bilinear_taps(img: tf.Tensor, ys: tf.Tensor, xs: tf.Tensor) -> tf.Tensor:
    """Sample ``img`` ``(N, G, H, W, Cg)`` at ``(ys, xs)`` ``(N, G, ...)``, zero outside: ``(N, G, ..., Cg)``."""
    shp = tf.shape(img)
    n, g, h, w = shp[0], shp[1], shp[2], shp[3]
    y0, x0 = tf.floor(ys), tf.floor(xs)
    ly, lx = ys - y0, xs - x0
    iy0, ix0 = tf.cast(y0, tf.int32), tf.cast(x0, tf.int32)
    bi = tf.reshape(tf.range(n), [-1, 1] + [1] * (ys.shape.rank - 2)) + tf.zeros_like(iy0)
    gi = tf.reshape(tf.range(g), [1, -1] + [1] * (ys.shape.rank - 2)) + tf.zeros_like(iy0)
    out = 0.0
    for dy, wy in ((0, 1.0 - ly), (1, ly)):
        for dx, wx in ((0, 1.0 - lx), (1, lx)):
            yy, xx = iy0 + dy, ix0 + dx
            inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
            idx = tf.stack([bi, gi, tf.clip_by_value(yy, 0, h - 1), tf.clip_by_value(xx, 0, w - 1)], -1)
            weight = wy * wx * tf.cast(inside, ys.dtype)
            out = out + tf.gather_nd(img, idx) * weight[..., None]
    return out


def deformable_conv2d(x: Any, weight: Any, offsets: Any, kernel_size: tuple, strides: tuple, padding: tuple,
                      bias: Any = None, dilations: tuple = (1, 1, 1, 1), groups: int = 1,
                      deformable_groups: int = 1, modulated: bool = True) -> Tensor:
    """Deformable convolution v2.

    Args:
        x: ``(N, C_in, H, W)`` input.
        weight: ``(C_out, C_in / groups, kh, kw)``.
        offsets: ``(N, 3 * deformable_groups * kh * kw, H_out, W_out)``: the x offsets, then the y
            offsets, then the masks.
        kernel_size: ``(kh, kw)``.
        strides: 4 ints, N and C set to 1.
        padding: ``(top, bottom, left, right)``.
        bias: optional ``(C_out,)``.
        dilations: 4 ints, N and C set to 1.
        groups: convolution groups.
        deformable_groups: offset groups (dividing ``C_in``).
        modulated: True (v2).

    Returns:
        ``(N, C_out, H_out, W_out)`` of ``x``'s dtype.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for inconsistent arguments or shapes.
    """
    kh, kw = _int_tuple("kernel_size", kernel_size, 2)
    st = _int_tuple("strides", strides, 4)
    pad = _int_tuple("padding", padding, 4)
    dil = _int_tuple("dilations", dilations, 4)
    if st[:2] != (1, 1) or dil[:2] != (1, 1):
        raise ValueError(f"For '{_OP}', the N and C dimensions of 'strides' and 'dilations' must be 1, but got "
                         f"{strides} and {dilations}.")
    if not isinstance(modulated, bool):
        raise TypeError(f"For '{_OP}', the 'modulated' must be bool, but got {type(modulated).__name__}.")
    if not modulated:
        raise ValueError(f"For '{_OP}', the 'modulated' must be True (only v2 is supported), but got False.")
    xt = to_tf(x, _OP, "x")
    dt = xt.dtype
    wt = tf.cast(to_tf(weight, _OP, "weight"), tf.float32)
    off = tf.cast(to_tf(offsets, _OP, "offsets"), tf.float32)
    n_, c_in, h_in, w_in = xt.shape.as_list()
    c_out = wt.shape[0]
    dg = int(deformable_groups)
    if c_in is None or c_in % dg or c_in % groups or (c_out is not None and c_out % groups):
        raise ValueError(f"For '{_OP}', the input channels {c_in} must divide by 'deformable_groups' {dg} and "
                         f"'groups' {groups}, and the output channels {c_out} by 'groups'.")
    h_out = (h_in + pad[0] + pad[1] - (kh - 1) * dil[2] - 1) // st[2] + 1
    w_out = (w_in + pad[2] + pad[3] - (kw - 1) * dil[3] - 1) // st[3] + 1
    if off.shape[1] is not None and off.shape[1] != 3 * dg * kh * kw:
        raise ValueError(f"For '{_OP}', the 'offsets' channels must be 3 * deformable_groups * kh * kw = "
                         f"{3 * dg * kh * kw}, but got {off.shape[1]}.")
    off = tf.reshape(off, [-1, 3, dg, kh, kw, h_out, w_out])
    base_y = (tf.range(h_out, dtype=tf.float32) * st[2] - pad[0])[None, :, None] + \
        (tf.range(kh, dtype=tf.float32) * dil[2])[:, None, None]                       # (kh, H_out, 1)
    base_x = (tf.range(w_out, dtype=tf.float32) * st[3] - pad[2])[None, None, :] + \
        (tf.range(kw, dtype=tf.float32) * dil[3])[:, None, None]                       # (kw, 1, W_out)
    ys = base_y[None, None, :, None, :, :] + off[:, 1]                                 # (N, dg, kh, kw, Ho, Wo)
    xs = base_x[None, None, None, :, :, :] + off[:, 0]
    cg = c_in // dg
    img = tf.transpose(tf.reshape(tf.cast(xt, tf.float32), [-1, dg, cg, h_in, w_in]), [0, 1, 3, 4, 2])
    taps = _bilinear_taps(img, ys, xs) * off[:, 2][..., None]                          # (N, dg, kh, kw, Ho, Wo, cg)
    taps = tf.reshape(tf.transpose(taps, [0, 4, 5, 1, 6, 2, 3]), [-1, h_out, w_out, c_in, kh, kw])
    outs = []
    ci, co = c_in // groups, c_out // groups
    for gi in range(groups):
        outs.append(tf.einsum("nhwckl,ockl->nohw", taps[:, :, :, gi * ci:(gi + 1) * ci],
                              wt[gi * co:(gi + 1) * co]))
    y = outs[0] if groups == 1 else tf.concat(outs, axis=1)
    if bias is not None:
        y = y + tf.cast(to_tf(bias, _OP, "bias"), tf.float32)[None, :, None, None]
    return _wrap(tf.cast(y, dt))

"""``mindspore.numpy.pad``: numpy's padding modes on TensorFlow ops.

``constant`` pads with ``tf.pad``; ``edge``, ``wrap``, ``reflect`` and ``symmetric`` gather along
each axis with indices mapped into the array (so pads wider than the axis work as in numpy);
``maximum``, ``minimum`` and ``mean`` pad with a statistic of (a leading part of) each axis;
``linear_ramp`` ramps from the edge value to ``end_values``; ``empty`` pads with zeros.
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as onp
import tensorflow as tf

from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["pad"]

_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "minimum", "reflect", "symmetric", "wrap",
          "empty")


def _per_axis(value: Any, ndim: int, name: str) -> list:
    """numpy's ``((before, after),) * ndim`` broadcasting of pad widths and per-side values."""
    if U.is_tensor(value):
        value = tf.convert_to_tensor(value).numpy().tolist()
    try:
        return onp.broadcast_to(onp.asarray(value), (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"For 'pad', the '{name}' cannot be broadcast to ({ndim}, 2), but got {value!r}.") from None


def _index_map(n: int, before: int, after: int, mode: str) -> onp.ndarray:
    idx = onp.arange(-before, n + after)
    if mode == "edge" or n == 1 and mode in ("reflect", "symmetric"):
        return onp.clip(idx, 0, n - 1)
    if mode == "wrap":
        return idx % n
    if mode == "reflect":
        period = 2 * (n - 1)
        m = idx % period
        return onp.where(m < n, m, period - m)
    period = 2 * n  # symmetric
    m = idx % period
    return onp.where(m < n, m, period - 1 - m)


def _odd_reflect(t: tf.Tensor, n: int, before: int, after: int, axis: int, mode: str) -> tf.Tensor:
    """``reflect_type='odd'``: padded values are ``2 * edge - reflected``, folded as numpy does (pads wider than
    the axis take several folds, each about the edge reached so far)."""
    if n == 1:
        return tf.gather(t, [0] * (before + 1 + after), axis=axis)
    two = tf.cast(2, t.dtype)
    while before > 0 or after > 0:
        cur = t.shape[axis]
        lim = cur - 1 if mode == "reflect" else cur
        lc, rc = min(before, lim), min(after, lim)
        parts = []
        if lc:
            idx = list(range(lc, 0, -1)) if mode == "reflect" else list(range(lc - 1, -1, -1))
            parts.append(two * tf.gather(t, [0], axis=axis) - tf.gather(t, idx, axis=axis))
        parts.append(t)
        if rc:
            idx = list(range(cur - 2, cur - 2 - rc, -1)) if mode == "reflect" else list(range(cur - 1, cur - 1 - rc,
                                                                                               -1))
            parts.append(two * tf.gather(t, [cur - 1], axis=axis) - tf.gather(t, idx, axis=axis))
        t = tf.concat(parts, axis=axis)
        before, after = before - lc, after - rc
    return t


def _stat_pad(t: tf.Tensor, widths: list, stat_length: Any, fn: Callable) -> tf.Tensor:
    ndim = t.shape.rank
    lengths = _per_axis(stat_length, ndim, "stat_length") if stat_length is not None else None
    for ax in range(ndim):
        before, after = widths[ax]
        n = t.shape[ax]
        parts = []
        if before > 0:
            ln = n if lengths is None else max(1, min(int(lengths[ax][0]), n))
            stat = fn(tf.gather(t, tf.range(ln), axis=ax), ax)
            parts.append(tf.repeat(stat, before, axis=ax))
        parts.append(t)
        if after > 0:
            ln = n if lengths is None else max(1, min(int(lengths[ax][1]), n))
            stat = fn(tf.gather(t, tf.range(n - ln, n), axis=ax), ax)
            parts.append(tf.repeat(stat, after, axis=ax))
        t = tf.concat(parts, axis=ax)
    return t


def _mean_keep(x: tf.Tensor, ax: int) -> tf.Tensor:
    m = tf.reduce_mean(tf.cast(x, tf.float32) if not x.dtype.is_floating else x, axis=ax, keepdims=True)
    return tf.cast(tf.round(m), x.dtype) if not x.dtype.is_floating else m


def _linear_ramp(t: tf.Tensor, widths: list, end_values: Any) -> tf.Tensor:
    ndim = t.shape.rank
    ends = _per_axis(end_values, ndim, "end_values")
    for ax in range(ndim):
        before, after = widths[ax]
        n = t.shape[ax]
        parts = []
        shape = [1] * ndim
        if before > 0:
            edge = tf.cast(tf.gather(t, [0], axis=ax), tf.float32)
            shape[ax] = before
            frac = tf.reshape(tf.range(before, dtype=tf.float32) / before, shape)
            ramp = ends[ax][0] + (edge - ends[ax][0]) * frac
            parts.append(tf.cast(ramp, t.dtype))
        parts.append(t)
        if after > 0:
            edge = tf.cast(tf.gather(t, [n - 1], axis=ax), tf.float32)
            shape[ax] = after
            frac = tf.reshape(tf.range(after - 1, -1, -1, dtype=tf.float32) / after, shape)
            ramp = ends[ax][1] + (edge - ends[ax][1]) * frac
            parts.append(tf.cast(ramp, t.dtype))
        t = tf.concat(parts, axis=ax)
    return t


def pad(arr: Any, pad_width: Any, mode: str = "constant", stat_length: Any = None, constant_values: Any = 0,
        end_values: Any = 0, reflect_type: str = "even") -> Tensor:
    """Pads an array.

    Args:
        arr: the array to pad.
        pad_width: ``((before_1, after_1), ...)``, ``(before, after)`` or an int for every axis.
        mode: one of 'constant', 'edge', 'linear_ramp', 'maximum', 'mean', 'minimum', 'reflect',
            'symmetric', 'wrap', 'empty', or a function ``f(vector, pad_tuple, axis, kwargs)``.
        stat_length: for 'maximum', 'mean', 'minimum': how many edge values the statistic covers.
        constant_values: for 'constant': the value(s) per axis side.
        end_values: for 'linear_ramp': the final value(s) per axis side.
        reflect_type: 'even' or 'odd', for 'reflect' and 'symmetric'.

    Returns:
        Tensor.

    Raises:
        TypeError: for a non-int pad width. ValueError: for an unknown mode or a negative pad width.
    """
    t = U.to_tf(arr)
    ndim = t.shape.rank
    widths = _per_axis(pad_width, ndim, "pad_width")
    for w in widths:
        for v in w:
            if not isinstance(v, numbers.Integral) or isinstance(v, bool):
                raise TypeError(f"For 'pad', 'pad_width' must be of integral type, but got {pad_width!r}.")
            if v < 0:
                raise ValueError(f"For 'pad', index can't contain negative values, but got {pad_width!r}.")
    widths = [[int(a), int(b)] for a, b in widths]
    if callable(mode):
        raise NotImplementedError("For 'pad', a function as 'mode' is not supported.")
    if mode not in _MODES:
        raise ValueError(f"For 'pad', the 'mode' should be one of {list(_MODES)}, but got {mode!r}.")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"For 'pad', the 'reflect_type' should be 'even' or 'odd', but got {reflect_type!r}.")
    if mode == "constant":
        vals = _per_axis(constant_values, ndim, "constant_values")
        if all(v == vals[0][0] for w in vals for v in w):
            return Tensor(tf.pad(t, widths, constant_values=tf.cast(vals[0][0], t.dtype)))
        for ax in range(ndim):
            before, after = widths[ax]
            shp = list(U.static_shape(t))
            parts = []
            if before:
                parts.append(tf.fill(shp[:ax] + [before] + shp[ax + 1:], tf.cast(vals[ax][0], t.dtype)))
            parts.append(t)
            if after:
                parts.append(tf.fill(shp[:ax] + [after] + shp[ax + 1:], tf.cast(vals[ax][1], t.dtype)))
            t = tf.concat(parts, axis=ax)
        return Tensor(t)
    if mode == "empty":
        return Tensor(tf.pad(t, widths))
    if mode in ("maximum", "minimum", "mean"):
        fn = {"maximum": lambda x, ax: tf.reduce_max(x, axis=ax, keepdims=True),
              "minimum": lambda x, ax: tf.reduce_min(x, axis=ax, keepdims=True),
              "mean": _mean_keep}[mode]
        return Tensor(_stat_pad(t, widths, stat_length, fn))
    if mode == "linear_ramp":
        return Tensor(_linear_ramp(t, widths, end_values))
    for ax in range(ndim):
        before, after = widths[ax]
        if before == 0 and after == 0:
            continue
        n = t.shape[ax]
        if n == 0:
            raise ValueError(f"For 'pad', can't extend empty axis {ax} using modes other than 'constant' or "
                             "'empty'.")
        if reflect_type == "odd" and mode in ("reflect", "symmetric"):
            t = _odd_reflect(t, n, before, after, ax, mode)
        else:
            t = tf.gather(t, _index_map(n, before, after, mode), axis=ax)
    return Tensor(t)

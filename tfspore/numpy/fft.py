"""``mindspore.numpy.fft``: discrete Fourier transforms on ``tf.signal``.

N-dimensional transforms apply the 1-D transform along each axis in turn. ``norm`` is numpy's:
``'backward'`` (default: no scaling forward, ``1/n`` inverse), ``'ortho'`` (``1/sqrt(n)`` both ways)
or ``'forward'`` (``1/n`` forward). Real inputs are transformed in complex64 (complex128 for float64);
integer inputs are computed in float32.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common.tensor import Tensor
from tfspore.numpy import _utils as U

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]

_NORMS = (None, "backward", "ortho", "forward")
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _check_norm(api: str, norm: Any) -> None:
    if norm not in _NORMS:
        raise ValueError(f"For '{api}', the 'norm' must be one of {list(_NORMS)}, but got {norm!r}.")


def _complex(t: tf.Tensor) -> tf.Tensor:
    if t.dtype.is_complex:
        return t
    if t.dtype == tf.float64:
        return tf.cast(t, tf.complex128)
    return tf.cast(tf.cast(t, tf.float32), tf.complex64)


def _real(t: tf.Tensor) -> tf.Tensor:
    if t.dtype.is_complex:
        raise TypeError(f"the input must be a real tensor, but got {t.dtype.name}.")
    return t if t.dtype in (tf.float32, tf.float64) else tf.cast(t, tf.float32)


def _fit(t: tf.Tensor, n: int | None, axis: int) -> tf.Tensor:
    """Crop or zero-pad ``t`` along ``axis`` to length ``n``."""
    if n is None:
        return t
    if n < 1:
        raise ValueError(f"Invalid number of data points ({n}) specified.")
    size = t.shape[axis]
    if n < size:
        idx = [slice(None)] * t.shape.rank
        idx[axis] = slice(0, n)
        return t[tuple(idx)]
    if n > size:
        pads = [[0, 0]] * t.shape.rank
        pads[axis] = [0, n - size]
        return tf.pad(t, pads)
    return t


def _on_last(fn: Callable, t: tf.Tensor, axis: int) -> tf.Tensor:
    """Apply a last-axis transform ``fn`` along ``axis``."""
    last = t.shape.rank - 1
    if axis == last:
        return fn(t)
    perm = list(range(t.shape.rank))
    perm[axis], perm[last] = last, axis
    return tf.transpose(fn(tf.transpose(t, perm)), perm)


def _scale(t: tf.Tensor, n: int, norm: Any, inverse: bool) -> tf.Tensor:
    """Scaling relative to TF's convention (forward unscaled, inverse 1/n)."""
    norm = norm or "backward"
    if norm == "backward":
        return t
    factor = math.sqrt(n) if norm == "ortho" else float(n)
    real = t.dtype.real_dtype if t.dtype.is_complex else t.dtype
    f = tf.cast(factor if inverse else 1.0 / factor, real)
    return t * tf.cast(f, t.dtype)


def _c2c(t: tf.Tensor, n: int | None, axis: int, norm: Any, inverse: bool) -> tf.Tensor:
    t = _fit(_complex(t), n, axis)
    fn = tf.signal.ifft if inverse else tf.signal.fft
    return _scale(_on_last(fn, t, axis), t.shape[axis], norm, inverse)


def _r2c(t: tf.Tensor, n: int | None, axis: int, norm: Any) -> tf.Tensor:
    t = _fit(_real(t), n, axis)
    length = t.shape[axis]
    res = _on_last(lambda x: tf.signal.rfft(x, [length]), t, axis)
    return _scale(res, length, norm, False)


def _c2r(t: tf.Tensor, n: int | None, axis: int, norm: Any) -> tf.Tensor:
    t = _complex(t)
    out_len = 2 * (t.shape[axis] - 1) if n is None else n
    if out_len < 1:
        raise ValueError(f"Invalid number of data points ({out_len}) specified.")
    t = _fit(t, out_len // 2 + 1, axis)
    return _scale(_on_last(lambda x: tf.signal.irfft(x, [out_len]), t, axis), out_len, norm, True)


def _axes_and_sizes(api: str, t: tf.Tensor, s: Any, axes: Any) -> tuple:
    ndim = t.shape.rank
    if axes is None:
        axes = list(range(ndim - len(s), ndim)) if s is not None else list(range(ndim))
    axes = [U.check_axis_in_range(a, ndim) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]
    if len(set(axes)) != len(axes):
        raise ValueError(f"For '{api}', the 'axes' must not contain duplicates, but got {axes}.")
    if s is not None:
        s = list(s) if isinstance(s, (list, tuple)) else [s]
        if len(s) != len(axes):
            raise ValueError(f"For '{api}', 's' and 'axes' must have the same length, but got {s} and {axes}.")
    else:
        s = [None] * len(axes)
    return axes, s


def _prepared(api: str, a: Any, s: Any, axes: Any, norm: Any) -> tuple:
    """``a`` as a TF tensor, with its checked ``axes`` and the size per axis (None: keep)."""
    _check_norm(api, norm)
    t = U.to_tf(a)
    axes, s = _axes_and_sizes(api, t, s, axes)
    return t, axes, s


def _c2c_axes(t: tf.Tensor, axes: list, sizes: list, norm: Any, inverse: bool) -> tf.Tensor:
    for ax, n in zip(axes, sizes):
        t = _c2c(t, n, ax, norm, inverse)
    return t


def _cn(api: str, a: Any, s: Any, axes: Any, norm: Any, inverse: bool) -> Tensor:
    t, axes, s = _prepared(api, a, s, axes, norm)
    return Tensor(_c2c_axes(_complex(t), axes, s, norm, inverse))


def _rn(api: str, a: Any, s: Any, axes: Any, norm: Any) -> Tensor:
    t, axes, s = _prepared(api, a, s, axes, norm)
    return Tensor(_c2c_axes(_r2c(t, s[-1], axes[-1], norm), axes[:-1], s[:-1], norm, False))


def _irn(api: str, a: Any, s: Any, axes: Any, norm: Any) -> Tensor:
    t, axes, s = _prepared(api, a, s, axes, norm)
    t = _c2c_axes(_complex(t), axes[:-1], s[:-1], norm, True)
    return Tensor(_c2r(t, s[-1], axes[-1], norm))


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-D discrete Fourier transform along ``axis`` (input cropped or zero-padded to ``n``)."""
    return _cn("fft", a, None if n is None else [n], [axis], norm, False)


def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-D inverse discrete Fourier transform."""
    return _cn("ifft", a, None if n is None else [n], [axis], norm, True)


def fft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """2-D discrete Fourier transform."""
    return _cn("fft2", a, s, axes, norm, False)


def ifft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """2-D inverse discrete Fourier transform."""
    return _cn("ifft2", a, s, axes, norm, True)


def fftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None) -> Tensor:
    """N-D discrete Fourier transform (all axes, or the last ``len(s)``, by default)."""
    return _cn("fftn", a, s, axes, norm, False)


def ifftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None) -> Tensor:
    """N-D inverse discrete Fourier transform."""
    return _cn("ifftn", a, s, axes, norm, True)


def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """1-D transform of a real input: the ``n // 2 + 1`` non-negative frequency terms."""
    return _rn("rfft", a, None if n is None else [n], [axis], norm)


def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Inverse of :func:`rfft`: a real output of length ``n`` (default ``2 * (m - 1)``)."""
    return _irn("irfft", a, None if n is None else [n], [axis], norm)


def rfft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """2-D transform of a real input."""
    return _rn("rfft2", a, s, axes, norm)


def irfft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """Inverse of :func:`rfft2`."""
    return _irn("irfft2", a, s, axes, norm)


def rfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None) -> Tensor:
    """N-D transform of a real input (the real transform on the last axis)."""
    return _rn("rfftn", a, s, axes, norm)


def irfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None) -> Tensor:
    """Inverse of :func:`rfftn`."""
    return _irn("irfftn", a, s, axes, norm)


def _conj(a: Any) -> Tensor:
    t = U.to_tf(a)
    return Tensor(tf.math.conj(t) if t.dtype.is_complex else t)


def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Transform of a Hermitian-symmetric signal given by its first half: a real spectrum of length ``n``."""
    _check_norm("hfft", norm)
    return _irn("hfft", _conj(a), None if n is None else [n], [axis], _SWAP[norm])


def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Tensor:
    """Inverse of :func:`hfft` for a real input."""
    _check_norm("ihfft", norm)
    return _conj(_rn("ihfft", a, None if n is None else [n], [axis], _SWAP[norm]))


def hfft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """2-D :func:`hfft`."""
    _check_norm("hfft2", norm)
    return _irn("hfft2", _conj(a), s, axes, _SWAP[norm])


def ihfft2(a: Any, s: Any = None, axes: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """2-D :func:`ihfft`."""
    _check_norm("ihfft2", norm)
    return _conj(_rn("ihfft2", a, s, axes, _SWAP[norm]))


def hfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None) -> Tensor:
    """N-D :func:`hfft`."""
    _check_norm("hfftn", norm)
    return _irn("hfftn", _conj(a), s, axes, _SWAP[norm])


def ihfftn(a: Any, s: Any = None, axes: Any = None, norm: str | None = None) -> Tensor:
    """N-D :func:`ihfft`."""
    _check_norm("ihfftn", norm)
    return _conj(_rn("ihfftn", a, s, axes, _SWAP[norm]))


def _shift(x: Any, axes: Any, inverse: bool) -> Tensor:
    t = U.to_tf(x)
    axes = list(range(t.shape.rank)) if axes is None else [
        U.check_axis_in_range(a, t.shape.rank) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]
    shifts = [(-(t.shape[a] // 2)) if inverse else t.shape[a] // 2 for a in axes]
    return Tensor(tf.roll(t, shifts, axes) if axes else t)


def fftshift(x: Any, axes: Any = None) -> Tensor:
    """Moves the zero-frequency term to the centre."""
    return _shift(x, axes, False)


def ifftshift(x: Any, axes: Any = None) -> Tensor:
    """Inverse of :func:`fftshift`."""
    return _shift(x, axes, True)


def fftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """Sample frequencies of an ``n``-point transform with spacing ``d`` (float32 by default)."""
    validator.check_int(n, "n", "fftfreq")
    k = list(range(0, (n - 1) // 2 + 1)) + list(range(-(n // 2), 0))
    dt = tf.float32 if dtype is None else U.tf_dtype(dtype)
    return Tensor(tf.cast(tf.constant(k, tf.float64) / (n * d), dt))


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """Non-negative sample frequencies of an ``n``-point real transform."""
    validator.check_int(n, "n", "rfftfreq")
    dt = tf.float32 if dtype is None else U.tf_dtype(dtype)
    return Tensor(tf.cast(tf.range(n // 2 + 1, dtype=tf.float64) / (n * d), dt))

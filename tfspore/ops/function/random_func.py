"""Random sampling ops (``ops.uniform``, ``ops.standard_normal``, ``ops.randn``, ...).

The ops are TensorFlow's stateful random ops: after ``tfspore.set_seed(s)`` (which also sets
TensorFlow's global seed) a program draws the same sequence on every run, each call giving new
numbers, eagerly and inside compiled graphs. An explicit ``seed`` is the op-level seed.

Example:
    >>> from tfspore import ops
    >>> ops.rand(2, 3).shape
    (2, 3)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import shape_arg, tf_dtype, to_tf

__all__ = ["uniform", "standard_normal", "normal", "randn", "rand", "randint", "rand_like", "randn_like",
           "randint_like", "bernoulli", "randperm", "multinomial", "shuffle", "gamma", "poisson"]


def _seed(op: str, seed: Any) -> int | None:
    if seed is None:
        return None
    V.check_int(seed, "seed", op)
    return None if seed == 0 else int(seed) % (2**31 - 1)


def _size(op: str, size: tuple) -> Any:
    if len(size) == 1 and isinstance(size[0], (list, tuple, Tensor)):
        size = size[0]
    return shape_arg(op, "size", tuple(size) if not isinstance(size, Tensor) else size)


def uniform(shape: Any, minval: Any, maxval: Any, seed: int | None = None, dtype: Any = mstype.float32) -> Tensor:
    """Uniform samples in ``[minval, maxval)``.

    Args:
        shape: the output shape.
        minval: the lower bound (number or Tensor).
        maxval: the upper bound.
        seed: the op-level seed.
        dtype: float32 / float16 / float64, or int32 / int64 for integers.

    Returns:
        Tensor: the samples.
    """
    dt = tf_dtype(dtype, "uniform")
    shp = shape_arg("uniform", "shape", shape)
    lo = tf.cast(to_tf(minval, "uniform", "minval"), dt)
    hi = tf.cast(to_tf(maxval, "uniform", "maxval"), dt)
    s = _seed("uniform", seed)
    if dt.is_integer:
        return _wrap(tf.random.uniform(shp, tf.reshape(lo, []), tf.reshape(hi, []), dtype=dt, seed=s))
    u = tf.random.uniform(shp, 0, 1, dtype=dt, seed=s)
    return _wrap(lo + u * (hi - lo))


def standard_normal(shape: Any, seed: int | None = None) -> Tensor:
    """float32 samples of the standard normal distribution."""
    return _wrap(tf.random.normal(shape_arg("standard_normal", "shape", shape), seed=_seed("standard_normal", seed)))


def normal(shape: Any, mean: Any, stddev: Any, seed: int | None = None) -> Tensor:
    """Normal samples with ``mean`` and ``stddev`` (broadcast with ``shape``)."""
    m = to_tf(mean, "normal", "mean", tf.float32)
    s = to_tf(stddev, "normal", "stddev", tf.float32)
    z = tf.random.normal(shape_arg("normal", "shape", shape), seed=_seed("normal", seed))
    return _wrap(m + s * z)


def randn(*size: Any, dtype: Any = None, seed: int | None = None) -> Tensor:
    """Standard normal samples of ``size`` (float32 by default)."""
    dt = tf.float32 if dtype is None else tf_dtype(dtype, "randn")
    return _wrap(tf.random.normal(_size("randn", size), dtype=dt, seed=_seed("randn", seed)))


def rand(*size: Any, dtype: Any = None, seed: int | None = None) -> Tensor:
    """Uniform samples in [0, 1) of ``size`` (float32 by default)."""
    dt = tf.float32 if dtype is None else tf_dtype(dtype, "rand")
    return _wrap(tf.random.uniform(_size("rand", size), dtype=dt, seed=_seed("rand", seed)))


def randint(low: int, high: int, size: Any, seed: int | None = None, *, dtype: Any = None) -> Tensor:
    """Uniform integers in ``[low, high)`` (int64 by default)."""
    dt = tf.int64 if dtype is None else tf_dtype(dtype, "randint")
    if isinstance(low, numbers.Integral) and isinstance(high, numbers.Integral) and low >= high:
        raise ValueError(f"For 'randint', the 'low' must be less than 'high', but got low={low}, high={high}.")
    return _wrap(tf.random.uniform(shape_arg("randint", "size", size), low, high, dtype=dt,
                                   seed=_seed("randint", seed)))


def rand_like(input: Any, seed: int | None = None, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Uniform [0, 1) samples shaped like ``input``."""
    t = to_tf(input, "rand_like", "input")
    dt = t.dtype if dtype is None else tf_dtype(dtype, "rand_like")
    return _wrap(tf.random.uniform(tf.shape(t), dtype=dt, seed=_seed("rand_like", seed)))


def randn_like(input: Any, seed: int | None = None, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Standard normal samples shaped like ``input``."""
    t = to_tf(input, "randn_like", "input")
    dt = t.dtype if dtype is None else tf_dtype(dtype, "randn_like")
    return _wrap(tf.random.normal(tf.shape(t), dtype=dt, seed=_seed("randn_like", seed)))


def randint_like(input: Any, low: int, high: int, seed: int | None = None, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Uniform integers in ``[low, high)`` shaped like ``input``."""
    t = to_tf(input, "randint_like", "input")
    dt = t.dtype if dtype is None else tf_dtype(dtype, "randint_like")
    return _wrap(tf.random.uniform(tf.shape(t), low, high, dtype=dt, seed=_seed("randint_like", seed)))


def bernoulli(input: Any, p: Any = 0.5, seed: int | None = None) -> Tensor:  # noqa: A002
    """Bernoulli samples (0 / 1, ``input``'s dtype) with probability ``p``."""
    t = to_tf(input, "bernoulli", "input")
    prob = to_tf(p, "bernoulli", "p", tf.float32)
    u = tf.random.uniform(tf.shape(t), seed=_seed("bernoulli", seed))
    return _wrap(tf.cast(u < prob, t.dtype))


def randperm(n: int, seed: int = 0, offset: int = 0, dtype: Any = mstype.int64) -> Tensor:
    """A random permutation of ``0 .. n - 1``."""
    V.check_non_negative_int(n, "n", "randperm")
    dt = tf_dtype(dtype, "randperm")
    return _wrap(tf.cast(tf.random.shuffle(tf.range(n), seed=_seed("randperm", seed)), dt))


def shuffle(x: Any, seed: int | None = None) -> Tensor:
    """Shuffle ``x`` along its first dimension."""
    return _wrap(tf.random.shuffle(to_tf(x, "shuffle", "x"), seed=_seed("shuffle", seed)))


def multinomial(input: Any, num_samples: int, replacement: bool = True, seed: int | None = None) -> Tensor:  # noqa: A002
    """Draw ``num_samples`` category indices (int64) from the rows of unnormalised probabilities ``input``."""
    t = tf.cast(to_tf(input, "multinomial", "input"), tf.float32)
    squeeze = t.shape.rank == 1
    if squeeze:
        t = t[None]
    logits = tf.math.log(t)
    if replacement:
        out = tf.random.categorical(logits, num_samples, dtype=tf.int64, seed=_seed("multinomial", seed))
    else:
        g = -tf.math.log(-tf.math.log(tf.random.uniform(tf.shape(t), 1e-20, 1.0, seed=_seed("multinomial", seed))))
        out = tf.cast(tf.math.top_k(logits + g, num_samples).indices, tf.int64)
    return _wrap(out[0] if squeeze else out)


def gamma(shape: Any, alpha: Any, beta: Any, seed: int | None = None) -> Tensor:
    """Gamma samples with concentration ``alpha`` and rate ``beta``."""
    a = to_tf(alpha, "gamma", "alpha", tf.float32)
    b = to_tf(beta, "gamma", "beta", tf.float32)
    return _wrap(tf.random.gamma(shape_arg("gamma", "shape", shape), a, b, seed=_seed("gamma", seed)))


def poisson(shape: Any, mean: Any, seed: int | None = None) -> Tensor:
    """Poisson samples with rate ``mean``."""
    m = to_tf(mean, "poisson", "mean", tf.float32)
    return _wrap(tf.random.poisson(shape_arg("poisson", "shape", shape), m, seed=_seed("poisson", seed)))

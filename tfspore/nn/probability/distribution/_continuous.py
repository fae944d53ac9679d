"""The continuous distributions: ``Normal``, ``Uniform`` and ``Exponential``.

Example:
    >>> from tfspore.nn.probability import distribution as msd
    >>> float(msd.Uniform(0.0, 2.0).mean())
    1.0
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.nn.probability.distribution._distribution import Distribution, _np

__all__ = ["Normal", "Uniform", "Exponential"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _check_float_dtype(cls_name: str, dtype: Any) -> None:
    if dtype not in _FLOATS:
        raise TypeError(f"For '{cls_name}', the 'dtype' must be a float type, but got {dtype}.")


def _check_positive(value: Any, what: str) -> None:
    if value is not None and not np.all(_np(value) > 0):
        raise ValueError(f"{what} must be greater than zero.")


def _sample_shape(shape: tuple, *params: tf.Tensor) -> tf.Tensor:
    return tf.concat([tf.constant(shape, tf.int32), tf.shape(params[0])], 0)


class Normal(Distribution):
    """The normal distribution ``N(mean, sd)``.

    Args:
        mean: the default mean (a number or Tensor), or None.
        sd: the default standard deviation (positive), or None.
        seed: the sampling seed.
        dtype: a float dtype.
        name: the name.

    Raises:
        TypeError: for a non-float ``dtype``.
        ValueError: for a non-positive ``sd``.

    Example:
        >>> round(float(Normal(0.0, 1.0).log_prob(0.0)), 5)
        -0.91894
    """

    _repr_labels = {"sd": "standard deviation"}

    def __init__(self, mean: Any = None, sd: Any = None, seed: int | None = None, dtype: Any = mstype.float32,
                 name: str = "Normal") -> None:
        _check_float_dtype(type(self).__name__, dtype)
        self._mean_value, self._sd_value = self._init_parameters(seed, dtype, name, dict(locals()), mean=mean, sd=sd)
        _check_positive(self._sd_value, "Standard deviation")

    def _mean_tf(self, mean: Any = None, sd: Any = None) -> tf.Tensor:
        return self._dist_params(mean, sd)[0]

    _mode_tf = _mean_tf

    def _sd_tf(self, mean: Any = None, sd: Any = None) -> tf.Tensor:
        return self._dist_params(mean, sd)[1]

    def _entropy_tf(self, mean: Any = None, sd: Any = None) -> tf.Tensor:
        _, s = self._dist_params(mean, sd)
        return tf.math.log(math.sqrt(2.0 * math.pi * math.e) * s)

    def _log_prob_tf(self, value: Any, mean: Any = None, sd: Any = None) -> tf.Tensor:
        m, s = self._dist_params(mean, sd)
        x = self._value(value)
        return -0.5 * math.log(2.0 * math.pi) - tf.math.log(s) - tf.square(x - m) / (2.0 * tf.square(s))

    def _cdf_tf(self, value: Any, mean: Any = None, sd: Any = None) -> tf.Tensor:
        m, s = self._dist_params(mean, sd)
        return 0.5 * (1.0 + tf.math.erf((self._value(value) - m) / (s * math.sqrt(2.0))))

    def _kl_tf(self, mean_b: Any, sd_b: Any, mean: Any = None, sd: Any = None) -> tf.Tensor:
        m_a, s_a = self._dist_params(mean, sd)
        m_b, s_b = self._value(mean_b), self._value(sd_b)
        return tf.math.log(s_b / s_a) + (tf.square(s_a) + tf.square(m_a - m_b)) / (2.0 * tf.square(s_b)) - 0.5

    def _sample_tf(self, shape: tuple = (), mean: Any = None, sd: Any = None) -> tf.Tensor:
        m, s = self._dist_params(mean, sd)
        z = tf.random.normal(_sample_shape(shape, m), dtype=m.dtype, seed=self._seed_arg())
        return tf.cast(m + s * z, self.dtype.tf_dtype)


class Uniform(Distribution):
    """The continuous uniform distribution on ``[low, high)``.

    Args:
        low: the default lower bound, or None.
        high: the default upper bound (greater than ``low``), or None.
        seed: the sampling seed.
        dtype: a float dtype.
        name: the name.

    Raises:
        TypeError: for a non-float ``dtype``.
        ValueError: when ``low >= high``.

    Example:
        >>> float(Uniform(0.0, 4.0).prob(1.0))
        0.25
    """

    def __init__(self, low: Any = None, high: Any = None, seed: int | None = None, dtype: Any = mstype.float32,
                 name: str = "Uniform") -> None:
        _check_float_dtype(type(self).__name__, dtype)
        self._low, self._high = self._init_parameters(seed, dtype, name, dict(locals()), low=low, high=high)
        if self._low is not None and self._high is not None and not np.all(_np(self._low) < _np(self._high)):
            raise ValueError("low must be less than high.")

    @property
    def low(self) -> Any:
        """The default lower bound."""
        return self._low

    @property
    def high(self) -> Any:
        """The default upper bound."""
        return self._high

    def _mean_tf(self, low: Any = None, high: Any = None) -> tf.Tensor:
        lo, hi = self._dist_params(low, high)
        return (lo + hi) / 2.0

    def _var_tf(self, low: Any = None, high: Any = None) -> tf.Tensor:
        lo, hi = self._dist_params(low, high)
        return tf.square(hi - lo) / 12.0

    def _entropy_tf(self, low: Any = None, high: Any = None) -> tf.Tensor:
        lo, hi = self._dist_params(low, high)
        return tf.math.log(hi - lo)

    def _prob_tf(self, value: Any, low: Any = None, high: Any = None) -> tf.Tensor:
        lo, hi = self._dist_params(low, high)
        x = self._value(value)
        inside = tf.logical_and(x >= lo, x <= hi)
        return tf.where(inside, 1.0 / (hi - lo), tf.zeros_like(x + lo))

    def _cdf_tf(self, value: Any, low: Any = None, high: Any = None) -> tf.Tensor:
        lo, hi = self._dist_params(low, high)
        return tf.clip_by_value((self._value(value) - lo) / (hi - lo), 0.0, 1.0)

    def _kl_tf(self, low_b: Any, high_b: Any, low: Any = None, high: Any = None) -> tf.Tensor:
        lo_a, hi_a = self._dist_params(low, high)
        lo_b, hi_b = self._value(low_b), self._value(high_b)
        inside = tf.logical_and(lo_b <= lo_a, hi_a <= hi_b)
        kl = tf.math.log(hi_b - lo_b) - tf.math.log(hi_a - lo_a)
        return tf.where(inside, kl, tf.fill(tf.shape(kl), tf.constant(np.inf, kl.dtype)))

    def _sample_tf(self, shape: tuple = (), low: Any = None, high: Any = None) -> tf.Tensor:
        lo, hi = self._dist_params(low, high)
        u = tf.random.uniform(_sample_shape(shape, lo), dtype=lo.dtype, seed=self._seed_arg())
        return tf.cast(lo + (hi - lo) * u, self.dtype.tf_dtype)


class Exponential(Distribution):
    """The exponential distribution of rate ``rate``.

    Args:
        rate: the default rate (positive), or None.
        seed: the sampling seed.
        dtype: a float dtype.
        name: the name.

    Raises:
        TypeError: for a non-float ``dtype``.
        ValueError: for a non-positive ``rate``.

    Example:
        >>> float(Exponential(2.0).mean())
        0.5
    """

    def __init__(self, rate: Any = None, seed: int | None = None, dtype: Any = mstype.float32,
                 name: str = "Exponential") -> None:
        _check_float_dtype(type(self).__name__, dtype)
        [self._rate] = self._init_parameters(seed, dtype, name, dict(locals()), rate=rate)
        _check_positive(self._rate, "rate")

    @property
    def rate(self) -> Any:
        """The default rate."""
        return self._rate

    def _mean_tf(self, rate: Any = None) -> tf.Tensor:
        return 1.0 / self._dist_params(rate)[0]

    def _mode_tf(self, rate: Any = None) -> tf.Tensor:
        return tf.zeros_like(self._dist_params(rate)[0])

    def _sd_tf(self, rate: Any = None) -> tf.Tensor:
        return 1.0 / self._dist_params(rate)[0]

    def _entropy_tf(self, rate: Any = None) -> tf.Tensor:
        return 1.0 - tf.math.log(self._dist_params(rate)[0])

    def _log_prob_tf(self, value: Any, rate: Any = None) -> tf.Tensor:
        r = self._dist_params(rate)[0]
        x = self._value(value)
        return tf.where(x >= 0, tf.math.log(r) - r * x, tf.fill(tf.shape(x * r), tf.constant(-np.inf, r.dtype)))

    def _cdf_tf(self, value: Any, rate: Any = None) -> tf.Tensor:
        r = self._dist_params(rate)[0]
        x = self._value(value)
        return tf.where(x >= 0, -tf.math.expm1(-r * x), tf.zeros_like(x * r))

    def _kl_tf(self, rate_b: Any, rate: Any = None) -> tf.Tensor:
        r_a, r_b = self._dist_params(rate)[0], self._value(rate_b)
        return tf.math.log(r_a) - tf.math.log(r_b) + r_b / r_a - 1.0

    def _sample_tf(self, shape: tuple = (), rate: Any = None) -> tf.Tensor:
        r = self._dist_params(rate)[0]
        u = tf.random.uniform(_sample_shape(shape, r), minval=np.finfo(np.float32).tiny, dtype=r.dtype,
                              seed=self._seed_arg())
        return tf.cast(-tf.math.log(u) / r, self.dtype.tf_dtype)

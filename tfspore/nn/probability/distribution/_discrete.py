"""The discrete distributions: ``Bernoulli`` and ``Categorical``.

Example:
    >>> from tfspore.nn.probability import distribution as msd
    >>> float(msd.Bernoulli(0.3).prob(1))
    0.3
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.nn.probability.distribution._distribution import Distribution, _np

__all__ = ["Bernoulli", "Categorical"]


def _check_number_dtype(cls_name: str, dtype: Any) -> None:
    if dtype == mstype.bool_ or dtype not in mstype.number_type:
        raise TypeError(f"For '{cls_name}', the 'dtype' must be a number type, but got {dtype}.")


def _check_prob(value: Any) -> None:
    if value is not None and not np.all((_np(value) >= 0) & (_np(value) <= 1)):
        raise ValueError("Probabilities must be within [0, 1].")


def _xlogy(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
    return tf.math.xlogy(x, y)


class Bernoulli(Distribution):
    """The Bernoulli distribution: 1 with probability ``probs``, else 0.

    Args:
        probs: the default probability of 1, or None.
        seed: the sampling seed.
        dtype: the dtype of samples (int32 by default).
        name: the name.

    Raises:
        TypeError: for a non-number ``dtype``.
        ValueError: for probabilities outside [0, 1].

    Example:
        >>> float(Bernoulli(0.25).var())
        0.1875
    """

    def __init__(self, probs: Any = None, seed: int | None = None, dtype: Any = mstype.int32,
                 name: str = "Bernoulli") -> None:
        _check_number_dtype(type(self).__name__, dtype)
        [self._probs] = self._init_parameters(seed, dtype, name, dict(locals()), probs=probs)
        _check_prob(self._probs)

    @property
    def probs(self) -> Any:
        """The default probability of 1."""
        return self._probs

    def _mean_tf(self, probs1: Any = None) -> tf.Tensor:
        return self._dist_params(probs1)[0]

    def _mode_tf(self, probs1: Any = None) -> tf.Tensor:
        p = self._dist_params(probs1)[0]
        return tf.cast(p > 0.5, self.dtype.tf_dtype)

    def _var_tf(self, probs1: Any = None) -> tf.Tensor:
        p = self._dist_params(probs1)[0]
        return p * (1.0 - p)

    def _entropy_tf(self, probs1: Any = None) -> tf.Tensor:
        p = self._dist_params(probs1)[0]
        return -(_xlogy(p, p) + _xlogy(1.0 - p, 1.0 - p))

    def _log_prob_tf(self, value: Any, probs1: Any = None) -> tf.Tensor:
        p = self._dist_params(probs1)[0]
        x = self._value(value)
        return _xlogy(x, p) + _xlogy(1.0 - x, 1.0 - p)

    def _cdf_tf(self, value: Any, probs1: Any = None) -> tf.Tensor:
        p = self._dist_params(probs1)[0]
        x = self._value(value)
        return tf.where(x < 0, tf.zeros_like(x * p), tf.where(x < 1, 1.0 - p + 0 * x, tf.ones_like(x * p)))

    def _kl_tf(self, probs1_b: Any, probs1: Any = None) -> tf.Tensor:
        p_a, p_b = self._dist_params(probs1)[0], self._value(probs1_b)
        return (_xlogy(p_a, p_a) - _xlogy(p_a, p_b) + _xlogy(1.0 - p_a, 1.0 - p_a)
                - _xlogy(1.0 - p_a, 1.0 - p_b))

    def _sample_tf(self, shape: tuple = (), probs1: Any = None) -> tf.Tensor:
        p = self._dist_params(probs1)[0]
        size = tf.concat([tf.constant(shape, tf.int32), tf.shape(p)], 0)
        u = tf.random.uniform(size, dtype=p.dtype, seed=self._seed_arg())
        return tf.cast(u < p, self.dtype.tf_dtype)


class Categorical(Distribution):
    """The categorical distribution over ``K`` classes given by the last axis of ``probs``.

    The probabilities are used relative to their sum (an unnormalized mask works for ``mode`` and
    ``sample``, as in MindSpore's zoo scripts).

    Args:
        probs: the default probabilities ``(..., K)``, or None.
        seed: the sampling seed.
        dtype: the dtype of samples (int32 by default).
        name: the name.

    Raises:
        TypeError: for a non-number ``dtype``.
        ValueError: for probabilities outside [0, 1], of rank 0, or not summing to 1.

    Example:
        >>> int(Categorical([0.2, 0.5, 0.3]).mode())
        1
    """

    def __init__(self, probs: Any = None, seed: int | None = None, dtype: Any = mstype.int32,
                 name: str = "Categorical") -> None:
        _check_number_dtype(type(self).__name__, dtype)
        [self._probs] = self._init_parameters(seed, dtype, name, dict(locals()), probs=probs)
        if self._probs is not None:
            arr = _np(self._probs)
            if arr.ndim == 0:
                raise ValueError("probs for Categorical distribution must have rank >= 1.")
            _check_prob(arr)
            if not np.allclose(arr.sum(-1), 1.0, atol=1e-6):
                raise ValueError("probs for Categorical distribution must sum to one.")
            self._is_scalar_batch = arr.ndim == 1
            self._broadcast_shape = tuple(arr.shape[:-1])

    @property
    def probs(self) -> Any:
        """The default probabilities."""
        return self._probs

    def _normalized(self, probs: Any) -> tf.Tensor:
        p = self._dist_params(probs)[0]
        return p / tf.reduce_sum(p, -1, keepdims=True)

    def _mean_tf(self, probs: Any = None) -> tf.Tensor:
        p = self._normalized(probs)
        return tf.reduce_sum(p * tf.range(tf.shape(p)[-1], dtype=p.dtype), -1)

    def _var_tf(self, probs: Any = None) -> tf.Tensor:
        p = self._normalized(probs)
        k = tf.range(tf.shape(p)[-1], dtype=p.dtype)
        mean = tf.reduce_sum(p * k, -1, keepdims=True)
        return tf.reduce_sum(p * tf.square(k - mean), -1)

    def _mode_tf(self, probs: Any = None) -> tf.Tensor:
        return tf.cast(tf.argmax(self._dist_params(probs)[0], axis=-1), self.dtype.tf_dtype)

    def _entropy_tf(self, probs: Any = None) -> tf.Tensor:
        p = self._normalized(probs)
        return -tf.reduce_sum(_xlogy(p, p), -1)

    def _log_prob_tf(self, value: Any, probs: Any = None) -> tf.Tensor:
        p = self._normalized(probs)
        k = tf.shape(p)[-1]
        idx = tf.cast(self._value(value), tf.int32)
        shape = tf.broadcast_dynamic_shape(tf.shape(idx), tf.shape(p)[:-1])
        pb = tf.broadcast_to(p, tf.concat([shape, [k]], 0))
        inside = tf.logical_and(idx >= 0, idx < k)
        picked = tf.gather(pb, tf.broadcast_to(tf.clip_by_value(idx, 0, k - 1), shape), axis=-1,
                           batch_dims=len(pb.shape) - 1)
        return tf.where(tf.broadcast_to(inside, shape), tf.math.log(picked),
                        tf.fill(shape, tf.constant(-np.inf, p.dtype)))

    def _cdf_tf(self, value: Any, probs: Any = None) -> tf.Tensor:
        p = self._normalized(probs)
        x = tf.floor(self._value(value))
        k = tf.range(tf.shape(p)[-1], dtype=p.dtype)
        return tf.reduce_sum(tf.where(k <= x[..., None], p, tf.zeros_like(p)), -1)

    def _kl_tf(self, probs_b: Any, probs: Any = None) -> tf.Tensor:
        p_a = self._normalized(probs)
        p_b = self._value(probs_b)
        p_b = p_b / tf.reduce_sum(p_b, -1, keepdims=True)
        return tf.reduce_sum(_xlogy(p_a, p_a) - _xlogy(p_a, p_b), -1)

    def _sample_tf(self, shape: tuple = (), probs: Any = None) -> tf.Tensor:
        p = self._dist_params(probs)[0]
        batch = tf.shape(p)[:-1]
        logits = tf.math.log(tf.reshape(p, [-1, tf.shape(p)[-1]]))
        count = int(np.prod(shape)) if shape else 1
        draws = tf.random.categorical(logits, count, seed=self._seed_arg())  # (batch, count)
        out = tf.reshape(tf.transpose(draws), tf.concat([tf.constant(shape, tf.int32), batch], 0))
        return tf.cast(out, self.dtype.tf_dtype)

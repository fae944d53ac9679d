"""Random primitives: ``UniformReal``, ``StandardNormal``, ``UniformInt``, ``RandomCategorical``.

Example:
    >>> from tfspore import ops
    >>> ops.UniformReal(seed=2)((2, 3)).shape
    (2, 3)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import shape_arg, tf_dtype, to_tf
from tfspore.ops.primitive import Primitive, prim_attr_register

__all__ = ["UniformReal", "StandardNormal", "UniformInt", "RandomCategorical", "Multinomial", "Gamma", "Poisson",
           "RandomChoiceWithMask"]


class _Random(Primitive):
    @prim_attr_register
    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        V.check_non_negative_int(seed, "seed", self.name)
        V.check_non_negative_int(seed2, "seed2", self.name)

    def _seed(self) -> int | None:
        if not self.seed and not self.seed2:
            return None
        return (self.seed * 1000003 + self.seed2) % (2**31 - 1)


class UniformReal(_Random):
    """float32 samples uniform in [0, 1): ``UniformReal(seed, seed2)(shape)``.

    Args:
        seed: the op seed (0: none).
        seed2: a second seed.
    """

    def __call__(self, shape: Any) -> Tensor:
        return _wrap(tf.random.uniform(shape_arg(self.name, "shape", shape), seed=self._seed()))


class StandardNormal(_Random):
    """float32 standard normal samples: ``StandardNormal(seed, seed2)(shape)``.

    Args:
        seed: the op seed (0: none).
        seed2: a second seed.
    """

    def __call__(self, shape: Any) -> Tensor:
        return _wrap(tf.random.normal(shape_arg(self.name, "shape", shape), seed=self._seed()))


class UniformInt(_Random):
    """int32 samples uniform in ``[minval, maxval)``: ``UniformInt(seed, seed2)(shape, minval, maxval)``.

    Args:
        seed: the op seed (0: none).
        seed2: a second seed.
    """

    def __call__(self, shape: Any, minval: Any, maxval: Any) -> Tensor:
        lo = tf.reshape(to_tf(minval, self.name, "minval", tf.int32), [])
        hi = tf.reshape(to_tf(maxval, self.name, "maxval", tf.int32), [])
        return _wrap(tf.random.uniform(shape_arg(self.name, "shape", shape), lo, hi, tf.int32, seed=self._seed()))


class Gamma(_Random):
    """Gamma samples: ``Gamma(seed, seed2)(shape, alpha, beta)``."""

    def __call__(self, shape: Any, alpha: Any, beta: Any) -> Tensor:
        a = to_tf(alpha, self.name, "alpha", tf.float32)
        b = to_tf(beta, self.name, "beta", tf.float32)
        return _wrap(tf.random.gamma(shape_arg(self.name, "shape", shape), a, b, seed=self._seed()))


class Poisson(_Random):
    """Poisson samples (int32): ``Poisson(seed, seed2)(shape, mean)``."""

    def __call__(self, shape: Any, mean: Any) -> Tensor:
        m = to_tf(mean, self.name, "mean", tf.float32)
        out = tf.random.poisson(shape_arg(self.name, "shape", shape), m, seed=self._seed())
        return _wrap(tf.cast(out, tf.int32))


class RandomCategorical(Primitive):
    """Sample category indices from logits: ``RandomCategorical(dtype)(logits, num_samples, seed)``.

    Args:
        dtype: int16, int32 or int64.
    """

    @prim_attr_register
    def __init__(self, dtype: Any = mstype.int64) -> None:
        tf_dtype(dtype, "RandomCategorical")

    def __call__(self, logits: Any, num_sample: int, seed: int = 0) -> Tensor:
        lg = to_tf(logits, self.name, "logits")
        out = tf.random.categorical(lg, num_sample, seed=seed or None)
        return _wrap(tf.cast(out, tf_dtype(self.dtype, self.name)))


class Multinomial(_Random):
    """Sample category indices (int32) from rows of probabilities: ``Multinomial(seed, seed2)(x, num_samples)``."""

    def __call__(self, x: Any, num_samples: int) -> Tensor:
        t = to_tf(x, self.name, "x", tf.float32)
        squeeze = t.shape.rank == 1
        if squeeze:
            t = t[None]
        out = tf.random.categorical(tf.math.log(t), num_samples, dtype=tf.int32, seed=self._seed())
        return _wrap(out[0] if squeeze else out)


class RandomChoiceWithMask(Primitive):
    """Randomly choose up to ``count`` indices of True entries: returns ``(index, mask)``.

    Args:
        count: the number of indices.
        seed: the op seed.
        seed2: a second seed.
    """

    @prim_attr_register
    def __init__(self, count: int = 256, seed: int = 0, seed2: int = 0) -> None:
        V.check_positive_int(count, "count", "RandomChoiceWithMask")

    def __call__(self, input_x: Any) -> tuple:
        t = tf.cast(to_tf(input_x, self.name, "input_x"), tf.bool)
        idx = tf.random.shuffle(tf.cast(tf.where(t), tf.int32), seed=self.seed or None)[:self.count]
        n = tf.shape(idx)[0]
        pad = self.count - n
        idx = tf.pad(idx, [[0, pad], [0, 0]])
        mask = tf.sequence_mask(n, self.count)
        return _wrap(idx), _wrap(mask)

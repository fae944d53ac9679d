"""Learning-rate schedules: Cells that map the optimizer's ``global_step`` to a learning rate.

An optimizer given a :class:`LearningRateSchedule` as ``learning_rate`` calls it with its
``global_step`` Parameter each step. The values follow MindSpore 2.10's formulas in float32, so a
schedule gives the same numbers as MindSpore's, step by step, eagerly and inside compiled steps.

Example:
    >>> from tfspore import Tensor, nn
    >>> import tfspore as ms
    >>> lr = nn.ExponentialDecayLR(0.1, 0.9, 4)
    >>> print(lr(Tensor(2, ms.int32)))
    0.094868325
"""
from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell

__all__ = ["ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR",
           "WarmUpLR"]


def _step(global_step: Any) -> tf.Tensor:
    """The step as a float32 tensor."""
    return tf.cast(tf.convert_to_tensor(_unwrap_nest(global_step)), tf.float32)


def _int_step(global_step: Any) -> tf.Tensor:
    """The step as an integer tensor (int32 unless it is int64)."""
    t = tf.convert_to_tensor(_unwrap_nest(global_step))
    return t if t.dtype in (tf.int32, tf.int64) else tf.cast(t, tf.int32)


class LearningRateSchedule(Cell):
    """The base class of learning-rate schedules.

    A subclass implements ``construct(global_step)`` and returns the learning rate of that step
    as a float32 Tensor.

    Example:
        >>> class Halving(LearningRateSchedule):
        ...     def construct(self, global_step):
        ...         return 0.1 * 0.5 ** global_step.astype(ms.float32)
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, global_step: Any) -> Tensor:
        """The learning rate of ``global_step``.

        Raises:
            NotImplementedError: in the base class.
        """
        raise NotImplementedError


def _check_inputs(learning_rate: Any, decay_rate: Any, decay_steps: Any, is_stair: Any, cls_name: str) -> None:
    validator.check_positive_int(decay_steps, "decay_steps", cls_name)
    validator.check_positive_float(learning_rate, "learning_rate", cls_name, allow_int=False)
    validator.check_float(learning_rate, "learning_rate", cls_name, allow_int=False)
    validator.check_positive_float(decay_rate, "decay_rate", cls_name, allow_int=False)
    validator.check_float(decay_rate, "decay_rate", cls_name, allow_int=False)
    validator.check_type(is_stair, [bool], "is_stair", cls_name)


class _DecayLR(LearningRateSchedule):
    """The arguments, checks and attributes that the exponential, natural-exponential and inverse-time
    schedules share (MindSpore gives the three the same signature)."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int, is_stair: bool = False) -> None:
        super().__init__()
        _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, self.cls_name)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def _progress(self, global_step: Any) -> tf.Tensor:
        """``step / decay_steps`` in float32, floored with ``is_stair``."""
        p = _step(global_step) / float(self.decay_steps)
        if self.is_stair:
            p = tf.floor(p)
        return p


class ExponentialDecayLR(_DecayLR):
    r"""Exponential decay: ``learning_rate * decay_rate ** p`` with ``p = step / decay_steps``.

    With ``is_stair``, ``p`` is floored.

    Args:
        learning_rate: the initial learning rate, a positive float.
        decay_rate: the decay rate, a positive float.
        decay_steps: the decay period in steps, a positive int.
        is_stair: floor ``p``.

    Inputs:
        global_step: the current step, an int Tensor.

    Outputs:
        The learning rate, a float32 Tensor with the shape of ``global_step``.

    Raises:
        TypeError: when ``learning_rate`` or ``decay_rate`` is not a float, ``decay_steps`` not an
            int, or ``is_stair`` not a bool.
        ValueError: when ``decay_steps`` or a rate is not positive.

    Example:
        >>> lr = nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True)
        >>> print(lr(Tensor(5, ms.int32)))
        0.089999996
    """

    def construct(self, global_step: Any) -> Tensor:
        p = self._progress(global_step)
        return _wrap(self.learning_rate * tf.pow(tf.constant(self.decay_rate, tf.float32), p))


class NaturalExpDecayLR(_DecayLR):
    r"""Natural exponential decay: ``learning_rate * e ** (-decay_rate * p)`` with ``p = step``.

    With ``is_stair``, ``p = floor(step / decay_steps) * decay_steps``.

    Args:
        learning_rate: the initial learning rate, a positive float.
        decay_rate: the decay rate, a positive float.
        decay_steps: the stair period in steps, a positive int.
        is_stair: use stairs of ``decay_steps`` steps.

    Inputs:
        global_step: the current step, an int Tensor.

    Outputs:
        The learning rate, a float32 Tensor.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when ``decay_steps`` or a rate is not positive.

    Example:
        >>> lr = nn.NaturalExpDecayLR(0.1, 0.9, 4, is_stair=True)
        >>> print(lr(Tensor(2, ms.int32)))
        0.1
    """

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int, is_stair: bool = False) -> None:
        super().__init__(learning_rate, decay_rate, decay_steps, is_stair)
        self.math_e = math.e

    def construct(self, global_step: Any) -> Tensor:
        p = _step(global_step)
        if self.is_stair:
            steps = float(self.decay_steps)
            p = tf.math.floordiv(p, steps) * steps
        return _wrap(self.learning_rate * tf.pow(tf.constant(self.math_e, tf.float32), -self.decay_rate * p))


class InverseDecayLR(_DecayLR):
    r"""Inverse-time decay: ``learning_rate / (1 + decay_rate * p)`` with ``p = step / decay_steps``.

    With ``is_stair``, ``p`` is floored.

    Args:
        learning_rate: the initial learning rate, a positive float.
        decay_rate: the decay rate, a positive float.
        decay_steps: the decay period in steps, a positive int.
        is_stair: floor ``p``.

    Inputs:
        global_step: the current step, an int Tensor.

    Outputs:
        The learning rate, a float32 Tensor.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when ``decay_steps`` or a rate is not positive.

    Example:
        >>> lr = nn.InverseDecayLR(0.1, 0.5, 2)
        >>> print(lr(Tensor(2, ms.int32)))
        0.06666667
    """

    def construct(self, global_step: Any) -> Tensor:
        p = self._progress(global_step)
        return _wrap(self.learning_rate / (1.0 + self.decay_rate * p))


class CosineDecayLR(LearningRateSchedule):
    r"""Cosine decay from ``max_lr`` to ``min_lr`` over ``decay_steps`` steps, then ``min_lr``.

    ``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps))``
    (computed, as in MindSpore, as ``1 + sin(pi * (p / decay_steps + 0.5))``).

    Args:
        min_lr: the final learning rate, a float >= 0.
        max_lr: the initial learning rate, a float > ``min_lr``.
        decay_steps: the decay length in steps, a positive int.

    Inputs:
        global_step: the current step, an int Tensor.

    Outputs:
        The learning rate, a float32 Tensor.

    Raises:
        TypeError: when ``min_lr`` or ``max_lr`` is not a float or ``decay_steps`` not an int.
        ValueError: when ``min_lr >= max_lr`` or a value is out of range.

    Example:
        >>> lr = nn.CosineDecayLR(0.01, 0.1, 4)
        >>> print(lr(Tensor(2, ms.int32)))
        0.055
    """

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        if not isinstance(min_lr, float):
            raise TypeError(f"For 'CosineDecayLR', the argument 'min_lr' must be type of float, but got 'min_lr' "
                            f"type: {type(min_lr)}.")
        validator.check_non_negative_float(min_lr, "min_lr", self.cls_name, allow_int=False)
        validator.check_positive_float(max_lr, "max_lr", self.cls_name, allow_int=False)
        validator.check_float(max_lr, "max_lr", self.cls_name, allow_int=False)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        if min_lr >= max_lr:
            raise ValueError(f"For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', but got 'max_lr' "
                             f"value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.math_pi = math.pi
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step: Any) -> Tensor:
        step = _int_step(global_step)
        p = tf.cast(tf.minimum(step, tf.cast(self.decay_steps, step.dtype)), tf.float32)
        return _wrap(self.min_lr + self.delta * (1.0 + tf.sin(self.math_pi * (p / float(self.decay_steps) + 0.5))))


class PolynomialDecayLR(LearningRateSchedule):
    r"""Polynomial decay: ``(lr - end_lr) * (1 - step / decay_steps) ** power + end_lr``.

    Without ``update_decay_steps`` the step is capped at ``decay_steps``; with it, ``decay_steps``
    is multiplied by ``max(ceil(step / decay_steps), 1)``.

    Args:
        learning_rate: the initial learning rate, a positive float.
        end_learning_rate: the final learning rate, a float >= 0.
        decay_steps: the decay length in steps, a positive int.
        power: the polynomial power, a positive float.
        update_decay_steps: restart the decay every ``decay_steps`` steps.

    Inputs:
        global_step: the current step, an int Tensor.

    Outputs:
        The learning rate, a float32 Tensor.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when a value is out of range.

    Example:
        >>> lr = nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)
        >>> print(lr(Tensor(2, ms.int32)))
        0.07363961
    """

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int, power: float,
                 update_decay_steps: bool = False) -> None:
        super().__init__()
        validator.check_positive_float(learning_rate, "learning_rate", allow_int=False)
        validator.check_float(learning_rate, "learning_rate", allow_int=False)
        if not isinstance(end_learning_rate, float):
            raise TypeError(f"For 'PolynomialDecayLR', the argument 'end_learning_rate' must be type of float, but "
                            f"got 'end_learning_rate' type: {type(end_learning_rate)}.")
        validator.check_non_negative_float(end_learning_rate, "end_learning_rate", self.cls_name, allow_int=False)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        validator.check_type(update_decay_steps, [bool], "update_decay_steps", self.cls_name)
        validator.check_positive_float(power, "power", self.cls_name, allow_int=False)
        validator.check_float(power, "power", self.cls_name, allow_int=False)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step: Any) -> Tensor:
        step = _step(global_step)
        decay_steps: Any = float(self.decay_steps)
        if self.update_decay_steps:
            decay_steps = decay_steps * tf.maximum(tf.math.ceil(step / decay_steps), 1.0)
        else:
            step = tf.minimum(step, decay_steps)
        p = step / decay_steps
        return _wrap(self.diff_learning_rate * tf.pow(1.0 - p, self.power) + self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    r"""Linear warm-up: ``learning_rate * min(step, warmup_steps) / warmup_steps``.

    Args:
        learning_rate: the target learning rate, a float >= 0.
        warmup_steps: the warm-up length in steps, a positive int.

    Inputs:
        global_step: the current step, an int Tensor.

    Outputs:
        The learning rate, a float32 Tensor.

    Raises:
        TypeError: when ``learning_rate`` is not a float or ``warmup_steps`` not an int.
        ValueError: when a value is out of range.

    Example:
        >>> lr = nn.WarmUpLR(0.1, 4)
        >>> print(lr(Tensor(2, ms.int32)))
        0.05
    """

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        if not isinstance(learning_rate, float):
            raise TypeError(f"For 'WarmUpLR', the argument 'learning_rate' must be type of float, but got "
                            f"'learning_rate' type: {type(learning_rate)}.")
        validator.check_non_negative_float(learning_rate, "learning_rate", self.cls_name, allow_int=False)
        validator.check_positive_int(warmup_steps, "warmup_steps", self.cls_name)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate

    def construct(self, global_step: Any) -> Tensor:
        step = _int_step(global_step)
        percent = tf.cast(tf.minimum(step, tf.cast(self.warmup_steps, step.dtype)), tf.float32) / float(
            self.warmup_steps)
        return _wrap(self.learning_rate * percent)

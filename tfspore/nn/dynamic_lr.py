"""Dynamic learning rates as lists: item ``i`` is the learning rate of step ``i``.

Each function returns a plain Python list of floats with exactly MindSpore 2.10's values; pass
it as an optimizer's ``learning_rate`` (the optimizer uses item ``global_step`` each step).

Example:
    >>> from tfspore import nn
    >>> nn.piecewise_constant_lr([2, 5], [0.1, 0.05])
    [0.1, 0.1, 0.05, 0.05, 0.05]
"""
from __future__ import annotations

import math
from typing import Sequence

from tfspore._internal import validator

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def piecewise_constant_lr(milestone: Sequence[int], learning_rates: Sequence[float]) -> list[float]:
    """A step-wise constant learning rate: ``learning_rates[i]`` until step ``milestone[i]``.

    Args:
        milestone: increasing positive ints, the end step (exclusive) of each piece.
        learning_rates: one float per milestone.

    Returns:
        A list of ``milestone[-1]`` floats.

    Raises:
        TypeError: when the arguments are not lists/tuples, or items have the wrong type.
        ValueError: when the sizes differ, a milestone is not positive, or the milestones decrease.

    Example:
        >>> piecewise_constant_lr([1, 3], [0.1, 0.01])
        [0.1, 0.01, 0.01]
    """
    validator.check_type(milestone, (tuple, list), "milestone", api="piecewise_constant_lr")
    validator.check_type(learning_rates, (tuple, list), "learning_rates", api="piecewise_constant_lr")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same with the size of "
                         f"'learning_rates', but got 'milestone' size: {len(milestone)}, 'learning_rates' size: "
                         f"{len(learning_rates)}.")
    lr: list[float] = []
    last_item = 0
    for i, item in enumerate(milestone):
        validator.check_positive_int(item, f"milestone[{i}]", api="piecewise_constant_lr")
        validator.check_float(learning_rates[i], f"learning_rates[{i}]", allow_int=False,
                              api="piecewise_constant_lr")
        if item < last_item:
            raise ValueError(f"For 'piecewise_constant_lr', the value of milestone[{i}] must be greater than "
                             f"milestone[{i - 1}], but got milestone[{i}]: {milestone[i]}, milestone[{i - 1}]: "
                             f"{milestone[i - 1]}.")
        lr += [learning_rates[i]] * (item - last_item)
        last_item = item
    return lr


def _check_inputs(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int, decay_epoch: int,
                  is_stair: bool, api: str) -> None:
    validator.check_positive_int(total_step, "total_step", api=api)
    validator.check_positive_int(step_per_epoch, "step_per_epoch", api=api)
    validator.check_positive_int(decay_epoch, "decay_epoch", api=api)
    validator.check_positive_float(learning_rate, "learning_rate", allow_int=False, api=api)
    validator.check_float(learning_rate, "learning_rate", allow_int=False, api=api)
    validator.check_positive_float(decay_rate, "decay_rate", allow_int=False, api=api)
    validator.check_float(decay_rate, "decay_rate", allow_int=False, api=api)
    validator.check_type(is_stair, [bool], "is_stair", api=api)


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    """Exponential decay per epoch: ``lr * decay_rate ** (epoch / decay_epoch)``.

    ``epoch = floor(i / step_per_epoch)``; with ``is_stair`` the exponent is floored.

    Args:
        learning_rate: the initial learning rate, a positive float.
        decay_rate: the decay rate, a positive float.
        total_step: the number of steps (the list length), a positive int.
        step_per_epoch: steps per epoch, a positive int.
        decay_epoch: the decay period in epochs, a positive int.
        is_stair: floor the exponent.

    Returns:
        A list of ``total_step`` floats.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when a value is not positive.

    Example:
        >>> exponential_decay_lr(0.1, 0.9, 4, 1, 2)
        [0.1, 0.09486832980505139, 0.09000000000000001, 0.08538149682454625]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair, "exponential_decay_lr")
    lr = []
    for i in range(total_step):
        if is_stair:
            lr.append(learning_rate * decay_rate ** math.floor(math.floor(i / step_per_epoch) / decay_epoch))
        else:
            lr.append(learning_rate * decay_rate ** (math.floor(i / step_per_epoch) / decay_epoch))
    return lr


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    """Natural exponential decay per epoch: ``lr * e ** (-decay_rate * epoch)``.

    With ``is_stair`` the epoch is rounded down to a multiple of ``decay_epoch``.

    Args:
        learning_rate: the initial learning rate, a positive float.
        decay_rate: the decay rate, a positive float.
        total_step: the number of steps, a positive int.
        step_per_epoch: steps per epoch, a positive int.
        decay_epoch: the stair period in epochs, a positive int.
        is_stair: use stairs.

    Returns:
        A list of ``total_step`` floats.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when a value is not positive.

    Example:
        >>> natural_exp_decay_lr(0.1, 0.9, 2, 1, 2)
        [0.1, 0.04065696597405991]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair, "natural_exp_decay_lr")

    def epoch_of(x: int, y: int) -> int:
        return math.floor(x / y) * y if is_stair else x

    lr = []
    for i in range(total_step):
        lr.append(learning_rate * math.e ** (-decay_rate * epoch_of(math.floor(i / step_per_epoch), decay_epoch)))
    return lr


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                     decay_epoch: int, is_stair: bool = False) -> list[float]:
    """Inverse-time decay per epoch: ``lr / (1 + decay_rate * epoch / decay_epoch)``.

    With ``is_stair`` the ratio ``epoch / decay_epoch`` is floored.

    Args:
        learning_rate: the initial learning rate, a positive float.
        decay_rate: the decay rate, a positive float.
        total_step: the number of steps, a positive int.
        step_per_epoch: steps per epoch, a positive int.
        decay_epoch: the decay period in epochs, a positive int.
        is_stair: floor the ratio.

    Returns:
        A list of ``total_step`` floats.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when a value is not positive.

    Example:
        >>> inverse_decay_lr(0.1, 0.5, 3, 1, 1)
        [0.1, 0.06666666666666667, 0.05]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair, "inverse_decay_lr")
    lr = []
    for i in range(total_step):
        if is_stair:
            lr.append(learning_rate / (1 + decay_rate * math.floor(math.floor(i / step_per_epoch) / decay_epoch)))
        else:
            lr.append(learning_rate / (1 + decay_rate * math.floor(i / step_per_epoch) / decay_epoch))
    return lr


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> list[float]:
    """Cosine decay per epoch from ``max_lr`` to ``min_lr`` over ``decay_epoch`` epochs.

    ``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch))``.

    Args:
        min_lr: the final learning rate, a float >= 0.
        max_lr: the initial learning rate, a float > ``min_lr``.
        total_step: the number of steps, a positive int.
        step_per_epoch: steps per epoch, a positive int.
        decay_epoch: the decay length in epochs, a positive int.

    Returns:
        A list of ``total_step`` floats.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when ``min_lr >= max_lr`` or a value is out of range.

    Example:
        >>> cosine_decay_lr(0.01, 0.1, 3, 1, 2)
        [0.1, 0.05500000000000001, 0.01]
    """
    if not isinstance(min_lr, float):
        raise TypeError(f"For 'cosine_decay_lr', the argument 'min_lr' must be type of float, but got 'min_lr' type: "
                        f"{type(min_lr)}.")
    validator.check_non_negative_float(min_lr, "min_lr", allow_int=False, api="cosine_decay_lr")
    validator.check_positive_float(max_lr, "max_lr", allow_int=False, api="cosine_decay_lr")
    validator.check_float(max_lr, "max_lr", allow_int=False, api="cosine_decay_lr")
    validator.check_positive_int(total_step, "total_step", api="cosine_decay_lr")
    validator.check_positive_int(step_per_epoch, "step_per_epoch", api="cosine_decay_lr")
    validator.check_positive_int(decay_epoch, "decay_epoch", api="cosine_decay_lr")
    if min_lr >= max_lr:
        raise ValueError(f"For 'cosine_decay_lr', the 'max_lr' must be greater than the 'min_lr', but got 'max_lr' "
                         f"value: {max_lr}, 'min_lr' value: {min_lr}.")
    delta = 0.5 * (max_lr - min_lr)
    lr = []
    for i in range(total_step):
        tmp_epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        lr.append(min_lr + delta * (1 + math.cos(math.pi * tmp_epoch / decay_epoch)))
    return lr


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int, step_per_epoch: int,
                        decay_epoch: int, power: float, update_decay_epoch: bool = False) -> list[float]:
    """Polynomial decay per epoch: ``(lr - end_lr) * (1 - epoch / decay_epoch) ** power + end_lr``.

    Without ``update_decay_epoch`` the epoch is capped at ``decay_epoch``; with it, the decay
    length becomes ``decay_epoch * max(ceil(epoch / decay_epoch), 1)``.

    Args:
        learning_rate: the initial learning rate, a positive float.
        end_learning_rate: the final learning rate, a float >= 0.
        total_step: the number of steps, a positive int.
        step_per_epoch: steps per epoch, a positive int.
        decay_epoch: the decay length in epochs, a positive int.
        power: the polynomial power, a positive float.
        update_decay_epoch: restart the decay every ``decay_epoch`` epochs.

    Returns:
        A list of ``total_step`` floats.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when a value is out of range.

    Example:
        >>> polynomial_decay_lr(0.1, 0.01, 3, 1, 2, 0.5)
        [0.1, 0.07363961030678928, 0.01]
    """
    validator.check_positive_float(learning_rate, "learning_rate", allow_int=False, api="polynomial_decay_lr")
    validator.check_float(learning_rate, "learning_rate", allow_int=False, api="polynomial_decay_lr")
    if not isinstance(end_learning_rate, float):
        raise TypeError(f"For 'polynomial_decay_lr', the argument 'end_learning_rate' must be type of float, but got "
                        f"'end_learning_rate' type: {type(end_learning_rate)}.")
    validator.check_non_negative_float(end_learning_rate, "end_learning_rate", allow_int=False,
                                       api="polynomial_decay_lr")
    validator.check_positive_float(power, "power", allow_int=False, api="polynomial_decay_lr")
    validator.check_float(power, "power", allow_int=False, api="polynomial_decay_lr")
    validator.check_positive_int(total_step, "total_step", api="polynomial_decay_lr")
    validator.check_positive_int(step_per_epoch, "step_per_epoch", api="polynomial_decay_lr")
    validator.check_positive_int(decay_epoch, "decay_epoch", api="polynomial_decay_lr")
    validator.check_type(update_decay_epoch, [bool], "update_decay_epoch", api="polynomial_decay_lr")
    origin_decay_epoch = decay_epoch

    def epochs(x: int, y: int) -> tuple[int, int]:
        if update_decay_epoch:
            return origin_decay_epoch * max(math.ceil(y / origin_decay_epoch), 1), y
        return x, min(x, y)

    lr = []
    delta = learning_rate - end_learning_rate
    for i in range(total_step):
        current_epoch = math.floor(i / step_per_epoch)
        decay_epoch, tmp_epoch = epochs(decay_epoch, current_epoch)
        lr.append(delta * (1 - tmp_epoch / decay_epoch) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int, warmup_epoch: int) -> list[float]:
    """Linear warm-up per epoch: ``lr * min(epoch, warmup_epoch) / warmup_epoch``.

    Args:
        learning_rate: the target learning rate, a float >= 0.
        total_step: the number of steps, a positive int.
        step_per_epoch: steps per epoch, a positive int.
        warmup_epoch: the warm-up length in epochs, a positive int.

    Returns:
        A list of ``total_step`` floats.

    Raises:
        TypeError: when an argument has the wrong type.
        ValueError: when a value is out of range.

    Example:
        >>> warmup_lr(0.1, 3, 1, 2)
        [0.0, 0.05, 0.1]
    """
    if not isinstance(learning_rate, float):
        raise TypeError(f"For 'warmup_lr', the argument 'learning_rate' must be type of float, but got "
                        f"'learning_rate' type: {type(learning_rate)}.")
    validator.check_non_negative_float(learning_rate, "learning_rate", allow_int=False, api="warmup_lr")
    validator.check_positive_int(warmup_epoch, "warmup_epoch", api="warmup_lr")
    validator.check_positive_int(total_step, "total_step", api="warmup_lr")
    validator.check_positive_int(step_per_epoch, "step_per_epoch", api="warmup_lr")
    lr = []
    for i in range(total_step):
        current_epoch = math.floor(i / step_per_epoch)
        lr.append(learning_rate * min(warmup_epoch, current_epoch) / warmup_epoch)
    return lr

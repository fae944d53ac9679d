"""``Adagrad``: adaptive sub-gradient steps (MindSpore's ``nn.Adagrad``, its ``ApplyAdagrad`` kernel).

Per parameter: ``accum += g * g`` (with ``update_slots``), then
``param -= lr * g / sqrt(accum + 1e-8)`` (MindSpore's kernel adds the 1e-8 for stability).
``accum.<name>`` starts at the ``accum`` argument.

Example:
    >>> from tfspore import nn
    >>> opt = nn.Adagrad(nn.Dense(3, 2).trainable_params(), accum=0.1, learning_rate=0.01)
    >>> [p.name for p in opt.accum]
    ['accum.weight', 'accum.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["Adagrad"]

_EPS = 1e-8


def _check_param_value(accum: Any, update_slots: Any, prim_name: str | None = None) -> None:
    validator.check_type(accum, [float], "accum", prim_name)
    validator.check_type(update_slots, [bool], "update_slots", prim_name)
    validator.check_non_negative_float(accum, "accum", prim_name, allow_int=False)


def _apply_adagrad(var: tf.Variable, accum: tf.Variable, lr: tf.Tensor, grad: Any, update_slots: bool) -> Any:
    dt = var.dtype
    g = cast_tf(grad, dt)
    ops = []
    if update_slots:
        accum_new = accum + g * g
        ops.append(accum.assign(accum_new, read_value=False))
    else:
        accum_new = tf.convert_to_tensor(accum)
    ops.append(var.assign_sub(cast_tf(lr, dt) * g / tf.sqrt(accum_new + tf.constant(_EPS, dt)), read_value=False))
    return success_flag(ops)


class Adagrad(Optimizer):
    """The Adagrad optimizer (MindSpore's ``nn.Adagrad``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        accum: the initial accumulator value, a float >= 0.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        update_slots: update the accumulator (when False, ``accum`` stays at its initial value).
        loss_scale: gradients are divided by it.
        weight_decay: a number, or a Cell of ``global_step``.

    Inputs:
        grads: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range.

    Example:
        >>> opt = nn.Adagrad(net.trainable_params(), learning_rate=0.01)
    """

    @opt_init_args_register
    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, update_slots: bool = True,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(accum, update_slots, self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.update_slots = update_slots

    def construct(self, grads: Sequence[Any]) -> tuple:
        grads, lr = begin_step(self, grads)
        return apply_each(self, _apply_adagrad, grads, lr, self.accum, update_slots=self.update_slots)

"""``FTRL``: follow-the-regularized-leader (MindSpore's ``nn.FTRL``, its ``ApplyFtrl`` kernel).

Per parameter, with ``p = -lr_power``::

    accum_new = accum + g * g
    linear += g - (accum_new ** p - accum ** p) / lr * param
    param = (sign(linear) * l1 - linear) / (accum_new ** p / lr + 2 * l2)  if |linear| > l1 else 0
    accum = accum_new

``moments.<name>`` (the accumulator) starts at ``initial_accum``, ``linear.<name>`` at zeros.

Example:
    >>> from tfspore import nn
    >>> opt = nn.FTRL(nn.Dense(3, 2).trainable_params(), learning_rate=0.01, l1=0.001)
    >>> [p.name for p in opt.get_parameters()][4:]
    ['moments.weight', 'moments.bias', 'linear.weight', 'linear.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["FTRL"]


def _check_param(initial_accum: Any, learning_rate: Any, lr_power: Any, l1: Any, l2: Any, use_locking: Any,
                 prim_name: str | None = None) -> None:
    validator.check_type(initial_accum, [float], "initial_accum", prim_name)
    validator.check_compare(initial_accum, ">=", 0.0, "initial_accum", prim_name)
    validator.check_type(learning_rate, [float], "learning_rate", prim_name)
    validator.check_positive_float(learning_rate, "learning_rate", prim_name, allow_int=False)
    validator.check_type(lr_power, [float], "lr_power", prim_name)
    validator.check_compare(lr_power, "<=", 0.0, "lr_power", prim_name)
    validator.check_type(l1, [float], "l1", prim_name)
    validator.check_compare(l1, ">=", 0.0, "l1", prim_name)
    validator.check_type(l2, [float], "l2", prim_name)
    validator.check_compare(l2, ">=", 0.0, "l2", prim_name)
    validator.check_type(use_locking, [bool], "use_locking", prim_name)


def _apply_ftrl(var: tf.Variable, accum: tf.Variable, linear: tf.Variable, grad: Any, lr: tf.Tensor, l1: float,
                l2: float, lr_power: float) -> Any:
    dt = var.dtype
    g = cast_tf(grad, dt)
    lr = cast_tf(lr, dt)
    power = tf.constant(-lr_power, dt)
    l1_t, l2_t = tf.constant(l1, dt), tf.constant(l2, dt)
    cur_accum = accum + g * g
    accum_power = tf.pow(tf.convert_to_tensor(accum), power)
    cur_accum_power = tf.pow(cur_accum, power)
    linear_new = linear + g - (cur_accum_power - accum_power) / lr * var
    denominator = cur_accum_power / lr + tf.constant(2.0, dt) * l2_t
    var_new = tf.where(tf.abs(linear_new) > l1_t, (tf.sign(linear_new) * l1_t - linear_new) / denominator,
                       tf.zeros_like(linear_new))
    ops = [linear.assign(linear_new, read_value=False), var.assign(var_new, read_value=False),
           accum.assign(cur_accum, read_value=False)]
    return success_flag(ops)


class FTRL(Optimizer):
    """The FTRL optimizer (MindSpore's ``nn.FTRL``).

    The learning rate must be a fixed float (no schedule, list or group learning rate). Weight
    decay, when set, applies to every parameter (not only those without 'beta'/'gamma').

    Args:
        params: a list of Parameters or of parameter-group dicts (without ``'lr'``).
        initial_accum: the accumulator's initial value, a float >= 0.
        learning_rate: a positive float.
        lr_power: the learning-rate power, a float <= 0.
        l1: the L1 regularization strength, a float >= 0.
        l2: the L2 regularization strength, a float >= 0.
        use_locking: accepted for compatibility.
        loss_scale: gradients are divided by it.
        weight_decay: a number, or a Cell of ``global_step``.

    Inputs:
        grads: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range, or a dynamic or group learning rate.

    Example:
        >>> opt = nn.FTRL(net.trainable_params(), learning_rate=0.01, l1=0.001, l2=0.001)
    """

    @opt_init_args_register
    def __init__(self, params: Any, initial_accum: float = 0.1, learning_rate: Any = 0.001, lr_power: float = -0.5,
                 l1: float = 0.0, l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale=loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are currently not supported "
                             f"in FTRL, they should all be false, but got dynamic learning rate {self.dynamic_lr} and"
                             f" group learning rate {self.is_group_lr}.")
        _check_param(initial_accum, learning_rate, lr_power, l1, l2, use_locking, self.cls_name)
        self.moments = self._parameters.clone(prefix="moments", init=initial_accum)
        self.linear = self._parameters.clone(prefix="linear", init="zeros")
        self.l1 = l1
        self.l2 = l2
        self.lr = learning_rate
        self.lr_power = lr_power
        if not self.is_group:
            self.decay_flags = tuple(True for _ in self._parameters)
        self.use_locking = use_locking

    def construct(self, grads: Sequence[Any]) -> tuple:
        grads, lr = begin_step(self, grads)
        return apply_each(self, _apply_ftrl, grads, lr, self.moments, self.linear, l1=self.l1, l2=self.l2,
                          lr_power=self.lr_power)

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        """Set the device the update runs on ('CPU', 'Ascend' or 'GPU')."""
        if not isinstance(value, str):
            raise TypeError(f"For 'FTRL', the property 'target' must be string type, but got type {type(value)}.")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'FTRL', the property 'target' must be 'CPU', 'Ascend' or 'GPU', but got {value}.")
        self._target = value

"""``Adadelta``: adaptive learning rates from running averages (MindSpore's ``nn.Adadelta``).

Per parameter (MindSpore's ``ApplyAdadelta``)::

    accum = rho * accum + (1 - rho) * g * g
    update = sqrt(accum_update + epsilon) * g / sqrt(accum + epsilon)
    accum_update = rho * accum_update + (1 - rho) * update * update
    param -= lr * update

Example:
    >>> from tfspore import nn
    >>> opt = nn.Adadelta(nn.Dense(3, 2).trainable_params())
    >>> [p.name for p in opt.get_parameters()][4:]
    ['accum.weight', 'accum.bias', 'accum_update.weight', 'accum_update.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.nn.optim._step import apply_each, begin_step, check_grads_tuple
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["Adadelta"]


def _check_param_value(rho: Any, epsilon: Any, prim_name: str | None = None) -> None:
    validator.check_type(rho, [float], "rho", prim_name)
    validator.check_type(epsilon, [float], "epsilon", prim_name)
    validator.check_float_range(rho, "rho", prim_name, 0.0, 1.0, inc_low=True, inc_high=True, allow_int=False)
    validator.check_non_negative_float(epsilon, "epsilon", prim_name, allow_int=False)


def _apply_adadelta(var: tf.Variable, accum: tf.Variable, accum_update: tf.Variable, lr: tf.Tensor, rho: float,
                    epsilon: float, grad: Any) -> Any:
    dt = var.dtype
    g = cast_tf(grad, dt)
    r, e = tf.constant(rho, dt), tf.constant(epsilon, dt)
    one = tf.constant(1.0, dt)
    accum_new = accum * r + g * g * (one - r)
    update = tf.sqrt(accum_update + e) * g / tf.sqrt(accum_new + e)
    accum_update_new = accum_update * r + update * update * (one - r)
    ops = [accum.assign(accum_new, read_value=False), accum_update.assign(accum_update_new, read_value=False),
           var.assign_sub(cast_tf(lr, dt) * update, read_value=False)]
    return success_flag(ops)


class Adadelta(Optimizer):
    """The Adadelta optimizer (MindSpore's ``nn.Adadelta``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        rho: the decay rate, a float in [0, 1].
        epsilon: added for numerical stability, a float >= 0.
        loss_scale: gradients are divided by it.
        weight_decay: a number, or a Cell of ``global_step``.

    Inputs:
        grads: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type, or when ``grads`` is not a tuple of Tensors.
        ValueError: for values out of range.

    Example:
        >>> opt = nn.Adadelta(net.trainable_params(), learning_rate=1.0, rho=0.9)
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1.0, rho: float = 0.9, epsilon: float = 1e-6,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(rho, epsilon, self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)
        self.rho = rho
        self.epsilon = epsilon

    def construct(self, grads: Sequence[Any]) -> tuple:
        check_grads_tuple(grads, "Adadelta", "grads")
        grads, lr = begin_step(self, grads)
        return apply_each(self, _apply_adadelta, grads, lr, self.accum, self.accum_update, rho=self.rho,
                          epsilon=self.epsilon)

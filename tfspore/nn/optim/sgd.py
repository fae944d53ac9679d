"""``SGD``: stochastic gradient descent with optional momentum, dampening and Nesterov.

As MindSpore's ``SGD`` kernel, per parameter (``stat`` starts at 1 and marks the first step):
with ``momentum > 0``, ``accum = grad`` on the first step, else
``accum = momentum * accum + (1 - dampening) * grad``; the update is ``accum`` (Nesterov:
``grad + momentum * accum``); ``param -= lr * update``. The state is ``momentum``,
``accum.<name>`` and ``stat.<name>``.

Example:
    >>> from tfspore import nn
    >>> opt = nn.SGD(nn.Dense(3, 2).trainable_params(), learning_rate=0.1, momentum=0.9)
    >>> [p.name for p in opt.get_parameters()][-2:]
    ['stat.weight', 'stat.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, success_flag, to_tf, opt_init_args_register

__all__ = ["SGD"]


def apply_sgd(var: tf.Variable, accum: tf.Variable, stat: tf.Variable, lr: tf.Tensor, grad: Any,
              momentum: tf.Tensor, dampening: float, nesterov: bool) -> Any:
    """One SGD step of one parameter (the kernel of the module docstring), shared with
    ``tfspore.experimental.optim.SGD``.

    Args:
        var: the parameter's variable.
        accum: its momentum accumulator.
        stat: its first-step marker (1 until the first step with momentum).
        lr: the learning rate.
        grad: the gradient.
        momentum: the momentum factor (no momentum when not above 0).
        dampening: the dampening of the momentum.
        nesterov: use Nesterov momentum.

    Returns:
        MindSpore's success flag (see :func:`~tfspore.nn.optim.optimizer.success_flag`).
    """
    dt = var.dtype
    grad = to_tf(grad)
    grad = tf.cast(grad, dt) if grad.dtype != dt else grad
    lr = tf.cast(lr, dt)
    m = tf.cast(momentum, dt)
    positive = m > 0
    first = stat > 0
    new_accum = tf.where(first, grad, accum * m + tf.cast(1.0 - dampening, dt) * grad)
    new_accum = tf.where(positive, new_accum, accum)
    if nesterov:
        update = tf.where(positive, grad + new_accum * m, grad)
    else:
        update = tf.where(positive, new_accum, grad)
    ops = [accum.assign(new_accum, read_value=False),
           stat.assign(tf.where(positive, tf.zeros_like(stat), stat), read_value=False),
           var.assign_sub(lr * update, read_value=False)]
    return success_flag(ops)


def _as_float(value: Any, name: str) -> float:
    """``value`` as a float (ints are accepted), else MindSpore's TypeError for argument ``name``."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, float):
        raise TypeError(f"For 'SGD', the argument '{name}' must be float type, but got {type(value).__name__}.")
    return value


class SGD(Optimizer):
    """Stochastic gradient descent (MindSpore's ``nn.SGD``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        momentum: a float >= 0.
        dampening: a float >= 0, the dampening of the momentum.
        weight_decay: a non-negative number.
        nesterov: use Nesterov momentum (needs ``momentum > 0`` and ``dampening == 0``).
        loss_scale: gradients are divided by it.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags (True), one per parameter.

    Raises:
        TypeError: when ``momentum``/``dampening`` is not a float, ``nesterov`` not a bool, or the
            weight decay is a Cell.
        ValueError: for negative values or an invalid Nesterov setting.

    Example:
        >>> from tfspore import nn
        >>> nn.SGD(nn.Dense(2, 2).trainable_params())
        SGD()
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: Any = 0.0, nesterov: bool = False, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _as_float(momentum, "momentum")
        if momentum < 0.0:
            raise ValueError(f"For 'SGD', the argument 'momentum' must be at least 0.0, but got {momentum}.")
        dampening = _as_float(dampening, "dampening")
        if dampening < 0.0:
            raise ValueError(f"For 'SGD', the argument 'dampening' must be at least 0.0, but got 'dampening' "
                             f"{dampening}")
        self.dampening = dampening
        validator.check_type(nesterov, [bool], "nesterov", self.cls_name)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal "
                             f"to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}.")
        self.nesterov = nesterov
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' "
                            "or 'weight_decay' set in grouped 'params' must be float or int type.")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.accum = self._parameters.clone(prefix="accum", init="zeros")
        self.stat = self._parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients: Sequence[Any]) -> tuple:
        gradients, lr = begin_step(self, gradients)
        return apply_each(self, apply_sgd, gradients, lr, self.accum, self.stat, momentum=to_tf(self.momentum),
                          dampening=self.dampening, nesterov=self.nesterov)

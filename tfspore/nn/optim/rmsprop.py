"""``RMSProp``: root-mean-square propagation, plain or centered (MindSpore's ``nn.RMSProp``).

Per parameter (MindSpore's ``ApplyRMSProp`` / ``ApplyCenteredRMSProp``)::

    ms = decay * ms + (1 - decay) * g * g
    mg = decay * mg + (1 - decay) * g                               # centered only
    mom = momentum * mom + lr * g / sqrt(ms + epsilon)              # plain
    mom = momentum * mom + lr * g / sqrt(ms - mg * mg + epsilon)    # centered
    param -= mom

``mean_square`` starts at ones, ``moment`` and ``mean_grad`` at zeros.

Example:
    >>> from tfspore import nn
    >>> opt = nn.RMSProp(nn.Dense(3, 2).trainable_params(), centered=True)
    >>> [p.name for p in opt.get_parameters()][4:6]
    ['mean_grad.weight', 'mean_grad.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["RMSProp"]


def _apply_rmsprop(var: tf.Variable, mg: tf.Variable | None, ms: tf.Variable, mom: tf.Variable, lr: tf.Tensor,
                   grad: Any, decay: float, momentum: float, epsilon: float) -> Any:
    dt = var.dtype
    g = cast_tf(grad, dt)
    lr = cast_tf(lr, dt)
    rho, mu, eps = tf.constant(decay, dt), tf.constant(momentum, dt), tf.constant(epsilon, dt)
    one = tf.constant(1.0, dt)
    ms_new = ms * rho + g * g * (one - rho)
    ops = [ms.assign(ms_new, read_value=False)]
    if mg is not None:
        mg_new = mg * rho + g * (one - rho)
        ops.append(mg.assign(mg_new, read_value=False))
        denom = tf.sqrt(ms_new - mg_new * mg_new + eps)
    else:
        denom = tf.sqrt(ms_new + eps)
    mom_new = mom * mu + lr * g / denom
    ops += [mom.assign(mom_new, read_value=False), var.assign_sub(mom_new, read_value=False)]
    return success_flag(ops)


class RMSProp(Optimizer):
    """Root Mean Square Propagation (MindSpore's ``nn.RMSProp``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        decay: the moving-average decay, a float >= 0.
        momentum: the momentum, a float >= 0.
        epsilon: added inside the square root, a positive float.
        use_locking: accepted for compatibility.
        centered: normalise by the centered second moment (keeps ``mean_grad``).
        loss_scale: gradients are divided by it.
        weight_decay: a number, or a Cell of ``global_step``.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range.

    Example:
        >>> opt = nn.RMSProp(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_type(decay, [float], "decay", self.cls_name)
        validator.check_non_negative_float(decay, "decay", self.cls_name, allow_int=False)
        validator.check_type(momentum, [float], "momentum", self.cls_name)
        validator.check_non_negative_float(momentum, "momentum", self.cls_name, allow_int=False)
        validator.check_type(epsilon, [float], "epsilon", self.cls_name)
        validator.check_positive_float(epsilon, "epsilon", self.cls_name, allow_int=False)
        validator.check_type(use_locking, [bool], "use_locking", self.cls_name)
        validator.check_type(centered, [bool], "centered", self.cls_name)
        self.centered = centered
        if centered:
            self.mg = self._parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self._parameters.clone(prefix="mean_square", init="ones")
        self.moment = self._parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay

    def construct(self, gradients: Sequence[Any]) -> tuple:
        gradients, lr = begin_step(self, gradients)
        return apply_each(self, _apply_rmsprop, gradients, lr, self.mg if self.centered else None, self.ms,
                          self.moment, decay=self.decay, momentum=self.momentum, epsilon=self.epsilon)

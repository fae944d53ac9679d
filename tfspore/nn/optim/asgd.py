"""``ASGD``: averaged stochastic gradient descent (MindSpore's ``nn.ASGD``).

Per parameter, with ``t`` the step count (after this step's increment)::

    eta = lr                                        (on the first step)
    param = param * (1 - lambd * eta) - eta * g
    ax = param if mu == 1 else ax + (param - ax) * mu
    eta = lr / (1 + lambd * lr * t) ** alpha
    mu = 1 / max(1, t - t0)

The state Parameters are ``mu_<name>``, ``eta_<name>`` (scalars) and ``ax_.<name>``, as in MindSpore.

Example:
    >>> from tfspore import nn
    >>> opt = nn.ASGD(nn.Dense(3, 2).trainable_params())
    >>> [p.name for p in opt.get_parameters()][4:6]
    ['mu_weight', 'mu_bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter, ParameterTuple
from tfspore.common.tensor import Tensor
from tfspore.nn.optim._step import apply_each, check_grads_tuple
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["ASGD"]


def _apply_asgd(var: tf.Variable, mu: tf.Variable, eta: tf.Variable, ax: tf.Variable, lr: tf.Tensor, grad: Any,
                step: tf.Tensor, lambd: float, alpha: float, t0: float) -> Any:
    lr = tf.reshape(lr, [])
    eta_now = tf.where(tf.equal(step, 1.0), lr, tf.convert_to_tensor(eta))
    new_param = cast_tf(var, tf.float32) * (1.0 - lambd * eta_now) - eta_now * cast_tf(grad, tf.float32)
    mu_now = tf.convert_to_tensor(mu)
    ax_f = cast_tf(ax, tf.float32)
    new_ax = tf.where(tf.not_equal(mu_now, 1.0), ax_f + (new_param - ax_f) * mu_now, new_param)
    ops = [var.assign(cast_tf(new_param, var.dtype), read_value=False),
           ax.assign(cast_tf(new_ax, ax.dtype), read_value=False),
           eta.assign(lr / tf.pow(1.0 + lambd * lr * step, alpha), read_value=False),
           mu.assign(1.0 / tf.maximum(1.0, step - t0), read_value=False)]
    return success_flag(ops)


class ASGD(Optimizer):
    """The averaged SGD optimizer.

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or schedule.
        lambd: the decay term (a float).
        alpha: the power of the eta update (a float).
        t0: the step at which averaging starts (a float).
        weight_decay: a number, or a Cell of ``global_step``.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: when ``lambd``, ``alpha`` or ``t0`` is not a float.

    Example:
        >>> opt = nn.ASGD(net.trainable_params(), learning_rate=0.01)  # doctest: +SKIP
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        validator.check_type(lambd, [float], "lambd", self.cls_name)
        validator.check_type(alpha, [float], "alpha", self.cls_name)
        validator.check_type(t0, [float], "t0", self.cls_name)
        self.lambd, self.alpha, self.t0 = lambd, alpha, t0
        self.mu = ParameterTuple([Parameter(Tensor(1.0, mstype.float32), name=f"mu_{p.name}")
                                  for p in self.parameters])
        self.eta = ParameterTuple([Parameter(Tensor(0.0, mstype.float32), name=f"eta_{p.name}")
                                   for p in self.parameters])
        self.lens = len(self.parameters)
        self.ax = self.parameters.clone(prefix="ax_", init="zeros")

    def construct(self, gradients: Sequence[Any]) -> tuple:
        check_grads_tuple(gradients, "ASGD", "gradients")
        gradients = self._prepare_gradients(gradients)
        lr = self.get_lr()
        step = tf.cast(self._increased_step(), tf.float32)
        return apply_each(self, _apply_asgd, gradients, lr, self.mu, self.eta, self.ax, step=step, lambd=self.lambd,
                          alpha=self.alpha, t0=self.t0)

"""``AdaMax``: Adam with the infinity norm (MindSpore's ``nn.AdaMax``, its ``ApplyAdaMax`` kernel).

Per parameter, after ``beta1_power *= beta1``::

    m = beta1 * m + (1 - beta1) * g
    v = max(beta2 * v, |g|)
    param -= lr / (1 - beta1_power) * m / (v + eps)

Example:
    >>> from tfspore import nn
    >>> opt = nn.AdaMax(nn.Dense(3, 2).trainable_params(), learning_rate=0.01)
    >>> opt.beta1_power.shape
    (1,)
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore.nn.optim.adam import MomentOptimizer, advance_powers, check_betas_eps
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import cast_tf, success_flag, opt_init_args_register

__all__ = ["AdaMax"]


def _apply_ada_max(var: tf.Variable, m: tf.Variable, v: tf.Variable, beta1_power: tf.Tensor, lr: tf.Tensor,
                   beta1: float, beta2: float, eps: float, grad: Any) -> Any:
    dt = var.dtype
    g = cast_tf(grad, dt)
    b1, b2, e = tf.constant(beta1, dt), tf.constant(beta2, dt), tf.constant(eps, dt)
    one = tf.constant(1.0, dt)
    m_new = b1 * m + (one - b1) * g
    v_new = tf.maximum(b2 * v, tf.abs(g))
    update = cast_tf(lr, dt) / (one - cast_tf(beta1_power, dt)) * (m_new / (v_new + e))
    ops = [m.assign(m_new, read_value=False), v.assign(v_new, read_value=False),
           var.assign_sub(update, read_value=False)]
    return success_flag(ops)


class AdaMax(MomentOptimizer):
    """The AdaMax optimizer (MindSpore's ``nn.AdaMax``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        beta1: the first-moment decay, a float in (0, 1).
        beta2: the infinity-norm decay, a float in (0, 1).
        eps: added to the denominator, a positive float.
        weight_decay: a number, or a Cell of ``global_step``.
        loss_scale: gradients are divided by it.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range.

    Example:
        >>> opt = nn.AdaMax(net.trainable_params(), learning_rate=0.002)
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-08, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_betas_eps(beta1, beta2, eps, self.cls_name)
        self._init_moments(beta1, beta2, eps, [1], beta2_power=False)

    def construct(self, gradients: Sequence[Any]) -> tuple:
        gradients, lr = begin_step(self, gradients)
        beta1_power, = advance_powers((self.beta1_power, self._beta1))
        return apply_each(self, _apply_ada_max, gradients, lr, self.moment1, self.moment2, beta1_power=beta1_power,
                          beta1=self._beta1, beta2=self._beta2, eps=self._eps)

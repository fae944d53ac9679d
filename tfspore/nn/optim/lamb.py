"""``Lamb``: layer-wise adaptive moments (MindSpore's ``nn.Lamb``, its ``Lamb`` kernel).

Per parameter, at step ``t`` (``global_step`` after its increment)::

    m = beta1 * m + (1 - beta1) * g;   v = beta2 * v + (1 - beta2) * g * g
    m_hat = m / (1 - beta1 ** t);      v_hat = v / (1 - beta2 ** t)
    update = m_hat / (sqrt(v_hat) + eps) + weight_decay * param
    g_hat = m_hat / sqrt(v_hat + eps) + weight_decay * param
    trust_ratio = ||param|| / ||g_hat||   (1 when either norm is 0; clipped to [0, 10])
    param -= lr * trust_ratio * update

Example:
    >>> from tfspore import nn
    >>> opt = nn.Lamb(nn.Dense(3, 2).trainable_params(), learning_rate=0.01)
    >>> [p.name for p in opt.get_parameters()][4:6]
    ['lamb_m.weight', 'lamb_m.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore.nn.optim.adam import MomentOptimizer
from tfspore.nn.optim._step import apply_each
from tfspore.nn.optim.optimizer import cast_tf, success_flag, opt_init_args_register

__all__ = ["Lamb"]

_MAX_TRUST_RATIO = 10.0


def _apply_lamb(var: tf.Variable, m: tf.Variable, v: tf.Variable, lr: tf.Tensor, beta1: float, beta2: float,
                eps: float, weight_decay: tf.Tensor, step: tf.Tensor, grad: Any) -> Any:
    """One Lamb step of one parameter, computed in float32."""
    f32 = tf.float32
    g = cast_tf(grad, f32)
    w = cast_tf(var, f32)
    b1, b2, e = tf.constant(beta1, f32), tf.constant(beta2, f32), tf.constant(eps, f32)
    one = tf.constant(1.0, f32)
    next_m = b1 * cast_tf(m, f32) + (one - b1) * g
    next_v = b2 * cast_tf(v, f32) + (one - b2) * tf.square(g)
    next_mm = next_m / (one - tf.pow(b1, step))
    next_vv = next_v / (one - tf.pow(b2, step))
    g_hat = next_mm / tf.sqrt(next_vv + e) + weight_decay * w
    update = next_mm / (tf.sqrt(next_vv) + e) + weight_decay * w
    w_norm = tf.norm(tf.reshape(w, [-1]))
    g_hat_norm = tf.norm(tf.reshape(g_hat, [-1]))
    ratio = tf.where(w_norm > 0, tf.where(g_hat_norm > 0, w_norm / g_hat_norm, one), one)
    ratio = tf.where(tf.math.is_nan(ratio) | (ratio < 0), tf.zeros_like(ratio), ratio)
    ratio = tf.minimum(ratio, tf.constant(_MAX_TRUST_RATIO, f32))
    ops = [m.assign(cast_tf(next_m, m.dtype), read_value=False), v.assign(cast_tf(next_v, v.dtype), read_value=False),
           var.assign(cast_tf(w - ratio * lr * update, var.dtype), read_value=False)]
    return success_flag(ops)


class Lamb(MomentOptimizer):
    """The LAMB optimizer (MindSpore's ``nn.Lamb``).

    Weight decay is part of the update (not added to the gradient); parameters whose names
    contain 'beta' or 'gamma' get none unless grouped. Gradient centralization applies to grouped
    parameters that ask for it; there is no loss scale, as in MindSpore.

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell (required).
        beta1: the first-moment decay, a float in (0, 1).
        beta2: the second-moment decay, a float in (0, 1).
        eps: added to the denominator, a positive float.
        weight_decay: a number >= 0, or a Cell of ``global_step``.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type (including a missing ``learning_rate``).
        ValueError: for values out of range.

    Example:
        >>> opt = nn.Lamb(net.trainable_params(), learning_rate=nn.PolynomialDecayLR(0.1, 0.0, 10, 1.0))
    """

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-6,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        self.params = self._parameters
        self._init_decoupled_moments(beta1, beta2, eps, "lamb")
        self.device_ascend = False

    def construct(self, gradients: Sequence[Any]) -> tuple:
        weight_decay = self.get_weight_decay()
        lr = self.get_lr()
        self._increase_global_step()
        gradients = self.gradients_centralization(gradients)
        step = tf.cast(tf.reshape(self.global_step._var, []), tf.float32)
        return apply_each(self, _apply_lamb, gradients, lr, self.moments1, self.moments2, weight_decay=weight_decay,
                          beta1=self._beta1, beta2=self._beta2, eps=self._eps, step=step)

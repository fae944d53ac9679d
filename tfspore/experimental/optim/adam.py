"""``Adam``: MindSpore's ``mindspore.experimental.optim.Adam`` on the ``Adam`` kernel of ``nn.Adam``.

Per parameter group, with ``t`` the shared ``state_step`` after its increment and ``g`` the
gradient (negated when ``maximize``, then ``g + weight_decay * param`` when ``weight_decay`` is
not 0), in float32::

    m += (g - m) * (1 - beta1)
    v += (g * g - v) * (1 - beta2)
    vmax = max(vmax, v)                                               # amsgrad only
    param -= lr * sqrt(1 - beta2 ** t) / (1 - beta1 ** t) * m / (sqrt(v or vmax) + eps)

The state is ``exp_avg.<name>`` (m), ``exp_avg_sq.<name>`` (v), ``max_exp_avg_sq.<name>``
(vmax) and the int32 ``state_step``.

Example:
    >>> from tfspore import nn
    >>> from tfspore.experimental import optim
    >>> opt = optim.Adam(nn.Dense(3, 2).trainable_params(), lr=0.01)
    >>> opt.state_step.name
    'state_step'
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore.experimental.optim.adamw import _AdamBase
from tfspore.nn.optim.adam import apply_adam

__all__ = ["Adam"]


class Adam(_AdamBase):
    """Adaptive Moment Estimation (MindSpore's ``mindspore.experimental.optim.Adam``).

    Args:
        params: a list of Parameters, or of parameter-group dicts.
        lr: the learning rate: an int, a float or a scalar Tensor, >= 0.
        betas: the decay rates of the first and second moments, each in [0, 1).
        eps: added to the denominator, >= 0.
        weight_decay: the L2 penalty added to the gradients, >= 0.
        amsgrad: use the running maximum of the second moment (AMSGrad).
        maximize: maximize the objective (the gradients are negated); keyword-only.

    Inputs:
        gradients: a tuple of Tensors, one per Parameter of ``parameters``.

    Outputs:
        True.

    Raises:
        ValueError: when ``lr``, ``eps`` or ``weight_decay`` is negative, or a beta is outside [0, 1).
        TypeError: when an option is not a number, or ``params`` is malformed.

    Example:
        >>> opt = optim.Adam(net.trainable_params(), lr=0.01, weight_decay=1e-4)
        >>> opt(grads)
        True
    """

    def __init__(self, params: Any, lr: Any = 1e-3, betas: Sequence[float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)

    def _update_group(self, group_id: int, group: dict, start: int, end: int, grads: tuple, bc1: tf.Tensor,
                      bc2: tf.Tensor, beta1: float, beta2: float, eps: float, amsgrad: bool) -> list:
        new_lr = self._group_lr(group_id) * tf.sqrt(bc2) / bc1   # lr * sqrt(1 - beta2^t) / (1 - beta1^t)
        grads = self._decay_weight(group.get("weight_decay"), self.parameters[start:end], grads)
        flags = []
        for i, grad in zip(range(start, end), grads):
            vhat = self.max_exp_avg_sq[i]._var if amsgrad else None
            flags.append(apply_adam(self.parameters[i]._var, self.exp_avg[i]._var, self.exp_avg_sq[i]._var,
                                    vhat, new_lr, beta1, beta2, eps, grad, False))
        return flags

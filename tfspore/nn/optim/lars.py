"""``LARS``: layer-wise adaptive rate scaling around another optimizer (MindSpore's ``nn.LARS``).

LARS rewrites the gradients of the parameters that ``lars_filter`` selects, then lets the wrapped
optimizer update with them (MindSpore's ``LARSUpdate`` kernel)::

    coeff = coefficient * ||w|| / (||g|| + weight_decay * ||w|| + epsilon)
    coeff = clip(coeff / lr, 0, 1)                 # use_clip
    g = coeff * (g + weight_decay * w)

The weight decay and loss scale move from the wrapped optimizer into LARS (the wrapped
optimizer's own decay is switched off); parameters the filter leaves out get no weight decay.

Example:
    >>> from tfspore import nn
    >>> net = nn.Dense(3, 2)
    >>> opt = nn.LARS(nn.Momentum(net.trainable_params(), 0.1, 0.9, weight_decay=1e-4))
    >>> [p.name for p in opt.get_parameters()][:3]
    ['global_step', 'fake_lr', 'fake_param']
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, to_tf, opt_init_args_register

__all__ = ["LARS"]


def _check_param_value(optimizer: Any, epsilon: Any, coefficient: Any, use_clip: Any, prim_name: str) -> None:
    validator.check_type(optimizer, Optimizer, "optimizer", prim_name)
    validator.check_type(epsilon, [float], "epsilon", prim_name)
    validator.check_type(coefficient, [float], "coefficient", prim_name)
    validator.check_type(use_clip, [bool], "use_clip", prim_name)


def _default_lars_filter(x: Parameter) -> bool:
    return "LayerNorm" not in x.name and "bias" not in x.name


def _lars_update(weight: Any, grad: Any, weight_decay: tf.Tensor, lr: tf.Tensor, epsilon: float,
                 coefficient: float, use_clip: bool) -> tf.Tensor:
    """The LARS gradient of one parameter (computed in the parameter's dtype)."""
    w = to_tf(weight)
    dt = w.dtype
    g = cast_tf(grad, dt)
    wd = cast_tf(weight_decay, dt)
    w_norm = tf.sqrt(tf.reduce_sum(tf.square(w)))
    g_norm = tf.sqrt(tf.reduce_sum(tf.square(g)))
    coeff = tf.constant(coefficient, dt) * w_norm / (g_norm + wd * w_norm + tf.constant(epsilon, dt))
    if use_clip:
        coeff = tf.clip_by_value(coeff / cast_tf(lr, dt), tf.constant(0.0, dt), tf.constant(1.0, dt))
    return coeff * (g + wd * w)


class LARS(Optimizer):
    """Layer-wise Adaptive Rate Scaling around ``optimizer`` (MindSpore's ``nn.LARS``).

    Args:
        optimizer: the optimizer that applies the rescaled gradients.
        epsilon: added to the denominator, a float.
        coefficient: the trust coefficient, a float.
        use_clip: clip the local rate ``coeff / lr`` to [0, 1].
        lars_filter: selects the parameters LARS rescales (default: names without 'LayerNorm' or
            'bias').

    Inputs:
        gradients: a tuple of Tensors, one per parameter of ``optimizer``.

    Outputs:
        What ``optimizer`` returns.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: with ``use_clip`` when ``optimizer`` has both a dynamic and a group learning rate.

    Example:
        >>> opt = nn.LARS(nn.Momentum(net.trainable_params(), 0.1, 0.9), coefficient=0.02)
    """

    @opt_init_args_register
    def __init__(self, optimizer: Optimizer, epsilon: float = 1e-05, coefficient: float = 0.001,
                 use_clip: bool = False, lars_filter: Callable[[Parameter], bool] = _default_lars_filter) -> None:
        super().__init__(0.0, [Parameter(Tensor(0.0, mstype.float32), name="fake_param")])
        _check_param_value(optimizer, epsilon, coefficient, use_clip, self.cls_name)
        self.opt = optimizer
        self.dynamic_decay_flags = optimizer.dynamic_decay_flags
        self.dynamic_weight_decay = optimizer.dynamic_weight_decay
        self.weight_decay = optimizer.weight_decay
        self.global_step = optimizer.global_step
        self.parameters = optimizer.parameters
        self.use_clip = use_clip
        self.epsilon = epsilon
        self.coefficient = coefficient
        self.lars_flag = tuple(lars_filter(x) for x in self.parameters)
        self.is_group = optimizer.is_group
        self.learning_rate = Parameter(Tensor(0.0, dtype=mstype.float32), name="fake_lr")
        self.decay_flags = optimizer.decay_flags
        self.reciprocal_scale = optimizer.reciprocal_scale
        self.need_scale = optimizer.need_scale
        self.loss_scale = optimizer.loss_scale
        if use_clip:
            self.is_group_lr = optimizer.is_group_lr
            self.dynamic_lr = optimizer.dynamic_lr
            self.origin_learning_rate = optimizer.learning_rate
            if self.is_group_lr and self.dynamic_lr:
                raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the dynamic learning "
                                 "rate and group learning rate cannot both be true.")
        if self.is_group:
            optimizer.dynamic_decay_flags = tuple(False for _ in self.dynamic_decay_flags)
        else:
            optimizer.dynamic_decay_flags = False
        optimizer.decay_flags = tuple(False for _ in self.decay_flags)
        optimizer.dynamic_weight_decay = False
        optimizer.reciprocal_scale = 1.0
        optimizer.exec_weight_decay = False

    def construct(self, gradients: Sequence[Any]) -> Any:
        params = self.parameters
        lr = self._lr_of_step(self.origin_learning_rate) if self.use_clip else self.learning_rate
        weight_decay = self.get_weight_decay()
        if self.need_scale:
            gradients = tuple(_wrap(to_tf(g) * tf.cast(self.reciprocal_scale, to_tf(g).dtype)) for g in gradients)
        new_grads = []
        for i, (grad, param) in enumerate(zip(gradients, params)):
            if not self.lars_flag[i]:
                new_grads.append(grad)
                continue
            if self.decay_flags[i]:
                wd = weight_decay[i] if self.is_group else weight_decay
                wd = tf.reshape(cast_tf(wd, tf.float32), []) / self.loss_scale
            else:
                wd = tf.constant(0.0, tf.float32)
            lr_i = lr[i] if (self.use_clip and self.is_group_lr) else lr
            new_grads.append(_wrap(_lars_update(param, grad, wd, tf.reshape(cast_tf(lr_i, tf.float32), []),
                                                self.epsilon, self.coefficient, self.use_clip)))
        success = self.opt(tuple(new_grads))
        if self._is_dynamic_lr_or_weight_decay() and not self.opt.dynamic_lr and not self.opt.dynamic_weight_decay:
            self._increase_global_step()
        return success

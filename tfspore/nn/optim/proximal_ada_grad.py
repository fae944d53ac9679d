"""``ProximalAdagrad``: Adagrad with L1/L2 proximal steps (MindSpore's ``nn.ProximalAdagrad``).

Per parameter (MindSpore's ``ApplyProximalAdagrad`` kernel, whose L1/L2 terms use the adaptive
rate ``a = lr / sqrt(accum)``)::

    accum += g * g
    prox_v = param - a * g
    param = sign(prox_v) * max(|prox_v| - a * l1, 0) / (1 + a * l2)

Example:
    >>> from tfspore import nn
    >>> opt = nn.ProximalAdagrad(nn.Dense(3, 2).trainable_params(), l1=0.001)
    >>> [p.name for p in opt.accum]
    ['accum.weight', 'accum.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["ProximalAdagrad"]


def _check_param_value(accum: Any, l1: Any, l2: Any, use_locking: Any, prim_name: str | None = None) -> None:
    validator.check_type(accum, [float], "accum", prim_name)
    validator.check_type(l1, [float], "l1", prim_name)
    validator.check_type(l2, [float], "l2", prim_name)
    validator.check_type(use_locking, [bool], "use_locking", prim_name)
    validator.check_non_negative_float(accum, "accum", prim_name, allow_int=False)
    validator.check_non_negative_float(l1, "l1", prim_name, allow_int=False)
    validator.check_non_negative_float(l2, "l2", prim_name, allow_int=False)


def _apply_proximal_adagrad(var: tf.Variable, accum: tf.Variable, lr: tf.Tensor, l1: float, l2: float,
                            grad: Any) -> Any:
    dt = var.dtype
    g = cast_tf(grad, dt)
    lr = cast_tf(lr, dt)
    one = tf.constant(1.0, dt)
    accum_new = accum + g * g
    adaptive_lr = lr / tf.sqrt(accum_new)
    prox_v = var - g * adaptive_lr
    shrunk = tf.maximum(tf.abs(prox_v) - adaptive_lr * tf.constant(l1, dt), tf.zeros_like(prox_v))
    var_new = tf.sign(prox_v) * shrunk / (one + tf.constant(l2, dt) * adaptive_lr)
    return success_flag([accum.assign(accum_new, read_value=False), var.assign(var_new, read_value=False)])


class ProximalAdagrad(Optimizer):
    """The proximal Adagrad optimizer (MindSpore's ``nn.ProximalAdagrad``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        accum: the initial accumulator value, a float >= 0.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
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
        ValueError: for values out of range.

    Example:
        >>> opt = nn.ProximalAdagrad(net.trainable_params(), learning_rate=0.01, l2=0.001)
    """

    @opt_init_args_register
    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, l1: float = 0.0,
                 l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(accum, l1, l2, use_locking, self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.l1 = Tensor(l1, mstype.float32)
        self.l2 = Tensor(l2, mstype.float32)
        self._l1, self._l2 = l1, l2
        self.use_locking = use_locking

    def construct(self, grads: Sequence[Any]) -> tuple:
        grads, lr = begin_step(self, grads)
        return apply_each(self, _apply_proximal_adagrad, grads, lr, self.accum, l1=self._l1, l2=self._l2)

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        """Set the device the update runs on ('CPU', 'Ascend' or 'GPU')."""
        if not isinstance(value, str):
            raise TypeError(f"For 'ProximalAdagrad', the property 'target' must be string type, but got "
                            f"{type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'ProximalAdagrad', the property 'target' must be 'CPU', 'Ascend' or 'GPU', but "
                             f"got {value}.")
        self._target = value

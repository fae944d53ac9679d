"""``Momentum``: SGD with momentum, as MindSpore's ``ApplyMomentum``.

Per parameter: ``accum = momentum * accum + grad``, then ``param -= lr * accum`` (Nesterov:
``param -= lr * grad + lr * momentum * accum``). The state is ``momentum`` and ``moments.<name>``.

Example:
    >>> from tfspore import nn
    >>> net = nn.Dense(3, 2)
    >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    >>> [p.name for p in opt.moments]
    ['moments.weight', 'moments.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf
from tensorflow.python.ops import resource_variable_ops

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, success_flag, to_tf, opt_init_args_register

__all__ = ["Momentum"]


def _fusable(var: Any, accum: Any) -> bool:
    """Whether TensorFlow's fused ``ResourceApplyMomentum`` may update ``var`` in place.

    Plain resource variables only, in a graph: distributed variables go through their own
    ``assign`` (which keeps the replicas in sync), and eagerly the op would buy nothing.
    """
    if tf.executing_eagerly():
        return False
    return all(type(v) is resource_variable_ops.ResourceVariable  # pylint: disable=unidiomatic-typecheck
               for v in (var, accum))


def _apply_momentum(var: tf.Variable, accum: tf.Variable, lr: tf.Tensor, grad: Any, momentum: tf.Tensor,
                    use_nesterov: bool) -> Any:
    dt = var.dtype
    grad = to_tf(grad)
    grad = tf.cast(grad, dt) if grad.dtype != dt else grad
    lr = tf.cast(lr, dt)
    momentum = tf.cast(momentum, dt)
    if not use_nesterov and accum.dtype == dt and _fusable(var, accum):
        # One kernel, bit for bit the same arithmetic: accum = accum * momentum + grad; var -= lr * accum.
        # (Its Nesterov form rounds differently from the ops below, which match MindSpore.)
        return success_flag([tf.raw_ops.ResourceApplyMomentum(var=var.handle, accum=accum.handle, lr=lr, grad=grad,
                                                          momentum=momentum)])
    new_accum = accum * momentum + grad
    a_op = accum.assign(new_accum, read_value=False)
    if use_nesterov:
        update = grad * lr + new_accum * momentum * lr
    else:
        update = lr * new_accum
    v_op = var.assign_sub(update, read_value=False)
    return success_flag([a_op, v_op])


class Momentum(Optimizer):
    """Momentum optimizer (MindSpore's ``nn.Momentum``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        momentum: the momentum, a float >= 0.
        weight_decay: the weight decay (number or Cell).
        loss_scale: gradients are divided by it.
        use_nesterov: use Nesterov momentum.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags (True), one per parameter.

    Raises:
        TypeError: when ``momentum`` is not a float or ``use_nesterov`` not a bool.
        ValueError: when ``momentum`` is negative.

    Example:
        >>> from tfspore import nn
        >>> nn.Momentum(nn.Dense(2, 2).trainable_params(), 0.01, 0.9)
        Momentum()
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any, momentum: float, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(momentum, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'momentum' should be 'float', but got type "
                            f"'{type(momentum).__name__}'.")
        if momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, but got {momentum}")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = validator.check_bool(use_nesterov, "use_nesterov", self.cls_name)
        self.moments = self.params.clone(prefix="moments", init="zeros")

    def construct(self, gradients: Sequence[Any]) -> tuple:
        gradients, lr = begin_step(self, gradients)
        return apply_each(self, _apply_momentum, gradients, lr, self.moments, momentum=to_tf(self.momentum),
                          use_nesterov=self.use_nesterov)

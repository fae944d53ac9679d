"""``SGD``: MindSpore's ``mindspore.experimental.optim.SGD`` on the ``SGD`` kernel of ``nn.SGD``.

Per parameter, with ``g`` the gradient (negated when ``maximize``, then
``g + weight_decay * param`` when ``weight_decay`` > 0) and ``stat`` marking the first step: with
``momentum > 0``, ``accum = g`` on the first step, else
``accum = momentum * accum + (1 - dampening) * g``, and the update is ``accum`` (Nesterov:
``g + momentum * accum``); without momentum the update is ``g``. Then ``param -= lr * update``.
The state is ``accum.<name>`` (zeros) and ``stat.<name>`` (ones).

Example:
    >>> from tfspore import nn
    >>> from tfspore.experimental import optim
    >>> opt = optim.SGD(nn.Dense(3, 2).trainable_params(), lr=0.1, momentum=0.9)
    >>> [name for name, _ in opt.parameters_and_names()][2:]
    ['accum.weight', 'accum.bias', 'stat.weight', 'stat.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.experimental.optim.adamw import _scalar
from tfspore.experimental.optim.optimizer import Optimizer
from tfspore.nn.optim.optimizer import success_flag, to_tf
from tfspore.nn.optim.sgd import apply_sgd

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (MindSpore's ``mindspore.experimental.optim.SGD``).

    Args:
        params: a list of Parameters, or of parameter-group dicts.
        lr: the learning rate: an int, a float or a scalar Tensor, >= 0.
        momentum: the momentum factor, >= 0.
        dampening: the dampening of the momentum.
        weight_decay: the L2 penalty added to the gradients, >= 0.
        nesterov: use Nesterov momentum (needs ``momentum > 0`` and ``dampening == 0``).
        maximize: maximize the objective (the gradients are negated); keyword-only.

    Inputs:
        gradients: a tuple of Tensors, one per Parameter of ``parameters``.

    Outputs:
        True.

    Raises:
        TypeError: when ``lr``, ``momentum`` or ``dampening`` is not a number, or ``nesterov`` /
            ``maximize`` is not a bool.
        ValueError: when ``lr``, ``momentum`` or ``weight_decay`` is negative, or Nesterov is
            asked for without momentum or with dampening.

    Example:
        >>> opt = optim.SGD(net.trainable_params(), lr=0.1, momentum=0.9, nesterov=True)
    """

    def __init__(self, params: Any, lr: Any, momentum: float = 0, dampening: float = 0, weight_decay: float = 0.0,
                 nesterov: bool = False, *, maximize: bool = False) -> None:
        name = type(self).__name__
        validator.check_type(lr, [float, int, Tensor], "lr", name)
        if _scalar(lr, "lr", name, allow_tensor=True) < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}. For '{name}', the 'lr' must be >= 0.")
        validator.check_type(momentum, [int, float], "momentum", name)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}. For '{name}', the 'momentum' must be >= 0.")
        momentum = float(momentum)
        validator.check_type(nesterov, [bool], "nesterov", name)
        validator.check_type(maximize, [bool], "maximize", name)
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "grad_centralization": False}
        super().__init__(params, defaults)
        for group in self.param_groups:
            validator.check_type(group.get("dampening"), [int, float], "dampening", name)
            group["dampening"] = float(group.get("dampening"))
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal "
                             f"to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}")
        self.accum = self._clone_state(self.parameters, "accum")
        self.stat = self._clone_state(self.parameters, "stat", init="ones")

    def _add_group_state(self, params: Sequence[Parameter]) -> None:
        self._extend_state("accum", params)
        self._extend_state("stat", params, init="ones")

    def construct(self, gradients: Sequence[Any]) -> Any:
        flags = []
        for group_id, group in enumerate(self.param_groups):
            start, end = self.group_start_id[group_id], self.group_start_id[group_id + 1]
            lr = self._group_lr(group_id)
            momentum = tf.constant(float(group.get("momentum")), tf.float32)
            weight_decay = group.get("weight_decay")
            params = self.parameters[start:end]
            grads = self._maximize(gradients[start:end], group.get("maximize"))
            if weight_decay > 0.0:
                grads = self._decay_weight(weight_decay, params, grads)
            for i, grad in zip(range(start, end), grads):
                flags.append(apply_sgd(self.parameters[i]._var, self.accum[i]._var, self.stat[i]._var, lr,
                                       to_tf(grad), momentum, float(group.get("dampening")),
                                       bool(group.get("nesterov"))))
        return success_flag(flags)

"""``AdamW``: Adam with decoupled weight decay (MindSpore's ``mindspore.experimental.optim.AdamW``).

Per parameter group, with ``t`` the shared ``state_step`` after its increment and ``g`` the
gradient (negated when ``maximize``), in float32::

    param = param * (1 - lr * weight_decay)
    exp_avg = exp_avg * beta1 + g * (1 - beta1)
    exp_avg_sq = exp_avg_sq * beta2 + (1 - beta2) * g * g
    max_exp_avg_sq = max(max_exp_avg_sq, exp_avg_sq)                  # amsgrad only
    denom = sqrt(exp_avg_sq or max_exp_avg_sq) / sqrt(1 - beta2 ** t) + eps
    param = param - exp_avg / denom * (lr / (1 - beta1 ** t))

The state is ``exp_avg.<name>``, ``exp_avg_sq.<name>``, ``max_exp_avg_sq.<name>`` (for every
parameter, whatever ``amsgrad``) and the int32 ``state_step``.

Example:
    >>> from tfspore import nn
    >>> from tfspore.experimental import optim
    >>> opt = optim.AdamW(nn.Dense(3, 2).trainable_params(), lr=0.01)
    >>> [name for name, _ in opt.parameters_and_names()][2:5]
    ['exp_avg.weight', 'exp_avg.bias', 'exp_avg_sq.weight']
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence

import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.experimental.optim.optimizer import Optimizer
from tfspore.nn.optim.optimizer import cast_tf, success_flag

__all__ = ["AdamW"]


def _scalar(value: Any, arg: str, prim_name: str, allow_tensor: bool = False) -> float:
    """``value`` as a float for the range checks (a scalar Tensor is read when ``allow_tensor``)."""
    if allow_tensor and isinstance(value, Tensor):
        size = int(value.size)
        if size != 1:
            raise ValueError(f"The tensor should have only one element, but got {size}, more than one element is "
                             f"ambiguous. For '{prim_name}', the '{arg}' must be a number or a scalar Tensor.")
        return float(value.asnumpy().reshape(()))
    if isinstance(value, numbers.Real):
        return float(value)
    kinds = "int, float or Tensor" if allow_tensor else "int or float"
    raise TypeError(f"For '{prim_name}', the '{arg}' must be {kinds}, but got {type(value).__name__}: {value!r}.")


def _check_adam_args(lr: Any, betas: Any, eps: Any, weight_decay: Any, prim_name: str) -> None:
    """The argument checks of Adam and AdamW, with MindSpore's messages, the API and the argument added."""
    lr_value = _scalar(lr, "lr", prim_name, allow_tensor=True)
    if lr_value < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}. For '{prim_name}', the 'lr' must be >= 0.")
    if _scalar(eps, "eps", prim_name) < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}. For '{prim_name}', the 'eps' must be >= 0.")
    for index in (0, 1):
        beta = _scalar(betas[index], f"betas[{index}]", prim_name)
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {betas[index]}. For '{prim_name}', the "
                             f"'betas[{index}]' must be in [0.0, 1.0).")
    if _scalar(weight_decay, "weight_decay", prim_name) < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}. For '{prim_name}', the 'weight_decay' must be "
                         ">= 0.")


def _bias_corrections(step: tf.Tensor, beta1: float, beta2: float) -> tuple[tf.Tensor, tf.Tensor]:
    """``1 - beta1 ** t`` and ``1 - beta2 ** t`` in float32."""
    t = tf.cast(step, tf.float32)
    one = tf.constant(1.0, tf.float32)
    return (one - tf.pow(tf.constant(beta1, tf.float32), t), one - tf.pow(tf.constant(beta2, tf.float32), t))


def _apply_adamw(var: tf.Variable, m: tf.Variable, v: tf.Variable, vmax: tf.Variable | None, grad: Any,
                 decay: tf.Tensor, step_size: tf.Tensor, bc2_sqrt: tf.Tensor, beta1: float, beta2: float,
                 eps: float) -> Any:
    """One AdamW step of one parameter (``vmax`` is None without amsgrad)."""
    dt = var.dtype
    g = cast_tf(grad, dt)
    one, b1, b2 = tf.constant(1.0, dt), tf.constant(beta1, dt), tf.constant(beta2, dt)
    next_param = var * cast_tf(decay, dt)
    m_new = m * b1 + g * (one - b1)
    v_new = v * b2 + (one - b2) * (g * g)
    updates = [m.assign(m_new, read_value=False), v.assign(v_new, read_value=False)]
    if vmax is not None:
        v_new = tf.maximum(vmax, v_new)
        updates.append(vmax.assign(v_new, read_value=False))
    denom = tf.sqrt(v_new) / cast_tf(bc2_sqrt, dt) + tf.constant(eps, dt)
    updates.append(var.assign(next_param - (m_new / denom) * cast_tf(step_size, dt), read_value=False))
    return updates


class _AdamBase(Optimizer):
    """The argument checks, state and per-group loop shared by Adam and AdamW.

    The state is ``exp_avg.<name>``, ``exp_avg_sq.<name>``, ``max_exp_avg_sq.<name>`` and the
    int32 ``state_step``; a subclass computes one group's updates in :meth:`_update_group`.
    """

    def __init__(self, params: Any, lr: Any, betas: Sequence[float], eps: float, weight_decay: float,
                 amsgrad: bool, maximize: bool) -> None:
        _check_adam_args(lr, betas, eps, weight_decay, type(self).__name__)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize}
        super().__init__(params, defaults)
        self.exp_avg = self._clone_state(self.parameters, "exp_avg")
        self.exp_avg_sq = self._clone_state(self.parameters, "exp_avg_sq")
        self.max_exp_avg_sq = self._clone_state(self.parameters, "max_exp_avg_sq")
        self.state_step = Parameter(Tensor(0, mstype.int32), "state_step")
        self.increase_tensor = Tensor(1, mstype.int32)

    def _add_group_state(self, params: Sequence[Parameter]) -> None:
        for attr in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
            self._extend_state(attr, params)

    def construct(self, gradients: Sequence[Any]) -> Any:
        updates, step = self._increase_state_step()
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            beta1, beta2 = float(beta1), float(beta2)
            start, end = self.group_start_id[group_id], self.group_start_id[group_id + 1]
            bc1, bc2 = _bias_corrections(step, beta1, beta2)
            grads = self._maximize(gradients[start:end], group.get("maximize"))
            updates += self._update_group(group_id, group, start, end, grads, bc1, bc2, beta1, beta2,
                                          float(group.get("eps")), bool(group.get("amsgrad")))
        return success_flag(updates)

    def _update_group(self, group_id: int, group: dict, start: int, end: int, grads: tuple, bc1: tf.Tensor,
                      bc2: tf.Tensor, beta1: float, beta2: float, eps: float, amsgrad: bool) -> list:
        """The update ops of Parameters ``start:end`` (group ``group_id``), given the gradients (already
        negated for ``maximize``) and the bias corrections ``1 - beta1 ** t`` and ``1 - beta2 ** t``."""
        raise NotImplementedError


class AdamW(_AdamBase):
    """Adam with decoupled weight decay (MindSpore's ``mindspore.experimental.optim.AdamW``).

    Args:
        params: a list of Parameters, or of parameter-group dicts (``'params'`` plus any of the
            options below).
        lr: the learning rate: an int, a float or a scalar Tensor, >= 0.
        betas: the decay rates of the first and second moments, each in [0, 1).
        eps: added to the denominator, >= 0.
        weight_decay: the decoupled weight decay, >= 0 (default 1e-2, as in MindSpore).
        amsgrad: use the running maximum of the second moment (AMSGrad).
        maximize: maximize the objective (the gradients are negated); keyword-only.

    Inputs:
        gradients: a tuple of Tensors, one per Parameter of ``parameters``.

    Outputs:
        True.

    Raises:
        ValueError: when ``lr``, ``eps`` or ``weight_decay`` is negative, a beta is outside
            [0, 1), an ``lr`` Tensor has more than one element, or a Parameter is in two groups.
        TypeError: when an option is not a number, or ``params`` is malformed.

    Example:
        >>> import tfspore as ms
        >>> from tfspore import nn
        >>> from tfspore.experimental import optim
        >>> net = nn.Dense(3, 2)
        >>> optimizer = optim.AdamW(net.trainable_params(), lr=0.1)
        >>> loss_fn = nn.MSELoss()
        >>> grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)
        >>> def train_step(x, y):
        ...     loss, grads = grad_fn(x, y)
        ...     optimizer(grads)
        ...     return loss
    """

    def __init__(self, params: Any, lr: Any = 1e-3, betas: Sequence[float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize)

    def _update_group(self, group_id: int, group: dict, start: int, end: int, grads: tuple, bc1: tf.Tensor,
                      bc2: tf.Tensor, beta1: float, beta2: float, eps: float, amsgrad: bool) -> list:
        lr = self._group_lr(group_id)
        decay = tf.constant(1.0, tf.float32) - lr * tf.constant(group.get("weight_decay"), tf.float32)
        step_size = lr / bc1
        bc2_sqrt = tf.sqrt(bc2)
        updates = []
        for i, grad in zip(range(start, end), grads):
            vmax = self.max_exp_avg_sq[i]._var if amsgrad else None
            updates += _apply_adamw(self.parameters[i]._var, self.exp_avg[i]._var, self.exp_avg_sq[i]._var,
                                    vmax, grad, decay, step_size, bc2_sqrt, beta1, beta2, eps)
        return updates

"""``LazyAdam``: Adam that, for sparse gradients, updates only the rows present (MindSpore's ``nn.LazyAdam``).

Gradients here are dense, so the update is Adam's (see :mod:`tfspore.nn.optim.adam`); the
state is ``beta1_power`` / ``beta2_power`` (shape ``(1,)``), ``moment1.<name>`` and
``moment2.<name>``.

Example:
    >>> from tfspore import nn
    >>> opt = nn.LazyAdam(nn.Dense(3, 2).trainable_params(), learning_rate=0.01)
    >>> opt.beta1_power.shape
    (1,)
"""
from __future__ import annotations

from typing import Any, Sequence

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.initializer import initializer
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.optim.adam import advance_powers, apply_bias_corrected_adam
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["LazyAdam"]


def _check_param_value(beta1: Any, beta2: Any, eps: Any, weight_decay: Any, prim_name: str) -> None:
    validator.check_type(beta1, [float], "beta1", prim_name)
    validator.check_type(beta2, [float], "beta2", prim_name)
    validator.check_type(eps, [float], "eps", prim_name)
    validator.check_type(weight_decay, [float], "weight_dacay", prim_name)
    validator.check_float_range(beta1, "beta1", prim_name, 0.0, 1.0, inc_low=False, inc_high=False, allow_int=False)
    validator.check_float_range(beta2, "beta2", prim_name, 0.0, 1.0, inc_low=False, inc_high=False, allow_int=False)
    validator.check_positive_float(eps, "eps", prim_name, allow_int=False)
    validator.check_non_negative_float(weight_decay, "weight_decay", prim_name, allow_int=False)


class LazyAdam(Optimizer):
    """Lazy Adam (MindSpore's ``nn.LazyAdam``); with dense gradients it updates as Adam.

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        beta1: the first-moment decay, a float in (0, 1).
        beta2: the second-moment decay, a float in (0, 1).
        eps: added to the denominator, a positive float.
        use_locking: accepted for compatibility.
        use_nesterov: use the Nesterov form of the update.
        weight_decay: a float >= 0.
        loss_scale: gradients are divided by it.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range.

    Example:
        >>> opt = nn.LazyAdam(net.trainable_params(), learning_rate=1e-3)
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param_value(beta1, beta2, eps, weight_decay, self.cls_name)
        validator.check_type(use_locking, [bool], "use_locking", self.cls_name)
        validator.check_type(use_nesterov, [bool], "use_nesterov", self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self._beta1, self._beta2, self._eps = beta1, beta2, eps
        self.beta1_power = Parameter(initializer(1, [1], mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(initializer(1, [1], mstype.float32), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self._is_device = True
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")

    def construct(self, gradients: Sequence[Any]) -> tuple:
        gradients, lr = begin_step(self, gradients)
        beta1_power, beta2_power = advance_powers((self.beta1_power, self._beta1), (self.beta2_power, self._beta2))
        return apply_each(self, apply_bias_corrected_adam, gradients, lr, self.moment1, self.moment2, None,
                          beta1_power=beta1_power, beta2_power=beta2_power, beta1=self._beta1, beta2=self._beta2,
                          eps=self._eps, use_nesterov=self.use_nesterov)

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        """Set the device the update runs on ('CPU', 'Ascend' or 'GPU')."""
        self._set_base_target(value)

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
from tfspore.nn.optim.adam import MomentOptimizer, check_betas_eps
from tfspore.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["LazyAdam"]


class LazyAdam(MomentOptimizer):
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
        check_betas_eps(beta1, beta2, eps, self.cls_name, weight_decay=weight_decay)
        validator.check_type(use_locking, [bool], "use_locking", self.cls_name)
        validator.check_type(use_nesterov, [bool], "use_nesterov", self.cls_name)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self._is_device = True
        self._init_moments(beta1, beta2, eps, [1])

    def construct(self, gradients: Sequence[Any]) -> tuple:
        return self._adam_step(gradients)

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        """Set the device the update runs on ('CPU', 'Ascend' or 'GPU')."""
        self._set_base_target(value)

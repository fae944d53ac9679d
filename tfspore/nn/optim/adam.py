"""``Adam``, ``AdamWeightDecay`` and ``AdamOffload``: MindSpore's Adam family on ``tf.Variable`` updates.

Adam (MindSpore's ``Adam`` kernel), per parameter, with ``beta1_power = beta1 ** t`` after the
step-``t`` update of the ``beta1_power`` / ``beta2_power`` Parameters::

    m += (g - m) * (1 - beta1)
    v += (g * g - v) * (1 - beta2)
    lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
    param -= lr_t * m / (sqrt(v) + eps)                           # default
    param -= lr_t * (beta1 * m + (1 - beta1) * g) / (sqrt(v) + eps)  # use_nesterov
    vhat = max(vhat, v); param -= lr_t * m / (sqrt(vhat) + eps)   # use_amsgrad

AdamWeightDecay decouples the decay and has no bias correction::

    param -= lr * (m / (sqrt(v) + eps) + weight_decay * param)

Example:
    >>> from tfspore import nn
    >>> opt = nn.Adam(nn.Dense(3, 2).trainable_params(), learning_rate=0.01)
    >>> [p.name for p in opt.get_parameters()][4:]
    ['beta1_power', 'beta2_power', 'moment1.weight', 'moment1.bias', 'moment2.weight', 'moment2.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.initializer import initializer
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.optim._step import apply_each, begin_step
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["Adam", "AdamWeightDecay", "AdamOffload"]


_UNCHECKED = object()


def check_betas_eps(beta1: Any, beta2: Any, eps: Any, prim_name: str, weight_decay: Any = _UNCHECKED) -> None:
    """The Adam-family checks of ``beta1``, ``beta2`` (floats in (0, 1)) and ``eps`` (a positive float),
    and, when given, of ``weight_decay`` (a float >= 0; ``LazyAdam``), types first, then ranges."""
    validator.check_type(beta1, [float], "beta1", prim_name)
    validator.check_type(beta2, [float], "beta2", prim_name)
    validator.check_type(eps, [float], "eps", prim_name)
    if weight_decay is not _UNCHECKED:
        validator.check_type(weight_decay, [float], "weight_dacay", prim_name)   # MindSpore's spelling
    validator.check_float_range(beta1, "beta1", prim_name, 0.0, 1.0, inc_low=False, inc_high=False, allow_int=False)
    validator.check_float_range(beta2, "beta2", prim_name, 0.0, 1.0, inc_low=False, inc_high=False, allow_int=False)
    validator.check_positive_float(eps, "eps", prim_name, allow_int=False)
    if weight_decay is not _UNCHECKED:
        validator.check_non_negative_float(weight_decay, "weight_decay", prim_name, allow_int=False)


def apply_adam(var: tf.Variable, m: tf.Variable, v: tf.Variable, vhat: tf.Variable | None, new_lr: tf.Tensor,
               beta1: float, beta2: float, eps: float, grad: Any, use_nesterov: bool) -> Any:
    """One Adam step of one parameter (the kernel of the module docstring), shared with ``LazyAdam``,
    ``AdamOffload`` and ``tfspore.experimental.optim.Adam``.

    Args:
        var: the parameter's variable.
        m: its first moment.
        v: its second moment.
        vhat: the running maximum of ``v`` (AMSGrad), or None.
        new_lr: the learning rate with the bias correction already applied.
        beta1: the decay rate of ``m``.
        beta2: the decay rate of ``v``.
        eps: added to the denominator.
        grad: the gradient.
        use_nesterov: use Nesterov momentum.

    Returns:
        MindSpore's success flag (see :func:`~tfspore.nn.optim.optimizer.success_flag`).
    """
    dt = var.dtype
    g = cast_tf(grad, dt)
    one = tf.constant(1.0, dt)
    b1, b2, e = tf.constant(beta1, dt), tf.constant(beta2, dt), tf.constant(eps, dt)
    lr_t = cast_tf(new_lr, dt)
    m_new = m + (g - m) * (one - b1)
    v_new = v + (g * g - v) * (one - b2)
    ops = [m.assign(m_new, read_value=False), v.assign(v_new, read_value=False)]
    if vhat is not None:
        vhat_new = tf.maximum(vhat, v_new)
        ops.append(vhat.assign(vhat_new, read_value=False))
        update = lr_t * m_new / (tf.sqrt(vhat_new) + e)
    elif use_nesterov:
        update = lr_t * (m_new * b1 + (one - b1) * g) / (tf.sqrt(v_new) + e)
    else:
        update = lr_t * m_new / (tf.sqrt(v_new) + e)
    ops.append(var.assign_sub(update, read_value=False))
    return success_flag(ops)


def apply_bias_corrected_adam(var: tf.Variable, m: tf.Variable, v: tf.Variable, vhat: tf.Variable | None,
                              lr: tf.Tensor, grad: Any, beta1_power: tf.Tensor, beta2_power: tf.Tensor,
                              **kwargs: Any) -> Any:
    """:func:`apply_adam` with ``lr * sqrt(1 - beta2_power) / (1 - beta1_power)`` as its learning rate
    (``Adam``, ``AdamOffload``, ``LazyAdam``); ``kwargs`` are apply_adam's ``beta1`` to ``use_nesterov``."""
    one = tf.constant(1.0, tf.float32)
    new_lr = lr * tf.sqrt(one - beta2_power) / (one - beta1_power)
    return apply_adam(var, m, v, vhat, new_lr, grad=grad, **kwargs)


def advance_powers(*powers: tuple[Parameter, float]) -> list[tf.Tensor]:
    """Multiply each ``(beta_power, beta)`` Parameter by its beta in place and return the new values as scalars."""
    new = [power._var * tf.constant(beta, tf.float32) for power, beta in powers]
    for (power, _), value in zip(powers, new):
        power._var.assign(value, read_value=False)
    return [tf.reshape(value, []) for value in new]


class MomentOptimizer(Optimizer):
    """An Optimizer with the Adam family's state and step (``Adam``, ``AdamOffload``, ``LazyAdam``, ``AdaMax``;
    ``AdamWeightDecay`` and ``Lamb`` use :meth:`_init_decoupled_moments` instead).

    The state is ``beta1`` / ``beta2`` / ``eps`` (float32 Tensors, and as floats), the ``beta1_power``
    (and ``beta2_power``) Parameter(s) and the ``moment1.<name>`` / ``moment2.<name>`` clones of the
    parameters, registered in that order.
    """

    def _init_moments(self, beta1: float, beta2: float, eps: float, power_shape: Any,
                      beta2_power: bool = True) -> None:
        """Create the state; ``power_shape`` is ``()`` or ``[1]``, as in the MindSpore optimizer."""
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self._beta1, self._beta2, self._eps = beta1, beta2, eps
        self.beta1_power = Parameter(initializer(1, power_shape, mstype.float32), name="beta1_power")
        if beta2_power:
            self.beta2_power = Parameter(initializer(1, power_shape, mstype.float32), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")

    def _init_decoupled_moments(self, beta1: float, beta2: float, eps: float, prefix: str) -> None:
        """Check the betas and ``eps``, then create the state of ``AdamWeightDecay`` and ``Lamb``: ``beta1`` /
        ``beta2`` / ``eps`` as shape-``(1,)`` float32 Tensors (and as floats) and the ``moments1`` /
        ``moments2`` clones, named ``<prefix>_m.<name>`` / ``<prefix>_v.<name>``."""
        check_betas_eps(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(np.array([beta1]).astype(np.float32))
        self.beta2 = Tensor(np.array([beta2]).astype(np.float32))
        self.eps = Tensor(np.array([eps]).astype(np.float32))
        self._beta1, self._beta2, self._eps = beta1, beta2, eps
        self.moments1 = self._parameters.clone(prefix=f"{prefix}_m", init="zeros")
        self.moments2 = self._parameters.clone(prefix=f"{prefix}_v", init="zeros")

    def _adam_step(self, gradients: Sequence[Any], vhat: Any = None, centralize: bool = True) -> tuple:
        """One bias-corrected Adam step of every parameter (:func:`apply_bias_corrected_adam`)."""
        gradients, lr = begin_step(self, gradients, centralize=centralize)
        beta1_power, beta2_power = advance_powers((self.beta1_power, self._beta1), (self.beta2_power, self._beta2))
        return apply_each(self, apply_bias_corrected_adam, gradients, lr, self.moment1, self.moment2, vhat,
                          beta1_power=beta1_power, beta2_power=beta2_power, beta1=self._beta1, beta2=self._beta2,
                          eps=self._eps, use_nesterov=self.use_nesterov)


def _apply_adam_weight_decay(var: tf.Variable, m: tf.Variable, v: tf.Variable, lr: tf.Tensor, grad: Any,
                             beta1: float, beta2: float, eps: float, weight_decay: tf.Tensor) -> Any:
    dt = var.dtype
    g = cast_tf(grad, dt)
    one = tf.constant(1.0, dt)
    b1, b2, e = tf.constant(beta1, dt), tf.constant(beta2, dt), tf.constant(eps, dt)
    m_new = m + (g - m) * (one - b1)
    v_new = v + (g * g - v) * (one - b2)
    update = m_new / (tf.sqrt(v_new) + e) + cast_tf(weight_decay, dt) * var
    ops = [m.assign(m_new, read_value=False), v.assign(v_new, read_value=False),
           var.assign_sub(cast_tf(lr, dt) * update, read_value=False)]
    return success_flag(ops)


class Adam(MomentOptimizer):
    """Adaptive Moment Estimation (MindSpore's ``nn.Adam``).

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        beta1: the first-moment decay, a float in (0, 1).
        beta2: the second-moment decay, a float in (0, 1).
        eps: added to the denominator, a positive float.
        use_locking: accepted for compatibility (updates are always consistent).
        use_nesterov: use the Nesterov form of the update.
        weight_decay: a number, or a Cell of ``global_step``.
        loss_scale: gradients are divided by it.
        use_amsgrad: keep the running maximum ``vhat`` of the second moment.
        **kwargs: ``use_lazy`` (LazyAdam behaviour for sparse gradients; dense gradients update
            as Adam) and ``use_offload`` (update on the host in MindSpore; same math here).

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        KeyError: for an unknown keyword argument.
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range or incompatible options.

    Example:
        >>> opt = nn.Adam(net.trainable_params(), learning_rate=1e-3, use_amsgrad=True)
        >>> opt.vhat[0].name
        'vhat.weight'
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_amsgrad: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        valid_keys = {"use_lazy", "use_offload"}
        if set(kwargs.keys()) - valid_keys:
            raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are 'use_lazy' and"
                           f"'use_offload', but got {kwargs.keys()}.")
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        check_betas_eps(beta1, beta2, eps, self.cls_name)
        validator.check_type(use_locking, [bool], "use_locking", self.cls_name)
        validator.check_type(use_nesterov, [bool], "use_nesterov", self.cls_name)
        validator.check_type(use_amsgrad, [bool], "use_amsgrad", self.cls_name)
        validator.check_type(use_lazy, [bool], "use_lazy", self.cls_name)
        validator.check_type(use_offload, [bool], "use_offload", self.cls_name)
        if use_lazy and use_offload:
            raise ValueError(f"For 'Adam', 'use_lazy' and 'use_offload' can not both be True.But got "
                             f"use_lazy={use_lazy}, use_offload={use_offload}.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError(f"For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad'.but "
                             f"got 'use_amsgrad'={use_amsgrad}.")
        self._init_moments(beta1, beta2, eps, ())
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        if use_amsgrad:
            self.vhat = self._parameters.clone(prefix="vhat", init="zeros")
        self._is_device = not use_offload

    def construct(self, gradients: Sequence[Any]) -> tuple:
        return self._adam_step(gradients, self.vhat if self.use_amsgrad else None, centralize=not self.use_offload)

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        """Set the device the update runs on ('CPU', 'Ascend' or 'GPU')."""
        self._set_base_target(value)


class AdamWeightDecay(MomentOptimizer):
    """Adam with decoupled weight decay (MindSpore's ``nn.AdamWeightDecay``).

    Per parameter: ``m``, ``v`` as in Adam, then
    ``param -= lr * (m / (sqrt(v) + eps) + weight_decay * param)``, with no bias correction.
    Parameters whose names contain 'beta' or 'gamma' get no decay unless grouped. There is no
    loss scale and no gradient centralization, as in MindSpore.

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        beta1: the first-moment decay, a float in (0, 1).
        beta2: the second-moment decay, a float in (0, 1).
        eps: added to the denominator, a positive float.
        weight_decay: a number >= 0, or a Cell of ``global_step``.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range.

    Example:
        >>> opt = nn.AdamWeightDecay(net.trainable_params(), 1e-3, weight_decay=0.01)
        >>> opt.moments1[0].name
        'adam_m.weight'
    """

    _support_parallel_optimizer = True

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        self._init_decoupled_moments(beta1, beta2, eps, "adam")
        self.use_fused_opt = True

    def construct(self, gradients: Sequence[Any]) -> tuple:
        weight_decay = self.get_weight_decay()
        lr = self.get_lr()
        self._increase_global_step()
        return apply_each(self, _apply_adam_weight_decay, gradients, lr, self.moments1, self.moments2,
                          weight_decay=weight_decay, beta1=self._beta1, beta2=self._beta2, eps=self._eps)


class AdamOffload(MomentOptimizer):
    """Adam whose update MindSpore runs on the host (deprecated there in favour of ``nn.Adam``).

    The math, arguments and state names are Adam's (``beta1_power`` / ``beta2_power`` have shape
    ``(1,)`` here, as in MindSpore); gradient centralization is not applied.

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: a float, list, Tensor or learning-rate schedule Cell.
        beta1: the first-moment decay, a float in (0, 1).
        beta2: the second-moment decay, a float in (0, 1).
        eps: added to the denominator, a positive float.
        use_locking: accepted for compatibility.
        use_nesterov: use the Nesterov form of the update.
        weight_decay: a number, or a Cell of ``global_step``.
        loss_scale: gradients are divided by it.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for values out of range.

    Example:
        >>> opt = nn.AdamOffload(net.trainable_params(), 1e-3)
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_betas_eps(beta1, beta2, eps, self.cls_name)
        validator.check_type(use_locking, [bool], "use_locking", self.cls_name)
        validator.check_type(use_nesterov, [bool], "use_nesterov", self.cls_name)
        self.params = self.parameters
        self.use_nesterov = use_nesterov
        self._init_moments(beta1, beta2, eps, [1])

    def construct(self, gradients: Sequence[Any]) -> tuple:
        return self._adam_step(gradients, centralize=False)


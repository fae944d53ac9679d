"""Optimizer-update primitives that write Parameters in place: ``ApplyMomentum``, ``FusedWeightScaleApplyMomentum``,
``Adam``, ``AdamNoUpdateParam``, ``AdamWeightDecay`` and ``FusedCastAdamWeightDecay``.

Each reads the current values, computes MindSpore's update with TF ops, and assigns the results
to the Parameters passed in (``tf.Variable`` assignments, so they run inside a GRAPH_MODE step).

Example:
    >>> import numpy as np
    >>> from tfspore import Parameter, Tensor, ops
    >>> var = Parameter(Tensor(np.ones(2, np.float32)), name="var")
    >>> acc = Parameter(Tensor(np.zeros(2, np.float32)), name="acc")
    >>> _ = ops.ApplyMomentum()(var, acc, 0.1, Tensor(np.ones(2, np.float32)), 0.9)
    >>> var.asnumpy()
    array([0.9, 0.9], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import other_func as O
from tfspore.ops.function._utils import to_tf
from tfspore.ops.primitive import Primitive, PrimitiveWithInfer, prim_attr_register

__all__ = ["ApplyMomentum", "FusedWeightScaleApplyMomentum", "Adam", "AdamNoUpdateParam", "AdamWeightDecay",
           "FusedCastAdamWeightDecay"]


def _state(name: str, arg: str, x: Any) -> tf.Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Parameter, but got {type(x).__name__}.")
    t = to_tf(x, name, arg)
    if not t.dtype.is_floating:
        raise TypeError(f"For '{name}', the '{arg}' dtype must be float16 or float32, but got {t.dtype.name}.")
    return t


def _scalar(name: str, arg: str, x: Any, dtype: tf.DType) -> tf.Tensor:
    return tf.cast(to_tf(x, name, arg), dtype)


def _mark_update(prim: Primitive, writes_parameter: bool = True, **flags: Any) -> None:
    """Check ``flags`` (``use_locking`` and the like) as bools, in order, and mark ``prim`` as writing
    its inputs (and, with ``writes_parameter``, as updating a Parameter)."""
    for arg, value in flags.items():
        V.check_bool(value, arg, prim.name)
    prim.add_prim_attr("side_effect_mem", True)
    if writes_parameter:
        prim.__dict__["_update_parameter"] = True


def _var_m_v(name: str, var: Any, m: Any, v: Any) -> tuple:
    """The checked values of an Adam-style primitive's ``var``, ``m`` and ``v``."""
    return _state(name, "var", var), _state(name, "m", m), _state(name, "v", v)


def _adam_moments(n: str, mt: tf.Tensor, vt: tf.Tensor, beta1_power: Any, beta2_power: Any, lr: Any, beta1: Any,
                  beta2: Any, epsilon: Any, gradient: Any, dt: tf.DType) -> tuple:
    """Adam's inputs checked and cast to ``dt``, and its new moments: ``(g, new_m, new_v, alpha, beta1,
    epsilon)``, ``alpha`` the bias-corrected step size ``lr * sqrt(1 - beta2_power) / (1 - beta1_power)``."""
    b1p, b2p = _scalar(n, "beta1_power", beta1_power, dt), _scalar(n, "beta2_power", beta2_power, dt)
    lr_t, b1, b2 = _scalar(n, "lr", lr, dt), _scalar(n, "beta1", beta1, dt), _scalar(n, "beta2", beta2, dt)
    eps = _scalar(n, "epsilon", epsilon, dt)
    g = tf.cast(to_tf(gradient, n, "gradient"), dt)
    new_m = mt + (g - mt) * (1 - b1)
    new_v = vt + (g * g - vt) * (1 - b2)
    return g, new_m, new_v, lr_t * tf.sqrt(1 - b2p) / (1 - b1p), b1, eps


def _momentum_update(var: Any, accum: Any, lr: Any, grad: tf.Tensor, momentum: Any, nesterov: bool,
                     name: str) -> Tensor:
    w = _state(name, "variable", var)
    a = _state(name, "accumulation", accum)
    dt = w.dtype
    lr_t, mom = _scalar(name, "learning_rate", lr, dt), _scalar(name, "momentum", momentum, dt)
    g = tf.cast(grad, dt)
    new_a = a * mom + g
    update = g * lr_t + new_a * mom * lr_t if nesterov else lr_t * new_a
    O.assign(accum, new_a)
    return O.assign(var, w - update)


class ApplyMomentum(Primitive):
    """Momentum step: ``accum = accum * momentum + grad``; ``var -= lr * accum``.

    With Nesterov: ``var -= lr * (grad + momentum * accum)``.

    Called as ``ApplyMomentum()(variable, accumulation, learning_rate, gradient, momentum)``; returns
    the updated ``variable``.

    Args:
        use_nesterov: use Nesterov momentum.
        use_locking: accepted for compatibility.
        gradient_scale: multiplies the gradient first.
    """

    @prim_attr_register
    def __init__(self, use_nesterov: bool = False, use_locking: bool = False, gradient_scale: float = 1.0) -> None:
        V.check_bool(use_nesterov, "use_nesterov", self.name)
        V.check_bool(use_locking, "use_locking", self.name)
        if not isinstance(gradient_scale, float):
            raise TypeError(f"For '{self.name}', the 'gradient_scale' must be float, but got "
                            f"{type(gradient_scale).__name__}.")
        self.init_prim_io_names(inputs=["variable", "accumulation", "learning_rate", "gradient", "momentum"],
                                outputs=["output"])
        self.add_prim_attr("side_effect_mem", True)
        self.__dict__["_update_parameter"] = True

    def __call__(self, variable: Any, accumulation: Any, learning_rate: Any, gradient: Any, momentum: Any) -> Tensor:
        g = to_tf(gradient, self.name, "gradient")
        if self.gradient_scale != 1.0:
            g = g * tf.cast(self.gradient_scale, g.dtype)
        return _momentum_update(variable, accumulation, learning_rate, g, momentum, self.use_nesterov, self.name)


class FusedWeightScaleApplyMomentum(PrimitiveWithInfer):
    """Momentum step on ``grad * scale + weight_decay * var``.

    Called as ``(weight_decay, scale, variable, accumulation, learning_rate, gradient, momentum)``;
    returns the updated ``variable``. The gradient is multiplied by the second input: optimizers
    pass the reciprocal of the loss scale there (as the model zoo's ResNet ``Momentum`` does).
    """

    @prim_attr_register
    def __init__(self) -> None:
        self.init_prim_io_names(inputs=["weight_decay", "loss_scale", "variable", "accumulation", "learning_rate",
                                        "gradient", "momentum"], outputs=["output"])
        self.__dict__["_update_parameter"] = True

    def __call__(self, weight_decay: Any, loss_scale: Any, variable: Any, accumulation: Any, learning_rate: Any,
                 gradient: Any, momentum: Any) -> Tensor:
        w = _state(self.name, "variable", variable)
        g = tf.cast(to_tf(gradient, self.name, "gradient"), w.dtype)
        g = g * _scalar(self.name, "loss_scale", loss_scale, w.dtype) + _scalar(self.name, "weight_decay",
                                                                                weight_decay, w.dtype) * w
        return _momentum_update(variable, accumulation, learning_rate, g, momentum, False, self.name)


class Adam(Primitive):
    """Adam step with bias correction from ``beta1_power`` / ``beta2_power``; returns ``(var, m, v)``.

    Called as ``(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)``.

    Args:
        use_locking: accepted for compatibility.
        use_nesterov: Nesterov-style first moment.
    """

    @prim_attr_register
    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        _mark_update(self, use_locking=use_locking, use_nesterov=use_nesterov)

    def __call__(self, var: Any, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any, beta1: Any,
                 beta2: Any, epsilon: Any, gradient: Any) -> tuple:
        w, mt, vt = _var_m_v(self.name, var, m, v)
        g, new_m, new_v, alpha, b1, eps = _adam_moments(self.name, mt, vt, beta1_power, beta2_power, lr, beta1, beta2,
                                                        epsilon, gradient, w.dtype)
        if self.use_nesterov:
            step = alpha * (new_m * b1 + (1 - b1) * g) / (eps + tf.sqrt(new_v))
        else:
            step = alpha * new_m / (eps + tf.sqrt(new_v))
        om, ov = O.assign(m, new_m), O.assign(v, new_v)
        return O.assign(var, w - step), om, ov


class AdamNoUpdateParam(Primitive):
    """Adam's moment updates without the weight update: updates ``m`` and ``v`` and returns the weight delta.

    Called as ``(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)``; returns
    ``-lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m / (sqrt(v) + epsilon)``.

    Args:
        use_locking: accepted for compatibility.
        use_nesterov: accepted for compatibility.
    """

    @prim_attr_register
    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        _mark_update(self, writes_parameter=False, use_locking=use_locking, use_nesterov=use_nesterov)

    def __call__(self, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any, beta1: Any, beta2: Any,
                 epsilon: Any, gradient: Any) -> Tensor:
        n = self.name
        mt, vt = _state(n, "m", m), _state(n, "v", v)
        _, new_m, new_v, alpha, _, eps = _adam_moments(n, mt, vt, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                                                       gradient, mt.dtype)
        O.assign(m, new_m)
        O.assign(v, new_v)
        return _wrap(-alpha * new_m / (tf.sqrt(new_v) + eps))


def _adamw_scalars(n: str, lr: Any, beta1: Any, beta2: Any, epsilon: Any, decay: Any, dt: tf.DType) -> tuple:
    """``(lr, beta1, beta2, epsilon, decay)`` as scalar tensors of ``dt``, checked for primitive ``n``."""
    return (_scalar(n, "lr", lr, dt), _scalar(n, "beta1", beta1, dt), _scalar(n, "beta2", beta2, dt),
            _scalar(n, "epsilon", epsilon, dt), _scalar(n, "decay", decay, dt))


def _adamw_update(m: Any, v: Any, w: tf.Tensor, mt: tf.Tensor, vt: tf.Tensor, g: tf.Tensor, lr_t: tf.Tensor,
                  b1: tf.Tensor, b2: tf.Tensor, eps: tf.Tensor, wd: tf.Tensor) -> tuple:
    """Assign the new moments to ``m`` and ``v``; return ``(new var value, new m, new v)`` (AdamW, no bias
    correction)."""
    new_m = mt * b1 + g * (1 - b1)
    new_v = vt * b2 + g * g * (1 - b2)
    update = new_m / (tf.sqrt(new_v) + eps) + wd * w
    om, ov = O.assign(m, new_m), O.assign(v, new_v)
    return w - lr_t * update, om, ov


class AdamWeightDecay(Primitive):
    """AdamW step without bias correction: ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)``.

    Returns ``(var, m, v)``.

    Called as ``(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)``.

    Args:
        use_locking: accepted for compatibility.
    """

    @prim_attr_register
    def __init__(self, use_locking: bool = False) -> None:
        _mark_update(self, use_locking=use_locking)

    def __call__(self, var: Any, m: Any, v: Any, lr: Any, beta1: Any, beta2: Any, epsilon: Any, decay: Any,
                 gradient: Any) -> tuple:
        n = self.name
        w, mt, vt = _var_m_v(n, var, m, v)
        dt = w.dtype
        hyper = _adamw_scalars(n, lr, beta1, beta2, epsilon, decay, dt)
        g = tf.cast(to_tf(gradient, n, "gradient"), dt)
        new_w, om, ov = _adamw_update(m, v, w, mt, vt, g, *hyper)
        return O.assign(var, new_w), om, ov



class FusedCastAdamWeightDecay(PrimitiveWithInfer):
    """:class:`AdamWeightDecay` on ``gradient / global_norm`` computed in float32, for float16 or float32 ``var``.

    Called as ``(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm)``; returns ``(var, m, v)``.

    Args:
        use_locking: accepted for compatibility.
    """

    @prim_attr_register
    def __init__(self, use_locking: bool = False) -> None:
        _mark_update(self, use_locking=use_locking)

    def __call__(self, var: Any, m: Any, v: Any, lr: Any, beta1: Any, beta2: Any, epsilon: Any, decay: Any,
                 gradient: Any, global_norm: Any) -> tuple:
        n = self.name
        w, mt, vt = _var_m_v(n, var, m, v)
        f32 = tf.float32
        w32, mt, vt = tf.cast(w, f32), tf.cast(mt, f32), tf.cast(vt, f32)
        hyper = _adamw_scalars(n, lr, beta1, beta2, epsilon, decay, f32)
        g = tf.cast(to_tf(gradient, n, "gradient"), f32) / _scalar(n, "global_norm", global_norm, f32)
        new_w, om, ov = _adamw_update(m, v, w32, mt, vt, g, *hyper)
        return O.assign(var, tf.cast(new_w, w.dtype)), om, ov

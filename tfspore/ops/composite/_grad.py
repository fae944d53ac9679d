"""Automatic differentiation: ``GradOperation``, ``grad``, ``value_and_grad``, ``vjp``, ``jvp``.

Everything rides on ``tf.GradientTape``: the tape watches the requested inputs and the
``tf.Variable`` of each requested Parameter. It works eagerly (PYNATIVE_MODE) and while a
``tf.function`` is traced (GRAPH_MODE constructs, ``jit``), so the backward pass of a compiled
train step is part of the same graph. Gradients of inputs the output does not depend on are
zeros, as in MindSpore.

Example:
    >>> import numpy as np
    >>> import tfspore as ms
    >>> def f(x):
    ...     return (x * x).sum()
    >>> ms.grad(f)(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  4.00000000e+00])
"""
from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

from tfspore.common.parameter import Parameter, ParameterTuple
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap_nest as _wrap_nest
from tfspore.common.tensor import Tensor
from tfspore.ops.composite.tape import differentiate

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp"]


def _as_weight_list(api: str, weights: Any) -> list[Parameter]:
    if weights is None:
        return []
    if isinstance(weights, Parameter):
        return [weights]
    if isinstance(weights, (list, tuple, ParameterTuple)):
        out = []
        for i, w in enumerate(weights):
            if not isinstance(w, Parameter):
                raise TypeError(f"For '{api}', the 'weights' must be a Parameter, a ParameterTuple or a list of "
                                f"Parameters, but item {i} is {type(w).__name__}.")
            out.append(w)
        return out
    if hasattr(weights, "trainable_params"):
        return list(weights.trainable_params())
    raise TypeError(f"For '{api}', the 'weights' must be a Parameter, a ParameterTuple or a list of Parameters, but "
                    f"got {type(weights).__name__}.")


class GradOperation:
    """A higher-order function that builds the gradient function of a network or function.

    Args:
        get_all: return the gradients of all inputs (otherwise of the first input only).
        get_by_list: return the gradients of the ``weights`` given when calling.
        sens_param: the generated function takes an extra last input, the sensitivity (the
            gradient of the output), instead of ones.

    Example:
        >>> grad_op = GradOperation(get_by_list=True)
        >>> # grads = grad_op(net, ParameterTuple(net.trainable_params()))(x, y)
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False) -> None:
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' must be bool, but got {type(v).__name__}.")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn: Callable, weights: Any = None) -> Callable:
        if not callable(fn):
            raise TypeError(f"For 'GradOperation', the 'fn' must be a Cell or a function, but got "
                            f"{type(fn).__name__}.")
        if self.get_by_list and weights is None:
            raise TypeError("For 'GradOperation', 'get_by_list' is True, so 'weights' must be given.")
        w_list = _as_weight_list("GradOperation", weights) if self.get_by_list else []

        def grad_fn(*args: Any) -> Any:
            sens = None
            if self.sens_param:
                if not args:
                    raise TypeError("For 'GradOperation', 'sens_param' is True, so the sensitivity must be passed as "
                                    "the last input, but got no inputs.")
                args, sens = args[:-1], args[-1]
            positions = list(range(len(args))) if self.get_all else ([0] if args else [])
            _, in_g, w_g = differentiate(fn, args, positions, w_list, sens)
            in_t = tuple(_wrap_nest(g) for g in in_g)
            w_t = tuple(_wrap_nest(g) for g in w_g)
            if self.get_by_list:
                return (in_t, w_t) if self.get_all else w_t
            if self.get_all:
                return in_t
            return in_t[0] if in_t else ()
        return grad_fn


def _positions(api: str, grad_position: Any, n: int) -> tuple[list[int], bool]:
    if grad_position is None:
        return [], False
    if isinstance(grad_position, int) and not isinstance(grad_position, bool):
        pos, single = [grad_position], True
    elif isinstance(grad_position, (tuple, list)) and grad_position and all(
            isinstance(p, int) and not isinstance(p, bool) for p in grad_position):
        pos, single = list(grad_position), False
    else:
        raise TypeError(f"For '{api}', the 'grad_position' must be an int, a non-empty tuple of ints or None, but "
                        f"got {grad_position!r}.")
    for p in pos:
        if p < 0 or p >= n:
            raise ValueError(f"For '{api}', the 'grad_position' {p} is out of range for {n} inputs.")
    return pos, single


def _build(api: str, fn: Callable, grad_position: Any, weights: Any, has_aux: bool, return_ids: bool,
           with_value: bool) -> Callable:
    if not callable(fn):
        raise TypeError(f"For '{api}', the 'fn' must be a Cell or a function, but got {type(fn).__name__}.")
    if grad_position is None and weights is None:
        raise ValueError(f"For '{api}', 'grad_position' and 'weights' can not both be None.")
    w_list = _as_weight_list(api, weights)

    def run(*args: Any) -> Any:
        pos, single = _positions(api, grad_position, len(args))
        out, in_g, w_g = differentiate(fn, args, pos, w_list, None, has_aux)
        in_t = tuple(_wrap_nest(g) for g in in_g)
        w_t = tuple(_wrap_nest(g) for g in w_g)
        if return_ids:
            in_t = tuple((p, g) for p, g in zip(pos, in_t))
            w_t = tuple((w.name, g) for w, g in zip(w_list, w_t))
        in_part = in_t[0] if single else in_t
        if grad_position is not None and weights is not None:
            grads = (in_part, w_t)
        elif weights is not None:
            grads = w_t
        else:
            grads = in_part
        out = _wrap_nest(out)
        if with_value:
            return out, grads
        if has_aux:
            return grads, tuple(out[1:])
        return grads
    return run


def value_and_grad(fn: Callable, grad_position: Any = 0, weights: Any = None, has_aux: bool = False,
                   return_ids: bool = False) -> Callable:
    """Return a function computing ``fn``'s value and its gradients.

    Args:
        fn: a Cell or function.
        grad_position: the input position(s) to differentiate (int, tuple, or None for none).
        weights: Parameters to differentiate (a Parameter, list, ParameterTuple, or None).
        has_aux: ``fn`` returns ``(loss, aux...)``; only ``loss`` is differentiated.
        return_ids: pair each gradient with its position or parameter name.

    Returns:
        A function returning ``(value, grads)``: grads is ``(input grads, weight grads)`` when both
        are requested.

    Raises:
        ValueError: when both ``grad_position`` and ``weights`` are None.
    """
    return _build("value_and_grad", fn, grad_position, weights, has_aux, return_ids, True)


def grad(fn: Callable, grad_position: Any = 0, weights: Any = None, has_aux: bool = False,
         return_ids: bool = False) -> Callable:
    """Return a function computing the gradients of ``fn`` (see :func:`value_and_grad`).

    With ``has_aux`` it returns ``(grads, aux)``.
    """
    return _build("grad", fn, grad_position, weights, has_aux, return_ids, False)


def vjp(fn: Callable, *inputs: Any, weights: Any = None, has_aux: bool = False) -> tuple:
    """Return ``(outputs, vjp_fn)``; ``vjp_fn(v)`` gives the vector-Jacobian products for the inputs."""
    outs_holder: dict = {}

    def vjp_fn(*v: Any) -> Any:
        sens = v[0] if len(v) == 1 else v
        _, in_g, _ = differentiate(fn, inputs, list(range(len(inputs))), [], sens, has_aux)
        res = tuple(_wrap_nest(g) for g in in_g)
        return res[0] if len(res) == 1 else res
    out = fn(*inputs)
    outs_holder["out"] = out
    if has_aux:
        return out[0], vjp_fn, tuple(out[1:])
    return out, vjp_fn


def jvp(fn: Callable, inputs: Any, v: Any, has_aux: bool = False) -> tuple:
    """Return ``(outputs, jvp)``: the Jacobian-vector product of ``fn`` at ``inputs`` along ``v``."""
    ins = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    vs = v if isinstance(v, (tuple, list)) else (v,)
    prim = [tf.convert_to_tensor(_unwrap_nest(x)) for x in ins]
    tang = [tf.cast(tf.convert_to_tensor(_unwrap_nest(t)), p.dtype) for t, p in zip(vs, prim)]
    with tf.autodiff.ForwardAccumulator(prim, tang) as acc:
        out = fn(*[Tensor._from_tf(p) for p in prim])
    target = out[0] if has_aux else out
    flat = tf.nest.flatten(_unwrap_nest(target))
    jv = [acc.jvp(t, unconnected_gradients=tf.UnconnectedGradients.ZERO) for t in flat]
    jv_s = _wrap_nest(tf.nest.pack_sequence_as(_unwrap_nest(target), jv))
    if has_aux:
        return _wrap_nest(target), jv_s, tuple(_wrap_nest(out[1:]))
    return _wrap_nest(out), jv_s

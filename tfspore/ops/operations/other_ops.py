"""Other primitives: ``Depend``, ``StopGradient``, ``Assign``, ``AssignAdd``, ``AssignSub``, ``Partial``.

Example:
    >>> import numpy as np
    >>> from tfspore import Parameter, Tensor, ops
    >>> p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
    >>> _ = ops.Assign()(p, Tensor(np.ones(2, np.float32)))
    >>> p.asnumpy()
    array([1., 1.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from tfspore.ops.function import other_func as O
from tfspore.ops.operations._helpers import simple_prim
from tfspore.ops.primitive import Primitive, prim_attr_register

_M = __name__

__all__ = ["Depend", "StopGradient", "Assign", "AssignAdd", "AssignSub", "Partial", "identity", "UpdateState",
           "Load", "HookBackward"]

Depend = simple_prim("Depend", O.depend, "``Depend()(value, expr)``: ``value``, ordered after ``expr``.", _M)
StopGradient = simple_prim("StopGradient", O.stop_gradient, "Block gradients through the input.", _M)
Partial = simple_prim("Partial", O.partial, "``Partial()(func, *args)``: bind leading arguments.", _M)
identity = simple_prim("identity", O.identity_, "Return the input (a copy for Tensors).", _M)
UpdateState = simple_prim("UpdateState", lambda *args: args[0] if args else None,
                          "Side-effect ordering marker (returns its first input).", _M)
Load = simple_prim("Load", lambda x, u=None: x, "Read a Parameter's value.", _M)


class _AssignBase(Primitive):
    _fn = None

    @prim_attr_register
    def __init__(self) -> None:
        self.__dict__["_update_parameter"] = True

    def __call__(self, variable: Any, value: Any) -> Any:
        return type(self)._fn(variable, value)


class Assign(_AssignBase):
    """``Assign()(variable, value)``: set a Parameter in place and return the new value."""

    _fn = staticmethod(O.assign)


class AssignAdd(_AssignBase):
    """``AssignAdd()(variable, value)``: add to a Parameter in place and return the new value."""

    _fn = staticmethod(O.assign_add)


class AssignSub(_AssignBase):
    """``AssignSub()(variable, value)``: subtract from a Parameter in place and return the new value."""

    _fn = staticmethod(O.assign_sub)


class HookBackward(Primitive):
    """Call ``hook_fn`` with the gradient flowing back through the input (identity in the forward pass).

    Args:
        hook_fn: called with the gradient; it may return a replacement.
        cell_id: accepted for compatibility.
    """

    @prim_attr_register
    def __init__(self, hook_fn: Any, cell_id: str = "") -> None:
        if not callable(hook_fn):
            raise TypeError(f"For 'HookBackward', the 'hook_fn' must be callable, but got {type(hook_fn).__name__}.")

    def __call__(self, *inputs: Any) -> Any:
        import tensorflow as tf
        from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap as _wrap
        from tfspore.common.tensor import Tensor
        hook = self.hook_fn

        @tf.custom_gradient
        def ident(x: tf.Tensor) -> Any:
            def grad(g: tf.Tensor) -> tf.Tensor:
                res = hook(Tensor._from_tf(g))
                if res is None:
                    return g
                if isinstance(res, tuple):
                    res = res[0]
                return tf.convert_to_tensor(_unwrap_nest(res))
            return tf.identity(x), grad
        outs = tuple(_wrap(ident(tf.convert_to_tensor(_unwrap_nest(x)))) for x in inputs)
        return outs[0] if len(outs) == 1 else outs

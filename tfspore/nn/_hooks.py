"""Cell hook machinery: removable handles and the hooks' place in forward and backward passes.

Forward hooks run around ``construct``; backward hooks run inside the gradient of identity ops
placed around it (MindSpore's CellBackwardHook). Hooks see concrete values in both modes: inside
a trace (GRAPH_MODE, ``jit``) they run through ``tf.py_function``.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

import tensorflow as tf

from tfspore._internal import state as _state
from tfspore._internal.tensor_wrap import as_tf as _as_tf, unwrap_nest as _unwrap_nest
from tfspore.common.tensor import Tensor

__all__ = ["HookHandle"]


class HookHandle:
    """A handle returned by the ``register_*hook`` methods; ``remove()`` unregisters the hook.

    Args:
        hooks: the ordered dict the hook is registered in.
        extra: dicts keyed by the same handle id (per-hook options such as ``with_kwargs``).
    """

    _next_id = 0

    def __init__(self, hooks: "OrderedDict[int, Any]", *extra: dict) -> None:
        HookHandle._next_id += 1
        self.handle_id = HookHandle._next_id
        self._hooks = hooks
        self._extra = extra

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        self._hooks.pop(self.handle_id, None)
        for extra in self._extra:
            extra.pop(self.handle_id, None)
        _state.bump()

    def __enter__(self) -> "HookHandle":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


def _check_hook(api: str, fn: Any) -> None:
    if not callable(fn):
        raise TypeError(f"For '{api}', the 'hook_fn' must be a callable function, but got {fn!r} of type "
                        f"{type(fn).__name__}.")


def _is_tensor(value: Any) -> bool:
    return isinstance(value, (Tensor, tf.Tensor))


def _is_float_tensor(value: Any) -> bool:
    return _is_tensor(value) and _unwrap_nest(value).dtype.is_floating


def _run_with_values(fn: Callable[[Any], Any], struct: Any, template: Any) -> Any:
    """Run ``fn(struct)`` with concrete tensor values and return its result, shaped like ``template``.

    Eagerly this is a plain call. Inside a trace (GRAPH_MODE, ``jit``) the call goes through
    ``tf.py_function``, so hooks see real values at every step, as in PyNative mode; the result
    must then have as many leaves as ``template``, and its tensors take the template's dtypes
    and static shapes.
    """
    if tf.executing_eagerly():
        return fn(struct)
    flat_in = tf.nest.flatten(struct)
    in_pos = [i for i, v in enumerate(flat_in) if _is_tensor(v)]
    flat_tmpl = tf.nest.flatten(template)
    out_pos = [i for i, v in enumerate(flat_tmpl) if _is_tensor(v)]
    if not out_pos:
        return fn(struct)
    tmpl = [tf.convert_to_tensor(_unwrap_nest(flat_tmpl[i])) for i in out_pos]

    def concrete(*values: tf.Tensor) -> list:
        rebuilt = list(flat_in)
        for i, v in zip(in_pos, values):
            rebuilt[i] = Tensor._from_tf(v)
        result = tf.nest.flatten(fn(tf.nest.pack_sequence_as(struct, rebuilt)))
        if len(result) != len(flat_tmpl):
            raise TypeError(f"The hook return value size is {len(result)} not equal to the expected size "
                            f"{len(flat_tmpl)}.")
        return [_as_tf(result[i], t.dtype) for i, t in zip(out_pos, tmpl)]

    # gradients flow through the template's tensors only: the others are just observed
    passed = [any(flat_in[i] is v for v in flat_tmpl) for i in in_pos]
    inputs = [tf.convert_to_tensor(_unwrap_nest(flat_in[i])) for i in in_pos]
    inputs = [t if p else tf.stop_gradient(t) for t, p in zip(inputs, passed)]
    outs = tf.py_function(concrete, inputs, [t.dtype for t in tmpl])
    flat_out = list(flat_tmpl)
    for i, out, t in zip(out_pos, outs, tmpl):
        out.set_shape(t.shape)
        flat_out[i] = Tensor._from_tf(out)
    return tf.nest.pack_sequence_as(template, flat_out)


def _grad_identity(xs: list, on_grad: Callable[[tuple], tuple]) -> list:
    """Identity on ``xs`` whose backward pass returns ``on_grad(upstream gradients)``."""

    @tf.custom_gradient
    def identity(*ts: tf.Tensor) -> Any:
        def grad(*gs: Any) -> list:
            gs = tuple(tf.zeros_like(t) if g is None else g for g, t in zip(gs, ts))
            return [_as_tf(g, t.dtype) for g, t in zip(on_grad(gs), ts)]
        return [tf.identity(t) for t in ts], grad

    return list(identity(*xs))


class _BackwardHookScope:
    """The identity ops placed around one call of a Cell that has backward hooks.

    The output gradient first passes the backward pre-hooks and is kept as ``grad_output``;
    the input gradient then passes the backward hooks with it (MindSpore's CellBackwardHook).
    """

    def __init__(self, cell: Any) -> None:
        self.cell = cell
        self.grad_output: tuple = ()

    @staticmethod
    def _wrap(struct: Any, on_grad: Callable[[tuple], tuple]) -> Any:
        flat = tf.nest.flatten(struct)
        pos = [i for i, v in enumerate(flat) if _is_float_tensor(v)]
        if not pos:
            return struct
        outs = _grad_identity([tf.convert_to_tensor(_unwrap_nest(flat[i])) for i in pos], on_grad)
        for i, t in zip(pos, outs):
            flat[i] = Tensor._from_tf(t)
        return tf.nest.pack_sequence_as(struct, flat)

    def inputs(self, args: tuple) -> tuple:
        return self._wrap(args, self._on_grad_input)

    def outputs(self, output: Any) -> Any:
        return self._wrap(output, self._on_grad_output)

    def _on_grad_output(self, grads: tuple) -> tuple:
        grads = tuple(Tensor._from_tf(g) for g in grads)
        if self.cell._backward_pre_hook:
            grads = _run_with_values(self.cell._run_backward_pre_hook, grads, grads)
        self.grad_output = grads
        return grads

    def _on_grad_input(self, grads: tuple) -> tuple:
        grads = tuple(Tensor._from_tf(g) for g in grads)
        if not self.cell._backward_hook:
            return grads
        return _run_with_values(lambda s: self.cell._run_backward_hook(*s), (grads, self.grad_output), grads)

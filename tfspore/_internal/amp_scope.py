"""Mixed-precision scopes read by cells and primitives while a construct runs.

``tfspore.amp`` marks cells of a network (``cell.__dict__['_amp_cell']``, an :class:`AmpCell`).
A marked cell casts its inputs and outputs as its mark says and installs the mark's primitive
scope (an :class:`AmpScope`) for the duration of its ``construct``; unmarked cells inherit the
scope of their caller. Primitives consult the current scope when they are called
(:func:`run_primitive`). In GRAPH_MODE all of this happens while ``construct`` is traced, so the
compiled step holds only the casts; outside a marked network the cost is one attribute read.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

import tensorflow as tf

from tfspore._internal.tensor_wrap import Tensor, unwrap_nest as _unwrap_nest, wrap as _wrap

__all__ = ["AmpScope", "AmpCell", "INHERIT", "current", "swap", "run_primitive", "cast_floats"]

_local = threading.local()
INHERIT = object()
"""An :class:`AmpCell` scope that keeps the caller's primitive scope."""


class AmpScope:
    """Which primitives run in low precision, and how.

    Args:
        dtype: the low-precision ``tf.DType`` (float16 or bfloat16).
        white: primitive classes (exact types) whose floating inputs are cast to ``dtype`` and whose
            floating outputs are cast back to float32 (levels O1 and custom white lists).
        force: cast every primitive as ``white`` does (inside a white-list cell).
        auto_white, auto_black, auto_promote: primitive class names for the ``auto`` strategy: run in
            ``dtype`` (outputs stay low), run in float32, run in the widest floating input type.
    """

    __slots__ = ("dtype", "white", "force", "auto_white", "auto_black", "auto_promote")

    def __init__(self, dtype: tf.DType, white: frozenset = frozenset(), force: bool = False,
                 auto_white: frozenset = frozenset(), auto_black: frozenset = frozenset(),
                 auto_promote: frozenset = frozenset()) -> None:
        self.dtype = dtype
        self.white = frozenset(white)
        self.force = force
        self.auto_white = frozenset(auto_white)
        self.auto_black = frozenset(auto_black)
        self.auto_promote = frozenset(auto_promote)

    def _key(self) -> tuple:
        return (self.dtype, self.white, self.force, self.auto_white, self.auto_black, self.auto_promote)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AmpScope) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"AmpScope(dtype={self.dtype.name}, force={self.force}, white={len(self.white)})"


class AmpCell:
    """The mixed-precision mark of one cell.

    Args:
        scope: the :class:`AmpScope` installed while the cell's construct runs, None for no primitive
            casts (a cell whose precision the user set with ``to_float``), or :data:`INHERIT`.
        cast_in: cast the cell's floating inputs to this ``tf.DType`` (None: leave them).
        cast_out: cast the cell's floating outputs to this ``tf.DType`` (None: leave them).
    """

    __slots__ = ("scope", "cast_in", "cast_out")

    def __init__(self, scope: Any = INHERIT, cast_in: tf.DType | None = None, cast_out: tf.DType | None = None) -> None:
        self.scope = scope
        self.cast_in = cast_in
        self.cast_out = cast_out

    def _key(self) -> tuple:
        return (id(self.scope) if self.scope is INHERIT else self.scope, self.cast_in, self.cast_out)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AmpCell) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def run(self, args: tuple, kwargs: dict, body: Callable[[tuple, dict], Any]) -> Any:
        """Run ``body(args, kwargs)`` with this mark's casts and primitive scope."""
        if self.cast_in is not None:
            args = tuple(cast_floats(a, self.cast_in) for a in args)
            kwargs = {k: cast_floats(v, self.cast_in) for k, v in kwargs.items()}
        if self.scope is INHERIT:
            out = body(args, kwargs)
        else:
            prev = swap(self.scope)
            try:
                out = body(args, kwargs)
            finally:
                swap(prev)
        if self.cast_out is not None:
            out = cast_floats(out, self.cast_out)
        return out

    def __repr__(self) -> str:
        return f"AmpCell(scope={self.scope!r}, cast_in={self.cast_in}, cast_out={self.cast_out})"


def current() -> AmpScope | None:
    """The primitive scope of the construct running on this thread (None outside amp networks)."""
    return getattr(_local, "scope", None)


def swap(scope: AmpScope | None) -> AmpScope | None:
    """Install ``scope`` on this thread and return the previous one."""
    prev = getattr(_local, "scope", None)
    _local.scope = scope
    return prev


def _float_value(x: Any) -> tf.Tensor | None:
    if isinstance(x, Tensor):
        v = x._value()
    elif isinstance(x, (tf.Tensor, tf.Variable)):
        v = x
    else:
        return None
    return v if v.dtype.is_floating else None


def cast_floats(x: Any, dtype: tf.DType) -> Any:
    """Cast the floating Tensors in ``x`` (nested tuples, lists and dicts too) to ``dtype``."""
    if isinstance(x, (tuple, list)):
        vals = [cast_floats(i, dtype) for i in x]
        if isinstance(x, tuple) and hasattr(x, "_fields"):
            return type(x)(*vals)
        return type(x)(vals)
    if isinstance(x, dict):
        return {k: cast_floats(v, dtype) for k, v in x.items()}
    v = _float_value(x)
    if v is None or (v.dtype == dtype and not isinstance(v, tf.Variable)):
        return x
    out = tf.cast(v, dtype) if v.dtype != dtype else tf.convert_to_tensor(v)
    return out if isinstance(x, (tf.Tensor, tf.Variable)) and not isinstance(x, Tensor) else _wrap(out)


def _widest(args: tuple) -> tf.DType | None:
    order = {tf.float16: 1, tf.bfloat16: 1, tf.float32: 2, tf.float64: 3}
    best = None
    for a in tf.nest.flatten(_unwrap_nest(args)):
        dt = getattr(a, "dtype", None)
        if isinstance(dt, tf.DType) and dt.is_floating and (best is None or order.get(dt, 0) > order.get(best, 0)):
            best = dt
    return best


def run_primitive(prim: Any, call: Callable, args: tuple, kwargs: dict) -> Any:
    """Call ``call(prim, *args, **kwargs)`` as the current scope says for ``prim``."""
    scope = current()
    if scope is None:
        return call(prim, *args, **kwargs)
    cls = type(prim)
    name = cls.__name__
    if name == "Cast":
        return call(prim, *args, **kwargs)
    if scope.force or cls in scope.white:
        low = scope.dtype
        out = call(prim, *(cast_floats(a, low) if not isinstance(a, (tuple, list)) else a for a in args), **kwargs)
        return cast_floats(out, tf.float32) if not scope.force else out
    if name in scope.auto_white:
        return call(prim, *(cast_floats(a, scope.dtype) if not isinstance(a, (tuple, list)) else a for a in args),
                    **kwargs)
    if name in scope.auto_black:
        return call(prim, *(cast_floats(a, tf.float32) if not isinstance(a, (tuple, list)) else a for a in args),
                    **kwargs)
    if name in scope.auto_promote:
        wide = _widest(args)
        if wide is not None:
            args = tuple(cast_floats(a, wide) for a in args)
        return call(prim, *args, **kwargs)
    return call(prim, *args, **kwargs)

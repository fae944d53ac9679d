"""``MultitypeFuncGraph``, ``HyperMap`` and ``Map``: type-dispatched functions and element-wise mapping.

MindSpore optimizers are written with them (``hyper_map(partial(_update, opt), grads, params)``);
here they run as plain Python, which is also what happens inside a GRAPH_MODE trace.

Example:
    >>> from tfspore.ops.composite import MultitypeFuncGraph, HyperMap
    >>> add = MultitypeFuncGraph("add")
    >>> @add.register("Number", "Number")
    ... def _(x, y):
    ...     return x + y
    >>> HyperMap()(add, (1, 2), (10, 20))
    (11, 22)
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore._internal import control_flow as _control_flow
from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor
from tfspore.common import RowTensor

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "add_flags", "core", "env_get", "zip_operation", "tail"]

# type name -> predicate, most specific first
_PREDICATES: dict = {
    "Tensor": lambda x: isinstance(x, (Tensor, tf.Tensor, tf.Variable)),
    "RowTensor": lambda x: isinstance(x, RowTensor),
    "COOTensor": lambda x: False,
    "CSRTensor": lambda x: False,
    "MapTensor": lambda x: False,
    "Bool": lambda x: isinstance(x, (bool, np.bool_)),
    "Int": lambda x: isinstance(x, numbers.Integral) and not isinstance(x, bool),
    "UInt": lambda x: isinstance(x, numbers.Integral) and not isinstance(x, bool) and x >= 0,
    "Float": lambda x: isinstance(x, numbers.Real) and not isinstance(x, numbers.Integral),
    "Number": lambda x: isinstance(x, numbers.Number),
    "String": lambda x: isinstance(x, str),
    "Tuple": lambda x: isinstance(x, tuple),
    "List": lambda x: isinstance(x, list),
    "Dictionary": lambda x: isinstance(x, dict),
    "None": lambda x: x is None,
    "Function": callable,
    "Slice": lambda x: isinstance(x, slice),
    "Ellipsis": lambda x: x is Ellipsis,
    "Type": lambda x: isinstance(x, mstype.Type),
}
_SPECIFICITY = {"Tensor": 3, "Bool": 3, "Int": 3, "UInt": 3, "Float": 3, "String": 3, "Tuple": 3, "List": 3,
                "Dictionary": 3, "None": 3, "Slice": 3, "Ellipsis": 3, "Type": 3, "Number": 2, "Function": 1}


def _type_key(t: Any) -> str:
    if isinstance(t, str):
        return t
    if isinstance(t, mstype.TensorType) or t is mstype.tensor_type:
        return "Tensor"
    if isinstance(t, mstype.Type):
        return {"Number": "Number", "Int": "Int", "UInt": "UInt", "Float": "Float", "List": "List",
                "Tuple": "Tuple", "TypeNone": "None", "Bool": "Bool", "String": "String"}.get(str(t), "Tensor")
    if isinstance(t, type):
        if issubclass(t, Tensor):
            return "Tensor"
        return {bool: "Bool", int: "Int", float: "Float", str: "String", tuple: "Tuple", list: "List",
                dict: "Dictionary", type(None): "None"}.get(t, t.__name__)
    return str(t)


class MultitypeFuncGraph:
    """A function whose implementation is chosen by the types of its arguments.

    Args:
        name: the name.
        read_value: accepted for compatibility.
        doc_url: accepted for compatibility.

    Raises:
        TypeError: when called with argument types no registered implementation accepts.
    """

    def __init__(self, name: str, read_value: bool = False, doc_url: str = "") -> None:
        self.name = name
        self.entries: list = []

    def register(self, *type_names: Any) -> Callable:
        """Decorator registering an implementation for argument types such as ``"Tensor", "Number"``."""
        keys = tuple(_type_key(t) for t in type_names)
        for k in keys:
            if k not in _PREDICATES:
                raise TypeError(f"For 'MultitypeFuncGraph.register', unknown type name '{k}' in {type_names!r}.")

        def deco(fn: Callable) -> Callable:
            self.entries.append((keys, fn))
            return fn
        return deco

    def _match(self, args: tuple) -> Callable | None:
        best, best_score = None, -1
        for keys, fn in self.entries:
            if len(keys) != len(args):
                continue
            if all(_PREDICATES[k](a) for k, a in zip(keys, args)):
                score = sum(_SPECIFICITY.get(k, 1) for k in keys)
                if score > best_score:
                    best, best_score = fn, score
        return best

    def __call__(self, *args: Any) -> Any:
        fn = self._match(args)
        if fn is None:
            types = ", ".join(type(a).__name__ for a in args)
            raise TypeError(f"For 'MultitypeFuncGraph', the '{self.name}' has no registered implementation for the "
                            f"argument types ({types}).")
        return _control_flow.call(fn, args, {})  # a user body's Tensor conditions become graph control flow

    def __repr__(self) -> str:
        return f"MultitypeFuncGraph({self.name!r})"


def _is_seq(x: Any) -> bool:
    return isinstance(x, (tuple, list))


def _map(fn: Callable, args: tuple, reverse: bool, recursive: bool) -> Any:
    seqs = [a for a in args if _is_seq(a)]
    if not seqs:
        return fn(*args)
    n = len(seqs[0])
    for s in seqs:
        if len(s) != n:
            raise ValueError(f"For 'HyperMap', the sequences must have the same length, but got lengths "
                             f"{[len(x) for x in seqs]}.")
    order = range(n - 1, -1, -1) if reverse else range(n)
    out = [None] * n
    for i in order:
        item = tuple(a[i] if _is_seq(a) else a for a in args)
        if recursive and any(_is_seq(x) for x in item):
            out[i] = _map(fn, item, reverse, recursive)
        else:
            out[i] = fn(*item)
    return type(seqs[0])(out) if isinstance(seqs[0], list) else tuple(out)


class HyperMap:
    """Apply a function element-wise over tuples / lists (recursively through nested ones).

    Args:
        ops: a fixed function; when None, the function is the first call argument.
        reverse: visit elements in reverse order (results keep their positions).

    Example:
        >>> HyperMap()(lambda a, b: a * b, (1, 2), (3, 4))
        (3, 8)
    """

    _recursive = True

    def __init__(self, ops: Callable | None = None, reverse: bool = False) -> None:
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> Any:
        if self.ops is not None:
            fn, rest = self.ops, args
        else:
            if not args or not callable(args[0]):
                raise TypeError(f"For '{type(self).__name__}', the first argument must be a function when 'ops' is "
                                f"None, but got {type(args[0]).__name__ if args else 'nothing'}.")
            fn, rest = args[0], args[1:]
        return _map(fn, rest, self.reverse, self._recursive)


class Map(HyperMap):
    """Apply a function element-wise over tuples / lists (one level, not recursive).

    Args:
        ops: a fixed function; when None, the function is the first call argument.
        reverse: visit elements in reverse order.
    """

    _recursive = False


def add_flags(fn: Callable | None = None, **flags: Any) -> Any:
    """Attach attributes to a function (MindSpore compiler flags); returns the function."""
    def deco(f: Callable) -> Callable:
        try:
            f._ms_flags = dict(getattr(f, "_ms_flags", {}), **flags)  # type: ignore[attr-defined]
        except AttributeError:
            pass
        return f
    return deco(fn) if fn is not None else deco


def core(fn: Callable | None = None, **flags: Any) -> Any:
    """Mark a function as a core graph (a no-op here)."""
    return add_flags(fn, **flags) if fn is not None else add_flags(**flags)


def env_get(env: Any, key: Any, default: Any) -> Any:
    """Look ``key`` up in a dict-like environment."""
    try:
        return env[key]
    except (KeyError, TypeError, IndexError):
        return default


def zip_operation(*args: Any) -> tuple:
    """``tuple(zip(*args))``."""
    return tuple(zip(*args))


def tail(x: tuple) -> tuple:
    """All elements but the first."""
    return tuple(x[1:])

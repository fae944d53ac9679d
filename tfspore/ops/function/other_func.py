"""Ordering, gradient control, in-place updates and printing (``ops.depend``, ``ops.assign``, ``ops.print_``).

Example:
    >>> import numpy as np
    >>> from tfspore import Parameter, Tensor, ops
    >>> p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
    >>> ops.assign_add(p, Tensor(np.ones(2, np.float32)))
    Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  1.00000000e+00])
"""
from __future__ import annotations

import functools
import sys
from typing import Any

import tensorflow as tf

from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap as _wrap, wrap_nest as _wrap_nest
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import to_tf

__all__ = ["depend", "stop_gradient", "assign", "assign_add", "assign_sub", "print_", "partial", "identity_",
           "scalar_cast", "scalar_to_array", "tuple_len", "make_tuple", "shape_mul", "isconstant", "typeof",
           "hastype", "make_range"]


def _flat_tensors(struct: Any) -> list:
    out = []
    for x in tf.nest.flatten(_unwrap_nest(struct), expand_composites=False):
        if isinstance(x, tf.Variable):
            continue
        if isinstance(x, (tf.Tensor, tf.Operation)):
            out.append(x)
    return out


def depend(value: Any, expr: Any) -> Any:
    """Return ``value``, ordered after the computations of ``expr``.

    Eagerly, ``expr`` has already run, so ``value`` comes back unchanged. While a GRAPH_MODE
    function is traced, the tensors of ``value`` get control dependencies on the tensors of
    ``expr`` (for example an optimizer's update results), so those side effects run first.

    Args:
        value: a Tensor or a nested structure of Tensors.
        expr: a Tensor, an op result or a nested structure of them (non-tensors are ignored).

    Returns:
        ``value``; a Parameter is returned as itself (its later reads see later assignments).
    """
    deps = _flat_tensors(expr)
    if not deps or tf.executing_eagerly():
        return value
    raw = _unwrap_nest(value)
    if isinstance(raw, tf.Variable):
        # A Parameter comes back as itself, as in MindSpore: later reads see later assignments
        # (a snapshot would freeze it). TensorFlow orders the reads of a variable after the
        # stateful ops before them in program order.
        return value

    def ident(x: Any) -> Any:
        if isinstance(x, (tf.Tensor, tf.Variable)):
            with tf.control_dependencies(deps):
                return tf.identity(x)
        return x
    if isinstance(raw, (tf.Tensor, tf.Variable)):
        return _wrap(ident(raw))
    return _wrap_nest(tf.nest.map_structure(ident, raw))


def stop_gradient(value: Any) -> Any:
    """Block gradients through ``value`` (a Tensor or a nested structure of Tensors)."""
    raw = _unwrap_nest(value)
    out = tf.nest.map_structure(lambda x: tf.stop_gradient(x) if isinstance(x, (tf.Tensor, tf.Variable)) else x, raw)
    return _wrap_nest(out)


def _broadcastable_to(src: tf.TensorShape, dst: tf.TensorShape) -> bool:
    if src.rank is None or dst.rank is None:
        return True
    if src.rank > dst.rank:
        return False
    for a, b in zip(reversed(src.as_list()), reversed(dst.as_list())):
        if a is not None and b is not None and a != b and a != 1:
            return False
    return True


def _assign(op: str, variable: Any, value: Any, kind: str) -> Tensor:
    if not isinstance(variable, Tensor):
        raise TypeError(f"For '{op}', the 'variable' must be a Parameter, but got {type(variable).__name__}.")
    cur = variable._value()
    dt = cur.dtype
    v = to_tf(value, op, "value")
    if v.dtype != dt:
        v = tf.cast(v, dt)
    vs, cs = v.shape, cur.shape
    if not _broadcastable_to(vs, cs):
        raise ValueError(f"For '{op}', the shape of 'value' {tuple(vs.as_list())} must match the shape of "
                         f"'variable' {tuple(cs.as_list())}.")
    if vs.rank is not None and vs != cs:
        v = tf.broadcast_to(v, tf.shape(cur))
    if isinstance(variable, Parameter):
        var = variable._var
        if kind == "assign":
            res = var.assign(v)
        elif kind == "add":
            res = var.assign_add(v)
        else:
            res = var.assign_sub(v)
        return _wrap(tf.convert_to_tensor(res))
    new = v if kind == "assign" else (cur + v if kind == "add" else cur - v)
    new = tf.broadcast_to(new, tf.shape(cur))
    variable._set_value(new)
    return _wrap(new)


def assign(variable: Any, value: Any) -> Tensor:
    """Set the Parameter ``variable`` to ``value`` in place and return the new value.

    Raises:
        TypeError: when ``variable`` is not a Parameter or Tensor.
        ValueError: when the shapes differ.
    """
    return _assign("Assign", variable, value, "assign")


def assign_add(variable: Any, value: Any) -> Tensor:
    """Add ``value`` to the Parameter ``variable`` in place and return the new value."""
    return _assign("AssignAdd", variable, value, "add")


def assign_sub(variable: Any, value: Any) -> Tensor:
    """Subtract ``value`` from the Parameter ``variable`` in place and return the new value."""
    return _assign("AssignSub", variable, value, "sub")


def _is_symbolic(x: Any) -> bool:
    if isinstance(x, Tensor):
        v = x._value()
        return not isinstance(v, tf.Variable) and not hasattr(v, "numpy")
    return isinstance(x, tf.Tensor) and not hasattr(x, "numpy")


def print_(*input_x: Any) -> None:
    """Print strings, numbers and Tensors, one per line, as MindSpore's Print.

    In PYNATIVE_MODE the values print at once (Tensors as their repr); inside a compiled
    GRAPH_MODE function the printing is a ``tf.print`` op that runs with the graph.

    Raises:
        ValueError: when called with no arguments.
    """
    if not input_x:
        raise ValueError("For 'Print', the number of inputs must be at least 1, but got 0.")
    if tf.executing_eagerly() and not any(_is_symbolic(x) for x in input_x):
        for x in input_x:
            if isinstance(x, (tf.Tensor, tf.Variable)):
                x = _wrap(x)
            print(repr(x) if isinstance(x, Tensor) else x)
        sys.stdout.flush()
        return None
    items: list = []
    for x in input_x:
        if isinstance(x, (Tensor, tf.Tensor, tf.Variable)):
            t = to_tf(x, "Print", "input_x")
            from tfspore.common.dtype import from_tf_dtype
            shape = "[" + ", ".join(str(d) if d is not None else "-1" for d in t.shape.as_list()) + "]"
            items.append(f"Tensor(shape={shape}, dtype={from_tf_dtype(t.dtype)}, value=")
            items.append(t)
            items.append(")")
        else:
            items.append(str(x))
    tf.print(*items, output_stream=sys.stdout, summarize=-1)
    return None


def partial(func: Any, *args: Any) -> Any:
    """Bind leading arguments of ``func`` (``functools.partial``)."""
    if not callable(func):
        raise TypeError(f"For 'partial', the 'func' must be callable, but got {type(func).__name__}.")
    return functools.partial(func, *args)


def identity_(x: Any) -> Any:
    """Return a copy of a Tensor (other values unchanged)."""
    if isinstance(x, (Tensor, tf.Tensor)):
        return _wrap(tf.identity(to_tf(x)))
    return x


def scalar_cast(input_x: Any, input_y: Any) -> Any:
    """Cast a python scalar to the python type of the dtype ``input_y``."""
    from tfspore.common import dtype as mstype
    if isinstance(input_x, Tensor):
        return _wrap(tf.cast(input_x._value(), mstype.as_tf_dtype(input_y)))
    return mstype.dtype_to_pytype(input_y)(input_x)


def scalar_to_array(input_x: Any) -> Tensor:
    """A 0-d Tensor from a python scalar."""
    from tfspore._internal.tensor_wrap import default_numpy as _default_np
    return _wrap(tf.convert_to_tensor(_default_np(input_x)))


def tuple_len(data: Any) -> int:
    """The length of a tuple or list."""
    return len(data)


def make_tuple(*args: Any) -> tuple:
    """A tuple of the arguments."""
    return tuple(args)


def shape_mul(shape: Any) -> int:
    """The product of a shape tuple."""
    out = 1
    for s in shape:
        out *= s
    return out


def isconstant(x: Any) -> bool:
    """Whether ``x`` is known without running a graph (not a symbolic tensor)."""
    return not _is_symbolic(x)


def typeof(x: Any) -> Any:
    """The MindSpore type of ``x`` (a Tensor's dtype)."""
    from tfspore.common import dtype as mstype
    return mstype.get_py_obj_dtype(x)


def hastype(x: Any, type_: Any) -> bool:
    """Whether ``x`` has MindSpore type ``type_``."""
    return typeof(x) == type_


def _range_arg(i: int, v: Any) -> int:
    if isinstance(v, Tensor) and v.shape == () and not _is_symbolic(v):
        v = v.asnumpy().item()
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"For 'make_range', the {i}th input should be a int scalar, but got {v!r}.")
    return v


def make_range(*elts: Any) -> tuple:
    """The tuple ``tuple(range(*elts))`` of constant ints: ``(stop)``, ``(start, stop)`` or ``(start, stop, step)``.

    Args:
        *elts: one to three python ints (or constant 0-d integer Tensors).

    Returns:
        A tuple of ints.

    Raises:
        TypeError: when an input is not an int.
        ValueError: when the number of inputs is not 1 to 3.
        RuntimeError: when ``step`` is 0.

    Example:
        >>> from tfspore.ops import functional as F
        >>> F.make_range(1, 7, 2)
        (1, 3, 5)
    """
    if not 1 <= len(elts) <= 3:
        raise ValueError(f"For 'make_range', the number of inputs must be 1, 2 or 3, but got {len(elts)}.")
    args = [_range_arg(i, v) for i, v in enumerate(elts)]
    if len(args) == 3 and args[2] == 0:
        raise RuntimeError("For 'range', the argument 'step' could not be 0.")
    return tuple(range(*args))

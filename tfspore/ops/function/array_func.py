"""Tensor creation, shape manipulation, joining and selection (``ops.reshape``, ``ops.concat``, ...).

The indexing ops (gather / scatter, slicing, sorting) live in ``_index`` and are re-exported here.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.reshape(Tensor(np.arange(6, dtype=np.float32)), (2, 3)).shape
    (2, 3)
"""
from __future__ import annotations

import builtins
import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import default_numpy as _default_np, wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore._internal.shapes import dims
from tfspore.ops.function._utils import arg_extreme, binary, norm_axis, shape_arg, tf_dtype, to_tf

__all__ = [
    "reshape", "transpose", "fill", "full", "full_like", "zeros", "ones", "zeros_like", "ones_like", "cast", "concat",
    "cat", "stack", "unstack", "unbind", "split", "chunk", "squeeze", "expand_dims", "unsqueeze", "one_hot",
    "argmax", "select", "where", "tile", "gather", "gather_d", "gather_elements", "gather_nd", "scatter_nd",
    "tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div",
    "tensor_scatter_max", "tensor_scatter_min", "tensor_scatter_elements", "scatter", "masked_fill", "masked_select",
    "slice", "strided_slice", "flatten", "shape", "dtype", "rank", "size", "numel", "broadcast_to", "arange",
    "range", "topk", "sort", "argsort", "unique", "tuple_to_array", "scalar_to_tensor", "identity", "eye", "tril",
    "triu", "flip", "reverse", "roll", "nonzero", "index_select", "repeat_interleave", "repeat_elements",
    "meshgrid", "narrow", "swapaxes", "moveaxis", "movedim", "hstack", "vstack", "tensor_split", "is_tensor",
    "view_as", "reverse_sequence", "sequence_mask", "bincount", "searchsorted", "diag", "matrix_diag",
]

_range = builtins.range


def _dt(x: tf.Tensor) -> mstype.Type:
    return mstype.from_tf_dtype(x.dtype)


def _static_size(t: tf.Tensor) -> int | None:
    return t.shape.num_elements() if t.shape.is_fully_defined() else None


# ---------------------------------------------------------------------------- shape
def reshape(input: Any, shape: Any) -> Tensor:  # noqa: A002
    """Reshape ``input`` to ``shape`` (one dimension may be -1).

    Args:
        input: the tensor.
        shape: a tuple or list of ints, or a 1-D int Tensor.

    Returns:
        Tensor: the reshaped tensor.

    Raises:
        ValueError: when the element counts differ or ``shape`` has more than one -1.
    """
    t = to_tf(input, "Reshape", "input_x")
    shp = shape_arg("Reshape", "input_shape", shape)
    if isinstance(shp, list):
        if builtins.sum(1 for s in shp if s == -1) > 1:
            raise ValueError(f"For 'Reshape', there can be at most one '-1' in 'input_shape', but got {tuple(shape)}.")
        for s in shp:
            if s < -1:
                raise ValueError(f"For 'Reshape', the elements of 'input_shape' must be -1 or non-negative, but got "
                                 f"{tuple(shape)}.")
        n = _static_size(t)
        if n is not None:
            known = int(np.prod([s for s in shp if s != -1], dtype=np.int64))
            if -1 not in shp and known != n:
                raise ValueError(f"For 'Reshape', the product of the 'input_shape' should be equal to product of "
                                 f"'input_x' shape, but got product of the shape of 'input_shape': {known}, product "
                                 f"of the shape of 'input_x': {n}. 'input_shape': {tuple(shape)}, 'input_x' shape: "
                                 f"{tuple(t.shape.as_list())}.")
            if -1 in shp and (known == 0 or n % known != 0):
                raise ValueError(f"For 'Reshape', the product of 'input_x' shape should be divisible by the product "
                                 f"of the other dims of 'input_shape', but got 'input_x' shape: "
                                 f"{tuple(t.shape.as_list())} and 'input_shape': {tuple(shape)}.")
    return _wrap(tf.reshape(t, shp))


def view_as(input: Any, other: Any) -> Tensor:  # noqa: A002
    """Reshape ``input`` to the shape of ``other``."""
    return _wrap(tf.reshape(to_tf(input, "view_as"), tf.shape(to_tf(other, "view_as", "other"))))


def transpose(input: Any, dims: Any) -> Tensor:  # noqa: A002
    """Permute the dimensions of ``input``.

    Args:
        input: the tensor.
        dims: a permutation of ``range(rank)`` (negative values allowed).

    Returns:
        Tensor: the transposed tensor.

    Raises:
        ValueError: when ``dims`` is not a permutation of the input's dimensions.
    """
    t = to_tf(input, "Transpose", "input_x")
    perm = V.check_int_tuple(dims, "input_perm", "Transpose")
    rank = t.shape.rank
    if rank is not None:
        if len(perm) != rank:
            raise ValueError(f"For 'Transpose', size of perm should equal to rank of x, but got {len(perm)} and "
                             f"{rank}. perm: {perm}.")
        norm = tuple(p % rank if -rank <= p < rank else p for p in perm) if rank else perm
        if sorted(norm) != list(_range(rank)):
            raise ValueError(f"For 'Transpose', the 'input_perm' must be a permutation of range({rank}), but got "
                             f"{perm}.")
        perm = norm
    return _wrap(tf.transpose(t, perm))


def swapaxes(input: Any, axis0: int, axis1: int) -> Tensor:  # noqa: A002
    """Swap two dimensions."""
    t = to_tf(input, "swapaxes")
    r = t.shape.rank
    a0, a1 = V.check_axis(axis0, "axis0", "swapaxes", r), V.check_axis(axis1, "axis1", "swapaxes", r)
    perm = list(_range(r))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    return _wrap(tf.transpose(t, perm))


def moveaxis(x: Any, source: Any, destination: Any) -> Tensor:
    """Move dimensions ``source`` to ``destination``."""
    t = to_tf(x, "moveaxis", "x")
    return _wrap(tf.experimental.numpy.moveaxis(t, source, destination))


movedim = moveaxis


def squeeze(input: Any, axis: Any = None) -> Tensor:  # noqa: A002
    """Remove dimensions of length 1 (only those of ``axis`` when given; others are left unchanged).

    Args:
        input: the tensor.
        axis: None, an int or a tuple of ints.

    Returns:
        Tensor: the squeezed tensor.
    """
    t = to_tf(input, "squeeze", "input")
    if axis is None:
        return _wrap(tf.squeeze(t))
    ax = norm_axis("squeeze", "axis", axis, t.shape.rank)
    shp = t.shape.as_list()
    keep = [a for a in ax if shp[a] == 1 or shp[a] is None]
    return _wrap(tf.squeeze(t, keep) if keep else t)


def expand_dims(input_x: Any, axis: int) -> Tensor:
    """Insert a dimension of length 1 at ``axis`` (in ``[-rank-1, rank]``)."""
    t = to_tf(input_x, "ExpandDims", "input_x")
    r = t.shape.rank
    V.check_int(axis, "axis", "ExpandDims")
    if r is not None and not -r - 1 <= axis <= r:
        raise ValueError(f"For 'ExpandDims', the 'axis' must be in range [{-r - 1}, {r}], but got {axis}.")
    return _wrap(tf.expand_dims(t, axis))


def unsqueeze(input: Any, dim: int) -> Tensor:  # noqa: A002
    """Insert a dimension of length 1 at ``dim``."""
    return expand_dims(input, dim)


def flatten(input: Any, order: str = "C", *, start_dim: int = 1, end_dim: int = -1) -> Tensor:  # noqa: A002
    """Flatten dimensions ``start_dim`` .. ``end_dim`` into one.

    Args:
        input: the tensor.
        order: 'C' (row-major) or 'F' (column-major).
        start_dim: the first dimension to flatten.
        end_dim: the last dimension to flatten.

    Returns:
        Tensor: the flattened tensor.
    """
    V.check_string(order, ("C", "F"), "order", "flatten")
    V.check_int(start_dim, "start_dim", "flatten")
    V.check_int(end_dim, "end_dim", "flatten")
    t = to_tf(input, "flatten", "input")
    r = t.shape.rank
    if order == "F":
        t = tf.transpose(t)
    if r == 0:
        return _wrap(tf.reshape(t, [1]))
    s = V.check_axis(start_dim, "start_dim", "flatten", r)
    e = V.check_axis(end_dim, "end_dim", "flatten", r)
    if s > e:
        raise ValueError(f"For 'flatten', 'start_dim' cannot come after 'end_dim', but got start_dim={start_dim}, "
                         f"end_dim={end_dim}.")
    d = dims(t)
    if s == e:
        return _wrap(t)
    new = list(d[:s]) + [-1] + list(d[e + 1:])
    if builtins.any(isinstance(x, tf.Tensor) for x in new):
        new = tf.stack([tf.cast(x, tf.int32) for x in new])
    return _wrap(tf.reshape(t, new))


def broadcast_to(input: Any, shape: Any) -> Tensor:  # noqa: A002
    """Broadcast ``input`` to ``shape`` (-1 keeps the input's dimension).

    Raises:
        ValueError: when the shapes cannot broadcast.
    """
    t = to_tf(input, "broadcast_to", "input")
    shp = shape_arg("broadcast_to", "shape", shape)
    if isinstance(shp, list):
        r = t.shape.rank
        d = dims(t)
        out = []
        for i, s in enumerate(shp):
            j = i - (len(shp) - r)
            if s == -1:
                if j < 0:
                    raise ValueError(f"For 'broadcast_to', -1 is not allowed in a leading, non-existing dimension, "
                                     f"but got shape {tuple(shape)} for input shape {tuple(t.shape.as_list())}.")
                out.append(d[j])
            else:
                if j >= 0 and isinstance(d[j], int) and d[j] not in (1, s):
                    raise ValueError(f"For 'broadcast_to', input shape {tuple(t.shape.as_list())} cannot broadcast "
                                     f"to {tuple(shape)}.")
                out.append(s)
        shp = tf.stack([tf.cast(x, tf.int32) for x in out]) if builtins.any(isinstance(x, tf.Tensor) for x in out) \
            else out
    return _wrap(tf.broadcast_to(t, shp))


def tile(input: Any, dims: Any) -> Tensor:  # noqa: A002
    """Repeat ``input`` ``dims[i]`` times along each dimension (leading 1s are added to the shorter one)."""
    t = to_tf(input, "Tile", "input")
    mult = list(V.check_int_tuple(dims, "dims", "Tile"))
    r = t.shape.rank
    if len(mult) < r:
        mult = [1] * (r - len(mult)) + mult
    elif len(mult) > r:
        t = tf.reshape(t, [1] * (len(mult) - r) + list(dims_of(t)))
    return _wrap(tf.tile(t, mult))


def dims_of(t: tf.Tensor) -> list:
    d = dims(t)
    return tf.stack([tf.cast(x, tf.int32) for x in d]) if builtins.any(isinstance(x, tf.Tensor) for x in d) else d


def shape(input_x: Any) -> tuple:
    """The shape as a tuple of ints (dynamic dimensions as scalar Tensors while tracing)."""
    if isinstance(input_x, Tensor):
        return input_x.shape
    return Tensor._from_tf(to_tf(input_x, "shape", "input_x")).shape


def dtype(x: Any) -> mstype.Type:
    """The MindSpore dtype of ``x``."""
    if isinstance(x, Tensor):
        return x.dtype
    return _dt(to_tf(x, "dtype", "x"))


def rank(input_x: Any) -> int:
    """The number of dimensions."""
    return to_tf(input_x, "rank", "input_x").shape.rank


def size(input_x: Any) -> Any:
    """The number of elements (an int when the shape is static)."""
    t = to_tf(input_x, "size", "input_x")
    n = _static_size(t)
    return n if n is not None else _wrap(tf.size(t, tf.int64))


def numel(input: Any) -> Any:  # noqa: A002
    """The number of elements."""
    return size(input)


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


# ---------------------------------------------------------------------------- creation
def _check_shape_tuple(op: str, arg: str, shp: Any) -> Any:
    if isinstance(shp, (Tensor, tf.Tensor)):
        return shape_arg(op, arg, shp)
    if isinstance(shp, numbers.Integral) and not isinstance(shp, bool):
        shp = (shp,)
    if not isinstance(shp, (list, tuple)):
        raise TypeError(f"For '{op}', the '{arg}' must be a tuple or list of ints, but got "
                        f"{type(shp).__name__}: {shp!r}.")
    out = shape_arg(op, arg, shp)
    if isinstance(out, list):
        for s in out:
            if s < 0:
                raise ValueError(f"For '{op}', the elements of '{arg}' must be non-negative, but got {tuple(shp)}.")
    return out


def fill(type: Any, shape: Any, value: Any) -> Tensor:  # noqa: A002
    """A tensor of ``shape`` and dtype ``type`` filled with ``value``.

    Args:
        type: the MindSpore dtype.
        shape: a tuple of ints.
        value: a number or 0-d Tensor.

    Returns:
        Tensor: the filled tensor.
    """
    dt = tf_dtype(type, "Fill", "type")
    shp = _check_shape_tuple("Fill", "shape", shape)
    v = tf.cast(tf.reshape(to_tf(value, "Fill", "value"), []), dt)
    return _wrap(tf.fill(shp, v))


def full(size: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """A tensor of ``size`` filled with ``fill_value``; the dtype defaults to int64, as in MindSpore."""
    if not isinstance(size, (list, tuple, Tensor)):
        raise TypeError(f"For 'ops.full', 'size' must be a tuple or list of ints, but got {type(size).__name__}.")
    return fill(mstype.int64 if dtype is None else dtype, size, fill_value)


def full_like(input: Any, fill_value: Any, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """A tensor shaped like ``input`` filled with ``fill_value`` (``input``'s dtype by default)."""
    t = to_tf(input, "full_like", "input")
    dt = t.dtype if dtype is None else tf_dtype(dtype, "full_like")
    return _wrap(tf.fill(tf.shape(t), tf.cast(fill_value, dt)))


def _const(op: str, size: Any, dtype: Any, value: int) -> Tensor:
    dt = tf.float32 if dtype is None else tf_dtype(dtype, op)
    shp = _check_shape_tuple(op, "size", size)
    return _wrap(tf.fill(shp, tf.constant(value, dt)) if dt != tf.bool else tf.fill(shp, bool(value)))


def zeros(size: Any, dtype: Any = None) -> Tensor:  # noqa: A002
    """A tensor of zeros (float32 by default)."""
    return _const("zeros", size, dtype, 0)


def ones(shape: Any, dtype: Any = None) -> Tensor:
    """A tensor of ones (float32 by default)."""
    return _const("ones", shape, dtype, 1)


def _like(op: str, input: Any, dtype: Any, fn) -> Tensor:  # noqa: A002
    t = to_tf(input, op, "input")
    dt = t.dtype if dtype is None else tf_dtype(dtype, op)
    return _wrap(fn(tf.shape(t), dt))


def zeros_like(input: Any, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Zeros shaped like ``input`` (its dtype by default)."""
    return _like("zeros_like", input, dtype, lambda s, d: tf.zeros(s, d))


def ones_like(input: Any, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Ones shaped like ``input`` (its dtype by default)."""
    return _like("ones_like", input, dtype, lambda s, d: tf.ones(s, d))


def eye(n: int, m: int | None = None, dtype: Any = None) -> Tensor:
    """An ``n`` x ``m`` identity matrix (float32 by default)."""
    dt = tf.float32 if dtype is None else tf_dtype(dtype, "eye")
    return _wrap(tf.eye(V.check_int(n, "n", "eye"), m, dtype=dt))


def cast(input: Any, dtype: Any) -> Tensor:  # noqa: A002
    """Cast ``input`` to ``dtype``.

    Args:
        input: a Tensor or a number.
        dtype: the MindSpore dtype.

    Returns:
        Tensor: the cast tensor.
    """
    dt = tf_dtype(dtype, "Cast", "dtype")
    t = to_tf(input, "Cast", "input_x")
    return _wrap(t if t.dtype == dt else tf.cast(t, dt))


def _arange_val(x: Any, op: str, arg: str) -> Any:
    if isinstance(x, (Tensor, tf.Tensor)):
        return tf.reshape(to_tf(x, op, arg), [])
    V.check_number(x, arg, op)
    return x


def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> Tensor:
    """Values from ``start`` to ``end`` (exclusive) in steps of ``step``.

    Python ints give int64, any float gives float32; 0-d Tensors keep their dtype.

    Raises:
        ValueError: when ``step`` is 0 or has the wrong sign.
    """
    if end is None:
        start, end = 0, start
    s, e, st = (_arange_val(start, "arange", "start"), _arange_val(end, "arange", "end"),
                _arange_val(step, "arange", "step"))
    vals = (s, e, st)
    if builtins.all(isinstance(v, numbers.Number) for v in vals):
        if st == 0:
            raise ValueError("For 'arange', the 'step' cannot be 0.")
        if (e - s) * st < 0:
            raise ValueError(f"For 'arange', the 'step' must have the sign of 'end' - 'start', but got start={start}, "
                             f"end={end}, step={step}.")
    tdt = [v.dtype for v in vals if isinstance(v, tf.Tensor)]
    if builtins.any(isinstance(v, float) for v in vals) or builtins.any(d.is_floating for d in tdt):
        base = tf.float32 if not builtins.any(d == tf.float64 for d in tdt) else tf.float64
    elif tdt:
        base = tf.int64 if builtins.any(d == tf.int64 for d in tdt) else tdt[0]
    else:
        base = tf.int64
    out = tf.range(tf.cast(s, base), tf.cast(e, base), tf.cast(st, base))
    if dtype is not None:
        out = tf.cast(out, tf_dtype(dtype, "arange"))
    return _wrap(out)


def range(start: Any, end: Any, step: Any, maxlen: int = 1000000) -> Tensor:  # noqa: A001
    """Values from ``start`` to ``end`` in steps of ``step`` (int inputs give int64, floats float32)."""
    vals = [to_tf(v, "Range", n) for v, n in ((start, "start"), (end, "end"), (step, "step"))]
    fl = builtins.any(v.dtype.is_floating for v in vals)
    dt = tf.float32 if fl else tf.int64
    vals = [tf.cast(tf.reshape(v, []), dt) for v in vals]
    return _wrap(tf.range(vals[0], vals[1], vals[2]))


def tuple_to_array(input_x: Any) -> Tensor:
    """Convert a tuple of numbers to a Tensor (ints give int32, floats float32, as MindSpore)."""
    if not isinstance(input_x, (list, tuple)):
        raise TypeError(f"For 'tuple_to_array', the 'input_x' must be a tuple, but got {type(input_x).__name__}.")
    if builtins.any(isinstance(v, (Tensor, tf.Tensor)) for v in input_x):
        ts = [tf.reshape(to_tf(v, "tuple_to_array", "input_x"), []) for v in input_x]
        fl = builtins.any(t.dtype.is_floating for t in ts)
        dt = tf.float32 if fl else tf.int32
        return _wrap(tf.stack([tf.cast(t, dt) for t in ts]))
    arr = _default_np(list(input_x))
    if arr.dtype == np.int64:
        arr = arr.astype(np.int32)
    return _wrap(tf.convert_to_tensor(arr))


def scalar_to_tensor(input_x: Any, dtype: Any = mstype.float32) -> Tensor:
    """Convert a scalar to a 0-d Tensor of ``dtype`` (float32 by default)."""
    dt = tf_dtype(dtype, "scalar_to_tensor")
    if isinstance(input_x, (Tensor, tf.Tensor)):
        return _wrap(tf.cast(tf.reshape(to_tf(input_x), []), dt))
    if not isinstance(input_x, (numbers.Number, np.generic)):
        raise TypeError(f"For 'scalar_to_tensor', the 'input_x' must be an int, float or bool, but got "
                        f"{type(input_x).__name__}.")
    return _wrap(tf.constant(input_x, dt) if not isinstance(input_x, bool) else tf.cast(input_x, dt))


def identity(input: Any) -> Tensor:  # noqa: A002
    """A copy of ``input``."""
    return _wrap(tf.identity(to_tf(input, "identity", "input")))


# ---------------------------------------------------------------------------- select / one_hot / argmax
def one_hot(indices: Any, depth: int, on_value: Any = 1, off_value: Any = 0, axis: int = -1) -> Tensor:
    """One-hot encoding of ``indices`` with ``depth`` classes.

    Args:
        indices: an int tensor.
        depth: the number of classes.
        on_value: the value at the index (its dtype is the output dtype; python ints give int64).
        off_value: the value elsewhere.
        axis: where the new dimension goes.

    Returns:
        Tensor: the encoding.
    """
    t = to_tf(indices, "OneHot", "indices")
    if not t.dtype.is_integer:
        raise TypeError(f"For 'OneHot', the 'indices' must be an int tensor, but got {_dt(t)}.")
    if isinstance(depth, Tensor):
        depth = tf.cast(tf.reshape(depth._value(), []), tf.int32)
    else:
        V.check_non_negative_int(depth, "depth", "OneHot")
    on = to_tf(on_value, "OneHot", "on_value")
    off = to_tf(off_value, "OneHot", "off_value")
    if off.dtype != on.dtype:
        off = tf.cast(off, on.dtype)
    r = t.shape.rank
    if r is not None and not -1 <= axis <= r:
        raise ValueError(f"For 'OneHot', the 'axis' must be in range [-1, {r}], but got {axis}.")
    return _wrap(tf.one_hot(t, depth, tf.reshape(on, []), tf.reshape(off, []), axis=axis, dtype=on.dtype))


def argmax(input: Any, dim: int | None = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """Indices of the maxima along ``dim`` (of the flattened tensor when None), as int64."""
    return _wrap(arg_extreme(tf.argmax, "argmax", input, dim, "dim", keepdim, tf.int64))


def select(condition: Any, input: Any, other: Any) -> Tensor:  # noqa: A002
    """Pick ``input`` where ``condition`` is True and ``other`` elsewhere (all three broadcast).

    Raises:
        TypeError: when ``condition`` is not a bool tensor.
    """
    c = to_tf(condition, "select", "condition")
    if c.dtype != tf.bool:
        raise TypeError(f"For 'select', the 'condition' must be a bool Tensor, but got {_dt(c)}.")
    a, b = binary("select", input, other)
    return _wrap(tf.where(c, a, b))


def where(condition: Any, input: Any = None, other: Any = None) -> Any:  # noqa: A002
    """``select(condition, input, other)``; with only ``condition``, the tuple of nonzero indices per axis."""
    if input is None and other is None:
        c = tf.cast(to_tf(condition, "where", "condition"), tf.bool)
        idx = tf.where(c)
        return tuple(_wrap(idx[:, i]) for i in _range(c.shape.rank))
    c = tf.cast(to_tf(condition, "where", "condition"), tf.bool)
    return select(Tensor._from_tf(c), input, other)


def masked_fill(input_x: Any, mask: Any, value: Any) -> Tensor:
    """Fill ``input_x`` with ``value`` where ``mask`` is True (``mask`` broadcasts)."""
    t = to_tf(input_x, "masked_fill", "input_x")
    m = to_tf(mask, "masked_fill", "mask")
    if m.dtype != tf.bool:
        raise TypeError(f"For 'masked_fill', the 'mask' must be a bool Tensor, but got {_dt(m)}.")
    v = tf.cast(tf.reshape(to_tf(value, "masked_fill", "value"), []), t.dtype)
    shp = tf.broadcast_dynamic_shape(tf.shape(t), tf.shape(m))
    return _wrap(tf.where(tf.broadcast_to(m, shp), v, tf.broadcast_to(t, shp)))


def masked_select(input: Any, mask: Any) -> Tensor:  # noqa: A002
    """The 1-D tensor of ``input``'s elements where ``mask`` is True."""
    t = to_tf(input, "masked_select", "input")
    m = to_tf(mask, "masked_select", "mask", tf.bool)
    shp = tf.broadcast_dynamic_shape(tf.shape(t), tf.shape(m))
    return _wrap(tf.boolean_mask(tf.broadcast_to(t, shp), tf.broadcast_to(m, shp)))


from tfspore.ops.function._index import *  # noqa: E402,F401,F403
from tfspore.ops.function._index import _full_coords, _int_idx, _move_last  # noqa: E402,F401
from tfspore.ops.function._array_join import (_seq, concat, cat, hstack, vstack, stack, unstack, unbind,  # noqa: F401
                                              split, tensor_split, chunk, narrow)

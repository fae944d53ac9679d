"""Tensor indexing with numpy's (and MindSpore's) semantics on TensorFlow ops.

Supported index items: ints, slices, ``...``, ``None``, ``True``, bool masks (Tensors, arrays
or lists of bools), integer index arrays (Tensors, arrays, lists) and tuples mixing them.
Basic indexing runs as one strided slice. With index arrays, numpy's rule places the broadcast
index dimensions where the (adjacent) index arrays stood, or first when they are separated.
Everything is expressed with TF ops, so it works on symbolic tensors inside ``tf.function``.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common._tensor_promote import is_ms_tensor

_INDEX_TYPES = "integers, slices(`:`), ellipsis(`...`), None, bool, tensor, int, list and tuple"


def _unsupported(item: Any) -> IndexError:
    return IndexError(f"Only support {_INDEX_TYPES} as index, but got {item!r} with type {type(item)}.")


def _norm_item(item: Any) -> Any:
    """Convert one index item to int, slice, Ellipsis, None, True, or a tf.Tensor array."""
    if is_ms_tensor(item):
        return item._value()
    if item is None or item is Ellipsis or isinstance(item, slice):
        if isinstance(item, slice):
            return slice(*(_slice_part(p) for p in (item.start, item.stop, item.step)))
        return item
    if isinstance(item, (bool, np.bool_)):
        if not item:
            raise IndexError("When tensor is indexed by a bool object, the value only support 'True'.")
        return True
    if isinstance(item, (numbers.Integral, np.integer)):
        return int(item)
    if isinstance(item, (tf.Tensor, tf.Variable)):
        return tf.convert_to_tensor(item)
    if isinstance(item, np.ndarray):
        if item.dtype.kind not in "biu":
            raise _unsupported(item)
        return tf.constant(item)
    if isinstance(item, (list, tuple)):
        arr = np.array([np.asarray(v) if is_ms_tensor(v) else v for v in item])
        if arr.dtype.kind not in "biu":
            if arr.size == 0:
                return tf.constant(arr.astype(np.int64))
            raise _unsupported(item)
        return tf.constant(arr)
    raise _unsupported(item)


def _slice_part(p: Any) -> Any:
    if p is None:
        return None
    if is_ms_tensor(p):
        return p._value()
    if isinstance(p, (numbers.Integral, np.integer)) and not isinstance(p, bool):
        return int(p)
    if isinstance(p, (tf.Tensor, tf.Variable)):
        return p
    raise IndexError(f"For Tensor slicing, the slice start, stop and step must be int or None, but got {p!r}.")


def _expand(index: Any, rank: int) -> list:
    """Normalise to a list of items without Ellipsis; bool masks become integer arrays."""
    items = list(index) if isinstance(index, tuple) else [index]
    items = [_norm_item(i) for i in items]
    consumed = 0
    for it in items:
        if isinstance(it, tf.Tensor):
            consumed += it.shape.rank if it.dtype == tf.bool else 1
        elif it is not None and it is not True and it is not Ellipsis:
            consumed += 1
    n_ell = sum(1 for it in items if it is Ellipsis)
    if n_ell > 1:
        raise IndexError("An index can only have a single ellipsis ('...').")
    if consumed > rank:
        raise IndexError(f"Too many indices for tensor of dimension {rank}: got {consumed} indices.")
    out: list = []
    for it in items:
        if it is Ellipsis:
            out.extend([slice(None)] * (rank - consumed))
        elif isinstance(it, tf.Tensor) and it.dtype == tf.bool:
            if it.shape.rank == 0:
                out.append(_BoolScalar(it))
            else:
                coords = tf.where(it)
                out.extend(coords[:, j] for j in range(it.shape.rank))
        else:
            out.append(it)
    return out


class _BoolScalar:
    """A 0-d bool Tensor index: a new axis of length 1 (True) or 0 (False)."""

    def __init__(self, t: tf.Tensor) -> None:
        self.t = t


def _check_int(i: int, dim: Any) -> None:
    if isinstance(dim, int) and not -dim <= i < dim:
        raise IndexError(f"index {i} is out of bounds for dimension with size {dim}")


def getitem(v: tf.Tensor, index: Any) -> tf.Tensor:
    """``v[index]`` with numpy semantics."""
    rank = v.shape.rank
    if rank is None:
        return v[index]
    items = _expand(index, rank)
    adv = [k for k, it in enumerate(items) if isinstance(it, tf.Tensor)]
    dims = v.shape.as_list()
    if not adv:
        return _basic(v, items, dims)
    return _advanced(v, items, adv, dims)


def _basic(v: tf.Tensor, items: list, dims: list) -> tf.Tensor:
    spec: list = []
    d = 0
    out_axis = 0
    bool_axes = []
    for it in items:
        if it is None or it is True:
            spec.append(tf.newaxis)
            out_axis += 1
        elif isinstance(it, _BoolScalar):
            spec.append(tf.newaxis)
            bool_axes.append((out_axis, it.t))
            out_axis += 1
        elif isinstance(it, slice):
            spec.append(it)
            out_axis += 1
            d += 1
        else:
            _check_int(it, dims[d])
            spec.append(it)
            d += 1
    out = v[tuple(spec)] if spec else v
    for ax, t in bool_axes:
        keep = tf.cast(tf.where(tf.reshape(t, [1]))[:, 0], tf.int32)
        out = tf.gather(out, keep, axis=ax)
    return out


def _advanced(v: tf.Tensor, items: list, adv: list, dims: list) -> tf.Tensor:
    # step 1: basic indexing for slices and new axes, keeping the dims that ints and arrays index
    spec: list = []
    positions: list = []  # axis in the sliced tensor for each int / array item
    arrays: list = []
    d = 0
    axis = 0
    first_adv_item = None
    adjacent = True
    last_adv = None
    for k, it in enumerate(items):
        if it is None or it is True:
            spec.append(tf.newaxis)
            axis += 1
            continue
        if isinstance(it, _BoolScalar):
            raise IndexError("A 0-d bool Tensor can't be combined with index arrays.")
        if isinstance(it, slice):
            spec.append(it)
            axis += 1
            d += 1
            continue
        # int or array: an advanced index
        if isinstance(it, int):
            _check_int(it, dims[d])
            arr = tf.constant(it, tf.int64)
        else:
            if not it.dtype.is_integer:
                raise IndexError(f"For Tensor indexing, index arrays must be int or bool, but got {it.dtype.name}.")
            arr = tf.cast(it, tf.int64)
            _check_array(arr, dims[d])
        size = dims[d] if dims[d] is not None else tf.shape(v, out_type=tf.int64)[d]
        arr = tf.where(arr < 0, arr + size, arr)
        spec.append(slice(None))
        positions.append(axis)
        arrays.append(arr)
        if first_adv_item is None:
            first_adv_item = k
        elif last_adv is not None and last_adv != k - 1:
            adjacent = False
        last_adv = k
        axis += 1
        d += 1
    sliced = v[tuple(spec)] if spec else v
    # step 2: move the indexed axes first and gather
    r = sliced.shape.rank
    rest = [a for a in range(r) if a not in positions]
    perm = positions + rest
    moved = tf.transpose(sliced, perm) if perm != list(range(r)) else sliced
    idx = tf.stack(_broadcast_all(arrays), axis=-1) if len(arrays) > 1 else arrays[0][..., tf.newaxis]
    out = tf.gather_nd(moved, idx)
    # step 3: adjacent index arrays go back where they stood
    if adjacent and positions[0] > 0:
        nb = idx.shape.rank - 1
        if nb is None:
            raise IndexError("For Tensor indexing, index arrays must have a known rank.")
        lead = positions[0]
        out_rank = nb + len(rest)
        order = list(range(nb, nb + lead)) + list(range(nb)) + list(range(nb + lead, out_rank))
        out = tf.transpose(out, order)
    return out


def _broadcast_all(arrays: list) -> list:
    static = arrays[0].shape
    for a in arrays[1:]:
        static = tf.broadcast_static_shape(static, a.shape)
    if static.is_fully_defined():
        return [tf.broadcast_to(a, static) for a in arrays]
    shape = tf.shape(arrays[0], out_type=tf.int64)
    for a in arrays[1:]:
        shape = tf.broadcast_dynamic_shape(shape, tf.shape(a, out_type=tf.int64))
    return [tf.broadcast_to(a, shape) for a in arrays]


def _check_array(arr: tf.Tensor, dim: Any) -> None:
    if isinstance(dim, int) and tf.executing_eagerly():
        a = arr.numpy()
        if a.size and (a.max() >= dim or a.min() < -dim):
            bad = a.max() if a.max() >= dim else a.min()
            raise IndexError(f"index {bad} is out of bounds for dimension with size {dim}")


def setitem(v: tf.Tensor, index: Any, value: Any, value_to_tf) -> tf.Tensor:
    """Return ``v`` with ``v[index] = value`` applied (numpy semantics, value broadcast).

    Args:
        v: the tensor.
        index: the index, as for :func:`getitem`.
        value: the new values (a Tensor, number, list, tuple or array).
        value_to_tf: converts ``value`` to a tf.Tensor of ``v``'s dtype.
    """
    v = tf.convert_to_tensor(v)
    val = value_to_tf(value, v.dtype)
    if isinstance(index, tuple) and len(index) == 0 or index is Ellipsis:
        return tf.broadcast_to(val, tf.shape(v))
    n = tf.size(v, out_type=tf.int64)
    positions = getitem(tf.reshape(tf.range(n), tf.shape(v, out_type=tf.int64)), index)
    flat = tf.reshape(v, [-1])
    upd = tf.reshape(tf.broadcast_to(val, tf.shape(positions)), [-1])
    flat = tf.tensor_scatter_nd_update(flat, tf.reshape(positions, [-1, 1]), upd)
    return tf.reshape(flat, tf.shape(v))

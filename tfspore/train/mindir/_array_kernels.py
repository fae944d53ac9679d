"""MindIR kernels of the shape and indexing operators: reshape, transpose, concat, split, slices,
gathers, pads, selection and ``TopK``.

Each entry of :data:`ARRAY_KERNELS` maps a MindSpore primitive's attributes to a callable on the
node's inputs (see ``_kernels.py``, which holds the table of every operator).
"""
from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

from tfspore.train.mindir._kernel_args import (dtype_of as _dtype, inputs_or_attrs as _inputs_or_attrs,
                                               ints as _ints, tensor as _tf)

__all__ = ["ARRAY_KERNELS"]


def _reshape(attrs: dict) -> Callable:
    return lambda x, shape: tf.reshape(_tf(x), _ints(shape))


def _flatten(attrs: dict) -> Callable:
    def run(x: Any) -> tf.Tensor:
        t = _tf(x)
        return tf.reshape(t, [tf.shape(t)[0] if t.shape[0] is None else t.shape[0], -1])
    return run


def _transpose(attrs: dict) -> Callable:
    return lambda x, perm: tf.transpose(_tf(x), _ints(perm))


def _expand_dims(attrs: dict) -> Callable:
    return lambda x, axis: tf.expand_dims(_tf(x), _ints(axis)[0])


def _squeeze(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> tf.Tensor:
        axis, = _inputs_or_attrs(attrs, ("axis",), ((),), rest)
        axis = _ints(axis) if axis is not None else ()
        return tf.squeeze(_tf(x), list(axis) if axis else None)
    return run


def _tile(attrs: dict) -> Callable:
    return lambda x, multiples: tf.tile(_tf(x), _ints(multiples))


def _concat(attrs: dict) -> Callable:
    default = int(attrs.get("axis", 0))

    def run(values: Any, *rest: Any) -> tf.Tensor:
        axis = _ints(rest[0])[0] if rest else default
        return tf.concat([_tf(v) for v in values], axis)
    return run


def _gather(attrs: dict) -> Callable:
    def run(params: Any, indices: Any, axis: Any = 0, *rest: Any) -> tf.Tensor:
        batch_dims = int(_ints(rest[0])[0]) if rest else int(attrs.get("batch_dims", 0))
        return tf.gather(_tf(params), _tf(indices), axis=_ints(axis)[0], batch_dims=batch_dims)
    return run


def _strided_slice(attrs: dict) -> Callable:
    masks = {k: int(attrs.get(k, 0)) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                               "shrink_axis_mask")}

    def run(x: Any, begin: Any, end: Any, strides: Any, *rest: Any) -> tf.Tensor:
        m = dict(masks)
        if rest:  # the masks as inputs
            for k, v in zip(("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"), rest):
                m[k] = int(_ints(v)[0])
        return tf.strided_slice(_tf(x), _ints(begin), _ints(end), _ints(strides), **m)
    return run


def _pad(attrs: dict) -> Callable:
    paddings = attrs.get("paddings")

    def run(x: Any, *rest: Any) -> tf.Tensor:
        pads = rest[0] if rest else paddings
        return tf.pad(_tf(x), [list(_ints(p)) for p in pads])
    return run


def _pad_v3(attrs: dict) -> Callable:
    """MindSpore's PadV3: ``paddings`` from the last dimension backwards, ``(before, after)`` per
    dimension when ``paddings_contiguous`` (else all befores, then all afters)."""
    modes = {"constant": "CONSTANT", "reflect": "REFLECT"}

    def run(x: Any, paddings: Any, value: Any = 0, *rest: Any) -> tf.Tensor:
        t = _tf(x)
        flat = _ints(paddings)
        half = len(flat) // 2
        pairs = ([(flat[2 * i], flat[2 * i + 1]) for i in range(half)] if attrs.get("paddings_contiguous", True)
                 else [(flat[i], flat[half + i]) for i in range(half)])
        rank = t.shape.rank
        pads = [[0, 0] for _ in range(rank)]
        for i, (before, after) in enumerate(pairs):
            pads[rank - 1 - i] = [before, after]
        mode = str(attrs.get("mode", "constant")).lower()
        if mode not in modes:
            raise ValueError(f"PadV3 mode {mode!r} is not supported (constant, reflect)")
        if mode == "constant":
            return tf.pad(t, pads, constant_values=tf.reshape(tf.cast(_tf(value), t.dtype), []))
        return tf.pad(t, pads, mode=modes[mode])
    return run


def _shape(attrs: dict) -> Callable:
    def run(x: Any) -> Any:
        t = _tf(x)
        if t.shape.is_fully_defined():
            return tuple(int(d) for d in t.shape)
        return tf.shape(t)
    return run


def _range(attrs: dict) -> Callable:
    def run(start: Any, limit: Any, delta: Any, *rest: Any) -> tf.Tensor:
        dtype = _dtype(rest[0]) if rest else None
        out = tf.range(_tf(start), _tf(limit), _tf(delta))
        return tf.cast(out, dtype) if dtype is not None else out
    return run


def _select(attrs: dict) -> Callable:
    return lambda cond, a, b: tf.where(tf.cast(_tf(cond), tf.bool), _tf(a), _tf(b))


def _broadcast_to(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> tf.Tensor:
        shape, = _inputs_or_attrs(attrs, ("shape",), (None,), rest)
        t = _tf(x)
        dims = [int(t.shape[i - len(_ints(shape)) + t.shape.rank]) if d == -1 else d
                for i, d in enumerate(_ints(shape))]
        return tf.broadcast_to(t, dims)
    return run


def _cumsum(attrs: dict) -> Callable:
    def run(x: Any, axis: Any, *rest: Any) -> tf.Tensor:
        exclusive, reverse = _inputs_or_attrs(attrs, ("exclusive", "reverse"), (False, False), rest)
        return tf.cumsum(_tf(x), _ints(axis)[0], exclusive=bool(exclusive), reverse=bool(reverse))
    return run


def _argmax(fn: Callable) -> Callable:
    def make(attrs: dict) -> Callable:
        def run(x: Any, *rest: Any) -> tf.Tensor:
            axis, out_type = _inputs_or_attrs(attrs, ("axis", "output_type"), (-1, 34), rest)
            return fn(_tf(x), axis=_ints(axis)[0], output_type=_dtype(out_type))
        return run
    return make


def _onehot(attrs: dict) -> Callable:
    def run(indices: Any, depth: Any, on: Any, off: Any, *rest: Any) -> tf.Tensor:
        axis, = _inputs_or_attrs(attrs, ("axis",), (-1,), rest)
        on_t, off_t = _tf(on), _tf(off)
        return tf.one_hot(_tf(indices), _ints(depth)[0], on_t, off_t, axis=_ints(axis)[0], dtype=on_t.dtype)
    return run


def _split(attrs: dict) -> Callable:
    def run(x: Any, *rest: Any) -> tuple:
        axis, num = _inputs_or_attrs(attrs, ("axis", "output_num"), (0, 1), rest)
        return tuple(tf.split(_tf(x), _ints(num)[0], axis=_ints(axis)[0]))
    return run


def _top_k(attrs: dict) -> Callable:
    """MindSpore's ``TopK``: the `k` largest along the last axis, values and int32 indices; unsorted
    (``sorted=False``) keeps TensorFlow's order, which MindSpore leaves unspecified."""
    sort = bool(attrs.get("sorted", True))

    def run(x: Any, k: Any) -> tuple:
        values, indices = tf.math.top_k(_tf(x), k=_ints(k)[0], sorted=sort)
        return values, tf.cast(indices, tf.int32)
    return run


def _gather_nd(attrs: dict) -> Callable:
    return lambda params, indices: tf.gather_nd(_tf(params), _tf(indices))


def _slice(attrs: dict) -> Callable:
    return lambda x, begin, size: tf.slice(_tf(x), _ints(begin), _ints(size))


ARRAY_KERNELS: dict = {
    "Reshape": _reshape,
    "Flatten": _flatten,
    "Transpose": _transpose,
    "ExpandDims": _expand_dims,
    "Squeeze": _squeeze,
    "Tile": _tile,
    "Concat": _concat,
    "Gather": _gather,
    "StridedSlice": _strided_slice,
    "Pad": _pad,
    "PadV3": _pad_v3,
    "Shape": _shape,
    "Range": _range,
    "Select": _select,
    "BroadcastTo": _broadcast_to,
    "CumSum": _cumsum,
    "Argmax": _argmax(tf.argmax),
    "Argmin": _argmax(tf.argmin),
    "OneHot": _onehot,
    "Split": _split,
    "Slice": _slice,
    "TopK": _top_k,
    "GatherNd": _gather_nd,
}

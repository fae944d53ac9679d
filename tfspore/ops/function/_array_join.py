"""Joining and splitting tensors (``concat``, ``stack``, ``split``, ``chunk``, ``narrow`` ...) of ``mindspore.ops``.

MindSpore's import path for them is ``tfspore.ops.function.array_func`` (and ``tfspore.ops``).
"""
from __future__ import annotations

import builtins
import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.layout import concat_through_nchw
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import to_tf

_range = builtins.range


# ---------------------------------------------------------------------------- join / split
def _seq(op: str, arg: str, tensors: Any) -> list:
    if isinstance(tensors, Tensor):
        return [tensors._value()[i] for i in _range(tensors.shape[0])]
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"For '{op}', the '{arg}' must be a non-empty tuple or list of Tensors, but got "
                        f"{type(tensors).__name__}: {tensors!r}.")
    ts = [to_tf(t, op, f"{arg}[{i}]") for i, t in enumerate(tensors)]
    dts = {t.dtype for t in ts}
    if len(dts) > 1:
        from tfspore._internal.tensor_wrap import result_dtype as _result_dtype
        dt = ts[0].dtype
        for t in ts[1:]:
            dt = _result_dtype(dt, t.dtype)
        ts = [tf.cast(t, dt) for t in ts]
    return ts


def concat(tensors: Any, axis: int = 0) -> Tensor:
    """Concatenate tensors along ``axis``.

    Raises:
        ValueError: when ``axis`` is out of range or the other dimensions differ.
    """
    ts = _seq("Concat", "tensors", tensors)
    r = ts[0].shape.rank
    a = V.check_axis(axis, "axis", "Concat", r)
    if r is not None:
        ref = ts[0].shape.as_list()
        for i, t in enumerate(ts[1:], 1):
            s = t.shape.as_list()
            if len(s) != r or builtins.any(x is not None and y is not None and x != y
                                           for j, (x, y) in enumerate(zip(ref, s)) if j != a):
                raise ValueError(f"For 'Concat', the shapes of all inputs must be equal except in 'axis' {axis}, but "
                                 f"got tensors[0] shape {tuple(ref)} and tensors[{i}] shape {tuple(s)}.")
    return _wrap(concat_through_nchw(ts, a))


cat = concat


def hstack(tensors: Any) -> Tensor:
    """Concatenate along the second axis (the first for 1-D tensors)."""
    ts = _seq("hstack", "tensors", tensors)
    return _wrap(tf.concat(ts, 0 if ts[0].shape.rank == 1 else 1))


def vstack(inputs: Any) -> Tensor:
    """Stack rows: 1-D tensors become rows, then concatenate along the first axis."""
    ts = [tf.reshape(t, [1, -1]) if t.shape.rank == 1 else t for t in _seq("vstack", "inputs", inputs)]
    return _wrap(tf.concat(ts, 0))


def stack(tensors: Any, axis: int = 0) -> Tensor:
    """Stack tensors of one shape along a new ``axis``.

    Raises:
        ValueError: when the shapes differ or ``axis`` is out of range.
    """
    ts = _seq("Stack", "tensors", tensors)
    r = ts[0].shape.rank
    if r is not None and not -r - 1 <= axis <= r:
        raise ValueError(f"For 'Stack', the 'axis' must be in range [{-r - 1}, {r}], but got {axis}.")
    ref = ts[0].shape
    for i, t in enumerate(ts[1:], 1):
        if not ref.is_compatible_with(t.shape):
            raise ValueError(f"For 'Stack', all input shapes must be the same, but got tensors[0] shape "
                             f"{tuple(ref.as_list())} and tensors[{i}] shape {tuple(t.shape.as_list())}.")
    return _wrap(tf.stack(ts, axis))


def unstack(input_x: Any, axis: int = 0) -> tuple:
    """Split ``input_x`` along ``axis`` into a tuple of tensors of one rank less."""
    t = to_tf(input_x, "Unstack", "input_x")
    a = V.check_axis(axis, "axis", "Unstack", t.shape.rank)
    return tuple(_wrap(x) for x in tf.unstack(t, axis=a))


unbind = unstack


def split(tensor: Any, split_size_or_sections: Any = None, axis: int = 0, output_num: int | None = None) -> tuple:
    """Split into chunks of ``split_size_or_sections`` (an int: equal chunks, the last may be smaller; a list:
    the chunk sizes).

    MindSpore 1.x's form ``split(x, axis=..., output_num=n)`` (n equal parts) is accepted too.

    Raises:
        ValueError: when the sizes do not add up to the dimension.
    """
    t = to_tf(tensor, "split", "tensor")
    a = V.check_axis(axis, "axis", "split", t.shape.rank)
    n = t.shape[a]
    if output_num is not None and split_size_or_sections is None:
        parts = V.check_positive_int(output_num, "output_num", "split")
        if n is not None and n % parts:
            raise ValueError(f"For 'split', the dimension {n} of axis {axis} must be divisible by 'output_num' "
                             f"{parts}.")
        return tuple(_wrap(x) for x in tf.split(t, parts, axis=a))
    if isinstance(split_size_or_sections, numbers.Integral) and not isinstance(split_size_or_sections, bool):
        sz = V.check_positive_int(split_size_or_sections, "split_size_or_sections", "split")
        if n is None:
            raise ValueError("For 'split', the split dimension must be static.")
        sizes = [sz] * (n // sz) + ([n % sz] if n % sz else [])
    elif isinstance(split_size_or_sections, (list, tuple)):
        sizes = list(V.check_int_tuple(split_size_or_sections, "split_size_or_sections", "split"))
        if n is not None and builtins.sum(sizes) != n:
            raise ValueError(f"For 'split', the sum of 'split_size_or_sections' must be equal to the dimension "
                             f"{n} of axis {axis}, but got {tuple(sizes)}.")
    else:
        raise TypeError(f"For 'split', the 'split_size_or_sections' must be an int, tuple or list, but got "
                        f"{type(split_size_or_sections).__name__}.")
    return tuple(_wrap(x) for x in tf.split(t, sizes, axis=a))


def tensor_split(input: Any, indices_or_sections: Any, axis: int = 0) -> tuple:  # noqa: A002
    """Split into ``indices_or_sections`` near-equal parts, or at the given indices."""
    t = to_tf(input, "tensor_split", "input")
    a = V.check_axis(axis, "axis", "tensor_split", t.shape.rank)
    n = t.shape[a]
    if isinstance(indices_or_sections, numbers.Integral):
        k = indices_or_sections
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
    else:
        idx = [0] + list(indices_or_sections) + [n]
        sizes = [builtins.max(0, builtins.min(idx[i + 1], n) - builtins.min(idx[i], n)) for i in _range(len(idx) - 1)]
    return tuple(_wrap(x) for x in tf.split(t, sizes, axis=a))


def chunk(input: Any, chunks: int, axis: int = 0) -> tuple:  # noqa: A002
    """Split into ``chunks`` parts of size ``ceil(dim / chunks)`` (fewer parts when they run out)."""
    t = to_tf(input, "chunk", "input")
    V.check_positive_int(chunks, "chunks", "chunk")
    a = V.check_axis(axis, "axis", "chunk", t.shape.rank)
    n = t.shape[a]
    if n is None:
        raise ValueError("For 'chunk', the split dimension must be static.")
    sz = -(-n // chunks) if n else 0
    if sz == 0:
        return (_wrap(t),)
    return split(Tensor._from_tf(t), sz, a)


def narrow(input: Any, axis: int, start: int, length: int) -> Tensor:  # noqa: A002
    """The slice ``start:start+length`` along ``axis``."""
    t = to_tf(input, "narrow", "input")
    a = V.check_axis(axis, "axis", "narrow", t.shape.rank)
    begin = [0] * t.shape.rank
    size = [-1] * t.shape.rank
    begin[a], size[a] = start, length
    return _wrap(tf.slice(t, begin, size))

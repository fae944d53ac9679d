"""Tensor shape and selection methods: reshape, flatten, squeeze, transpose, broadcast_to, tile, repeat,
split, gather, masked_fill, topk, sort...
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common._tensor_method_base import MethodBase, _MISSING, _axes, _pick, _shape_args, _tf_dt
from tfspore.common._tensor_promote import is_ms_tensor, promote, to_tf


class ShapeMethods(MethodBase):
    """Shape changes and element selection."""

    __slots__ = ()

    # ----------------------------------------------------------------- shapes
    def reshape(self, *shape: Any, **kwargs: Any) -> Any:
        """Return the tensor with a new shape (``-1`` infers one dimension).

        Accepts ``reshape(2, 3)``, ``reshape((2, 3))`` and ``reshape(shape=(2, 3))``.
        """
        if "shape" in kwargs:
            shape = (kwargs.pop("shape"),)
        if kwargs:
            raise TypeError(f"For 'Tensor.reshape', got unexpected keyword argument(s) {sorted(kwargs)}.")
        return self._wrap_tf(tf.reshape(self._v(), _shape_args(shape, "Tensor.reshape")))

    def view(self, *shape: Any) -> Any:
        """``view(*shape)`` reshapes; ``view(dtype)`` reinterprets the bytes as another dtype."""
        if len(shape) == 1 and not isinstance(shape[0], (list, tuple, numbers.Integral)) and not is_ms_tensor(shape[0]):
            dt = _tf_dt(shape[0], "Tensor.view")
            v = self._v()
            if dt.size == v.dtype.size:
                return self._wrap_tf(tf.bitcast(v, dt))
            raise ValueError(f"For 'Tensor.view', the dtype {shape[0]} must have the same size as {v.dtype.name}.")
        return self.reshape(*shape)

    def view_as(self, other: Any) -> Any:
        """Reshape to ``other``'s shape."""
        return self._wrap_tf(tf.reshape(self._v(), tf.shape(to_tf(other))))

    reshape_as = view_as

    def flatten(self, *args: Any, order: str = "C", start_dim: int = 0, end_dim: int = -1) -> Any:
        """Flatten dimensions ``start_dim``..``end_dim`` into one.

        Accepts MindSpore's ``flatten(order='C', *, start_dim=0, end_dim=-1)`` and
        ``flatten(start_dim=0, end_dim=-1)``; ``order='F'`` flattens column-major.
        """
        if args and isinstance(args[0], str):
            order = args[0]
        elif args:
            start_dim = args[0]
            if len(args) > 1:
                end_dim = args[1]
        if order not in ("C", "F"):
            raise ValueError(f"For 'Tensor.flatten', the 'order' must be 'C' or 'F', but got {order!r}.")
        v = self._v()
        rank = v.shape.rank
        if rank == 0:
            return self._wrap_tf(tf.reshape(v, [1]))
        if order == "F":
            v = tf.transpose(v)
        s, e = int(start_dim) % rank, int(end_dim) % rank
        if s > e:
            raise ValueError(f"For 'Tensor.flatten', 'start_dim' {start_dim} must not come after 'end_dim' {end_dim}.")
        if s == e:
            return self._wrap_tf(v)
        dims = v.shape.as_list()
        if all(d is not None for d in dims):
            new = dims[:s] + [-1] + dims[e + 1:]
        else:
            dyn = tf.shape(v)
            new = tf.concat([dyn[:s], [-1], dyn[e + 1:]], 0)
        return self._wrap_tf(tf.reshape(v, new))

    def ravel(self) -> Any:
        """Flatten to one dimension."""
        return self._wrap_tf(tf.reshape(self._v(), [-1]))

    def squeeze(self, axis: Any = None) -> Any:
        """Remove dimensions of length 1 (only those in ``axis`` when given; others are left alone)."""
        v = self._v()
        if axis is None:
            return self._wrap_tf(tf.squeeze(v))
        ax = _axes(axis, "Tensor.squeeze")
        ax = (ax,) if isinstance(ax, int) else (ax or ())
        rank = v.shape.rank
        dims = v.shape.as_list()
        keep = []
        for a in ax:
            if not -rank <= a < rank:
                raise ValueError(f"For 'Tensor.squeeze', the 'axis' {a} is out of range for a {rank}-D tensor.")
            if dims[a % rank] == 1:
                keep.append(a % rank)
        return self._wrap_tf(tf.squeeze(v, keep) if keep else v)

    def expand_dims(self, axis: int) -> Any:
        """Insert a dimension of length 1 at ``axis``."""
        return self._wrap_tf(tf.expand_dims(self._v(), int(axis)))

    def unsqueeze(self, dim: int) -> Any:
        """Insert a dimension of length 1 at ``dim``."""
        return self.expand_dims(dim)

    def transpose(self, *axes: Any, **kwargs: Any) -> Any:
        """Permute dimensions.

        ``transpose()`` reverses them, ``transpose(perm)`` / ``transpose(*perm)`` permutes, and
        ``transpose(dim0, dim1)`` (exactly two ints, or ``dim0=``/``dim1=``) swaps two axes.
        """
        v = self._v()
        rank = v.shape.rank
        if "dim0" in kwargs or "dim1" in kwargs:
            return self.swapaxes(kwargs.get("dim0", axes[0] if axes else 0), kwargs.get("dim1"))
        if "axes" in kwargs:
            axes = (kwargs["axes"],)
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = tuple(axes[0])
        if not axes:
            return self._wrap_tf(tf.transpose(v))
        if len(axes) == 2 and rank != 2:
            return self.swapaxes(axes[0], axes[1])
        return self._wrap_tf(tf.transpose(v, [int(a) % rank for a in axes]))

    def permute(self, *dims: Any) -> Any:
        """Permute dimensions: ``permute(1, 0)`` or ``permute((1, 0))``."""
        if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
            dims = tuple(dims[0])
        v = self._v()
        return self._wrap_tf(tf.transpose(v, [int(a) % v.shape.rank for a in dims]))

    def swapaxes(self, axis0: int, axis1: int) -> Any:
        """Swap two axes."""
        v = self._v()
        rank = v.shape.rank
        perm = list(range(rank))
        a, b = int(axis0) % rank, int(axis1) % rank
        perm[a], perm[b] = perm[b], perm[a]
        return self._wrap_tf(tf.transpose(v, perm))

    swapdims = swapaxes

    @property
    def T(self) -> Any:  # noqa: N802
        """The transpose (dimensions reversed)."""
        return self._wrap_tf(tf.transpose(self._v()))

    @property
    def mT(self) -> Any:  # noqa: N802
        """The transpose of the last two dimensions."""
        v = self._v()
        return self._wrap_tf(tf.linalg.matrix_transpose(v)) if v.shape.rank >= 2 else self._wrap_tf(v)

    def broadcast_to(self, *shape: Any, **kwargs: Any) -> Any:
        """Broadcast to ``shape``; ``-1`` keeps the corresponding input dimension."""
        if "shape" in kwargs:
            shape = (kwargs.pop("shape"),)
        if kwargs:
            raise TypeError(f"For 'Tensor.broadcast_to', got unexpected keyword argument(s) {sorted(kwargs)}.")
        return self._wrap_tf(_broadcast(self._v(), _shape_args(shape, "Tensor.broadcast_to")))

    def expand(self, *size: Any) -> Any:
        """Broadcast to ``size`` (``-1`` keeps a dimension)."""
        return self.broadcast_to(*size)

    def expand_as(self, other: Any) -> Any:
        """Broadcast to ``other``'s shape."""
        return self._wrap_tf(tf.broadcast_to(self._v(), tf.shape(to_tf(other))))

    def tile(self, reps: Any = None, *, dims: Any = None) -> Any:
        """Repeat the whole tensor ``reps`` times per dimension (``reps`` is padded with 1s on the left)."""
        reps = dims if reps is None else reps
        if isinstance(reps, (numbers.Integral, np.integer)):
            reps = (int(reps),)
        reps = [int(r) for r in reps]
        v = self._v()
        rank = v.shape.rank
        if len(reps) < rank:
            reps = [1] * (rank - len(reps)) + reps
        elif len(reps) > rank:
            v = tf.reshape(v, tf.concat([tf.ones([len(reps) - rank], tf.int32), tf.shape(v)], 0))
        return self._wrap_tf(tf.tile(v, reps))

    def repeat(self, *repeats: Any, axis: Any = _MISSING, **kwargs: Any) -> Any:
        """MindSpore 2.10's ``repeat(*repeats)``: tile the tensor (torch semantics).

        With ``axis=`` (MindSpore's legacy ``repeat(repeats, axis=None)``) each element is repeated
        instead, as :meth:`repeat_interleave` does.

        Raises:
            RuntimeError: when fewer repeats than dimensions are given.
        """
        if "repeats" in kwargs:
            repeats = (kwargs.pop("repeats"),)
        if kwargs:
            raise TypeError(f"For 'Tensor.repeat', got unexpected keyword argument(s) {sorted(kwargs)}.")
        if axis is not _MISSING:
            return self.repeat_interleave(repeats[0], axis)
        if len(repeats) == 1 and isinstance(repeats[0], (list, tuple)):
            repeats = tuple(repeats[0])
        v = self._v()
        if len(repeats) < v.shape.rank:
            raise RuntimeError(f"For 'Tensor.repeat', the number of repeats ({len(repeats)}) must not be less than "
                               f"the number of dimensions ({v.shape.rank}).")
        return self.tile(tuple(repeats))

    def repeat_interleave(self, repeats: Any, dim: Any = None, output_size: Any = None) -> Any:
        """Repeat each element ``repeats`` times along ``dim`` (of the flattened tensor when None)."""
        v = self._v()
        if dim is None:
            v, dim = tf.reshape(v, [-1]), 0
        reps = to_tf(repeats) if is_ms_tensor(repeats) else repeats
        return self._wrap_tf(tf.repeat(v, reps, axis=int(dim)))

    def split(self, split_size_or_sections: Any, axis: int = 0, *, dim: Any = _MISSING) -> tuple:
        """Split along ``axis`` into chunks of ``split_size_or_sections`` (an int) or of the listed sizes."""
        axis = int(_pick("Tensor.split", "axis", axis, "dim", dim, 0))
        v = self._v()
        s = split_size_or_sections
        if isinstance(s, (numbers.Integral, np.integer)):
            n = v.shape[axis]
            if n is None:
                raise ValueError("For 'Tensor.split', an int split size needs a static dimension.")
            sizes = [int(s)] * (n // int(s)) + ([n % int(s)] if n % int(s) else [])
        else:
            sizes = [int(x) for x in s]
        return tuple(self._wrap_tf(t) for t in tf.split(v, sizes, axis=axis))

    def chunk(self, chunks: int, axis: int = 0, *, dim: Any = _MISSING) -> tuple:
        """Split into ``chunks`` pieces of (nearly) equal length along ``axis``."""
        axis = int(_pick("Tensor.chunk", "axis", axis, "dim", dim, 0))
        n = self._v().shape[axis]
        size = -(-n // int(chunks))
        return self.split(size, axis)

    def narrow(self, axis: int, start: int, length: int) -> Any:
        """The slice ``[start, start + length)`` along ``axis``."""
        v = self._v()
        begin = [0] * v.shape.rank
        size = [-1] * v.shape.rank
        begin[axis] = start
        size[axis] = length
        return self._wrap_tf(tf.slice(v, begin, size))

    def flip(self, dims: Any) -> Any:
        """Reverse the order of elements along ``dims``."""
        dims = [dims] if isinstance(dims, (numbers.Integral, np.integer)) else list(dims)
        return self._wrap_tf(tf.reverse(self._v(), [int(d) for d in dims]))

    def roll(self, shifts: Any, dims: Any = None) -> Any:
        """Roll elements along ``dims`` (of the flattened tensor when None)."""
        v = self._v()
        if dims is None:
            return self._wrap_tf(tf.reshape(tf.roll(tf.reshape(v, [-1]), shifts, 0), tf.shape(v)))
        return self._wrap_tf(tf.roll(v, shifts, dims))

    # ----------------------------------------------------------------- selection
    def gather(self, input_indices: Any, axis: int, batch_dims: int = 0) -> Any:
        """Gather slices along ``axis`` at ``input_indices``."""
        return self._wrap_tf(tf.gather(self._v(), to_tf(input_indices), axis=int(axis), batch_dims=batch_dims))

    def index_select(self, axis: int, index: Any) -> Any:
        """Select entries along ``axis`` at ``index`` (a 1-D int tensor)."""
        return self._wrap_tf(tf.gather(self._v(), to_tf(index), axis=int(axis)))

    def masked_fill(self, mask: Any, value: Any) -> Any:
        """Replace elements where ``mask`` is True with ``value``."""
        v = self._v()
        val = tf.cast(to_tf(value) if is_ms_tensor(value) else value, v.dtype)
        return self._wrap_tf(tf.where(tf.cast(to_tf(mask), tf.bool), val, v))

    def masked_select(self, mask: Any) -> Any:
        """The 1-D tensor of elements where ``mask`` (broadcast) is True."""
        v, m = self._v(), tf.cast(to_tf(mask), tf.bool)
        shape = tf.broadcast_dynamic_shape(tf.shape(v), tf.shape(m))
        return self._wrap_tf(tf.boolean_mask(tf.broadcast_to(v, shape), tf.broadcast_to(m, shape)))

    def where(self, condition: Any, y: Any) -> Any:
        """``self`` where ``condition`` is True, else ``y``."""
        a, b = promote(self, y)
        return self._wrap_tf(tf.where(tf.cast(to_tf(condition), tf.bool), a, b))

    def nonzero(self, *, as_tuple: bool = False) -> Any:
        """Indices of the non-zero elements: an Int64 ``[N, ndim]`` tensor, or a tuple of 1-D tensors."""
        idx = tf.where(tf.cast(self._v(), tf.bool))
        if as_tuple:
            return tuple(self._wrap_tf(idx[:, i]) for i in range(idx.shape[1]))
        return self._wrap_tf(idx)

    def topk(self, k: int, dim: Any = None, largest: bool = True, sorted: bool = True) -> tuple:  # noqa: A002
        """The ``k`` largest (or smallest) entries along ``dim`` (last when None): ``(values, Int32 indices)``."""
        v = self._v()
        rank = v.shape.rank
        d = rank - 1 if dim is None else int(dim) % rank
        moved = v if d == rank - 1 else tf.experimental.numpy.moveaxis(v, d, -1)
        vals, idx = tf.math.top_k(moved if largest else -moved, k=int(k), sorted=sorted)
        if not largest:
            vals = -vals
        if d != rank - 1:
            vals = tf.experimental.numpy.moveaxis(vals, -1, d)
            idx = tf.experimental.numpy.moveaxis(idx, -1, d)
        return self._wrap_tf(vals), self._wrap_tf(tf.cast(idx, tf.int32))

    def sort(self, axis: int = -1, descending: bool = False, *, dim: Any = _MISSING, stable: bool = False) -> tuple:
        """Sort along ``axis``: ``(values, Int32 indices)``."""
        axis = int(_pick("Tensor.sort", "axis", axis, "dim", dim, -1))
        v = self._v()
        direction = "DESCENDING" if descending else "ASCENDING"
        idx = tf.argsort(v, axis=axis, direction=direction, stable=True)
        return self._wrap_tf(tf.sort(v, axis=axis, direction=direction)), self._wrap_tf(tf.cast(idx, tf.int32))

    def argsort(self, axis: int = -1, descending: bool = False, *, dim: Any = _MISSING, stable: bool = False) -> Any:
        """Indices that sort along ``axis``, as Int32."""
        axis = int(_pick("Tensor.argsort", "axis", axis, "dim", dim, -1))
        direction = "DESCENDING" if descending else "ASCENDING"
        return self._wrap_tf(tf.cast(tf.argsort(self._v(), axis=axis, direction=direction, stable=True), tf.int32))

    def tril(self, diagonal: int = 0) -> Any:
        """Lower triangle of the last two dimensions."""
        return self._wrap_tf(_tri(self._v(), int(diagonal), lower=True))

    def triu(self, diagonal: int = 0) -> Any:
        """Upper triangle of the last two dimensions."""
        return self._wrap_tf(_tri(self._v(), int(diagonal), lower=False))

    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
        """The diagonal of the ``dim1``/``dim2`` plane."""
        return self._wrap_tf(tf.experimental.numpy.diagonal(self._v(), offset, dim1, dim2))

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Any:
        """Sum of the diagonal."""
        out = tf.reduce_sum(tf.experimental.numpy.diagonal(self._v(), offset, axis1, axis2), axis=-1)
        return self._wrap_tf(tf.cast(out, _tf_dt(dtype, "Tensor.trace")) if dtype is not None else out)

def _broadcast(v: tf.Tensor, shape: Any) -> tf.Tensor:
    if isinstance(shape, list):
        rank = v.shape.rank
        lead = len(shape) - rank
        if any(isinstance(s, (numbers.Integral, np.integer)) and s == -1 for s in shape):
            dyn = tf.shape(v)
            fixed = []
            for i, s in enumerate(shape):
                if isinstance(s, (numbers.Integral, np.integer)) and s == -1:
                    if i < lead:
                        raise ValueError(f"For 'Tensor.broadcast_to', -1 at position {i} of {shape} has no "
                                         "matching input dimension.")
                    fixed.append(dyn[i - lead])
                else:
                    fixed.append(s)
            shape = tf.stack([tf.cast(s, tf.int32) for s in fixed])
    return tf.broadcast_to(v, shape)


def _tri(v: tf.Tensor, k: int, lower: bool) -> tf.Tensor:
    shape = tf.shape(v)
    rows = tf.range(shape[-2])[:, tf.newaxis]
    cols = tf.range(shape[-1])[tf.newaxis, :]
    mask = (cols - rows <= k) if lower else (cols - rows >= k)
    return tf.where(mask, v, tf.zeros_like(v))


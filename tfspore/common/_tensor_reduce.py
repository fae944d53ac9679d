"""Tensor reductions: sum, mean, max/min, argmax/argmin, all/any, std/var, norm, softmax, cumsum..."""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal.norms import max_min_count_norm
from tfspore.common._tensor_method_base import MethodBase, _MISSING, _axes, _float_input, _pick, _tf_dt
from tfspore.common._tensor_promote import is_ms_tensor, kind_of, to_tf


def _widened(v: tf.Tensor, dtype: Any, api: str) -> tf.Tensor:
    """``v`` cast to ``dtype``, or with no ``dtype`` integers and bools widened to Int64 (sum and prod)."""
    if dtype is not None:
        return tf.cast(v, _tf_dt(dtype, api))
    if kind_of(v.dtype) < 2:
        return tf.cast(v, tf.int64)
    return v


class ReduceMethods(MethodBase):
    """Reductions over axes, with MindSpore's legacy and torch-style signatures."""

    __slots__ = ()

    # ----------------------------------------------------------------- reductions
    def _reduce(self, fn: Any, axis: Any, keepdims: bool, api: str) -> tf.Tensor:
        return fn(self._v(), axis=_axes(axis, api), keepdims=bool(keepdims))

    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None, *,
            dim: Any = _MISSING, keepdim: Any = _MISSING) -> Any:
        """Sum over ``axis`` (all axes when None); integers and bools sum to Int64.

        Args:
            axis: int, tuple of ints or None (alias ``dim``).
            dtype: the result dtype. Default: the input's (Int64 for integers and bools).
            keepdims: keep reduced axes with length 1 (alias ``keepdim``).
            initial: a value added to the sum.

        Returns:
            Tensor: the sum.
        """
        if isinstance(dtype, bool):  # sum(dim, keepdim) positional form
            keepdims, dtype = dtype, None
        axis = _pick("Tensor.sum", "axis", axis, "dim", dim, None)
        keepdims = _pick("Tensor.sum", "keepdims", keepdims, "keepdim", keepdim, False)
        v = _widened(self._v(), dtype, "Tensor.sum")
        out = tf.reduce_sum(v, axis=_axes(axis, "Tensor.sum"), keepdims=bool(keepdims))
        if initial is not None:
            out = out + tf.cast(to_tf(initial) if is_ms_tensor(initial) else initial, out.dtype)
        return self._wrap_tf(out)

    def mean(self, axis: Any = None, keep_dims: bool = False, *, dim: Any = _MISSING, keepdim: Any = _MISSING,
             dtype: Any = None) -> Any:
        """Mean over ``axis``; integer inputs keep their dtype (the mean is truncated), as in MindSpore.

        Raises:
            TypeError: for a Bool tensor.
        """
        axis = _pick("Tensor.mean", "axis", axis, "dim", dim, None)
        keep = _pick("Tensor.mean", "keep_dims", keep_dims, "keepdim", keepdim, False)
        v = self._v()
        if dtype is not None:
            v = tf.cast(v, _tf_dt(dtype, "Tensor.mean"))
        if v.dtype == tf.bool:
            raise TypeError("For 'Tensor.mean', Bool tensors are not supported: cast to a number type first.")
        return self._wrap_tf(tf.reduce_mean(v, axis=_axes(axis, "Tensor.mean"), keepdims=bool(keep)))

    def prod(self, axis: Any = None, keep_dims: bool = False, dtype: Any = None, *, dim: Any = _MISSING,
             keepdim: Any = _MISSING) -> Any:
        """Product over ``axis``; integers and bools give Int64."""
        axis = _pick("Tensor.prod", "axis", axis, "dim", dim, None)
        keep = _pick("Tensor.prod", "keep_dims", keep_dims, "keepdim", keepdim, False)
        v = _widened(self._v(), dtype, "Tensor.prod")
        return self._wrap_tf(tf.reduce_prod(v, axis=_axes(axis, "Tensor.prod"), keepdims=bool(keep)))

    def _extreme(self, api: str, is_max: bool, args: tuple, kwargs: dict) -> Any:
        allowed = {"axis", "keepdims", "initial", "where", "return_indices", "dim", "keepdim"}
        bad = set(kwargs) - allowed
        if bad:
            raise TypeError(f"For '{api}', got unexpected keyword argument(s) {sorted(bad)}.")
        if len(args) > 2:
            raise TypeError(f"For '{api}', at most 2 positional arguments are accepted, but got {len(args)}.")
        torch_form = "dim" in kwargs or (args and isinstance(args[0], (numbers.Integral, np.integer))
                                         and not isinstance(args[0], bool))
        axis = args[0] if args else kwargs.get("axis", kwargs.get("dim"))
        keep = args[1] if len(args) > 1 else kwargs.get("keepdims", kwargs.get("keepdim", False))
        v = self._v()
        orig = v.dtype
        if orig == tf.bool:
            v = tf.cast(v, tf.int8)
        where = kwargs.get("where", None)
        if where is not None and not (isinstance(where, bool) and where):
            w = to_tf(where) if not isinstance(where, bool) else tf.constant(where)
            fill = v.dtype.min if is_max else v.dtype.max
            if v.dtype.is_floating:
                fill = -np.inf if is_max else np.inf
            v = tf.where(tf.cast(w, tf.bool), v, tf.cast(fill, v.dtype))
        if torch_form or kwargs.get("return_indices", False):
            ax = _axes(axis, api)
            if not isinstance(ax, int):
                raise TypeError(f"For '{api}', returning indices needs one int 'dim', but got {axis!r}.")
            vals = (tf.reduce_max if is_max else tf.reduce_min)(v, axis=ax, keepdims=bool(keep))
            idx = (tf.argmax if is_max else tf.argmin)(v, axis=ax, output_type=tf.int64)
            if keep:
                idx = tf.expand_dims(idx, ax)
            return self._wrap_tf(tf.cast(vals, orig)), self._wrap_tf(idx)
        out = (tf.reduce_max if is_max else tf.reduce_min)(v, axis=_axes(axis, api), keepdims=bool(keep))
        initial = kwargs.get("initial", None)
        if initial is not None:
            init = tf.cast(to_tf(initial) if is_ms_tensor(initial) else initial, out.dtype)
            out = tf.maximum(out, init) if is_max else tf.minimum(out, init)
        return self._wrap_tf(tf.cast(out, orig))

    def max(self, *args: Any, **kwargs: Any) -> Any:
        """The maximum.

        MindSpore's two forms:

        - ``max(axis=None, keepdims=False, *, initial=None, where=True, return_indices=False)``
          returns the values (a ``(values, Int64 indices)`` tuple with ``return_indices=True``);
        - ``max(dim, keepdim=False)`` with ``dim`` an int given positionally or as ``dim=``
          returns ``(values, Int64 indices)``.

        Returns:
            Tensor or tuple: see above.
        """
        return self._extreme("Tensor.max", True, args, kwargs)

    def min(self, *args: Any, **kwargs: Any) -> Any:
        """The minimum; the same forms as :meth:`max`."""
        return self._extreme("Tensor.min", False, args, kwargs)

    def amax(self, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
        """The maximum over ``axis`` (values only)."""
        return self._extreme("Tensor.amax", True, (), {"axis": axis, "keepdims": keepdims, "initial": initial,
                                                        "where": where})

    def amin(self, axis: Any = None, keepdims: bool = False, *, initial: Any = None, where: Any = None) -> Any:
        """The minimum over ``axis`` (values only)."""
        return self._extreme("Tensor.amin", False, (), {"axis": axis, "keepdims": keepdims, "initial": initial,
                                                         "where": where})

    def _arg(self, fn: Any, axis: Any, keepdims: bool, out: tf.DType) -> Any:
        v = self._v()
        if v.dtype == tf.bool:
            v = tf.cast(v, tf.int8)
        if axis is None:
            r = fn(tf.reshape(v, [-1]), axis=0, output_type=out)
            if keepdims:
                r = tf.reshape(r, [1] * v.shape.rank)
            return self._wrap_tf(r)
        r = fn(v, axis=int(axis), output_type=out)
        return self._wrap_tf(tf.expand_dims(r, int(axis)) if keepdims else r)

    def argmax(self, axis: Any = None, keepdims: bool = False, *, dim: Any = _MISSING,
               keepdim: Any = _MISSING) -> Any:
        """Index of the maximum (of the flattened tensor when ``axis`` is None), as Int64."""
        axis = _pick("Tensor.argmax", "axis", axis, "dim", dim, None)
        keepdims = _pick("Tensor.argmax", "keepdims", keepdims, "keepdim", keepdim, False)
        return self._arg(tf.argmax, axis, keepdims, tf.int64)

    def argmin(self, axis: Any = None, keepdims: bool = False, *, dim: Any = _MISSING,
               keepdim: Any = _MISSING) -> Any:
        """Index of the minimum, as Int32 (MindSpore 2.10's dtype for argmin)."""
        axis = _pick("Tensor.argmin", "axis", axis, "dim", dim, None)
        keepdims = _pick("Tensor.argmin", "keepdims", keepdims, "keepdim", keepdim, False)
        return self._arg(tf.argmin, axis, keepdims, tf.int32)

    def all(self, axis: Any = None, keep_dims: bool = False, *, dim: Any = _MISSING, keepdim: Any = _MISSING) -> Any:
        """Whether all elements are true (non-zero) over ``axis``; a Bool tensor."""
        axis = _pick("Tensor.all", "axis", axis, "dim", dim, None)
        keep = _pick("Tensor.all", "keep_dims", keep_dims, "keepdim", keepdim, False)
        v = tf.cast(self._v(), tf.bool)
        return self._wrap_tf(tf.reduce_all(v, axis=_axes(axis, "Tensor.all"), keepdims=bool(keep)))

    def any(self, axis: Any = None, keep_dims: bool = False, *, dim: Any = _MISSING, keepdim: Any = _MISSING) -> Any:
        """Whether any element is true (non-zero) over ``axis``; a Bool tensor."""
        axis = _pick("Tensor.any", "axis", axis, "dim", dim, None)
        keep = _pick("Tensor.any", "keep_dims", keep_dims, "keepdim", keepdim, False)
        v = tf.cast(self._v(), tf.bool)
        return self._wrap_tf(tf.reduce_any(v, axis=_axes(axis, "Tensor.any"), keepdims=bool(keep)))

    def _moment(self, api: str, axis: Any, ddof: Any, keepdims: bool, sqrt: bool) -> Any:
        v = _float_input(self._v())
        ax = _axes(axis, api)
        mean = tf.reduce_mean(v, axis=ax, keepdims=True)
        sq = tf.reduce_sum(tf.square(v - mean), axis=ax, keepdims=bool(keepdims))
        if ax is None:
            n = tf.cast(tf.size(v), v.dtype)
        else:
            rank = v.shape.rank
            axes = [a % rank for a in (ax if isinstance(ax, tuple) else (ax,))]
            n = tf.cast(tf.reduce_prod(tf.gather(tf.shape(v), axes)), v.dtype)
        out = sq / (n - tf.cast(ddof, v.dtype))
        return self._wrap_tf(tf.sqrt(out) if sqrt else out)

    def std(self, axis: Any = None, ddof: int = 0, keepdims: bool = False, *, dim: Any = _MISSING,
            correction: Any = _MISSING, keepdim: Any = _MISSING) -> Any:
        """Standard deviation over ``axis`` with ``ddof`` (alias ``correction``) degrees of freedom removed.

        The default ``ddof`` is 0, as in MindSpore's ``Tensor.std``; integer inputs give Float32
        (computed in floating point: MindSpore 2.10 truncates the mean of integer inputs first).
        """
        axis = _pick("Tensor.std", "axis", axis, "dim", dim, None)
        ddof = _pick("Tensor.std", "ddof", ddof, "correction", correction, 0)
        keepdims = _pick("Tensor.std", "keepdims", keepdims, "keepdim", keepdim, False)
        return self._moment("Tensor.std", axis, ddof, keepdims, True)

    def var(self, axis: Any = None, ddof: int = 0, keepdims: bool = False, *, dim: Any = _MISSING,
            correction: Any = _MISSING, keepdim: Any = _MISSING) -> Any:
        """Variance over ``axis`` with ``ddof`` (alias ``correction``) degrees of freedom removed."""
        axis = _pick("Tensor.var", "axis", axis, "dim", dim, None)
        ddof = _pick("Tensor.var", "ddof", ddof, "correction", correction, 0)
        keepdims = _pick("Tensor.var", "keepdims", keepdims, "keepdim", keepdim, False)
        return self._moment("Tensor.var", axis, ddof, keepdims, False)

    def norm(self, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:  # noqa: A002
        """Vector or matrix norm (``mindspore.ops.norm``).

        Args:
            ord: None (2-norm of the flattened tensor, or Frobenius), a number, ``inf``, ``-inf``,
                ``'fro'`` or ``'nuc'``. With ``dim`` None and ``ord`` given, a 1-D tensor takes a
                vector norm and a 2-D tensor a matrix norm.
            dim: None, an int (vector norm) or a pair of ints (matrix norm).
            keepdim: keep the reduced axes.
            dtype: cast the input to this dtype first.

        Returns:
            Tensor: the norm (Float32 for integer inputs).

        Raises:
            ValueError: for an ``ord`` that does not apply.
        """
        v = self._v()
        if dtype is not None:
            v = tf.cast(v, _tf_dt(dtype, "Tensor.norm"))
        v = _float_input(v)
        rank = v.shape.rank
        if dim is None:
            if ord is None:
                out = tf.sqrt(tf.reduce_sum(tf.square(tf.abs(v))))
                return self._wrap_tf(tf.reshape(out, [1] * rank) if keepdim else out)
            if rank == 1:
                dim = 0
            elif rank == 2:
                dim = (0, 1)
            else:
                raise ValueError(f"For 'Tensor.norm', an 'ord' without 'dim' needs a 1-D or 2-D tensor, but got "
                                 f"{rank}-D.")
        if isinstance(dim, (list, tuple)) and len(dim) == 1:
            dim = int(dim[0])
        if isinstance(dim, (list, tuple)):
            return self._wrap_tf(_matrix_norm(v, ord, tuple(int(d) % rank for d in dim), keepdim))
        return self._wrap_tf(_vector_norm(v, 2 if ord is None else ord, int(dim), keepdim))

    def softmax(self, axis: int, dtype: Any = None) -> Any:
        """Softmax along ``axis`` (required, as in MindSpore); ``dtype`` casts the result."""
        out = tf.nn.softmax(self._v(), axis=int(axis))
        if dtype is not None:
            out = tf.cast(out, _tf_dt(dtype, "Tensor.softmax"))
        return self._wrap_tf(out)

    def log_softmax(self, axis: int = -1) -> Any:
        """Log-softmax along ``axis`` (float16/bfloat16 data computed in float32 and rounded once, as
        ``ops.log_softmax``)."""
        v = self._v()
        if v.dtype in (tf.float16, tf.bfloat16):
            return self._wrap_tf(tf.cast(tf.nn.log_softmax(tf.cast(v, tf.float32), axis=int(axis)), v.dtype))
        return self._wrap_tf(tf.nn.log_softmax(v, axis=int(axis)))

    def logsumexp(self, axis: Any = None, keepdims: bool = False, *, dim: Any = _MISSING,
                  keepdim: Any = _MISSING) -> Any:
        """``log(sum(exp(x)))`` over ``axis``, computed stably."""
        axis = _pick("Tensor.logsumexp", "axis", axis, "dim", dim, None)
        keepdims = _pick("Tensor.logsumexp", "keepdims", keepdims, "keepdim", keepdim, False)
        return self._wrap_tf(tf.reduce_logsumexp(_float_input(self._v()), axis=_axes(axis, "Tensor.logsumexp"),
                                                 keepdims=bool(keepdims)))

    def cumsum(self, axis: Any = None, dtype: Any = None, *, dim: Any = _MISSING) -> Any:
        """Cumulative sum along ``axis`` (of the flattened tensor when None); small ints and bools give Int32."""
        axis = _pick("Tensor.cumsum", "axis", axis, "dim", dim, None)
        v = self._v()
        if axis is None:
            v, axis = tf.reshape(v, [-1]), 0
        if dtype is not None:
            v = tf.cast(v, _tf_dt(dtype, "Tensor.cumsum"))
        elif v.dtype == tf.bool or (kind_of(v.dtype) == 1 and v.dtype.size < 4) or v.dtype == tf.uint32:
            v = tf.cast(v, tf.int32)
        return self._wrap_tf(tf.cumsum(v, axis=int(axis)))

    def cumprod(self, dim: int, dtype: Any = None) -> Any:
        """Cumulative product along ``dim``."""
        v = self._v()
        if dtype is not None:
            v = tf.cast(v, _tf_dt(dtype, "Tensor.cumprod"))
        return self._wrap_tf(tf.math.cumprod(v, axis=int(dim)))

    def count_nonzero(self, axis: Any = None, keep_dims: bool = False, *, dim: Any = _MISSING) -> Any:
        """The number of non-zero elements over ``axis``, as Int32."""
        axis = _pick("Tensor.count_nonzero", "axis", axis, "dim", dim, None)
        out = tf.math.count_nonzero(self._v(), axis=_axes(axis, "Tensor.count_nonzero"), keepdims=bool(keep_dims))
        return self._wrap_tf(tf.cast(out, tf.int32))

def _vector_norm(v: tf.Tensor, ord: Any, dim: int, keepdim: bool) -> tf.Tensor:  # noqa: A002
    out = max_min_count_norm(v, ord, dim, keepdim)
    if out is not None:
        return out
    a = tf.abs(v)
    if isinstance(ord, str):
        raise ValueError(f"For 'Tensor.norm', the 'ord' {ord!r} needs a 2-D 'dim'.")
    p = tf.cast(ord, v.dtype)
    return tf.pow(tf.reduce_sum(tf.pow(a, p), axis=dim, keepdims=keepdim), 1.0 / p)


def _matrix_norm(v: tf.Tensor, ord: Any, dims: tuple, keepdim: bool) -> tf.Tensor:  # noqa: A002
    d0, d1 = dims
    a = tf.abs(v)
    if ord is None or ord == "fro":
        out = tf.sqrt(tf.reduce_sum(tf.square(a), axis=dims))
    elif ord in (1, -1):
        col = tf.reduce_sum(a, axis=d0, keepdims=True)
        out = (tf.reduce_max if ord == 1 else tf.reduce_min)(col, axis=d1, keepdims=True)
        out = tf.squeeze(out, [d0, d1])
    elif ord in (math.inf, -math.inf):
        row = tf.reduce_sum(a, axis=d1, keepdims=True)
        out = (tf.reduce_max if ord == math.inf else tf.reduce_min)(row, axis=d0, keepdims=True)
        out = tf.squeeze(out, [d0, d1])
    elif ord in (2, -2, "nuc"):
        rank = v.shape.rank
        perm = [i for i in range(rank) if i not in dims] + [d0, d1]
        s = tf.linalg.svd(tf.transpose(v, perm), compute_uv=False)
        out = tf.reduce_sum(s, -1) if ord == "nuc" else (tf.reduce_max(s, -1) if ord == 2 else tf.reduce_min(s, -1))
    else:
        raise ValueError("For 'Tensor.norm', the ord mode must be in [2, -2, 1, -1, float('inf'), -float('inf'), "
                         f"'fro', 'nuc', None] for matrices, but got {ord}.")
    if keepdim:
        for d in sorted(dims):
            out = tf.expand_dims(out, d)
    return out

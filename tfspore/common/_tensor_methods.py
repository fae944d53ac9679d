"""The methods of ``tfspore.Tensor`` beyond construction, conversion and operators.

MindSpore 2.10 binds two signatures to many methods: the legacy numpy-like one
(``sum(axis=None, dtype=None, keepdims=False, initial=None)``) and the newer torch-like one
(``sum(dim=None, keepdim=False, *, dtype=None)``). Both spellings are accepted here, and
results follow MindSpore's dtypes (``argmax`` gives Int64, ``argmin``, ``sort`` and ``topk``
indices Int32, ``sum`` of integers Int64, ...). Every method is plain TF ops, so it works on
symbolic tensors inside ``tf.function``.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common._tensor_promote import binary, is_ms_tensor, kind_of, promote, to_tf

_MISSING = object()


def _axes(axis: Any, api: str) -> Any:
    """Normalise a reduction axis: None, an int, or a tuple of ints (an empty one means all)."""
    if axis is None:
        return None
    if is_ms_tensor(axis):
        axis = axis.asnumpy().tolist()
    if isinstance(axis, (list, tuple)):
        if not all(isinstance(a, (numbers.Integral, np.integer)) and not isinstance(a, bool) for a in axis):
            raise TypeError(f"For '{api}', the 'axis' must be an int or a tuple of ints, but got {axis!r}.")
        return tuple(int(a) for a in axis) or None
    if isinstance(axis, (numbers.Integral, np.integer)) and not isinstance(axis, bool):
        return int(axis)
    raise TypeError(f"For '{api}', the 'axis' must be None, an int or a tuple of ints, but got {axis!r}.")


def _pick(api: str, name: str, value: Any, alt_name: str, alt: Any, default: Any) -> Any:
    """Merge a legacy argument with its torch-style alias (``axis``/``dim``, ``keepdims``/``keepdim``)."""
    if alt is not _MISSING and alt is not None:
        return alt
    return default if value is _MISSING else value


def _shape_args(args: tuple, api: str) -> Any:
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(Tensor)`` -> a list or tensor shape."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    elif len(args) == 1 and is_ms_tensor(args[0]):
        return args[0]._value()
    out = []
    for a in args:
        if is_ms_tensor(a):
            a = a._value()
        elif not isinstance(a, (numbers.Integral, np.integer, tf.Tensor)) or isinstance(a, bool):
            raise TypeError(f"For '{api}', the shape must be ints, but got {args!r}.")
        out.append(a)
    return out


def _float_input(v: tf.Tensor) -> tf.Tensor:
    """Integer and bool inputs of float functions (sqrt, exp...) compute in Float32."""
    return tf.cast(v, tf.float32) if kind_of(v.dtype) < 2 else v


def _tf_dt(dtype: Any, api: str) -> tf.DType:
    return mstype.as_ms_dtype(dtype, api, "dtype").tf_dtype


class TensorMethods:
    """Mixin with the MindSpore Tensor methods; the host class supplies ``_value`` and ``_wrap_tf``."""

    __slots__ = ()

    def _v(self) -> tf.Tensor:
        v = self._value()
        return v if isinstance(v, tf.Tensor) else tf.convert_to_tensor(v)

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
        v = self._v()
        if dtype is not None:
            v = tf.cast(v, _tf_dt(dtype, "Tensor.sum"))
        elif kind_of(v.dtype) < 2:
            v = tf.cast(v, tf.int64)
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
        v = self._v()
        if dtype is not None:
            v = tf.cast(v, _tf_dt(dtype, "Tensor.prod"))
        elif kind_of(v.dtype) < 2:
            v = tf.cast(v, tf.int64)
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
        """Log-softmax along ``axis``."""
        return self._wrap_tf(tf.nn.log_softmax(self._v(), axis=int(axis)))

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

    # ----------------------------------------------------------------- element-wise math
    def abs(self) -> Any:
        """Element-wise absolute value (Bool and unsigned tensors are returned as they are)."""
        v = self._v()
        if v.dtype == tf.bool or v.dtype.is_unsigned:
            return self._wrap_tf(tf.identity(v))
        return self._wrap_tf(tf.abs(v))

    absolute = abs

    def neg(self) -> Any:
        """Element-wise negation."""
        return -self

    negative = neg

    def _unary_float(self, fn: Any) -> Any:
        return self._wrap_tf(fn(_float_input(self._v())))

    def sqrt(self) -> Any:
        """Element-wise square root (Float32 for integer inputs)."""
        return self._unary_float(tf.sqrt)

    def rsqrt(self) -> Any:
        """Element-wise ``1 / sqrt(x)``."""
        return self._unary_float(tf.math.rsqrt)

    def exp(self) -> Any:
        """Element-wise exponential."""
        return self._unary_float(tf.exp)

    def expm1(self) -> Any:
        """Element-wise ``exp(x) - 1``."""
        return self._unary_float(tf.math.expm1)

    def log(self) -> Any:
        """Element-wise natural logarithm."""
        return self._unary_float(tf.math.log)

    def log1p(self) -> Any:
        """Element-wise ``log(1 + x)``."""
        return self._unary_float(tf.math.log1p)

    def log2(self) -> Any:
        """Element-wise base-2 logarithm."""
        return self._unary_float(lambda v: tf.math.log(v) / tf.cast(math.log(2.0), v.dtype))

    def log10(self) -> Any:
        """Element-wise base-10 logarithm."""
        return self._unary_float(lambda v: tf.math.log(v) / tf.cast(math.log(10.0), v.dtype))

    def sin(self) -> Any:
        """Element-wise sine."""
        return self._unary_float(tf.sin)

    def cos(self) -> Any:
        """Element-wise cosine."""
        return self._unary_float(tf.cos)

    def tan(self) -> Any:
        """Element-wise tangent."""
        return self._unary_float(tf.tan)

    def tanh(self) -> Any:
        """Element-wise hyperbolic tangent."""
        return self._unary_float(tf.tanh)

    def sigmoid(self) -> Any:
        """Element-wise logistic sigmoid."""
        return self._unary_float(tf.sigmoid)

    def erf(self) -> Any:
        """Element-wise error function."""
        return self._unary_float(tf.math.erf)

    def reciprocal(self) -> Any:
        """Element-wise ``1 / x`` (Float32 for integer inputs)."""
        return self._unary_float(tf.math.reciprocal)

    def square(self) -> Any:
        """Element-wise square."""
        return self._wrap_tf(tf.square(self._v()))

    def sign(self) -> Any:
        """Element-wise sign (-1, 0 or 1)."""
        return self._wrap_tf(tf.sign(self._v()))

    def _rounding(self, fn: Any) -> Any:
        v = self._v()
        return self._wrap_tf(tf.identity(v) if kind_of(v.dtype) < 2 else fn(v))

    def floor(self) -> Any:
        """Element-wise floor."""
        return self._rounding(tf.floor)

    def ceil(self) -> Any:
        """Element-wise ceiling."""
        return self._rounding(tf.math.ceil)

    def trunc(self) -> Any:
        """Element-wise rounding toward zero."""
        return self._rounding(lambda v: tf.where(v < 0, tf.math.ceil(v), tf.floor(v)))

    def round(self, decimals: int = 0) -> Any:
        """Element-wise rounding half to even, to ``decimals`` places."""
        if decimals == 0:
            return self._rounding(tf.round)
        scale = 10.0 ** int(decimals)
        return self._rounding(lambda v: tf.round(v * scale) / scale)

    def __round__(self, ndigits: Any = None) -> Any:
        return self.round(ndigits or 0)

    def isnan(self) -> Any:
        """Element-wise NaN test (a Bool tensor)."""
        v = self._v()
        return self._wrap_tf(tf.math.is_nan(v) if v.dtype.is_floating else tf.zeros_like(v, tf.bool))

    def isinf(self) -> Any:
        """Element-wise infinity test."""
        v = self._v()
        return self._wrap_tf(tf.math.is_inf(v) if v.dtype.is_floating else tf.zeros_like(v, tf.bool))

    def isfinite(self) -> Any:
        """Element-wise finiteness test."""
        v = self._v()
        return self._wrap_tf(tf.math.is_finite(v) if v.dtype.is_floating else tf.ones_like(v, tf.bool))

    def nan_to_num(self, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
        """Replace NaN with ``nan`` and infinities with ``posinf``/``neginf`` (the dtype's limits by default)."""
        v = self._v()
        if not v.dtype.is_floating:
            return self._wrap_tf(tf.identity(v))
        big = v.dtype.max if posinf is None else posinf
        small = v.dtype.min if neginf is None else neginf
        v = tf.where(tf.math.is_nan(v), tf.cast(nan, v.dtype), v)
        v = tf.where(tf.math.is_inf(v) & (v > 0), tf.cast(big, v.dtype), v)
        return self._wrap_tf(tf.where(tf.math.is_inf(v) & (v < 0), tf.cast(small, v.dtype), v))

    def clip(self, min: Any = None, max: Any = None) -> Any:  # noqa: A002
        """Clip values to ``[min, max]`` (either may be None), with MindSpore's promotion.

        Raises:
            ValueError: when both bounds are None.
        """
        if min is None and max is None:
            raise ValueError("For 'Tensor.clip', at least one of 'min' or 'max' must not be None.")
        out: Any = self
        if min is not None:
            a, b = promote(out, min)
            out = tf.maximum(a, b)
        if max is not None:
            a, b = promote(out, max)
            out = tf.minimum(a, b)
        return self._wrap_tf(out)

    clamp = clip

    def pow(self, exponent: Any) -> Any:
        """Element-wise power."""
        return self._wrap_tf(binary("pow", self, exponent))

    def float_power(self, exponent: Any) -> Any:
        """Element-wise power computed in Float64."""
        a, b = promote(self, exponent)
        return self._wrap_tf(tf.pow(tf.cast(a, tf.float64), tf.cast(b, tf.float64)))

    def add(self, other: Any, *, alpha: Any = 1) -> Any:
        """``self + alpha * other``."""
        return self._wrap_tf(binary("add", self, other if alpha == 1 else binary("mul", other, alpha)))

    def sub(self, other: Any, *, alpha: Any = 1) -> Any:
        """``self - alpha * other``."""
        return self._wrap_tf(binary("sub", self, other if alpha == 1 else binary("mul", other, alpha)))

    subtract = sub

    def mul(self, other: Any) -> Any:
        """``self * other``."""
        return self._wrap_tf(binary("mul", self, other))

    multiply = mul

    def div(self, other: Any, *, rounding_mode: Any = None) -> Any:
        """``self / other``; ``rounding_mode`` 'floor' or 'trunc' rounds the quotient (keeping integer dtypes)."""
        if rounding_mode is None:
            return self._wrap_tf(binary("truediv", self, other))
        if rounding_mode == "floor":
            return self._wrap_tf(binary("floordiv", self, other))
        if rounding_mode == "trunc":
            a, b = promote(self, other)
            if kind_of(a.dtype) == 1:
                return self._wrap_tf(tf.truncatediv(a, b))
            q = a / b
            return self._wrap_tf(tf.where(q < 0, tf.math.ceil(q), tf.floor(q)))
        raise ValueError(f"For 'Tensor.div', the 'rounding_mode' must be None, 'floor' or 'trunc', but got "
                         f"{rounding_mode!r}.")

    divide = div

    def true_divide(self, other: Any) -> Any:
        """``self / other`` (Float32 for integers)."""
        return self._wrap_tf(binary("truediv", self, other))

    def floor_divide(self, other: Any) -> Any:
        """``self // other``."""
        return self._wrap_tf(binary("floordiv", self, other))

    def remainder(self, other: Any) -> Any:
        """``self % other`` (the sign of ``other``)."""
        return self._wrap_tf(binary("mod", self, other))

    def fmod(self, other: Any) -> Any:
        """Remainder with the sign of ``self``."""
        a, b = promote(self, other)
        return self._wrap_tf(tf.truncatemod(a, b))

    def maximum(self, other: Any) -> Any:
        """Element-wise maximum."""
        return self._wrap_tf(binary("maximum", self, other))

    def minimum(self, other: Any) -> Any:
        """Element-wise minimum."""
        return self._wrap_tf(binary("minimum", self, other))

    def lerp(self, end: Any, weight: Any) -> Any:
        """``self + weight * (end - self)``."""
        return self + weight * (end - self)

    def matmul(self, tensor2: Any) -> Any:
        """Matrix product with numpy's rules for 1-D operands."""
        return self._wrap_tf(binary("matmul", self, tensor2))

    mm = matmul
    bmm = matmul

    def dot(self, other: Any) -> Any:
        """Dot product of two 1-D tensors (matrix product otherwise)."""
        return self.matmul(other)

    def outer(self, vec2: Any) -> Any:
        """Outer product of two 1-D tensors."""
        a, b = promote(self, vec2)
        return self._wrap_tf(a[:, tf.newaxis] * b[tf.newaxis, :])

    def _cmp(self, op: str, other: Any) -> Any:
        return self._wrap_tf(binary(op, self, other))

    def eq(self, other: Any) -> Any:
        """Element-wise ``==`` (a Bool tensor)."""
        return self._cmp("eq", other)

    equal = eq

    def ne(self, other: Any) -> Any:
        """Element-wise ``!=``."""
        return self._cmp("ne", other)

    not_equal = ne

    def gt(self, other: Any) -> Any:
        """Element-wise ``>``."""
        return self._cmp("gt", other)

    greater = gt

    def ge(self, other: Any) -> Any:
        """Element-wise ``>=``."""
        return self._cmp("ge", other)

    greater_equal = ge

    def lt(self, other: Any) -> Any:
        """Element-wise ``<``."""
        return self._cmp("lt", other)

    less = lt

    def le(self, other: Any) -> Any:
        """Element-wise ``<=``."""
        return self._cmp("le", other)

    less_equal = le

    def isclose(self, x2: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Any:
        """Element-wise ``|self - x2| <= atol + rtol * |x2|``."""
        a, b = promote(self, x2)
        a, b = _float_input(a), _float_input(b)
        close = tf.abs(a - b) <= atol + rtol * tf.abs(b)
        if equal_nan:
            close = close | (tf.math.is_nan(a) & tf.math.is_nan(b))
        return self._wrap_tf(close)

    def allclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
        """Whether all elements are close (a python bool)."""
        return bool(tf.reduce_all(self.isclose(other, rtol, atol, equal_nan)._v()))

    def logical_not(self) -> Any:
        """Element-wise logical NOT."""
        return self._wrap_tf(tf.logical_not(tf.cast(self._v(), tf.bool)))

    def logical_and(self, other: Any) -> Any:
        """Element-wise logical AND."""
        return self._wrap_tf(tf.logical_and(tf.cast(self._v(), tf.bool), tf.cast(to_tf(other), tf.bool)))

    def logical_or(self, other: Any) -> Any:
        """Element-wise logical OR."""
        return self._wrap_tf(tf.logical_or(tf.cast(self._v(), tf.bool), tf.cast(to_tf(other), tf.bool)))

    def logical_xor(self, other: Any) -> Any:
        """Element-wise logical XOR."""
        return self._wrap_tf(tf.math.logical_xor(tf.cast(self._v(), tf.bool), tf.cast(to_tf(other), tf.bool)))

    # ----------------------------------------------------------------- dtypes and creation
    def astype(self, dtype: Any, copy: bool = True) -> Any:
        """Return the tensor cast to ``dtype`` (a MindSpore, numpy or python type, or a name like 'float16')."""
        tdt = mstype.as_ms_dtype(dtype, "Tensor.astype", "dtype").tf_dtype
        v = self._v()
        return self._wrap_tf(tf.cast(v, tdt) if v.dtype != tdt else tf.identity(v))

    def to(self, dtype: Any) -> Any:
        """Cast to ``dtype``."""
        return self.astype(dtype)

    def float(self) -> Any:
        """Cast to Float32."""
        return self.astype(mstype.float32)

    def half(self) -> Any:
        """Cast to Float16."""
        return self.astype(mstype.float16)

    def double(self) -> Any:
        """Cast to Float64."""
        return self.astype(mstype.float64)

    def bfloat16(self) -> Any:
        """Cast to BFloat16."""
        return self.astype(mstype.bfloat16)

    def int(self) -> Any:
        """Cast to Int32."""
        return self.astype(mstype.int32)

    def long(self) -> Any:
        """Cast to Int64."""
        return self.astype(mstype.int64)

    def short(self) -> Any:
        """Cast to Int16."""
        return self.astype(mstype.int16)

    def byte(self) -> Any:
        """Cast to UInt8."""
        return self.astype(mstype.uint8)

    def bool(self) -> Any:
        """Cast to Bool."""
        return self.astype(mstype.bool_)

    def type(self, dtype: Any = None) -> Any:
        """The dtype name (``'Float32'``) when ``dtype`` is None, else the tensor cast to ``dtype``."""
        if dtype is None:
            return str(self.dtype)
        return self.astype(dtype)

    def type_as(self, other: Any) -> Any:
        """Cast to ``other``'s dtype."""
        return self.astype(other.dtype)

    def is_floating_point(self) -> bool:
        """Whether the dtype is floating point."""
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        """Whether the dtype is complex."""
        return self.dtype.is_complex

    def is_signed(self) -> bool:
        """Whether the dtype is signed."""
        return self.dtype.is_signed

    def _new_full(self, size: Any, fill: Any, dtype: Any, api: str) -> Any:
        if isinstance(size, (numbers.Integral, np.integer)):
            size = (int(size),)
        tdt = self._v().dtype if dtype is None else _tf_dt(dtype, api)
        return self._wrap_tf(tf.fill([int(s) for s in size], tf.cast(fill, tdt)))

    def new_zeros(self, size: Any, *, dtype: Any = None) -> Any:
        """A zero tensor of ``size`` with this dtype (or ``dtype``)."""
        return self._new_full(size, 0, dtype, "Tensor.new_zeros")

    def new_ones(self, size: Any, *, dtype: Any = None) -> Any:
        """A tensor of ones of ``size`` with this dtype (or ``dtype``)."""
        return self._new_full(size, 1, dtype, "Tensor.new_ones")

    def new_full(self, size: Any, fill_value: Any, *, dtype: Any = None) -> Any:
        """A tensor of ``size`` filled with ``fill_value``."""
        return self._new_full(size, fill_value, dtype, "Tensor.new_full")

    def new_empty(self, size: Any, *, dtype: Any = None) -> Any:
        """A tensor of ``size`` (filled with zeros)."""
        return self._new_full(size, 0, dtype, "Tensor.new_empty")

    def fill(self, value: Any) -> Any:
        """A tensor of the same shape and dtype filled with ``value``."""
        v = self._v()
        return self._wrap_tf(tf.fill(tf.shape(v), tf.cast(to_tf(value) if is_ms_tensor(value) else value, v.dtype)))

    # ----------------------------------------------------------------- in-place updates
    def _inplace(self, new: Any) -> Any:
        v = self._v()
        new = to_tf(new) if is_ms_tensor(new) else new
        self._set_value(tf.broadcast_to(tf.cast(new, v.dtype), tf.shape(v)))
        return self

    def fill_(self, value: Any) -> Any:
        """Fill in place with ``value`` and return self."""
        return self._inplace(value)

    def zero_(self) -> Any:
        """Fill in place with zeros and return self."""
        return self._inplace(0)

    def copy_(self, src: Any, non_blocking: bool = False) -> Any:
        """Copy ``src`` (broadcast and cast) into self and return self."""
        return self._inplace(to_tf(src) if is_ms_tensor(src) else src)

    def add_(self, other: Any, *, alpha: Any = 1) -> Any:
        """In-place :meth:`add`."""
        return self._inplace(self.add(other, alpha=alpha))

    def sub_(self, other: Any, *, alpha: Any = 1) -> Any:
        """In-place :meth:`sub`."""
        return self._inplace(self.sub(other, alpha=alpha))

    def mul_(self, other: Any) -> Any:
        """In-place :meth:`mul`."""
        return self._inplace(self.mul(other))

    def div_(self, other: Any) -> Any:
        """In-place :meth:`div`."""
        return self._inplace(self.div(other))

    def clamp_(self, min: Any = None, max: Any = None) -> Any:  # noqa: A002
        """In-place :meth:`clip`."""
        return self._inplace(self.clip(min, max))


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


def _vector_norm(v: tf.Tensor, ord: Any, dim: int, keepdim: bool) -> tf.Tensor:  # noqa: A002
    a = tf.abs(v)
    if ord == math.inf:
        return tf.reduce_max(a, axis=dim, keepdims=keepdim)
    if ord == -math.inf:
        return tf.reduce_min(a, axis=dim, keepdims=keepdim)
    if ord == 0:
        return tf.reduce_sum(tf.cast(a != 0, v.dtype), axis=dim, keepdims=keepdim)
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

"""``tfspore.Tensor``: MindSpore's Tensor over a TensorFlow tensor.

A :class:`Tensor` holds a ``tf.Tensor`` (eager, or symbolic while a ``tf.function`` is
being traced). It implements TensorFlow's conversion protocol (``__tf_tensor__``), so every
TF op accepts it. Wrapping happens only in Python: inside a compiled graph the wrappers
exist at trace time only, so they cost nothing per step.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, float32
    >>> t = Tensor(np.ones((2, 3)), float32)
    >>> t.shape
    (2, 3)
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype

__all__ = ["Tensor", "tensor", "is_tensor"]


def _to_tf(x: Any) -> Any:
    """Return the TensorFlow value behind ``x`` (a Tensor or Parameter), or ``x`` unchanged."""
    if isinstance(x, Tensor):
        return x._value()
    return x


def _as_tf(x: Any, dtype: tf.DType | None = None) -> tf.Tensor:
    """Convert ``x`` (Tensor, Parameter, number, list, ndarray, tf value) to a ``tf.Tensor``."""
    if isinstance(x, Tensor):
        v = x._value()
        if dtype is not None and v.dtype != dtype:
            return tf.cast(v, dtype)
        return v if isinstance(v, tf.Tensor) else tf.convert_to_tensor(v)
    if isinstance(x, (tf.Tensor, tf.Variable)):
        if dtype is not None and x.dtype != dtype:
            return tf.cast(x, dtype)
        return tf.convert_to_tensor(x)
    return tf.convert_to_tensor(_default_np(x) if dtype is None else x, dtype=dtype)


def _wrap(x: Any) -> Any:
    """Wrap a ``tf.Tensor`` (or a variable's value) in a :class:`Tensor`; other values pass through."""
    if isinstance(x, tf.Tensor):
        return Tensor._from_tf(x)
    if isinstance(x, tf.Variable):
        return Tensor._from_tf(tf.convert_to_tensor(x))
    return x


def _unwrap_nest(struct: Any) -> Any:
    """Map :func:`_to_tf` over a nested structure (tuples, lists, dicts)."""
    if isinstance(struct, Tensor):
        return struct._value()
    if isinstance(struct, (list, tuple)):
        vals = [_unwrap_nest(s) for s in struct]
        if isinstance(struct, tuple) and hasattr(struct, "_fields"):
            return type(struct)(*vals)
        return tuple(vals) if isinstance(struct, tuple) else vals
    if isinstance(struct, dict):
        return {k: _unwrap_nest(v) for k, v in struct.items()}
    return struct


def _wrap_nest(struct: Any) -> Any:
    """Map :func:`_wrap` over a nested structure (tuples, lists, dicts)."""
    if isinstance(struct, (tf.Tensor, tf.Variable)):
        return _wrap(struct)
    if isinstance(struct, (list, tuple)):
        vals = [_wrap_nest(s) for s in struct]
        if isinstance(struct, tuple) and hasattr(struct, "_fields"):
            return type(struct)(*vals)
        return tuple(vals) if isinstance(struct, tuple) else vals
    if isinstance(struct, dict):
        return {k: _wrap_nest(v) for k, v in struct.items()}
    return struct


def _default_np(data: Any, dtype: mstype.Type | None = None) -> np.ndarray:
    """Convert python data to numpy with MindSpore's default dtypes (float32, int64, bool)."""
    if isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, (bool, np.bool_)):
        arr = np.array(data, dtype=np.bool_)
    elif isinstance(data, np.generic):
        arr = np.array(data)
    elif isinstance(data, numbers.Integral):
        arr = np.array(data, dtype=np.int64)
    elif isinstance(data, numbers.Real):
        arr = np.array(data, dtype=np.float32)
    elif isinstance(data, complex):
        arr = np.array(data, dtype=np.complex64)
    else:
        items = [d.asnumpy() if isinstance(d, Tensor) else d for d in data] if isinstance(data, (list, tuple)) else data
        arr = np.array(items)
        if arr.dtype == np.float64 and not _has_np_float64(data):
            arr = arr.astype(np.float32)
        elif arr.dtype.kind in "iu" and arr.dtype != np.int64 and not _has_np_generic(data):
            arr = arr.astype(np.int64)
    if dtype is not None:
        arr = arr.astype(dtype.np_dtype)
    return arr


def _has_np_float64(data: Any) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_has_np_float64(d) for d in data)
    return isinstance(data, (np.float64, np.ndarray)) and np.asarray(data).dtype == np.float64


def _has_np_generic(data: Any) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_has_np_generic(d) for d in data)
    return isinstance(data, (np.generic, np.ndarray))


def _fmt_scalar(v: Any, dt: mstype.Type) -> str:
    if dt is mstype.bool_:
        return "True" if bool(v) else "False"
    if dt.is_floating_point:
        return f"{float(v):g}"
    return str(v)


def _format_value(arr: np.ndarray, dt: mstype.Type) -> str:
    """Format values as MindSpore's Tensor repr does."""
    if arr.ndim == 0:
        return " " + _fmt_scalar(arr.item(), dt)
    if arr.size == 0:
        return "\n"
    formatter = None
    if dt.is_floating_point:
        digits = 4 if dt is mstype.float16 else 8
        arr = arr.astype(np.float64) if dt is mstype.bfloat16 else arr
        formatter = {"float_kind": lambda x: f"{x: .{digits}e}"}
    text = np.array2string(arr, separator=", ", formatter=formatter, threshold=1000, edgeitems=3,
                           max_line_width=1 << 30, prefix="")
    text = text.replace(", ...,", " ...")
    lines = [(" ..." if ln.strip() == "...," else ln) for ln in text.split("\n")]
    text = "\n".join(lines)
    return (" " if arr.ndim == 1 else "\n") + text


class Tensor:
    """A MindSpore tensor backed by a TensorFlow tensor.

    Args:
        input_data: a numpy array, a list or tuple, a python or numpy scalar, another Tensor, or a
            ``tf.Tensor``. Python floats default to Float32, ints to Int64, bools to Bool.
        dtype: the MindSpore dtype (``tfspore.float32``...). Default: inferred.
        shape: the shape, with ``init`` for lazy initialization.
        init: an Initializer (or its name) used by :meth:`init_data` when ``input_data`` is None.
        const_arg: accepted for compatibility.
        device: accepted for compatibility.

    Raises:
        TypeError: when ``input_data`` or ``dtype`` has an unsupported type.
        ValueError: when neither ``input_data`` nor ``shape`` with ``init`` is given.

    Example:
        >>> Tensor([1.0, 2.0]).dtype
        mindspore.float32
    """

    __array_priority__ = 100
    _is_parameter = False

    def __init__(self, input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
                 const_arg: bool = False, device: Any = None, internal: bool = False) -> None:
        self._init = None
        ms_dtype = None if dtype is None else mstype.as_ms_dtype(dtype, "Tensor", "dtype")
        if input_data is None:
            if shape is None or init is None:
                raise ValueError("For 'Tensor', 'input_data' must be given, or both 'shape' and 'init', but got "
                                 f"input_data=None, shape={shape!r}, init={init!r}.")
            if isinstance(shape, numbers.Integral):
                shape = (int(shape),)
            self._init = (init, tuple(int(s) for s in shape), ms_dtype or mstype.float32)
            self._t = None
            return
        if shape is not None and init is None and not isinstance(input_data, (list, tuple, np.ndarray)):
            pass
        if isinstance(input_data, Tensor):
            v = tf.identity(input_data._value())
            self._t = v if ms_dtype is None or v.dtype == ms_dtype.tf_dtype else tf.cast(v, ms_dtype.tf_dtype)
        elif isinstance(input_data, (tf.Tensor, tf.Variable)):
            v = tf.convert_to_tensor(input_data)
            self._t = v if ms_dtype is None or v.dtype == ms_dtype.tf_dtype else tf.cast(v, ms_dtype.tf_dtype)
        else:
            if not isinstance(input_data, (np.ndarray, np.generic, numbers.Number, list, tuple, bool)):
                raise TypeError("For 'Tensor', the type of 'input_data' should be one of [Tensor, numpy.ndarray, "
                                f"list, tuple, int, float, bool, complex], but got {type(input_data).__name__}.")
            arr = _default_np(input_data, ms_dtype)
            if arr.dtype == object:
                raise TypeError(f"For 'Tensor', 'input_data' could not be converted: got {input_data!r}.")
            self._t = tf.convert_to_tensor(arr, dtype=ms_dtype.tf_dtype if ms_dtype is not None else None)

    # ----------------------------------------------------------------- internals
    @classmethod
    def _from_tf(cls, t: tf.Tensor) -> "Tensor":
        obj = object.__new__(Tensor)
        obj._init = None
        obj._t = t
        return obj

    def _value(self) -> Any:
        """The TF value (a tf.Tensor, or a tf.Variable for a Parameter)."""
        if self._t is None:
            self.init_data()
        return self._t

    def __tf_tensor__(self, dtype: tf.DType | None = None, name: str | None = None) -> tf.Tensor:
        return tf.convert_to_tensor(self._value(), dtype=dtype, name=name)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.asnumpy()
        return arr if dtype is None else arr.astype(dtype)

    # ------------------------------------------------------------- properties
    @property
    def shape(self) -> tuple:
        """The shape as a tuple of ints (dynamic dims are scalar tensors while tracing)."""
        if self._t is None:
            return self._init[1]
        static = self._t.shape
        if static.rank is None:
            return tuple(_wrap(tf.unstack(tf.shape(self._t))))
        dims = static.as_list()
        if all(d is not None for d in dims):
            return tuple(dims)
        dyn = tf.shape(self._t)
        return tuple(d if d is not None else _wrap(dyn[i]) for i, d in enumerate(dims))

    @property
    def dtype(self) -> mstype.Type:
        """The MindSpore dtype."""
        if self._t is None:
            return self._init[2]
        return mstype.from_tf_dtype(self._t.dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.tf_dtype.size

    @property
    def nbytes(self) -> int:
        """Total bytes."""
        return self.size * self.itemsize

    @property
    def T(self) -> "Tensor":  # noqa: N802
        """The transpose (dimensions reversed)."""
        return _wrap(tf.transpose(self._value()))

    @property
    def has_init(self) -> bool:
        """Whether the tensor still waits for :meth:`init_data`."""
        return self._t is None and self._init is not None

    @property
    def init(self) -> Any:
        """The pending initializer, or None."""
        return None if self._init is None or self._t is not None else self._init[0]

    # ----------------------------------------------------------------- methods
    def init_data(self, slice_index: int | None = None, shape: Any = None, opt_shard_group: Any = None) -> "Tensor":
        """Materialise a lazily initialised tensor (created with ``shape`` and ``init``) and return it."""
        if self._t is None:
            from tfspore.common.initializer import _init_to_numpy
            init, shp, dt = self._init
            arr = _init_to_numpy(init, shp, dt.np_dtype if dt is not mstype.bfloat16 else np.float32)
            self._t = tf.convert_to_tensor(np.asarray(arr).astype(dt.np_dtype), dtype=dt.tf_dtype)
        return self

    def asnumpy(self) -> np.ndarray:
        """Return the value as a numpy array (eager only).

        Raises:
            RuntimeError: inside a compiled GRAPH_MODE function, where values are not yet known.
        """
        v = self._value()
        try:
            return v.numpy()
        except (AttributeError, NotImplementedError):
            raise RuntimeError("For 'Tensor.asnumpy', the value is only known when the graph runs; asnumpy can't be "
                               "called inside a compiled (GRAPH_MODE) construct. Use PYNATIVE_MODE to inspect values."
                               ) from None

    def numpy(self) -> np.ndarray:
        """Alias of :meth:`asnumpy`."""
        return self.asnumpy()

    def item(self, index: Any = None) -> Any:
        """Return one element as a python scalar (the only element when ``index`` is None)."""
        arr = self.asnumpy()
        if index is None:
            if arr.size != 1:
                raise ValueError(f"For 'Tensor.item', the tensor must have exactly one element, but got shape "
                                 f"{arr.shape}.")
            return arr.reshape(()).item()
        return arr.item(index)

    def tolist(self) -> Any:
        """Return the value as nested python lists."""
        return self.asnumpy().tolist()

    def astype(self, dtype: Any, copy: bool = True) -> "Tensor":
        """Return a copy cast to ``dtype``."""
        tdt = mstype.as_ms_dtype(dtype, "Tensor.astype", "dtype").tf_dtype
        v = self._value()
        return _wrap(tf.cast(v, tdt) if v.dtype != tdt else tf.identity(v))

    to = astype

    def float(self) -> "Tensor":
        """Cast to Float32."""
        return self.astype(mstype.float32)

    def half(self) -> "Tensor":
        """Cast to Float16."""
        return self.astype(mstype.float16)

    def int(self) -> "Tensor":
        """Cast to Int32."""
        return self.astype(mstype.int32)

    def long(self) -> "Tensor":
        """Cast to Int64."""
        return self.astype(mstype.int64)

    def bool(self) -> "Tensor":
        """Cast to Bool."""
        return self.astype(mstype.bool_)

    def reshape(self, *shape: Any) -> "Tensor":
        """Return the tensor with a new shape (``-1`` infers one dimension)."""
        if len(shape) == 1 and isinstance(shape[0], (list, tuple, Tensor)):
            shape = shape[0]
        return _wrap(tf.reshape(self._value(), _shape_arg(shape)))

    view = reshape

    def flatten(self, order: str = "C", *, start_dim: int = 0, end_dim: int = -1) -> "Tensor":
        """Flatten dimensions ``start_dim``..``end_dim`` into one."""
        v = self._value()
        rank = v.shape.rank
        if rank == 0:
            return _wrap(tf.reshape(v, [1]))
        s, e = start_dim % rank, end_dim % rank
        dyn = tf.shape(v)
        new = tf.concat([dyn[:s], [-1], dyn[e + 1:]], 0)
        return _wrap(tf.reshape(v, new))

    def copy(self) -> "Tensor":
        """Return a copy."""
        return _wrap(tf.identity(self._value()))

    def clone(self) -> "Tensor":
        """Return a copy."""
        return self.copy()

    def transpose(self, *axes: Any) -> "Tensor":
        """Permute the dimensions (reverse them when no axes are given)."""
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = axes[0]
        return _wrap(tf.transpose(self._value(), axes or None))

    def permute(self, *axes: Any) -> "Tensor":
        """Permute the dimensions."""
        return self.transpose(*axes)

    def squeeze(self, axis: Any = None) -> "Tensor":
        """Remove dimensions of size 1."""
        return _wrap(tf.squeeze(self._value(), axis))

    def expand_dims(self, axis: int) -> "Tensor":
        """Insert a dimension of size 1 at ``axis``."""
        return _wrap(tf.expand_dims(self._value(), axis))

    unsqueeze = expand_dims

    def _reduce(self, fn, axis, keep_dims, cast_bool=False):
        v = self._value()
        if cast_bool and v.dtype == tf.bool:
            v = tf.cast(v, tf.int64)
        if isinstance(axis, list):
            axis = tuple(axis)
        if axis == ():
            axis = None
        return _wrap(fn(v, axis=axis, keepdims=keep_dims))

    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None) -> "Tensor":
        """Sum over ``axis`` (all axes when None)."""
        out = self._reduce(tf.reduce_sum, axis, keepdims, True)
        if initial is not None:
            out = out + initial
        return out.astype(dtype) if dtype is not None else out

    def mean(self, axis: Any = None, keep_dims: bool = False) -> "Tensor":
        """Mean over ``axis`` (all axes when None)."""
        return self._reduce(tf.reduce_mean, axis, keep_dims)

    def max(self, axis: Any = None, keepdims: bool = False, **kwargs: Any) -> "Tensor":
        """Maximum over ``axis``."""
        return self._reduce(tf.reduce_max, axis, keepdims)

    def min(self, axis: Any = None, keepdims: bool = False, **kwargs: Any) -> "Tensor":
        """Minimum over ``axis``."""
        return self._reduce(tf.reduce_min, axis, keepdims)

    def prod(self, axis: Any = None, keep_dims: bool = False) -> "Tensor":
        """Product over ``axis``."""
        return self._reduce(tf.reduce_prod, axis, keep_dims)

    def all(self, axis: Any = None, keep_dims: bool = False) -> "Tensor":
        """Logical AND over ``axis``."""
        return _wrap(tf.reduce_all(tf.cast(self._value(), tf.bool), axis=axis, keepdims=keep_dims))

    def any(self, axis: Any = None, keep_dims: bool = False) -> "Tensor":
        """Logical OR over ``axis``."""
        return _wrap(tf.reduce_any(tf.cast(self._value(), tf.bool), axis=axis, keepdims=keep_dims))

    def argmax(self, axis: int | None = None, keepdims: bool = False) -> "Tensor":
        """Index of the maximum (over the flattened tensor when ``axis`` is None)."""
        v = self._value()
        if axis is None:
            return _wrap(tf.cast(tf.argmax(tf.reshape(v, [-1])), tf.int32))
        out = tf.cast(tf.argmax(v, axis=axis), tf.int32)
        return _wrap(tf.expand_dims(out, axis) if keepdims else out)

    def argmin(self, axis: int | None = None, keepdims: bool = False) -> "Tensor":
        """Index of the minimum (over the flattened tensor when ``axis`` is None)."""
        v = self._value()
        if axis is None:
            return _wrap(tf.cast(tf.argmin(tf.reshape(v, [-1])), tf.int32))
        out = tf.cast(tf.argmin(v, axis=axis), tf.int32)
        return _wrap(tf.expand_dims(out, axis) if keepdims else out)

    def abs(self) -> "Tensor":
        """Element-wise absolute value."""
        return _wrap(tf.abs(self._value()))

    def sqrt(self) -> "Tensor":
        """Element-wise square root."""
        return _wrap(tf.sqrt(self._value()))

    def exp(self) -> "Tensor":
        """Element-wise exponential."""
        return _wrap(tf.exp(self._value()))

    def log(self) -> "Tensor":
        """Element-wise natural logarithm."""
        return _wrap(tf.math.log(self._value()))

    def pow(self, exponent: Any) -> "Tensor":
        """Element-wise power."""
        return self.__pow__(exponent)

    def square(self) -> "Tensor":
        """Element-wise square."""
        return _wrap(tf.square(self._value()))

    def clip(self, xmin: Any, xmax: Any) -> "Tensor":
        """Clip values to [xmin, xmax]."""
        v = self._value()
        return _wrap(tf.clip_by_value(v, _as_tf(xmin, v.dtype), _as_tf(xmax, v.dtype)))

    def fill(self, value: Any) -> "Tensor":
        """Return a tensor of the same shape and dtype filled with ``value``."""
        v = self._value()
        return _wrap(tf.fill(tf.shape(v), tf.cast(value, v.dtype)))

    def broadcast_to(self, shape: Any) -> "Tensor":
        """Broadcast to ``shape``."""
        return _wrap(tf.broadcast_to(self._value(), _shape_arg(shape)))

    def repeat(self, repeats: Any, axis: int | None = None) -> "Tensor":
        """Repeat each element ``repeats`` times along ``axis``."""
        return _wrap(tf.repeat(self._value(), repeats, axis=axis))

    def tile(self, reps: Any) -> "Tensor":
        """Tile the tensor ``reps`` times."""
        return _wrap(tf.tile(self._value(), reps))

    def ravel(self) -> "Tensor":
        """Flatten to one dimension."""
        return _wrap(tf.reshape(self._value(), [-1]))

    def numel(self) -> int:
        """The number of elements."""
        return self.size

    def dim(self) -> int:
        """The number of dimensions."""
        return self.ndim

    def is_floating_point(self) -> bool:
        """Whether the dtype is a floating-point type."""
        return self.dtype.is_floating_point

    def set_dtype(self, dtype: Any) -> "Tensor":
        """Cast in place to ``dtype`` and return self."""
        self._t = tf.cast(self._value(), mstype.as_tf_dtype(dtype))
        return self

    def assign_value(self, value: Any) -> "Tensor":
        """Replace the value in place and return self."""
        self._t = _as_tf(value, self.dtype.tf_dtype)
        self._init = None
        return self

    def has_grad(self) -> bool:
        """Whether this is a Parameter that requires gradients."""
        return False

    def __len__(self) -> int:
        shape = self.shape
        if not shape:
            raise TypeError("For 'Tensor.__len__', len() of a 0-d tensor is not defined.")
        return shape[0]

    def __iter__(self):
        n = self.shape[0] if self.shape else None
        if n is None:
            raise TypeError("For 'Tensor.__iter__', iteration over a 0-d tensor is not defined.")
        v = self._value()
        for i in range(n):
            yield _wrap(v[i])

    def __bool__(self) -> bool:
        v = self._value()
        if not tf.executing_eagerly() and not hasattr(v, "numpy"):
            raise RuntimeError("For 'Tensor.__bool__', the truth value of a Tensor is only known when the graph "
                               "runs; use ops.select / ops.where, or PYNATIVE_MODE, for data-dependent branches.")
        return bool(np.asarray(v.numpy()).reshape(-1)[0]) if v.shape.num_elements() == 1 else bool(v.numpy())

    def __int__(self) -> int:
        return int(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __index__(self) -> int:
        return int(self.item())

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        shape = "[" + ", ".join(str(d) for d in self.shape) + "]"
        if self._t is None:
            return f"Tensor(shape={shape}, dtype={self.dtype}, value=\n<uninitialized>)"
        v = self._value()
        if not hasattr(v, "numpy") and not isinstance(v, tf.Variable):
            return f"Tensor(shape={shape}, dtype={self.dtype}, value=<symbolic>)"
        return f"Tensor(shape={shape}, dtype={self.dtype}, value={_format_value(self.asnumpy(), self.dtype)})"

    def __str__(self) -> str:
        if self._t is None:
            return repr(self)
        v = self._value()
        if not hasattr(v, "numpy") and not isinstance(v, tf.Variable):
            return repr(self)
        return str(self.asnumpy())

    def __format__(self, spec: str) -> str:
        if self._t is not None and self.ndim == 0 and hasattr(self._value(), "numpy"):
            return format(self.asnumpy().item(), spec)
        return format(str(self), spec)

    # -------------------------------------------------------------- indexing
    def __getitem__(self, index: Any) -> "Tensor":
        return _wrap(_getitem(self._value(), index))

    def __setitem__(self, index: Any, value: Any) -> None:
        new = _setitem(self._value(), index, value)
        self._set_value(new)

    def _set_value(self, new: tf.Tensor) -> None:
        self._t = new

    # -------------------------------------------------------------- operators
    def __neg__(self) -> "Tensor":
        return _wrap(tf.negative(self._value()))

    def __pos__(self) -> "Tensor":
        return self

    def __abs__(self) -> "Tensor":
        return _wrap(tf.abs(self._value()))

    def __invert__(self) -> "Tensor":
        v = self._value()
        return _wrap(tf.logical_not(v) if v.dtype == tf.bool else tf.bitwise.invert(v))

    def __add__(self, o: Any) -> "Tensor":
        return _binary(tf.add, self, o)

    def __radd__(self, o: Any) -> "Tensor":
        return _binary(tf.add, o, self)

    def __sub__(self, o: Any) -> "Tensor":
        return _binary(tf.subtract, self, o)

    def __rsub__(self, o: Any) -> "Tensor":
        return _binary(tf.subtract, o, self)

    def __mul__(self, o: Any) -> "Tensor":
        return _binary(tf.multiply, self, o)

    def __rmul__(self, o: Any) -> "Tensor":
        return _binary(tf.multiply, o, self)

    def __truediv__(self, o: Any) -> "Tensor":
        return _binary(_truediv, self, o)

    def __rtruediv__(self, o: Any) -> "Tensor":
        return _binary(_truediv, o, self)

    def __floordiv__(self, o: Any) -> "Tensor":
        return _binary(tf.math.floordiv, self, o)

    def __rfloordiv__(self, o: Any) -> "Tensor":
        return _binary(tf.math.floordiv, o, self)

    def __mod__(self, o: Any) -> "Tensor":
        return _binary(tf.math.floormod, self, o)

    def __rmod__(self, o: Any) -> "Tensor":
        return _binary(tf.math.floormod, o, self)

    def __pow__(self, o: Any) -> "Tensor":
        return _binary(tf.pow, self, o)

    def __rpow__(self, o: Any) -> "Tensor":
        return _binary(tf.pow, o, self)

    def __matmul__(self, o: Any) -> "Tensor":
        return _binary(_matmul, self, o)

    def __rmatmul__(self, o: Any) -> "Tensor":
        return _binary(_matmul, o, self)

    def __and__(self, o: Any) -> "Tensor":
        return _binary(_logic(tf.logical_and, tf.bitwise.bitwise_and), self, o)

    def __rand__(self, o: Any) -> "Tensor":
        return _binary(_logic(tf.logical_and, tf.bitwise.bitwise_and), o, self)

    def __or__(self, o: Any) -> "Tensor":
        return _binary(_logic(tf.logical_or, tf.bitwise.bitwise_or), self, o)

    def __ror__(self, o: Any) -> "Tensor":
        return _binary(_logic(tf.logical_or, tf.bitwise.bitwise_or), o, self)

    def __xor__(self, o: Any) -> "Tensor":
        return _binary(_logic(tf.math.logical_xor, tf.bitwise.bitwise_xor), self, o)

    def __rxor__(self, o: Any) -> "Tensor":
        return _binary(_logic(tf.math.logical_xor, tf.bitwise.bitwise_xor), o, self)

    def __eq__(self, o: Any) -> Any:  # type: ignore[override]
        if o is None:
            return False
        return _binary(tf.equal, self, o)

    def __ne__(self, o: Any) -> Any:  # type: ignore[override]
        if o is None:
            return True
        return _binary(tf.not_equal, self, o)

    def __lt__(self, o: Any) -> "Tensor":
        return _binary(tf.less, self, o)

    def __le__(self, o: Any) -> "Tensor":
        return _binary(tf.less_equal, self, o)

    def __gt__(self, o: Any) -> "Tensor":
        return _binary(tf.greater, self, o)

    def __ge__(self, o: Any) -> "Tensor":
        return _binary(tf.greater_equal, self, o)


# ---------------------------------------------------------------------------- helpers
_KIND_RANK = {"bool": 0, "uint": 1, "int": 1, "float": 2, "complex": 3}


def _promote(a: Any, b: Any) -> tuple[tf.Tensor, tf.Tensor]:
    """Convert two operands to tf tensors of one dtype, with MindSpore's promotion rules.

    Python scalars take the tensor's dtype when they are of the same kind (int with int tensors,
    float with float tensors); an int tensor with a python float becomes Float32; two tensors of
    different dtypes promote to the wider type.
    """
    a_is_t = isinstance(a, (Tensor, tf.Tensor, tf.Variable, np.ndarray))
    b_is_t = isinstance(b, (Tensor, tf.Tensor, tf.Variable, np.ndarray))
    if a_is_t and b_is_t:
        ta = _as_tf(a) if not isinstance(a, np.ndarray) else tf.convert_to_tensor(a)
        tb = _as_tf(b) if not isinstance(b, np.ndarray) else tf.convert_to_tensor(b)
        if ta.dtype != tb.dtype:
            dt = _result_dtype(ta.dtype, tb.dtype)
            ta, tb = tf.cast(ta, dt), tf.cast(tb, dt)
        return ta, tb
    if a_is_t:
        ta = _as_tf(a) if not isinstance(a, np.ndarray) else tf.convert_to_tensor(a)
        return ta, _scalar_like(b, ta)
    if b_is_t:
        tb = _as_tf(b) if not isinstance(b, np.ndarray) else tf.convert_to_tensor(b)
        return _scalar_like(a, tb), tb
    return _as_tf(a), _as_tf(b)


def _scalar_like(x: Any, ref: tf.Tensor) -> tf.Tensor:
    if isinstance(x, (list, tuple)):
        arr = _default_np(x)
        if arr.dtype.kind == ref.dtype.as_numpy_dtype().dtype.kind or (arr.dtype.kind in "iu" and ref.dtype.is_floating):
            return tf.constant(arr, dtype=ref.dtype)
        return tf.constant(arr)
    if isinstance(x, bool):
        return tf.constant(x, dtype=ref.dtype)
    if isinstance(x, numbers.Integral):
        return tf.constant(x, dtype=ref.dtype if ref.dtype != tf.bool else tf.int64)
    if isinstance(x, numbers.Real):
        if ref.dtype.is_floating:
            return tf.constant(x, dtype=ref.dtype)
        return tf.constant(x, dtype=tf.float32)
    return tf.convert_to_tensor(x)


def _result_dtype(a: tf.DType, b: tf.DType) -> tf.DType:
    ka = "bool" if a == tf.bool else ("float" if a.is_floating else ("complex" if a.is_complex else "int"))
    kb = "bool" if b == tf.bool else ("float" if b.is_floating else ("complex" if b.is_complex else "int"))
    if _KIND_RANK[ka] != _KIND_RANK[kb]:
        return a if _KIND_RANK[ka] > _KIND_RANK[kb] else b
    if {a, b} == {tf.float16, tf.bfloat16}:
        return tf.float32
    return a if a.size >= b.size else b


def _binary(fn, a: Any, b: Any) -> Any:
    ta, tb = _promote(a, b)
    if ta.dtype != tb.dtype:
        dt = _result_dtype(ta.dtype, tb.dtype)
        ta, tb = tf.cast(ta, dt), tf.cast(tb, dt)
    return _wrap(fn(ta, tb))


def _truediv(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    if not a.dtype.is_floating and not a.dtype.is_complex:
        a, b = tf.cast(a, tf.float32), tf.cast(b, tf.float32)
    return tf.math.truediv(a, b)


def _matmul(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    if a.shape.rank == 1 and b.shape.rank == 1:
        return tf.reduce_sum(a * b)
    if a.shape.rank == 1:
        return tf.squeeze(tf.matmul(a[None, :], b), -2)
    if b.shape.rank == 1:
        return tf.squeeze(tf.matmul(a, b[:, None]), -1)
    return tf.linalg.matmul(a, b)


def _logic(bool_fn, int_fn):
    def fn(a, b):
        return bool_fn(a, b) if a.dtype == tf.bool else int_fn(a, b)
    return fn


def _shape_arg(shape: Any) -> Any:
    if isinstance(shape, Tensor):
        return shape._value()
    return [(_to_tf(s)) for s in shape]


def _is_advanced(key: Any) -> bool:
    if isinstance(key, (Tensor, tf.Tensor, np.ndarray)):
        return True
    return isinstance(key, list)


def _getitem(v: Any, index: Any) -> tf.Tensor:
    if isinstance(index, Tensor):
        index = index._value()
    if _is_advanced(index):
        idx = tf.convert_to_tensor(index)
        if idx.dtype == tf.bool:
            return tf.boolean_mask(v, idx)
        return tf.gather(v, idx)
    if isinstance(index, tuple):
        index = tuple(_to_tf(i) for i in index)
        adv = [i for i, k in enumerate(index) if _is_advanced(k)]
        if adv:
            if len(adv) == 1 and all(isinstance(k, slice) and k == slice(None) for k in index[:adv[0]]):
                pos = adv[0]
                rest = index[pos + 1:]
                out = tf.gather(v, tf.convert_to_tensor(index[pos]), axis=pos)
                if rest:
                    out = out[(slice(None),) * (pos + tf.convert_to_tensor(index[pos]).shape.rank) + rest]
                return out
            idx = tf.stack(tf.broadcast_tensors(*[tf.convert_to_tensor(index[i]) for i in adv]), -1)
            if adv == list(range(len(adv))):
                return tf.gather_nd(v, tf.cast(idx, tf.int64))
            raise IndexError(f"For 'Tensor.__getitem__', this combination of index types is not supported: {index!r}.")
    return v[index]


def _setitem(v: Any, index: Any, value: Any) -> tf.Tensor:
    v = tf.convert_to_tensor(v)
    if isinstance(index, Tensor):
        index = index._value()
    val = _as_tf(value, v.dtype)
    if isinstance(index, (tf.Tensor, np.ndarray)) and tf.convert_to_tensor(index).dtype == tf.bool:
        mask = tf.convert_to_tensor(index)
        mask = tf.reshape(mask, tf.concat([tf.shape(mask), tf.ones([tf.rank(v) - tf.rank(mask)], tf.int32)], 0))
        return tf.where(tf.broadcast_to(mask, tf.shape(v)), tf.broadcast_to(val, tf.shape(v)), v)
    positions = _getitem(tf.reshape(tf.range(tf.size(v)), tf.shape(v)), index)
    flat = tf.reshape(v, [-1])
    upd = tf.reshape(tf.broadcast_to(val, tf.shape(positions)), [-1])
    flat = tf.tensor_scatter_nd_update(flat, tf.reshape(positions, [-1, 1]), upd)
    return tf.reshape(flat, tf.shape(v))


def tensor(input_data: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    """Create a :class:`Tensor` (``mindspore.tensor``).

    Args:
        input_data: the data, as for :class:`Tensor`.
        dtype: the MindSpore dtype, or None to infer it.
        device: accepted for compatibility.

    Returns:
        Tensor: the new tensor.

    Example:
        >>> tensor([1, 2, 3]).dtype
        mindspore.int64
    """
    return Tensor(input_data, dtype=dtype)


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a tfspore Tensor."""
    return isinstance(obj, Tensor)

"""``tfspore.Tensor``: MindSpore's Tensor over a TensorFlow tensor.

A :class:`Tensor` holds a ``tf.Tensor`` (eager, or symbolic while a ``tf.function`` is being
traced). It implements TensorFlow's conversion protocol (``__tf_tensor__``), so every TF op
accepts it, and numpy's (``__array__``), so ``np.asarray(t)`` works. Wrapping happens only in
Python: inside a compiled graph the wrappers exist at trace time only and cost nothing per step.

Construction follows MindSpore: python floats give Float32, ints Int64, bools Bool, numpy
arrays and numpy scalars keep their dtype, and lists take numpy's dtype with float64 narrowed to
Float32 and int32 widened to Int64. ``Tensor(shape=..., dtype=..., init=...)`` is initialised
lazily by :meth:`Tensor.init_data`; ``Tensor(shape=[None, 3], dtype=...)`` is an input
placeholder for ``Cell.set_inputs``.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, float32
    >>> t = Tensor(np.ones((2, 3)), float32)
    >>> t.shape
    (2, 3)
    >>> Tensor([1, 2])
    Tensor(shape=[2], dtype=Int64, value= [1, 2])
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common._initializers import _init_to_numpy
from tfspore.common._tensor_index import getitem, setitem
from tfspore.common._tensor_methods import TensorMethods
from tfspore.common._tensor_operators import TensorOperators, is_eager_value
from tfspore.common._tensor_convert import (_INPUT_TYPES, _check_dtype, _default_np, _format_repr,  # noqa: F401
                                            _kind_name, _norm_shape, _seq_to_numpy, _shape_text)
from tfspore.common._tensor_promote import check_broadcast, promote, result_dtype  # noqa: F401  (tensor_wrap)

__all__ = ["Tensor", "tensor", "is_tensor"]


def _exclude_from_autograph() -> None:
    """Keep AutoGraph from converting tfspore's own code when user code under ``tf.function`` calls it.

    tfspore is written to trace as it is (no data-dependent Python control flow); converting it
    would only slow tracing down.
    """
    try:
        from tensorflow.python.autograph.core import config as ag_config
        from tensorflow.python.autograph.core.config_lib import DoNotConvert
    except ImportError:  # pragma: no cover - TF internals moved
        return
    rules = tuple(ag_config.CONVERSION_RULES)
    if not any(isinstance(r, DoNotConvert) and getattr(r, "_prefix", None) == "tfspore" for r in rules):
        ag_config.CONVERSION_RULES = (DoNotConvert("tfspore"),) + rules


_exclude_from_autograph()

_VALID_DEVICES = (None, "CPU", "GPU", "meta")


# ---------------------------------------------------------------------------- module helpers
def _to_tf(x: Any) -> Any:
    """Return the TensorFlow value behind ``x`` (a Tensor or Parameter), or ``x`` unchanged."""
    if isinstance(x, Tensor):
        return x._value()
    return x


def _as_tf(x: Any, dtype: tf.DType | None = None) -> tf.Tensor:
    """Convert ``x`` (Tensor, Parameter, number, list, ndarray, tf value) to a ``tf.Tensor``."""
    if isinstance(x, Tensor):
        v = x._value()
    elif isinstance(x, (tf.Tensor, tf.Variable)):
        v = x
    else:
        v = tf.convert_to_tensor(_default_np(x) if dtype is None else np.asarray(x).astype(dtype.as_numpy_dtype))
    if dtype is not None and v.dtype != dtype:
        return tf.cast(v, dtype)
    return v if isinstance(v, tf.Tensor) else tf.convert_to_tensor(v)


def _wrap(x: Any) -> Any:
    """Wrap a ``tf.Tensor`` (or a variable's value) in a :class:`Tensor`; other values pass through."""
    if isinstance(x, tf.Tensor):
        return Tensor._from_tf(x)
    if isinstance(x, tf.Variable):
        return Tensor._from_tf(tf.convert_to_tensor(x))
    return x


def _map_nest(struct: Any, leaf_types: Any, fn: Any) -> Any:
    """Apply ``fn`` to the instances of ``leaf_types`` in a nested structure (tuples, named tuples,
    lists, dicts), keeping the structure and passing anything else through."""
    if isinstance(struct, leaf_types):
        return fn(struct)
    if isinstance(struct, (list, tuple)):
        vals = [_map_nest(s, leaf_types, fn) for s in struct]
        if isinstance(struct, tuple) and hasattr(struct, "_fields"):
            return type(struct)(*vals)
        return tuple(vals) if isinstance(struct, tuple) else vals
    if isinstance(struct, dict):
        return {k: _map_nest(v, leaf_types, fn) for k, v in struct.items()}
    return struct


def _unwrap_nest(struct: Any) -> Any:
    """Map :func:`_to_tf` over a nested structure (tuples, lists, dicts)."""
    return _map_nest(struct, Tensor, lambda t: t._value())


def _wrap_nest(struct: Any) -> Any:
    """Map :func:`_wrap` over a nested structure (tuples, lists, dicts)."""
    return _map_nest(struct, (tf.Tensor, tf.Variable), _wrap)


def _promote(a: Any, b: Any) -> tuple[tf.Tensor, tf.Tensor]:
    """Two operands as tf tensors of one dtype, with MindSpore's promotion rules."""
    return promote(a, b)


def _result_dtype(a: tf.DType, b: tf.DType) -> tf.DType:
    """The dtype MindSpore gives ``tensor(a) <op> tensor(b)``."""
    return result_dtype(a, b)


def _value_to_tf(value: Any, dtype: tf.DType) -> tf.Tensor:
    """A value for ``__setitem__``, cast to the target dtype (``2.7`` into an int tensor gives 2)."""
    if isinstance(value, Tensor):
        v = value._value()
        return v if v.dtype == dtype else tf.cast(v, dtype)
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.cast(value, dtype)
    arr = _default_np(value) if not isinstance(value, np.ndarray) else value
    return tf.constant(np.asarray(arr).astype(dtype.as_numpy_dtype))


_is_eager = is_eager_value


# The helpers above under public names, for the other packages (through tfspore._internal.tensor_wrap).
as_tf = _as_tf
wrap = _wrap
wrap_nest = _wrap_nest
unwrap_nest = _unwrap_nest
default_numpy = _default_np
is_eager = _is_eager


# ---------------------------------------------------------------------------- the class
class Tensor(TensorOperators, TensorMethods):
    """A MindSpore tensor backed by a TensorFlow tensor.

    Args:
        input_data: a numpy array or scalar, a list or tuple, a python bool, int, float or
            complex, another Tensor, or a ``tf.Tensor``.
        dtype: the MindSpore dtype (``tfspore.float32``...). Default: inferred (Float32 for python
            floats, Int64 for python ints, Bool for bools; numpy inputs keep their dtype).
        shape: with ``dtype`` and ``init`` (and no ``input_data``), the shape of a lazily
            initialised tensor; with ``dtype`` only, a zero tensor of that shape, or, if it
            contains ``None``, an input placeholder for ``Cell.set_inputs``.
        init: an Initializer (or its name) used by :meth:`init_data`.
        const_arg: whether the tensor is a constant argument of a compiled function.
        device: None, 'CPU', 'GPU' or 'meta' (placement is TensorFlow's).

    Raises:
        TypeError: when ``input_data`` or ``dtype`` has an unsupported type.
        ValueError: for an inconsistent combination of ``input_data``, ``shape`` and ``init``.

    Example:
        >>> Tensor([1.0, 2.0]).dtype
        mindspore.float32
        >>> Tensor(shape=[None, 3], dtype=mstype.float32).shape
        (-1, 3)
    """

    __array_priority__ = 100
    _ms_tensor = True
    _is_parameter = False

    def __init__(self, input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
                 const_arg: bool = False, device: Any = None, internal: bool = False) -> None:
        if not isinstance(const_arg, bool):
            raise TypeError(f"For 'Tensor', the type of 'const_arg' should be 'bool', but got type "
                            f"'{type(const_arg).__name__}'.")
        if device not in _VALID_DEVICES:
            raise ValueError(f"For 'Tensor', the 'device' must be one of {list(_VALID_DEVICES)}, but got {device!r}.")
        self.const_arg = const_arg
        self._meta = None
        self._t = None
        ms_dtype = None if dtype is None else _check_dtype(dtype)
        if input_data is None:
            self._init_without_data(ms_dtype, shape, init)
            return
        if shape is not None:
            raise ValueError("When initializing a tensor with 'input_data', 'shape' should be set to None. "
                             f"But got shape: {shape}.")
        if init is not None:
            raise ValueError("init, dtype and shape must have values at the same time.")
        if isinstance(input_data, Tensor):
            v = tf.identity(input_data._value())
            self._t = v if ms_dtype is None or v.dtype == ms_dtype.tf_dtype else tf.cast(v, ms_dtype.tf_dtype)
        elif isinstance(input_data, (tf.Tensor, tf.Variable)):
            v = tf.convert_to_tensor(input_data)
            self._t = v if ms_dtype is None or v.dtype == ms_dtype.tf_dtype else tf.cast(v, ms_dtype.tf_dtype)
        else:
            arr = _default_np(input_data, ms_dtype)
            self._t = tf.convert_to_tensor(arr)

    def _init_without_data(self, ms_dtype: mstype.Type | None, shape: Any, init: Any) -> None:
        if shape is None and init is None:
            if ms_dtype is None:
                raise TypeError(f"For 'Tensor', the type of 'input_data' should be one of {_INPUT_TYPES}, but got "
                                "type 'NoneType'.")
            self._meta = ((-2,), ms_dtype, None)  # placeholder of unknown rank
            return
        if shape is None or ms_dtype is None:
            raise ValueError("init, dtype and shape must have values at the same time.")
        shp = _norm_shape(shape)
        if -1 in shp:
            if init is not None:
                raise ValueError("If setting dynamic shape, dtype must not be None, init must be None")
            self._meta = (shp, ms_dtype, None)
            return
        if init is None:
            self._t = tf.zeros(shp, ms_dtype.tf_dtype)
            return
        self._meta = (shp, ms_dtype, init)

    # ----------------------------------------------------------------- internals
    @classmethod
    def _from_tf(cls, t: Any) -> "Tensor":
        obj = object.__new__(Tensor)
        obj.const_arg = False
        obj._meta = None
        obj._t = t
        return obj

    @staticmethod
    def _wrap_tf(t: Any) -> "Tensor":
        return Tensor._from_tf(t)

    def _value(self) -> Any:
        """The TF value (a tf.Tensor, or a tf.Variable for a Parameter)."""
        t = self._t
        if t is None:
            self.init_data()
            t = self._t
        return t

    def _set_value(self, new: tf.Tensor) -> None:
        self._t = new

    def __tf_tensor__(self, dtype: tf.DType | None = None, name: str | None = None) -> tf.Tensor:
        return tf.convert_to_tensor(self._value(), dtype=dtype, name=name)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.asnumpy()
        return arr if dtype is None else arr.astype(dtype, copy=False)

    # ------------------------------------------------------------- properties
    @property
    def shape(self) -> tuple:
        """The shape as a tuple of ints.

        While a ``tf.function`` is traced, unknown dimensions are scalar Tensors; an input
        placeholder reports them as -1, as MindSpore does.
        """
        t = self._t
        if t is None:
            return self._meta[0]
        static = t.shape
        if static.rank is None:
            return _wrap(tf.shape(t))
        dims = static.as_list()
        if None not in dims:
            return tuple(dims)
        dyn = tf.shape(t)
        return tuple(d if d is not None else _wrap(dyn[i]) for i, d in enumerate(dims))

    @property
    def dtype(self) -> mstype.Type:
        """The MindSpore dtype."""
        t = self._t
        if t is None:
            return self._meta[1]
        return mstype.from_tf_dtype(t.dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        t = self._t
        if t is None:
            return len(self._meta[0])
        return t.shape.rank

    @property
    def size(self) -> Any:
        """The number of elements (a scalar Tensor while tracing with unknown dimensions)."""
        t = self._t
        if t is None:
            return int(np.prod(self._meta[0], dtype=np.int64))
        n = t.shape.num_elements()
        return n if n is not None else _wrap(tf.size(t))

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Total bytes."""
        return self.size * self.itemsize

    @property
    def strides(self) -> tuple:
        """Bytes to step in each dimension (C order)."""
        shape, item = self.shape, self.itemsize
        out, acc = [], item
        for d in reversed(shape):
            out.append(acc)
            acc *= d
        return tuple(reversed(out))

    @property
    def has_init(self) -> bool:
        """Whether the tensor still waits for :meth:`init_data`."""
        return self._t is None and self._meta is not None and self._meta[2] is not None

    @property
    def init(self) -> Any:
        """The pending initializer, or None."""
        return None if self._t is not None or self._meta is None else self._meta[2]

    @init.setter
    def init(self, value: Any) -> None:
        if self._t is None and self._meta is not None:
            self._meta = (self._meta[0], self._meta[1], value)

    @property
    def init_finished(self) -> bool:
        """Whether the data exists."""
        return self._t is not None

    # ----------------------------------------------------------------- conversion
    def init_data(self, slice_index: Any = None, shape: Any = None, opt_shard_group: Any = None) -> "Tensor":
        """Create the data of a lazily initialised tensor and return the tensor.

        Returns:
            Tensor: self, now holding data.

        Raises:
            TypeError: for an input placeholder (created without ``init``), which has no data.
        """
        if self._t is None:
            shp, dt, init = self._meta
            if init is None:
                raise TypeError(f"For 'Tensor.init_data', the tensor with shape {_shape_text(shp)} and dtype {dt} "
                                "has no 'init' and holds no data: it is an input placeholder (e.g. for "
                                "Cell.set_inputs). Create it with 'init' to get lazily initialised data.")
            arr = _init_to_numpy(init, shp, dt.np_dtype)
            self._t = tf.convert_to_tensor(np.asarray(arr).astype(dt.np_dtype))
            self._meta = None
        return self

    def asnumpy(self) -> np.ndarray:
        """Return the value as a numpy array.

        Raises:
            RuntimeError: inside a compiled (GRAPH_MODE or ``jit``) function, where values are not known.
        """
        v = self._value()
        if not _is_eager(v):
            raise RuntimeError("For 'Tensor.asnumpy', the value is only known when the graph runs; asnumpy can't be "
                               "called inside a compiled (GRAPH_MODE or jit) function. Use PYNATIVE_MODE to inspect "
                               "values.")
        return v.numpy()

    def numpy(self) -> np.ndarray:
        """Alias of :meth:`asnumpy`."""
        return self.asnumpy()

    @staticmethod
    def from_numpy(array: np.ndarray) -> "Tensor":
        """Create a Tensor from a numpy array (keeping its dtype)."""
        return Tensor(array)

    def _one_element(self) -> np.ndarray:
        arr = self.asnumpy()
        if arr.size != 1:
            raise ValueError(f"The tensor should have only one element, but got {arr.size}, more than one element "
                             "is ambiguous.")
        return arr.reshape(())

    def item(self, index: Any = None) -> Any:
        """Return the only element as a python scalar (``index`` picks one of several, numpy style).

        Raises:
            ValueError: when the tensor has more than one element and no ``index`` is given.
        """
        if index is not None:
            arr = self.asnumpy()
            if self.dtype is mstype.bfloat16:
                arr = arr.astype(np.float32)
            return arr.item(index)
        arr = self._one_element()
        if self.dtype is mstype.bfloat16:
            return float(arr)
        return arr.item()

    def tolist(self) -> Any:
        """Return the value as nested python lists."""
        arr = self.asnumpy()
        if self.dtype is mstype.bfloat16:
            arr = arr.astype(np.float32)
        return arr.tolist()

    def copy(self) -> "Tensor":
        """Return a copy."""
        return _wrap(tf.identity(self._value()))

    def clone(self) -> "Tensor":
        """Return a copy."""
        return _wrap(tf.identity(self._value()))

    def value(self) -> "Tensor":
        """The tensor itself (a Parameter returns its current value as a Tensor)."""
        return self

    def contiguous(self) -> "Tensor":
        """The tensor itself: TensorFlow tensors are always contiguous."""
        return self

    def is_contiguous(self) -> bool:
        """Always True."""
        return True

    def numel(self) -> Any:
        """The number of elements."""
        return self.size

    nelement = numel

    def dim(self) -> int:
        """The number of dimensions."""
        return self.ndim

    ndimension = dim

    def set_const_arg(self, const_arg: bool = True) -> "Tensor":
        """Mark the tensor as a constant argument and return it."""
        if not isinstance(const_arg, bool):
            raise TypeError(f"For 'set_const_arg', the type of 'const_arg' should be 'bool', but got type "
                            f"'{type(const_arg).__name__}'.")
        self.const_arg = const_arg
        return self

    def set_dtype(self, dtype: Any) -> mstype.Type:
        """Cast in place to ``dtype`` and return the new dtype."""
        dt = mstype.as_ms_dtype(dtype, "Tensor.set_dtype", "dtype")
        self._set_value(tf.cast(self._value(), dt.tf_dtype))
        return dt

    def assign_value(self, value: Any) -> "Tensor":
        """Replace the data by ``value`` (its shape and dtype become ``value``'s) and return self."""
        self._t = _as_tf(value)
        self._meta = None
        return self

    def has_grad(self) -> bool:
        """Whether this is a Parameter that requires gradients."""
        return False

    def __hash__(self) -> int:
        return hash(id(self))

    def __copy__(self) -> "Tensor":
        return self.copy() if self._t is not None else self._clone_meta()

    def __deepcopy__(self, memo: dict) -> "Tensor":
        return self.__copy__()

    def _clone_meta(self) -> "Tensor":
        obj = object.__new__(Tensor)
        obj.const_arg = self.const_arg
        obj._t = None
        obj._meta = self._meta
        return obj

    def __reduce__(self):
        if self._t is None:
            shp, dt, init = self._meta
            return (_rebuild_lazy, (shp, dt, init))
        return (_rebuild_tensor, (self.asnumpy(),))

    def __repr__(self) -> str:
        if self._t is None:
            shp, dt, init = self._meta
            if init is not None:
                return f"Tensor(shape={_shape_text(shp)}, dtype={dt}, value=<uninitialized>)"
            return f"Tensor(shape={_shape_text(shp)}, dtype={dt}, value={chr(10) if len(shp) > 1 else ' '})"
        v = self._t
        if not _is_eager(v):
            dims = v.shape.as_list() if v.shape.rank is not None else [-2]
            return f"Tensor(shape={_shape_text(tuple(dims))}, dtype={self.dtype}, value=<symbolic>)"
        return f"Tensor(shape={_shape_text(self.shape)}, dtype={self.dtype}, value=" \
               f"{_format_repr(v.numpy(), self.dtype)})"

    def __str__(self) -> str:
        if self._t is None or not _is_eager(self._t):
            return repr(self)
        arr = self._t.numpy()
        return str(arr)

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if self._t is not None and self.ndim == 0 and _is_eager(self._t):
            return format(self.item(), spec)
        raise TypeError("unsupported format string passed to Tensor.__format__")

    # -------------------------------------------------------------- indexing
    def __getitem__(self, index: Any) -> "Tensor":
        out = _wrap(getitem(self._value(), index))
        out._parent = (self, index)
        return out

    def __setitem__(self, index: Any, value: Any) -> None:
        self._set_value(setitem(self._value(), index, value, _value_to_tf))
        parent = self.__dict__.get("_parent")
        if parent is not None:
            parent[0][parent[1]] = self



def _rebuild_tensor(arr: np.ndarray) -> Tensor:
    return Tensor(arr)


def _rebuild_lazy(shape: tuple, dtype: mstype.Type, init: Any) -> Tensor:
    obj = object.__new__(Tensor)
    obj.const_arg = False
    obj._t = None
    obj._meta = (shape, dtype, init)
    return obj


def tensor(input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None, const_arg: bool = False,
           device: Any = None) -> Tensor:
    """Create a :class:`Tensor` (``mindspore.tensor``), also inside compiled functions.

    Args:
        input_data: the data, as for :class:`Tensor`.
        dtype: the MindSpore dtype, or None to infer it.
        shape: as for :class:`Tensor`.
        init: as for :class:`Tensor`.
        const_arg: as for :class:`Tensor`.
        device: as for :class:`Tensor`.

    Returns:
        Tensor: the new tensor.

    Example:
        >>> tensor([1, 2, 3]).dtype
        mindspore.int64
    """
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg, device=device)


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a tfspore Tensor (Parameters included)."""
    return isinstance(obj, Tensor)

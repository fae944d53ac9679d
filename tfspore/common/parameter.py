"""``Parameter`` and ``ParameterTuple``: MindSpore's trainable state on ``tf.Variable``.

A :class:`Parameter` is a :class:`~tfspore.common.tensor.Tensor` whose value lives in a
``tf.Variable`` created with ``tf.Variable(...)``, so that ``tf.distribute`` scopes,
``tf.train.Checkpoint`` and ``tf.GradientTape`` all see a real variable. It carries the
MindSpore name (``conv1.weight``) used as the checkpoint key.

Example:
    >>> import numpy as np
    >>> from tfspore import Parameter, Tensor
    >>> p = Parameter(Tensor(np.ones((2, 3), np.float32)), name="weight")
    >>> print(p)
    Parameter (name=weight, shape=(2, 3), dtype=Float32, requires_grad=True)
"""
from __future__ import annotations

import itertools
import numbers
import re
from typing import Any, Iterable

import numpy as np
import tensorflow as tf

from tfspore.common import _state
from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor, _as_tf, _default_np

__all__ = ["Parameter", "ParameterTuple", "Buffer"]

_NAME_COUNTER = itertools.count(1)
_MAX_NAME_LEN = 1024
_GENERATED = re.compile(r"^Parameter#\d+$")


def _generate_name() -> str:
    return f"Parameter#{next(_NAME_COUNTER)}"


def _is_generated(name: str) -> bool:
    return bool(_GENERATED.match(name))


def _tf_var_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-/]", "_", name) or "param"


class Parameter(Tensor):
    """A Tensor that is a network weight, stored in a ``tf.Variable``.

    Args:
        default_input: a Tensor (initialised or lazy), a numpy array, a list, an int (Int64
            scalar) or a float (Float32 scalar).
        name: the name; None or blank generates ``"Parameter#N"``.
        requires_grad: whether the optimizer updates it.
        layerwise_parallel: accepted for compatibility.
        parallel_optimizer: accepted for compatibility.
        storage_format: accepted for compatibility.
        device: accepted for compatibility.

    Raises:
        TypeError: when ``default_input`` has an unsupported type.
        ValueError: when ``name`` is not a str or is longer than 1024 characters.

    Example:
        >>> Parameter(1.0, name="scale").dtype
        mindspore.float32
    """

    _is_parameter = True

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True, storage_format: str = "",
                 device: Any = None) -> None:
        self._init = None
        if isinstance(default_input, Tensor):
            src = default_input._value() if not default_input.has_init else default_input.init_data()._value()
            value = tf.convert_to_tensor(src)
        elif isinstance(default_input, (np.ndarray, np.generic, list, tuple, numbers.Number)):
            value = tf.convert_to_tensor(_default_np(default_input))
        elif isinstance(default_input, (tf.Tensor, tf.Variable)):
            value = tf.convert_to_tensor(default_input)
        else:
            raise TypeError("For 'Parameter', the type of 'default_input' should be one of [Tensor, numpy.ndarray, "
                            f"list, int, float], but got {type(default_input).__name__}.")
        self._name = None
        self.name = name
        self._requires_grad = bool(requires_grad)
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self.storage_format = storage_format
        self.is_init = True
        self.init_mode = None
        self.param_info = self
        self.sliced = False
        self.requires_aggr = True
        self._hook_fns: list = []
        trainable = bool(requires_grad) and (value.dtype.is_floating or value.dtype.is_complex)
        self._var = tf.Variable(value, name=_tf_var_name(self._name), trainable=trainable)

    # the TF value is the variable itself, so reads are tracked by tapes and captured by traces
    @property
    def _t(self) -> tf.Variable:  # type: ignore[override]
        return self._var

    @_t.setter
    def _t(self, value: Any) -> None:  # set through Tensor methods such as __setitem__
        self._var.assign(value)

    def _set_value(self, new: tf.Tensor) -> None:
        self._var.assign(new)

    @property
    def variable(self) -> tf.Variable:
        """The ``tf.Variable`` holding the value."""
        return self._var

    @property
    def name(self) -> str:
        """The parameter name (the checkpoint key)."""
        return self._name

    @name.setter
    def name(self, name_: str | None) -> None:
        if name_ is None:
            name_ = _generate_name()
        elif isinstance(name_, str):
            name_ = name_.strip()
            if name_ == "":
                name_ = _generate_name()
            if len(name_) > _MAX_NAME_LEN:
                raise ValueError(f"The length of the '{name_}' name should be less than {_MAX_NAME_LEN}.")
        else:
            raise ValueError("The type of the Parameter's name should be 'string' or 'None', "
                             f"but got {type(name_)}.")
        self._name = name_

    @property
    def requires_grad(self) -> bool:
        """Whether the parameter is trained."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Parameter.requires_grad', the value must be bool, but got {type(value).__name__}.")
        self._requires_grad = value

    @property
    def data(self) -> "Parameter":
        """The parameter itself (MindSpore's ``Parameter.data``)."""
        return self

    @property
    def inited_param(self) -> None:
        """Always None: tfspore parameters are initialised on creation."""
        return None

    @property
    def unique(self) -> bool:
        """Compatibility property."""
        return True

    def has_grad(self) -> bool:
        return self._requires_grad

    def value(self) -> Tensor:
        """Return the current value as a Tensor."""
        return Tensor._from_tf(tf.convert_to_tensor(self._var))

    def asnumpy(self) -> np.ndarray:
        """Return the current value as a numpy array."""
        return self._var.numpy()

    def __tf_tensor__(self, dtype: tf.DType | None = None, name: str | None = None) -> tf.Tensor:
        return tf.convert_to_tensor(self._var, dtype=dtype, name=name)

    def set_data(self, data: Any, slice_shape: bool = False) -> "Parameter":
        """Replace the value with ``data`` (cast to the parameter's dtype) and return self.

        Args:
            data: a Tensor, int or float.
            slice_shape: accepted for compatibility.

        Raises:
            TypeError: for another type of data, or a float into an int parameter.
        """
        if not isinstance(data, (Tensor, numbers.Number, np.ndarray)):
            raise TypeError("Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` (like `Tensor`). "
                            f"But with type {type(data)}.")
        if isinstance(data, float) and not self.dtype.is_floating_point and self.dtype is not mstype.bool_:
            raise TypeError("Incoming Parameter dtype can not be converted to current dtype implicitly. "
                            f"Current dtype is {self.dtype}, and incoming is Float. Use .set_dtype(xxx) to change "
                            "the dtype.")
        if isinstance(data, Tensor) and data.has_init:
            data.init_data()
        value = _as_tf(data, self._var.dtype)
        if value.shape == self._var.shape:
            self._var.assign(value)
        elif value.shape.num_elements() == 1 and isinstance(data, numbers.Number):
            self._var.assign(tf.fill(self._var.shape, tf.reshape(value, [])))
        else:
            if not tf.executing_eagerly():
                raise ValueError(f"For 'Parameter.set_data', the shape {tuple(value.shape)} differs from the "
                                 f"parameter '{self.name}' shape {tuple(self._var.shape)}; a shape can't change inside "
                                 "a compiled graph.")
            self._var = tf.Variable(value, name=_tf_var_name(self._name), trainable=self._var.trainable)
            _state.bump()  # compiled Cells captured the old variable: re-trace
        return self

    def assign_value(self, value: Any) -> "Parameter":
        """Assign ``value`` (same shape) and return self."""
        self._var.assign(_as_tf(value, self._var.dtype))
        return self

    def set_dtype(self, dtype: Any) -> "Parameter":
        """Change the stored dtype (recreates the variable) and return self."""
        tdt = mstype.as_tf_dtype(dtype)
        if tdt != self._var.dtype:
            self._var = tf.Variable(tf.cast(self._var, tdt), name=_tf_var_name(self._name),
                                    trainable=self._var.trainable and tdt.is_floating)
            _state.bump()  # compiled Cells captured the old variable: re-trace
        return self

    def init_data(self, layout: Any = None, set_sliced: bool = False) -> "Parameter":
        """Return self: a tfspore Parameter is initialised when created."""
        return self

    def clone(self, init: Any = "same") -> "Parameter":
        """Return a new Parameter with the same name, shape and dtype.

        Args:
            init: ``'same'`` copies the value; an initializer name, Initializer, Tensor or number
                initialises the clone with it.
        """
        if isinstance(init, str) and init == "same":
            value = Tensor._from_tf(tf.identity(tf.convert_to_tensor(self._var)))
        else:
            from tfspore.common.initializer import initializer
            value = initializer(init, self.shape, self.dtype)
        p = Parameter(value, name=self._name, requires_grad=self._requires_grad,
                      layerwise_parallel=self.layerwise_parallel, parallel_optimizer=self.parallel_optimizer)
        return p

    def copy(self) -> Tensor:
        """Return a plain Tensor copy of the value."""
        return Tensor._from_tf(tf.identity(tf.convert_to_tensor(self._var)))

    def register_hook(self, hook_fn: Any) -> Any:
        """Register ``hook_fn(grad) -> grad or None``, called with this parameter's gradient (PYNATIVE)."""
        if not callable(hook_fn):
            raise TypeError(f"For 'Parameter.register_hook', the 'hook_fn' must be callable, but got {hook_fn!r}.")
        self._hook_fns.append(hook_fn)

        class _Handle:
            def remove(inner) -> None:  # noqa: N805
                if hook_fn in self._hook_fns:
                    self._hook_fns.remove(hook_fn)
        return _Handle()

    def __repr__(self) -> str:
        return (f"Parameter (name={self._name}, shape={tuple(self._var.shape.as_list())}, dtype={self.dtype}, "
                f"requires_grad={self._requires_grad})")

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return format(repr(self), spec)

    def __deepcopy__(self, memo: dict) -> "Parameter":
        return self.clone()

    def __reduce__(self):
        return (_rebuild_parameter, (self.asnumpy(), self._name, self._requires_grad))

    @property
    def shape(self) -> tuple:
        return tuple(self._var.shape.as_list())

    @property
    def dtype(self) -> mstype.Type:
        return mstype.from_tf_dtype(self._var.dtype)

    @property
    def has_init(self) -> bool:
        return False


def _rebuild_parameter(arr: np.ndarray, name: str, requires_grad: bool) -> Parameter:
    return Parameter(Tensor(arr), name=name, requires_grad=requires_grad)


class ParameterTuple(tuple):
    """A tuple of Parameters with unique names.

    Args:
        iterable: Parameters.

    Raises:
        TypeError: when an item is not a Parameter.
        ValueError: when two different Parameters share a name.

    Example:
        >>> pt = ParameterTuple([Parameter(1.0, name="a"), Parameter(2.0, name="b")])
        >>> [p.name for p in pt.clone("m", init="zeros")]
        ['m.a', 'm.b']
    """

    def __new__(cls, iterable: Iterable[Parameter]) -> "ParameterTuple":
        data = tuple(iterable)
        ids, names = set(), set()
        for x in data:
            if not isinstance(x, Parameter):
                raise TypeError("For ParameterTuple initialization, ParameterTuple input should be 'Parameter' "
                                f"collection, but got a {type(iterable)}. ")
            if id(x) not in ids:
                if x.name in names:
                    raise ValueError(f"The value {x} , its name '{x.name}' already exists. Please set a unique name "
                                     "for the parameter.")
                names.add(x.name)
                ids.add(id(x))
        return tuple.__new__(cls, data)

    def clone(self, prefix: str, init: Any = "same") -> "ParameterTuple":
        """Clone every parameter, naming each clone ``prefix + "." + name``.

        Args:
            prefix: the namespace prefix.
            init: as for :meth:`Parameter.clone`.
        """
        if not isinstance(prefix, str) or not re.match(r"^[\w\-./]+$", prefix):
            raise ValueError(f"For 'ParameterTuple.clone', the 'prefix' must be a str of letters, digits, '_', '-', "
                             f"'.' or '/', but got {prefix!r}.")
        new = []
        for x in self:
            x1 = x.clone(init)
            x1.name = prefix + "." + x1.name
            new.append(x1)
        return ParameterTuple(new)


class _BufferTensor(Tensor):
    """A Tensor registered as Cell state, kept in a non-trainable ``tf.Variable``."""

    _is_buffer = True

    def __init__(self, data: Tensor, persistent: bool = True) -> None:
        self._init = None
        self.persistent = persistent
        self._var = tf.Variable(tf.stop_gradient(tf.convert_to_tensor(data._value())), trainable=False)

    @property
    def _t(self) -> tf.Variable:  # type: ignore[override]
        return self._var

    @_t.setter
    def _t(self, value: Any) -> None:
        self._var.assign(value)

    def _set_value(self, new: tf.Tensor) -> None:
        self._var.assign(new)

    def asnumpy(self) -> np.ndarray:
        return self._var.numpy()

    @property
    def shape(self) -> tuple:
        return tuple(self._var.shape.as_list())

    @property
    def dtype(self) -> mstype.Type:
        return mstype.from_tf_dtype(self._var.dtype)


def Buffer(data: Tensor, *, persistent: bool = True) -> Tensor:  # noqa: N802 (MindSpore's class-like name)
    """Create a buffer: Cell state that is not a parameter (``mindspore.nn.Buffer``).

    Args:
        data: the initial value.
        persistent: whether :meth:`Cell.state_dict` includes it.

    Raises:
        ValueError: when ``data`` is None.
        TypeError: when ``data`` is not a Tensor.
    """
    if data is None:
        raise ValueError("For create Buffer, input data should not be None")
    if not isinstance(data, Tensor):
        raise TypeError(f"For create Buffer, type of input data should be Tensor, but got {type(data).__name__}.")
    return _BufferTensor(data, persistent)

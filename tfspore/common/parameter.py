"""``Parameter`` and ``ParameterTuple``: MindSpore's trainable state on ``tf.Variable``.

A :class:`Parameter` is a :class:`~tfspore.common.tensor.Tensor` whose value lives in a
``tf.Variable`` created with ``tf.Variable(...)``, so that ``tf.distribute`` scopes,
``tf.train.Checkpoint`` and ``tf.GradientTape`` all see a real variable. It carries the
MindSpore name (``conv1.weight``) used as the checkpoint key.

Example:
    >>> import numpy as np
    >>> import tensorflow as tf
    >>> from tfspore import Parameter, Tensor
    >>> p = Parameter(Tensor(np.ones((2, 3), np.float32)), name="weight")
    >>> print(p)
    Parameter (name=weight, shape=(2, 3), dtype=Float32, requires_grad=True)
    >>> isinstance(p.variable, tf.Variable)
    True
"""
from __future__ import annotations

import itertools
import re
import weakref
from typing import Any, Iterable

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import _state
from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor, _as_tf, _default_np

# Under a tf.distribute strategy each replica applies the same (all-reduced) update, as each
# MindSpore device does; the first replica's value is kept, which is also the copy MindSpore saves.
_AGGREGATION = tf.VariableAggregation.ONLY_FIRST_REPLICA

__all__ = ["Parameter", "ParameterTuple", "Buffer"]

_NAME_COUNTER = itertools.count(1)
_MAX_NAME_LEN = 1024
_GENERATED = re.compile(r"^Parameter#\d+$")
_PREFIX_RE = re.compile(r"^\w+[0-9a-zA-Z_.]*$", re.ASCII)


def _generate_name() -> str:
    return f"Parameter#{next(_NAME_COUNTER)}"


def _is_generated(name: str) -> bool:
    return bool(_GENERATED.match(name))


def _tf_var_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-/]", "_", name) or "param"


def _initial_value(default_input: Any) -> tf.Tensor:
    """The first value of a Parameter, with MindSpore's dtypes (int -> Int32, float -> Float32)."""
    if isinstance(default_input, (bool, np.bool_)):
        raise ValueError("Parameter data can not be `bool`")
    if isinstance(default_input, Parameter):
        return tf.identity(tf.convert_to_tensor(default_input._var))
    if isinstance(default_input, Tensor):
        if default_input._t is None and not default_input.has_init:
            raise ValueError("All shape elements of the Parameter must be positive. But got None.")
        return tf.convert_to_tensor(default_input.init_data()._value())
    if isinstance(default_input, (tf.Tensor, tf.Variable)):
        return tf.convert_to_tensor(default_input)
    if isinstance(default_input, int):
        return tf.constant(default_input, tf.int32)
    if isinstance(default_input, float):
        return tf.constant(default_input, tf.float32)
    if isinstance(default_input, (np.ndarray, np.generic, list)):
        return tf.convert_to_tensor(_default_np(default_input))
    raise TypeError("The type of the argument 'default_input' must be in ['Tensor', 'int', 'float', "
                    f"'numpy.ndarray', 'list']. But got type {type(default_input)}.")


# id(tf.Variable) -> the Parameter holding it, so that a compiled Cell called with a Parameter
# argument sees that Parameter (and can update it in place) rather than a copy of its value.
_OWNERS: "weakref.WeakValueDictionary[int, Parameter]" = weakref.WeakValueDictionary()


def _parameter_of(var: Any) -> "Parameter | None":
    """The Parameter whose variable is ``var``, or None."""
    p = _OWNERS.get(id(var))
    return p if p is not None and p.__dict__.get("_var_") is var else None



def _bool_flag(attr: str, doc: str, end: str = ".") -> property:
    """A bool property of Parameter stored in ``_<attr>``; setting a non-bool raises MindSpore's TypeError
    (its message ends with ``end``: MindSpore's ``requires_grad`` message has no full stop)."""
    private = "_" + attr

    def fget(self: Any) -> bool:
        return getattr(self, private)

    def fset(self: Any, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"The argument `{attr}` must be bool type{end}")
        setattr(self, private, value)

    return property(fget, fset, doc=doc)

class Parameter(Tensor):
    """A Tensor that is a network weight, stored in a ``tf.Variable``.

    The variable is created with ``tf.Variable(...)``, so ``tf.distribute`` scopes,
    ``tf.train.Checkpoint`` and ``tf.GradientTape`` all see a real variable (``p.variable``).

    Args:
        default_input: a Tensor (initialised or lazy), a numpy array, a list, an int (an Int32
            scalar) or a float (a Float32 scalar).
        name: the name; None or blank generates ``"Parameter#N"``; surrounding whitespace is
            stripped.
        requires_grad: whether the optimizer updates it.
        layerwise_parallel: accepted for compatibility (bool).
        parallel_optimizer: accepted for compatibility (bool).
        storage_format: accepted for compatibility.
        device: None, 'CPU' or 'Remote' (accepted for compatibility).

    Raises:
        TypeError: when ``default_input`` has an unsupported type, or a flag is not a bool.
        ValueError: when ``default_input`` is a bool or a placeholder, or ``name`` is not a str
            or is longer than 1024 characters.

    Example:
        >>> Parameter(1.0, name="scale")
        Parameter (name=scale, shape=(), dtype=Float32, requires_grad=True)
    """

    _is_parameter = True

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True, storage_format: str = "",
                 device: Any = None) -> None:
        value = _initial_value(default_input)
        if device not in (None, "CPU", "Remote"):
            raise ValueError(f"Only 'CPU' and 'Remote' is supported for device, but got {device}.")
        self.const_arg = False
        self._meta = None
        self._name = None
        self.name = name
        self._requires_grad = validator.check_type(requires_grad, bool, "requires_grad", "Parameter")
        self._layerwise_parallel = validator.check_type(layerwise_parallel, bool, "layerwise_parallel", "Parameter")
        self._parallel_optimizer = validator.check_type(parallel_optimizer, bool, "parallel_optimizer", "Parameter")
        self.storage_format = storage_format
        self.is_init = False
        self.init_mode = None
        self.sliced = False
        self.requires_aggr = True
        self._hook_fns: list = []
        self._var = tf.Variable(value, name=_tf_var_name(self._name), trainable=self._trainable(value.dtype),
                                aggregation=_AGGREGATION)

    def _trainable(self, dtype: tf.DType) -> bool:
        return self._requires_grad and (dtype.is_floating or dtype.is_complex)

    # the TF value is the variable itself, so reads are tracked by tapes and captured by traces
    @property
    def _var(self) -> tf.Variable:
        return self.__dict__["_var_"]

    @_var.setter
    def _var(self, var: tf.Variable) -> None:
        self.__dict__["_var_"] = var
        _OWNERS[id(var)] = self

    # (see above)
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

    requires_grad = _bool_flag("requires_grad", "Whether the parameter is trained.", "")
    layerwise_parallel = _bool_flag("layerwise_parallel", "Compatibility flag (bool).")
    parallel_optimizer = _bool_flag("parallel_optimizer", "Compatibility flag (bool).")

    @property
    def data(self) -> "Parameter":
        """The parameter's data; writes through it (``p.data[0] = 1``) change the parameter."""
        return self

    @property
    def inited_param(self) -> None:
        """Always None: tfspore parameters hold their data from creation."""
        return None

    @property
    def param_info(self) -> "Parameter":
        """The parameter itself (it carries the name and flags MindSpore keeps in ParamInfo)."""
        return self

    @property
    def unique(self) -> bool:
        """Compatibility property (False, as in MindSpore)."""
        return False

    @property
    def cache_enable(self) -> bool:
        """Compatibility property (False)."""
        return False

    def has_grad(self) -> bool:
        """Whether the parameter requires gradients."""
        return self._requires_grad

    def value(self) -> Tensor:
        """Return the current value as a new Tensor (later writes to the parameter don't change it)."""
        return Tensor._from_tf(tf.identity(tf.convert_to_tensor(self._var)))

    def asnumpy(self) -> np.ndarray:
        """Return the current value as a numpy array.

        Raises:
            RuntimeError: inside a compiled function.
        """
        if not tf.executing_eagerly():
            return super().asnumpy()
        return self._var.numpy()

    def __tf_tensor__(self, dtype: tf.DType | None = None, name: str | None = None) -> tf.Tensor:
        return tf.convert_to_tensor(self._var, dtype=dtype, name=name)

    def _raise_type_error(self) -> None:
        raise TypeError("Incoming Parameter dtype can not be converted to current dtype implicitly. "
                        f"Current dtype is {self.dtype}, and incoming is Float. Use .set_dtype(xxx) to change "
                        "the dtype.")

    def set_data(self, data: Any, slice_shape: bool = False) -> "Parameter":
        """Replace the value with ``data`` and return self.

        ``data`` is cast to the parameter's dtype. A number replaces the value with a scalar, and
        a Tensor of another shape replaces the shape, as in MindSpore (outside compiled graphs
        only: the variable is recreated).

        Args:
            data: a Tensor (initialised or lazy), int or float.
            slice_shape: accepted for compatibility.

        Returns:
            Parameter: self.

        Raises:
            TypeError: for another type of data, or a float for an integer parameter.
            ValueError: for a shape change inside a compiled graph.
        """
        if not isinstance(data, (Tensor, int, float)):
            raise TypeError("Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` (like `Tensor`). "
                            f"But with type {type(data)}.")
        if isinstance(data, (int, float)):
            if isinstance(data, float) and self.dtype._kind in ("int", "uint"):
                self._raise_type_error()
            data = Tensor(data, self.dtype)
        if data.has_init:
            data.init_data()
        value = tf.convert_to_tensor(data._value())
        if value.dtype != self._var.dtype:
            value = tf.cast(value, self._var.dtype)
        if value.shape == self._var.shape:
            self._var.assign(value)
        else:
            if not tf.executing_eagerly():
                raise ValueError(f"For 'Parameter.set_data', the shape {tuple(value.shape)} differs from the shape "
                                 f"{tuple(self._var.shape)} of parameter '{self.name}'; a shape can't change inside "
                                 "a compiled graph.")
            self._var = tf.Variable(value, name=_tf_var_name(self._name), trainable=self._var.trainable,
                                    aggregation=_AGGREGATION)
            _state.bump()  # compiled Cells captured the old variable: re-trace
        self.sliced = slice_shape
        return self

    def assign_value(self, value: Any) -> "Parameter":
        """Assign ``value`` (same shape, cast to the dtype) and return self."""
        self._var.assign(_as_tf(value, self._var.dtype))
        return self

    def set_dtype(self, dtype: Any) -> mstype.Type:
        """Change the stored dtype (recreating the variable) and return the new dtype."""
        dt = mstype.as_ms_dtype(dtype, "Parameter.set_dtype", "dtype")
        if dt.tf_dtype != self._var.dtype:
            self._var = tf.Variable(tf.cast(self._var, dt.tf_dtype), name=_tf_var_name(self._name),
                                    aggregation=_AGGREGATION,
                                    trainable=self._trainable(dt.tf_dtype))
            _state.bump()  # compiled Cells captured the old variable: re-trace
        return dt

    def init_data(self, layout: Any = None, set_sliced: bool = False) -> "Parameter":
        """Return self: a tfspore Parameter holds its data from creation."""
        return self

    def clone(self, init: Any = "same") -> "Parameter":
        """Return a new Parameter with the same name, shape, dtype and flags.

        Args:
            init: ``'same'`` copies the value; an initializer name, Initializer, Tensor or number
                sets the clone's data (with this parameter's shape and dtype).

        Returns:
            Parameter: the clone.
        """
        if isinstance(init, str) and init == "same":
            value: Any = tf.identity(tf.convert_to_tensor(self._var))
        else:
            from tfspore.common.initializer import initializer
            value = initializer(init, self.shape, self.dtype)
        p = Parameter(value, name=self._name, requires_grad=self._requires_grad,
                      layerwise_parallel=self._layerwise_parallel, parallel_optimizer=self._parallel_optimizer)
        p.requires_aggr = self.requires_aggr
        return p

    def copy(self) -> "Parameter":
        """Return a copy: a Parameter with the same name and value (``clone(init='same')``)."""
        return self.clone(init="same")

    def register_hook(self, hook_fn: Any) -> Any:
        """Register ``hook_fn(grad) -> grad or None``, called with this parameter's gradient (PYNATIVE).

        Returns:
            A handle whose ``remove()`` unregisters the hook.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
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

    def __copy__(self) -> "Parameter":
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "Parameter":
        return self.clone()

    def __reduce__(self):
        return (_rebuild_parameter, (self._var.numpy(), self._name, self._requires_grad,
                                     self._layerwise_parallel, self._parallel_optimizer))

    @property
    def shape(self) -> tuple:
        """The shape as a tuple of ints."""
        return tuple(self._var.shape.as_list())

    @property
    def dtype(self) -> mstype.Type:
        """The MindSpore dtype."""
        return mstype.from_tf_dtype(self._var.dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._var.shape.rank

    @property
    def size(self) -> int:
        """The number of elements."""
        return self._var.shape.num_elements()

    @property
    def has_init(self) -> bool:
        """Always False: the data exists."""
        return False


def _rebuild_parameter(arr: np.ndarray, name: str, requires_grad: bool, layerwise_parallel: bool = False,
                       parallel_optimizer: bool = True) -> Parameter:
    return Parameter(Tensor(arr), name=name, requires_grad=requires_grad, layerwise_parallel=layerwise_parallel,
                     parallel_optimizer=parallel_optimizer)


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
        if not isinstance(prefix, str):
            raise TypeError(f"For 'ParameterTuple.clone', the 'prefix' must be a str, but got {type(prefix).__name__}.")
        if not _PREFIX_RE.match(prefix):
            raise ValueError(f"The '{prefix}' is illegal, it must be match regular'^\\w+[0-9a-zA-Z\\_\\.]*$' by "
                             "flags're.ASCII.'")
        new = []
        for x in self:
            x1 = x.clone(init)
            x1.name = prefix + "." + x1.name
            new.append(x1)
        return ParameterTuple(new)


class _BufferTensor(Tensor):
    """A Tensor registered as Cell state, kept in a non-trainable ``tf.Variable``."""

    def __init__(self, data: Tensor, persistent: bool = True) -> None:
        self._meta = None
        self.const_arg = False
        self.persistent = persistent
        self._var = tf.Variable(tf.stop_gradient(tf.convert_to_tensor(data._value())), trainable=False,
                                aggregation=_AGGREGATION)

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


# The helpers above under public names, for ``tfspore.nn``'s Cell (registration of buffers and
# parameters, and the Parameter behind a variable in a compiled construct).
BufferTensor = _BufferTensor
is_generated_name = _is_generated
parameter_of = _parameter_of

"""``Primitive``: the base class of the class-style operators (``ops.ReLU()``, ``ops.ReduceMean(keep_dims)``).

A primitive is configured once (its constructor arguments become attributes, listed in
``attrs`` and ``init_attrs``) and then called like a function on Tensors, eagerly or inside a
GRAPH_MODE trace.

Example:
    >>> from tfspore import ops
    >>> relu = ops.ReLU()
    >>> relu
    Prim[ReLU]
    >>> ops.ReduceMean(keep_dims=True)
    Prim[ReduceMean]<keep_dims=True>
"""
from __future__ import annotations

import copy
import functools
import inspect
from typing import Any, Callable

from tfspore._internal import amp_scope as _amp_scope

__all__ = ["Primitive", "PrimitiveWithCheck", "PrimitiveWithInfer", "prim_attr_register", "prim_arg_register",
           "constexpr", "_primexpr"]

_REGISTRY: dict = {}


def _amp_aware(call: Callable) -> Callable:
    """Let ``call`` follow the mixed-precision scope of the running construct (``tfspore.amp`` O1 / auto).

    Outside a mixed-precision network the scope is None and the call goes straight through; inside
    one (read while tracing in GRAPH_MODE) the scope casts the primitive's floating inputs and outputs.
    """
    @functools.wraps(call)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _amp_scope._local.__dict__.get("scope") is None:
            return call(self, *args, **kwargs)
        return _amp_scope.run_primitive(self, call, args, kwargs)
    wrapper._amp_aware = True
    return wrapper


class Primitive:
    """The base class of operator primitives.

    Args:
        name: the primitive's name (the class name for built-in primitives).

    Example:
        >>> from tfspore.ops import Primitive, prim_attr_register
        >>> class Scale(Primitive):
        ...     @prim_attr_register
        ...     def __init__(self, factor=2.0):
        ...         pass
        ...     def __call__(self, x):
        ...         return x * self.factor
        >>> Scale(3.0)
        Prim[Scale]<factor=3.0>
    """

    _repr_ignore_list = ["input_names", "output_names"]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith("tfspore.ops.operations"):
            _REGISTRY.setdefault(cls.__name__, cls)
        call = cls.__dict__.get("__call__")
        if call is not None and not getattr(call, "_amp_aware", False):
            cls.__call__ = _amp_aware(call)

    def __init__(self, name: str) -> None:
        d = self.__dict__
        d["name"] = name
        d["attrs"] = {}
        d["init_attrs"] = {"name": name}
        d["_update_parameter"] = False

    # ------------------------------------------------------------- attributes
    def add_prim_attr(self, name: str, value: Any) -> "Primitive":
        """Add an attribute (also readable as ``self.<name>``) and return self."""
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def _set_prim_arg(self, name: str, value: Any) -> "Primitive":
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name: str) -> "Primitive":
        """Delete an attribute and return self."""
        if name in self.__dict__ and name in self.attrs:
            del self.__dict__[name]
            del self.attrs[name]
        return self

    def set_device(self, device_target: str) -> "Primitive":
        """Record the device the primitive should run on (attribute ``primitive_target``)."""
        return self.add_prim_attr("primitive_target", device_target)

    def set_stage(self, stage: int) -> "Primitive":
        """Record a pipeline stage (no effect on TensorFlow)."""
        return self.add_prim_attr("stage", stage)

    def shard(self, in_strategy: Any = None, out_strategy: Any = None) -> "Primitive":
        """Record parallel sharding strategies (no effect on TensorFlow)."""
        if in_strategy is not None:
            if not isinstance(in_strategy, tuple):
                raise TypeError(f"in_strategy must be tuple type, but got:{type(in_strategy)}")
            self.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            if not isinstance(out_strategy, tuple):
                raise TypeError(f"out_strategy must be tuple type, but got:{type(out_strategy)}")
            self.add_prim_attr("out_strategy", out_strategy)
        return self

    def set_prim_instance_name(self, instance_name: str) -> "Primitive":
        """Set the instance name (``self.instance_name``) and return self."""
        self.__dict__["instance_name"] = instance_name
        return self

    def init_prim_io_names(self, inputs: list, outputs: list) -> None:
        """Record the names of the inputs and outputs (attributes ``input_names`` / ``output_names``)."""
        self.add_prim_attr("input_names", inputs)
        self.add_prim_attr("output_names", outputs)

    def recompute(self, mode: bool = True) -> "Primitive":
        """Mark the primitive for recomputation in the backward pass (recorded only)."""
        if not isinstance(mode, bool):
            raise TypeError(f"For 'Primitive.recompute', the 'mode' must be a bool, but got {type(mode).__name__}.")
        return self.add_prim_attr("recompute", mode)

    def place(self, role: str, rank_id: int) -> None:
        """Record the process a primitive runs on (no effect on TensorFlow)."""
        self.add_prim_attr("ms_role", role)
        self.add_prim_attr("rank_id", rank_id)

    @property
    def update_parameter(self) -> bool:
        """Whether the primitive updates a Parameter in place."""
        return self._update_parameter

    def check_elim(self, *args: Any) -> tuple:
        """Return ``(True, output)`` when the call can be skipped; subclasses may override."""
        return (False, None)

    def __getattr__(self, item: str) -> Any:
        if item.startswith("__"):
            raise AttributeError(item)
        attrs = self.__dict__.get("attrs", {})
        if item in attrs:
            return attrs[item]
        name = self.__dict__.get("name", type(self).__name__)
        raise AttributeError(f"'{name}' object has no attribute '{item}'")

    # ------------------------------------------------------------------ calls
    def __call__(self, *args: Any) -> Any:
        should_elim, output = self.check_elim(*args)
        if should_elim:
            return output
        impl = _REGISTRY.get(self.name)
        if impl is not None and type(self) is not impl and not isinstance(self, impl):
            kwargs = {k: v for k, v in self.init_attrs.items() if k != "name"}
            return impl(**kwargs)(*args)
        raise RuntimeError(f"For '{self.name}', the primitive has no implementation: define '__call__' in "
                           f"'{type(self).__name__}'.")

    def __deepcopy__(self, memo: dict) -> "Primitive":
        init = {k: v for k, v in self.init_attrs.items()}
        if type(self) in (Primitive, PrimitiveWithCheck, PrimitiveWithInfer):
            new = type(self)(init.get("name", self.name))
        else:
            init.pop("name", None)
            new = type(self)(**init)
        for k, v in self.attrs.items():
            new.add_prim_attr(k, copy.deepcopy(v, memo))
        return new

    def __repr__(self) -> str:
        attr = ", ".join(f"{k}={self.attrs.get(k)}" for k in self.attrs if k not in Primitive._repr_ignore_list)
        info = f"Prim[{self.name}]"
        return info + (f"<{attr}>" if attr else "")


class PrimitiveWithCheck(Primitive):
    """A primitive whose subclasses define ``check_shape`` / ``check_dtype`` (or ``__check__``) validators.

    Calling it runs the checks on the inputs' shapes and dtypes, then the subclass's ``__call__``
    implementation.
    """

    def __check__(self, *args: Any) -> None:
        """Run ``check_dtype`` and ``check_shape`` on ``{'shape', 'dtype'}`` descriptions of the inputs."""
        if hasattr(self, "check_dtype"):
            self.check_dtype(*(a["dtype"] for a in args))
        if hasattr(self, "check_shape"):
            self.check_shape(*(a["shape"] for a in args))

    def check_shape(self, *args: Any) -> None:
        """Check the input shapes; subclasses override."""
        return None

    def check_dtype(self, *args: Any) -> None:
        """Check the input dtypes; subclasses override."""
        return None


class PrimitiveWithInfer(Primitive):
    """A primitive whose subclasses define ``infer_shape``, ``infer_dtype`` and ``infer_value``.

    Calling one that defines ``infer_value`` returns that value when it is not None (constant
    folding, as in MindSpore); otherwise the subclass's ``__call__`` implementation runs.
    """

    def infer_shape(self, *args: Any) -> Any:
        """Infer the output shape; subclasses override."""
        return args[0] if args else None

    def infer_dtype(self, *args: Any) -> Any:
        """Infer the output dtype; subclasses override."""
        return args[0] if args else None

    def infer_value(self, *args: Any) -> Any:
        """Compute the output at compile time when possible; subclasses override."""
        return None

    def __infer__(self, *args: Any) -> dict:
        """Combine the three inferences over ``{'shape', 'dtype', 'value'}`` input descriptions."""
        shapes = [a["shape"] for a in args]
        dtypes = [a["dtype"] for a in args]
        values = [a.get("value") for a in args]
        value = self.infer_value(*values) if all(v is not None for v in values) else None
        return {"shape": self.infer_shape(*shapes), "dtype": self.infer_dtype(*dtypes), "value": value}

    def __call__(self, *args: Any) -> Any:
        if type(self).infer_value is not PrimitiveWithInfer.infer_value:
            out = self.infer_value(*args)
            if out is not None:
                return out
        return super().__call__(*args)


def _init_with_attrs(self: Primitive, fn: Callable, args: tuple, kwargs: dict, as_attr: bool) -> None:
    cls = type(self)
    name = getattr(cls, "substitute_name", cls.__name__)
    Primitive.__init__(self, name)
    bound = inspect.signature(fn).bind(self, *args, **kwargs)
    bound.apply_defaults()
    arguments = bound.arguments
    del arguments["self"]
    del self.init_attrs["name"]
    for k, v in arguments.items():
        if as_attr:
            self.add_prim_attr(k, v)
        else:
            self._set_prim_arg(k, v)
        self.init_attrs[k] = v


def _registering_init(fn: Callable, as_attr: bool) -> Callable:
    """``fn`` (an ``__init__``) run after its arguments are recorded as attributes (``as_attr``) or
    as call-time inputs."""
    @functools.wraps(fn)
    def deco(self: Primitive, *args: Any, **kwargs: Any) -> None:
        _init_with_attrs(self, fn, args, kwargs, as_attr)
        fn(self, *args, **kwargs)
    deco.decorated_func = fn
    return deco


def prim_attr_register(fn: Callable) -> Callable:
    """Decorate a primitive's ``__init__``: set its name and record every argument as an attribute.

    Example:
        >>> class MatMul(Primitive):
        ...     @prim_attr_register
        ...     def __init__(self, transpose_a=False, transpose_b=False):
        ...         pass
        >>> MatMul(transpose_b=True).attrs
        {'transpose_a': False, 'transpose_b': True}
    """
    return _registering_init(fn, True)


def prim_arg_register(fn: Callable) -> Callable:
    """Like :func:`prim_attr_register`, for primitives whose arguments are call-time inputs."""
    return _registering_init(fn, False)


def constexpr(fn: Callable | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True, check: bool = True) -> Any:
    """Mark a function computed from constants at trace time (it simply runs in Python here).

    Args:
        fn: the function.
        get_instance: return a primitive instance (True) or its class.
        name: the primitive name (the function name by default).
        reuse_result: accepted for compatibility.
        check: accepted for compatibility.

    Returns:
        A callable primitive wrapping ``fn``.
    """
    def decorator(f: Callable) -> Any:
        class ProxyOp(PrimitiveWithInfer):
            """Runs a constexpr function."""

            def __init__(self) -> None:
                super().__init__(name if name else f.__name__)
                self.__dict__["fn"] = f
                self.add_prim_attr("constexpr_prim", True)

            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                return f(*args, **kwargs)
        functools.update_wrapper(ProxyOp.__call__, f)
        return ProxyOp() if get_instance else ProxyOp

    if fn is not None:
        return decorator(fn)
    return decorator


def _primexpr(fn: Callable | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True) -> Any:
    """Like :func:`constexpr`, for functions that may also see tensors."""
    return constexpr(fn, get_instance, name, reuse_result)

"""``jit``, ``JitConfig``, ``lazy_inline`` and ``mutable``: compilation entry points on ``tf.function``.

``jit`` compiles a function (or method, or a Cell's ``construct``) with ``tf.function`` in both
modes, as MindSpore's ``@jit`` does: one trace per input signature. ``jit_level='O2'`` (a
tfspore extension; MindSpore's ``jit`` takes 'O0' and 'O1') or ``jit_compile=True`` adds XLA.
A ``jit`` function called while another function is being traced runs inline, as plain Python.

Example:
    >>> import tfspore as ms
    >>> @ms.jit
    ... def add(x, y):
    ...     return x + y
    >>> add(ms.Tensor(1.0), ms.Tensor(2.0))
    Tensor(shape=[], dtype=Float32, value= 3)
"""
from __future__ import annotations

import functools
import inspect
import logging
import types
from typing import Any, Callable

import tensorflow as tf

from tfspore._internal import runtime_check
from tfspore.common import _control_flow, _state
from tfspore.common.tensor import Tensor, _unwrap_nest, _wrap_nest

__all__ = ["jit", "JitConfig", "lazy_inline", "ms_function", "mutable", "no_inline"]

_logger = logging.getLogger("tfspore")
_KNOWN_OPTIONS = ("jit_compile", "input_signature", "infer_boost", "exc_mode", "mode", "hash_args", "jit_config",
                  "compile_once")


class JitConfig:
    """Compilation options for a Cell (``Cell.set_jit_config``) or ``Model``.

    Args:
        jit_level: '' or 'O0' / 'O1' (``tf.function``), or 'O2' (``tf.function`` with XLA).
        exc_mode: 'auto', 'sink' or 'no_sink' (accepted for compatibility).
        jit_syntax_level: '', 'STRICT', 'COMPATIBLE' or 'LAX' (accepted for compatibility).
        debug_level: 'RELEASE' or 'DEBUG' (accepted for compatibility).
        infer_boost: 'on' or 'off' (accepted for compatibility).
        **kwargs: extra options kept in ``jit_config_dict``; ``jit_compile=True/False`` sets XLA
            explicitly.

    Raises:
        ValueError: for a value outside those listed.

    Example:
        >>> JitConfig(jit_level="O2").jit_config_dict["jit_level"]
        'O2'
    """

    def __init__(self, jit_level: str = "", exc_mode: str = "auto", jit_syntax_level: str = "",
                 debug_level: str = "RELEASE", infer_boost: str = "off", **kwargs: Any) -> None:
        kwargs.pop("suppress_infer_boost_warning", None)
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError(f"For 'JitConfig', the 'jit_level' must be one of ['O0', 'O1', 'O2'], but got "
                             f"{jit_level!r}.")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError(f"For 'JitConfig', the 'exc_mode' must be one of ['auto', 'sink', 'no_sink'], but got "
                             f"{exc_mode!r}.")
        if jit_syntax_level not in ("", "STRICT", "COMPATIBLE", "LAX"):
            raise ValueError(f"For 'JitConfig', the 'jit_syntax_level' must be one of ['STRICT', 'LAX'], but got "
                             f"{jit_syntax_level!r}.")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError(f"For 'JitConfig', the 'debug_level' must be one of ['RELEASE', 'DEBUG'], but got "
                             f"{debug_level!r}.")
        if infer_boost not in ("", "on", "off"):
            raise ValueError(f"For 'JitConfig', the 'infer_boost' must be one of ['on', 'off'], but got "
                             f"{infer_boost!r}.")
        self.jit_config_dict = dict(kwargs)
        self.jit_config_dict.update({"jit_level": jit_level, "exc_mode": exc_mode,
                                     "jit_syntax_level": jit_syntax_level, "debug_level": debug_level,
                                     "infer_boost": infer_boost})
        if "backend" not in self.jit_config_dict:
            if jit_level in ("O0", "O1"):
                self.jit_config_dict["backend"] = "ms_backend"
            elif jit_level == "O2":
                self.jit_config_dict["backend"] = "GE"

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"


class _JitFunction:
    """A function compiled with ``tf.function`` whose inputs and outputs are tfspore Tensors."""

    def __init__(self, fn: Callable, jit_compile: bool | None, input_signature: Any = None) -> None:
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._jit_compile = jit_compile
        self._input_signature = input_signature
        self._tf_fn: Any = None
        self._epoch = -1

    def _compiled(self) -> Any:
        # a replaced variable (Parameter.set_data with a new shape, set_dtype) invalidates the traces
        if self._tf_fn is None or self._epoch != _state.epoch():
            fn = self._fn

            def traced(*args: Any, **kwargs: Any) -> Any:
                with _state.entered():
                    return _unwrap_nest(_control_flow.call(fn, _wrap_nest(args), _wrap_nest(kwargs)))
            traced.__name__ = getattr(fn, "__name__", "jit_function")
            self._tf_fn = tf.function(traced, jit_compile=self._jit_compile, input_signature=self._input_signature,
                                      autograph=False, reduce_retracing=False)
            self._epoch = _state.epoch()
        return self._tf_fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not tf.executing_eagerly():
            return _control_flow.call(self._fn, args, kwargs)  # inside another trace: inline
        try:
            return _wrap_nest(self._compiled()(*_unwrap_nest(args), **_unwrap_nest(kwargs)))
        except tf.errors.InvalidArgumentError as e:  # a failed `assert` on a Tensor is an AssertionError
            _control_flow.raise_assertion(e)
            runtime_check.raise_runtime_error(e)  # a failed index check: RuntimeError
            raise

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return types.MethodType(self, instance)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> Any:
        """The traced ``tf.function`` for these inputs."""
        return self._compiled().get_concrete_function(*_unwrap_nest(args), **_unwrap_nest(kwargs))

    def tracing_count(self) -> int:
        """How many times the function has been traced (one per new input signature)."""
        return 0 if self._tf_fn is None else self._tf_fn.experimental_get_tracing_count()


def _check_jit_args(capture_mode: Any, jit_level: Any, dynamic: Any, fullgraph: Any) -> None:
    if capture_mode not in ("ast", "bytecode", "trace"):
        raise ValueError(f"For 'jit', the 'capture_mode' must be str and must be in '['ast', 'bytecode', 'trace']', "
                         f"but got {capture_mode!r}.")
    if jit_level not in ("O0", "O1", "O2"):
        raise ValueError(f"For 'jit', the 'jit_level' must be str and must be in '['O0', 'O1', 'O2']', but got "
                         f"{jit_level!r}.")
    if not isinstance(dynamic, int) or isinstance(dynamic, bool) or dynamic not in (0, 1):
        raise ValueError(f"For 'jit', the 'dynamic' must be in range of [0, 1], but got {dynamic!r}.")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the 'fullgraph' must be a bool, but got {type(fullgraph).__name__}.")


def jit(function: Callable | None = None, *, capture_mode: str = "ast", jit_level: str = "O0", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options: Any) -> Any:
    """Compile ``function`` into a TensorFlow graph (``tf.function``), traced once per input signature.

    Args:
        function: a function or method (``@jit`` and ``@jit(...)`` both work), a Cell instance
            (its ``construct`` is compiled and returned bound) or a Cell class (its
            ``construct`` is replaced by the compiled one).
        capture_mode: 'ast', 'bytecode' or 'trace' (all compile through ``tf.function`` tracing).
        jit_level: 'O0' or 'O1' for a plain graph; 'O2' for a graph compiled by XLA.
        dynamic: 0 or 1 (accepted for compatibility).
        fullgraph: accepted for compatibility.
        backend: accepted for compatibility.
        **options: ``jit_compile`` (bool) sets XLA explicitly; ``input_signature`` fixes the
            signature (a list of ``tf.TensorSpec``).

    Returns:
        The compiled callable, or a decorator when ``function`` is None.

    Raises:
        ValueError: for an unknown ``capture_mode`` or ``jit_level``, or ``dynamic`` outside [0, 1].
        TypeError: when ``fullgraph`` is not a bool or ``function`` is not callable.

    Example:
        >>> @jit(jit_level="O1")
        ... def double(x):
        ...     return x * 2
    """
    _check_jit_args(capture_mode, jit_level, dynamic, fullgraph)
    jit_compile = options.pop("jit_compile", True if jit_level == "O2" else None)
    signature = options.pop("input_signature", None)
    for key in options:
        if key not in _KNOWN_OPTIONS:
            _logger.warning("For 'jit(options)', the option argument '%s' is not recognized, please check!", key)

    def wrap(fn: Any) -> Any:
        if inspect.isclass(fn) and hasattr(fn, "construct"):
            fn.construct = _JitFunction(fn.construct, jit_compile, signature)
            return fn
        if not inspect.isroutine(fn) and hasattr(fn, "construct") and callable(fn):
            return types.MethodType(_JitFunction(type(fn).construct, jit_compile, signature), fn)
        if isinstance(fn, _JitFunction):
            return fn
        if not callable(fn):
            raise TypeError(f"For 'jit', the 'function' must be callable, but got {type(fn).__name__}.")
        return _JitFunction(fn, jit_compile, signature)
    return wrap if function is None else wrap(function)


def ms_function(fn: Callable | None = None, input_signature: Any = None, hash_args: Any = None,
                jit_config: Any = None) -> Any:
    """MindSpore 1.x name of :func:`jit` (``input_signature`` is a list of ``tf.TensorSpec``)."""
    options = {} if input_signature is None else {"input_signature": input_signature}
    return jit(fn, **options) if fn is not None else jit(**options)


def lazy_inline(fn: Callable | None = None, attrs: Any = None, policy: Any = None) -> Any:
    """Mark a Cell's ``__init__`` for lazy inlining.

    TensorFlow's tracing inlines nested Cells itself, so the decorated ``__init__`` runs unchanged.

    Args:
        fn: the ``__init__`` to decorate (``@lazy_inline`` and ``@lazy_inline(...)`` both work).
        attrs: None, a str or a list of str (accepted for compatibility).
        policy: None or 'front'.

    Raises:
        ValueError: when applied to a class or to a function other than ``__init__``, or for a bad
            ``policy`` or ``attrs``.

    Example:
        >>> class Block:
        ...     @lazy_inline
        ...     def __init__(self, n):
        ...         self.n = n
        >>> Block(3).n
        3
    """
    if policy not in (None, "front"):
        raise ValueError(f"For 'lazy_inline', the 'policy' must be None or 'front', but got {policy!r}.")
    if attrs is not None and not isinstance(attrs, str) and not (
            isinstance(attrs, list) and all(isinstance(a, str) for a in attrs)):
        raise ValueError(f"For 'lazy_inline', the 'attrs' must be a str or a list of str, but got {attrs!r}.")

    def wrap(init: Callable) -> Callable:
        if inspect.isclass(init):
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the class {init.__name__}.")
        if getattr(init, "__name__", "") != "__init__":
            raise ValueError("The lazy_inline should decorate the __init__ function, not the function: "
                             f"{getattr(init, '__name__', init)!r}.")

        @functools.wraps(init)
        def lazy_inline_init(self: Any, *args: Any, **kwargs: Any) -> None:
            init(self, *args, **kwargs)
        return lazy_inline_init
    return wrap if fn is None else wrap(fn)


def no_inline(fn: Callable | None = None) -> Any:
    """Mark a function not to be inlined (a pass-through on TensorFlow)."""
    if fn is None:
        return lambda f: f
    return fn


def _mutable_ok(value: Any, seen: set) -> bool:
    if id(value) in seen:
        return False
    if isinstance(value, (tuple, list)):
        seen.add(id(value))
        ok = all(_mutable_ok(v, seen) for v in value)
        seen.discard(id(value))
        return ok
    if isinstance(value, dict):
        seen.add(id(value))
        ok = all(_mutable_ok(v, seen) for v in value.values())
        seen.discard(id(value))
        return ok
    return isinstance(value, (Tensor, int, float, tf.Tensor))


def mutable(input_data: Any, dynamic_len: bool = False) -> Any:
    """Mark ``input_data`` as a variable input of compiled functions.

    Tensors already are variable inputs of ``tf.function``, so the data is returned as it is
    (a Tensor is marked ``const_arg=False``).

    Args:
        input_data: a bool, int, float, Tensor, or a tuple, list or dict nesting them.
        dynamic_len: whether a list or tuple may change length (accepted for compatibility).

    Returns:
        The input.

    Raises:
        TypeError: for other inputs, a non-bool ``dynamic_len``, or ``dynamic_len`` without a
            list or tuple.

    Example:
        >>> mutable((1, 2))
        (1, 2)
    """
    if not _mutable_ok(input_data, set()):
        raise TypeError("For 'mutable', the 'input_data' should be one of (bool, int, float, Tensor, tuple, list, "
                        "dict) or their nested structures with no self-reference, but got "
                        f"{type(input_data).__name__}: {input_data!r}.")
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the 'dynamic_len' should be bool, but got {type(dynamic_len).__name__}.")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError("For 'mutable', when the 'dynamic_len' is True, the first input should be list or tuple, "
                        f"but got: {type(input_data).__name__}")
    if isinstance(input_data, Tensor):
        input_data.set_const_arg(False)
    return input_data

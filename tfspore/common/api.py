"""``jit``, ``JitConfig``, ``lazy_inline`` and friends: compilation entry points on ``tf.function``.

``jit`` compiles a function (or method) with ``tf.function`` in both modes, as MindSpore's
``@jit`` does; ``jit_level='O2'`` (or ``jit_compile=True``) adds XLA. Cells and other ``jit``
functions called inside it run as plain Python within the trace.

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
from typing import Any, Callable

import tensorflow as tf

from tfspore.common import _state
from tfspore.common.tensor import _unwrap_nest, _wrap_nest

__all__ = ["jit", "JitConfig", "lazy_inline", "ms_function", "mutable", "no_inline"]

_JIT_LEVELS = ("", "O0", "O1", "O2")


class JitConfig:
    """Compilation options for a Cell (``Cell.set_jit_config``) or ``Model``.

    Args:
        jit_level: '' / 'O0' / 'O1' (``tf.function``) or 'O2' (``tf.function`` with XLA).
        exc_mode: accepted for compatibility ('auto', 'sink', 'no_sink').
        jit_syntax_level: accepted for compatibility.
        debug_level: accepted for compatibility.
        infer_boost: accepted for compatibility.
        **kwargs: extra options; ``jit_compile=True/False`` sets XLA explicitly.

    Raises:
        ValueError: for an unknown ``jit_level`` or ``exc_mode``.

    Example:
        >>> JitConfig(jit_level="O2").jit_config_dict["jit_level"]
        'O2'
    """

    def __init__(self, jit_level: str = "", exc_mode: str = "auto", jit_syntax_level: str = "",
                 debug_level: str = "RELEASE", infer_boost: str = "off", **kwargs: Any) -> None:
        if jit_level not in _JIT_LEVELS:
            raise ValueError(f"For 'JitConfig', the 'jit_level' must be one of {list(_JIT_LEVELS)}, but got "
                             f"{jit_level!r}.")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError(f"For 'JitConfig', the 'exc_mode' must be one of ['auto', 'sink', 'no_sink'], but got "
                             f"{exc_mode!r}.")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError(f"For 'JitConfig', the 'debug_level' must be 'RELEASE' or 'DEBUG', but got "
                             f"{debug_level!r}.")
        self.jit_config_dict = dict(kwargs)
        self.jit_config_dict.update({"jit_level": jit_level, "exc_mode": exc_mode,
                                     "jit_syntax_level": jit_syntax_level, "debug_level": debug_level,
                                     "infer_boost": infer_boost})

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

    def _compiled(self) -> Any:
        if self._tf_fn is None:
            fn = self._fn

            def traced(*args: Any, **kwargs: Any) -> Any:
                with _state.entered():
                    return _unwrap_nest(fn(*_wrap_nest(args), **_wrap_nest(kwargs)))
            self._tf_fn = tf.function(traced, jit_compile=self._jit_compile, input_signature=self._input_signature,
                                      autograph=False)
        return self._tf_fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _state.depth() > 0:
            return self._fn(*args, **kwargs)
        return _wrap_nest(self._compiled()(*_unwrap_nest(args), **_unwrap_nest(kwargs)))

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> Any:
        """The traced ``tf.function`` for these inputs."""
        return self._compiled().get_concrete_function(*_unwrap_nest(args), **_unwrap_nest(kwargs))


def jit(function: Callable | None = None, *, capture_mode: str = "ast", jit_level: str = "O0", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options: Any) -> Any:
    """Compile ``function`` into a TensorFlow graph (``tf.function``).

    Args:
        function: the function or method; ``@jit`` and ``@jit(...)`` both work.
        capture_mode: 'ast', 'bytecode' or 'trace' (all compile through ``tf.function`` tracing).
        jit_level: 'O0' / 'O1' plain graph; 'O2' graph with XLA.
        dynamic: accepted for compatibility.
        fullgraph: accepted for compatibility.
        backend: accepted for compatibility ('ms_backend', 'GE' or '').
        **options: ``jit_compile`` (bool) sets XLA explicitly; ``input_signature`` fixes the signature.

    Returns:
        The compiled callable (or a decorator when ``function`` is None).

    Raises:
        ValueError: for an unknown ``capture_mode`` or ``jit_level``.
    """
    if capture_mode not in ("ast", "bytecode", "trace"):
        raise ValueError(f"For 'jit', the 'capture_mode' must be one of ['ast', 'bytecode', 'trace'], but got "
                         f"{capture_mode!r}.")
    if jit_level not in _JIT_LEVELS:
        raise ValueError(f"For 'jit', the 'jit_level' must be one of {list(_JIT_LEVELS)}, but got {jit_level!r}.")
    jit_compile = options.pop("jit_compile", True if jit_level == "O2" else None)
    signature = options.pop("input_signature", None)

    def wrap(fn: Callable) -> _JitFunction:
        if not callable(fn):
            raise TypeError(f"For 'jit', the 'function' must be callable, but got {type(fn).__name__}.")
        return _JitFunction(fn, jit_compile, signature)
    return wrap if function is None else wrap(function)


def ms_function(fn: Callable | None = None, input_signature: Any = None, hash_args: Any = None,
                jit_config: Any = None) -> Any:
    """MindSpore 1.x name of :func:`jit`."""
    return jit(fn) if fn is not None else jit


def lazy_inline(fn: Callable | None = None, attrs: Any = None, policy: Any = None) -> Any:
    """Mark a Cell's ``__init__`` for lazy inlining; TensorFlow's tracing inlines anyway, so it is a pass-through."""
    if fn is None:
        return lambda f: f
    return fn


def no_inline(fn: Callable | None = None) -> Any:
    """Mark a function not to be inlined (pass-through on TensorFlow)."""
    if fn is None:
        return lambda f: f
    return fn


def mutable(input_data: Any, dynamic_len: bool = False) -> Any:
    """Mark ``input_data`` as a variable graph input; tensors already are, so the data is returned unchanged."""
    return input_data

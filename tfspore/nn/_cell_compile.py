"""The compiled step of a Cell: ``construct`` as a cached ``tf.function`` (MindSpore's GRAPH_MODE).

In GRAPH_MODE the outermost Cell call runs :meth:`CellCompile.compiled_construct`: one
``tf.function`` per cache key (the training flag, precision, hooks and recompute setting of every
cell in the tree, the mode, the jit setting and the identity of the variables) and input
signature. The key is recomputed only when the configuration epoch
(``tfspore/_internal/state.py``) moved, so a call costs one integer comparison before
TensorFlow's own dispatch. ``set_inputs`` fixes the signature (None dims are dynamic), and
``set_jit_config`` / ``JitConfig(jit_level="O2")`` turn on XLA.
"""
from __future__ import annotations

import inspect
import logging
from typing import Any

import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import state as _state
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap_nest as _wrap_nest
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor


_logger = logging.getLogger("tfspore")

def _input_spec(value: Any) -> Any:
    """The ``tf.TensorSpec`` (nested in tuples) of a ``set_inputs`` input; negative or None dims are dynamic."""
    if isinstance(value, (tuple, list)):
        return tuple(_input_spec(v) for v in value)
    if isinstance(value, Tensor):
        shape = [None if d is None or (isinstance(d, int) and d < 0) else d for d in value.shape]
        return tf.TensorSpec(shape, value.dtype.tf_dtype)
    if isinstance(value, tf.Tensor):
        return tf.TensorSpec.from_tensor(value)
    raise TypeError(f"For 'set_inputs', every input must be a Tensor (or a tuple of Tensors), but got {value!r} of "
                    f"type {type(value).__name__}.")

def _wrap_args(struct: Any) -> Any:
    """:func:`_wrap_nest` for the inputs of a compiled construct: a Parameter's variable maps back to
    the Parameter, so that construct can update an argument Parameter in place."""
    if isinstance(struct, tf.Variable):
        from tfspore.common.parameter import parameter_of as _parameter_of
        owner = _parameter_of(struct)
        if owner is not None:
            return owner
    if isinstance(struct, (list, tuple)) and not hasattr(struct, "_fields"):
        return type(struct)(_wrap_args(s) for s in struct)
    if isinstance(struct, dict):
        return {k: _wrap_args(v) for k, v in struct.items()}
    return _wrap_nest(struct)


class CellCompile:
    """The compiled construct of :class:`~tfspore.nn.Cell` (GRAPH_MODE)."""

    def set_jit_config(self, jit_config: Any) -> None:
        """Configure compilation: ``jit_level`` 'O2' (or ``jit_compile=True``) compiles this cell with XLA.

        The config can be set once; later calls are ignored with a warning.

        Args:
            jit_config: a :class:`~tfspore.JitConfig` (or a dict of its options).

        Raises:
            TypeError: when ``jit_config`` is neither.

        Example:
            >>> net.set_jit_config(tfspore.JitConfig(jit_level="O2"))
        """
        cfg = getattr(jit_config, "jit_config_dict", jit_config)
        if not isinstance(cfg, dict):
            raise TypeError(f"For 'set_jit_config', the 'jit_config' must be a JitConfig, but got {jit_config!r} of "
                            f"type {type(jit_config).__name__}.")
        if self._jit_config_dict:
            _logger.warning("For Cell, jit config can only be set once, ignore this setting.")
            return
        self.__dict__["_jit_config_dict"] = dict(cfg)
        _state.bump()

    def _get_attr_from_cell(self, network: Any) -> None:
        """Take the jit config and the amp level of ``network``, the cell this one wraps (MindSpore's
        ``Cell._get_attr_from_cell``, called by the wrappers of ``nn.wrap`` and ``amp``)."""
        if not isinstance(network, CellCompile):
            return
        jit_config = network.jit_config_dict
        if jit_config:
            self.__dict__["_jit_config_dict"] = dict(jit_config)
        amp_level = network.__dict__.get("_amp_level")
        if amp_level is not None:
            self.__dict__["_amp_level"] = amp_level

    def _jit_compile(self) -> bool | None:
        cfg = self._jit_config_dict
        if "jit_compile" in cfg:
            return bool(cfg["jit_compile"])
        if cfg.get("jit_level") == "O2":
            return True
        if cfg.get("jit_level") in ("O0", "O1"):
            return None
        return _context._jit_compile_default()

    def set_inputs(self, *inputs: Any, **kwargs: Any) -> None:
        """Fix the input signature of the compiled construct; ``None`` (or -1) dims are dynamic.

        Inputs with a new size along a dynamic dim reuse the compiled graph instead of tracing again.

        Args:
            *inputs: one Tensor per construct input (full mode), usually
                ``Tensor(shape=[None, 3], dtype=mstype.float32)``.
            **kwargs: Tensors for some construct inputs, by name (incremental mode); the others
                take the shapes of the actual inputs.

        Raises:
            ValueError: when both ``inputs`` and ``kwargs`` are given.
            TypeError: when an input is not a Tensor, or (GRAPH_MODE) their number does not fit
                ``construct``.

        Example:
            >>> net.set_inputs(Tensor(shape=[None, 3], dtype=mstype.float32))
        """
        if inputs and kwargs:
            raise ValueError(f"For Cell, set_inputs should only set inputs or kwargs(inputs: {inputs}, kwargs: "
                             f"{kwargs})!")
        if kwargs:
            names = list(inspect.signature(self.construct).parameters)
            for name, value in kwargs.items():
                if name not in names:
                    raise TypeError(f"For 'set_inputs', '{name}' is not an input of {self.cls_name}.construct "
                                    f"{tuple(names)}.")
                _input_spec(value)
            self.__dict__["_dynamic_shape_inputs"] = dict(kwargs)
            self.__dict__["_input_specs"] = None
        else:
            specs = tuple(_input_spec(t) for t in inputs)
            if _context._mode() == _context.GRAPH_MODE:
                self._check_construct_args(len(inputs))
            self.__dict__["_dynamic_shape_inputs"] = tuple(inputs)
            self.__dict__["_input_specs"] = specs
        _state.bump()

    def get_inputs(self) -> tuple | dict | None:
        """The inputs given to :meth:`set_inputs` (a dict in incremental mode), or None."""
        return self._dynamic_shape_inputs

    def _check_construct_args(self, n: int) -> None:
        params = inspect.signature(self.construct).parameters.values()
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            return
        required = sum(1 for p in params if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty)
        optional = sum(1 for p in params if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is not p.empty)
        if n < required or n > required + optional:
            raise TypeError(f"For 'Cell', the function construct requires {required} positional argument and "
                            f"{optional} default argument, total {required + optional}, but got {n}.")

    def _signature(self, args: tuple) -> tuple | None:
        """The input signature of a call with positional ``args`` (None without :meth:`set_inputs`)."""
        dyn = self._dynamic_shape_inputs
        if dyn is None:
            return None
        if isinstance(dyn, tuple):
            return self._input_specs
        names = [p.name for p in inspect.signature(self.construct).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return tuple(_input_spec(dyn[names[i]] if i < len(names) and names[i] in dyn else a)
                     for i, a in enumerate(args))

    def _graph_function(self, args: tuple, kwargs: dict) -> tuple[Any, tuple, dict]:
        """The compiled construct for this call and the arguments to call it with."""
        if self._dynamic_shape_inputs is not None and kwargs:
            bound = inspect.signature(self.construct).bind(*args, **kwargs)
            args, kwargs = bound.args, bound.kwargs
        signature = self._signature(args)
        if signature is not None and len(signature) != len(args):
            raise TypeError(f"For '{self.cls_name}', set_inputs gave {len(signature)} inputs, but the call got "
                            f"{len(args)}.")
        return self.compiled_construct(signature), args, kwargs

    def _cache_key(self) -> tuple:
        ep = _state.epoch()
        if self._key_epoch != ep:
            flags = []
            for _, c in self.cells_and_names():
                flags.append((c.training, c._mixed_precision_type, c.__dict__.get("_amp_cell"),
                              tuple(c._forward_pre_hook),
                              tuple(c._forward_hook), tuple(c._backward_pre_hook), tuple(c._backward_hook),
                              c._recompute_cell is not None))
            key = (tuple(flags), _context._mode(), self._jit_compile(),
                   tuple(id(p._var) for p in self.get_parameters()))
            self.__dict__["_key"] = key
            self.__dict__["_key_epoch"] = ep
        return self._key

    def compiled_construct(self, signature: tuple | None = None) -> Any:
        """The compiled construct: the ``tf.function`` a GRAPH_MODE call of this cell runs.

        It takes and returns TensorFlow values (nested in tuples, lists and dicts; a Parameter's
        ``tf.Variable`` stands for the Parameter) and runs ``construct`` as the outermost cell. One
        function is kept per configuration (training flags, precision, hooks, mode, jit setting,
        variables) and ``signature``, so calling this again without a change returns the same
        function and its traces. The step engine of ``tfspore.train`` runs it inside its own compiled
        loops and under ``strategy.run``.

        Args:
            signature: the ``tf.TensorSpec`` input signature (None: traced per input shapes, as
                without :meth:`set_inputs`).

        Returns:
            A ``tf.function`` (``get_concrete_function`` traces it without running).

        Example:
            >>> fn = net.compiled_construct()
            >>> out = fn(tf.ones((2, 3)))   # a tf.Tensor
        """
        key = (self._cache_key(), signature)
        fn = self._compiled.get(key)
        if fn is None:
            def traced(*args: Any, **kwargs: Any) -> Any:
                with _state.entered():
                    return _unwrap_nest(self._run(_wrap_args(args), _wrap_args(kwargs)))
            fn = tf.function(traced, input_signature=signature, jit_compile=self._jit_compile(), autograph=False)
            self._compiled[key] = fn
        return fn

    def compile(self, *args: Any, **kwargs: Any) -> Any:
        """Trace the compiled construct for these inputs without running it.

        Returns:
            The ``tf.types.experimental.ConcreteFunction`` (its ``.graph`` is the TF graph).
        """
        self._self_check()
        fn, args, kwargs = self._graph_function(args, kwargs)
        return fn.get_concrete_function(*_unwrap_nest(args), **_unwrap_nest(kwargs))

    def compile_and_run(self, *args: Any, **kwargs: Any) -> Any:
        """Compile the cell (GRAPH_MODE semantics, whatever the mode) and run it on the inputs."""
        self._self_check()
        fn, args, kwargs = self._graph_function(args, kwargs)
        return _wrap_nest(fn(*_unwrap_nest(args), **_unwrap_nest(kwargs)))

    @property
    def jit_config_dict(self) -> dict:
        """The jit config set by :meth:`set_jit_config`."""
        return self._jit_config_dict

"""``tfspore.nn.Cell``: MindSpore's network building block on ``tf.Module``.

A Cell keeps its own ordered registries of parameters, child cells and buffers (definition
order, as MindSpore), names parameters as MindSpore does, and runs ``construct``:

* in PYNATIVE_MODE eagerly, with forward and backward hooks;
* in GRAPH_MODE the outermost call runs a cached ``tf.function`` (one trace per input
  signature and configuration); Cells called inside it are plain Python within the trace.
  Hooks still see concrete values: inside a trace they run through ``tf.py_function``.

The class is split by concept into mixins beside this module, which keeps the registries,
``__setattr__``, the flags and ``__call__``: ``_cell_tree`` (walking sub-cells, parameters and
buffers), ``_cell_compile`` (the compiled construct of GRAPH_MODE), ``_cell_hooks`` (forward and
backward hooks), ``_cell_precision`` (``to_float``, ``recompute``), ``_cell_state_dict`` and
``_cell_parallel`` (MindSpore's parallel settings, accepted with no effect).

Example:
    >>> from tfspore import nn
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.dense = nn.Dense(2, 2)
    ...     def construct(self, x):
    ...         return self.dense(x)
    >>> [p.name for p in Net().get_parameters()]
    ['dense.weight', 'dense.bias']
"""
from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any, Callable

import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import control_flow as _control_flow, runtime_check, state as _state, validator
from tfspore._internal.tensor_wrap import as_tf as _as_tf, unwrap_nest as _unwrap_nest, wrap_nest as _wrap_nest
from tfspore.common.parameter import (BufferTensor as _BufferTensor, Parameter, ParameterTuple,
                                      is_generated_name as _is_generated)
from tfspore.common.tensor import Tensor
from tfspore.nn._cell_compile import CellCompile
from tfspore.nn._cell_hooks import CellHooks
from tfspore.nn._cell_parallel import CellParallelNoOps
from tfspore.nn._cell_precision import _PRECISION_FLAGS, CellPrecision
from tfspore.nn._cell_state_dict import CellStateDict
from tfspore.nn._cell_tree import CellTree

__all__ = ["Cell", "GraphCell"]


def _is_param_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and not isinstance(value, ParameterTuple) and len(value) > 0 and all(
        isinstance(v, Parameter) for v in value)


class Cell(CellTree, CellHooks, CellPrecision, CellStateDict, CellCompile, CellParallelNoOps, tf.Module):
    """The base class of every network and layer.

    Args:
        auto_prefix: whether the parameters of child cells are renamed with the child's
            attribute name as prefix (``child.weight``) when the child is assigned.
        flags: attributes to set on the cell (:meth:`add_flags`).

    Raises:
        AttributeError: when called without a ``construct`` method.

    Example:
        >>> class MyCell(Cell):
        ...     def construct(self, x):
        ...         return x * 2
        >>> MyCell()
        MyCell()
    """

    IGNORE_LIST = ("_scope", "_cell_init_args", "_auto_prefix", "_cells", "_params", "_create_time",
                   "_func_graph_flags", "_parameter_layout_dict", "_params_list", "_phase", "_bprop_debug",
                   "_forward_pre_hook", "_forward_hook", "_backward_hook", "_backward_pre_hook")

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_params_list"] = OrderedDict()
        d["_non_persistent_buffers_set"] = set()
        d["_auto_prefix"] = bool(auto_prefix)
        d["_compiled"] = {}
        d["_key_epoch"] = -1
        d["_key"] = None
        d["_forward_pre_hook"] = OrderedDict()
        d["_forward_pre_hook_with_kwargs"] = {}
        d["_forward_hook"] = OrderedDict()
        d["_forward_hook_with_kwargs"] = {}
        d["_forward_hook_always_called"] = {}
        d["_backward_pre_hook"] = OrderedDict()
        d["_backward_hook"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()
        d["_parameter_forward_hooks"] = []
        d["_user_name"] = None
        tf.Module.__init__(self, name=None)
        d["training"] = False
        d["requires_grad"] = False
        d["_phase"] = "train"
        d["_mixed_precision_type"] = None
        d["_jit_config_dict"] = {}
        d["_dynamic_shape_inputs"] = None
        d["_input_specs"] = None
        d["_recompute_cell"] = None
        d["_has_config_recompute"] = False
        d["_is_check_and_refresh"] = False
        d["_param_prefix"] = ""
        d["_cell_init_args"] = ""
        d["_scope"] = None
        d["_bprop_debug"] = False
        d["_pipeline_stage"] = -1
        d["_parameter_layout_dict"] = {}
        d["cell_type"] = None
        if flags:
            self.add_flags(**flags)
        _state.bump()

    # --------------------------------------------------------------- identity
    @property
    def name(self) -> str:
        """The cell's name (its class name unless set)."""
        return self._user_name if self._user_name is not None else self.__class__.__name__

    @name.setter
    def name(self, value: str) -> None:
        self.__dict__["_user_name"] = value

    @property
    def cls_name(self) -> str:
        """The class name."""
        return self.__class__.__name__

    @property
    def phase(self) -> str:
        """'train' or 'predict' (set by :meth:`set_train`)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the property 'phase' must be string type, but got type {type(value)}.")
        self.__dict__["_phase"] = value

    @property
    def compiled(self) -> bool:
        """Whether the cell has been compiled (GRAPH_MODE call, :meth:`compile`)."""
        return bool(self._compiled)

    @property
    def param_prefix(self) -> str:
        """The path of this cell inside the network last updated by :meth:`update_cell_prefix`."""
        return self._param_prefix

    # ---------------------------------------------------------- attributes
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for reg in ("_params", "_buffers", "_cells", "_params_list"):
            r = d.get(reg)
            if r is not None and name in r:
                return r[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if "_params" not in d:
            if isinstance(value, (Cell, Parameter)):
                raise AttributeError(f"For '{type(self).__name__}', call 'super().__init__()' in __init__ before "
                                     f"assigning the attribute '{name}'.")
            object.__setattr__(self, name, value)
        elif isinstance(value, Parameter):
            d.pop(name, None)
            self.insert_param_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            self._set_attr_for_param_tuple(name, value)
        elif _is_param_sequence(value):
            self._check_unique_names(value)
            object.__setattr__(self, name, value)
        elif isinstance(value, Cell):
            d.pop(name, None)
            if self._auto_prefix:
                value.update_parameters_name(name + ".")
            self.insert_child_to_cell(name, value)
        elif isinstance(value, _BufferTensor):
            d.pop(name, None)
            self.register_buffer(name, value, value.persistent)
        else:
            self._set_attr_for_object(name, value)

    @staticmethod
    def _check_unique_names(value: Any) -> None:
        seen, names = set(), set()
        for item in value:
            if id(item) in seen:
                continue
            seen.add(id(item))
            if item.name in names:
                raise ValueError(f"The value {value} , its name '{item.name}' already exists. Please set a unique "
                                 "name for the parameter.")
            names.add(item.name)

    def _set_attr_for_param_tuple(self, name: str, value: ParameterTuple) -> None:
        self._check_unique_names(value)
        seen = set()
        for item in value:
            if id(item) not in seen:
                seen.add(id(item))
                self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)
        object.__setattr__(self, name, value)

    def _set_attr_for_object(self, name: str, value: Any) -> None:
        d = self.__dict__
        if name in d["_params"]:
            if value is None:
                d["_params"][name] = None
                _state.bump()
            elif isinstance(value, Tensor):
                d["_params"][name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                                f"'{type(value)}' as a parameter (got {value!r}).")
            return
        for reg, kind in (("_cells", "Sub cell"), ("_buffers", "Buffer")):
            if name in d[reg]:
                if value is not None:
                    what = "a cell" if reg == "_cells" else "a buffer"
                    raise TypeError(f"{kind} '{name}' already exists in network, can not assign this type: "
                                    f"'{type(value)}' as {what} (got {value!r}).")
                d[reg][name] = None
                _state.bump()
                return
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        for reg in ("_params", "_buffers", "_cells", "_params_list"):
            r = self.__dict__[reg]
            if name in r:
                del r[name]
                _state.bump()
                return
        object.__delattr__(self, name)

    def __bool__(self) -> bool:
        return True

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __deepcopy__(self, memo: dict) -> "Cell":
        cls = self.__class__
        new = cls.__new__(cls)
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            if k == "_compiled":
                new.__dict__[k] = {}
            elif k == "_key":
                new.__dict__[k] = None
            elif k == "_key_epoch":
                new.__dict__[k] = -1
            elif k == "_name_scope":
                new.__dict__[k] = v
            else:
                new.__dict__[k] = copy.deepcopy(v, memo)
        return new

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_compiled"] = {}
        state["_key"] = None
        state["_key_epoch"] = -1
        state.pop("_name_scope", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__dict__["_name_scope"] = tf.name_scope(self.__class__.__name__)

    # ------------------------------------------------------------ registries
    def insert_param_to_cell(self, param_name: str, param: Parameter | None,
                             check_name_contain_dot: bool = True) -> None:
        """Register ``param`` under ``param_name`` (a generated name becomes ``param_name``).

        Args:
            param_name: the attribute name.
            param: a Parameter, or None to clear the slot.
            check_name_contain_dot: whether a '.' in the name is rejected.

        Raises:
            KeyError: when the name is empty, contains '.', or clashes with another attribute.
            TypeError: when ``param`` is not a Parameter or None.

        Example:
            >>> net.insert_param_to_cell("bias", Parameter(Tensor([1, 2, 3])))
        """
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if not isinstance(param_name, str):
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' must be str, but got "
                           f"{type(param_name).__name__}.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' should not contain'.', but got "
                           f"'{param_name}'.")
        if "_params" not in self.__dict__:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() firstly.")
        if self._taken_elsewhere(param_name, self._params):
            raise KeyError(f"For 'insert_param_to_cell', the {param_name} parameter already exists in the network."
                           "Cannot insert another parameter with the same name.")
        if not isinstance(param, Parameter) and param is not None:
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if isinstance(param, Parameter) and _is_generated(param.name):
            param.name = param_name
        self._params[param_name] = param
        _state.bump()

    def _taken_elsewhere(self, name: str, registry: dict) -> bool:
        """Whether ``name`` is not in ``registry`` (parameters, cells or buffers) but is another attribute."""
        return name not in registry and (name in self.__dict__ or name in self._params or name in self._cells
                                         or name in self._buffers)

    def insert_child_to_cell(self, child_name: str, child_cell: "Cell | None") -> None:
        """Register ``child_cell`` under ``child_name`` (no renaming of its parameters).

        Args:
            child_name: the attribute name.
            child_cell: a Cell, or None to clear the slot.

        Raises:
            TypeError: when the name is not a str or the child not a Cell or None.
            KeyError: when the name is empty, contains '.', or clashes with another attribute.

        Example:
            >>> net.insert_child_to_cell("child", nn.Dense(2, 2))
        """
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' must be str, "
                            f"but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError(f"For 'insert_child_to_cell', the parameter 'child_name' can not be None and can not "
                           f"contain '.', but got '{child_name}'.")
        if self._taken_elsewhere(child_name, self._cells):
            raise KeyError(f"For 'insert_child_to_cell', the {child_name} child cell already exists in the network."
                           "Cannot insert another child cell with the same name.")
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got type {type(child_cell)}.")
        self._cells[child_name] = child_cell
        _state.bump()

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register ``tensor`` as a buffer: Cell state that is not a parameter.

        Args:
            name: the attribute name.
            tensor: the value (kept in a non-trainable ``tf.Variable``), or None.
            persistent: whether :meth:`state_dict` includes it.

        Raises:
            TypeError: when ``name`` is not a str or ``tensor`` not a Tensor or None.
            KeyError: when ``name`` is empty, contains '.', or is already another attribute.

        Example:
            >>> net.register_buffer("buffer0", tfspore.tensor([1, 2, 3]))
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("For 'register_buffer', cannot assign buffer before Cell.__init__() call.")
        if not isinstance(name, str):
            raise TypeError(f"For 'register_buffer', buffer name should be a string. But got this type: "
                            f"{type(name)}.")
        if "." in name:
            raise KeyError(f"For 'register_buffer', buffer name can't contain \".\", but got '{name}'.")
        if name == "":
            raise KeyError("For 'register_buffer', buffer name can't be empty string \"\".")
        if self._taken_elsewhere(name, self._buffers):
            raise KeyError(f"For 'register_buffer', attribute '{name}' already exists.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"For 'register_buffer', cannot assign '{type(tensor)}' object to buffer '{name}' "
                            f"(mindspore Tensor or None required), but got {tensor!r}.")
        if tensor is not None and not isinstance(tensor, _BufferTensor):
            tensor = _BufferTensor(tensor, persistent)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)
        _state.bump()

    # ------------------------------------------------------------------ flags
    def add_flags(self, **flags: Any) -> "Cell":
        """Set each flag as an attribute and record it in :meth:`get_flags`; returns self.

        The flags ``fp16``, ``fp32`` and ``bf16`` set to True also select the cell's compute type
        (see :meth:`to_float`).

        Example:
            >>> net.add_flags(sink_mode=True).sink_mode
            True
        """
        self.__dict__.setdefault("_func_graph_flags", {}).update(flags)
        self.__dict__.update(flags)
        for flag, dtype in _PRECISION_FLAGS:
            if flags.get(flag):
                self.__dict__["_mixed_precision_type"] = dtype
        _state.bump()
        return self

    def add_flags_recursive(self, **flags: Any) -> "Cell":
        """:meth:`add_flags` on this cell and every descendant; returns self."""
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self) -> dict:
        """The flags set with :meth:`add_flags`."""
        return self.__dict__.setdefault("_func_graph_flags", {})

    def set_train(self, mode: bool = True) -> "Cell":
        """Set the training flag of this cell and its descendants; returns self.

        Args:
            mode: True for training ('train' phase), False for inference ('predict').
        """
        self.__dict__["_phase"] = "train" if mode else "predict"
        self.add_flags_recursive(training=mode)
        return self

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        """Mark the cell as differentiated (MindSpore builds a backward graph; TF needs nothing); returns self."""
        self.__dict__["requires_grad"] = requires_grad
        return self

    def set_broadcast_flag(self, mode: bool = True) -> "Cell":
        """Set the ``broadcast_flag`` on this cell and its descendants; returns self."""
        self.add_flags_recursive(broadcast_flag=mode)
        return self

    # --------------------------------------------------------------- printing
    def _get_name(self) -> str:
        return self.__class__.__name__

    def extend_repr(self) -> str:
        """Extra text for ``repr``; override in subclasses."""
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for key, cell in self._cells.items():
            text = repr(cell).split("\n")
            child_lines.append(f"({key}): " + "\n".join([text[0]] + ["  " + t for t in text[1:]]))
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __str__(self) -> str:
        return self.__repr__()

    # ---------------------------------------------------------------- running
    def construct(self, *args: Any, **kwargs: Any) -> Any:
        """The forward computation; every subclass must override it.

        Raises:
            AttributeError: when not overridden.
        """
        raise AttributeError(f"For 'Cell', the method 'construct' is not defined: '{type(self).__name__}' must "
                             "override construct().")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._self_check()
        if _state.depth() > 0 or _context._mode() == _context.PYNATIVE_MODE:
            with _state.entered():
                return self._run(args, kwargs)
        fn, args, kwargs = self._graph_function(args, kwargs)
        try:
            return _wrap_nest(fn(*_unwrap_nest(args), **_unwrap_nest(kwargs)))
        except tf.errors.InvalidArgumentError as e:  # a failed `assert` on a Tensor is an AssertionError
            _control_flow.raise_assertion(e)
            runtime_check.raise_runtime_error(e)  # a failed index check: RuntimeError
            raise

    def _self_check(self) -> None:
        """Before the first run: check that ``Cell.__init__`` ran and make parameter names unique."""
        if self.__dict__.get("_is_check_and_refresh"):
            return
        if "_params" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object does not inherit attribute from 'cell'. Please "
                                 "use 'super().__init__()'.")
        self.check_names_and_refresh_name()
        self.__dict__["_is_check_and_refresh"] = True

    def _run(self, args: tuple, kwargs: dict) -> Any:
        """One call: the hooks and ``construct`` (which gets the inputs cast to the compute type)."""
        if self._forward_pre_hook or self._forward_hook or self._backward_hook or self._backward_pre_hook:
            return self._run_construct(args, kwargs)
        return self._run_grad_construct(args, kwargs)

    def _run_grad_construct(self, args: tuple, kwargs: dict) -> Any:
        if self._mixed_precision_type is not None:  # hooks see the inputs as given, as in MindSpore
            args = self.auto_cast_inputs(args)
        amp_cell = self.__dict__.get("_amp_cell")
        if amp_cell is not None:
            return amp_cell.run(args, kwargs, self._run_body)
        return self._run_body(args, kwargs)

    def _run_body(self, args: tuple, kwargs: dict) -> Any:
        if self._recompute_cell is not None:
            return self._run_recompute(args, kwargs)
        return _control_flow.call(self.construct, args, kwargs)


class GraphCell(Cell):
    """A Cell running a loaded graph: wraps a callable (what ``load`` returns for a MindIR file, a
    SavedModel signature, a ``tf.function``, ...).

    A graph that is a ``tf.Module`` (``load``'s result is one) is saved with the cell by
    ``tf.saved_model.save(cell, path)``, its weights included; when the graph is, or has as its
    ``function`` attribute, a ``tf.function`` with an input signature, that function becomes the
    SavedModel's ``serving_default`` signature.

    Args:
        graph: a callable taking and returning tensors.
        params_init: ``{parameter name: Tensor}`` values that replace the graph's weights of those
            names, for a graph with a ``parameters_dict()`` of variables (``load``'s result); other
            graphs have no weights to replace and ignore it.
        obf_random_seed: accepted for compatibility.

    Raises:
        TypeError: when ``graph`` is not callable, or ``params_init`` is not a dict.
        ValueError: when ``params_init`` names a weight the graph does not have, or gives it another shape.

    Example:
        >>> net = nn.GraphCell(mindspore.load("net.mindir"))  # doctest: +SKIP
        >>> net(Tensor(np.ones((1, 1, 32, 32), np.float32))).shape  # doctest: +SKIP
        (1, 10)
    """

    def __init__(self, graph: Callable, params_init: Any = None, obf_random_seed: Any = None) -> None:
        super().__init__(auto_prefix=True)
        if not callable(graph):
            raise TypeError(f"For 'GraphCell', the 'graph' must be callable, but got {type(graph).__name__}.")
        self.graph = graph
        if params_init is not None:
            self._init_params(params_init)

    def _init_params(self, params_init: Any) -> None:
        validator.check_type(params_init, dict, "params_init", "GraphCell")
        weights = getattr(self.graph, "parameters_dict", None)
        if weights is None:
            return
        weights = weights()
        for name, value in params_init.items():
            if name not in weights:
                raise ValueError(f"For 'GraphCell', the 'params_init' key {name!r} is not a parameter of the graph, "
                                 f"whose parameters are {sorted(weights)}.")
            var = weights[name]
            new = _as_tf(value)
            if new.shape != var.shape:
                raise ValueError(f"For 'GraphCell', the 'params_init' value of {name!r} must have shape "
                                 f"{tuple(var.shape.as_list())}, but got shape {tuple(new.shape.as_list())}.")
            var.assign(tf.cast(new, var.dtype))

    def _trackable_children(self, save_type: Any = "checkpoint", **kwargs: Any) -> dict:
        children = super()._trackable_children(save_type, **kwargs)
        graph = self.__dict__.get("graph")
        if isinstance(graph, tf.Module):
            children["graph"] = graph
        if save_type == "savedmodel":
            for fn in (graph, getattr(graph, "function", None)):
                if getattr(fn, "input_signature", None) is not None and hasattr(fn, "get_concrete_function"):
                    children["_default_save_signature"] = fn
                    break
        return children

    def construct(self, *inputs: Any) -> Any:
        return _wrap_nest(self.graph(*[_unwrap_nest(i) for i in inputs]))

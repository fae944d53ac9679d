"""``tfspore.nn.Cell``: MindSpore's network building block on ``tf.Module``.

A Cell keeps its own ordered registries of parameters, child cells and buffers (definition
order, as MindSpore), names parameters as MindSpore does, and runs ``construct``:

* in PYNATIVE_MODE eagerly, with forward and backward hooks;
* in GRAPH_MODE the outermost call runs a cached ``tf.function`` (one trace per input
  signature and configuration); Cells called inside it are plain Python within the trace.

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
import logging
import re
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Iterator, Mapping

import numpy as np
import tensorflow as tf

from tfspore import context as _context
from tfspore.common import _state
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter, ParameterTuple, _BufferTensor, _is_generated
from tfspore.common.tensor import Tensor, _unwrap_nest, _wrap_nest

__all__ = ["Cell", "GraphCell"]

_logger = logging.getLogger("tfspore")
_WARNED: set = set()
_PREFIX_RE = re.compile(r"^[\w\-./]*$")


def _warn_once(api: str, what: str = "") -> None:
    if api not in _WARNED:
        _WARNED.add(api)
        _logger.warning("For '%s', %s", api, what or "the setting has no effect on TensorFlow and is ignored.")


class HookHandle:
    """A handle returned by the ``register_*_hook`` methods; ``remove()`` unregisters the hook."""

    _next_id = 0

    def __init__(self, hooks: "OrderedDict[int, Any]", extra: "dict | None" = None) -> None:
        HookHandle._next_id += 1
        self.handle_id = HookHandle._next_id
        self._hooks = hooks
        self._extra = extra

    def remove(self) -> None:
        """Unregister the hook."""
        self._hooks.pop(self.handle_id, None)
        if self._extra is not None:
            self._extra.pop(self.handle_id, None)
        _state.bump()

    def __enter__(self) -> "HookHandle":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _check_hook(api: str, fn: Any) -> None:
    if not callable(fn):
        raise TypeError(f"For '{api}', the 'hook_fn' must be a callable function, but got {fn!r} of type "
                        f"{type(fn).__name__}.")


def _is_param_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and not isinstance(value, ParameterTuple) and len(value) > 0 and all(
        isinstance(v, Parameter) for v in value)


class Cell(tf.Module):
    """The base class of every network and layer.

    Args:
        auto_prefix: whether children's parameter names get the attribute name as a prefix.
        flags: attributes to set on the cell (``add_flags``).

    Example:
        >>> class MyCell(Cell):
        ...     def construct(self, x):
        ...         return x * 2
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
        d["_input_signature"] = None
        d["_recompute_cell"] = None
        d["_param_prefix"] = ""
        d["_cell_init_args"] = ""
        d["_bprop_debug"] = False
        d["_pipeline_stage"] = -1
        d["_parameter_layout_dict"] = {}
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
            raise TypeError(f"For 'Cell.phase', the value must be str, but got {type(value).__name__}.")
        self.__dict__["_phase"] = value

    @property
    def param_prefix(self) -> str:
        """The prefix of this cell's parameter names (set by :meth:`update_cell_prefix`)."""
        return self._param_prefix

    @property
    def bprop_debug(self) -> bool:
        """Compatibility flag for custom bprop debugging (no effect on TensorFlow)."""
        return self._bprop_debug

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool, but got {type(value).__name__}.")
        _warn_once("Cell.bprop_debug")
        self.__dict__["_bprop_debug"] = value

    @property
    def pipeline_stage(self) -> int:
        """The pipeline stage (MindSpore's pipeline parallelism; no effect on TensorFlow)."""
        return self._pipeline_stage

    @pipeline_stage.setter
    def pipeline_stage(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise TypeError(f"For 'Cell', the property 'pipeline_stage' must be a non-negative int, but got {value!r}.")
        _warn_once("Cell.pipeline_stage")
        self.__dict__["_pipeline_stage"] = value

    @property
    def parameter_layout_dict(self) -> dict:
        """The parameter layouts of MindSpore's auto-parallel (empty on TensorFlow)."""
        return self._parameter_layout_dict

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value: dict) -> None:
        if not isinstance(value, dict):
            raise TypeError(f"For 'Cell', the property 'parameter_layout_dict' must be dict, but got "
                            f"{type(value).__name__}.")
        _warn_once("Cell.parameter_layout_dict")
        self.__dict__["_parameter_layout_dict"] = value

    @property
    def jit_config_dict(self) -> dict:
        """The jit config set by :meth:`set_jit_config`."""
        return self._jit_config_dict

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
            return
        if isinstance(value, Parameter):
            d.pop(name, None)
            self.insert_param_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            seen = set()
            names = set()
            for item in value:
                if id(item) in seen:
                    continue
                seen.add(id(item))
                if item.name in names:
                    raise ValueError(f"The value {value} , its name '{item.name}' already exists. Please set a unique "
                                     "name for the parameter.")
                names.add(item.name)
                self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)
            object.__setattr__(self, name, value)
        elif _is_param_sequence(value):
            names = set()
            for item in value:
                if item.name in names:
                    raise ValueError(f"The value {value} , its name '{item.name}' already exists. Please set a unique "
                                     "name for the parameter.")
                names.add(item.name)
            object.__setattr__(self, name, value)
        elif isinstance(value, Cell):
            d.pop(name, None)
            if self._auto_prefix:
                value.update_parameters_name(name + ".")
            self.insert_child_to_cell(name, value)
        elif isinstance(value, _BufferTensor):
            d.pop(name, None)
            self.register_buffer(name, value)
        else:
            params, cells, buffers = d["_params"], d["_cells"], d["_buffers"]
            if name in params:
                if value is None:
                    params[name] = None
                elif isinstance(value, Tensor):
                    params[name].set_data(value)
                else:
                    raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                                    f"'{type(value)}' as a parameter.")
                return
            if name in cells:
                if value is not None:
                    raise TypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                                    f"'{type(value)}' as a cell.")
                cells[name] = None
                _state.bump()
                return
            if name in buffers:
                if value is None:
                    buffers[name] = None
                elif isinstance(value, Tensor):
                    buffers[name]._set_value(tf.convert_to_tensor(value._value(), buffers[name]._var.dtype))
                else:
                    raise TypeError(f"Buffer '{name}' already exists in network, can not assign this type: "
                                    f"'{type(value)}' as a buffer.")
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

    def __deepcopy__(self, memo: dict) -> "Cell":
        cls = self.__class__
        new = cls.__new__(cls)
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            if k == "_compiled":
                new.__dict__[k] = {}
            elif k in ("_key", "_name_scope"):
                new.__dict__[k] = None if k == "_key" else v
            elif k == "_key_epoch":
                new.__dict__[k] = -1
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
        """Register ``param`` under ``param_name``.

        Raises:
            KeyError: when the name is empty, contains '.', or clashes with another attribute.
            TypeError: when ``param`` is not a Parameter or None.
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
        if param_name not in self._params and (param_name in self.__dict__ or param_name in self._cells
                                               or param_name in self._buffers):
            raise KeyError(f"For 'insert_param_to_cell', the {param_name} parameter already exists in the network."
                           "Cannot insert another parameter with the same name.")
        if not isinstance(param, Parameter) and param is not None:
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if isinstance(param, Parameter) and _is_generated(param.name):
            param.name = param_name
        self._params[param_name] = param
        _state.bump()

    def insert_child_to_cell(self, child_name: str, child_cell: "Cell | None") -> None:
        """Register ``child_cell`` under ``child_name``.

        Raises:
            TypeError: when the name is not a str or the child not a Cell or None.
            KeyError: when the name is empty, contains '.', or clashes with another attribute.
        """
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' must be str, "
                            f"but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError(f"For 'insert_child_to_cell', the parameter 'child_name' can not be None and can not "
                           f"contain '.', but got '{child_name}'.")
        if child_name not in self._cells and (child_name in self.__dict__ or child_name in self._params
                                              or child_name in self._buffers):
            raise KeyError(f"For 'insert_child_to_cell', the {child_name} child cell already exists in the network."
                           "Cannot insert another child cell with the same name.")
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got type {type(child_cell)}.")
        self._cells[child_name] = child_cell
        _state.bump()

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register ``tensor`` as a buffer (state that is not a parameter).

        Raises:
            TypeError: when ``name`` is not a str or ``tensor`` not a Tensor or None.
            KeyError: when ``name`` is empty, contains '.', or is already an attribute.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("For 'register_buffer', please call Cell.__init__() firstly.")
        if not isinstance(name, str):
            raise TypeError(f"For 'register_buffer', the 'name' must be str, but got {type(name).__name__}.")
        if not name or "." in name:
            raise KeyError(f"For 'register_buffer', the 'name' can not be empty or contain '.', but got '{name}'.")
        if name not in self._buffers and (name in self.__dict__ or name in self._params or name in self._cells):
            raise KeyError(f"For 'register_buffer', the attribute '{name}' already exists.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"For 'register_buffer', the 'tensor' must be a Tensor or None, but got "
                            f"{type(tensor).__name__}.")
        if tensor is not None and not isinstance(tensor, _BufferTensor):
            tensor = _BufferTensor(tensor, persistent)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)
        _state.bump()

    def _named_members(self, kind: str, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Any]]:
        seen = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for cell_name, cell in cells:
            for key, val in cell.__dict__[kind].items():
                if val is None or id(val) in seen:
                    continue
                seen.add(id(val))
                yield (cell_name + "." + key if cell_name else key), val

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """Yield ``(path, buffer)`` for this cell's (and, with ``recurse``, its children's) buffers."""
        return self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Yield the buffers."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_sub_cell(self, target: str) -> "Cell":
        """Return the descendant cell at the dotted path ``target`` ('' is self).

        Raises:
            TypeError: when ``target`` is not a str.
            AttributeError: when a step of the path does not exist or is not a Cell.
        """
        if not isinstance(target, str):
            raise TypeError(f"For 'get_sub_cell', the 'target' must be str, but got {type(target).__name__}.")
        if target == "":
            return self
        cell = self
        for item in target.split("."):
            if item not in cell._cells or cell._cells[item] is None:
                raise AttributeError(f"{cell._get_name()} has no attribute `{item}`")
            cell = cell._cells[item]
        return cell

    def get_buffer(self, target: str) -> Tensor:
        """Return the buffer at the dotted path ``target``.

        Raises:
            AttributeError: when it does not exist.
        """
        cell_path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if name not in cell._buffers:
            raise AttributeError(f"{cell._get_name()} has no buffer `{name}`")
        return cell._buffers[name]

    def cells_and_names(self, cells: Any = None, name_prefix: str = "") -> Iterator[tuple[str, "Cell"]]:
        """Yield ``(path, cell)`` depth-first, starting with ``(name_prefix, self)``; each cell once."""
        seen = cells if cells else set()
        if self in seen:
            return
        seen.add(self)
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(seen, (name_prefix + "." if name_prefix else "") + name)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def name_cells(self) -> "OrderedDict[str, Cell]":
        """The direct children, de-duplicated, as an OrderedDict."""
        out: OrderedDict = OrderedDict()
        seen = set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out[name] = cell
        return out

    def cells(self) -> Any:
        """The direct children (``odict_values``)."""
        return self.name_cells().values()

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(path, parameter)`` in MindSpore's order, de-duplicated by identity."""
        return self._named_members("_params", name_prefix, expand)

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """Yield the parameters in MindSpore's order."""
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The parameters with ``requires_grad=True``."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The parameters with ``requires_grad=False``."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter]":
        """An OrderedDict of ``Parameter.name`` to Parameter."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter]":
        """The parameters to broadcast in data-parallel training (those with ``layerwise_parallel=False``)."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse) if not p.layerwise_parallel)

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Rename every parameter to ``prefix + <path inside this cell>``.

        Raises:
            ValueError: when ``prefix`` has characters other than letters, digits, '_', '-', '.', '/'.
        """
        if not isinstance(prefix, str) or not _PREFIX_RE.match(prefix):
            raise ValueError(f"For 'update_parameters_name', the 'prefix' must be a str of letters, digits, '_', "
                             f"'-', '.' or '/', but got {prefix!r}.")
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    def update_cell_prefix(self) -> None:
        """Set ``param_prefix`` of every descendant to its path."""
        for name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = name

    def update_cell_type(self, cell_type: str) -> None:
        """Record the cell type (compatibility)."""
        self.__dict__["cell_type"] = cell_type

    def check_names(self) -> None:
        """Raise ValueError when two parameters share a name."""
        names = set()
        for p in self.get_parameters():
            if p.name in names:
                raise ValueError(f"The value of {p} is {p}, its name '{p.name}' already exists. Please set a unique "
                                 "name for the parameter.")
            names.add(p.name)

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Return ``{parameter: parameter}``: tfspore parameters are initialised on creation."""
        return {p: p for p in self.get_parameters()}

    # -------------------------------------------------------- tf.Module views
    @property
    def variables(self) -> tuple:
        """The ``tf.Variable`` of every parameter (MindSpore order) and buffer."""
        return tuple(p._var for p in self.get_parameters()) + tuple(b._var for b in self.buffers())

    @property
    def trainable_variables(self) -> tuple:
        """The ``tf.Variable`` of every trainable parameter."""
        return tuple(p._var for p in self.trainable_params())

    @property
    def non_trainable_variables(self) -> tuple:
        """The ``tf.Variable`` of every non-trainable parameter and buffer."""
        return tuple(p._var for p in self.untrainable_params()) + tuple(b._var for b in self.buffers())

    def _trackable_children(self, save_type: Any = "checkpoint", **kwargs: Any) -> dict:
        children = {}
        for key, p in self._params.items():
            if p is not None:
                children[key] = p._var
        for key, b in self._buffers.items():
            if b is not None:
                children[key] = b._var
        for key, c in self._cells.items():
            if c is not None:
                children[key] = c
        return children

    # ------------------------------------------------------------------ flags
    def add_flags(self, **flags: Any) -> "Cell":
        """Set each flag as an attribute and record it in the cell's flags; returns self."""
        fl = self.__dict__.setdefault("_func_graph_flags", {})
        fl.update(flags)
        for k, v in flags.items():
            object.__setattr__(self, k, v)
        _state.bump()
        return self

    def add_flags_recursive(self, **flags: Any) -> "Cell":
        """Set the flags on this cell and every descendant; returns self."""
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self) -> dict:
        """The flags set with :meth:`add_flags`."""
        return self.__dict__.setdefault("_func_graph_flags", {})

    def set_train(self, mode: bool = True) -> "Cell":
        """Set training mode on this cell and its descendants; returns self."""
        self.__dict__["_phase"] = "train" if mode else "predict"
        self.add_flags_recursive(training=bool(mode))
        return self

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        """Mark the cell as differentiated (MindSpore builds a backward graph; TF needs nothing); returns self."""
        self.__dict__["requires_grad"] = requires_grad
        return self

    def set_boost(self, boost_type: str) -> "Cell":
        """Accepted for compatibility: MindSpore's boost algorithms have no TensorFlow equivalent."""
        _warn_once("Cell.set_boost")
        self.__dict__["_boost_type"] = boost_type
        return self

    def set_broadcast_flag(self, mode: bool = True) -> "Cell":
        """Set the ``broadcast_flag`` (compatibility)."""
        self.add_flags(broadcast_flag=mode)
        return self

    def set_jit_config(self, jit_config: Any) -> None:
        """Configure compilation: ``jit_level`` 'O2' (or ``jit_compile=True``) compiles this cell with XLA.

        Args:
            jit_config: a :class:`~tfspore.JitConfig` or a dict.

        Raises:
            TypeError: when ``jit_config`` is neither.
        """
        cfg = getattr(jit_config, "jit_config_dict", jit_config)
        if not isinstance(cfg, dict):
            raise TypeError(f"For 'set_jit_config', the 'jit_config' must be a JitConfig or dict, but got "
                            f"{type(jit_config).__name__}.")
        self.__dict__["_jit_config_dict"] = dict(cfg)
        _state.bump()

    def _jit_compile(self) -> bool | None:
        cfg = self._jit_config_dict
        if "jit_compile" in cfg:
            return bool(cfg["jit_compile"])
        if cfg.get("jit_level") == "O2":
            return True
        if cfg.get("jit_level") in ("O0", "O1"):
            return None
        return _context._jit_compile_default()

    def set_data_parallel(self) -> None:
        """Accepted for compatibility: data parallelism comes from ``tf.distribute`` strategies."""
        _warn_once("Cell.set_data_parallel", "use a tf.distribute strategy for data parallelism; the call has no "
                   "effect on TensorFlow.")

    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None, device: str = "Ascend",
              level: int = 0) -> "Cell":
        """Accepted for compatibility: MindSpore's operator sharding has no effect on TensorFlow."""
        _warn_once("Cell.shard")
        return self

    def place(self, role: str, rank_id: int) -> None:
        """Accepted for compatibility (MindSpore's process placement)."""
        _warn_once("Cell.place")

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> None:
        """Accepted for compatibility (MindSpore's communication fusion)."""
        if not isinstance(fusion_type, int) or isinstance(fusion_type, bool):
            raise TypeError(f"For 'set_comm_fusion', the 'fusion_type' must be int, but got {fusion_type!r}.")
        _warn_once("Cell.set_comm_fusion")
        for p in self.trainable_params(recurse):
            p.comm_fusion = fusion_type

    def set_param_ps(self, recurse: bool = True, init_in_server: bool = False) -> None:
        """Accepted for compatibility (MindSpore's parameter server)."""
        _warn_once("Cell.set_param_ps")

    def offload(self, backward_prefetch: Any = "Auto") -> None:
        """Accepted for compatibility (MindSpore's activation offload)."""
        _warn_once("Cell.offload")

    def flatten_weights(self, fusion_size: int = 0) -> None:
        """Accepted for compatibility (MindSpore's contiguous weight memory)."""
        _warn_once("Cell.flatten_weights")

    def infer_param_pipeline_stage(self) -> list:
        """Return the trainable parameters: without MindSpore's pipeline parallelism, one stage holds them all."""
        _warn_once("Cell.infer_param_pipeline_stage")
        return self.trainable_params()

    def remove_redundant_parameters(self) -> None:
        """Accepted for compatibility."""

    def get_func_graph_proto(self) -> None:
        """Return None: TensorFlow graphs are available from the compiled function instead."""
        return None

    def generate_scope(self) -> None:
        """Compatibility no-op."""

    def get_scope(self) -> str:
        """Return the cell's scope name."""
        return self.__dict__.get("_scope") or "Default"

    # ----------------------------------------------------------- mixed precision
    def to_float(self, dst_type: Any) -> "Cell":
        """Run this cell (and its descendants) in ``dst_type``; parameters keep their stored dtype.

        Args:
            dst_type: ``mstype.float16``, ``mstype.float32`` or ``mstype.bfloat16``.

        Raises:
            ValueError: for another dtype.
        """
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             f"mstype.bfloat16, but got type: {dst_type}.")
        flags = {"fp16": dst_type == mstype.float16, "fp32": dst_type == mstype.float32,
                 "bf16": dst_type == mstype.bfloat16}
        self.add_flags_recursive(**flags)
        for _, cell in self.cells_and_names():
            cell.__dict__["_mixed_precision_type"] = dst_type
        return self

    def _compute_dtype(self) -> mstype.Type | None:
        return self._mixed_precision_type

    def cast_inputs(self, inputs: tuple, dst_type: Any) -> tuple:
        """Cast every floating Tensor in ``inputs`` to ``dst_type``."""
        tdt = mstype.as_tf_dtype(dst_type)

        def cast(x):
            if isinstance(x, (tuple, list)):
                return type(x)(cast(i) for i in x)
            if isinstance(x, (Tensor, tf.Tensor)):
                v = tf.convert_to_tensor(x._value() if isinstance(x, Tensor) else x)
                if v.dtype.is_floating and v.dtype != tdt:
                    return Tensor._from_tf(tf.cast(v, tdt))
            return x
        return tuple(cast(i) for i in inputs)

    def auto_cast_inputs(self, inputs: tuple) -> tuple:
        """Cast inputs to the cell's mixed-precision type (``to_float``), if any."""
        mp = self._mixed_precision_type
        if mp is None:
            return tuple(inputs)
        return self.cast_inputs(inputs, mp)

    def cast_param(self, param: Tensor) -> Tensor:
        """Return ``param`` cast to the cell's mixed-precision type, if any (the stored value is unchanged)."""
        mp = self._mixed_precision_type
        if mp is None:
            return param
        v = param._value() if isinstance(param, Tensor) else param
        if v.dtype.is_floating and v.dtype != mp.tf_dtype:
            return Tensor._from_tf(tf.cast(v, mp.tf_dtype))
        return param

    # -------------------------------------------------------------------- hooks
    def register_forward_pre_hook(self, hook_fn: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookHandle:
        """Call ``hook_fn(cell, args)`` before ``construct``; a non-None return replaces the args.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_forward_pre_hook", hook_fn)
        handle = HookHandle(self._forward_pre_hook, self._forward_pre_hook_with_kwargs)
        self._add_hook(self._forward_pre_hook, handle.handle_id, hook_fn, prepend)
        if with_kwargs:
            self._forward_pre_hook_with_kwargs[handle.handle_id] = True
        return handle

    def register_forward_hook(self, hook_fn: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> HookHandle:
        """Call ``hook_fn(cell, args, output)`` after ``construct``; a non-None return replaces the output.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_forward_hook", hook_fn)
        handle = HookHandle(self._forward_hook, self._forward_hook_with_kwargs)
        self._add_hook(self._forward_hook, handle.handle_id, hook_fn, prepend)
        if with_kwargs:
            self._forward_hook_with_kwargs[handle.handle_id] = True
        if always_call:
            self._forward_hook_always_called[handle.handle_id] = True
        return handle

    def register_backward_pre_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_output)`` when the output gradient reaches this cell.

        A non-None return replaces ``grad_output``.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_backward_pre_hook", hook_fn)
        handle = HookHandle(self._backward_pre_hook)
        self._add_hook(self._backward_pre_hook, handle.handle_id, hook_fn, False)
        return handle

    def register_backward_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_input, grad_output)`` with the gradients of this cell's inputs.

        A non-None return replaces ``grad_input``.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_backward_hook", hook_fn)
        handle = HookHandle(self._backward_hook)
        self._add_hook(self._backward_hook, handle.handle_id, hook_fn, False)
        return handle

    def register_parameter_forward_hook(self, hook: Any) -> None:
        """Register hooks applied to parameters when read in construct (compatibility: stored only)."""
        self._parameter_forward_hooks.append(hook)

    def register_saved_tensors_hooks(self, pack_hook: Callable, unpack_hook: Callable) -> None:
        """Accepted for compatibility: TensorFlow does not expose saved-tensor hooks."""
        _warn_once("Cell.register_saved_tensors_hooks")

    @staticmethod
    def _add_hook(hooks: OrderedDict, hid: int, fn: Callable, prepend: bool) -> None:
        hooks[hid] = fn
        if prepend:
            hooks.move_to_end(hid, last=False)
        _state.bump()

    def _run_forward_pre_hook(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        for hid, fn in list(self._forward_pre_hook.items()):
            if self._forward_pre_hook_with_kwargs.get(hid):
                res = fn(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {res}.")
                    args, kwargs = res
            else:
                res = fn(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        return args, kwargs

    def _run_forward_hook(self, args: tuple, kwargs: dict, output: Any) -> Any:
        for hid, fn in list(self._forward_hook.items()):
            if self._forward_hook_with_kwargs.get(hid):
                res = fn(self, args, kwargs, output)
            else:
                res = fn(self, args, output)
            if res is not None:
                output = res
        return output

    # -------------------------------------------------------------- recompute
    def recompute(self, *, use_reentrant: bool = True, output_recompute: bool = False, early_stop: bool = True,
                  context_fn: Any = None, **kwargs: Any) -> None:
        """Recompute this cell's activations in the backward pass instead of keeping them (``tf.recompute_grad``).

        Raises:
            ValueError: for an unknown keyword.
        """
        allowed = ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation")
        for k in kwargs:
            if k not in allowed:
                raise ValueError(f"For 'recompute', keyword '{k}' is not recognized! the key kwargs must be: "
                                 f"{list(allowed)}.")
        if self._recompute_cell is not None:
            _logger.info("The recompute interface can be configured only once; this call is ignored.")
            return
        self.__dict__["_recompute_cell"] = {"output_recompute": output_recompute}
        _state.bump()

    # ---------------------------------------------------------- state_dict
    def get_extra_state(self) -> Any:
        """Return extra state for :meth:`state_dict`; override together with :meth:`set_extra_state`.

        Raises:
            RuntimeError: when not overridden (as MindSpore and PyTorch).
        """
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state: Any) -> None:
        """Restore extra state from :meth:`load_state_dict`; override together with :meth:`get_extra_state`.

        Raises:
            RuntimeError: when not overridden.
        """
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    def register_state_dict_pre_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, prefix, keep_vars)`` before :meth:`state_dict` collects this cell."""
        _check_hook("register_state_dict_pre_hook", hook)
        handle = HookHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.handle_id] = hook
        return handle

    def register_state_dict_post_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, state_dict, prefix, local_metadata)`` after this cell's entries are collected."""
        _check_hook("register_state_dict_post_hook", hook)
        handle = HookHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.handle_id] = hook
        return handle

    def register_load_state_dict_pre_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` before this cell's entries are loaded."""
        _check_hook("register_load_state_dict_pre_hook", hook)
        handle = HookHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.handle_id] = hook
        return handle

    def register_load_state_dict_post_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, incompatible_keys)`` after :meth:`load_state_dict`; it may edit the key lists."""
        _check_hook("register_load_state_dict_post_hook", hook)
        handle = HookHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.handle_id] = hook
        return handle

    def _has_extra_state(self) -> bool:
        return type(self).get_extra_state is not Cell.get_extra_state

    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> Any:
        """Return an OrderedDict of attribute path to Parameter / buffer (PyTorch-style, not checkpoint names).

        Args:
            destination: a mapping to fill (a new OrderedDict by default).
            prefix: prepended to every key.
            keep_vars: accepted for compatibility (values are the Parameter objects).
        """
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata: dict = {}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        for name, p in self._params.items():
            if p is not None:
                destination[prefix + name] = p
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b
        if self._has_extra_state():
            destination[prefix + "_extra_state"] = self.get_extra_state()
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            res = hook(self, destination, prefix, local_metadata)
            if res is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> _IncompatibleKeys:
        """Copy values from ``state_dict`` (keyed by attribute path) into parameters and buffers.

        Returns:
            ``_IncompatibleKeys(missing_keys, unexpected_keys)``.

        Raises:
            TypeError: when ``state_dict`` is not a Mapping.
            RuntimeError: with ``strict``, when keys are missing or unexpected or shapes differ.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"For 'load_state_dict', the 'state_dict' must be a Mapping, but got "
                            f"{type(state_dict).__name__}.")
        missing: list = []
        unexpected: list = []
        errors: list = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)

        def load(cell: Cell, prefix: str = "") -> None:
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            for hook in cell._load_state_dict_pre_hooks.values():
                hook(cell, state_dict, prefix, local_metadata, strict, missing, unexpected, errors)
            local = [(k, v) for k, v in cell._params.items() if v is not None]
            local += [(k, v) for k, v in cell._buffers.items()
                      if v is not None and k not in cell._non_persistent_buffers_set]
            for name, target in local:
                key = prefix + name
                if key not in state_dict:
                    missing.append(key)
                    continue
                value = state_dict[key]
                arr = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
                if tuple(arr.shape) != tuple(target.shape):
                    errors.append(f"size mismatch for {key}: copying a param with shape {tuple(arr.shape)} from "
                                  f"checkpoint, the shape in current model is {tuple(target.shape)}.")
                    continue
                target._set_value(tf.convert_to_tensor(arr.astype(target.dtype.np_dtype)))
            extra_key = prefix + "_extra_state"
            if cell._has_extra_state() and type(cell).set_extra_state is not Cell.set_extra_state:
                if extra_key in state_dict:
                    cell.set_extra_state(state_dict[extra_key])
                elif strict:
                    missing.append(extra_key)
            elif strict and extra_key in state_dict:
                unexpected.append(extra_key)
            for name, child in cell._cells.items():
                if child is not None:
                    load(child, prefix + name + ".")

        load(self)
        known = {k for k, _ in self.state_dict().items()}
        for key in state_dict:
            if key not in known and key not in unexpected:
                unexpected.append(key)
        result = _IncompatibleKeys(missing, unexpected)
        for hook in self._load_state_dict_post_hooks.values():
            out = hook(self, result)
            if out is not None:
                raise RuntimeError("load_state_dict post hook should return None")
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected)
                              + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {self.__class__.__name__}:\n\t"
                               + "\n\t".join(errors))
        return result

    # ------------------------------------------------------------------ apply
    def apply(self, fn: Callable[["Cell"], Any]) -> "Cell":
        """Call ``fn`` on every descendant (children first) and on self; returns self."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
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
            text = text[0] + ("\n" + "\n".join("  " + t for t in text[1:]) if len(text) > 1 else "")
            child_lines.append(f"({key}): {text}")
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

    def set_inputs(self, *inputs: Any, **kwargs: Any) -> None:
        """Fix the input signature of the compiled construct; ``None`` dims are dynamic.

        Args:
            *inputs: Tensors, usually ``Tensor(shape=[None, 3], dtype=mstype.float32)``.

        Raises:
            TypeError: when an input is not a Tensor.
        """
        specs = []
        for i, t in enumerate(inputs):
            if not isinstance(t, Tensor):
                raise TypeError(f"For 'set_inputs', the input {i} must be a Tensor, but got {type(t).__name__}.")
            specs.append(tf.TensorSpec([None if (d is None or (isinstance(d, int) and d < 0)) else d
                                        for d in t.shape], t.dtype.tf_dtype))
        self.__dict__["_input_signature"] = (tuple(inputs), tuple(specs))
        self._compiled.clear()
        _state.bump()

    def get_inputs(self) -> tuple | None:
        """The inputs given to :meth:`set_inputs`, or None."""
        sig = self._input_signature
        return None if sig is None else sig[0]

    def _cache_key(self) -> tuple:
        ep = _state.epoch()
        if self._key_epoch != ep:
            flags = []
            for _, c in self.cells_and_names():
                flags.append((c.training, c._mixed_precision_type, tuple(c._forward_pre_hook),
                              tuple(c._forward_hook), tuple(c._backward_pre_hook), tuple(c._backward_hook),
                              c._recompute_cell is not None))
            key = (tuple(flags), _context._mode(), self._jit_compile(),
                   tuple(id(p._var) for p in self.get_parameters()))
            self.__dict__["_key"] = key
            self.__dict__["_key_epoch"] = ep
        return self._key

    def _compiled_fn(self) -> Any:
        key = self._cache_key()
        fn = self._compiled.get(key)
        if fn is None:
            sig = self._input_signature[1] if self._input_signature is not None else None

            def traced(*args: Any, **kwargs: Any) -> Any:
                with _state.entered():
                    out = self._run_eager(*_wrap_nest(args), **_wrap_nest(kwargs))
                return _unwrap_nest(out)
            fn = tf.function(traced, input_signature=sig, jit_compile=self._jit_compile(), autograph=False)
            self._compiled[key] = fn
        return fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _state.depth() > 0 or _context._mode() == _context.PYNATIVE_MODE:
            with _state.entered():
                return self._run_eager(*args, **kwargs)
        fn = self._compiled_fn()
        return _wrap_nest(fn(*_unwrap_nest(args), **_unwrap_nest(kwargs)))

    def compile(self, *args: Any, **kwargs: Any) -> Any:
        """Trace the compiled construct for these inputs without running it; returns the concrete function."""
        return self._compiled_fn().get_concrete_function(*_unwrap_nest(args), **_unwrap_nest(kwargs))

    def compile_and_run(self, *args: Any, **kwargs: Any) -> Any:
        """Compile (GRAPH_MODE semantics) and run the cell."""
        self.compile(*args, **kwargs)
        return _wrap_nest(self._compiled_fn()(*_unwrap_nest(args), **_unwrap_nest(kwargs)))

    def run_construct(self, cast_inputs: tuple, kwargs: dict) -> Any:
        """Run ``construct`` with the forward hooks (and backward hooks) around it."""
        return self._run_eager(*cast_inputs, **kwargs)

    def _run_eager(self, *args: Any, **kwargs: Any) -> Any:
        if self._forward_pre_hook:
            args, kwargs = self._run_forward_pre_hook(args, kwargs)
        if self._mixed_precision_type is not None:
            args = self.auto_cast_inputs(args)
        if self._backward_hook or self._backward_pre_hook:
            out = self._run_with_backward_hooks(args, kwargs)
        elif self._recompute_cell is not None:
            out = self._run_recompute(args, kwargs)
        else:
            out = self.construct(*args, **kwargs)
        if self._forward_hook:
            out = self._run_forward_hook(args, kwargs, out)
        return out

    def _run_recompute(self, args: tuple, kwargs: dict) -> Any:
        tensors = [i for i, a in enumerate(args) if isinstance(a, (Tensor, tf.Tensor, np.ndarray))]
        flat_args = list(args)
        structure: list = []

        def body(*ts: tf.Tensor) -> Any:
            call = list(flat_args)
            for i, t in zip(tensors, ts):
                call[i] = Tensor._from_tf(t)
            out = self.construct(*call, **kwargs)
            structure.append(out)
            return tf.nest.flatten(_unwrap_nest(out))

        inputs = [tf.convert_to_tensor(_unwrap_nest(args[i])) for i in tensors]
        outs = tf.recompute_grad(body)(*inputs)
        return _wrap_nest(tf.nest.pack_sequence_as(_unwrap_nest(structure[-1]), outs))

    def _run_with_backward_hooks(self, args: tuple, kwargs: dict) -> Any:
        idx = [i for i, a in enumerate(args) if isinstance(a, (Tensor, tf.Tensor))
               and tf.as_dtype(_unwrap_nest(a).dtype).is_floating]
        saved: dict = {}
        cell = self

        @tf.custom_gradient
        def in_identity(*xs: tf.Tensor) -> Any:
            def grad(*gs: tf.Tensor) -> Any:
                g_in = tuple(Tensor._from_tf(g) for g in gs)
                for fn in list(cell._backward_hook.values()):
                    res = fn(cell, g_in, saved.get("grad_output", ()))
                    if res is not None:
                        g_in = res if isinstance(res, tuple) else (res,)
                return [tf.convert_to_tensor(_unwrap_nest(g)) for g in g_in]
            return [tf.identity(x) for x in xs], grad

        @tf.custom_gradient
        def out_identity(*ys: tf.Tensor) -> Any:
            def grad(*gs: tf.Tensor) -> Any:
                g_out = tuple(Tensor._from_tf(g) for g in gs)
                for fn in list(cell._backward_pre_hook.values()):
                    res = fn(cell, g_out)
                    if res is not None:
                        g_out = res if isinstance(res, tuple) else (res,)
                saved["grad_output"] = g_out
                return [tf.convert_to_tensor(_unwrap_nest(g)) for g in g_out]
            return [tf.identity(y) for y in ys], grad

        call = list(args)
        if idx and self._backward_hook:
            ins = in_identity(*[tf.convert_to_tensor(_unwrap_nest(args[i])) for i in idx])
            for i, t in zip(idx, ins):
                call[i] = Tensor._from_tf(t)
        out = self.construct(*call, **kwargs)
        flat = tf.nest.flatten(_unwrap_nest(out))
        pos = [j for j, t in enumerate(flat) if isinstance(t, tf.Tensor) and t.dtype.is_floating]
        if pos:
            outs = out_identity(*[flat[j] for j in pos])
            for j, t in zip(pos, outs):
                flat[j] = t
        return _wrap_nest(tf.nest.pack_sequence_as(_unwrap_nest(out), flat))


class GraphCell(Cell):
    """A Cell running a loaded graph: wraps a callable (e.g. a SavedModel signature or ``tf.function``).

    Args:
        graph: a callable taking and returning tensors.
        params_init: accepted for compatibility.
        obf_random_seed: accepted for compatibility.
    """

    def __init__(self, graph: Callable, params_init: Any = None, obf_random_seed: Any = None) -> None:
        super().__init__(auto_prefix=True)
        if not callable(graph):
            raise TypeError(f"For 'GraphCell', the 'graph' must be callable, but got {type(graph).__name__}.")
        self.graph = graph

    def construct(self, *inputs: Any) -> Any:
        return _wrap_nest(self.graph(*[_unwrap_nest(i) for i in inputs]))

"""``tfspore.nn.Cell``: MindSpore's network building block on ``tf.Module``.

A Cell keeps its own ordered registries of parameters, child cells and buffers (definition
order, as MindSpore), names parameters as MindSpore does, and runs ``construct``:

* in PYNATIVE_MODE eagerly, with forward and backward hooks;
* in GRAPH_MODE the outermost call runs a cached ``tf.function`` (one trace per input
  signature and configuration); Cells called inside it are plain Python within the trace.
  Hooks still see concrete values: inside a trace they run through ``tf.py_function``.

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
import inspect
import logging
import re
import warnings
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Iterator, Mapping

import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import validator
from tfspore._internal import runtime_check
from tfspore.common import _control_flow, _state
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter, ParameterTuple, _BufferTensor, _is_generated
from tfspore.common.tensor import Tensor, _as_tf, _unwrap_nest, _wrap_nest
from tfspore.nn._hooks import (HookHandle, _BackwardHookScope, _check_hook, _is_float_tensor, _is_tensor,
                               _run_with_values)

__all__ = ["Cell", "GraphCell"]

_logger = logging.getLogger("tfspore")
_WARNED: set = set()
_PREFIX_RE = re.compile(r"^\w*[0-9a-zA-Z_.\-]*$", re.ASCII)
_EXTRA_STATE_KEY_SUFFIX = "_extra_state"
_RECOMPUTE_KWARGS = ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation")
_PRECISION_FLAGS = (("fp16", mstype.float16), ("fp32", mstype.float32), ("bf16", mstype.bfloat16))


def _warn_once(api: str, what: str = "") -> None:
    if api not in _WARNED:
        _WARNED.add(api)
        _logger.warning("For '%s', %s", api, what or "the setting has no effect on TensorFlow and is ignored.")


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _is_param_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and not isinstance(value, ParameterTuple) and len(value) > 0 and all(
        isinstance(v, Parameter) for v in value)


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
        from tfspore.common.parameter import _parameter_of
        owner = _parameter_of(struct)
        if owner is not None:
            return owner
    if isinstance(struct, (list, tuple)) and not hasattr(struct, "_fields"):
        return type(struct)(_wrap_args(s) for s in struct)
    if isinstance(struct, dict):
        return {k: _wrap_args(v) for k, v in struct.items()}
    return _wrap_nest(struct)


class Cell(tf.Module):
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

    @property
    def bprop_debug(self) -> bool:
        """Compatibility flag for custom bprop debugging (no effect on TensorFlow)."""
        return self._bprop_debug

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        _warn_once("Cell.bprop_debug")
        self.__dict__["_bprop_debug"] = value

    @property
    def pipeline_stage(self) -> int:
        """The pipeline stage (MindSpore's pipeline parallelism; no effect on TensorFlow)."""
        return self._pipeline_stage

    @pipeline_stage.setter
    def pipeline_stage(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'pipeline_stage' must be int type, but got type : "
                            f"{type(value)}")
        if value < 0:
            raise ValueError(f"For 'Cell', the property 'pipeline_stage' can not be less than 0, but got {value}")
        _warn_once("Cell.pipeline_stage")
        self.__dict__["_pipeline_stage"] = value

    @property
    def parameter_layout_dict(self) -> dict:
        """The parameter layouts of MindSpore's auto-parallel (empty on TensorFlow)."""
        return self._parameter_layout_dict

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value: dict) -> None:
        if not isinstance(value, dict):
            raise TypeError(f"For 'Cell', the property 'parameter_layout_dict' must be dict type, but got type "
                            f"{type(value)}.")
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
        if name not in self._buffers and (name in self.__dict__ or name in self._params or name in self._cells):
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

    def _named_members(self, kind: str, prefix: str = "", recurse: bool = True,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Any]]:
        seen = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for cell_name, cell in cells:
            for key, val in list(cell.__dict__[kind].items()):
                if val is None or id(val) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(val))
                yield (cell_name + "." + key if cell_name else key), val

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """Yield ``(path, buffer)`` for the buffers of this cell and, with ``recurse``, its descendants.

        Args:
            prefix: prepended to every path.
            recurse: include the descendants' buffers.
            remove_duplicate: yield a buffer shared by several cells once.

        Example:
            >>> [name for name, _ in net_a.named_buffers()]
            ['buffer_a', 'net_b.buffer_b']
        """
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Yield the buffers (see :meth:`named_buffers`)."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_sub_cell(self, target: str) -> "Cell":
        """Return the descendant cell at the dotted path ``target`` ('' is self).

        Raises:
            TypeError: when ``target`` is not a str.
            AttributeError: when a step of the path does not exist or is not a Cell.

        Example:
            >>> net_a.get_sub_cell("net_b.net_c")
        """
        if not isinstance(target, str):
            raise TypeError(f"For 'get_sub_cell', the 'target' must be str, but got {type(target).__name__}.")
        if target == "":
            return self
        cell = self
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(f"{cell._get_name()} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, Cell):
                raise AttributeError(f"`{item}` is not an nn.Cell")
        return cell

    def get_buffer(self, target: str) -> Tensor:
        """Return the buffer at the dotted path ``target`` (``"net_b.net_c.buffer_c"``).

        Raises:
            AttributeError: when the path does not exist or does not name a buffer.
        """
        cell_path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if not hasattr(cell, name):
            raise AttributeError(f"{cell._get_name()} has no attribute `{name}`")
        if name not in cell._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return cell._buffers[name]

    def cells_and_names(self, cells: Any = None, name_prefix: str = "") -> Iterator[tuple[str, "Cell"]]:
        """Yield ``(path, cell)`` depth-first, starting with ``(name_prefix, self)``; each cell once.

        Args:
            cells: the set of cells already visited (internal).
            name_prefix: the path of this cell.
        """
        seen = cells if cells else set()
        if self in seen:
            return
        seen.add(self)
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(seen, (name_prefix + "." if name_prefix else "") + name)

    def name_cells(self) -> "OrderedDict[str, Cell]":
        """The direct children, de-duplicated by identity, as an OrderedDict."""
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
        """Yield ``(path, parameter)`` in MindSpore's order, de-duplicated by identity.

        Args:
            name_prefix: prepended to every path.
            expand: include the parameters of descendants (otherwise only this cell's own).
        """
        return self._named_members("_params", name_prefix, expand)

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """Yield the parameters in :meth:`parameters_and_names` order."""
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The parameters with ``requires_grad=True``, in :meth:`get_parameters` order."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The parameters with ``requires_grad=False``, in :meth:`get_parameters` order."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter]":
        """An OrderedDict of ``Parameter.name`` to Parameter."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter] | None":
        """The parameters broadcast in data-parallel training (``layerwise_parallel=False``), or None if none."""
        out = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse) if not p.layerwise_parallel)
        return out or None

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Rename every parameter to ``prefix + <path inside this cell>``.

        Raises:
            ValueError: when ``prefix`` has characters other than letters, digits, '_', '-' and '.'.
        """
        if not isinstance(prefix, str) or not _PREFIX_RE.match(prefix):
            raise ValueError(f"For 'update_parameters_name', the 'prefix' {prefix!r} is illegal, it must match "
                             f"regular '{_PREFIX_RE.pattern}'.")
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    def check_names(self) -> None:
        """Raise ValueError when two parameters share a name."""
        names = set()
        for path, p in self.parameters_and_names():
            if p.name in names:
                raise ValueError(f"The value of {path} is {p}, its name '{p.name}' already exists. Please set a "
                                 "unique name for the parameter.")
            names.add(p.name)

    def check_names_and_refresh_name(self) -> None:
        """Rename all parameters to their paths when two share a name (done before a cell first runs)."""
        names = [p.name for _, p in self.parameters_and_names()]
        if len(set(names)) < len(names):
            self.update_parameters_name()
            self.check_names()

    def update_cell_prefix(self) -> None:
        """Set :attr:`param_prefix` of this cell and every descendant to its path."""
        for name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = name

    def update_cell_type(self, cell_type: str) -> None:
        """Record the cell type ('quant', 'second-order')."""
        self.__dict__["cell_type"] = cell_type

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
        children: dict = {}
        for reg in ("_params", "_buffers"):
            for key, value in self.__dict__[reg].items():
                if value is not None:
                    children[key] = value._var
        for key, cell in self._cells.items():
            if cell is not None:
                children[key] = cell
        return children

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

    def _jit_compile(self) -> bool | None:
        cfg = self._jit_config_dict
        if "jit_compile" in cfg:
            return bool(cfg["jit_compile"])
        if cfg.get("jit_level") == "O2":
            return True
        if cfg.get("jit_level") in ("O0", "O1"):
            return None
        return _context._jit_compile_default()

    # ------------------------------------------ MindSpore parallel engine (no effect)
    def set_boost(self, boost_type: str) -> "Cell":
        """Accepted for compatibility: MindSpore's boost algorithms have no TensorFlow equivalent.

        Raises:
            ValueError: when ``boost_type`` is not 'less_bn'.
        """
        if boost_type not in ("less_bn",):
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', but got {boost_type}.")
        _warn_once("Cell.set_boost")
        self.add_flags_recursive(less_bn=True)
        return self

    def set_data_parallel(self) -> None:
        """Accepted for compatibility: data parallelism comes from ``tf.distribute`` strategies."""
        _warn_once("Cell.set_data_parallel", "use a tf.distribute strategy for data parallelism; the call has no "
                   "effect on TensorFlow.")

    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None, device: str = "Ascend",
              level: int = 0) -> "Cell":
        """Accepted for compatibility: MindSpore's operator sharding has no effect on TensorFlow; returns self.

        Raises:
            TypeError: when ``in_strategy`` is not a tuple or ``parameter_plan`` not a dict or None.
        """
        if not isinstance(in_strategy, tuple):
            raise TypeError(f"For 'Cell.shard', the 'in_strategy' must be a tuple, but got {in_strategy!r}.")
        if parameter_plan is not None and not isinstance(parameter_plan, dict):
            raise TypeError(f"For 'Cell.shard', the 'parameter_plan' must be a dict or None, but got "
                            f"{parameter_plan!r}.")
        _warn_once("Cell.shard")
        return self

    def place(self, role: str, rank_id: int) -> None:
        """Accepted for compatibility (MindSpore's process placement).

        Raises:
            ValueError: when ``role`` is not 'MS_WORKER' or ``rank_id`` is negative.
            TypeError: when ``rank_id`` is not an int.
        """
        if role != "MS_WORKER":
            raise ValueError(f"For 'Cell.place', the 'role' must be 'MS_WORKER', but got {role!r}.")
        validator.check_non_negative_int(rank_id, "rank_id", "Cell.place")
        _warn_once("Cell.place")

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> "Cell":
        """Set ``comm_fusion`` of the trainable parameters (no effect on TensorFlow); returns self.

        Raises:
            TypeError, ValueError: when ``fusion_type`` is not a non-negative int.
        """
        validator.check_non_negative_int(fusion_type, "fusion_type", "set_comm_fusion")
        _warn_once("Cell.set_comm_fusion")
        for p in self.trainable_params(recurse):
            p.comm_fusion = fusion_type
        return self

    def set_param_ps(self, recurse: bool = True, init_in_server: bool = False) -> None:
        """Accepted for compatibility (MindSpore's parameter server)."""
        _warn_once("Cell.set_param_ps")

    def offload(self, backward_prefetch: Any = "Auto") -> None:
        """Accepted for compatibility (MindSpore's activation offload).

        Raises:
            ValueError: when ``backward_prefetch`` is a str other than 'Auto' or a negative int.
            TypeError: when it is neither a str nor an int.
        """
        if isinstance(backward_prefetch, str):
            if backward_prefetch != "Auto":
                raise ValueError(f"For '{self.cls_name}', the 'backward_prefetch' must be str and must be in "
                                 f"'['Auto']', but got '{backward_prefetch}'.")
        else:
            validator.check_non_negative_int(backward_prefetch, "backward_prefetch", "Cell.offload")
        _warn_once("Cell.offload")

    def flatten_weights(self, fusion_size: int = 0) -> None:
        """Accepted for compatibility (MindSpore's contiguous weight memory).

        Raises:
            TypeError, ValueError: when ``fusion_size`` is not a non-negative int.
        """
        validator.check_non_negative_int(fusion_size, "fusion_size", "Cell.flatten_weights")
        _warn_once("Cell.flatten_weights")

    def infer_param_pipeline_stage(self) -> list:
        """Return the trainable parameters: without MindSpore's pipeline parallelism, one stage holds them all."""
        _warn_once("Cell.infer_param_pipeline_stage")
        return self.trainable_params()

    def remove_redundant_parameters(self) -> None:
        """Accepted for compatibility."""

    def get_func_graph_proto(self) -> None:
        """Return None: TensorFlow graphs are available from :meth:`compile` instead."""
        return None

    def generate_scope(self) -> None:
        """Set the scope of every descendant to its path (``Default/conv1``)."""
        for name, cell in self.cells_and_names(name_prefix="Default"):
            if cell is not self:
                cell.__dict__["_scope"] = name.replace(".", "/")

    def get_scope(self) -> str | None:
        """The cell's scope set by :meth:`generate_scope` (None before)."""
        return self._scope

    # ----------------------------------------------------------- mixed precision
    def to_float(self, dst_type: Any) -> "Cell":
        """Run this cell and its descendants in ``dst_type``; returns self.

        While the cell runs, its floating inputs are cast to ``dst_type``, and layers read their
        parameters in it (:meth:`cast_param`); the parameters keep their stored dtype. A later
        call on a sub-cell overrides its sub-tree.

        Args:
            dst_type: ``mstype.float16``, ``mstype.float32`` or ``mstype.bfloat16``.

        Raises:
            ValueError: for another dtype.

        Example:
            >>> net.to_float(mstype.float16)
        """
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")
        self.add_flags_recursive(**{flag: dst_type == dtype for flag, dtype in _PRECISION_FLAGS})
        return self

    def cast_inputs(self, inputs: tuple, dst_type: Any) -> tuple:
        """Cast every floating Tensor in ``inputs`` (nested tuples and lists too) to ``dst_type``."""
        tdt = mstype.as_tf_dtype(dst_type)

        def cast(x: Any) -> Any:
            if isinstance(x, (tuple, list)):
                return type(x)(cast(i) for i in x)
            if _is_float_tensor(x) and _unwrap_nest(x).dtype != tdt:
                return Tensor._from_tf(tf.cast(_unwrap_nest(x), tdt))
            return x
        return tuple(cast(i) for i in inputs)

    def auto_cast_inputs(self, inputs: tuple) -> tuple:
        """Cast ``inputs`` to the cell's compute type set by :meth:`to_float`, if any."""
        mp = self._mixed_precision_type
        if mp is None:
            return tuple(inputs)
        return self.cast_inputs(inputs, mp)

    def cast_param(self, param: Tensor) -> Tensor:
        """Return ``param`` cast to the cell's compute type, if any (the stored value is unchanged)."""
        mp = self._mixed_precision_type
        if mp is None or not _is_float_tensor(param):
            return param
        value = _unwrap_nest(param)
        if value.dtype == mp.tf_dtype:
            return param
        return Tensor._from_tf(tf.cast(value, mp.tf_dtype))

    # -------------------------------------------------------------------- hooks
    def register_forward_pre_hook(self, hook_fn: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookHandle:
        """Call ``hook_fn(cell, args)`` (``hook_fn(cell, args, kwargs)``) before ``construct``.

        A non-None return replaces the args (a single value is wrapped in a tuple); with
        ``with_kwargs`` it must be ``(args, kwargs)``.

        Args:
            hook_fn: the hook.
            prepend: run it before the hooks already registered.
            with_kwargs: pass the keyword arguments too.

        Returns:
            A :class:`HookHandle`; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_forward_pre_hook", hook_fn)
        handle = HookHandle(self._forward_pre_hook, self._forward_pre_hook_with_kwargs)
        if with_kwargs:
            self._forward_pre_hook_with_kwargs[handle.handle_id] = True
        self._add_hook(self._forward_pre_hook, handle.handle_id, hook_fn, prepend)
        return handle

    def register_forward_hook(self, hook_fn: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> HookHandle:
        """Call ``hook_fn(cell, args, output)`` (``hook_fn(cell, args, kwargs, output)``) after ``construct``.

        A non-None return replaces the output.

        Args:
            hook_fn: the hook.
            prepend: run it before the hooks already registered.
            with_kwargs: pass the keyword arguments too.
            always_call: also call it when ``construct`` raises (the error is raised afterwards).

        Returns:
            A :class:`HookHandle`; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_forward_hook", hook_fn)
        handle = HookHandle(self._forward_hook, self._forward_hook_with_kwargs, self._forward_hook_always_called)
        if with_kwargs:
            self._forward_hook_with_kwargs[handle.handle_id] = True
        if always_call:
            self._forward_hook_always_called[handle.handle_id] = True
        self._add_hook(self._forward_hook, handle.handle_id, hook_fn, prepend)
        return handle

    def register_backward_pre_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_output)`` when the gradient of this cell's output arrives.

        ``grad_output`` is a tuple; a non-None return (same length) replaces it.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_backward_pre_hook", hook_fn)
        handle = HookHandle(self._backward_pre_hook)
        self._add_hook(self._backward_pre_hook, handle.handle_id, hook_fn, False)
        return handle

    def register_backward_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_input, grad_output)`` with the gradients of this cell's inputs.

        Both are tuples; a non-None return (same length as ``grad_input``) replaces ``grad_input``.

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
            if hid in self._forward_pre_hook_with_kwargs:
                res = fn(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("forward pre hook with kwargs must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {res}")
                    args, kwargs = res
            else:
                res = fn(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        return args, kwargs

    def _run_forward_hook(self, args: tuple, kwargs: dict, output: Any, called: set) -> Any:
        for hid, fn in list(self._forward_hook.items()):
            if hid in self._forward_hook_always_called:
                called.add(hid)
            if hid in self._forward_hook_with_kwargs:
                res = fn(self, args, kwargs, output)
            else:
                res = fn(self, args, output)
            if res is not None:
                output = res
        return output

    def _run_always_called_hooks(self, args: tuple, kwargs: dict, output: Any, called: set) -> None:
        for hid, fn in list(self._forward_hook.items()):
            if hid not in self._forward_hook_always_called or hid in called:
                continue
            try:
                res = fn(self, args, kwargs, output) if hid in self._forward_hook_with_kwargs else fn(self, args,
                                                                                                      output)
                if res is not None:
                    output = res
            except Exception as e:  # noqa: BLE001 (the forward error is re-raised by the caller)
                warnings.warn("cell forward hook with ``always_call=True`` raised an exception that was silenced "
                              f"because another error was already raised in forward: {e}")

    def _run_backward_pre_hook(self, grad_output: tuple) -> tuple:
        for fn in list(self._backward_pre_hook.values()):
            res = fn(self, grad_output)
            if res is not None:
                res = res if isinstance(res, tuple) else (res,)
                if len(res) != len(grad_output):
                    raise TypeError(f"The backward pre hook return value size is {len(res)} not equal to expect "
                                    f"output size {len(grad_output)}")
                grad_output = res
        return grad_output

    def _run_backward_hook(self, grad_input: tuple, grad_output: tuple) -> tuple:
        for fn in list(self._backward_hook.values()):
            res = fn(self, grad_input, grad_output)
            if res is not None:
                res = res if isinstance(res, tuple) else (res,)
                if len(res) != len(grad_input):
                    raise TypeError(f"The backward hook return value size is {len(res)} not equal to expect grad "
                                    f"input size {len(grad_input)}")
                grad_input = res
        return grad_input

    # -------------------------------------------------------------- recompute
    def recompute(self, *, use_reentrant: bool = True, output_recompute: bool = False, early_stop: bool = True,
                  context_fn: Any = None, **kwargs: Any) -> None:
        """Recompute this cell's activations in the backward pass instead of keeping them (``tf.recompute_grad``).

        It can be configured once per tree: a later call on this cell or a descendant is ignored.

        Args:
            use_reentrant: accepted for compatibility.
            output_recompute: recorded as the ``output_recompute`` flag.
            early_stop: accepted for compatibility.
            context_fn: accepted for compatibility.
            **kwargs: ``mp_comm_recompute``, ``parallel_optimizer_comm_recompute`` (bools) and
                ``recompute_slice_activation`` (parallel options, no effect on TensorFlow).

        Raises:
            ValueError: for an unknown keyword.
            TypeError: when a bool option is not a bool.
        """
        for key, value in kwargs.items():
            if key not in _RECOMPUTE_KWARGS:
                raise ValueError(f"For 'recompute', keyword '{key}' is not recognized! the key kwargs must be "
                                 "'mp_comm_recompute', 'parallel_optimizer_comm_recompute', "
                                 "'recompute_slice_activation'")
            if key != "recompute_slice_activation" and not isinstance(value, bool):
                raise TypeError(f"For 'recompute', the '{key}' must be bool, but got {value!r}.")
        if not isinstance(output_recompute, bool):
            raise TypeError(f"For 'recompute', the 'output_recompute' must be bool, but got {output_recompute!r}.")
        if self._has_config_recompute:
            _logger.info("The recompute interface can be configured only once. When the parent cell is configured, "
                         "the child cell should not be configured")
            return
        self.__dict__["_recompute_cell"] = {"output_recompute": output_recompute}
        self.add_flags(output_recompute=output_recompute)
        for _, cell in self.cells_and_names():
            cell.__dict__["_has_config_recompute"] = True

    def _run_recompute(self, args: tuple, kwargs: dict) -> Any:
        flat = tf.nest.flatten((args, kwargs))
        pos = [i for i, v in enumerate(flat) if _is_tensor(v)]
        result: list = []

        def body(*ts: tf.Tensor) -> list:
            rebuilt = list(flat)
            for i, t in zip(pos, ts):
                rebuilt[i] = Tensor._from_tf(t)
            call_args, call_kwargs = tf.nest.pack_sequence_as((args, kwargs), rebuilt)
            out = _control_flow.call(self.construct, call_args, call_kwargs)
            result[:] = [out]
            return [tf.convert_to_tensor(o) for o in tf.nest.flatten(_unwrap_nest(out))]

        outs = tf.recompute_grad(body)(*[tf.convert_to_tensor(_unwrap_nest(flat[i])) for i in pos])
        return _wrap_nest(tf.nest.pack_sequence_as(_unwrap_nest(result[0]), list(outs)))

    # ---------------------------------------------------------- state_dict
    def get_extra_state(self) -> Any:
        """Return extra state for :meth:`state_dict`; override together with :meth:`set_extra_state`.

        Raises:
            RuntimeError: when not overridden.
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
        error_msgs)`` before this cell's entries are loaded; it may edit ``state_dict`` in place."""
        _check_hook("register_load_state_dict_pre_hook", hook)
        handle = HookHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.handle_id] = hook
        return handle

    def register_load_state_dict_post_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, incompatible_keys)`` after this cell's sub-tree is loaded; it may edit the key lists."""
        _check_hook("register_load_state_dict_post_hook", hook)
        handle = HookHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.handle_id] = hook
        return handle

    def _has_extra_state(self) -> bool:
        return type(self).get_extra_state is not Cell.get_extra_state

    def _local_state(self) -> "OrderedDict[str, Tensor]":
        """This cell's own persistent state: parameters, then persistent buffers."""
        state = OrderedDict((k, v) for k, v in self._params.items() if v is not None)
        state.update((k, v) for k, v in self._buffers.items()
                     if v is not None and k not in self._non_persistent_buffers_set)
        return state

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        """Put this cell's own state (not its descendants') into ``destination``; subclasses may override."""
        for name, value in self._local_state().items():
            destination[prefix + name] = value
        if self._has_extra_state():
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> Any:
        """Return an OrderedDict of attribute path to Parameter / persistent buffer (not checkpoint names).

        Args:
            *args: ``destination, prefix, keep_vars`` positionally (deprecated).
            destination: a dict to fill (a new OrderedDict by default).
            prefix: prepended to every key.
            keep_vars: accepted for compatibility (values are the Parameter objects).

        Raises:
            TypeError: when ``destination`` is not a dict, ``prefix`` not a str or ``keep_vars`` not a bool.

        Example:
            >>> list(model.state_dict())
            ['param_a', 'buffer_a']
        """
        if args:
            warnings.warn("Positional args are being deprecated, use kwargs instead.", FutureWarning, stacklevel=2)
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"For 'state_dict', the type of destination must be OrderedDict, but got "
                            f"{type(destination)}.")
        if not isinstance(prefix, str):
            raise TypeError(f"For 'state_dict', the type of prefix must be string, but got {type(prefix)}.")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"For 'state_dict', the type of keep_vars must be bool, but got {type(keep_vars)}.")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata: dict = {}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in list(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in list(self._state_dict_hooks.values()):
            if hook(self, destination, prefix, local_metadata) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict, strict: bool,
                              missing_keys: list, unexpected_keys: list, error_msgs: list) -> None:
        """Copy this cell's own entries of ``state_dict`` (keys under ``prefix``) into its state.

        :meth:`load_state_dict` always passes ``strict=True`` here, so the key lists are complete
        (as in MindSpore); it decides afterwards whether they are errors. Subclasses may override.
        """
        for hook in list(self._load_state_dict_pre_hooks.values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local_state = self._local_state()
        for name, target in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected Tensor or Tensor-like object '
                                  f"from checkpoint but received {type(value)}")
            elif tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {tuple(value.shape)} from "
                                  f"checkpoint, the shape in current model is {tuple(target.shape)}.")
            else:
                target._set_value(_as_tf(value, target._var.dtype))
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not Cell.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        for key in state_dict if strict else ():
            if key.startswith(prefix) and key != extra_key:
                head, dot, _ = key[len(prefix):].partition(".")
                if (dot and head not in self._cells) or (not dot and head not in local_state):
                    unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> _IncompatibleKeys:
        """Copy values from ``state_dict`` (keyed as :meth:`state_dict`) into parameters and buffers.

        Args:
            state_dict: keys are attribute paths, values Tensors.
            strict: raise when keys are missing or unexpected.

        Returns:
            ``_IncompatibleKeys(missing_keys, unexpected_keys)``; its repr is
            ``<All keys matched successfully>`` when both are empty.

        Raises:
            TypeError: when ``state_dict`` is not a Mapping.
            RuntimeError: with ``strict`` when keys are missing or unexpected, and always for a
                value that is not a Tensor or has another shape.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"For 'load_state_dict', expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list = []
        unexpected: list = []
        errors: list = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)

        def load(cell: Cell, local: dict, prefix: str = "") -> None:
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            cell._load_from_state_dict(local, prefix, local_metadata, True, missing, unexpected, errors)
            for name, child in cell._cells.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)}, child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in list(cell._load_state_dict_post_hooks.values()):
                if hook(cell, keys) is not None:
                    raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not expected "
                                       "to return new values, if incompatible_keys need to be modified, it should be "
                                       "done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected)
                              + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {self.__class__.__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------------ apply
    def apply(self, fn: Callable[["Cell"], Any]) -> "Cell":
        """Call ``fn`` on every descendant (children first, through :meth:`cells`) and on self; returns self."""
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

    def run_construct(self, cast_inputs: tuple, kwargs: dict) -> Any:
        """Run ``construct`` on ``cast_inputs`` with the cell's hooks around it (deprecated in MindSpore).

        Args:
            cast_inputs: the positional inputs.
            kwargs: the keyword inputs.
        """
        _logger.warning("The 'run_construct' function of '%s' will be removed in a future version. Calling this "
                        "function is not recommended.", self.cls_name)
        return self._run_construct(tuple(cast_inputs), dict(kwargs))

    def _run_construct(self, args: tuple, kwargs: dict) -> Any:
        called: set = set()
        output = None
        try:
            if self._forward_pre_hook:
                args, kwargs = _run_with_values(lambda s: self._run_forward_pre_hook(*s), (args, kwargs),
                                                (args, kwargs))
            scope = _BackwardHookScope(self) if self._backward_hook or self._backward_pre_hook else None
            if self._backward_hook:
                args = scope.inputs(args)
            output = self._run_grad_construct(args, kwargs)
            if self._forward_hook:
                output = _run_with_values(lambda s: self._run_forward_hook(*s, called), (args, kwargs, output),
                                          output)
            if scope is not None:
                output = scope.outputs(output)
            return output
        except Exception:
            self._run_always_called_hooks(args, kwargs, output, called)
            raise

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

    # ----------------------------------------------------- compiled execution
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
        return self._compiled_fn(signature), args, kwargs

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

    def _compiled_fn(self, signature: tuple | None = None) -> Any:
        """The ``tf.function`` of construct for the current configuration and ``signature``."""
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


class GraphCell(Cell):
    """A Cell running a loaded graph: wraps a callable (e.g. a SavedModel signature or ``tf.function``).

    Args:
        graph: a callable taking and returning tensors.
        params_init: accepted for compatibility.
        obf_random_seed: accepted for compatibility.

    Raises:
        TypeError: when ``graph`` is not callable.
    """

    def __init__(self, graph: Callable, params_init: Any = None, obf_random_seed: Any = None) -> None:
        super().__init__(auto_prefix=True)
        if not callable(graph):
            raise TypeError(f"For 'GraphCell', the 'graph' must be callable, but got {type(graph).__name__}.")
        self.graph = graph

    def construct(self, *inputs: Any) -> Any:
        return _wrap_nest(self.graph(*[_unwrap_nest(i) for i in inputs]))

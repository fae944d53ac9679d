"""Walking a Cell tree: its sub-cells, parameters and buffers by name, and their naming.

``cells_and_names``, ``parameters_and_names``, ``trainable_params``, ``named_buffers`` ... read
the ordered registries that ``Cell.__setattr__`` fills (definition order, as MindSpore), and
``update_parameters_name`` / ``check_names`` keep MindSpore's parameter names unique. The
``tf.Module`` views (``variables``, ``trainable_variables``) follow the same order, so TF
checkpoints and tfspore's ``.ckpt`` files list the weights alike.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any, Callable, Iterator

import tensorflow as tf

from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor


_PREFIX_RE = re.compile(r"^\w*[0-9a-zA-Z_.\-]*$", re.ASCII)


class CellTree:
    """The traversal of a :class:`~tfspore.nn.Cell` tree: sub-cells, parameters, buffers."""

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

    def get_sub_cell(self, target: str) -> "CellTree":
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
            if not isinstance(cell, CellTree):
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

    def cells_and_names(self, cells: Any = None, name_prefix: str = "") -> Iterator[tuple[str, "CellTree"]]:
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

    def name_cells(self) -> "OrderedDict[str, CellTree]":
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

    def apply(self, fn: Callable[["CellTree"], Any]) -> "CellTree":
        """Call ``fn`` on every descendant (children first, through :meth:`cells`) and on self; returns self."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

"""Containers: ``SequentialCell``, ``CellList`` and ``CellDict``.

Children are keyed ``'0'``, ``'1'``, ... (or by the OrderedDict / dict keys), so parameters are
named ``0.weight``, ``layers.1.bias``, ... exactly as in MindSpore, including after ``append``,
``insert`` and deletion.

Example:
    >>> from tfspore import nn
    >>> seq = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU()])
    >>> [p.name for p in seq.get_parameters()]
    ['0.weight', '0.bias']
"""
from __future__ import annotations

from collections import OrderedDict, abc
from typing import Any, Iterable, Iterator

from tfspore._internal import state as _state
from tfspore.nn.cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _valid_index(cell_num: int, index: Any, op_name: str | None = None) -> int:
    prefix = f"For '{op_name}', the" if op_name else "The"
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"{prefix} type of 'index' must be int, but got {type(index).__name__}.")
    if not -cell_num <= index < cell_num:
        raise IndexError(f"{prefix} value of 'index' must be a number in range [{-cell_num}, {cell_num}), but got "
                         f"{index}.")
    return index % cell_num


def _valid_index_for_inserting(cell_num: int, index: Any, op_name: str | None = None) -> int:
    prefix = f"For '{op_name}', the" if op_name else "The"
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"{prefix} type of 'index' must be int, but got {type(index).__name__}.")
    if not -cell_num <= index <= cell_num:
        raise IndexError(f"{prefix} value of 'index' must be a number in range [{-cell_num}, {cell_num}], but got "
                         f"{index}.")
    return index % cell_num if (cell_num != 0 and index != cell_num) else index


def _valid_cell(cell: Any, op_name: str | None = None) -> bool:
    if isinstance(cell, Cell):
        return True
    prefix = f"For '{op_name}'," if op_name else ""
    raise TypeError(f"{prefix} each cell must be subclass of Cell, but got {type(cell).__name__}.")


def _get_prefix_and_index(cells: "OrderedDict[str, Cell]") -> tuple[str, int]:
    """Recover the name prefix under which the container's children are named (``layers.``) and its depth."""
    prefix, index = "", 0
    if not cells:
        return prefix, index
    first_param = first_key = second_param = second_key = None
    for key, cell in cells.items():
        if cell is None:
            continue
        try:
            _, param = next(iter(cell.parameters_and_names()))
        except StopIteration:
            continue
        if first_param is None:
            first_param, first_key = param, key
            continue
        second_param, second_key = param, key
        break
    if first_param is None:
        return prefix, index
    split_names = first_param.name.split(".")
    for idx, name in enumerate(split_names):
        if name == first_key:
            prefix = ".".join(split_names[:idx])
            prefix = prefix + "." if prefix else prefix
            index = idx
            if second_param is not None and second_param.name.split(".")[idx] == second_key:
                break
    return prefix, index


def _rename(cell: Cell, prefix: str, key: str, key_index: int) -> None:
    for _, param in cell.parameters_and_names():
        param.name = prefix + key + "." + ".".join(param.name.split(".")[key_index + 1:])


def _reset_cells(owner: Cell, items: Iterable[tuple[str, Cell]]) -> None:
    cells = owner._cells
    new = list(items)
    cells.clear()
    cells.update(new)
    _state.bump()


class _CellSequence(Cell):
    """The sequence protocol of ``SequentialCell`` and ``CellList``: the children in key order."""

    def __bool__(self) -> bool:
        return len(self._cells) != 0

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells.values())

    def _insert_at(self, index: Any, cell: Any) -> int:
        """Insert ``cell`` into ``self._cells`` before position ``index``, shifting the later keys (and, with
        ``auto_prefix``, their parameter names) by one; returns the checked position."""
        cls_name = self.__class__.__name__
        idx = _valid_index_for_inserting(len(self), index, cls_name)
        _valid_cell(cell, cls_name)
        length = len(self)
        prefix, key_index = _get_prefix_and_index(self._cells)
        while length > idx:
            if self._auto_prefix:
                _rename(self._cells[str(length - 1)], prefix, str(length), key_index)
            self._cells[str(length)] = self._cells[str(length - 1)]
            length -= 1
        self._cells[str(idx)] = cell
        if self._auto_prefix:
            cell.update_parameters_name(prefix + str(idx) + ".")
        _state.bump()
        return idx


class SequentialCell(_CellSequence):
    """Run Cells one after the other.

    Args:
        *args: a list of Cells, an OrderedDict of name to Cell, one Cell, or several Cells.

    Inputs:
        x: the input of the first Cell.

    Raises:
        TypeError: when the argument is not a Cell, list or OrderedDict.

    Example:
        >>> from tfspore import nn
        >>> seq = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU())
        >>> len(seq), seq[1]
        (2, ReLU())
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        self._is_dynamic_name: list = []
        if len(args) == 1:
            cells = args[0]
            if isinstance(cells, Cell):
                self._add("0", cells, True)
            elif isinstance(cells, list):
                for index, cell in enumerate(cells):
                    self._add(str(index), cell, True)
            elif isinstance(cells, OrderedDict):
                for name, cell in cells.items():
                    self._add(name, cell, False)
            else:
                raise TypeError(f"For '{self.__class__.__name__}', the 'args[0]' must be Cell, list or orderedDict, "
                                f"but got {type(cells).__name__}")
        else:
            for index, cell in enumerate(args):
                self._add(str(index), cell, True)

    def _add(self, name: str, cell: Any, dynamic: bool) -> None:
        _valid_cell(cell, self.__class__.__name__)
        self.insert_child_to_cell(name, cell)
        cell.update_parameters_name(name + ".")
        self._is_dynamic_name.append(dynamic)

    @property
    def cell_list(self) -> list:
        """The child Cells, in order."""
        return list(self._cells.values())

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.__class__(OrderedDict(list(self._cells.items())[index]))
        index = _valid_index(len(self), index, self.__class__.__name__)
        return list(self._cells.values())[index]

    def __setitem__(self, index: int, cell: Cell) -> None:
        cls_name = self.__class__.__name__
        if _valid_cell(cell, cls_name):
            prefix, _ = _get_prefix_and_index(self._cells)
            index = _valid_index(len(self), index, cls_name)
            key = list(self._cells.keys())[index]
            self._cells[key] = cell
            cell.update_parameters_name(prefix + key + ".")
            _state.bump()

    def __delitem__(self, index: Any) -> None:
        cls_name = self.__class__.__name__
        if isinstance(index, int) and not isinstance(index, bool):
            index = _valid_index(len(self), index, cls_name)
            key = list(self._cells.keys())[index]
            del self._cells[key]
            del self._is_dynamic_name[index]
        elif isinstance(index, slice):
            for key in list(self._cells.keys())[index]:
                del self._cells[key]
            del self._is_dynamic_name[index]
        else:
            raise TypeError(f"For '{cls_name}', the type of index must be int type or slice type, but got "
                            f"{type(index).__name__}")
        prefix, key_index = _get_prefix_and_index(self._cells)
        items = []
        for idx, (key, cell) in enumerate(list(self._cells.items())):
            if self._is_dynamic_name[idx]:
                _rename(cell, prefix, str(idx), key_index)
                items.append((str(idx), cell))
            else:
                items.append((key, cell))
        _reset_cells(self, items)

    def set_grad(self, flag: bool = True) -> "SequentialCell":
        """Set ``requires_grad`` on the container and its children; returns self."""
        self.__dict__["requires_grad"] = flag
        for cell in self._cells.values():
            cell.set_grad(flag)
        return self

    def append(self, cell: Cell) -> "SequentialCell":
        """Append ``cell``, keyed by the next index; returns self.

        Raises:
            TypeError: when ``cell`` is not a Cell.
        """
        if _valid_cell(cell, self.__class__.__name__):
            prefix, _ = _get_prefix_and_index(self._cells)
            cell.update_parameters_name(prefix + str(len(self)) + ".")
            self._is_dynamic_name.append(True)
            self._cells[str(len(self))] = cell
            _state.bump()
        return self

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``, shifting the later keys (and names) by one.

        Raises:
            TypeError: when ``index`` is not an int or ``cell`` not a Cell.
            IndexError: when ``index`` is out of range.
        """
        idx = self._insert_at(index, cell)
        self._is_dynamic_name.insert(idx, True)

    def construct(self, input_data: Any) -> Any:
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_CellSequence):
    """Hold Cells in a list (not connected: ``construct`` is not defined).

    Args:
        *args: optionally, a list of Cells.
        **kwargs: ``auto_prefix`` (default True).

    Example:
        >>> from tfspore import nn
        >>> cl = nn.CellList([nn.Dense(3, 3)])
        >>> cl.append(nn.ReLU())
        >>> len(cl)
        2
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Cell.__init__(self, kwargs.get("auto_prefix", True))
        self.__dict__["__cell_as_list__"] = True
        if len(args) == 1:
            self.extend(args[0])

    def __getitem__(self, index: Any) -> Any:
        cls_name = self.__class__.__name__
        if isinstance(index, slice):
            return CellList(list(self._cells.values())[index])
        if isinstance(index, int) and not isinstance(index, bool):
            index = _valid_index(len(self), index, cls_name)
            return self._cells[str(index)]
        raise TypeError(f"For '{cls_name}', the type of 'index' must be int or slice, but got "
                        f"{type(index).__name__}.")

    def __setitem__(self, index: int, cell: Cell) -> None:
        cls_name = self.__class__.__name__
        if (isinstance(index, bool) or not isinstance(index, int)) and _valid_cell(cell, cls_name):
            raise TypeError(f"For '{cls_name}', the type of 'index' must be int, but got {type(index).__name__}.")
        _valid_cell(cell, cls_name)
        index = _valid_index(len(self), index, cls_name)
        if self._auto_prefix:
            prefix, _ = _get_prefix_and_index(self._cells)
            cell.update_parameters_name(prefix + str(index) + ".")
        self._cells[str(index)] = cell
        _state.bump()

    def __delitem__(self, index: Any) -> None:
        cls_name = self.__class__.__name__
        if isinstance(index, int) and not isinstance(index, bool):
            index = _valid_index(len(self), index, cls_name)
            del self._cells[str(index)]
        elif isinstance(index, slice):
            for key in list(self._cells.keys())[index]:
                del self._cells[key]
        else:
            raise TypeError(f"For '{cls_name}', the type of 'index' must be int or slice, but got "
                            f"{type(index).__name__}.")
        prefix, key_index = _get_prefix_and_index(self._cells)
        items = []
        for idx, cell in enumerate(list(self._cells.values())):
            if self._auto_prefix:
                _rename(cell, prefix, str(idx), key_index)
            items.append((str(idx), cell))
        _reset_cells(self, items)

    def __iadd__(self, cells: list) -> "CellList":
        self.extend(cells)
        return self

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``.

        Raises:
            TypeError: when ``index`` is not an int or ``cell`` not a Cell.
            IndexError: when ``index`` is out of range.
        """
        self._insert_at(index, cell)

    def extend(self, cells: list) -> "CellList":
        """Append each Cell of ``cells``; returns self.

        Raises:
            TypeError: when ``cells`` is not a list of Cells, or holds a CellDict.
        """
        cls_name = self.__class__.__name__
        if not isinstance(cells, list):
            raise TypeError(f"For '{cls_name}', the new cells wanted to append should be instance of list, but got "
                            f"{type(cells).__name__}.")
        prefix, _ = _get_prefix_and_index(self._cells)
        for cell in cells:
            if isinstance(cell, CellDict):
                raise TypeError(f"For '{cls_name}', the type of cell can not be CellDict, but got "
                                f"{type(cell).__name__}.")
            if _valid_cell(cell, cls_name):
                if self._auto_prefix:
                    cell.update_parameters_name(prefix + str(len(self)) + ".")
                self._cells[str(len(self))] = cell
        _state.bump()
        return self

    def append(self, cell: Cell) -> None:
        """Append ``cell``.

        Raises:
            TypeError: when ``cell`` is not a Cell.
        """
        if _valid_cell(cell, self.__class__.__name__):
            if self._auto_prefix:
                prefix, _ = _get_prefix_and_index(self._cells)
                cell.update_parameters_name(prefix + str(len(self)) + ".")
            self._cells[str(len(self))] = cell
            _state.bump()

    def set_grad(self, flag: bool = True) -> "CellList":
        """Set ``requires_grad`` on the container and its children; returns self."""
        self.__dict__["requires_grad"] = flag
        for cell in self._cells.values():
            cell.set_grad(flag)
        return self

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError(f"For '{self.__class__.__name__}', the cells are not connected: call them "
                                  f"one by one.")


class CellDict(Cell):
    """Hold Cells in an ordered dictionary keyed by name.

    Args:
        *args: optionally, a mapping of name to Cell or an iterable of ``(name, Cell)`` pairs.
        **kwargs: ``auto_prefix`` (default True).

    Example:
        >>> from tfspore import nn
        >>> cd = nn.CellDict({'relu': nn.ReLU()})
        >>> list(cd.keys())
        ['relu']
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Cell.__init__(self, kwargs.get("auto_prefix", True))
        self.__dict__["__cell_as_dict__"] = True
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        self._validate_key(key)
        self._validate_cell_type(cell)
        if self._auto_prefix:
            prefix, _ = _get_prefix_and_index(self._cells)
            cell.update_parameters_name(prefix + key + ".")
        self._cells[key] = cell
        _state.bump()

    def __delitem__(self, key: str) -> None:
        del self._cells[key]
        _state.bump()

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __contains__(self, key: object) -> bool:
        return key in self._cells

    def _validate_key(self, key: Any) -> None:
        cls_name = self.__class__.__name__
        if not isinstance(key, str):
            raise TypeError(f"For '{cls_name}', the type of key should be string but got {type(key).__name__}.")
        if key not in self._cells and (key in self.__dict__ or hasattr(type(self), key) or key in self._params):
            raise KeyError(f"For '{cls_name}', the key can not be same with the attributes of Cell, but got key "
                           f"{key}.")
        if "." in key:
            raise KeyError(f"For '{cls_name}', key can not contain \".\", but got key {key}")
        if key == "":
            raise KeyError(f"For '{cls_name}', key can not be empty string \"\", but got key {key}")

    def _validate_cell_type(self, cell: Any) -> None:
        cls_name = self.__class__.__name__
        if cell is None:
            raise TypeError(f"For '{cls_name}', cell can not be None.")
        if not isinstance(cell, Cell):
            raise TypeError(f"For '{cls_name}', the type of cell should be Cell, but got {type(cell).__name__}.")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For '{cls_name}', the type of cell can not be CellDict, CellList or SequentialCell, "
                            f"but got {type(cell).__name__}.")

    def clear(self) -> None:
        """Remove every Cell."""
        self._cells.clear()
        _state.bump()

    def pop(self, key: str) -> Cell:
        """Remove ``key`` and return its Cell.

        Raises:
            KeyError: when ``key`` is absent.
        """
        value = self[key]
        del self[key]
        return value

    def keys(self) -> Any:
        """The keys."""
        return self._cells.keys()

    def values(self) -> Any:
        """The Cells."""
        return self._cells.values()

    def items(self) -> Any:
        """The ``(key, Cell)`` pairs."""
        return self._cells.items()

    def update(self, cells: Any) -> None:
        """Add or overwrite entries from a mapping or an iterable of ``(key, Cell)`` pairs.

        Raises:
            TypeError: when ``cells`` is not iterable, a pair is not iterable, or a Cell is invalid.
            ValueError: when a pair does not have two items.
            KeyError: for an invalid key.
        """
        if not isinstance(cells, abc.Iterable):
            raise TypeError("CellDict.update() should be called with an iterable of key-value pairs, but got "
                            + type(cells).__name__)
        if isinstance(cells, (OrderedDict, CellDict, abc.Mapping)):
            for key, cell in cells.items():
                self[key] = cell
        else:
            for i, k_v in enumerate(cells):
                if not isinstance(k_v, abc.Iterable):
                    raise TypeError(f"CellDict update sequence element #{i} should be Iterable; but got "
                                    f"{type(k_v).__name__}")
                if len(k_v) != 2:
                    raise ValueError(f"CellDict update sequence element #{i}, length should be 2; but has length "
                                     f"{len(k_v)}")
                self[k_v[0]] = k_v[1]

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError(f"For '{self.__class__.__name__}', the cells are not connected: call them "
                                  f"by key.")

"""Column-name rules of the dataset pipeline that need the columns a dataset really has."""
from __future__ import annotations

from typing import Any, List, Sequence

from tfspore._internal import validator

__all__ = ["check_known_columns", "replace_columns", "check_column_names"]


def check_column_names(column_names: Any, count: int, api: str, source: str) -> List[str]:
    """The ``column_names`` a user gave a source of ``count`` columns (``source`` describes them).

    Raises:
        TypeError, ValueError: for names that are not distinct non-empty strs, or not ``count`` of them.
    """
    given = validator.check_unique_names(column_names, "column_names", api)
    if len(given) != count:
        raise ValueError(f"For '{api}', column_names has {len(given)} name(s) but {source}: "
                         f"column_names={given!r}.")
    return given


def check_known_columns(columns: Sequence[str], available: Sequence[str], name: str, api: str) -> None:
    """Raise RuntimeError (MindSpore reports these at execution) for a column that does not exist.

    Raises:
        RuntimeError: ``For 'Dataset.map', the column 'x' in 'input_columns' does not exist in the dataset;
            input_columns=['x'], available columns: ['image', 'label'].``
    """
    for col in columns:
        if col not in available:
            raise RuntimeError(f"For '{api}', the column '{col}' in '{name}' does not exist in the dataset; "
                               f"{name}={list(columns)!r}, available columns: {list(available)!r}.")


def replace_columns(columns: List[str], inputs: List[str], outputs: List[str], api: str) -> List[str]:
    """MindSpore's layout: outputs take the place of the inputs (in place when the counts match)."""
    if len(inputs) == len(outputs):
        result = [outputs[inputs.index(c)] if c in inputs else c for c in columns]
    else:
        position = min(columns.index(c) for c in inputs)
        kept = [c for c in columns if c not in inputs]
        position -= sum(1 for c in columns[:position] if c in inputs)
        result = kept[:position] + list(outputs) + kept[position:]
    dup = sorted({c for c in result if result.count(c) > 1})
    if dup:
        raise RuntimeError(f"For '{api}', the output columns {outputs!r} clash with existing columns {dup}; "
                           f"the resulting columns would be {result!r}.")
    return result


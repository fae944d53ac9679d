"""Column-name rules of the dataset pipeline that need the columns a dataset really has."""
from __future__ import annotations

from typing import Sequence


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

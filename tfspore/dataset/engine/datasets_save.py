"""``Dataset.save``: write a pipeline's rows into MindRecord files.

Column types map as MindSpore maps them (bool, int8, uint8, int16, uint16 -> int32;
uint32, uint64 -> int64; float16 -> float32; str -> string; bytes -> bytes); a scalar column
is a scalar field, an array column an array field whose first dimension is -1. With
``mindrecord.set_enc_key`` the file is encrypted (one file only, as in MindSpore).

Example:
    >>> import numpy as np
    >>> import tfspore.dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    >>> data.save("/tmp/doc_save.mindrecord")  # doctest: +SKIP
"""
from __future__ import annotations

import os
from typing import Any, Dict, List

import numpy as np

from tfspore.mindrecord import FileWriter
from tfspore.mindrecord.core import shardcrypt

__all__ = ["save_to_mindrecord"]

_CASTS = {"bool": "int32", "int8": "int32", "uint8": "int32", "int16": "int32", "uint16": "int32",
          "int32": "int32", "uint32": "int64", "int64": "int64", "uint64": "int64", "float16": "float32",
          "float32": "float32", "float64": "float64"}
_CHUNK = 1000


def _field(name: str, value: np.ndarray, api: str) -> Dict[str, Any]:
    kind = value.dtype.kind
    if kind in "US" or value.dtype == object:
        if value.ndim != 0:
            raise RuntimeError(f"For '{api}', MindRecord does not support multidimensional string or bytes: column "
                               f"'{name}' has shape {list(value.shape)}.")
        return {"type": "bytes" if kind == "S" or isinstance(value.item(), bytes) else "string"}
    if value.dtype.name not in _CASTS:
        raise RuntimeError(f"For '{api}', column '{name}' has type {value.dtype}, which MindRecord cannot store.")
    spec = {"type": _CASTS[value.dtype.name]}
    if value.ndim:
        spec["shape"] = [-1] + list(value.shape[1:])
    return spec


def _convert(value: np.ndarray, spec: Dict[str, Any]) -> Any:
    if spec["type"] in ("string", "bytes"):
        item = value.item()
        if spec["type"] == "bytes":
            return item if isinstance(item, bytes) else str(item).encode("utf-8")
        return item.decode("utf-8") if isinstance(item, bytes) else str(item)
    if "shape" in spec:
        return np.ascontiguousarray(value, dtype=spec["type"])
    return value.astype(spec["type"]).item()


def save_to_mindrecord(dataset: Any, file_name: str, num_files: int = 1, file_type: str = "mindrecord") -> None:
    """Write every row of `dataset` (one pass) into `num_files` MindRecord files.

    Raises:
        ValueError: If `file_type` is not 'mindrecord' or `num_files` is out of [1, 1000].
        RuntimeError: If a column cannot be stored, or later rows change a column's type or rank.
    """
    api = "Dataset.save"
    if file_type != "mindrecord":
        raise ValueError(f"For '{api}', file_type only supports 'mindrecord', but got {file_type!r}.")
    if isinstance(num_files, bool) or not isinstance(num_files, int) or not 1 <= num_files <= 1000:
        raise ValueError(f"For '{api}', num_files should be between [1, 1000], but got {num_files!r}.")
    if not isinstance(file_name, (str, os.PathLike)):
        raise TypeError(f"For '{api}', the argument 'file_name' must be a str, but got {file_name!r}.")
    if num_files > 1 and shardcrypt.get_enc_key() is not None:
        raise RuntimeError(f"For '{api}', when encode mode is enabled, the automatic sharding function is "
                           f"unavailable, but got num_files={num_files}.")
    names = dataset.get_col_names()
    writer = FileWriter(os.fspath(file_name), shard_num=num_files)
    writer.raw_placeholder = None  # MindSpore's save stores nil when no column is a scalar
    schema = None
    chunk: List[dict] = []
    for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        values = [np.asarray(v) for v in row]
        if schema is None:
            schema = {n: _field(n, v, api) for n, v in zip(names, values)}
            writer.add_schema(schema, "mindrecord")
            scalars = [n for n in names if "shape" not in schema[n] and schema[n]["type"] != "bytes"]
            if scalars:
                writer.add_index(scalars)
        for n, v in zip(names, values):
            spec = _field(n, v, api)
            if spec != schema[n] and not ("shape" in spec and "shape" in schema[n] and spec["type"] == schema[n]["type"]
                                          and len(spec["shape"]) == len(schema[n]["shape"])):
                raise RuntimeError(f"For '{api}', column '{n}' changed from {schema[n]} in the first row to {spec}.")
        chunk.append({n: _convert(v, schema[n]) for n, v in zip(names, values)})
        if len(chunk) == _CHUNK:
            writer.write_raw_data(chunk)
            chunk = []
    if schema is None:
        raise RuntimeError(f"For '{api}', the dataset has no row to save.")
    if chunk:
        writer.write_raw_data(chunk)
    writer.commit()

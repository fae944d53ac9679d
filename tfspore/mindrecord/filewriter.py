"""``mindspore.mindrecord.FileWriter``: write samples into MindRecord files.

Example:
    >>> from tfspore.mindrecord import FileWriter
    >>> writer = FileWriter("/tmp/doc_example.mindrecord", shard_num=1, overwrite=True)
    >>> writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
    ...                    "data": {"type": "bytes"}}, "example")
    >>> writer.write_raw_data([{"file_name": "1.jpg", "label": 1, "data": b"\\x10\\x20"}])
    >>> writer.commit()
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional

import numpy as np

from tfspore import log as logger
from tfspore.mindrecord.common.exceptions import (MRMAddIndexError, MRMAddSchemaError, MRMDefineIndexError,
                                                  MRMGetMetaError, MRMInvalidHeaderSizeError, MRMOpenForAppendError,
                                                  MRMInvalidPageSizeError, MRMInvalidSchemaError, ParamTypeError,
                                                  ParamValueError)
from tfspore.mindrecord.core import shardcrypt
from tfspore.mindrecord.core import shardformat as fmt
from tfspore.mindrecord.core import shardindex
from tfspore.mindrecord.core import shardutils as su
from tfspore.mindrecord.core.shardreader import read_header, read_pages
from tfspore.mindrecord.core.shardwriter import ShardWriter

__all__ = ["FileWriter"]


def _read_bytes(path: str) -> bytes:
    """The bytes of the file `path`."""
    with open(path, "rb") as f:
        return f.read()


def _shard_paths(file_name: str, shard_num: int) -> List[str]:
    if shard_num == 1:
        return [file_name]
    width = len(str(shard_num - 1))
    return [f"{file_name}{str(k).rjust(width, '0')}" for k in range(shard_num)]


def _validate_schema(content: Any) -> Optional[str]:
    """MindSpore's schema checks; the error message, or None when valid."""
    if not content:
        return "Schema content is empty."
    if not isinstance(content, dict):
        return "Schema content should be dict."
    for k, v in content.items():
        if not isinstance(k, str) or not re.match(r"^[0-9a-zA-Z\_]+$", k):
            return f"Field '{k}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."
        if not v or not isinstance(v, dict):
            return f"Field '{k}' should be dict."
        if len(v) == 1 and "type" in v:
            if v["type"] not in su.VALID_ATTRIBUTES:
                return f"Field '{k}' contain illegal attribute '{v['type']}'."
        elif len(v) == 2 and "type" in v:
            if v["type"] not in su.VALID_ARRAY_ATTRIBUTES:
                return f"Field '{k}' contain illegal attribute '{v['type']}'."
            if "shape" not in v:
                return f"Field '{v}' contains illegal attributes."
            shape = v["shape"]
            if not isinstance(shape, list) or not shape or any(
                    isinstance(d, bool) or not isinstance(d, int) or (d <= 0 and d != -1) for d in shape) \
                    or shape.count(-1) > 1:
                return f"Field '{k}' contain illegal attribute '{shape}'."
        else:
            return f"Field '{v}' contains illegal attributes."
    return None


class FileWriter:
    """Write samples described by a schema into MindRecord files (MindSpore's on-disk format).

    Args:
        file_name: The file path; with `shard_num` > 1 the files are ``file_name`` + shard number.
        shard_num: Number of files, in [1, 1000]. Default: 1.
        overwrite: Replace existing files. Default: False.

    Raises:
        ParamValueError: If `file_name`, `shard_num` or `overwrite` is invalid.
        RuntimeError: If `shard_num` > 1 while a key is set (:func:`tfspore.mindrecord.set_enc_key`).

    Example:
        >>> from tfspore.mindrecord import FileWriter
        >>> writer = FileWriter("/tmp/doc_example2.mindrecord", overwrite=True)
        >>> writer.add_schema({"label": {"type": "int64"}}, "labels")
        >>> writer.write_raw_data([{"label": 3}])
        >>> writer.commit()
    """

    def __init__(self, file_name: str, shard_num: int = 1, overwrite: bool = False) -> None:
        su.check_filename(file_name)
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int):
            raise ParamValueError(f"Parameter shard_num's type is not int, but got {type(shard_num).__name__}.")
        if not su.MIN_SHARD_COUNT <= shard_num <= su.MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{su.MIN_SHARD_COUNT} and {su.MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError(f"Parameter overwrite's type is not bool, but got {overwrite!r}.")
        if shard_num > 1 and shardcrypt.get_enc_key() is not None:
            raise RuntimeError(f"When encode mode is enabled, the automatic sharding function is unavailable, but "
                               f"got shard_num={shard_num} for {file_name!r}.")
        self._file_name = file_name
        self._shard_num = shard_num
        self._paths = _shard_paths(file_name, shard_num)
        self._overwrite = overwrite
        self._schema: Optional[Dict[str, dict]] = None
        self._desc = ""
        self._index_fields: Optional[List[str]] = None
        self._header_size = su.DEFAULT_HEADER_SIZE
        self._page_size = su.DEFAULT_PAGE_SIZE
        self._shards: Optional[List[ShardWriter]] = None
        self._compression = 0
        self._flushed = False
        self._parallel_writer: Optional[bool] = None
        self._next_shard = 0
        # open_for_append of encrypted files: the decrypted index of each shard, put back before
        # commit updates it in place
        self._plain_indexes: Dict[str, bytes] = {}
        # The scalar record of a sample when the schema has no scalar field: FileWriter stores
        # {"id": 0}; MindSpore's Dataset.save stores nil (tfspore's sets None here).
        self.raw_placeholder: Optional[Dict[str, Any]] = {"id": 0}

    @classmethod
    def open_for_append(cls, file_name: str) -> "FileWriter":
        """Open existing MindRecord files (`file_name` and the other shards its header lists) to
        append samples; `commit` rewrites them and their indexes.

        Raises:
            ParamValueError: If `file_name` is invalid.
            MRMOpenForAppendError: If a file or its index is missing or corrupt.
        """
        su.check_filename(file_name)
        # Encrypted files (set_enc_key) are read from plaintext copies; commit encrypts them again.
        plain = shardcrypt.open_plain(file_name, "FileWriter.open_for_append")
        try:
            return cls._reopen(file_name, plain.paths)
        finally:
            plain.close()

    @classmethod
    def _reopen(cls, file_name: str, source: str) -> "FileWriter":
        """A writer for the shards of `file_name`, read from `source` (the file or its plaintext copy)."""
        try:
            header = read_header(source)
        except (OSError, RuntimeError) as err:
            raise MRMOpenForAppendError(f"Failed to open {file_name!r} for appending: {err}") from err
        folder = os.path.dirname(file_name)
        source_folder = os.path.dirname(source)
        paths = [os.path.join(folder, name) for name in header["shard_addresses"]]
        writer = cls(file_name, shard_num=1, overwrite=True)
        writer._paths = paths
        writer._shard_num = len(paths)
        meta = header["schema"][0]
        writer._schema = {k: dict(v) for k, v in meta["schema"].items()}
        writer._desc = meta.get("desc", "")
        writer._index_fields = [f["index_field"] for f in header["index_fields"]]
        writer._header_size = header["header_size"]
        writer._page_size = header["page_size"]
        writer._compression = int(header.get("compression_size") or 0)
        shards = []
        for k, path in enumerate(paths):
            src = os.path.join(source_folder, os.path.basename(path))
            try:
                head = header if src == source else read_header(src)
                shards.append(ShardWriter.reopen(path, k, head, read_pages(src, head),
                                                 shardindex.read_index_rows(src + ".db")))
            except (OSError, RuntimeError) as err:
                raise MRMOpenForAppendError(f"Failed to open {path!r} for appending: {err}") from err
        writer._shards = shards
        if source != file_name:
            writer._plain_indexes = {path: _read_bytes(os.path.join(source_folder, os.path.basename(path)) + ".db")
                                     for path in paths}
        return writer

    # ---- schema -----------------------------------------------------------------------------
    def add_schema(self, content: Dict[str, dict], desc: Optional[str] = None) -> None:
        """Set the schema: field name -> ``{"type": t}`` (int32, int64, float32, float64, string,
        bytes) or ``{"type": t, "shape": [...]}`` (a numeric array; one dimension may be -1).

        Raises:
            MRMInvalidSchemaError: If the schema is invalid.
            MRMAddSchemaError: If a schema was already added.
        """
        error = _validate_schema(content)
        if error is not None:
            raise MRMInvalidSchemaError(f"{error} (schema: {content!r})")
        if self._schema is not None:
            raise MRMAddSchemaError("Failed to add schema: the schema is already set.")
        if desc is not None and not isinstance(desc, str):
            raise ParamTypeError("desc", "str")
        self._schema = {k: dict(v) for k, v in content.items()}
        self._desc = desc or ""

    @property
    def _blob_fields(self) -> List[str]:
        if self._schema is None:
            raise MRMGetMetaError("Failed to get meta info: add_schema has not been called.")
        return sorted((k for k, v in self._schema.items() if v["type"] == "bytes" or "shape" in v),
                      key=lambda s: s.encode("utf-8"))

    def add_index(self, index_fields: List[str]) -> None:
        """Choose the index fields (scalar fields; default all of them).

        Raises:
            ParamTypeError: If `index_fields` is not a non-empty list of str.
            MRMDefineIndexError: If a field is a bytes or array field.
            MRMGetMetaError: If no schema was added.
            MRMAddIndexError: If a field is not in the schema.
        """
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        blob = self._blob_fields
        for field in index_fields:
            if field in blob:
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not primitive type.")
            if not isinstance(field, str):
                raise ParamTypeError("index field", "str")
            if field not in self._schema:
                raise MRMAddIndexError(f"Failed to add index field: {field!r} is not a field of the schema "
                                       f"{sorted(self._schema)}.")
        if len(set(index_fields)) != len(index_fields):
            raise MRMAddIndexError(f"Failed to add index field: duplicate fields in {index_fields!r}.")
        self._index_fields = list(index_fields)

    def set_header_size(self, header_size: int) -> None:
        """Set the header size in bytes, in [16 KB, 128 MB] (default 16 MB).

        Raises:
            MRMInvalidHeaderSizeError: If the size is out of range or data was already written.
        """
        self._header_size = self._check_size("header", header_size, su.MIN_HEADER_SIZE, su.MAX_HEADER_SIZE,
                                             MRMInvalidHeaderSizeError)

    def set_page_size(self, page_size: int) -> None:
        """Set the page size in bytes, in [32 KB, 256 MB] (default 32 MB).

        Raises:
            MRMInvalidPageSizeError: If the size is out of range or data was already written.
        """
        self._page_size = self._check_size("page", page_size, su.MIN_PAGE_SIZE, su.MAX_PAGE_SIZE,
                                           MRMInvalidPageSizeError)

    def _check_size(self, what: str, size: Any, low: int, high: int, error: type) -> int:
        """``size`` (of the header or a page: ``what``) when it is an int in ``[low, high]`` and nothing was written."""
        if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= high or self._shards is not None:
            raise error(f"Failed to set {what} size: {what}_size should be between {low} and {high} and be set "
                        f"before writing, but got {size!r}.")
        return size

    # ---- writing ----------------------------------------------------------------------------
    def _open(self) -> None:
        if self._shards is not None:
            return
        if self._schema is None:
            raise MRMGetMetaError("Failed to get meta info: add_schema has not been called.")
        for path in self._paths:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise RuntimeError(f"Invalid file, the directory of MindRecord file {path!r} does not exist.")
            for item in (path, path + ".db"):
                if os.path.exists(item):
                    if not self._overwrite:
                        raise RuntimeError(f"Invalid file, mindrecord files already exist. Please check file "
                                           f"path: {item}.\nIf you do not want to keep the files, set the "
                                           f"'overwrite' parameter to True and try again.")
                    os.remove(item)
        # MindSpore's parallel writer makes its shards with the default sizes: set_page_size and
        # set_header_size have no effect there.
        page_size = su.DEFAULT_PAGE_SIZE if self._parallel_writer else self._page_size
        self._shards = [ShardWriter(p, k, page_size) for k, p in enumerate(self._paths)]

    def _verify(self, raw_data: List[dict]) -> List[dict]:
        """Rows that match the schema; the others are dropped with a warning, as MindSpore does."""
        kept = []
        dtypes = {f: np.dtype(spec["type"]) for f, spec in self._schema.items() if "shape" in spec}
        # field -> (product of the known dimensions, whether one dimension is -1): np.reshape's rule
        sizes = {f: (max(1, int(np.prod([d for d in spec["shape"] if d != -1]))), -1 in spec["shape"])
                 for f, spec in self._schema.items() if "shape" in spec}
        for i, row in enumerate(raw_data):
            problem = None
            for field, spec in self._schema.items():
                if field not in row:
                    problem = f"there is not field: '{field}' in the raw data."
                    break
                value = row[field]
                kind = type(value).__name__
                if kind not in su.VALUE_TYPE_MAP or spec["type"] not in su.VALUE_TYPE_MAP[kind]:
                    problem = f"data type: '{kind}' for field: '{field}' is not matched."
                    break
                if kind == "ndarray":
                    if "shape" not in spec:
                        problem = f"data shape for field: '{field}' is not specified."
                        break
                    if value.dtype != dtypes[field]:
                        problem = f"data type: '{value.dtype}' for field: '{field}' is not matched."
                        break
                    known, free = sizes[field]
                    if (value.size % known != 0) if free else value.size != known:
                        problem = f"data shape: '{value.shape}' for field: '{field}' is not matched."
                        break
            if problem is None:
                kept.append(row)
            else:
                logger.warning(f"For 'FileWriter.write_raw_data', for schema, {i} th data is wrong, {problem}")
        return kept

    def _prepare(self, rows: List[dict]) -> List[tuple]:
        """Rows as (raw dict, blob payload, index values, bytes saved by compression), each blob
        field encoded for all rows at once."""
        blob_fields = self._blob_fields
        raw_fields = [k for k in self._schema if k not in blob_fields]
        index = self._index_list()
        saved = np.zeros(len(rows), np.int64)
        parts = []
        for field in blob_fields:
            spec = self._schema[field]
            if spec["type"] in ("int32", "int64"):
                stored, field_saved = fmt.compress_many([r[field] for r in rows])
                if spec["type"] == "int32":
                    field_saved = field_saved - 4 * np.fromiter((np.size(r[field]) for r in rows), np.int64,
                                                                len(rows))
                saved += field_saved
            else:
                stored = [fmt.encode_blob_field(r[field], spec) for r in rows]
            parts.append(stored)
        prepared = []
        for i, row in enumerate(rows):
            raw = {}
            for field in raw_fields:
                value = row[field]
                raw[field] = value.item() if isinstance(value, np.generic) else value
            prepared.append((raw or self.raw_placeholder, fmt.merge_blob([p[i] for p in parts]), [raw[f] for f in index],
                             int(saved[i])))
        return prepared

    def write_raw_data(self, raw_data: List[dict], parallel_writer: bool = False) -> None:
        """Check `raw_data` against the schema and write its rows; the rows of each call are split
        over the shards in order, ``len(raw_data) // shard_num`` each, the first shards taking
        one more row for the remainder.

        With ``parallel_writer=True`` each call's rows go to one shard, shard after shard, and
        each shard is written as a standalone file (as MindSpore's parallel writer does).

        Raises:
            TypeError: If `parallel_writer` is not a bool, or changes between calls.
            ParamTypeError: If `raw_data` is not a list of dicts.
            RuntimeError: If called after `commit`, if no row is valid, or if files exist and
                `overwrite` is False.
        """
        if not isinstance(parallel_writer, bool):
            raise TypeError(f"The parameter `parallel_writer` must be bool, but got {parallel_writer!r}.")
        if self._parallel_writer is None:
            self._parallel_writer = parallel_writer
        elif self._parallel_writer != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        self._open()
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        if self._flushed:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord files. When creating "
                               "new MindRecord files, please remove `commit` before `write_raw_data`.")
        for item in raw_data:
            if not isinstance(item, dict):
                raise ParamTypeError("raw_data item", "dict")
        rows = self._verify(raw_data)
        raw_data[:] = rows
        if not rows:
            raise RuntimeError("There is no valid data which can be written by 'write_raw_data' to mindrecord "
                               "file. Please check the abnormal input data indicated in the warning log above.")
        prepared = self._prepare(rows)
        # Each shard gets n // shards rows, the first n % shards one more (MindSpore gives the
        # remainder rows to shards chosen at random).
        if self._parallel_writer:
            # MindSpore's parallel writer hands each call's rows to one shard, in turn.
            self._shards[self._next_shard].write(prepared)
            self._next_shard = (self._next_shard + 1) % len(self._shards)
            return
        per, extra = divmod(len(prepared), len(self._shards))
        start = 0
        for k, shard in enumerate(self._shards):
            end = start + per + (1 if k < extra else 0)
            if end > start:
                shard.write(prepared[start:end])
            start = end

    def _index_list(self) -> List[str]:
        if self._index_fields is not None:
            return self._index_fields
        blob = self._blob_fields
        return sorted((k for k in self._schema if k not in blob), key=lambda s: s.encode("utf-8"))

    def commit(self) -> None:
        """Write the files and their ``.db`` indexes (encrypted when a key is set with
        :func:`tfspore.mindrecord.set_enc_key`).

        Raises:
            MRMGetMetaError: If no schema was added.
            RuntimeError: If files exist and `overwrite` is False.
        """
        self._open()
        self._flushed = True
        header = {"schema": self._schema, "desc": self._desc, "blob_fields": self._blob_fields}
        index = self._index_list()
        # MindSpore sums the bytes saved over all rows (negative where compression grew a row)
        # and records a negative total as 0.
        total = max(0, self._compression + sum(shard.compression for shard in self._shards))
        for path, data in self._plain_indexes.items():
            with open(path + ".db", "wb") as f:
                f.write(data)
        self._plain_indexes = {}
        for shard in self._shards:
            if self._parallel_writer:
                # MindSpore's parallel writer makes each shard a standalone file.
                shard.commit(su.DEFAULT_HEADER_SIZE, dict(header, compression_size=max(0, shard.compression),
                                                     shard_addresses=[os.path.basename(shard.path)]),
                             index, self._schema, shard_id=0)
            else:
                shard.commit(self._header_size, dict(header, compression_size=total,
                                                     shard_addresses=[os.path.basename(p) for p in self._paths]),
                             index, self._schema)
        # With set_enc_key, every shard and index is encrypted as MindSpore encrypts them.
        shardcrypt.encrypt_files([shard.path for shard in self._shards])

"""``MindDataset``: rows of MindRecord files, read on ``tf.data``.

The files are read once when the dataset is built, in bulk (see
:mod:`tfspore.mindrecord.core.shardreader`): scalar fields become in-memory column tensors,
bytes and array fields one string tensor per field. Each row is then a gather and TF decoding
ops (``decode_raw``; the integer-array decompression as vectorised TF ops) inside the
pipeline's parallel map: no Python runs per row.

Example:
    >>> import tfspore.dataset as ds
    >>> data = ds.MindDataset("/data/train.mindrecord", columns_list=["data", "label"])  # doctest: +SKIP
    >>> data.get_dataset_size()  # doctest: +SKIP
"""
from __future__ import annotations

import math
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore.dataset.engine import _validation as v
from tfspore.dataset.engine import samplers as _samplers
from tfspore.dataset.engine.datasets import MappableSource, _context
from tfspore.mindrecord.core import shardformat
from tfspore.mindrecord.core.shardreader import load

__all__ = ["MindDataset"]

_NP_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
_TF_TYPES = {"int32": tf.int32, "int64": tf.int64, "float32": tf.float32, "float64": tf.float64}


def decompress_ints(data: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    """MindRecord's integer-array compression decoded with TF ops (a 1-D tensor of `dtype`).

    `data` is a scalar string: element count (big-endian uint32), 2-bit width codes, values.
    """
    b = tf.cast(tf.io.decode_raw(data, tf.uint8), tf.int64)
    n = b[0] * 16777216 + b[1] * 65536 + b[2] * 256 + b[3]
    ncode = (n + 3) // 4
    i = tf.range(n)
    codes = tf.bitwise.bitwise_and(
        tf.bitwise.right_shift(tf.gather(b, 4 + i // 4), 6 - 2 * (i % 4)), tf.constant(3, tf.int64))
    widths = tf.bitwise.left_shift(tf.constant(1, tf.int64), codes)
    starts = 4 + ncode + tf.cumsum(widths, exclusive=True)
    k = tf.range(8, dtype=tf.int64)
    last = tf.maximum(tf.size(b, out_type=tf.int64) - 1, 0)
    raw = tf.gather(b, tf.minimum(starts[:, None] + k[None, :], last))
    negative = tf.gather(b, tf.minimum(starts + widths - 1, last)) >= 128
    fill = tf.where(negative, tf.constant(255, tf.int64), tf.constant(0, tf.int64))
    full = tf.cast(tf.where(k[None, :] < widths[:, None], raw, fill[:, None]), tf.uint8)
    return tf.cast(tf.reshape(tf.bitcast(full, tf.int64), [-1]), dtype)


def _shuffle_mode(shuffle: Any) -> Optional[_samplers.Shuffle]:
    if shuffle is None or shuffle is True:
        return _samplers.Shuffle.GLOBAL
    if shuffle is False:
        return None
    return shuffle if shuffle != _samplers.Shuffle.FALSE else None


class MindDataset(MappableSource):
    """Rows of MindRecord files (written by ``mindspore.mindrecord.FileWriter``).

    Columns are the schema's fields in sorted order (or `columns_list`): int32 / int64 /
    float32 / float64 scalars, ``string`` fields as strings, ``bytes`` fields as 1-D uint8
    arrays, array fields as arrays of the schema's type and shape.

    Args:
        dataset_files: One MindRecord file (every shard written with it is read) or a list of files.
        columns_list: The columns to read (default all).
        num_parallel_workers: A parallelism hint.
        shuffle: ``Shuffle.GLOBAL`` / True / None (default: rows shuffled), ``Shuffle.FILES`` (file
            order shuffled, rows in order), ``Shuffle.INFILE`` (files in order, rows shuffled in
            each file) or False.
        num_shards: Number of shards (strided, wrap-padded, as MindSpore).
        shard_id: This shard.
        sampler: A sampler (exclusive with `shuffle` and sharding).
        padded_sample: A row appended `num_padded` times before sharding.
        num_padded: Number of padded rows.
        num_samples: Rows to read (default all).
        cache: Accepted for compatibility.

    Raises:
        ValueError: If a file does not exist, or an argument is invalid.
        RuntimeError: If a file or its index is corrupt, or a column is not in the schema.
    """

    def __init__(self, dataset_files: Union[str, Sequence[str]], columns_list: Optional[List[str]] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, sampler: Any = None,
                 padded_sample: Optional[Dict[str, Any]] = None, num_padded: Optional[int] = None,
                 num_samples: Optional[int] = None, cache: Any = None) -> None:
        api = "MindDataset"
        if isinstance(dataset_files, (list, tuple)):
            if not dataset_files:
                raise ValueError(f"For '{api}', dataset_files should not be empty, but got {dataset_files!r}.")
            for i, f in enumerate(dataset_files):
                v.check_type(f, (str, os.PathLike), f"dataset_files[{i}]", api)
        else:
            v.check_type(dataset_files, (str, os.PathLike), "dataset_files", api)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.shuffle_mode = _shuffle_mode(shuffle) if sampler is None else None
        if padded_sample is not None:
            if num_padded is None:
                raise RuntimeError(f"For '{api}', padded_sample is specified and requires num_padded as well.")
            v.check_type(num_padded, (int,), "num_padded", api)
            if num_padded < 0:
                raise ValueError(f"For '{api}', num_padded is invalid, num_padded={num_padded}.")
            if columns_list is None:
                raise RuntimeError(f"For '{api}', padded_sample is specified and requires columns_list as well.")
            if not isinstance(padded_sample, dict) or any(c not in padded_sample for c in columns_list):
                raise ValueError(f"For '{api}', padded_sample cannot match columns_list: "
                                 f"padded_sample={padded_sample!r}, columns_list={columns_list!r}.")
        elif num_padded is not None:
            raise RuntimeError(f"For '{api}', num_padded is specified but padded_sample is not, "
                               f"num_padded={num_padded!r}.")
        files = [os.fspath(f) for f in dataset_files] if isinstance(dataset_files, (list, tuple)) \
            else os.fspath(dataset_files)
        self.dataset_files = files
        table = load(files, api)
        schema = table.schema
        names = sorted(schema)
        if columns_list is not None:
            names = v.check_columns(columns_list, "columns_list", api)
            missing = [c for c in names if c not in schema]
            if missing:
                raise RuntimeError(f"For '{api}', invalid columns_list, the MindRecord files do not have the "
                                   f"columns {missing}; columns_list={names!r}, schema fields: {sorted(schema)}.")
        self.column_names = list(names)
        self._schema = schema
        self._file_of_row = table.file_of_row
        self._file_count = len(table.files)
        n = len(table)
        padded = int(num_padded or 0) if padded_sample is not None else 0
        self._arrays: List[np.ndarray] = []
        for name in names:
            spec = schema[name]
            if name in table.blob_fields:
                col = table.blob_fields.index(name)
                values = [blobs[col] for blobs in table.blobs]
                if padded:
                    values += [shardformat.encode_blob_field(padded_sample[name], spec)] * padded
                self._arrays.append(np.array(values + [b""], dtype=object)[:-1])
            else:
                values = [r.get(name) for r in table.raw]
                if padded:
                    values += [padded_sample[name]] * padded
                if spec["type"] == "string":
                    self._arrays.append(np.array([str(x).encode("utf-8") for x in values] + [b""],
                                                 dtype=object)[:-1])
                else:
                    self._arrays.append(np.array(values, dtype=_NP_TYPES[spec["type"]]))
        self._rows = n + padded
        if padded:
            self._file_of_row = np.concatenate([self._file_of_row, np.full(padded, self._file_count, np.int64)])
        self._tensors: Optional[List[tf.Tensor]] = None

    def _num_rows(self) -> int:
        return self._rows

    # ---- rows ----------------------------------------------------------------------------
    def _decode(self, name: str, value: tf.Tensor) -> tf.Tensor:
        spec = self._schema[name]
        ftype = spec["type"]
        if ftype == "string":
            return value
        if "shape" not in spec and ftype != "bytes":
            return value
        if ftype == "bytes":
            return tf.io.decode_raw(value, tf.uint8)
        if ftype in ("int32", "int64"):
            out = decompress_ints(value, _TF_TYPES[ftype])
        else:
            out = tf.io.decode_raw(value, _TF_TYPES[ftype])
        return tf.reshape(out, spec["shape"])

    def _row(self, index: tf.Tensor) -> Tuple[tf.Tensor, ...]:
        if self._tensors is None:
            with tf.init_scope(), tf.device("/CPU:0"):
                self._tensors = [tf.constant(a, tf.string) if a.dtype == object else tf.constant(a)
                                 for a in self._arrays]
        return tuple(self._decode(name, tf.gather(t, index)) for name, t in zip(self.column_names, self._tensors))

    # ---- Shuffle.FILES / Shuffle.INFILE ----------------------------------------------------
    def _file_shuffle(self) -> bool:
        return self.shuffle_mode in (_samplers.Shuffle.FILES, _samplers.Shuffle.INFILE)

    def _shard(self) -> Optional[Tuple[int, int]]:
        if self.num_shards is not None:
            return self.num_shards, self.shard_id
        return _context().shard

    def _static_size(self) -> Optional[int]:
        if not self._file_shuffle():
            return super()._static_size()
        n = self._rows
        shard = self._shard()
        if shard is not None:
            n = math.ceil(n / shard[0])
        return n if self.num_samples is None else min(n, self.num_samples)

    def _index_dataset(self) -> tf.data.Dataset:
        if not self._file_shuffle():
            return super()._index_dataset()
        n = self._rows
        owners = self._file_of_row
        nfiles = int(owners.max()) + 1 if n else 0
        starts = tf.constant(np.searchsorted(owners, np.arange(nfiles)), tf.int64)
        counts = tf.constant(np.bincount(owners, minlength=nfiles), tf.int64)
        owner_t = tf.constant(owners, tf.float64)
        files_mode = self.shuffle_mode == _samplers.Shuffle.FILES
        shard = self._shard()
        limit = self.num_samples
        seed = _context().next_seed(deterministic=shard is not None)
        const = tf.constant(seed, tf.int64)

        def epoch(r):
            seeds = tf.stack([r, const])
            if files_mode:
                perm = tf.random.experimental.stateless_shuffle(tf.range(nfiles, dtype=tf.int64), seeds)
                idx = tf.ragged.range(tf.gather(starts, perm), tf.gather(starts + counts, perm)).flat_values
            else:
                keys = owner_t + 0.5 * tf.random.stateless_uniform([n], seeds, dtype=tf.float64)
                idx = tf.cast(tf.argsort(keys, stable=True), tf.int64)
            if shard is not None:
                per = -(-n // shard[0])
                idx = tf.gather(idx, tf.range(per * shard[0], dtype=tf.int64) % max(n, 1))[shard[1]::shard[0]]
            if limit is not None:
                idx = idx[:limit]
            return tf.data.Dataset.from_tensor_slices(idx)

        return tf.data.Dataset.random(seed=seed, rerandomize_each_iteration=True).take(1).flat_map(epoch)

    def is_shuffled(self) -> bool:
        return self._file_shuffle() or super().is_shuffled()

"""``MindDataset``: rows of MindRecord files, read on ``tf.data``.

The files are read once when the dataset is built, in bulk (see
:mod:`tfspore.mindrecord.core.shardreader`), and every field is decoded for all rows at once
with vectorised numpy: scalar fields and arrays of one shape become dense column tensors
(a batch right after the source gathers whole batches), arrays of varying shape a values
tensor with row splits, bytes fields a string tensor decoded by ``decode_raw``. No Python runs
per row while the pipeline runs.

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

from tfspore._internal import validator as v
from tfspore.dataset.engine._mindrecord_stream import BlobChunkReader
from tfspore.dataset.engine import samplers as _samplers
from tfspore.dataset.engine._build_context import _context
from tfspore.dataset.engine._sources import MappableSource
from tfspore.mindrecord.core import shardcrypt, shardformat
from tfspore.mindrecord.core.shardreader import load, read_header, resolve_files

__all__ = ["MindDataset"]

_NP_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
# Above this many bytes of blob pages, blob fields are read chunk by chunk from the files while
# the pipeline runs instead of being held in memory.
STREAM_BLOB_BYTES = 1 << 30
_CHUNK_ROWS = 256


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
        # Encrypted files (mindrecord.set_enc_key) are read from plaintext copies (shardcrypt).
        plain = shardcrypt.open_plain(files, api)
        files = plain.paths
        names = v.check_unique_names(columns_list, "columns_list", api) if columns_list is not None else None
        header_files = files if isinstance(files, list) else resolve_files(files, api)
        meta = read_header(header_files[0])["schema"][0]
        schema = meta["schema"]
        if names is None:
            names = sorted(schema)
        missing = [c for c in names if c not in schema]
        if missing:
            raise RuntimeError(f"For '{api}', invalid columns_list, the MindRecord files do not have the "
                               f"columns {missing}; columns_list={names!r}, schema fields: {sorted(schema)}.")
        blob_fields = meta.get("blob_fields") or []
        blob_bytes = sum(int(p["page_size"]) for f in header_files for p in read_header(f)["page"]
                         if p["page_type"] == "BLOB_DATA")
        stream = blob_bytes > STREAM_BLOB_BYTES and padded_sample is None and any(c in blob_fields for c in names)
        table = load(files, api, decode_raw=any(c not in blob_fields for c in names), read_blobs=not stream)
        schema = table.schema
        self._stream = BlobChunkReader(table.files, table.blob_positions, schema, table.blob_fields,
                                       [c for c in names if c in blob_fields]) if stream else None
        if self._stream is not None and plain.paths != self.dataset_files:
            self._stream.map_files()  # the decrypted copies stay readable through their maps
        plain.close()
        self.column_names = list(names)
        self._schema = schema
        self._file_of_row = table.file_of_row
        self._file_count = len(table.files)
        n = len(table)
        padded = int(num_padded or 0) if padded_sample is not None else 0
        # Per column: ("dense", array) gathered by row; ("ragged", (values, splits), shape) sliced
        # by row; ("bytes", object array) decoded by row.
        self._columns: List[tuple] = []
        for name in names:
            spec = schema[name]
            if name in table.blob_fields and stream:
                self._columns.append(("stream", None))
            elif name in table.blob_fields:
                col = table.blob_fields.index(name)
                blobs = [b[col] for b in table.blobs]
                pad = padded_sample.get(name) if padded else None
                self._columns.append(self._blob_column(name, spec, blobs, pad, padded, api))
            else:
                values = [r.get(name) for r in table.raw]
                if padded:
                    values += [padded_sample[name]] * padded
                if spec["type"] == "string":
                    array = np.array([str(x).encode("utf-8") for x in values] + [b""], dtype=object)[:-1]
                else:
                    try:
                        array = np.array(values, dtype=_NP_TYPES[spec["type"]])
                    except (TypeError, ValueError, OverflowError) as err:
                        raise RuntimeError(f"For '{api}', MindRecord files {self.dataset_files!r} are corrupt: "
                                           f"field '{name}' holds a value that is not {spec['type']}: {err}.") from err
                self._columns.append(("dense", array))
        self._rows = n + padded
        if padded:
            self._file_of_row = np.concatenate([self._file_of_row, np.full(padded, self._file_count, np.int64)])
        # A batch right after this source gathers whole batches when every column is a dense array.
        self._gathers_batches = all(c[0] == "dense" for c in self._columns)
        self._tensors: Optional[List[Any]] = None

    def _blob_column(self, name: str, spec: Dict[str, Any], blobs: List[bytes], pad: Any, padded: int,
                     api: str) -> tuple:
        """Decode a blob field of every row at once (numpy), dense when every row has one shape."""
        ftype = spec["type"]
        if ftype == "bytes":
            if padded:
                blobs = blobs + [bytes(pad)] * padded
            return ("bytes", np.array(blobs + [b""], dtype=object)[:-1])
        try:
            if ftype in ("int32", "int64"):
                values, splits = shardformat.decompress_many(blobs, ftype)
            else:
                item = np.dtype(ftype).itemsize
                lengths = np.fromiter((len(b) for b in blobs), np.int64, len(blobs))
                if (lengths % item).any():
                    raise ValueError(f"a {ftype} array's byte length is not a multiple of {item}")
                values = np.frombuffer(b"".join(blobs), "<" + np.dtype(ftype).str[1:]).astype(ftype)
                splits = np.concatenate([[0], np.cumsum(lengths // item)]).astype(np.int64)
        except ValueError as err:
            raise RuntimeError(f"For '{api}', MindRecord files {self.dataset_files!r} are corrupt: field "
                               f"'{name}': {err}.") from err
        if padded:
            extra = np.asarray(pad, dtype=ftype).reshape(-1)
            values = np.concatenate([values] + [extra] * padded)
            splits = np.concatenate([splits, splits[-1] + len(extra) * np.arange(1, padded + 1)])
        shape = list(spec["shape"])
        known = int(np.prod([d for d in shape if d != -1])) if shape else 1
        counts = np.diff(splits)
        bad = counts % max(known, 1) != 0 if -1 in shape else counts != known
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise RuntimeError(f"For '{api}', field '{name}' of row {row} has {int(counts[row])} values, which do not "
                               f"fit the schema's shape {shape}; files: {self.dataset_files!r}.")
        if counts.size and (counts == counts[0]).all():
            rows = counts.size
            resolved = [d if d != -1 else int(counts[0]) // max(known, 1) for d in shape]
            return ("dense", values.reshape([rows] + resolved))
        return ("ragged", (values, splits), shape)

    def _num_rows(self) -> int:
        return self._rows

    # ---- rows ----------------------------------------------------------------------------
    def _constants(self) -> List[Any]:
        if self._tensors is None:
            with tf.init_scope(), tf.device("/CPU:0"):
                tensors = []
                for col in self._columns:
                    if col[0] == "ragged":
                        tensors.append((tf.constant(col[1][0]), tf.constant(col[1][1])))
                    elif col[0] == "stream":
                        tensors.append(None)
                    else:
                        array = col[1]
                        tensors.append(tf.constant(array, tf.string) if array.dtype == object else tf.constant(array))
                self._tensors = tensors
        return self._tensors

    def _row(self, index: tf.Tensor, streamed: Sequence[tf.Tensor] = ()) -> Tuple[tf.Tensor, ...]:
        out = []
        streamed = list(streamed)
        for name, col, t in zip(self.column_names, self._columns, self._constants()):
            if col[0] == "stream":
                out.append(tf.reshape(streamed.pop(0), self._schema[name]["shape"]) if "shape" in self._schema[name]
                           else streamed.pop(0))
                continue
            if col[0] == "dense":
                out.append(tf.gather(t, index))
            elif col[0] == "bytes":
                out.append(tf.io.decode_raw(tf.gather(t, index), tf.uint8))
            else:
                values, splits = t
                out.append(tf.reshape(values[splits[index]:splits[index + 1]], col[2]))
        return tuple(out)

    def _build_rows(self) -> Tuple[tf.data.Dataset, Any]:
        """In-memory mode: the base class's index map; streaming mode: chunks of sampled indices
        read by :class:`BlobChunkReader`, unbatched, then the per-row assembly."""
        if self._stream is None:
            return super()._build_rows()
        reader = self._stream
        dtypes = [tf.as_dtype(d) for d in reader.out_dtypes()]

        def read_chunk(idx):
            parts = tf.numpy_function(reader.read, [idx], dtypes, stateful=False)
            ragged = []
            for k in range(0, len(parts), 2):
                values, splits = parts[k], parts[k + 1]
                values.set_shape([None])
                splits.set_shape([None])
                ragged.append(tf.RaggedTensor.from_row_splits(values, splits, validate=False))
            return (idx,) + tuple(ragged)

        index = self._index_dataset()
        chunks = index.batch(_CHUNK_ROWS).map(read_chunk, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
        rows = chunks.unbatch()
        count = int(index.cardinality())
        if count >= 0:  # unbatch hides the count from TensorFlow: state it (see MappableSource._index_dataset)
            rows = rows.apply(tf.data.experimental.assert_cardinality(count))
        row = self._row
        return rows, lambda i, *blobs: tuple(row(i, blobs))

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

        indices = tf.data.Dataset.random(seed=seed, rerandomize_each_iteration=True).take(1).flat_map(epoch)
        return indices.apply(tf.data.experimental.assert_cardinality(self._static_size()))

    def is_shuffled(self) -> bool:
        return self._file_shuffle() or super().is_shuffled()

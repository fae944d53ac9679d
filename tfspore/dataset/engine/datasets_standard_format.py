"""Standard-format sources: ``TFRecordDataset`` over files of ``tf.train.Example`` records.

Example:
    >>> import tfspore.dataset as ds
    >>> data = ds.TFRecordDataset(["/data/train.tfrecord"], shuffle=False)  # doctest: +SKIP
    >>> data.get_col_names()  # doctest: +SKIP
    ['image', 'label']
"""
from __future__ import annotations

import glob
import os
import stat
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf
from google.protobuf.message import DecodeError

from tfspore._internal import validator as v
from tfspore.dataset.engine._sources import SourceDataset
from tfspore.dataset.engine.datasets import next_op_seed
from tfspore.dataset.engine.samplers import Shuffle, check_num_samples, check_shard_options
from tfspore.dataset.engine.datasets_mindrecord import MindDataset  # MindSpore's path of MindDataset

__all__ = ["TFRecordDataset", "MindDataset"]

_SHUFFLE_BUFFER = 10000
_KINDS = {"bytes_list": tf.string, "float_list": tf.float32, "int64_list": tf.int64}


def _check_regular(files: List[str], api: str) -> List[str]:
    """Refuse paths that are not regular files (a FIFO would block the reader, ``/dev/zero`` never ends)."""
    for path in files:
        try:
            mode = os.stat(path).st_mode
        except OSError as e:
            raise ValueError(f"For '{api}', the file {path!r} in 'dataset_files' cannot be read: "
                             f"{e.strerror}.") from None
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket or other special file")
            raise ValueError(f"For '{api}', the 'dataset_files' must be regular files, but got {path!r}, which is "
                             f"{kind}.")
    return files


def _read_error(api: str, path: str, exc: tf.errors.OpError) -> RuntimeError:
    """MindSpore's RuntimeError for a TFRecord file that cannot be parsed, naming the file."""
    reason = exc.message.split("}} ", 1)[-1].split(" [Op:", 1)[0].strip()
    return RuntimeError(f"For '{api}', failed to read the TFRecord file {path!r}: {reason}. The file is truncated, "
                        f"corrupted or not a TFRecord file.")


def _expand_files(dataset_files: Any, api: str) -> List[str]:
    if isinstance(dataset_files, (str, os.PathLike)):
        pattern = os.fspath(dataset_files)
        files = sorted(glob.glob(pattern))
        if not files:
            raise ValueError(f"For '{api}', the following patterns did not match any files: [{pattern!r}], "
                             f"dataset_files={pattern!r}.")
        return _check_regular(files, api)
    v.check_type(dataset_files, (list, tuple), "dataset_files", api)
    if not dataset_files:
        raise ValueError(f"For '{api}', dataset_files should not be empty, but got {dataset_files!r}.")
    missing = []
    for i, f in enumerate(dataset_files):
        v.check_type(f, (str, os.PathLike), f"dataset_files[{i}]", api)
        if not os.path.exists(os.fspath(f)):  # a FIFO or device exists: refused below, by name
            missing.append(os.fspath(f))
    if missing:
        raise ValueError(f"For '{api}', the following patterns did not match any files: {missing}.")
    return _check_regular([os.fspath(f) for f in dataset_files], api)


class TFRecordDataset(SourceDataset):
    """Rows parsed from ``tf.train.Example`` records in TFRecord files.

    Without a schema the columns are every feature of the first record, in sorted order:
    ``int64_list`` gives int64, ``float_list`` float32, both 1-D; ``bytes_list`` gives a 1-D
    uint8 array of the bytes (as MindSpore). A :class:`~tfspore.dataset.Schema` chooses the
    columns, their dtypes (a ``string`` column keeps the byte strings) and shapes (``[]`` for a
    scalar).

    Args:
        dataset_files: A file path or glob pattern, or a list of file paths.
        schema: A ``Schema`` or the path of a schema JSON file.
        columns_list: The columns to read (default all).
        num_samples: Rows to read (default all).
        num_parallel_workers: A parallelism hint.
        shuffle: ``Shuffle.GLOBAL`` / True (files and rows, default), ``Shuffle.FILES``,
            ``Shuffle.INFILE`` or False.
        num_shards: Number of shards: each gets every `num_shards`-th file (or row, with
            `shard_equal_rows`).
        shard_id: This shard.
        shard_equal_rows: Shard by rows instead of files.
        cache: Accepted for compatibility.
        compression_type: ``""`` / None, ``"GZIP"`` or ``"ZLIB"``.

    Raises:
        ValueError: If a file does not exist, or sharding arguments are invalid.
        RuntimeError: If a column of `columns_list` is not a feature of the records.

    Example:
        >>> import tfspore.dataset as ds
        >>> data = ds.TFRecordDataset("/data/*.tfrecord", columns_list=["label"])  # doctest: +SKIP
    """

    def __init__(self, dataset_files: Union[str, Sequence[str]], schema: Any = None,
                 columns_list: Optional[List[str]] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Union[bool, Shuffle, None] = Shuffle.GLOBAL,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, shard_equal_rows: bool = False,
                 cache: Any = None, compression_type: Optional[str] = None) -> None:
        api = type(self).__name__
        self.dataset_files = _expand_files(dataset_files, api)
        check_shard_options(api, num_samples, shuffle, None, num_shards, shard_id)
        super().__init__(num_parallel_workers=num_parallel_workers, num_shards=num_shards, shard_id=shard_id)
        del cache
        self.num_samples = check_num_samples(num_samples, api) or None
        self.shuffle_mode = self._shuffle_mode(shuffle)
        v.check_bool(shard_equal_rows, "shard_equal_rows", api)
        self.shard_equal_rows = shard_equal_rows
        if compression_type not in (None, "", "GZIP", "ZLIB"):
            raise ValueError(f"For '{api}', input compression_type is not within the valid set of "
                             f"['', 'GZIP', 'ZLIB'], but got {compression_type!r}.")
        self.compression_type = compression_type or ""
        self.schema = self._load_schema(schema, api)
        self._features = self._column_specs(columns_list, api)
        self.column_names = [name for name, _ in self._features]
        self._count: Optional[int] = None

    @staticmethod
    def _shuffle_mode(shuffle: Any) -> Shuffle:
        if shuffle is None or shuffle is True:
            return Shuffle.GLOBAL
        if shuffle is False:
            return Shuffle.FALSE
        return Shuffle(shuffle)

    @staticmethod
    def _load_schema(schema: Any, api: str):
        if schema is None:
            return None
        from tfspore.dataset.engine.datasets_user_defined import Schema  # pylint: disable=import-outside-toplevel
        if isinstance(schema, (str, os.PathLike)):
            return Schema(os.fspath(schema))
        if not isinstance(schema, Schema):
            raise TypeError(f"For '{api}', the argument 'schema' must be a Schema or a path, but got {schema!r} "
                            f"with type {type(schema).__name__}.")
        return schema

    def explain_read_error(self, text: str) -> Optional[str]:
        """For an error the running pipeline raised (TensorFlow's message ``text``): when it is a
        record that failed to read ("corrupted record at 12", "truncated record at 40"), which does
        not name the file, this source's message naming the first of its files that fails to read;
        else ``None``. Reads the files again, so it runs only on that error path."""
        if "record at" not in text and "DataLoss" not in text:
            return None
        for path in self._files_for_shard():
            try:
                tf.data.TFRecordDataset([path], compression_type=self.compression_type).reduce(
                    tf.constant(0, tf.int64), lambda n, _: n + 1)
            except tf.errors.OpError as e:
                return str(_read_error(type(self).__name__, path, e))
        return None

    def _first_example(self) -> Optional[tf.train.Example]:
        for path in self.dataset_files:
            try:
                for raw in tf.data.TFRecordDataset([path], compression_type=self.compression_type).take(1):
                    return tf.train.Example.FromString(raw.numpy())
            except tf.errors.OpError as e:
                raise _read_error(type(self).__name__, path, e) from None
            except DecodeError as e:
                raise RuntimeError(f"For '{type(self).__name__}', the first record of the TFRecord file {path!r} is "
                                   f"not a tf.train.Example: {e}.") from None
        return None

    def _column_specs(self, columns_list: Optional[List[str]], api: str) -> List[Tuple[str, dict]]:
        """(name, spec) per column: spec has the record kind, output dtype and shape."""
        example = self._first_example()
        kinds: Dict[str, tf.DType] = {}
        if example is not None:
            for key, feature in example.features.feature.items():
                kind = feature.WhichOneof("kind")
                if kind in _KINDS:
                    kinds[key] = _KINDS[kind]
        specs: List[Tuple[str, dict]] = []
        if self.schema is not None and self.schema.columns:
            for col in self.schema.columns:
                np_type = col["type"]
                out = tf.string if np_type == np.dtype(object) or np_type.kind in "USO" else tf.as_dtype(np_type)
                specs.append((col["name"], {"kind": kinds.get(col["name"]), "dtype": out, "shape": col["shape"]}))
        else:
            for key in sorted(kinds):
                kind = kinds[key]
                out = tf.uint8 if kind == tf.string else kind
                specs.append((key, {"kind": kind, "dtype": out, "shape": None}))
        if columns_list is not None:
            names = v.check_unique_names(columns_list, "columns_list", api)
            by_name = dict(specs)
            for name in names:
                if name not in by_name and name not in kinds:
                    raise RuntimeError(f"For '{api}', invalid columns_list, the tfrecord file failed to find "
                                       f"column name: '{name}'; columns_list={names!r}, features: "
                                       f"{sorted(kinds)}.")
            specs = [(n, by_name.get(n) or {"kind": kinds[n], "dtype": tf.uint8 if kinds[n] == tf.string
                                            else kinds[n], "shape": None}) for n in names]
        for name, spec in specs:
            if spec["kind"] is None:
                raise RuntimeError(f"For '{api}', the column '{name}' of the schema is not a feature of the "
                                   f"records in dataset_files; features: {sorted(kinds)}.")
        return specs

    # ---- engine -------------------------------------------------------------------------
    def _files_for_shard(self) -> List[str]:
        if self.num_shards is None or self.shard_equal_rows:
            return list(self.dataset_files)
        return self.dataset_files[self.shard_id::self.num_shards]

    def _count_rows(self, files: Sequence[str]) -> int:
        if not files:
            return 0
        data = tf.data.TFRecordDataset(list(files), compression_type=self.compression_type)
        return int(data.reduce(tf.constant(0, tf.int64), lambda n, _: n + 1))

    def _source_size(self) -> Optional[int]:
        if self._count is None:
            files = self._files_for_shard()
            n = self._count_rows(files)
            if self.num_shards is not None and self.shard_equal_rows:
                n = -(-n // self.num_shards)
            self._count = n
        n = self._count
        return n if self.num_samples is None else min(n, self.num_samples)

    def _parse(self, record: tf.Tensor) -> Tuple[tf.Tensor, ...]:
        features = {name: tf.io.VarLenFeature(spec["kind"]) for name, spec in self._features}
        parsed = tf.io.parse_single_example(record, features)
        out = []
        for name, spec in self._features:
            values = parsed[name].values
            dtype = spec["dtype"]
            if spec["kind"] == tf.string and dtype != tf.string:
                values = tf.io.decode_raw(tf.strings.reduce_join(values), tf.uint8)
                if dtype != tf.uint8:
                    values = tf.cast(values, dtype)
            elif dtype != values.dtype:
                if dtype == tf.string:
                    values = tf.strings.as_string(values)
                else:
                    values = tf.cast(values, dtype)
            if spec["shape"] is not None:
                values = tf.reshape(values, spec["shape"])
            out.append(values)
        return tuple(out)

    def _build_source(self) -> tf.data.Dataset:
        files = self._files_for_shard()
        mode = self.shuffle_mode
        file_ds = tf.data.Dataset.from_tensor_slices(tf.constant(files, tf.string))
        if mode in (Shuffle.GLOBAL, Shuffle.FILES, Shuffle.ADAPTIVE, Shuffle.PARTIAL) and len(files) > 1:
            file_ds = file_ds.shuffle(len(files), seed=next_op_seed(), reshuffle_each_iteration=True)
        data = file_ds.flat_map(lambda f: tf.data.TFRecordDataset(f, compression_type=self.compression_type))
        if self.num_shards is not None and self.shard_equal_rows:
            total = self._count_rows(files)
            per = -(-total // self.num_shards)
            data = data.repeat(2).take(per * self.num_shards).shard(self.num_shards, self.shard_id)
        if mode in (Shuffle.GLOBAL, Shuffle.INFILE, Shuffle.ADAPTIVE, Shuffle.PARTIAL):
            data = data.shuffle(_SHUFFLE_BUFFER, seed=next_op_seed(), reshuffle_each_iteration=True)
        if self.num_samples is not None:
            data = data.take(self.num_samples)
        return data.map(self._parse, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)

    def is_shuffled(self) -> bool:
        return self.shuffle_mode != Shuffle.FALSE

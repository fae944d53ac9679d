"""User-defined sources: GeneratorDataset, NumpySlicesDataset, and ``Schema``.

* ``NumpySlicesDataset`` keeps the data as tensors and gathers rows inside tf.data (no Python
  per row).
* ``GeneratorDataset`` over a random-access object (``__getitem__`` and ``__len__``) is a
  :class:`MappableSource`: ``source[i]`` runs through ``tf.numpy_function`` inside a parallel map,
  with sampling, shuffling and sharding done on the indices. Over a generator function or an
  iterable it wraps ``tf.data.Dataset.from_generator`` (never shuffled, never sharded).

Rows: a tuple (or list) gives one column per item, a single value gives one column. Python ``int``
becomes int64, ``float`` float64, ``str`` a string column; numpy dtypes are kept. Output dtypes and
ranks are read from the first row.
"""
from __future__ import annotations

import itertools
import json
from typing import Any, Callable, Iterable, List, Optional, Sequence, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.engine import _generator_batches
from tfspore.dataset.engine import _python_ops as py
from tfspore.dataset.engine.samplers import BuiltinSampler, check_num_samples
from tfspore.dataset.engine._build_context import _context
from tfspore.dataset.engine._columns import check_column_names
from tfspore.dataset.engine._sources import MappableSource

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset", "Schema"]


def _to_np_dtype(dtype: Any) -> np.dtype:
    """A MindSpore dtype, numpy dtype or tf dtype (or a name) as a numpy dtype."""
    if dtype is None:
        return None
    if hasattr(dtype, "tf_dtype"):  # a tfspore dtype
        tfd = dtype.tf_dtype
        return np.dtype(object) if tfd == tf.string else np.dtype(tfd.as_numpy_dtype)
    if isinstance(dtype, tf.DType):
        return np.dtype(object) if dtype == tf.string else np.dtype(dtype.as_numpy_dtype)
    if isinstance(dtype, str):
        if dtype in ("string", "str"):
            return np.dtype(object)
        from tfspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        if hasattr(mstype, dtype) and hasattr(getattr(mstype, dtype), "tf_dtype"):
            return _to_np_dtype(getattr(mstype, dtype))
    return np.dtype(dtype)


class Schema:
    """Column names, types and shapes of a dataset (``mindspore.dataset.Schema``).

    Args:
        schema_file: Optional JSON file with a ``columns`` mapping (MindSpore's format).

    Example:
        >>> import numpy as np
        >>> import tfspore.dataset as ds
        >>> schema = ds.Schema()
        >>> schema.add_column("image", de_type=np.uint8, shape=[28, 28, 1])
        >>> schema.get_col_names()
        ['image']
    """

    def __init__(self, schema_file: Optional[str] = None):
        self.columns: List[dict] = []
        self.num_rows = 0
        if schema_file is not None:
            try:
                with open(schema_file, "r", encoding="utf-8") as f:
                    content = json.load(f)
            except (OSError, ValueError) as exc:
                raise RuntimeError(f"For 'Schema', failed to read schema_file {schema_file!r}: {exc}") from exc
            self.from_json(content)

    def add_column(self, name: str, de_type: Any, shape: Optional[Sequence[int]] = None) -> None:
        """Add a column.

        Args:
            name: The column name.
            de_type: Its dtype (a MindSpore, numpy or TensorFlow dtype, or a name).
            shape: Its shape, or None.
        """
        v.check_type(name, (str,), "name", "Schema.add_column")
        self.columns.append({"name": name, "type": _to_np_dtype(de_type),
                             "shape": None if shape is None else list(shape)})

    def get_col_names(self) -> List[str]:
        """The column names."""
        return [c["name"] for c in self.columns]

    def from_json(self, json_obj: dict) -> None:
        """Load MindSpore's schema JSON (``{"columns": {name: {"type": ..., "shape": ...}}}``)."""
        columns = json_obj.get("columns", {})
        if isinstance(columns, dict):
            for name, spec in columns.items():
                self.add_column(name, spec.get("type"), spec.get("shape"))
        else:
            for spec in columns:
                self.add_column(spec["name"], spec.get("type"), spec.get("shape"))
        self.num_rows = int(json_obj.get("numRows", 0) or 0)

    def to_json(self) -> str:
        """The schema as MindSpore's JSON text."""
        cols = {}
        for c in self.columns:
            entry = {"type": "string" if c["type"] == np.dtype(object) else c["type"].name}
            if c["shape"] is not None:
                entry.update(rank=len(c["shape"]), shape=c["shape"])
            cols[c["name"]] = entry
        return json.dumps({"columns": cols, "numRows": self.num_rows}, indent=2)

    def __str__(self) -> str:
        return self.to_json()


def _row_values(item: Any) -> tuple:
    """A yielded item as column values (MindSpore's ``_convert_row``)."""
    if isinstance(item, (int, float, str, bytes, np.ndarray, np.number, np.bool_, tf.Tensor)) or \
            hasattr(item, "asnumpy"):
        return (item,)
    if isinstance(item, dict):
        raise TypeError("a dict row is not supported; yield a tuple with one value per column")
    return tuple(item)


class _RowConverter:
    """Converts source rows to numpy columns of fixed dtypes (from the first row or column_types)."""

    def __init__(self, names: List[str], types: Optional[List[np.dtype]], where: str):
        self.names = names
        self.types = types
        self.where = where
        self.tf_dtypes: Optional[List[tf.DType]] = None
        self.ranks: Optional[List[int]] = None

    def convert(self, item: Any) -> List[np.ndarray]:
        values = _row_values(item)
        if len(values) != len(self.names):
            raise RuntimeError(f"the source returned {len(values)} column(s), but column_names={self.names!r} "
                               f"names {len(self.names)}")
        out = []
        for k, val in enumerate(values):
            arr = py.to_numpy(val, f"column '{self.names[k]}'")
            if self.types is not None and self.types[k] is not None and arr.dtype != self.types[k]:
                arr = arr.astype(self.types[k])
            elif self.tf_dtypes is not None and py.tf_dtype_of(arr) != self.tf_dtypes[k]:
                want = self.tf_dtypes[k]
                if want == tf.string or arr.dtype == object:
                    raise TypeError(f"column '{self.names[k]}' has dtype {arr.dtype}, but the first row had "
                                    f"{want.name}")
                # never cast silently: MindSpore passes the new dtype on and fails where rows are batched
                raise RuntimeError(f"column '{self.names[k]}' has dtype {arr.dtype}, but the first row had "
                                   f"{want.name}; a column keeps one dtype (pass 'column_types' to cast)")
            out.append(arr)
        return out

    def fix(self, first: List[np.ndarray]) -> None:
        self.tf_dtypes = [py.tf_dtype_of(a) for a in first]
        self.ranks = [a.ndim for a in first]

    def signature(self) -> tuple:
        return tuple(tf.TensorSpec([None] * r, d) for d, r in zip(self.tf_dtypes, self.ranks))


class _BatchSamplerSource:
    """The batches of a random-access `source` for GeneratorDataset's `batch_sampler`: each list of
    ids it yields becomes one batch, its rows stacked per column (as ``batch`` does) or merged by
    ``collate_fn(column_0_rows, column_1_rows, ...)``, as MindSpore's batch with ``per_batch_map``.
    A one-shot `batch_sampler` (an iterator) makes a one-shot source, whose first batch the
    dataset's probe keeps (GeneratorDataset._held_rows)."""

    def __init__(self, source: Any, batch_sampler: Iterable, collate_fn: Optional[Callable],
                 rows: _RowConverter):
        self.source = source
        self.batch_sampler = batch_sampler
        self.collate_fn = collate_fn
        self.rows = rows

    def _batch(self, ids: Any) -> Any:
        rows = [self.rows.convert(self.source[np.int64(i)]) for i in np.asarray(ids).reshape(-1)]
        columns = [list(col) for col in zip(*rows)] if rows else [[] for _ in self.rows.names]
        if self.collate_fn is not None:
            return self.collate_fn(*columns)
        return tuple(np.stack(col) for col in columns)

    def __iter__(self):
        if iter(self.batch_sampler) is self.batch_sampler:
            return self
        return (self._batch(ids) for ids in self.batch_sampler)

    def __next__(self) -> Any:
        return self._batch(next(self.batch_sampler))


class _SizedBatchSamplerSource(_BatchSamplerSource):
    """A :class:`_BatchSamplerSource` whose `batch_sampler` has a length: the dataset's size."""

    def __len__(self) -> int:
        return len(self.batch_sampler)


def _check_batch_sampler(api: str, source: Any, batch_sampler: Any, collate_fn: Any, others: dict) -> None:
    """MindSpore's checks of GeneratorDataset's `batch_sampler` and `collate_fn`."""
    if batch_sampler is not None:
        given = {k: val for k, val in others.items() if val is not None}
        if given:
            raise ValueError(f"For '{api}', batch_sampler is mutually exclusive with num_samples, shuffle, "
                             f"num_shards, shard_id and sampler, but got {given!r}.")
        if isinstance(batch_sampler, BuiltinSampler):
            raise NotImplementedError(f"For '{api}', a built-in sampler as batch_sampler is not supported by "
                                      f"tfspore.dataset; pass an iterable of lists of ids, got {batch_sampler!r}.")
        if not hasattr(batch_sampler, "__iter__"):
            raise TypeError(f"For '{api}', batch_sampler should have __getitem__ or __iter__ method, but got "
                            f"{batch_sampler!r}.")
        if not hasattr(source, "__getitem__"):
            raise ValueError(f"For '{api}', batch_sampler is not supported if source does not have attribute "
                             f"'__getitem__', but got source={source!r}.")
    if collate_fn is not None:
        if batch_sampler is None:
            raise ValueError(f"For '{api}', collate_fn can be specified only when batch_sampler is set, but got "
                             f"collate_fn={collate_fn!r}.")
        if not callable(collate_fn):
            raise TypeError(f"For '{api}', collate_fn should be callable, but got {collate_fn!r}.")


class GeneratorDataset(MappableSource):
    """A source that reads rows from Python.

    Args:
        source: A generator function, an iterable, or a random-access object with
            ``__getitem__`` and ``__len__``.
        column_names: The column names (required unless `schema` is given).
        column_types: The column dtypes (outputs are cast to them).
        schema: A :class:`Schema` (or its JSON file) giving names and types.
        num_samples: Rows to read per epoch.
        num_parallel_workers: A parallelism hint.
        shuffle: For random-access sources, shuffle (None: yes). Ignored for generators.
        sampler: For random-access sources, a sampler or a list of indices. Lists of ids that a
            sampler yields are flattened; ``__getitem__`` gets one numpy int64 id per row.
        num_shards: For random-access sources, the number of shards.
        shard_id: For random-access sources, this shard.
        python_multiprocessing: Accepted for compatibility (Python code runs in threads).
        max_rowsize: Accepted for compatibility.
        batch_sampler: For random-access sources, an iterable of lists of ids: each list becomes one
            batch (rows stacked per column). Exclusive with `num_samples`, `shuffle`, `sampler`,
            `num_shards` and `shard_id`; the dataset then has no random access.
        collate_fn: With `batch_sampler`, ``collate_fn(column_0_rows, ...)`` merges a batch's rows
            (one list of numpy arrays per column) and returns one array per column.

    Raises:
        ValueError: If neither `column_names` nor `schema` is given, or a generator is sharded.

    Example:
        >>> import numpy as np
        >>> import tfspore.dataset as ds
        >>> class MyDataset:
        ...     def __getitem__(self, i):
        ...         return np.full((2,), i, np.float32), i
        ...     def __len__(self):
        ...         return 4
        >>> data = ds.GeneratorDataset(MyDataset(), ["data", "label"], shuffle=False)
        >>> [int(r[1]) for r in data.create_tuple_iterator(output_numpy=True)]
        [0, 1, 2, 3]
    """

    def _runs_python(self) -> bool:
        return True  # the source

    def __init__(self, source: Union[Callable, Iterable, Any], column_names: Optional[Union[str, List[str]]] = None,
                 column_types: Optional[List[Any]] = None, schema: Optional[Union[Schema, str]] = None,
                 num_samples: Optional[int] = None, num_parallel_workers: int = 1, shuffle: Optional[bool] = None,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 python_multiprocessing: bool = True, max_rowsize: Any = None, batch_sampler: Any = None,
                 collate_fn: Any = None):
        api = "GeneratorDataset"
        del python_multiprocessing, max_rowsize
        if source is None or not (callable(source) or hasattr(source, "__iter__") or hasattr(source, "__getitem__")):
            raise TypeError(f"For '{api}', source must be a generator function, an iterable or a random-access "
                            f"object, but got {source!r}.")
        _check_batch_sampler(api, source, batch_sampler, collate_fn,
                             {"num_samples": num_samples, "shuffle": shuffle, "num_shards": num_shards,
                              "shard_id": shard_id, "sampler": sampler})
        self.random_access = (hasattr(source, "__getitem__") and hasattr(source, "__len__")
                              and batch_sampler is None)
        if not self.random_access:
            if num_shards is not None or shard_id is not None:
                raise ValueError(f"For '{api}', num_shards is not supported if source does not have attribute "
                                 f"'__getitem__', but got num_shards={num_shards!r}.")
            if sampler is not None:
                raise ValueError(f"For '{api}', sampler is not supported if source does not have attribute "
                                 f"'__getitem__', but got sampler={sampler!r}.")
            check_num_samples(num_samples, api)
            super().__init__(num_samples=None, num_parallel_workers=num_parallel_workers, shuffle=False)
            self.num_samples = num_samples
        else:
            super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        if isinstance(schema, str):
            schema = Schema(schema)
        if column_names is None and schema is None:
            raise ValueError(f"For '{api}', neither columns_names nor schema are provided.")
        if column_names is not None:
            names = v.check_unique_names(column_names, "column_names", api)
        else:
            names = schema.get_col_names()
        types = None
        if column_types is not None:
            if not isinstance(column_types, (list, tuple)) or len(column_types) != len(names):
                raise ValueError(f"For '{api}', column_types must be a list with one dtype per column of "
                                 f"{names!r}, but got {column_types!r}.")
            types = [_to_np_dtype(t) for t in column_types]
        elif schema is not None:
            types = [c["type"] for c in schema.columns]
        self._column_names = names
        if batch_sampler is not None:  # column_types apply to the rows, before they are merged
            kind = _SizedBatchSamplerSource if hasattr(batch_sampler, "__len__") else _BatchSamplerSource
            source = kind(source, batch_sampler, collate_fn, _RowConverter(names, types, api))
            types = None
        self.source = source
        self._converter = _RowConverter(names, types, api)
        self._probed = False
        self._held_rows: list = []

    # ---- shared ------------------------------------------------------------------------
    def _probe(self) -> None:
        if self._probed:
            return
        where = "For 'GeneratorDataset'"
        if self.random_access:
            if len(self.source) == 0:
                first = None
            else:
                try:
                    first = self._converter.convert(self.source[np.int64(0)])
                except Exception as exc:  # pylint: disable=broad-except
                    raise RuntimeError(f"{py.PIPELINE_ERROR}\n- Dataset Pipeline Error Message:\n[ERROR] {where}, "
                                       f"source.__getitem__(0) failed: {py.format_exception(exc)}") from exc
        else:
            first = None
            try:
                for item in self._iterate():
                    if hasattr(self.source, "__next__") and iter(self.source) is self.source:
                        # a one-shot iterator (a generator object): the row read here is handed
                        # back in front of the rest by _iterate, never lost
                        self._held_rows.append(item)
                    first = self._converter.convert(item)
                    break
            except Exception as exc:  # pylint: disable=broad-except
                raise RuntimeError(f"{py.PIPELINE_ERROR}\n- Dataset Pipeline Error Message:\n[ERROR] {where}, "
                                   f"the source failed on row 0: {py.format_exception(exc)}") from exc
        if first is None:
            types = self._converter.types or [np.dtype(np.float32)] * len(self._column_names)
            first = [np.zeros((), t) for t in types]
        self._converter.fix(first)
        self._probed = True

    def _iterate(self):
        if hasattr(self.source, "__iter__"):
            rows = iter(self.source)
            if self._held_rows:
                held, self._held_rows = self._held_rows, []
                return itertools.chain(held, rows)
            return rows
        return iter(self.source())

    def _random_access(self) -> bool:
        return self.random_access

    def is_shuffled(self) -> bool:
        return self.random_access and super().is_shuffled()

    def is_sharded(self) -> bool:
        return self.random_access and super().is_sharded()

    # ---- random access -----------------------------------------------------------------
    def _num_rows(self) -> int:
        return len(self.source)

    def _row(self, index: tf.Tensor) -> tuple:
        self._probe()
        conv = self._converter
        source = self.source

        def getitem(i):
            # MindSpore passes each sampled id as a numpy int64 scalar; a sampler that yields lists of
            # ids has them flattened first (samplers.Sampler.get_indices), so ``__getitem__`` never sees a list.
            return tuple(conv.convert(source[np.int64(i)]))

        getitem.__qualname__ = f"{type(source).__name__}.__getitem__"
        call = py.PyCall(getitem, "For 'GeneratorDataset'", conv.tf_dtypes, conv.ranks, row_kind="index",
                         unpack=True)
        return tuple(call(index, index))

    def _build_python_batches(self, chain: List[Any], batch_size: int,
                              drop_remainder: bool) -> Optional[tf.data.Dataset]:
        """Batches through Python maps with one Python call per batch (random-access sources only)."""
        if not self.random_access:
            return None
        return _generator_batches.build(self, chain, batch_size, drop_remainder)

    # ---- generator ---------------------------------------------------------------------
    def _static_size(self) -> Optional[int]:
        if self.random_access:
            return super()._static_size()
        if hasattr(self.source, "__len__"):
            size = len(self.source)
            size = size if self.num_samples in (None, 0) else min(size, self.num_samples)
            shard = _context().shard
            return size if shard is None else -(-size // shard[0])
        return None

    def _build_rows(self):
        # an iterable source has no row index to fuse per-row stages onto
        return super()._build_rows() if self.random_access else (self._build(), None)

    def _build(self) -> tf.data.Dataset:
        if self.random_access:
            return super()._build()
        self._probe()
        conv = self._converter
        state = {"row": 0}

        def generate():
            state["row"] = 0
            for item in self._iterate():
                try:
                    values = conv.convert(item)
                except Exception as exc:  # pylint: disable=broad-except
                    message = (f"For 'GeneratorDataset', row {state['row']} (0-based) of the current epoch could "
                               f"not be converted: {py.format_exception(exc)}")
                    raise py.record_error(message, exc) from exc
                state["row"] += 1
                yield tuple(values)

        data = tf.data.Dataset.from_generator(generate, output_signature=conv.signature())
        if self.num_samples:
            data = data.take(self.num_samples)
        shard = _context().shard
        if shard is not None:
            size = self._static_size() if hasattr(self.source, "__len__") else None
            if size:
                data = data.repeat(2).take(size * shard[0])
            data = data.shard(shard[0], shard[1])
        return data


class NumpySlicesDataset(MappableSource):
    """A source that slices in-memory data along its first dimension.

    Args:
        data: A list, tuple (one column per item), dict (one column per key) or ndarray.
        column_names: Names for the columns (default: the dict keys, or ``column_0, column_1, ...``).
        num_samples: Rows to read per epoch.
        num_parallel_workers: A parallelism hint.
        shuffle: Shuffle (None: yes).
        sampler: A sampler or a list of indices.
        num_shards: The number of shards.
        shard_id: This shard.

    Raises:
        ValueError: If the columns have different lengths or `column_names` has the wrong length.

    Example:
        >>> import numpy as np
        >>> import tfspore.dataset as ds
        >>> data = ds.NumpySlicesDataset((np.zeros((4, 2), np.float32), np.arange(4)), shuffle=False)
        >>> data.get_col_names(), data.output_types()
        (['column_0', 'column_1'], [dtype('float32'), dtype('int64')])
    """

    def __init__(self, data: Any, column_names: Optional[Union[str, List[str]]] = None,
                 num_samples: Optional[int] = None, num_parallel_workers: int = 1, shuffle: Optional[bool] = None,
                 sampler: Any = None, num_shards: Optional[int] = None, shard_id: Optional[int] = None):
        api = "NumpySlicesDataset"
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        names = None
        if isinstance(data, dict):
            names = list(data.keys())
            columns = [getattr(data[k], "values", data[k]) for k in names]
        elif isinstance(data, tuple):
            columns = list(data)
        elif isinstance(data, (list, np.ndarray)) or hasattr(data, "__array__"):
            columns = [data]
        else:
            raise TypeError(f"For '{api}', data must be a list, tuple, dict or numpy.ndarray, but got "
                            f"{type(data).__name__}.")
        arrays = []
        for k, col in enumerate(columns):
            try:
                arr = py.to_numpy(col, f"column {k}")
            except (TypeError, ValueError) as exc:
                raise TypeError(f"For '{api}', column {k} of data cannot be converted to a numpy array "
                                f"(ragged or unsupported values): {exc}") from exc
            if arr.ndim == 0:
                raise ValueError(f"For '{api}', column {k} of data must have a first dimension to slice, "
                                 f"but got a scalar {col!r}.")
            arrays.append(arr)
        lengths = [len(a) for a in arrays]
        if len(set(lengths)) > 1:
            raise ValueError(f"For '{api}', data length in each column is not equal, but got lengths {lengths}.")
        if column_names is not None:
            names = check_column_names(column_names, len(arrays), api, f"data has {len(arrays)} column(s)")
        elif names is None:
            names = [f"column_{i}" for i in range(len(arrays))]
        self._column_names = names
        self._arrays = arrays
        self._tensors = None

    def _num_rows(self) -> int:
        return len(self._arrays[0]) if self._arrays else 0

    _gathers_batches = True  # _row also gathers a vector of indices (see MappableSource._build_batched)

    def _row(self, index: tf.Tensor) -> tuple:
        if self._tensors is None:
            with tf.init_scope(), tf.device("/CPU:0"):
                self._tensors = [tf.constant(a) for a in self._arrays]
        return tuple(tf.gather(t, index) for t in self._tensors)


class PaddedDataset(NumpySlicesDataset):
    """A source of the given samples, in order (MindSpore uses it to pad a dataset to a multiple
    of the number of shards before ``concat``).

    Args:
        padded_samples: A non-empty list of dicts with the same keys (the column names); values of a
            column must have one shape.

    Raises:
        TypeError: If `padded_samples` is not a non-empty list of dicts.
        ValueError: If the dicts have different keys.

    Example:
        >>> import numpy as np
        >>> import tfspore.dataset as ds
        >>> pad = ds.PaddedDataset([{"image": np.zeros((2, 2), np.uint8), "label": np.array(-1, np.int32)}])
        >>> pad.get_col_names(), pad.get_dataset_size()
        (['image', 'label'], 1)
    """

    def __init__(self, padded_samples: List[dict]):
        api = "PaddedDataset"
        if not isinstance(padded_samples, list) or not padded_samples or \
                not all(isinstance(s, dict) for s in padded_samples):
            raise TypeError(f"For '{api}', padded_samples must be a non-empty list of dict, but got "
                            f"{padded_samples!r}.")
        keys = list(padded_samples[0].keys())
        for i, sample in enumerate(padded_samples):
            if list(sample.keys()) != keys:
                raise ValueError(f"For '{api}', every sample must have the keys {keys}, but padded_samples[{i}] has "
                                 f"{list(sample.keys())}.")
        columns = {}
        for key in keys:
            try:
                columns[key] = np.stack([np.asarray(s[key]) for s in padded_samples])
            except ValueError as exc:
                raise ValueError(f"For '{api}', the values of column '{key}' must have one shape: {exc}") from exc
        super().__init__(columns, shuffle=False)

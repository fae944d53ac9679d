"""The ``batch`` / ``padded_batch`` node: fixed or callable batch sizes, ``per_batch_map``, padding.

A batch right on a source that gathers from memory reads whole batches at once; a batch on a
chain of transform maps runs the maps' tails at batch level
(:mod:`tfspore.dataset.engine._batched_map`); otherwise rows are batched by ``tf.data``.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.engine import _python_ops as py
from tfspore.dataset.engine._batched_map import build_batched
from tfspore.dataset.engine._columns import check_known_columns
from tfspore.dataset.engine._build_context import _context
from tfspore.dataset.engine._sources import MappableSource
from tfspore.dataset.engine.datasets import AUTOTUNE, BatchInfo, Dataset
from tfspore.dataset.engine._columns import replace_columns

__all__ = ["BatchDataset"]


class BatchDataset(Dataset):
    """The result of ``Dataset.batch`` / ``Dataset.padded_batch``."""

    _KWARGS = {"per_batch_map", "input_columns", "output_columns", "python_multiprocessing", "max_rowsize",
               "pad_info", "column_order", "_api_name"}

    def _runs_python(self) -> bool:
        return self.per_batch_map is not None or self.batch_size_fn is not None or super()._runs_python()

    def __init__(self, input_dataset: Dataset, batch_size: Any, drop_remainder: bool = False,
                 num_parallel_workers: Optional[int] = None, **kwargs: Any):
        api = f"{type(input_dataset).__name__}.{kwargs.pop('_api_name', 'batch')}"
        super().__init__(input_dataset, num_parallel_workers)
        unknown = set(kwargs) - self._KWARGS
        if unknown:
            raise TypeError(f"For '{api}', got unexpected keyword argument(s) {sorted(unknown)}.")
        self.batch_size_fn = batch_size if callable(batch_size) else None
        if self.batch_size_fn is not None:
            if kwargs.get("per_batch_map") is not None or kwargs.get("pad_info") is not None:
                raise NotImplementedError(f"For '{api}', a callable batch_size with per_batch_map or pad_info is "
                                          f"not supported by tfspore.dataset; got batch_size={batch_size!r}.")
            self.batch_size = -1
        else:
            self.batch_size = v.check_int_range(batch_size, "batch_size", api, 1, v.INT32_MAX)
        self.drop_remainder = v.check_bool(drop_remainder, "drop_remainder", api)
        self.per_batch_map = kwargs.get("per_batch_map")
        if self.per_batch_map is not None and not callable(self.per_batch_map):
            raise TypeError(f"For '{api}', per_batch_map must be callable, but got {self.per_batch_map!r}.")
        child_cols = input_dataset.column_names
        inputs = v.check_unique_names(kwargs.get("input_columns"), "input_columns", api, allow_none=True)
        outputs = v.check_unique_names(kwargs.get("output_columns"), "output_columns", api, allow_none=True)
        if inputs is not None:
            check_known_columns(inputs, child_cols, "input_columns", api)
        self.input_columns = inputs or list(child_cols)
        self.output_columns = outputs or list(self.input_columns)
        if self.per_batch_map is not None:
            self._column_names = replace_columns(child_cols, self.input_columns, self.output_columns, api)
        else:
            self._column_names = list(child_cols)
        pad_info = kwargs.get("pad_info")
        if pad_info is not None:
            if not isinstance(pad_info, dict):
                raise TypeError(f"For '{api}', pad_info must be a dict, but got {pad_info!r}.")
            check_known_columns(list(pad_info), child_cols, "pad_info", api)
            for key, value in pad_info.items():
                if not (isinstance(value, tuple) and len(value) == 2):
                    raise TypeError(f"For '{api}', pad_info[{key!r}] must be a tuple (pad_shape, pad_value), "
                                    f"but got {value!r}.")
        self.pad_info = pad_info
        self._api_str = api
        self._pbm_plan = None

    def get_batch_size(self) -> int:
        return self.batch_size

    def _static_size(self) -> Optional[int]:
        size = self.children[0]._static_size()
        if size is None or self.batch_size_fn is not None:
            return None
        return size // self.batch_size if self.drop_remainder else math.ceil(size / self.batch_size)

    def _delivers_new_buffers(self) -> bool:
        # Batch ops, gathers, transforms and stacked Python batches make a new buffer per batch; a
        # per_batch_map may return arrays its Python code keeps.
        return self.per_batch_map is None

    def _build(self) -> tf.data.Dataset:
        child = self.children[0]
        plain = self.batch_size_fn is None and self.per_batch_map is None and self.pad_info is None
        if plain and isinstance(child, MappableSource):
            # Rows held in memory: gather whole batches of indices instead of row by row.
            batched = child._build_batched(self.batch_size, self.drop_remainder)
            if batched is not None:
                return batched
        if plain:
            batched = build_batched(child, self.batch_size, self.drop_remainder)  # maps at batch level
            if batched is not None:
                return batched
        data = child._build()
        if self.batch_size_fn is not None:
            return self._build_callable_size(data)
        if self.per_batch_map is not None:
            return self._build_per_batch_map(data)
        if self.pad_info is not None:
            return self._padded(data)
        return data.batch(self.batch_size, drop_remainder=self.drop_remainder, num_parallel_calls=AUTOTUNE,
                          deterministic=True)

    def _padded(self, data: tf.data.Dataset) -> tf.data.Dataset:
        shapes, values = [], []
        for name, spec in zip(self.children[0].column_names, data.element_spec):
            pad_shape, pad_value = self.pad_info.get(name, (None, None))
            if pad_shape is None:
                shapes.append(tf.TensorShape(None) if spec.shape.rank is None else [None] * spec.shape.rank)
            else:
                shapes.append([None if d is None or d == -1 else int(d) for d in pad_shape])
            if pad_value is None:
                pad_value = "" if spec.dtype == tf.string else 0
            values.append(tf.constant(pad_value, spec.dtype))
        return data.padded_batch(self.batch_size, padded_shapes=tuple(shapes), padding_values=tuple(values),
                                 drop_remainder=self.drop_remainder)

    # ---- callable batch_size ------------------------------------------------------------
    def _build_callable_size(self, data: tf.data.Dataset) -> tf.data.Dataset:
        """Batches whose sizes come from ``batch_size(BatchInfo)``: a scan numbers the rows by batch,
        ``group_by_window`` cuts the windows."""
        fn, api = self.batch_size_fn, self._api_str
        sizes: dict = {}
        state = {"epoch": -1}

        def size_of(batch_num):
            batch_num = int(batch_num)
            if batch_num == 0:
                state["epoch"] += 1
            size = fn(BatchInfo(batch_num, max(state["epoch"], 0)))
            if not v.is_int(size) or not 1 <= int(size) <= v.INT32_MAX:
                raise ValueError(f"For '{api}', the callable batch_size must return an int in [1, "
                                 f"{v.INT32_MAX}], but returned {size!r} for batch {batch_num}")
            sizes[batch_num] = int(size)
            return np.int64(size)

        size_of.__qualname__ = py.describe(fn)
        size_call = py.PyCall(size_of, f"For '{api}' (batch_size={py.describe(fn)})", [tf.int64], [0],
                              row_kind="batch")
        lookup = py.PyCall(lambda b: np.int64(sizes[int(b)]), f"For '{api}'", [tf.int64], [0], row_kind="batch")

        def step(st, row):
            batch_num, remaining, size = st
            new = remaining <= 0
            batch_num = tf.where(new, batch_num + 1, batch_num)
            size = tf.cond(new, lambda: size_call(batch_num, batch_num)[0], lambda: size)
            remaining = tf.where(new, size, remaining) - 1
            return (batch_num, remaining, size), (batch_num, size, row)

        zero = tf.constant(0, tf.int64)
        def scan_fn(st, *args):
            row = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
            return step(st, tuple(row))

        numbered = data.scan((tf.constant(-1, tf.int64), zero, zero), scan_fn)
        batched = numbered.group_by_window(
            key_func=lambda b, size, row: b,
            reduce_func=lambda key, window: window.batch(v.INT32_MAX),
            window_size_func=lambda key: lookup(key, key)[0])
        if self.drop_remainder:
            batched = batched.filter(lambda b, size, row: tf.shape(b, tf.int64)[0] == size[0])
        return batched.map(lambda b, size, row: row)

    # ---- per_batch_map ---------------------------------------------------------------
    def _pbm_call(self, state: dict) -> Callable:
        fn = self.per_batch_map
        child_cols = self.children[0].column_names
        in_idx = [child_cols.index(c) for c in self.input_columns]
        layout = [("out", self.output_columns.index(n)) if n in self.output_columns else ("in", child_cols.index(n))
                  for n in self._column_names]

        def run(batch_num, *cols):
            if batch_num == 0:
                state["epoch"] += 1
            info = BatchInfo(int(batch_num), max(state["epoch"], 0))
            result = fn(*[cols[i] for i in in_idx], info)
            outs = py.split_outputs(result)
            if len(outs) != len(self.output_columns):
                raise RuntimeError(f"per_batch_map returned {len(outs)} column(s), but output_columns="
                                   f"{self.output_columns!r} names {len(self.output_columns)}")
            stacked = [np.stack([np.asarray(x) for x in o]) if isinstance(o, list) else o for o in outs]
            return tuple(stacked[j] if src == "out" else np.stack(cols[j]) for src, j in layout)

        run.__qualname__ = py.describe(fn)
        return run

    def _build_per_batch_map(self, data: tf.data.Dataset) -> tf.data.Dataset:
        n_cols = len(data.element_spec)
        # rows of any shape: flatten each column and keep its shape, so a ragged batch can carry them
        flat = data.map(lambda *row: tuple(x for t in row for x in (tf.reshape(t, [-1]), tf.shape(t, tf.int64))),
                        num_parallel_calls=AUTOTUNE, deterministic=True)
        batched = flat.ragged_batch(self.batch_size, drop_remainder=self.drop_remainder)
        def components(x):
            if isinstance(x, tf.RaggedTensor):
                return x.values, x.row_splits
            rows, width = tf.shape(x, tf.int64)[0], tf.shape(x, tf.int64)[1]
            return tf.reshape(x, [-1]), tf.range(rows + 1, dtype=tf.int64) * width

        parts = batched.map(lambda *xs: tuple(y for k in range(n_cols)
                                              for y in (*components(xs[2 * k]), xs[2 * k + 1])),
                            num_parallel_calls=AUTOTUNE, deterministic=True)
        probe_state = {"epoch": -1}
        where = f"For '{self._api_str}' (per_batch_map={py.describe(self.per_batch_map)})"

        def unpack(args):
            cols = []
            for k in range(n_cols):
                values, splits, shapes = args[3 * k], args[3 * k + 1], args[3 * k + 2]
                cols.append([values[splits[i]:splits[i + 1]].reshape(shapes[i]) for i in range(len(shapes))])
            return cols

        if self._pbm_plan is None:
            first = list(parts.take(1)) if not _context().count else []
            if first:
                cols = unpack([py.decode_strings(t.numpy()) for t in first[0]])
                outs = py.probe_call(lambda *a: self._pbm_call(probe_state)(0, *a), cols, where, row_kind="batch")
                self._pbm_plan = ([py.tf_dtype_of(o) for o in outs], [o.ndim for o in outs])
            else:
                specs = data.element_spec
                child_cols = self.children[0].column_names
                self._pbm_plan = ([specs[child_cols.index(c)].dtype if c in child_cols else tf.float32
                                   for c in self._column_names], None)
        dtypes, ranks = self._pbm_plan
        state = {"epoch": -1}
        call = self._pbm_call(state)
        pycall = py.PyCall(lambda *a: call(a[0], *unpack(a[1:])), where, dtypes, ranks, row_kind="batch")
        pycall.fn.__qualname__ = py.describe(self.per_batch_map)
        indexed = tf.data.Dataset.zip((parts, tf.data.Dataset.counter()))
        return indexed.map(lambda row, i: tuple(pycall(i, i, *row)))

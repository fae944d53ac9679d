"""Pipeline operation nodes: map, batch, shuffle, repeat, take, skip, project, rename, zip,
concat, filter, split, flat_map.

Each node builds its tf.data stage on top of its child's pipeline. TF transforms (objects with
``_tf_apply``) and ``tf.function``s run as TF ops inside parallel, order-preserving tf.data maps;
Python callables run through :mod:`tfspore.dataset.engine._python_ops`. The node classes are
registered with :mod:`.datasets` at the end of this module (``register_operations``), whose
``Dataset`` methods create them; that module does not import this one.
"""
from __future__ import annotations

import copy
import math
import os
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.core import config
from tfspore.dataset.engine import _process_map
from tfspore.dataset.engine import _python_ops as py
from tfspore.dataset.engine._batched_map import build_batched
from tfspore.dataset.engine._columns import check_known_columns
from tfspore.dataset.engine import samplers as _samplers
from tfspore.dataset.engine.datasets import (AUTOTUNE, BatchInfo, Dataset, MappableSource, _as_tuple,
                                             _context, register_operations)

_KNOWN_MAP_KWARGS = {"python_multiprocessing", "max_rowsize", "cache", "callbacks", "offload", "column_order"}


def _replace_columns(columns: List[str], inputs: List[str], outputs: List[str], api: str) -> List[str]:
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


def _is_tf_function(op: Any) -> bool:
    return isinstance(op, tf.types.experimental.PolymorphicFunction)


class MapDataset(Dataset):
    """The result of ``Dataset.map``."""

    def __init__(self, input_dataset: Dataset, operations: Any, input_columns: Any = None, output_columns: Any = None,
                 num_parallel_workers: Optional[int] = None, **kwargs: Any):
        super().__init__(input_dataset, num_parallel_workers)
        api = f"{type(input_dataset).__name__}.map"
        unknown = set(kwargs) - _KNOWN_MAP_KWARGS
        if unknown:
            raise TypeError(f"For '{api}', got unexpected keyword argument(s) {sorted(unknown)}.")
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not ops:
            raise ValueError(f"For '{api}', operations should not be empty, but got {operations!r}.")
        for i, op in enumerate(ops):
            if op is None or not (callable(op) or hasattr(op, "_tf_apply")):
                raise TypeError(f"For '{api}', operations[{i}] must be a transform or a callable, but got {op!r}.")
        self.operations = ops
        self.python_multiprocessing = v.check_bool(kwargs.get("python_multiprocessing", False),
                                                   "python_multiprocessing", api)
        self._workers: list = []  # ProcessMaps of this node (python_multiprocessing)
        child_cols = input_dataset.column_names
        inputs = v.check_unique_names(input_columns, "input_columns", api, allow_none=True) or child_cols[:1]
        check_known_columns(inputs, child_cols, "input_columns", api)
        outputs = v.check_unique_names(output_columns, "output_columns", api, allow_none=True) or list(inputs)
        self.input_columns = inputs
        self.output_columns = outputs
        self._column_names = _replace_columns(child_cols, inputs, outputs, api)
        self._where = (f"For '{type(self).__name__}' (operations=[{', '.join(py.describe(o) for o in ops)}], "
                       f"input_columns={inputs!r})")
        self._plan: Optional[list] = None

    def _static_size(self) -> Optional[int]:
        return self.children[0]._static_size()

    def _make_plan(self) -> list:
        """Per operation: ('tf', op, random?) or ('py', op, PyCall); python outputs typed by a probe."""
        if self._plan is not None:
            return self._plan
        child = self.children[0]
        first = child._first_row() if any(self._kind(op) == "py" for op in self.operations) else None
        values: Optional[list] = None
        if first is not None:
            values = [first[child.column_names.index(c)] for c in self.input_columns]
        dtypes: Optional[list] = None  # known only when a Python op meets an empty input
        plan = []
        for k, op in enumerate(self.operations):
            kind = self._kind(op)
            if kind in ("tf", "tffn"):
                random = bool(getattr(op, "_tf_random", False))
                plan.append((kind, op, random))
                if values is not None:
                    out = self._apply_tf(kind, op, random, values, tf.constant([0, k], tf.int64))
                    values = list(out)
                    dtypes = [t.dtype for t in values]
                continue
            if values is not None:
                outs = py.probe_call(op, py.numpy_inputs(values), self._where)
                out_dtypes = [py.tf_dtype_of(o) for o in outs]
                ranks = [o.ndim for o in outs]
                values = [tf.constant(o) for o in outs]
            else:  # empty input: the function never runs
                if dtypes is None:
                    specs = child._build_for(probe=True).element_spec
                    dtypes = [specs[child.column_names.index(c)].dtype for c in self.input_columns]
                out_dtypes, ranks = dtypes, None
            dtypes = out_dtypes
            plan.append(("py", op, py.PyCall(self._in_processes(op), self._where, out_dtypes, ranks)))
        if values is not None and len(values) != len(self.output_columns):
            raise RuntimeError(f"{py.PIPELINE_ERROR}\n- Dataset Pipeline Error Message:\n[ERROR] {self._where}, "
                               f"the operations returned {len(values)} column(s), but output_columns="
                               f"{self.output_columns!r} names {len(self.output_columns)}.")
        self._plan = plan
        return plan

    def _in_processes(self, op: Callable) -> Callable:
        """`op` itself, or with ``python_multiprocessing=True`` and several workers, `op` in worker processes."""
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        workers = min(int(workers), os.cpu_count() or 1)
        if not self.python_multiprocessing or workers < 2 or not _process_map.available():
            return op
        mapped = _process_map.ProcessMap(op, workers)
        self._workers.append(mapped)
        return mapped

    def _is_python_map(self) -> bool:
        """Whether every operation is a Python callable (no transform, no tf.function)."""
        return all(self._kind(op) == "py" for op in self.operations)

    def _is_transform_map(self) -> bool:
        """Whether every operation is a transform (``_tf_apply``): such maps may run at batch level."""
        return all(self._kind(op) == "tf" for op in self.operations)

    @staticmethod
    def _kind(op: Any) -> str:
        if hasattr(op, "_tf_apply"):
            return "tf"
        if _is_tf_function(op):
            return "tffn"
        return "py"

    @staticmethod
    def _apply_tf(kind: str, op: Any, random: bool, values: Sequence[tf.Tensor], seed: tf.Tensor) -> tuple:
        if kind == "tffn":
            out = op(*values)
        elif random:
            out = op._tf_apply(*values, seed=seed)  # pylint: disable=protected-access
        else:
            out = op._tf_apply(*values)  # pylint: disable=protected-access
        return tuple(tf.convert_to_tensor(t) for t in _as_tuple(out))

    def _build(self) -> tf.data.Dataset:
        return self._build_fused()

    def _build_rows(self):
        plan = self._make_plan()
        needs_index = any(kind == "py" for kind, _, _ in plan)
        needs_seed = any(kind == "tf" and extra for kind, _, extra in plan)
        data, pending = self.children[0]._build_rows()
        ctx = _context()
        seed_const = tf.constant(ctx.next_seed(), tf.int64) if needs_seed else None
        apply = self._row_function(plan, seed_const)

        def to_row(base_args):
            return pending(*base_args) if pending is not None else tuple(base_args)

        if not (needs_index or needs_seed):
            return data, lambda *args: apply(to_row(args), None, None)
        # Python operations get the row index, random transforms a per-row seed: zip them in.
        parts = [data]
        if needs_index:
            parts.append(tf.data.Dataset.counter())
        if needs_seed:
            parts.append(tf.data.Dataset.random(seed=ctx.next_seed(), rerandomize_each_iteration=True))

        def fn(base, *extras):
            base_args = base if isinstance(base, tuple) else (base,)
            extras = list(extras)
            index = extras.pop(0) if needs_index else None
            rnd = extras.pop(0) if needs_seed else None
            return apply(to_row(base_args), index, rnd)

        return tf.data.Dataset.zip(tuple(parts)), fn

    def _row_function(self, plan: list, seed_const: Optional[tf.Tensor]) -> Callable:
        child = self.children[0]
        in_idx = [child.column_names.index(c) for c in self.input_columns]
        layout = []
        for name in self._column_names:
            if name in self.output_columns:
                layout.append(("out", self.output_columns.index(name)))
            else:
                layout.append(("in", child.column_names.index(name)))
        n_out = len(self.output_columns)

        def apply(row, index, rnd):
            values = [row[i] for i in in_idx]
            for k, (kind, op, extra) in enumerate(plan):
                if kind == "py":
                    values = extra(index, *values)
                else:
                    seed = tf.stack([rnd, seed_const + k]) if (kind == "tf" and extra) else None
                    values = list(self._apply_tf(kind, op, bool(extra) and kind == "tf", values, seed))
            if len(values) != n_out:
                raise RuntimeError(f"{self._where}, the operations returned {len(values)} column(s), but "
                                   f"output_columns={self.output_columns!r} names {n_out}.")
            return tuple(values[j] if src == "out" else row[j] for src, j in layout)

        return apply


class BatchDataset(Dataset):
    """The result of ``Dataset.batch`` / ``Dataset.padded_batch``."""

    _KWARGS = {"per_batch_map", "input_columns", "output_columns", "python_multiprocessing", "max_rowsize",
               "pad_info", "column_order", "_api_name"}

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
            self._column_names = _replace_columns(child_cols, self.input_columns, self.output_columns, api)
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

    def _build(self) -> tf.data.Dataset:
        child = self.children[0]
        if (self.batch_size_fn is None and self.per_batch_map is None and self.pad_info is None
                and isinstance(child, MappableSource)):
            # Rows held in memory: gather whole batches of indices instead of row by row.
            batched = child._build_batched(self.batch_size, self.drop_remainder)
            if batched is not None:
                return batched
        if self.batch_size_fn is None and self.per_batch_map is None and self.pad_info is None:
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


class ShuffleDataset(Dataset):
    """The result of ``Dataset.shuffle``."""

    def __init__(self, input_dataset: Dataset, buffer_size: int, *, _fixed_seed: Optional[int] = None,
                 _internal: bool = False):
        api = f"{type(input_dataset).__name__}.shuffle"
        if _internal:
            Dataset.__init__(self)
            self.children = [input_dataset]
        else:
            super().__init__(input_dataset)
        self.buffer_size = v.check_int_range(buffer_size, "buffer_size", api, 2, v.INT32_MAX)
        self._fixed_seed = _fixed_seed
        self.reshuffle_each_epoch = _fixed_seed is None
        self._column_names = input_dataset.column_names

    def is_shuffled(self) -> bool:
        return True

    def _static_size(self) -> Optional[int]:
        return self.children[0]._static_size()

    def _build(self) -> tf.data.Dataset:
        data = self.children[0]._build()
        ctx = _context()
        if ctx.probe or ctx.count:
            return data
        seed = self._fixed_seed if self._fixed_seed is not None else ctx.next_seed()
        return data.shuffle(self.buffer_size, seed=seed, reshuffle_each_iteration=self.reshuffle_each_epoch)


class RepeatDataset(Dataset):
    """The result of ``Dataset.repeat``."""

    def __init__(self, input_dataset: Dataset, count: Optional[int] = None):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.repeat"
        if count is None:
            count = -1
        if not v.is_int(count):
            raise TypeError(f"For '{api}', the argument 'count' must be of type int, but got {count!r}.")
        if count != -1:
            v.check_int_range(count, "count", api, 1, v.INT32_MAX)
        self.count = int(count)
        self._column_names = input_dataset.column_names

    def get_repeat_count(self) -> int:
        return self.count

    def _static_size(self) -> Optional[int]:
        size = self.children[0]._static_size()
        if size is None or self.count == -1:
            return size
        return size * self.count

    def _count_rows(self, shard: Optional[Tuple[int, int]] = None) -> int:
        if self.count == -1:
            return self.children[0].get_dataset_size(shard=shard)
        return super()._count_rows(shard)

    def _build(self) -> tf.data.Dataset:
        data = self.children[0]._build()
        if _context().count and self.count == -1:
            return data
        return data.repeat(self.count)


class TakeDataset(Dataset):
    """The result of ``Dataset.take``."""

    def __init__(self, input_dataset: Dataset, count: int = -1):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.take"
        if not v.is_int(count):
            raise TypeError(f"For '{api}', the argument 'count' must be of type int, but got {count!r}.")
        if count != -1:
            v.check_int_range(count, "count", api, 0, v.INT64_MAX)
        self.count = int(count)
        self._column_names = input_dataset.column_names

    def _static_size(self) -> Optional[int]:
        size = self.children[0]._static_size()
        if self.count == -1:
            return size
        return None if size is None else min(size, self.count)

    def _build(self) -> tf.data.Dataset:
        return self.children[0]._build().take(self.count)


class SkipDataset(Dataset):
    """The result of ``Dataset.skip``."""

    def __init__(self, input_dataset: Dataset, count: int):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.skip"
        self.count = v.check_int_range(count, "count", api, 0, v.INT64_MAX)
        self._column_names = input_dataset.column_names

    def _static_size(self) -> Optional[int]:
        size = self.children[0]._static_size()
        return None if size is None else max(0, size - self.count)

    def _build(self) -> tf.data.Dataset:
        return self.children[0]._build().skip(self.count)


class ProjectDataset(Dataset):
    """The result of ``Dataset.project``."""

    def __init__(self, input_dataset: Dataset, columns: Union[str, List[str]]):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.project"
        columns = v.check_unique_names(columns, "columns", api)
        check_known_columns(columns, input_dataset.column_names, "columns", api)
        self._column_names = columns

    def _static_size(self) -> Optional[int]:
        return self.children[0]._static_size()

    def _build(self) -> tf.data.Dataset:
        return self._build_fused()

    def _build_rows(self):
        child_cols = self.children[0].column_names
        idx = [child_cols.index(c) for c in self._column_names]
        data, pending = self.children[0]._build_rows()
        if pending is None:
            return data, lambda *row: tuple(row[i] for i in idx)

        def project(*base):
            row = pending(*base)  # the upstream chain once: a generator over it would trace it per column
            return tuple(row[i] for i in idx)

        return data, project


class RenameDataset(Dataset):
    """The result of ``Dataset.rename``."""

    def __init__(self, input_dataset: Dataset, input_columns: Any, output_columns: Any):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.rename"
        inputs = v.check_unique_names(input_columns, "input_columns", api)
        outputs = v.check_unique_names(output_columns, "output_columns", api)
        if len(inputs) != len(outputs):
            raise ValueError(f"For '{api}', input_columns and output_columns must have the same length, but got "
                             f"input_columns={inputs!r} and output_columns={outputs!r}.")
        check_known_columns(inputs, input_dataset.column_names, "input_columns", api)
        self._column_names = _replace_columns(input_dataset.column_names, inputs, outputs, api)

    def _static_size(self) -> Optional[int]:
        return self.children[0]._static_size()

    def _build(self) -> tf.data.Dataset:
        return self.children[0]._build()

    def _build_rows(self):
        return self.children[0]._build_rows()


class ZipDataset(Dataset):
    """The result of ``ds.zip`` / ``Dataset.zip``."""

    def __init__(self, datasets: List[Dataset]):
        super().__init__(datasets)
        names: List[str] = []
        for d in datasets:
            names.extend(d.column_names)
        dup = sorted({c for c in names if names.count(c) > 1})
        if dup:
            raise RuntimeError(f"For 'ZipDataset', the zipped datasets must have different column names, but the "
                               f"columns {dup} appear more than once in {names!r}.")
        self._column_names = names

    def _static_size(self) -> Optional[int]:
        sizes = [d._static_size() for d in self.children]
        return None if any(s is None for s in sizes) else min(sizes)

    def _build(self) -> tf.data.Dataset:
        built = tuple(d._build() for d in self.children)
        return tf.data.Dataset.zip(built).map(lambda *parts: tuple(t for p in parts for t in p))


class ConcatDataset(Dataset):
    """The result of ``Dataset.concat`` / ``+``."""

    def __init__(self, datasets: List[Dataset]):
        super().__init__(datasets)
        first = datasets[0].column_names
        for i, d in enumerate(datasets[1:], 1):
            if d.column_names != first:
                raise ValueError(f"For 'ConcatDataset', every dataset must have the same column names, but "
                                 f"datasets[0] has {first!r} and datasets[{i}] has {d.column_names!r}.")
        self._column_names = list(first)

    def _static_size(self) -> Optional[int]:
        sizes = [d._static_size() for d in self.children]
        return None if any(s is None for s in sizes) else sum(sizes)

    def _build(self) -> tf.data.Dataset:
        built = [d._build() for d in self.children]
        out = built[0]
        for i, nxt in enumerate(built[1:], 1):
            a = [s.dtype for s in out.element_spec]
            b = [s.dtype for s in nxt.element_spec]
            if a != b:
                raise RuntimeError(f"For 'ConcatDataset', every dataset must have the same column types, but "
                                   f"datasets[0] has {[t.name for t in a]} and datasets[{i}] has "
                                   f"{[t.name for t in b]}.")
            out = out.concatenate(nxt)
        return out


class FilterDataset(Dataset):
    """The result of ``Dataset.filter``."""

    def __init__(self, input_dataset: Dataset, predicate: Callable, input_columns: Any = None,
                 num_parallel_workers: Optional[int] = None):
        super().__init__(input_dataset, num_parallel_workers)
        api = f"{type(input_dataset).__name__}.filter"
        if not callable(predicate):
            raise TypeError(f"For '{api}', predicate must be callable, but got {predicate!r}.")
        self.predicate = predicate
        cols = v.check_unique_names(input_columns, "input_columns", api, allow_none=True)
        if cols is not None:
            check_known_columns(cols, input_dataset.column_names, "input_columns", api)
        self.input_columns = cols or list(input_dataset.column_names)
        self._column_names = input_dataset.column_names
        self._where = f"For '{type(self).__name__}' (predicate={py.describe(predicate)}, input_columns={cols!r})"

    def _build(self) -> tf.data.Dataset:
        child_cols = self.children[0].column_names
        idx = [child_cols.index(c) for c in self.input_columns]
        pred = self.predicate

        def as_bool(*args):
            out = np.asarray(pred(*args))
            if out.size != 1:
                raise TypeError(f"the predicate must return a bool, but returned an array of shape {out.shape}")
            return np.bool_(out.reshape(()))

        as_bool.__qualname__ = py.describe(pred)
        call = py.PyCall(as_bool, self._where, [tf.bool], [0])
        data = tf.data.Dataset.zip((self.children[0]._build(), tf.data.Dataset.counter()))
        keyed = data.map(lambda row, i: (call(i, *[row[k] for k in idx])[0], row),
                         num_parallel_calls=AUTOTUNE, deterministic=True)
        return keyed.filter(lambda keep, row: keep).map(lambda keep, row: row)


class FlatMapDataset(Dataset):
    """The result of ``Dataset.flat_map``: ``func(row)`` returns a Dataset whose rows are chained."""

    def __init__(self, input_dataset: Dataset, func: Callable):
        super().__init__(input_dataset)
        if not callable(func):
            raise TypeError(f"For '{type(input_dataset).__name__}.flat_map', func must be callable, "
                            f"but got {func!r}.")
        self.func = func
        self._column_names = None
        self._inner_cache = None

    def _inner(self, row_values) -> Dataset:
        out = self.func(*row_values)
        if not isinstance(out, Dataset):
            raise TypeError(f"For 'FlatMapDataset', func must return a Dataset, but got {out!r}.")
        return out

    @property
    def column_names(self) -> List[str]:  # type: ignore[override]
        if self._column_names is None:
            first = self.children[0]._first_row()
            if first is None:
                return self.children[0].column_names
            self._column_names = self._inner(py.numpy_inputs(first)).column_names
        return list(self._column_names)

    def _build(self) -> tf.data.Dataset:
        outer = self.children[0]._build()
        first = self.children[0]._first_row()
        if first is None:
            return outer
        spec = self._inner(py.numpy_inputs(first))._build_for(probe=True).element_spec

        def gen_fn(*row):
            inner = self._inner(py.numpy_inputs(row))
            for item in inner.create_tuple_iterator(output_numpy=True, num_epochs=1):
                yield tuple(item)

        def per_row(*row):
            return tf.data.Dataset.from_generator(gen_fn, args=row, output_signature=spec)

        return outer.flat_map(per_row)


def split_dataset(dataset: Dataset, sizes: Sequence[Union[int, float]], randomize: bool) -> List[Dataset]:
    """``Dataset.split``: MindSpore's size rules; mappable sources split their index lists."""
    api = f"{type(dataset).__name__}.split"
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError(f"For '{api}', sizes must be a non-empty list of int or float, but got {sizes!r}.")
    v.check_bool(randomize, "randomize", api)
    all_int = all(v.is_int(s) for s in sizes)
    all_float = all(isinstance(s, float) for s in sizes)
    if not (all_int or all_float):
        raise TypeError(f"For '{api}', sizes must be all int or all float, but got {sizes!r}.")
    if all_int and any(s <= 0 for s in sizes):
        raise ValueError(f"For '{api}', every size must be positive, but got {sizes!r}.")
    if all_float:
        if any(s <= 0 or s > 1 for s in sizes):
            raise ValueError(f"For '{api}', the float sizes must be in (0, 1], but got {sizes!r}.")
        if abs(sum(sizes) - 1) > 1e-6:
            raise ValueError(f"For '{api}', the float sizes must sum to 1, but got {sizes!r} "
                             f"(sum {sum(sizes)}).")
    if dataset.is_sharded():
        raise RuntimeError(f"For '{api}', the dataset should not be sharded before split.")
    total = dataset.get_dataset_size()
    if total <= 0:
        raise RuntimeError(f"For '{api}', dataset_size is unknown or 0, unable to split.")
    if all_int:
        if sum(sizes) != total:
            raise RuntimeError(f"For '{api}', sum of split sizes {sum(sizes)} is not equal to dataset size {total}.")
        absolute = [int(s) for s in sizes]
    else:
        absolute = []
        for s in sizes:
            size = int(round(s * total))
            if size == 0:
                raise RuntimeError(f"For '{api}', split percentage {s} is too small for a dataset of {total} rows.")
            absolute.append(size)
        diff = total - sum(absolute)
        if diff > 0:
            absolute[0] += diff
        elif diff < 0:
            for i, size in enumerate(absolute):
                if size + diff > 0:
                    absolute[i] += diff
                    break
    ctx_seed = _context().seed
    rng = np.random.default_rng(ctx_seed)
    if isinstance(dataset, MappableSource) and dataset._random_access():  # pylint: disable=protected-access
        order = rng.permutation(total) if randomize else np.arange(total)
        shuffled = dataset.is_shuffled()
        base = dataset.sampler
        out, start = [], 0
        for size in absolute:
            part = copy.copy(dataset)
            part.parent = []
            part.dataset_size = None
            part._first_row_cache = None  # pylint: disable=protected-access
            positions = order[start:start + size].tolist()
            sub = _samplers.SubsetRandomSampler(positions) if shuffled else _samplers.SubsetSampler(positions)
            if base.is_shuffled():
                inner = _samplers.SequentialSampler(num_samples=base.get_num_samples())
            else:
                inner = base
            sub.add_child(inner)
            part.sampler = sub
            out.append(part)
            start += size
        return out
    fixed_seed = int(rng.integers(0, 2**31 - 1))
    out, start = [], 0
    for size in absolute:
        if randomize:
            node: Dataset = ShuffleDataset(dataset, 10000, _fixed_seed=fixed_seed, _internal=True)
        else:
            node = _PassThrough(dataset)
        if start:
            node = SkipDataset(node, start)
        out.append(TakeDataset(node, size))
        start += size
    return out


class _PassThrough(Dataset):
    """A child reference that does not count as a consumer (used by split)."""

    def __init__(self, input_dataset: Dataset):
        Dataset.__init__(self)
        self.children = [input_dataset]
        self._column_names = input_dataset.column_names

    def _static_size(self) -> Optional[int]:
        return self.children[0]._static_size()

    def _build(self) -> tf.data.Dataset:
        return self.children[0]._build()


register_operations(MapDataset=MapDataset, BatchDataset=BatchDataset, ShuffleDataset=ShuffleDataset,
                    RepeatDataset=RepeatDataset, TakeDataset=TakeDataset, SkipDataset=SkipDataset,
                    ProjectDataset=ProjectDataset, RenameDataset=RenameDataset, ZipDataset=ZipDataset,
                    ConcatDataset=ConcatDataset, FilterDataset=FilterDataset, FlatMapDataset=FlatMapDataset,
                    split_dataset=split_dataset)

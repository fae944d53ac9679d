"""The ``map`` node: transforms, ``tf.function``s and Python callables over columns of rows.

TF transforms (objects with ``_tf_apply``) and ``tf.function``s run as TF ops inside one
parallel, order-preserving tf.data map per chain of maps (``_build_rows`` composes them); Python
callables run through :mod:`tfspore.dataset.engine._python_ops`, in worker processes with
``python_multiprocessing=True``. A map right before ``batch`` may run at batch level (see
:mod:`tfspore.dataset.engine._batched_map`).
"""
from __future__ import annotations

import os
from typing import Any, Callable, Optional, Sequence

import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.core import config
from tfspore.dataset.engine import _process_map
from tfspore.dataset.engine import _python_ops as py
from tfspore.dataset.engine._columns import check_known_columns
from tfspore.dataset.engine._build_context import _context
from tfspore.dataset.engine.datasets import Dataset, _as_tuple
from tfspore.dataset.engine._columns import replace_columns

__all__ = ["MapDataset"]

_KNOWN_MAP_KWARGS = {"python_multiprocessing", "max_rowsize", "cache", "callbacks", "offload", "column_order"}


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
        self._column_names = replace_columns(child_cols, inputs, outputs, api)
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

    def _runs_python(self) -> bool:
        return any(self._kind(op) == "py" for op in self.operations) or super()._runs_python()

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

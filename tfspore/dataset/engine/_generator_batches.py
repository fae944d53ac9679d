"""Batches of a random-access ``GeneratorDataset`` through Python maps: one Python call per batch.

``GeneratorDataset(source).map(f).map(g).batch(n)`` with Python callables ``f`` and ``g`` reads
each batch with one ``tf.numpy_function`` call: for every sampled index it calls
``source[i]``, then ``f`` and ``g`` on the row, as the per-row pipeline does, and stacks the
rows. The engine crosses between TensorFlow and Python once per batch instead of two or three
times per row. With ``python_multiprocessing=True`` on a map and two or more workers, the whole
batch is computed in a worker process (see :mod:`._process_map`), so several batches are made
at once, one per process, without sharing the GIL. Errors name the callable and the row as the
per-row pipeline does.
"""
from __future__ import annotations

import os
from typing import Any, List, Optional

import numpy as np
import tensorflow as tf

from tfspore.dataset.core import config
from tfspore.dataset.engine import _process_map
from tfspore.dataset.engine import _python_ops as py
from tfspore.dataset.engine.datasets import AUTOTUNE, Dataset

__all__ = ["build"]


class _RowFailure(Exception):
    """A failure inside a batch job: the pipeline message and the user's exception (picklable)."""

    def __init__(self, message: str, original: Optional[BaseException]):
        super().__init__(message)
        self.message = message
        self.original = original

    def __reduce__(self):
        return (_RowFailure, (self.message, self.original))


def _workers(chain: List[Dataset]) -> int:
    workers = 1
    for node in chain:
        if getattr(node, "python_multiprocessing", False):
            wanted = node.num_parallel_workers or config.get_num_parallel_workers()
            workers = max(workers, min(int(wanted), os.cpu_count() or 1))
    return workers if _process_map.available() else 1


def build(generator: Any, chain: List[Any], batch_size: int, drop_remainder: bool) -> Optional[tf.data.Dataset]:
    """The batches of `chain` (maps of Python callables, from the source up) over `generator`."""
    generator._probe()  # pylint: disable=protected-access
    conv = generator._converter  # pylint: disable=protected-access
    source = generator.source
    getitem = py.PyCall(lambda i: source[i], "For 'GeneratorDataset'", conv.tf_dtypes, conv.ranks, row_kind="index")
    getitem.fn.__qualname__ = f"{type(source).__name__}.__getitem__"
    names = list(generator.column_names)
    dtypes, ranks = list(conv.tf_dtypes), list(conv.ranks)
    stages = []
    for node in chain:
        plan = node._make_plan()  # pylint: disable=protected-access
        calls = [py.PyCall(op, node._where, extra.out_dtypes, extra.out_ranks)  # pylint: disable=protected-access
                 for _, op, extra in plan]
        in_idx = [names.index(c) for c in node.input_columns]
        layout = [("out", node.output_columns.index(n)) if n in node.output_columns else ("in", names.index(n))
                  for n in node.column_names]
        stages.append((in_idx, calls, layout, len(node.output_columns)))
        last = calls[-1]
        dtypes = [last.out_dtypes[k] if src == "out" else dtypes[k] for src, k in layout]
        ranks = [last.out_ranks[k] if src == "out" else ranks[k] for src, k in layout]
        names = list(node.column_names)

    def job(indices: np.ndarray, batch_num: Any) -> tuple:
        columns: List[list] = [[] for _ in names]
        for j, index in enumerate(indices):
            try:
                row = conv.convert(source[np.int64(index)])
            except Exception as exc:  # pylint: disable=broad-except
                raise _RowFailure(getitem.failure(index, exc), exc) from None
            position = int(batch_num) * batch_size + j
            for in_idx, calls, layout, n_out in stages:
                values = [row[k] for k in in_idx]
                for call in calls:
                    try:
                        values = call.call(*values)
                    except Exception as exc:  # pylint: disable=broad-except
                        raise _RowFailure(call.failure(position, exc), exc) from None
                if len(values) != n_out:
                    raise _RowFailure(f"{calls[-1].where}, the operations returned {len(values)} column(s), but "
                                      f"output_columns names {n_out}.", None)
                row = [values[k] if src == "out" else row[k] for src, k in layout]
            for column, value in zip(columns, row):
                column.append(value)
        try:
            return tuple(np.stack(column) for column in columns)
        except ValueError as exc:
            raise _RowFailure(f"For 'BatchDataset', the rows of batch {int(batch_num)} cannot be batched, every "
                              f"row of a batch must have the same shape: {exc}", exc) from None

    workers = _workers(chain)
    runner = _process_map.ProcessMap(job, workers) if workers > 1 else job

    def run(indices: np.ndarray, batch_num: Any) -> list:
        try:
            return list(runner(indices, batch_num))
        except _RowFailure as failure:
            raise py.record_error(failure.message, failure.original) from failure.original

    run.__qualname__ = "GeneratorDataset batch"

    def read(indices: tf.Tensor, batch_num: tf.Tensor) -> tuple:
        outs = tf.numpy_function(run, [indices, batch_num], dtypes, stateful=True)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        lead = batch_size if drop_remainder else None
        for out, rank in zip(outs, ranks):
            out.set_shape([lead] + [None] * rank)
        return tuple(outs)

    indices = generator._index_dataset().batch(batch_size, drop_remainder=drop_remainder)  # pylint: disable=W0212
    parallel = workers if workers > 1 else AUTOTUNE
    return tf.data.Dataset.zip((indices, tf.data.Dataset.counter())).map(read, num_parallel_calls=parallel,
                                                                         deterministic=True)

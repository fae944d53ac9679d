"""Maps right before ``batch`` run at batch level.

A chain of ``map`` nodes directly under a ``batch`` splits, per map, into a per-row prefix and a
batch-level suffix: the suffix is the longest tail of transforms that implement
``_apply_batch`` (``TensorOperation._batch_ok``) and whose per-row inputs have static shapes
(known by tracing the chain once in a scratch graph). The rows then go through the prefixes,
are batched, and the suffixes run once per batch: a few large ops instead of many small ones per
row. Rows of different lengths made inside the batch-level part (a tokenizer's tokens) travel
as ragged batches to the transforms that take them (``TensorOperation._ragged_batch_ok``: Lookup,
PadEnd), as long as the chain ends in rows of static shapes: a sentence batch is tokenized,
looked up and padded with a few ops per batch. When every transform of the chain works at batch
level and the source holds its rows in memory (``MappableSource._gathers_batches``), whole
batches are gathered from the source and no work runs per row at all; otherwise, when the rows of
the per-row part have static shapes, the row inputs (source indices, per-row seeds) are batched
and one function per batch makes the batch's rows (``tf.map_fn``), then runs the batch-level
part: one tf.data call per batch instead of several per row. Neighbouring batch-level
transforms whose numbers do not change under XLA (``TensorOperation._batch_xla_ok``: crops,
flips, integer resizes, Normalize, HWC2CHW) run as one XLA-compiled function: a few fused loops
over the batch instead of one pass per op.

The result equals the per-row pipeline row for row for deterministic transforms. Random
transforms in a batch-level suffix draw their numbers per batch (one seed per batch, from the
pipeline seed), so they differ from the numbers of the same transform applied per row, with
the same distribution (``docs/differences.md``). Element-wise transforms of uint8 rows at batch
level (Rescale, Normalize, TypeCast) are one table lookup with the per-row numbers
(:mod:`tfspore.dataset.engine._table_lookup`).
"""
from __future__ import annotations

import copy
import os
from typing import Callable, List, Optional, Sequence, Tuple

import tensorflow as tf

from tfspore.dataset.core import config
from tfspore.dataset.engine._build_context import _context
from tfspore.dataset.engine._sources import MappableSource
from tfspore.dataset.engine.datasets import AUTOTUNE, Dataset, _as_tuple
from tfspore.dataset.engine._table_lookup import with_tables

__all__ = ["build_batched"]


class _Columns(Dataset):
    """A pass-through node that only renames the columns of its child (positions unchanged)."""

    def __init__(self, child: Dataset, names: Sequence[str]):
        Dataset.__init__(self)
        self.children = [child]
        self._column_names = list(names)

    def _build(self) -> tf.data.Dataset:
        return self.children[0]._build()

    def _build_rows(self):
        return self.children[0]._build_rows()


def _tf_only(node: Dataset) -> bool:
    """A map node whose operations are all transforms (no Python callables, no tf.functions)."""
    return bool(getattr(node, "_is_transform_map", lambda: False)())


def _splits(chain: List[Dataset], spec: Tuple[tf.TensorSpec, ...], ragged: bool = True,
            xla: Optional[List[List[bool]]] = None, tables: Optional[list] = None) -> Optional[List[int]]:
    """Per map, the index of its first batch-level transform (len(ops): none), or None if unusable.

    The chain is traced once on one row of `spec` (a throwaway tf.function) to learn the static
    shape of every transform's input. With `ragged`, transforms whose rows are 1-D of unknown
    length may run at batch level on ragged batches (``TensorOperation._ragged_batch_ok``) when
    a transform before them in the batch-level part made those rows and the chain ends in rows of
    static shapes; otherwise (or when it does not end so) only static rows are used. `xla`, when
    given, receives per map and operation whether its batch form may be compiled with XLA
    (``TensorOperation._batch_xla_ok``). `tables`, when given, receives per map and operation
    whether it is a table transform (``TensorOperation._table_ok``), whether its input is uint8
    and the input's row shape (see :func:`_table_lookup.with_tables`).
    """
    found: List[Optional[List[int]]] = [None]
    compiled: List[List[bool]] = []
    lookups: list = []

    def trace(*cols):
        cols = list(cols)
        seed = tf.zeros([2], tf.int64)
        batched_cols: set = set()  # positions holding values of a batch-level suffix
        splits = []
        for node in chain:
            names = node.children[0].column_names
            in_idx = [names.index(c) for c in node.input_columns]
            values = [cols[i] for i in in_idx]
            ok, fixed, fast, table = [], [], [], []
            for op in node.operations:
                shapes, dtypes = [v.shape for v in values], [v.dtype for v in values]
                static = all(shape.is_fully_defined() for shape in shapes)
                table_ok = static and len(values) == 1 and bool(getattr(op, "_table_ok", lambda *_: False)(shapes, dtypes))
                table.append((table_ok, bool(dtypes and dtypes[0] == tf.uint8), shapes[0] if shapes else None))
                if static:
                    can = op._batch_ok(shapes, dtypes)
                else:
                    can = ragged and op._ragged_batch_ok(shapes, dtypes)
                fast.append(bool(can) and static and bool(op._batch_xla_ok(shapes, dtypes)))
                out = op._tf_apply(*values, seed=seed) if getattr(op, "_tf_random", False) else op._tf_apply(*values)
                out = [tf.convert_to_tensor(t) for t in _as_tuple(out)]
                ok.append(bool(can) and len(out) == len(values))
                fixed.append(static)
                values = out
            k = len(ok)
            while k > 0 and ok[k - 1]:
                k -= 1
            # The batch-level part starts on rows of static shapes (they are what gets batched),
            # unless its inputs are batch-level values of an earlier map already.
            carried = set(in_idx) <= batched_cols
            while k < len(ok) and not fixed[k] and not (k == 0 and carried):
                k += 1
            if len(node.input_columns) != len(node.output_columns) or len(values) != len(node.output_columns):
                k = len(ok)
                if batched_cols:
                    return cols  # a per-row map would move the columns a batch-level suffix works on
            if k > 0 and batched_cols & set(in_idx):
                return cols  # a per-row transform would read a value computed later, per batch
            if k < len(ok):
                batched_cols |= set(in_idx)
            for i, value in zip(in_idx, values):
                cols[i] = value
            splits.append(k)
            compiled.append(fast)
            lookups.append(table)
        if all(cols[i].shape.is_fully_defined() for i in batched_cols):  # the batches come out dense
            found[0] = splits
        return cols

    tf.function(trace, autograph=False).get_concrete_function(*spec)
    if found[0] is None and ragged:
        return _splits(chain, spec, ragged=False, xla=xla, tables=tables)
    if xla is not None and found[0] is not None:
        xla[:] = compiled
    if tables is not None and found[0] is not None:
        tables[:] = lookups
    return found[0]


def _runs(ops: list, fast: List[bool]) -> List[Tuple[bool, list]]:
    """Consecutive operations grouped into (compile with XLA?, operations) runs."""
    runs: List[Tuple[bool, list]] = []
    for op, flag in zip(ops, fast):
        if runs and runs[-1][0] == flag:
            runs[-1][1].append(op)
        else:
            runs.append((flag, [op]))
    return runs


def _apply_ops(ops: list, values: list, seeds: list) -> list:
    """`ops`' batch forms in order; `seeds` holds one ``[2]`` seed per random operation."""
    seeds = list(seeds)
    for op in ops:
        seed = seeds.pop(0) if getattr(op, "_tf_random", False) else None
        values = list(_as_tuple(op._tf_apply_batch(*values, seed=seed)))  # pylint: disable=protected-access
    return values


def _compiled(ops: list) -> Callable:
    """`ops`' batch forms as one function compiled with XLA (the numbers of :func:`_apply_ops`)."""
    return tf.function(lambda values, seeds: _apply_ops(ops, list(values), list(seeds)), jit_compile=True,
                       autograph=False)


def _row_groups(lower: Dataset, batch_size: int, drop_remainder: bool) -> Tuple[tf.data.Dataset, Optional[Callable]]:
    """The rows of `lower` in batches: ``(dataset, make)``; `make` (or None) turns an element into the batch.

    tf.data's per-element machinery costs tens of microseconds per row (a function call, buffers
    and a hand-over per element and per stage). When every row of the per-row part has a static
    shape, the inputs of the rows (source indices, per-row seeds) are batched instead and `make`
    computes the batch's rows in one function with ``tf.map_fn``, iterations in parallel. The
    rows are the per-row pipeline's, seeds included: the same per-row function on the same inputs.
    """
    rows, fn = lower._build_rows()  # pylint: disable=protected-access
    if fn is None:
        return rows.batch(batch_size, drop_remainder=drop_remainder, num_parallel_calls=AUTOTUNE,
                          deterministic=True), None
    spec = rows.map(fn).element_spec
    if not all(s.shape.is_fully_defined() for s in tf.nest.flatten(spec)):
        return rows.map(fn, num_parallel_calls=AUTOTUNE, deterministic=True).batch(
            batch_size, drop_remainder=drop_remainder, num_parallel_calls=AUTOTUNE, deterministic=True), None

    def one(args):
        return fn(*args) if isinstance(args, tuple) else fn(args)

    def make(args):
        return tuple(tf.map_fn(one, args, fn_output_signature=spec, parallel_iterations=batch_size))

    return rows.batch(batch_size, drop_remainder=drop_remainder), make


def _workers(chain: List[Dataset]) -> int:
    """Parallel calls for a chain's batch-level map: two per worker (its maps' num_parallel_workers, at
    most the cores). Batches leave in order: with one call per worker, a worker whose batch is done
    before an earlier one waits idle; with two it starts the next (imagefolder pipeline of
    bench/dataset_runner.py: 8,300 -> 8,600 samples/s on 2 cores; AUTOTUNE's 8 or more calls in flight
    wait on each other: 312 us/row against 129)."""
    asked = [m.num_parallel_workers for m in chain if m.num_parallel_workers]
    return 2 * max(1, min(max(asked) if asked else config.get_num_parallel_workers(), os.cpu_count() or 1))


def _per_row_chain(child: Dataset) -> Tuple[List[Dataset], Dataset]:
    """The maps of transforms directly under a batch (from the source up) and the node below them."""
    chain = []
    node = child
    while _tf_only(node):
        chain.append(node)
        node = node.children[0]
    chain.reverse()
    return chain, node


def build_batched(child: Dataset, batch_size: int, drop_remainder: bool) -> Optional[tf.data.Dataset]:
    """The batches of `child` (a chain of maps) with batch-level suffixes, or None to batch per row.

    Every array of a batch is made for that batch (``Dataset._delivers_new_buffers``): gathers,
    batch ops, ``tf.map_fn`` stacks, stacked Python rows and the transforms' outputs.
    """
    python_chain = []
    node = child
    while getattr(node, "_is_python_map", lambda: False)():
        python_chain.append(node)
        node = node.children[0]
    if python_chain and hasattr(node, "_build_python_batches"):  # Python maps over a Python source
        data = node._build_python_batches(python_chain[::-1], batch_size, drop_remainder)
        if data is not None:
            return data
    chain, base = _per_row_chain(child)
    if not chain:
        return None
    spec = base._build_for(probe=True).element_spec
    spec = spec if isinstance(spec, tuple) else (spec,)
    xla: List[List[bool]] = []
    tables: list = []
    try:
        splits = _splits(chain, spec, xla=xla, tables=tables)
    except Exception:  # pylint: disable=broad-except
        splits = None  # the per-row pipeline reports what is wrong
    if splits is None:
        return None
    if all(k == len(m.operations) for m, k in zip(chain, splits)):  # every transform per row
        data, make = _row_groups(child, batch_size, drop_remainder)
        return None if make is None else data.map(lambda *a: make(a), num_parallel_calls=AUTOTUNE,
                                                  deterministic=True)

    make = None
    if all(k == 0 for k in splits) and isinstance(base, MappableSource) and getattr(base, "_gathers_batches", False):
        data = base._build_batched(batch_size, drop_remainder)  # whole batches gathered from memory
    else:
        lower: Dataset = base
        for m, k in zip(chain, splits):
            if k == 0:
                lower = _Columns(lower, m.column_names)
                continue
            part = copy.copy(m)
            part.operations = m.operations[:k]
            part.children = [lower]
            part.parent = []
            part._plan = None  # pylint: disable=protected-access
            part._first_row_cache = None  # pylint: disable=protected-access
            lower = part
        data, make = _row_groups(lower, batch_size, drop_remainder)
    stages = []  # per map with a batch-level part: its input positions and its runs of operations
    for m, k, fast, table in zip(chain, splits, xla, tables):
        if k < len(m.operations):
            names = m.children[0].column_names
            ops, fast = with_tables(m.operations[k:], fast[k:], table[k:])
            runs = [(_compiled(group) if flag else None, group) for flag, group in _runs(ops, fast)]
            stages.append(([names.index(c) for c in m.input_columns], runs))
    random = any(getattr(op, "_tf_random", False) for _, runs in stages for _, ops in runs for op in ops)
    # XLA-compiled batch steps run a few calls per core (see _workers); the maps'
    # num_parallel_workers says how many workers the user wants.
    compiled = any(fn is not None for _, runs in stages for fn, _ in runs)
    calls = _workers(chain) if compiled else AUTOTUNE

    def apply(row: tuple, rnd: Optional[tf.Tensor]) -> tuple:
        row = list(row)
        count = 0
        for idx, runs in stages:
            values = [row[i] for i in idx]
            for fn, ops in runs:
                seeds = []
                for op in ops:
                    if getattr(op, "_tf_random", False):
                        count += 1
                        seeds.append(tf.stack([rnd, const + count]))
                values = list(fn(values, seeds)) if fn is not None else _apply_ops(ops, values, seeds)
            # A transform whose output is a constant (a Fill of a static shape) would deliver one
            # buffer for every batch; each batch gets its own (see Dataset._delivers_new_buffers).
            # XLA groups hold transforms of their inputs only (TensorOperation._batch_xla_ok).
            values = [tf.raw_ops.DeepCopy(x=x) if tf.get_static_value(x) is not None else x for x in values]
            for i, value in zip(idx, values):
                row[i] = value
        return tuple(row)

    def rows_of(element) -> tuple:
        return make(element) if make is not None else element

    if not random:
        return data.map(lambda *element: apply(rows_of(element), None), num_parallel_calls=calls,
                        deterministic=True)
    ctx = _context()
    const = tf.constant(ctx.next_seed(), tf.int64)
    seeds = tf.data.Dataset.random(seed=ctx.next_seed(), rerandomize_each_iteration=True)
    return tf.data.Dataset.zip((data, seeds)).map(lambda element, rnd: apply(rows_of(element), rnd),
                                                  num_parallel_calls=calls, deterministic=True)

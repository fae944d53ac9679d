"""Pipeline operation nodes: shuffle, repeat, take, skip, project, rename, zip, concat, filter,
split, flat_map (map and batch: :mod:`._map_op`, :mod:`._batch_op`).

Each node builds its tf.data stage on top of its child's pipeline. TF transforms (objects with
``_tf_apply``) and ``tf.function``s run as TF ops inside parallel, order-preserving tf.data maps;
Python callables run through :mod:`tfspore.dataset.engine._python_ops`. The node classes are
registered with :mod:`.datasets` at the end of this module (``register_operations``), whose
``Dataset`` methods create them; that module does not import this one.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.engine import _python_ops as py
from tfspore.dataset.engine._columns import check_known_columns, replace_columns
from tfspore.dataset.engine import samplers as _samplers
from tfspore.dataset.engine._build_context import _context
from tfspore.dataset.engine._sources import MappableSource
from tfspore.dataset.engine.datasets import AUTOTUNE, Dataset, register_operations
from tfspore.dataset.engine._map_op import MapDataset
from tfspore.dataset.engine._batch_op import BatchDataset


class ShuffleDataset(Dataset):
    """The result of ``Dataset.shuffle``."""

    _passes_elements = True

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


def _check_count(count: Any, api: str, low: int, high: int) -> int:
    """``count`` of ``repeat`` / ``take``: -1 (all) or an int in ``[low, high]``."""
    if not v.is_int(count):
        raise TypeError(f"For '{api}', the argument 'count' must be of type int, but got {count!r}.")
    if count != -1:
        v.check_int_range(count, "count", api, low, high)
    return int(count)


class RepeatDataset(Dataset):
    """The result of ``Dataset.repeat``."""

    _passes_elements = True

    def __init__(self, input_dataset: Dataset, count: Optional[int] = None):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.repeat"
        if count is None:
            count = -1
        self.count = _check_count(count, api, 1, v.INT32_MAX)
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

    _passes_elements = True

    def __init__(self, input_dataset: Dataset, count: int = -1):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.take"
        self.count = _check_count(count, api, 0, v.INT64_MAX)
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

    _passes_elements = True

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

    _passes_elements = True

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

    _passes_elements = True

    def __init__(self, input_dataset: Dataset, input_columns: Any, output_columns: Any):
        super().__init__(input_dataset)
        api = f"{type(input_dataset).__name__}.rename"
        inputs = v.check_unique_names(input_columns, "input_columns", api)
        outputs = v.check_unique_names(output_columns, "output_columns", api)
        if len(inputs) != len(outputs):
            raise ValueError(f"For '{api}', input_columns and output_columns must have the same length, but got "
                             f"input_columns={inputs!r} and output_columns={outputs!r}.")
        check_known_columns(inputs, input_dataset.column_names, "input_columns", api)
        self._column_names = replace_columns(input_dataset.column_names, inputs, outputs, api)

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

    def _runs_python(self) -> bool:
        return True  # the predicate

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

    def _runs_python(self) -> bool:
        return True  # func makes the inner datasets

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

"""The dataset graph: lazy nodes that build ``tf.data`` pipelines.

Every dataset (a source or an operation such as ``map`` or ``batch``) is a :class:`Dataset`
node with ``children`` and ``column_names``. Nothing runs until the pipeline is consumed; then
``_build()`` turns the node tree into a fresh ``tf.data.Dataset`` whose elements are **tuples
of tensors in column order** (one pass over the data; ``repeat`` nodes repeat inside it).

Model-facing contract (what ``Model`` and ``DatasetHelper`` use):

* ``dataset.to_tf_dataset(shard=None) -> tf.data.Dataset``: the pipeline with
  ``prefetch(AUTOTUNE)`` at the end. Elements are tuples of tensors in
  ``get_col_names()`` order; after ``batch(..., drop_remainder=True)`` the batch dimension is
  static. Each ``iter()`` over the returned object is one more pass (an "epoch") with fresh
  shuffles, so ``.repeat()`` on it gives epochs that reshuffle as MindSpore's do. ``shard=(S, k)``
  gives worker ``k`` of ``S`` its part of the data (MindSpore's sharding with wrap-padding at the
  random-access sources, so every worker gets the same number of rows), e.g. for
  ``strategy.distribute_datasets_from_function(lambda ctx: ds.to_tf_dataset(
  shard=(ctx.num_input_pipelines, ctx.input_pipeline_id)))``. Sources created with their own
  ``num_shards`` are already sharded and ignore it.
* ``get_dataset_size()``, ``get_col_names()``, ``get_batch_size()``, ``get_repeat_count()``,
  ``output_shapes()``, ``output_types()``.
* Pipeline errors: iterate through :func:`tfspore.dataset.engine.iterators.pipeline_error` to
  turn a ``tf.errors.OpError`` into MindSpore's ``RuntimeError``.

Writing a source:

* Random-access sources subclass :class:`MappableSource` and implement ``column_names``,
  ``_num_rows()`` and ``_row(index)``; the base class adds MindSpore's ``num_samples``,
  ``shuffle``, ``sampler``, ``num_shards`` and ``shard_id``. A source whose ``_row`` is a
  ``tf.gather`` from in-memory tensors also sets ``_gathers_batches = True``: a ``batch`` right
  on it then gathers whole batches of sampled indices (see ``MappableSource._build_batched``).
* Other sources subclass :class:`SourceDataset` and implement ``column_names`` and
  ``_build_source()`` (and ``_source_size()`` if the size is known without reading).

Random transforms (objects with ``_tf_apply`` and ``_tf_random = True``) are called as
``_tf_apply(*tensors, seed=seed)`` with a per-row stateless seed (shape ``[2]``, int64) drawn
from the pipeline seed, so they are reproducible after ``ds.config.set_seed`` and differ per
epoch. :func:`next_op_seed` gives other nodes a build-time seed.

Example:
    >>> import numpy as np
    >>> import tfspore.dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.float32)}, shuffle=False).batch(4)
    >>> data.get_dataset_size(), data.get_col_names()
    (2, ['x'])
    >>> tf_data = data.to_tf_dataset()
"""
from __future__ import annotations

import contextlib
import math
import threading
import weakref
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.core import config
from tfspore.dataset.engine.samplers import check_shard_options
from tfspore.dataset.engine import samplers as _samplers

__all__ = ["Dataset", "SourceDataset", "MappableSource", "MappableDataset", "zip", "next_op_seed",
           "BatchInfo"]

AUTOTUNE = tf.data.AUTOTUNE
_NOT_A_TREE = "The data pipeline is not a tree (i.e., one node has 2 consumers)"


# ------------------------------------------------------------------------------------- build context
class _BuildContext:
    """State shared by the nodes while one pipeline is built."""

    def __init__(self, shard: Optional[Tuple[int, int]] = None, probe: bool = False, count: bool = False):
        self.shard = shard
        self.probe = probe      # building only to look at the first rows: skip shuffle buffers
        self.count = count      # building only to count: infinite repeats become one pass
        self.seed = config._pipeline_seed()
        self._counter = 0

    def next_seed(self, deterministic: bool = False) -> int:
        """A 31-bit op seed: derived from the pipeline seed, or fresh entropy when unseeded.

        `deterministic` forces a seed derived from MindSpore's default seed (5489) when none is
        set, so that all shards of a distributed job draw the same permutation.
        """
        self._counter += 1
        seed = self.seed
        if seed is None and (deterministic or self.shard is not None):
            seed = config.DEFAULT_SEED
        if seed is None:
            entropy = np.random.SeedSequence().generate_state(1)[0]
            return int(entropy) & 0x7FFFFFFF
        state = np.random.SeedSequence([seed, self._counter]).generate_state(1)[0]
        return int(state) & 0x7FFFFFFF


_LOCAL = threading.local()


@contextlib.contextmanager
def _building(ctx: _BuildContext):
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    stack.append(ctx)
    try:
        yield ctx
    finally:
        stack.pop()


def _context() -> _BuildContext:
    stack = getattr(_LOCAL, "stack", None)
    if stack:
        return stack[-1]
    # Outside to_tf_dataset (a bare _build() or a size query): a default context, renewed when
    # the seed changes.
    ctx = getattr(_LOCAL, "default", None)
    if ctx is None or ctx.seed != config._pipeline_seed():  # pylint: disable=protected-access
        ctx = _LOCAL.default = _BuildContext()
    return ctx


def next_op_seed() -> int:
    """A build-time op seed for nodes and transforms (reproducible after ``ds.config.set_seed``).

    Returns:
        An int in ``[0, 2**31)``.
    """
    return _context().next_seed()


# ------------------------------------------------------------------------------------- operation nodes
class _OperationNodes:
    """The operation node classes (``MapDataset``, ``BatchDataset``, ...) and ``split_dataset``.

    They subclass :class:`Dataset` in ``_ops.py`` and :class:`Dataset`'s methods create them, so
    ``_ops`` registers them here (:func:`register_operations`) when the engine package is
    imported, instead of this module importing ``_ops`` back: the import graph stays one-way.
    """

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"The dataset operation '{name}' is not registered: import tfspore.dataset.engine "
                           f"(which registers the operations of tfspore.dataset.engine._ops) before using it.")


_NODES = _OperationNodes()


def register_operations(**nodes: Callable[..., Any]) -> None:
    """Register the operation node classes that :class:`Dataset`'s methods create.

    Args:
        **nodes: ``name=class`` (or function, for ``split_dataset``), e.g. ``MapDataset=MapDataset``.
    """
    for name, node in nodes.items():
        setattr(_NODES, name, node)


def _as_tuple(value: Any) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,)


# ------------------------------------------------------------------------------------- base class
class Dataset:
    """Base class of every dataset node.

    Args:
        children: The input datasets.
        num_parallel_workers: A parallelism hint (tf.data autotunes).
    """

    _op_name = "Dataset"

    def __init__(self, children: Union["Dataset", Sequence["Dataset"], None] = None,
                 num_parallel_workers: Optional[int] = None):
        if children is None:
            children = []
        elif isinstance(children, Dataset):
            children = [children]
        self.children: List[Dataset] = list(children)
        self.parent: List[weakref.ref] = []
        for child in self.children:
            child.parent.append(weakref.ref(self))
        self.num_parallel_workers = None
        if num_parallel_workers is not None:
            self.num_parallel_workers = v.check_int_range(num_parallel_workers, "num_parallel_workers", self._api(), 1,
                                                          v.INT32_MAX)
        self.dataset_size: Optional[int] = None
        self._first_row_cache: Optional[tuple] = None

    # ---- subclass interface ------------------------------------------------------------
    @property
    def column_names(self) -> List[str]:
        """The column names, in order."""
        names = getattr(self, "_column_names", None)
        if names is None:
            raise NotImplementedError(f"{type(self).__name__} must define column_names.")
        return list(names)

    @column_names.setter
    def column_names(self, value: Sequence[str]) -> None:
        self._column_names = list(value)

    def _build(self) -> tf.data.Dataset:
        """A fresh tf.data pipeline: one pass, elements are tuples in column order."""
        raise NotImplementedError(f"{type(self).__name__} must implement _build.")

    def _static_size(self) -> Optional[int]:
        """Rows (or batches) per pass if known without reading the data, else None."""
        return None

    def _build_rows(self) -> Tuple[tf.data.Dataset, Optional[Callable]]:
        """The pipeline and a pending per-row function, not applied yet (None: rows are final).

        Per-row TF stages (a random-access source's ``_row``, TF-only maps, project, rename)
        return their work as a function here so that consecutive stages fuse into one parallel
        ``tf.data`` map instead of one map each.
        """
        return self._build(), None

    def _build_fused(self) -> tf.data.Dataset:
        """Apply the pending per-row function of :meth:`_build_rows` as one parallel map."""
        data, fn = self._build_rows()
        if fn is None:
            return data
        return data.map(fn, num_parallel_calls=AUTOTUNE, deterministic=True)

    def _api(self, method: Optional[str] = None) -> str:
        name = type(self).__name__
        return f"{name}.{method}" if method else name

    # ---- model-facing ------------------------------------------------------------------
    def to_tf_dataset(self, *, shard: Optional[Tuple[int, int]] = None) -> tf.data.Dataset:
        """Build the pipeline as a ``tf.data.Dataset`` of tuples in column order.

        Args:
            shard: ``(num_shards, shard_id)`` to read one worker's part of the data, sharded at
                the random-access sources with MindSpore's wrap-padding. Default: None.

        Returns:
            The ``tf.data.Dataset``, with ``prefetch(AUTOTUNE)`` at the end.

        Raises:
            ValueError: If a node of the pipeline has two consumers, or `shard` is invalid.

        Example:
            >>> import tfspore.dataset as ds
            >>> d = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(2, drop_remainder=True)
            >>> d.to_tf_dataset().element_spec[0].shape
            TensorShape([2])
        """
        if shard is not None:
            if not (isinstance(shard, (tuple, list)) and len(shard) == 2):
                raise ValueError(f"For '{self._api('to_tf_dataset')}', 'shard' must be (num_shards, shard_id), "
                                 f"but got {shard!r}.")
            check_shard_options(self._api("to_tf_dataset"), None, None, None, shard[0], shard[1])
            shard = (int(shard[0]), int(shard[1]))
        self._check_tree()
        with _building(_BuildContext(shard=shard)):
            data = self._build()
        options = tf.data.Options()
        options.experimental_optimization.map_fusion = True
        return data.prefetch(AUTOTUNE).with_options(options)

    def _check_tree(self) -> None:
        seen = set()
        stack = [self]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            live = {id(ref()) for ref in node.parent if ref() is not None}
            if len(live) > 1:
                raise ValueError(f"{_NOT_A_TREE}: {type(node).__name__} with columns {node.column_names} feeds "
                                 f"{len(live)} datasets. Create a fresh source for each pipeline.")
            stack.extend(node.children)

    def _build_for(self, *, probe: bool = False, count: bool = False) -> tf.data.Dataset:
        with _building(_BuildContext(probe=probe, count=count)):
            return self._build()

    def _first_row(self) -> Optional[tuple]:
        """The first row (eager tensors), or None if the pipeline is empty; cached."""
        if self._first_row_cache is None:
            from tfspore.dataset.engine.iterators import pipeline_error  # pylint: disable=import-outside-toplevel
            try:
                rows = list(self._build_for(probe=True).take(1))
            except tf.errors.OpError as exc:
                err = pipeline_error(exc, self)
                raise err from err.__cause__
            self._first_row_cache = (tuple(rows[0]),) if rows else ()
        return self._first_row_cache[0] if self._first_row_cache else None

    # ---- information -------------------------------------------------------------------
    def get_col_names(self) -> List[str]:
        """Return the column names.

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset({"a": [1], "b": [2]}).get_col_names()
            ['a', 'b']
        """
        return self.column_names

    def get_dataset_size(self, *, shard: Optional[Tuple[int, int]] = None) -> int:
        """Return the number of rows (or batches after ``batch``) of one pass.

        An infinite ``repeat`` counts as one pass, as in MindSpore. Sizes that depend on the
        data (``filter``, generators without ``__len__``) are found by running the pipeline once.

        Args:
            shard: ``(num_shards, shard_id)``: the size of ``to_tf_dataset(shard=shard)``
                instead (an extension; MindSpore's signature has no arguments).

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset(list(range(10))).batch(4).get_dataset_size()
            3
            >>> ds.NumpySlicesDataset(list(range(10))).batch(2).get_dataset_size(shard=(3, 0))
            2
        """
        if shard is not None:
            check_shard_options(self._api("get_dataset_size"), None, None, None, shard[0], shard[1])
            with _building(_BuildContext(shard=(int(shard[0]), int(shard[1])))):
                size = self._static_size()
            if size is None:
                size = self._count_rows(shard=(int(shard[0]), int(shard[1])))
            return int(size)
        if self.dataset_size is None:
            size = self._static_size()
            if size is None:
                size = self._count_rows()
            self.dataset_size = int(size)
            if self.dataset_size == 0:
                import logging  # pylint: disable=import-outside-toplevel
                logging.getLogger("tfspore.dataset").warning("%s: the dataset size is 0.", self._api())
        return self.dataset_size

    def __len__(self) -> int:
        return self.get_dataset_size()

    def _count_rows(self, shard: Optional[Tuple[int, int]] = None) -> int:
        from tfspore.dataset.engine.iterators import pipeline_error  # pylint: disable=import-outside-toplevel
        with _building(_BuildContext(count=True, shard=shard)):
            data = self._build()
        try:
            return int(data.reduce(tf.constant(0, tf.int64), lambda acc, *_: acc + 1))
        except tf.errors.OpError as exc:
            err = pipeline_error(exc, self)
            raise err from err.__cause__

    def get_batch_size(self) -> int:
        """Return the batch size (1 before ``batch``)."""
        for child in self.children:
            return child.get_batch_size()
        return 1

    def get_repeat_count(self) -> int:
        """Return the count of the last ``repeat`` (1 without one; -1 for infinite)."""
        for child in self.children:
            return child.get_repeat_count()
        return 1

    def output_shapes(self, estimate: bool = False) -> List[List[int]]:
        """Return the shape of every column of the first row (or batch), as lists.

        Args:
            estimate: Accepted for compatibility.

        Example:
            >>> import numpy as np
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset(np.zeros((10, 2), np.float32)).batch(4).output_shapes()
            [[4, 2]]
        """
        del estimate
        row = self._first_row()
        if row is None:
            return [[] if spec.shape.rank is None else [-1 if d is None else int(d) for d in spec.shape]
                    for spec in self._build_for(probe=True).element_spec]
        return [list(t.shape) for t in row]

    def output_types(self) -> List[np.dtype]:
        """Return the numpy dtype of every column.

        Example:
            >>> import numpy as np
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset(np.zeros((3,), np.float32)).output_types()
            [dtype('float32')]
        """
        specs = self._build_for(probe=True).element_spec
        return [np.dtype(np.str_) if s.dtype == tf.string else np.dtype(s.dtype.as_numpy_dtype) for s in specs]

    def num_classes(self) -> Optional[int]:
        """The number of classes, for sources that know it, else None."""
        for child in self.children:
            return child.num_classes()
        return None

    def get_class_indexing(self) -> Dict[str, int]:
        """The class-name to label mapping, for sources that have one."""
        for child in self.children:
            return child.get_class_indexing()
        raise TypeError(f"For '{self._api('get_class_indexing')}', this dataset has no class indexing.")

    def is_shuffled(self) -> bool:
        """Whether the pipeline shuffles somewhere."""
        return any(child.is_shuffled() for child in self.children)

    def is_sharded(self) -> bool:
        """Whether a source of the pipeline is sharded."""
        return any(child.is_sharded() for child in self.children)

    def reset(self) -> None:
        """Kept for compatibility (MindSpore's ``Dataset.reset`` does nothing either)."""

    def get_init_step(self) -> int:
        """The step the pipeline starts from (0)."""
        return 0

    def set_init_step(self, init_step: int) -> None:
        """Accepted for compatibility."""
        del init_step

    # ---- iterators ---------------------------------------------------------------------
    def create_tuple_iterator(self, columns: Optional[Union[str, List[str]]] = None, num_epochs: int = -1,
                              output_numpy: bool = False, do_copy: bool = False) -> "Iterator":
        """Return an iterator whose rows are lists of Tensors (or numpy arrays).

        Args:
            columns: Columns to deliver, in this order. Default: all.
            num_epochs: Passes the iterator delivers; -1 for unlimited. Iterating the iterator
                again continues with the next pass.
            output_numpy: Deliver numpy arrays instead of Tensors.
            do_copy: Accepted for compatibility.

        Example:
            >>> import tfspore.dataset as ds
            >>> d = ds.NumpySlicesDataset([1, 2], shuffle=False)
            >>> [row[0].asnumpy().item() for row in d.create_tuple_iterator()]
            [1, 2]
        """
        from tfspore.dataset.engine.iterators import TupleIterator  # pylint: disable=import-outside-toplevel
        return TupleIterator(self, columns=columns, num_epochs=num_epochs, output_numpy=output_numpy,
                             do_copy=do_copy)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = False) -> "Iterator":
        """Return an iterator whose rows are dicts ``{column: Tensor or ndarray}``.

        Example:
            >>> import tfspore.dataset as ds
            >>> d = ds.NumpySlicesDataset({"x": [1, 2]}, shuffle=False)
            >>> [row["x"].asnumpy().item() for row in d.create_dict_iterator()]
            [1, 2]
        """
        from tfspore.dataset.engine.iterators import DictIterator  # pylint: disable=import-outside-toplevel
        return DictIterator(self, num_epochs=num_epochs, output_numpy=output_numpy, do_copy=do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def save(self, file_name: str, num_files: int = 1, file_type: str = "mindrecord") -> None:
        """Write the rows (one pass) into MindRecord files readable by ``MindDataset``
        (see :mod:`tfspore.dataset.engine.datasets_save`)."""
        from tfspore.dataset.engine.datasets_save import save_to_mindrecord  # pylint: disable=C0415
        save_to_mindrecord(self, file_name, num_files, file_type)

    # ---- operations (the node classes live in _ops.py, registered in _NODES) ---------
    def map(self, operations: Any, input_columns: Optional[Union[str, List[str]]] = None,
            output_columns: Optional[Union[str, List[str]]] = None, num_parallel_workers: Optional[int] = None,
            **kwargs: Any) -> "Dataset":
        """Apply operations (transforms or Python callables, chained in order) to columns.

        Args:
            operations: One operation or a list of them.
            input_columns: Input columns; default the first column.
            output_columns: Names of the outputs of the last operation; default the input names.
                The outputs replace the input columns in place.
            num_parallel_workers: A parallelism hint; the map runs as a parallel tf.data map.
            **kwargs: ``python_multiprocessing``, ``max_rowsize``, ``cache``, ``callbacks`` and
                ``offload`` are accepted for compatibility.

        Returns:
            The mapped dataset.

        Example:
            >>> import tfspore.dataset as ds
            >>> d = ds.NumpySlicesDataset({"x": [1, 2]}, shuffle=False).map(lambda x: x * 10, "x")
            >>> [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
            [10, 20]
        """
        return _NODES.MapDataset(self, operations, input_columns, output_columns, num_parallel_workers, **kwargs)

    def batch(self, batch_size: Union[int, Callable], drop_remainder: bool = False,
              num_parallel_workers: Optional[int] = None, **kwargs: Any) -> "Dataset":
        """Stack `batch_size` consecutive rows into batches.

        Args:
            batch_size: Rows per batch, in ``[1, 2147483647]``, or a callable of BatchInfo.
            drop_remainder: Drop a last, partial batch (gives a static batch dimension).
            num_parallel_workers: A parallelism hint.
            **kwargs: ``per_batch_map``, ``input_columns``, ``output_columns``, ``pad_info``,
                ``python_multiprocessing``, ``max_rowsize``.

        Returns:
            The batched dataset.

        Raises:
            ValueError: If `batch_size` is out of range.

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset(list(range(10))).batch(4).get_dataset_size()
            3
        """
        return _NODES.BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(self, batch_size: Union[int, Callable], drop_remainder: bool = False,
                     num_parallel_workers: Optional[int] = None, pad_info: Optional[dict] = None) -> "Dataset":
        """Batch rows, padding them per ``pad_info`` ``{column: (shape or None, value)}``.

        Columns not in ``pad_info`` are padded with 0 to the longest row of the batch.

        Example:
            >>> import tfspore.dataset as ds
            >>> d = ds.GeneratorDataset(lambda: iter([([1],), ([1, 2],)]), ["c"]).padded_batch(2, pad_info={})
        """
        return _NODES.BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                                 pad_info={} if pad_info is None else pad_info, _api_name="padded_batch")

    def shuffle(self, buffer_size: int) -> "Dataset":
        """Shuffle rows through a buffer of `buffer_size` rows (a new order every epoch).

        Example:
            >>> import tfspore.dataset as ds
            >>> d = ds.NumpySlicesDataset(list(range(10)), shuffle=False).shuffle(4)
        """
        return _NODES.ShuffleDataset(self, buffer_size)

    def repeat(self, count: Optional[int] = None) -> "Dataset":
        """Repeat the pipeline `count` times (None or -1: forever).

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset([1, 2, 3]).repeat(2).get_dataset_size()
            6
        """
        return _NODES.RepeatDataset(self, count)

    def take(self, count: int = -1) -> "Dataset":
        """The first `count` rows (-1: all).

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset(list(range(10))).take(3).get_dataset_size()
            3
        """
        return _NODES.TakeDataset(self, count)

    def skip(self, count: int) -> "Dataset":
        """All but the first `count` rows.

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset(list(range(10))).skip(8).get_dataset_size()
            2
        """
        return _NODES.SkipDataset(self, count)

    def project(self, columns: Union[str, List[str]]) -> "Dataset":
        """Keep (and reorder) the given columns.

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset({"a": [1], "b": [2]}).project(["b"]).get_col_names()
            ['b']
        """
        return _NODES.ProjectDataset(self, columns)

    def rename(self, input_columns: Union[str, List[str]], output_columns: Union[str, List[str]]) -> "Dataset":
        """Rename columns.

        Example:
            >>> import tfspore.dataset as ds
            >>> ds.NumpySlicesDataset({"x": [1], "y": [2]}).rename("x", "xx").get_col_names()
            ['xx', 'y']
        """
        return _NODES.RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets: Union["Dataset", Sequence["Dataset"]]) -> "Dataset":
        """Put the columns of this dataset and `datasets` side by side (as long as the shortest).

        Example:
            >>> import tfspore.dataset as ds
            >>> a = ds.NumpySlicesDataset({"a": [1, 2]})
            >>> a.zip(ds.NumpySlicesDataset({"b": [3]})).get_dataset_size()
            1
        """
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        elif isinstance(datasets, (tuple, list)):
            datasets = list(datasets)
        else:
            raise TypeError(f"For '{self._api('zip')}', the argument 'datasets' must be a Dataset or a tuple of "
                            f"Datasets, but got {datasets!r}.")
        return _NODES.ZipDataset([self] + datasets)

    def concat(self, datasets: Union["Dataset", Sequence["Dataset"]]) -> "Dataset":
        """Rows of this dataset followed by the rows of `datasets` (same columns required).

        Example:
            >>> import tfspore.dataset as ds
            >>> (ds.NumpySlicesDataset([1]) + ds.NumpySlicesDataset([2, 3])).get_dataset_size()
            3
        """
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        elif isinstance(datasets, (tuple, list)):
            datasets = list(datasets)
        else:
            raise TypeError(f"For '{self._api('concat')}', the argument 'datasets' must be a Dataset or a list of "
                            f"Datasets, but got {datasets!r}.")
        return _NODES.ConcatDataset([self] + datasets)

    def __add__(self, datasets: Union["Dataset", Sequence["Dataset"]]) -> "Dataset":
        return self.concat(datasets)

    def filter(self, predicate: Callable, input_columns: Optional[Union[str, List[str]]] = None,
               num_parallel_workers: Optional[int] = None) -> "Dataset":
        """Keep the rows for which ``predicate(*columns)`` is true.

        Example:
            >>> import tfspore.dataset as ds
            >>> d = ds.NumpySlicesDataset({"x": list(range(6))}).filter(lambda x: x % 2 == 0, ["x"])
            >>> d.get_dataset_size()
            3
        """
        return _NODES.FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def split(self, sizes: Sequence[Union[int, float]], randomize: bool = True) -> List["Dataset"]:
        """Split into datasets of the given absolute sizes or fractions.

        Args:
            sizes: Ints summing to the size, or floats in (0, 1] summing to 1.
            randomize: Assign rows randomly (seeded by ``ds.config``). Default: True.

        Returns:
            A list of datasets.

        Example:
            >>> import tfspore.dataset as ds
            >>> a, b = ds.NumpySlicesDataset(list(range(10))).split([0.8, 0.2])
            >>> a.get_dataset_size(), b.get_dataset_size()
            (8, 2)
        """
        return _NODES.split_dataset(self, sizes, randomize)

    def apply(self, apply_func: Callable[["Dataset"], "Dataset"]) -> "Dataset":
        """Return ``apply_func(self)``, which must be a Dataset."""
        result = apply_func(self)
        if not isinstance(result, Dataset):
            raise TypeError(f"For '{self._api('apply')}', apply_func must return a Dataset, but got {result!r}.")
        return result

    def flat_map(self, func: Callable[[Any], "Dataset"]) -> "Dataset":
        """Map each row (as numpy) to a Dataset and chain the results (runs in Python)."""
        return _NODES.FlatMapDataset(self, func)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} columns={self.column_names}>"


# ------------------------------------------------------------------------------------- sources
class SourceDataset(Dataset):
    """Base class of sources that read sequentially (generators, record files, tf.data).

    Subclasses implement ``column_names``, ``_build_source()`` (a tf.data pipeline of tuples)
    and, if known without reading, ``_source_size()``. Sharding requested through
    ``to_tf_dataset(shard=...)`` is applied here with ``tf.data.Dataset.shard`` (wrap-padded to
    equal lengths when the size is known), unless the source shards itself (``num_shards``).
    """

    def __init__(self, num_parallel_workers: Optional[int] = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None):
        super().__init__(num_parallel_workers=num_parallel_workers)
        self.num_shards = num_shards
        self.shard_id = shard_id

    def _build_source(self) -> tf.data.Dataset:
        raise NotImplementedError(f"{type(self).__name__} must implement _build_source.")

    def _source_size(self) -> Optional[int]:
        return None

    def _static_size(self) -> Optional[int]:
        size = self._source_size()
        shard = _context().shard
        if size is None or shard is None or self.num_shards is not None:
            return size
        return math.ceil(size / shard[0])

    def is_sharded(self) -> bool:
        return bool(self.num_shards and self.num_shards > 1)

    def _build(self) -> tf.data.Dataset:
        data = self._build_source()
        shard = _context().shard
        if shard is None or self.num_shards is not None:
            return data
        num_shards, shard_id = shard
        size = self._source_size()
        if size:
            per_shard = math.ceil(size / num_shards)
            data = data.repeat(2).take(per_shard * num_shards)  # wrap-padding to equal lengths
        return data.shard(num_shards, shard_id)


class MappableSource(Dataset):
    """Base class of random-access sources.

    Subclasses set ``column_names`` and implement two methods:

    * ``_num_rows(self) -> int``: the number of rows of the whole source;
    * ``_row(self, index: tf.Tensor) -> tuple[tf.Tensor, ...]``: the row at ``index`` (an int64
      scalar tensor) as traceable TF ops (a gather from in-memory tensors, ``tf.io.read_file`` on a
      path table, ...). It runs inside a parallel, order-preserving ``tf.data`` map.

    The base class implements MindSpore's sampling arguments: ``num_samples``, ``shuffle``
    (None means shuffle), ``sampler`` (a Sampler, a list of indices or an iterable),
    ``num_shards`` / ``shard_id`` (wrap-padded shards, one seeded permutation shared by all shards,
    a new one each epoch), and ``to_tf_dataset(shard=...)``.

    Args:
        num_samples: Rows to read per epoch; None reads all.
        num_parallel_workers: A parallelism hint.
        shuffle: Shuffle the rows (None: yes). Exclusive with `sampler`.
        sampler: A sampler, or a list of indices.
        num_shards: Number of shards; requires `shard_id`.
        shard_id: This shard, in ``[0, num_shards)``.
        cache: Accepted for compatibility.

    Raises:
        ValueError: If `num_shards` and `shard_id` are not given together or `shard_id` is out of range.
        RuntimeError: If `sampler` is combined with `shuffle`, sharding or `num_samples`.

    Example:
        >>> import tensorflow as tf
        >>> from tfspore.dataset.engine.datasets import MappableSource
        >>> class Squares(MappableSource):
        ...     column_names = ["x"]
        ...     def _num_rows(self):
        ...         return 5
        ...     def _row(self, index):
        ...         return (index * index,)
        >>> [int(r[0]) for r in Squares(shuffle=False).create_tuple_iterator(output_numpy=True)]
        [0, 1, 4, 9, 16]
    """

    def __init__(self, num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Optional[Union[bool, _samplers.Shuffle]] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None):
        super().__init__(num_parallel_workers=num_parallel_workers)
        del cache
        check_shard_options(self._api(), num_samples, shuffle, sampler, num_shards, shard_id)
        self.num_samples = num_samples
        self.shuffle_flag = shuffle
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.sampler = _samplers.select_sampler(num_samples, sampler, shuffle, num_shards, shard_id)

    def _num_rows(self) -> int:
        raise NotImplementedError(f"{type(self).__name__} must implement _num_rows.")

    def _row(self, index: tf.Tensor) -> Tuple[tf.Tensor, ...]:
        raise NotImplementedError(f"{type(self).__name__} must implement _row.")

    def _random_access(self) -> bool:
        """Whether rows are read through the sampler (False for sources that only stream)."""
        return True

    # ---- MindSpore's MappableDataset API --------------------------------------------
    def use_sampler(self, new_sampler: _samplers.BuiltinSampler) -> None:
        """Replace the sampler."""
        if new_sampler is None:
            raise TypeError(f"For '{self._api('use_sampler')}', the input sampler can not be None.")
        self.sampler = _samplers.select_sampler(None, new_sampler, None, None, None)
        self.dataset_size = None

    def add_sampler(self, new_sampler: _samplers.BuiltinSampler) -> None:
        """Chain `new_sampler` on top of the current sampler."""
        new_sampler.add_child(self.sampler)
        self.sampler = new_sampler
        self.dataset_size = None

    def is_shuffled(self) -> bool:
        return self.sampler.is_shuffled()

    def is_sharded(self) -> bool:
        return self.sampler.is_sharded()

    # ---- engine ------------------------------------------------------------------------
    def _effective_sampler(self) -> _samplers.BuiltinSampler:
        shard = _context().shard
        sampler = self.sampler
        if shard is not None and not sampler.is_sharded():
            outer = _samplers.DistributedSampler(shard[0], shard[1], shuffle=False)
            outer.add_child(sampler)
            return outer
        return sampler

    def _static_size(self) -> Optional[int]:
        return self._effective_sampler()._count(self._num_rows())

    def _index_dataset(self) -> tf.data.Dataset:
        """One epoch of row indices (int64 scalars)."""
        ctx = _context()
        n = int(self._num_rows())
        sampler = self._effective_sampler()
        if type(sampler) is _samplers.SequentialSampler and sampler.child_sampler is None:  # pylint: disable=C0123
            start = sampler.start_index or 0
            return tf.data.Dataset.range(start, start + sampler._count(n))
        if not (sampler._is_random() or sampler._is_dynamic()):
            return tf.data.Dataset.from_tensor_slices(sampler._indices(n, tf.zeros([2], tf.int64)))
        seed = ctx.next_seed(deterministic=sampler.is_sharded())
        if sampler._is_random():
            epoch_seeds = tf.data.Dataset.random(seed=seed, rerandomize_each_iteration=True).take(1)
        else:
            epoch_seeds = tf.data.Dataset.from_tensors(tf.constant(0, tf.int64))
        const = tf.constant(seed, tf.int64)

        def epoch_indices(r):
            return tf.data.Dataset.from_tensor_slices(sampler._indices(n, tf.stack([r, const])))

        indices = epoch_seeds.flat_map(epoch_indices)
        if sampler._is_random() and not sampler._is_dynamic():
            # flat_map hides the count from TensorFlow; stating it keeps the pipeline's cardinality
            # known downstream (Model then runs its epochs on one iterator, see train/_engine.py)
            indices = indices.apply(tf.data.experimental.assert_cardinality(sampler._count(n)))
        return indices

    def _build_rows(self) -> Tuple[tf.data.Dataset, Optional[Callable]]:
        row = self._row
        return self._index_dataset(), lambda i: _as_tuple(row(i))

    def _build_batched(self, batch_size: int, drop_remainder: bool) -> Optional[tf.data.Dataset]:
        """Batches of rows read as one gather per batch, or None if this source reads row by row.

        Sources whose ``_row`` also accepts a 1-D vector of indices and returns the rows stacked
        along a new first axis (a ``tf.gather`` from in-memory tensors) set
        ``_gathers_batches = True``. The index stream is the one of the per-row path, batched, so
        the batches equal ``rows.batch(batch_size, drop_remainder)`` element for element.
        """
        if not getattr(self, "_gathers_batches", False):
            return None
        row = self._row
        indices = self._index_dataset().batch(batch_size, drop_remainder=drop_remainder)
        return indices.map(lambda idx: _as_tuple(row(idx)))

    def _build(self) -> tf.data.Dataset:
        return self._build_fused()


MappableDataset = MappableSource


class BatchInfo:
    """What ``per_batch_map`` and callable batch sizes learn about the current batch."""

    def __init__(self, batch_num: int, epoch_num: int):
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self) -> int:
        """The index of the batch in the current epoch, from 0."""
        return self._batch_num

    def get_epoch_num(self) -> int:
        """The index of the current epoch, from 0."""
        return self._epoch_num


def zip(datasets: Sequence[Dataset]) -> Dataset:  # pylint: disable=redefined-builtin
    """Zip datasets: their columns side by side, as long as the shortest.

    Args:
        datasets: A tuple (or list) of datasets.

    Returns:
        The zipped dataset.

    Raises:
        TypeError: If `datasets` is not a tuple or list of Datasets.

    Example:
        >>> import tfspore.dataset as ds
        >>> d = ds.zip((ds.NumpySlicesDataset({"a": [1, 2]}), ds.NumpySlicesDataset({"b": [3, 4]})))
        >>> d.get_col_names()
        ['a', 'b']
    """
    if isinstance(datasets, Dataset) or not isinstance(datasets, (tuple, list)) or not datasets:
        raise TypeError(f"For 'zip', the argument 'datasets' must be a non-empty tuple of Datasets, "
                        f"but got {datasets!r}.")
    for i, item in enumerate(datasets):
        if not isinstance(item, Dataset):
            raise TypeError(f"For 'zip', datasets[{i}] must be a Dataset, but got {item!r}.")
    if len(datasets) == 1:
        return datasets[0]
    return _NODES.ZipDataset(list(datasets))


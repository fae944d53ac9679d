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

import weakref
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.core import config
from tfspore.dataset.engine.samplers import check_shard_options
from tfspore.dataset.engine._build_context import _building, _BuildContext, next_op_seed
from tfspore.dataset.engine._dataset_info import DatasetInfo

__all__ = ["Dataset", "zip", "next_op_seed", "BatchInfo"]

AUTOTUNE = tf.data.AUTOTUNE
_NOT_A_TREE = "The data pipeline is not a tree (i.e., one node has 2 consumers)"


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
class Dataset(DatasetInfo):
    """Base class of every dataset node.

    Args:
        children: The input datasets.
        num_parallel_workers: A parallelism hint (tf.data autotunes).
    """

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

    def _runs_python(self) -> bool:
        """Whether the pipeline calls the user's Python code while it runs (a generator source, a
        Python ``map``, a ``filter`` predicate, ``per_batch_map``): iterators do not run such a
        pipeline ahead into the next pass (``iterators.py``). Nodes that call it say so."""
        return any(child._runs_python() for child in self.children)

    def _delivers_new_buffers(self) -> bool:
        """Whether every array the last build of this pipeline delivers is a buffer made for that
        delivery (a batch) that nothing else holds: then ``output_numpy`` iterators hand it out
        without a copy, as MindSpore's do (a 1.5 MB batch: 15 us instead of 380). Rows of an
        in-memory source, say, are views of the source's arrays and are copied. Nodes that know
        say so; nodes that deliver their child's elements unchanged (``_passes_elements``: repeat,
        take, skip, shuffle, project, rename) ask their child."""
        return self._passes_elements and self.children[0]._delivers_new_buffers()

    _passes_elements = False  # see _delivers_new_buffers

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
        # MindSpore's engine runs the workers the user asked for unless ``ds.config.set_enable_autotune``
        # is on (off by default); tf.data's autotuning is the same idea. Off, every AUTOTUNE
        # parallelism is the core count and the model thread that times each element does not run
        # (imagefolder pipeline of bench/dataset_runner.py: about 6% more samples/s on 2 cores).
        options.autotune.enabled = config.get_enable_autotune()
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
        return _NODES.ZipDataset([self] + self._dataset_list(datasets, "zip", "tuple"))

    def concat(self, datasets: Union["Dataset", Sequence["Dataset"]]) -> "Dataset":
        """Rows of this dataset followed by the rows of `datasets` (same columns required).

        Example:
            >>> import tfspore.dataset as ds
            >>> (ds.NumpySlicesDataset([1]) + ds.NumpySlicesDataset([2, 3])).get_dataset_size()
            3
        """
        return _NODES.ConcatDataset([self] + self._dataset_list(datasets, "concat", "list"))

    def _dataset_list(self, datasets: Any, method: str, sequence: str) -> List["Dataset"]:
        """The Datasets `datasets` (one, or a tuple or list of them) given to `method`; ``sequence``
        names the sequence in the TypeError (MindSpore says "tuple" for zip and "list" for concat)."""
        if isinstance(datasets, Dataset):
            return [datasets]
        if isinstance(datasets, (tuple, list)):
            return list(datasets)
        raise TypeError(f"For '{self._api(method)}', the argument 'datasets' must be a Dataset or a {sequence} of "
                        f"Datasets, but got {datasets!r}.")

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


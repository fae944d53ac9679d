"""Source nodes: :class:`SourceDataset` (sequential sources) and :class:`MappableSource`
(random-access sources with MindSpore's ``num_samples``, ``shuffle``, ``sampler``, ``num_shards``
and ``shard_id``).

See :mod:`tfspore.dataset.engine.datasets` ("Writing a source") for the contract.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional, Tuple, Union

import tensorflow as tf

from tfspore.dataset.engine.samplers import check_shard_options
from tfspore.dataset.engine import samplers as _samplers
from tfspore.dataset.engine._build_context import _context
from tfspore.dataset.engine.datasets import Dataset, _as_tuple

__all__ = ["SourceDataset", "MappableSource", "MappableDataset"]


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
        >>> from tfspore.dataset.engine import MappableSource
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

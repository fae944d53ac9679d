"""Samplers: which row indices a random-access source reads, in which order.

MindSpore semantics:

* ``SequentialSampler(start_index, num_samples)``: ``start, start+1, ...``.
* ``RandomSampler(replacement, num_samples)``: a fresh permutation every epoch (or draws with
  replacement).
* ``DistributedSampler(num_shards, shard_id, shuffle)``: shard ``k`` reads positions
  ``k, k+S, k+2S, ...`` of one (seeded, per-epoch) permutation shared by every shard, wrapped
  around to ``ceil(N/S)`` samples, so 10 rows in 3 shards give ``[0,3,6,9]``, ``[1,4,7,0]``,
  ``[2,5,8,1]``.
* ``SubsetSampler(indices)`` / ``SubsetRandomSampler(indices)``: the listed indices, in order or
  shuffled every epoch.
* ``WeightedRandomSampler(weights, num_samples, replacement)``.
* A user ``Sampler`` subclass (``__iter__`` yields indices) or any iterable of ints.

Samplers chain with ``add_child``: the parent samples positions of its child's output.

The engine computes the indices of one epoch with TensorFlow ops (``_indices``), seeded per
epoch from the pipeline seed, so sampling runs inside tf.data and every shard of a distributed
job computes the same permutation.

Example:
    >>> import tfspore.dataset as ds
    >>> data = ds.NumpySlicesDataset(list(range(10)), sampler=ds.DistributedSampler(3, 1, shuffle=False))
    >>> [int(row[0]) for row in data.create_tuple_iterator(output_numpy=True)]
    [1, 4, 7, 0]
"""
from __future__ import annotations

import copy
import enum
import math
import numbers
from typing import Any, Iterable, Optional, Sequence

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v

__all__ = ["Shuffle", "BuiltinSampler", "Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler",
           "SubsetSampler", "SubsetRandomSampler", "WeightedRandomSampler", "IterSampler", "PKSampler"]


class Shuffle(str, enum.Enum):
    """Shuffle modes (``mindspore.dataset.Shuffle``)."""

    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"
    FALSE = "false"


def check_num_samples(value: Any, api: str) -> Optional[int]:
    """None, or an int in ``[0, INT64_MAX]`` (a dataset's or a sampler's ``num_samples``)."""
    if value is None:
        return None
    return v.check_int_range(value, "num_samples", api, 0, v.INT64_MAX)


def check_shard_options(api: str, num_samples: Any, shuffle: Any, sampler: Any, num_shards: Any,
                        shard_id: Any) -> None:
    """MindSpore's rules for a source's num_samples / shuffle / sampler / num_shards / shard_id.

    Raises:
        TypeError / ValueError: for a bad value of one option.
        RuntimeError: for options that cannot be given together (MindSpore reports these at execution).
    """
    check_num_samples(num_samples, api)
    if (num_shards is None) != (shard_id is None):
        raise ValueError(f"For '{api}', num_shards and shard_id need to be passed in together, "
                         f"but got num_shards={num_shards!r} and shard_id={shard_id!r}.")
    if num_shards is not None:
        v.check_int_range(num_shards, "num_shards", api, 1, v.INT32_MAX)
        v.check_int_range(shard_id, "shard_id", api, 0, num_shards - 1)
    if shuffle is not None and not isinstance(shuffle, bool):
        v.check_type(shuffle, (bool, Shuffle), "shuffle", api)
    if sampler is not None:
        if shuffle is not None:
            raise RuntimeError(f"For '{api}', sampler and shuffle cannot be specified at the same time, "
                               f"but got shuffle={shuffle!r}.")
        if num_shards is not None:
            raise RuntimeError(f"For '{api}', sampler and sharding cannot be specified at the same time, "
                               f"but got num_shards={num_shards!r}.")
        if num_samples is not None:
            raise RuntimeError(f"For '{api}', sampler and num_samples cannot be specified at the same time, "
                               f"but got num_samples={num_samples!r}.")


def _permutation(n: int, seed: tf.Tensor) -> tf.Tensor:
    """A permutation of ``range(n)`` drawn from a stateless seed (shape [2], int64)."""
    if n == 0:
        return tf.zeros([0], tf.int64)
    keys = tf.random.stateless_uniform([n], seed=seed)
    return tf.cast(tf.argsort(keys, stable=True), tf.int64)


def _child_seed(seed: tf.Tensor) -> tf.Tensor:
    return seed + tf.constant([0, 7919], tf.int64)


class BuiltinSampler:
    """Base class of the samplers.

    Args:
        num_samples: How many indices to draw per epoch; None draws all.
    """

    #: Whether the sampler itself draws its indices at random (a new order every epoch).
    _random_order = False

    def __init__(self, num_samples: Optional[int] = None):
        self.child_sampler: Optional[BuiltinSampler] = None
        self.num_samples = check_num_samples(num_samples, type(self).__name__)

    # ---- MindSpore API -----------------------------------------------------------------
    def add_child(self, sampler: "BuiltinSampler") -> None:
        """Chain `sampler`: this sampler then samples positions of the child's output.

        Raises:
            RuntimeError: If a child was already added.
        """
        if self.child_sampler is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        if sampler is not None and not isinstance(sampler, BuiltinSampler):
            raise TypeError(f"For '{type(self).__name__}.add_child', the 'sampler' must be a Sampler, "
                            f"but got {sampler!r}.")
        self.child_sampler = sampler

    def get_child(self) -> Optional["BuiltinSampler"]:
        """Return the child sampler, or None."""
        return self.child_sampler

    def get_num_samples(self) -> Optional[int]:
        """Return num_samples, combined with the child's as MindSpore does (the minimum)."""
        if self.child_sampler is not None:
            child = self.child_sampler.get_num_samples()
            if self.num_samples is not None:
                return self.num_samples if child is None else min(self.num_samples, child)
            return child
        return self.num_samples

    def is_shuffled(self) -> bool:
        """Whether the sampler (or its child) shuffles."""
        if self._random_order:
            return True
        return self.child_sampler.is_shuffled() if self.child_sampler is not None else False

    def is_sharded(self) -> bool:
        """Whether the sampler (or its child) shards."""
        return self.child_sampler.is_sharded() if self.child_sampler is not None else False

    def get_shuffle_mode(self) -> Shuffle:
        """The shuffle mode."""
        return Shuffle.FALSE

    # ---- engine hooks ------------------------------------------------------------------
    def _own_count(self, n: int) -> int:
        raise NotImplementedError

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        raise NotImplementedError

    def _own_random(self) -> bool:
        return self._random_order

    def _own_dynamic(self) -> bool:
        return False

    def _count(self, n: int) -> int:
        """Indices per epoch for a source of `n` rows."""
        if self.child_sampler is not None:
            n = self.child_sampler._count(n)
        return self._own_count(n)

    def _indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        """One epoch of row indices (int64, 1-D) for a source of `n` rows, from a [2] int64 seed."""
        if self.child_sampler is not None:
            child = self.child_sampler._indices(n, _child_seed(seed))
            positions = self._own_indices(self.child_sampler._count(n), seed)
            return tf.gather(child, positions)
        return tf.cast(self._own_indices(n, seed), tf.int64)

    def _is_random(self) -> bool:
        """Whether epochs need fresh seeds."""
        return self._own_random() or (self.child_sampler is not None and self.child_sampler._is_random())

    def _is_dynamic(self) -> bool:
        """Whether the indices come from Python (recomputed every epoch)."""
        return self._own_dynamic() or (self.child_sampler is not None and self.child_sampler._is_dynamic())

    def _limit(self, count: int) -> int:
        return count if self.num_samples in (None, 0) else min(count, self.num_samples)


class SequentialSampler(BuiltinSampler):
    """Reads the rows in order.

    Args:
        start_index: The first index. Default: 0.
        num_samples: How many rows to read; None reads to the end.

    Example:
        >>> import tfspore.dataset as ds
        >>> sampler = ds.SequentialSampler(start_index=2, num_samples=3)
    """

    def __init__(self, start_index: Optional[int] = None, num_samples: Optional[int] = None):
        if start_index is not None:
            v.check_int_range(start_index, "start_index", "SequentialSampler", 0, v.INT64_MAX)
        super().__init__(num_samples)
        self.start_index = start_index

    def _own_count(self, n: int) -> int:
        return self._limit(max(0, n - (self.start_index or 0)))

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        start = self.start_index or 0
        return tf.range(start, start + self._own_count(n), dtype=tf.int64)


class RandomSampler(BuiltinSampler):
    """Reads the rows in a random order, a new one every epoch.

    Args:
        replacement: Draw with replacement. Default: False.
        num_samples: How many rows per epoch; None reads every row once.
        shuffle: Only ``Shuffle.GLOBAL`` is supported.

    Example:
        >>> import tfspore.dataset as ds
        >>> sampler = ds.RandomSampler(num_samples=5)
    """

    _random_order = True

    def __init__(self, replacement: bool = False, num_samples: Optional[int] = None,
                 shuffle: Shuffle = Shuffle.GLOBAL):
        v.check_bool(replacement, "replacement", "RandomSampler")
        if shuffle is True:
            shuffle = Shuffle.GLOBAL
        if not isinstance(shuffle, Shuffle) or shuffle == Shuffle.FALSE:
            raise TypeError(f"For 'RandomSampler', shuffle must be valid shuffle mode, but got {shuffle!r}.")
        super().__init__(num_samples)
        self.replacement = replacement
        self.shuffle = shuffle
        self.reshuffle_each_epoch = True

    def get_shuffle_mode(self) -> Shuffle:
        return self.shuffle

    def _own_count(self, n: int) -> int:
        if self.replacement:
            return n if self.num_samples in (None, 0) else self.num_samples
        return self._limit(n)

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        count = self._own_count(n)
        if self.replacement:
            if n == 0:
                return tf.zeros([0], tf.int64)
            return tf.random.stateless_uniform([count], seed=seed, minval=0, maxval=n, dtype=tf.int64)
        return _permutation(n, seed)[:count]


class DistributedSampler(BuiltinSampler):
    """Reads one shard: positions ``shard_id, shard_id+S, ...`` of a shared order, wrap-padded.

    Args:
        num_shards: The number of shards S.
        shard_id: This shard, in ``[0, S)``.
        shuffle: Shuffle (one seeded permutation per epoch, the same on every shard). Default: True.
        num_samples: At most this many samples per shard.
        offset: Accepted for compatibility (used by MindSpore's ConcatDataset only).

    Example:
        >>> import tfspore.dataset as ds
        >>> sampler = ds.DistributedSampler(num_shards=2, shard_id=0, shuffle=False)
    """

    def __init__(self, num_shards: int, shard_id: int, shuffle: Any = True, num_samples: Optional[int] = None,
                 offset: int = -1):
        api = "DistributedSampler"
        if not v.is_int(num_shards):
            raise TypeError(f"For '{api}', num_shards must be integer but was: {num_shards!r}.")
        if not v.is_int(shard_id):
            raise TypeError(f"For '{api}', shard_id must be integer but was: {shard_id!r}.")
        if num_shards <= 0:
            raise RuntimeError(f"For '{api}', num_shards must be positive, but got {num_shards}.")
        if shard_id < 0 or shard_id >= num_shards:
            raise RuntimeError(f"For '{api}', shard_id must be in [0, {num_shards - 1}], but got {shard_id}.")
        if isinstance(shuffle, bool):
            shuffle = Shuffle.GLOBAL if shuffle else Shuffle.FALSE
        if not isinstance(shuffle, Shuffle):
            raise TypeError(f"For '{api}', shuffle must be a boolean value or valid shuffle mode but was: "
                            f"{shuffle!r}.")
        if not v.is_int(offset):
            raise TypeError(f"For '{api}', offset must be integer but was: {offset!r}.")
        super().__init__(num_samples)
        self.num_shards = int(num_shards)
        self.shard_id = int(shard_id)
        self.shuffle = shuffle
        self.offset = int(offset)

    def is_shuffled(self) -> bool:
        if self.child_sampler is not None:
            return self.child_sampler.is_shuffled()
        return self.shuffle != Shuffle.FALSE

    def is_sharded(self) -> bool:
        if self.child_sampler is not None:
            return self.child_sampler.is_sharded()
        return self.num_shards > 1

    def get_shuffle_mode(self) -> Shuffle:
        return self.shuffle

    def set_offset(self, offset: int) -> "DistributedSampler":
        """Set the offset (compatibility)."""
        self.offset = offset
        return self

    def _own_random(self) -> bool:
        return self.shuffle != Shuffle.FALSE

    def _own_count(self, n: int) -> int:
        return self._limit(math.ceil(n / self.num_shards)) if n else 0

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        count = self._own_count(n)
        if count == 0:
            return tf.zeros([0], tf.int64)
        positions = (tf.range(count, dtype=tf.int64) * self.num_shards + self.shard_id) % n
        if self.shuffle == Shuffle.FALSE:
            return positions
        return tf.gather(tf.cast(_permutation(n, seed), tf.int64), positions)


def _as_index_array(indices: Any, api: str) -> np.ndarray:
    if isinstance(indices, str) or not isinstance(indices, Iterable):
        raise TypeError(f"For '{api}', the argument 'indices' must be a sequence of int, but got {indices!r}.")
    values = list(indices)
    for i, item in enumerate(values):
        if not v.is_int(item):
            raise TypeError(f"For '{api}', indices[{i}] must be of type int, but got {item!r} "
                            f"with type {type(item).__name__}.")
    return np.asarray(values, dtype=np.int64).reshape(-1)


class SubsetSampler(BuiltinSampler):
    """Reads the given indices in the given order.

    Args:
        indices: The row indices.
        num_samples: At most this many of them.

    Example:
        >>> import tfspore.dataset as ds
        >>> sampler = ds.SubsetSampler([0, 3, 5])
    """

    def __init__(self, indices: Sequence[int], num_samples: Optional[int] = None):
        super().__init__(num_samples)
        self.indices = _as_index_array(indices, type(self).__name__)

    def _own_count(self, n: int) -> int:
        return self._limit(len(self.indices))

    def _checked(self, n: int) -> np.ndarray:
        bad = self.indices[(self.indices < 0) | (self.indices >= n)]
        if bad.size:
            raise RuntimeError(f"For '{type(self).__name__}', sample ids must be in [0, {n}) for a dataset of "
                               f"{n} rows, but got {int(bad[0])} in indices.")
        return self.indices

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        return tf.constant(self._checked(n)[:self._own_count(n)], tf.int64)


class SubsetRandomSampler(SubsetSampler):
    """Reads the given indices in a random order, a new one every epoch.

    Example:
        >>> import tfspore.dataset as ds
        >>> sampler = ds.SubsetRandomSampler([0, 3, 5])
    """

    _random_order = True

    def get_shuffle_mode(self) -> Shuffle:
        return Shuffle.GLOBAL

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        indices = tf.constant(self._checked(n), tf.int64)
        return tf.gather(indices, _permutation(len(self.indices), seed))[:self._own_count(n)]


class WeightedRandomSampler(BuiltinSampler):
    """Draws indices with the given (unnormalised) weights.

    Args:
        weights: One non-negative weight per row.
        num_samples: Draws per epoch; None draws as many as there are weights.
        replacement: Draw with replacement. Default: True.

    Example:
        >>> import tfspore.dataset as ds
        >>> sampler = ds.WeightedRandomSampler([0.9, 0.1], num_samples=4)
    """

    _random_order = True

    def __init__(self, weights: Sequence[float], num_samples: Optional[int] = None, replacement: bool = True):
        super().__init__(num_samples)
        w = np.asarray(list(weights), dtype=np.float64).reshape(-1)
        if w.size == 0 or (w < 0).any() or not np.isfinite(w).all() or w.sum() <= 0:
            raise ValueError(f"For 'WeightedRandomSampler', weights must be non-negative with a positive sum, "
                             f"but got {list(weights)!r}.")
        self.weights = w
        self.replacement = v.check_bool(replacement, "replacement", "WeightedRandomSampler")

    def _own_count(self, n: int) -> int:
        return len(self.weights) if self.num_samples in (None, 0) else self.num_samples

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        count = self._own_count(n)
        logits = tf.math.log(tf.constant(self.weights[None, :], tf.float64))
        if self.replacement:
            return tf.random.stateless_categorical(logits, count, seed=seed, dtype=tf.int64)[0]
        # Gumbel top-k: sampling without replacement.
        gumbel = -tf.math.log(-tf.math.log(tf.random.stateless_uniform(
            [len(self.weights)], seed=seed, minval=1e-20, maxval=1.0, dtype=tf.float64)))
        return tf.cast(tf.math.top_k(logits[0] + gumbel, k=min(count, len(self.weights))).indices, tf.int64)


class Sampler(BuiltinSampler):
    """Base class of user-defined samplers: override ``__iter__`` to yield row indices.

    ``dataset_size`` holds the number of rows of the source when ``__iter__`` runs; ``reset`` is
    called before every epoch.

    Example:
        >>> import tfspore.dataset as ds
        >>> class Reverse(ds.Sampler):
        ...     def __iter__(self):
        ...         return iter(range(self.dataset_size - 1, -1, -1))
    """

    def __init__(self, num_samples: Optional[int] = None):
        super().__init__(num_samples)
        self.dataset_size = 0
        if self.num_samples is None and hasattr(self, "__len__"):
            self.num_samples = len(self)  # pylint: disable=no-member

    def __iter__(self):
        raise NotImplementedError("A Sampler subclass must implement __iter__.")

    def reset(self) -> None:
        """Called before every epoch; override if needed."""

    def _handshake(self, ds_size: int) -> None:
        self.dataset_size = ds_size

    def get_indices(self) -> np.ndarray:
        """Run ``__iter__`` once and return the indices (at most num_samples)."""
        out = []
        for count, idx in enumerate(self):
            if isinstance(idx, numbers.Number):
                out.append(int(idx))
            else:
                out.extend(int(i) for i in idx)
            if self.num_samples is not None and count + 1 >= self.num_samples:
                break
        return np.asarray(out, dtype=np.int64)

    def _own_dynamic(self) -> bool:
        return True

    def _own_count(self, n: int) -> int:
        if self.num_samples is not None:
            return self.num_samples
        probe = copy.deepcopy(self)
        probe._handshake(n)
        return len(probe.get_indices())

    def _own_indices(self, n: int, seed: tf.Tensor) -> tf.Tensor:
        def draw():
            self._handshake(n)
            self.reset()
            idx = self.get_indices()
            bad = idx[(idx < 0) | (idx >= n)]
            if bad.size:
                raise RuntimeError(f"For '{type(self).__name__}', sample ids must be in [0, {n}), "
                                   f"but got {int(bad[0])}.")
            return idx

        out = tf.numpy_function(draw, [], tf.int64, stateful=True)
        out.set_shape([None])
        return out


class IterSampler(Sampler):
    """Wraps any iterable of indices (a user object that is not a Sampler subclass).

    Args:
        sampler: The iterable; iterated once per epoch.
        num_samples: At most this many indices per epoch.
    """

    def __init__(self, sampler: Iterable, num_samples: Optional[int] = None):
        super().__init__(num_samples)
        self.sampler = sampler

    def __iter__(self):
        return iter(self.sampler)

    def _handshake(self, ds_size: int) -> None:
        super()._handshake(ds_size)
        if hasattr(self.sampler, "dataset_size"):
            try:
                self.sampler.dataset_size = ds_size
            except AttributeError:
                pass


class PKSampler(BuiltinSampler):
    """``num_val`` rows of every class (needs the labels; not supported on this engine).

    Raises:
        NotImplementedError: Always.
    """

    def __init__(self, num_val: int, num_class: Optional[int] = None, shuffle: bool = False,
                 class_column: str = "label", num_samples: Optional[int] = None):
        raise NotImplementedError("For 'PKSampler', sampling by class is not supported by tfspore.dataset; "
                                  f"got num_val={num_val!r}.")


def select_sampler(num_samples: Optional[int], input_sampler: Any, shuffle: Any, num_shards: Optional[int],
                   shard_id: Optional[int]) -> BuiltinSampler:
    """The sampler a source uses for its arguments, as MindSpore chooses it.

    ``shuffle`` None means the source's default, shuffling.
    """
    if input_sampler is not None:
        if isinstance(input_sampler, BuiltinSampler):
            return input_sampler
        if isinstance(input_sampler, (np.ndarray, list, tuple)):
            return SubsetSampler(input_sampler, num_samples)
        if v.is_int(input_sampler):
            return SubsetSampler([input_sampler])
        if not isinstance(input_sampler, str) and isinstance(input_sampler, Iterable):
            return IterSampler(input_sampler, num_samples)
        raise TypeError(f"Unsupported sampler object of type ({type(input_sampler).__name__}): {input_sampler!r}.")
    shuffled = shuffle is None or shuffle is True or (isinstance(shuffle, Shuffle) and shuffle != Shuffle.FALSE)
    if shuffled:
        if num_shards is not None:
            return DistributedSampler(num_shards, shard_id, shuffle=True, num_samples=num_samples)
        if num_samples is not None:
            return RandomSampler(replacement=True, num_samples=num_samples)
        return RandomSampler()
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=False, num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)

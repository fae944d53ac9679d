"""Dataset information methods (``get_dataset_size``, ``output_shapes``, ...), a base of ``Dataset``.

MindSpore's ``Dataset`` answers these without running the pipeline where it can: sizes come
from the sources' static counts through the node tree, shapes and types from the element spec;
only a size the tree cannot know is counted by running one pass.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import numpy as np
import tensorflow as tf

from tfspore.dataset.engine._build_context import _building, _BuildContext
from tfspore.dataset.engine.samplers import check_shard_options

__all__ = ["DatasetInfo"]


class DatasetInfo:
    """What a pipeline says about itself: columns, size, batch size, shapes and types, sampling.

    A base class of :class:`tfspore.dataset.engine.datasets.Dataset`; its methods rely on the
    node interface (``children``, ``column_names``, ``_build_for``, ``_static_size``, ``_api``).
    """

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

"""``from_tf_data``: any ``tf.data.Dataset`` as a tfspore dataset."""
from __future__ import annotations

from typing import List, Optional, Sequence, Union

import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.engine._sources import SourceDataset

__all__ = ["TFDataDataset", "from_tf_data"]


def _flatten_spec(spec) -> List[str]:
    if isinstance(spec, dict):
        return list(spec.keys())
    return []


class TFDataDataset(SourceDataset):
    """A source that reads an existing ``tf.data.Dataset``.

    Elements may be a single tensor, a tuple (one column per item) or a dict (one column per key,
    named by the keys unless `column_names` is given). Nested structures are flattened.

    Args:
        dataset: The tf.data pipeline (iterated afresh every epoch).
        column_names: Names of the columns. Default: the dict keys, or ``column_0, column_1, ...``.

    Example:
        >>> import tensorflow as tf
        >>> import tfspore.dataset as ds
        >>> data = ds.from_tf_data(tf.data.Dataset.range(3))
        >>> data.get_col_names(), data.get_dataset_size()
        (['column_0'], 3)
    """

    def _runs_python(self) -> bool:
        return True  # the user's pipeline may hold py_functions; it is iterated afresh every pass

    def __init__(self, dataset: tf.data.Dataset, column_names: Optional[Union[str, Sequence[str]]] = None):
        super().__init__()
        api = "from_tf_data"
        if not isinstance(dataset, tf.data.Dataset):
            raise TypeError(f"For '{api}', the argument 'dataset' must be a tf.data.Dataset, but got "
                            f"{type(dataset).__name__}.")
        spec = dataset.element_spec
        flat = tf.nest.flatten(spec)
        for s in flat:
            if not isinstance(s, tf.TensorSpec):
                raise TypeError(f"For '{api}', every component must be a dense tensor, but got {s!r}.")
        default = _flatten_spec(spec) or [f"column_{i}" for i in range(len(flat))]
        if column_names is not None:
            names = v.check_unique_names(list(column_names) if not isinstance(column_names, str) else column_names,
                                         "column_names", api)
            if len(names) != len(flat):
                raise ValueError(f"For '{api}', column_names has {len(names)} name(s) but the elements have "
                                 f"{len(flat)} component(s): column_names={names!r}.")
        else:
            names = default
        self._tf_dataset = dataset
        self._column_names = names

    def _source_size(self) -> Optional[int]:
        card = int(self._tf_dataset.cardinality())
        return card if card >= 0 else None

    def _build_source(self) -> tf.data.Dataset:
        spec = self._tf_dataset.element_spec
        if isinstance(spec, dict) and all(isinstance(s, tf.TensorSpec) for s in spec.values()):
            keys = list(spec.keys())
            return self._tf_dataset.map(lambda x: tuple(x[k] for k in keys))
        if isinstance(spec, tf.TensorSpec):
            return self._tf_dataset.map(lambda x: (x,))
        return self._tf_dataset.map(lambda *x: tuple(tf.nest.flatten(x)))


def from_tf_data(dataset: tf.data.Dataset, column_names: Optional[Union[str, Sequence[str]]] = None) -> TFDataDataset:
    """Wrap a ``tf.data.Dataset`` so that the tfspore pipeline operations and Model accept it.

    Args:
        dataset: The tf.data pipeline.
        column_names: Names of the columns (default: the dict keys, or ``column_0, ...``).

    Returns:
        A :class:`TFDataDataset`.

    Example:
        >>> import numpy as np
        >>> import tensorflow as tf
        >>> import tfspore.dataset as ds
        >>> tfd = tf.data.Dataset.from_tensor_slices((np.zeros((4, 2), np.float32), np.arange(4)))
        >>> ds.from_tf_data(tfd, ["x", "y"]).batch(2).get_dataset_size()
        2
    """
    return TFDataDataset(dataset, column_names)

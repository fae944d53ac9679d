"""``TFDSDataset``: a named dataset of tensorflow-datasets as a tfspore source.

Example:
    >>> import tfspore.dataset as ds
    >>> data = ds.TFDSDataset("mnist", split="train", data_dir="/data/tfds", as_supervised=True)  # doctest: +SKIP
    >>> data.get_col_names()  # doctest: +SKIP
    ['image', 'label']
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.engine.samplers import check_num_samples, check_shard_options
from tfspore.dataset.engine._columns import check_column_names
from tfspore.dataset.engine._sources import SourceDataset
from tfspore.dataset.engine.datasets import next_op_seed

__all__ = ["TFDSDataset"]

_SHUFFLE_BUFFER = 10000


def _flatten(features: Any, prefix: str = "") -> List[str]:
    """Column names of a (nested) feature dict: ``a``, ``b/c``, ... in the features' order."""
    names = []
    for key, value in features.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) or type(value).__name__ == "FeaturesDict":
            names.extend(_flatten(value, name + "/"))
        else:
            names.append(name)
    return names


def _mocked(tfds: Any) -> bool:
    """Whether ``tfds.testing.mock_data`` is active (it replaces the builders' reading with fake data)."""
    reader = getattr(tfds.core.DatasetBuilder, "as_dataset", None)
    return getattr(reader, "__module__", "").startswith("tensorflow_datasets.testing")


class TFDSDataset(SourceDataset):
    """A tensorflow-datasets dataset (``tfds.builder(name)``) as a source.

    Columns: with ``as_supervised=True`` the two supervised keys (e.g. ``image``, ``label``);
    otherwise every feature, nested names joined with ``/``. Values keep TFDS's dtypes and
    shapes (MNIST images are uint8 (28, 28, 1), labels int64).

    Args:
        name: The registered TFDS name, e.g. ``"mnist"`` or ``"cifar10:3.0.2"``.
        split: The split (e.g. ``"train"``, ``"test[:10%]"``); default ``"train"``.
        data_dir: Where TFDS keeps prepared data (default TFDS's).
        download: Download and prepare the data if missing. With False, unprepared data is an error.
        as_supervised: Read ``(input, target)`` pairs.
        shuffle: Shuffle files and rows (None: yes).
        num_samples: Rows to read (default all).
        num_shards: Number of shards (rows ``k, k+S, ...``, wrap-padded to equal sizes).
        shard_id: This shard.
        column_names: Rename the columns.
        num_parallel_workers: A parallelism hint.
        builder_kwargs: Extra arguments of ``tfds.builder``.

    Raises:
        ValueError: If the dataset is unknown or not prepared (with ``download=False``), or the
            split does not exist.

    Example:
        >>> import tfspore.dataset as ds
        >>> data = ds.TFDSDataset("mnist", split="test", shuffle=False)  # doctest: +SKIP
    """

    def __init__(self, name: str, split: Optional[str] = None, data_dir: Optional[str] = None,
                 download: bool = False, as_supervised: bool = False, shuffle: Optional[bool] = None,
                 num_samples: Optional[int] = None, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, column_names: Optional[Union[str, List[str]]] = None,
                 num_parallel_workers: Optional[int] = None,
                 builder_kwargs: Optional[Dict[str, Any]] = None) -> None:
        api = type(self).__name__
        v.check_type(name, (str,), "name", api)
        split = "train" if split is None else split
        v.check_type(split, (str,), "split", api)
        v.check_bool(download, "download", api)
        v.check_bool(as_supervised, "as_supervised", api)
        check_shard_options(api, num_samples, shuffle, None, num_shards, shard_id)
        super().__init__(num_parallel_workers=num_parallel_workers, num_shards=num_shards, shard_id=shard_id)
        import tensorflow_datasets as tfds  # pylint: disable=import-outside-toplevel

        self.name = name
        self.split = split
        self.as_supervised = as_supervised
        self.shuffle_flag = shuffle is None or bool(shuffle)
        self.num_samples = check_num_samples(num_samples, api) or None
        try:
            self._builder = tfds.builder(name, data_dir=data_dir, **(builder_kwargs or {}))
        except Exception as exc:  # pylint: disable=broad-except
            raise ValueError(f"For '{api}', the dataset name is not a known tensorflow-datasets dataset: "
                             f"name='{name}' ({exc}).") from exc
        if download:
            self._builder.download_and_prepare()
        elif not self._is_prepared():
            raise ValueError(f"For '{api}', the dataset '{name}' is not prepared in data_dir='{data_dir}'; "
                             f"pass download=True or prepare it with tensorflow-datasets first.")
        info = self._builder.info
        try:
            self._num_rows = int(info.splits[split].num_examples)
        except Exception as exc:  # pylint: disable=broad-except
            self._num_rows = self._cardinality(split)  # split info from the data (tfds.testing.mock_data)
            if self._num_rows is None:
                raise ValueError(f"For '{api}', the split does not exist in '{name}': split='{split}' "
                                 f"(available: {sorted(info.splits.keys())}).") from exc
        if as_supervised:
            if not info.supervised_keys:
                raise ValueError(f"For '{api}', as_supervised=True but '{name}' has no supervised keys.")
            keys = info.supervised_keys
            self._keys: List[Any] = list(keys)
            names = [k if isinstance(k, str) else f"column_{i}" for i, k in enumerate(keys)]
        else:
            names = _flatten(info.features)
            self._keys = names
        if column_names is not None:
            names = check_column_names(column_names, len(names), api,
                                       f"the dataset has {len(names)} column(s) {names}")
        self.column_names = names

    def _cardinality(self, split: str) -> Optional[int]:
        """The number of rows of ``split`` as its ``tf.data`` pipeline knows it, or None."""
        try:
            rows = int(self._builder.as_dataset(split=split, shuffle_files=False).cardinality())
        except Exception:  # pylint: disable=broad-except
            return None
        return rows if rows >= 0 else None

    def _is_prepared(self) -> bool:
        try:
            import tensorflow_datasets as tfds  # pylint: disable=import-outside-toplevel
            if _mocked(tfds):
                return True
            return tf.io.gfile.exists(self._builder.data_dir) and bool(
                tf.io.gfile.glob(f"{self._builder.data_dir}/*{tfds.core.constants.DATASET_INFO_FILENAME}"))
        except Exception:  # pylint: disable=broad-except
            return False

    def _source_size(self) -> Optional[int]:
        n = self._num_rows
        if self.num_shards is not None:
            n = -(-n // self.num_shards)
        return n if self.num_samples is None else min(n, self.num_samples)

    def _to_tuple(self, *element: Any) -> Tuple[tf.Tensor, ...]:
        if self.as_supervised:
            return tuple(element)
        element = element[0]
        out = []
        for name in self._keys:
            value = element
            for part in name.split("/"):
                value = value[part]
            out.append(value)
        return tuple(out)

    def _build_source(self) -> tf.data.Dataset:
        import tensorflow_datasets as tfds  # pylint: disable=import-outside-toplevel

        seed = next_op_seed() if self.shuffle_flag else None
        read_config = tfds.ReadConfig(shuffle_seed=seed, shuffle_reshuffle_each_iteration=True, try_autocache=False)
        data = self._builder.as_dataset(split=self.split, shuffle_files=self.shuffle_flag,
                                        as_supervised=self.as_supervised, read_config=read_config)
        data = data.map(self._to_tuple, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
        if self.num_shards is not None:
            per = -(-self._num_rows // self.num_shards)
            data = data.repeat(2).take(per * self.num_shards).shard(self.num_shards, self.shard_id)
        if self.shuffle_flag:
            data = data.shuffle(_SHUFFLE_BUFFER, seed=next_op_seed(), reshuffle_each_iteration=True)
        if self.num_samples is not None:
            data = data.take(self.num_samples)
        return data

    def is_shuffled(self) -> bool:
        return self.shuffle_flag

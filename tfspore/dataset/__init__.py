"""``mindspore.dataset`` on ``tf.data``.

Dataset sources and pipeline operations build lazy node trees that turn into ``tf.data``
pipelines when consumed: input processing runs in TensorFlow's parallel C++ runtime, feeds
compiled training loops and ``tf.distribute``, and TF-op transforms run without Python per
sample. The classes keep MindSpore's names, arguments, column names, dtypes, shapes, default
shuffling, sharding (with wrap-padding) and iterator behaviour.

``Model`` and ``DatasetHelper`` use ``Dataset.to_tf_dataset(shard=...)``,
``get_dataset_size()`` and ``get_col_names()``; see :mod:`tfspore.dataset.engine.datasets`.

Example:
    >>> import numpy as np
    >>> import tfspore.dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.float32), "y": np.arange(10)}, shuffle=False)
    >>> data = data.map(lambda x: x * 2, input_columns="x").batch(4, drop_remainder=True)
    >>> [row["x"].shape for row in data.create_dict_iterator(output_numpy=True)]
    [(4,), (4,)]
"""
from tfspore.dataset.core import config
from tfspore.dataset.engine import *  # noqa: F401,F403
from tfspore.dataset.engine import __all__ as _engine_all
from tfspore.dataset.engine.datasets_vision import Cifar10Dataset, Cifar100Dataset, ImageFolderDataset, MnistDataset
from tfspore.dataset.engine.datasets_standard_format import TFRecordDataset
from tfspore.dataset.engine.datasets_tfds import TFDSDataset
from tfspore.dataset import text, transforms, vision  # noqa: E402
from tfspore import context  # noqa: E402,F401  (MindSpore's dataset package exposes mindspore.context)

__all__ = list(_engine_all) + ["TFDSDataset", "text", "transforms", "vision"]

# Keep last: missing MindSpore names on the modules imported above raise a clear error.
from tfspore._missing import install_missing_name_hooks as _install_missing_name_hooks  # noqa: E402
_install_missing_name_hooks(__name__)

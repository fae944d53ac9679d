"""``mindspore.mindrecord.Cifar100ToMR``: CIFAR-100 (python version) to MindRecord."""
from __future__ import annotations

import os
from typing import Dict, Optional

import numpy as np

from tfspore.mindrecord.common.exceptions import PathNotExistsError
from tfspore.mindrecord.core.shardutils import SUCCESS, check_filename
from tfspore.mindrecord.tools._convert import load_cifar_pickle
from tfspore.mindrecord.tools.cifar10_to_mr import check_fields, cifar_rows, write_cifar

__all__ = ["Cifar100ToMR"]

_SCHEMA = {"id": {"type": "int64"}, "fine_label": {"type": "int64"}, "coarse_label": {"type": "int64"},
           "data": {"type": "bytes"}}


def _load(path: str) -> Dict[str, np.ndarray]:
    batch = load_cifar_pickle(path, "Cifar100")
    return {"images": np.asarray(batch[b"data"]).reshape([-1, 3, 32, 32]).transpose(0, 2, 3, 1),
            "fine_label": np.asarray(batch[b"fine_labels"], np.int64),
            "coarse_label": np.asarray(batch[b"coarse_labels"], np.int64)}


class Cifar100ToMR:
    """Convert CIFAR-100 (the python version, ``cifar-100-python.tar.gz`` unpacked) to MindRecord.

    `destination` gets the training samples and ``destination + "_test"`` the test samples, with
    the schema ``{"id": int64, "fine_label": int64, "coarse_label": int64, "data": bytes}``
    (each image as JPEG).

    Args:
        source: The folder holding the ``train`` and ``test`` files.
        destination: The MindRecord file to write.

    Raises:
        ValueError: If `source` or `destination` is invalid.
        PathNotExistsError: If `source` has no ``train`` or no ``test`` file.

    Example:
        >>> from tfspore.mindrecord import Cifar100ToMR
        >>> Cifar100ToMR("/path/to/cifar-100-python", "/path/to/cifar100.mindrecord").transform()  # doctest: +SKIP
    """

    def __init__(self, source: str, destination: str) -> None:
        check_filename(source)
        names = os.listdir(source)
        for name in ("train", "test"):
            if name not in names:
                raise PathNotExistsError(name)
        check_filename(destination)
        self.source = source
        self.destination = destination
        self.writer = None

    def run(self, fields: Optional[list] = None) -> int:
        """Convert; returns SUCCESS. See :meth:`transform`."""
        check_fields(fields)
        folder = os.path.realpath(self.source)
        for split, path in (("img_train", self.destination), ("img_test", self.destination + "_test")):
            data = _load(os.path.join(folder, "train" if split == "img_train" else "test"))
            rows = cifar_rows(data["images"], fine_label=data["fine_label"], coarse_label=data["coarse_label"])
            write_cifar(path, _SCHEMA, rows, fields, split)
        return SUCCESS

    def transform(self, fields: Optional[list] = None) -> None:
        """Convert CIFAR-100 to MindRecord.

        Args:
            fields: Index fields (see ``FileWriter.add_index``), or None.

        Raises:
            ValueError: If `fields` is not None or a list.
            RuntimeError: If a file is not a CIFAR-100 batch.
        """
        self.run(fields)

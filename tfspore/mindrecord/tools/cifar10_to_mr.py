"""``mindspore.mindrecord.Cifar10ToMR``: CIFAR-10 (python version) to MindRecord."""
from __future__ import annotations

import os
import re
from typing import List, Optional, Tuple

import numpy as np

from tfspore.mindrecord.common.exceptions import PathNotExistsError
from tfspore.mindrecord.core.shardutils import SUCCESS, check_filename
from tfspore.mindrecord.filewriter import FileWriter
from tfspore.mindrecord.tools._convert import encode_jpeg, load_cifar_pickle, optional_index

__all__ = ["Cifar10ToMR"]

_SCHEMA = {"id": {"type": "int64"}, "label": {"type": "int64"}, "data": {"type": "bytes"}}


def check_fields(fields: Optional[list]) -> None:
    """MindSpore's check of the ``fields`` argument of the CIFAR converters' ``transform``."""
    if fields and not isinstance(fields, list):
        raise ValueError("The parameter fields should be None or list")


def load_cifar10(source: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Train images (N, 32, 32, 3) uint8 and labels, then the test ones, from the batch files of
    `source` (``data_batch_*`` in directory order, ``test_batch``)."""
    images: List[np.ndarray] = []
    labels: List[np.ndarray] = []
    test = None
    for name in os.listdir(source):
        path = os.path.join(os.path.realpath(source), name)
        if re.match("data_batch_*", name):
            batch = load_cifar_pickle(path, "Cifar10")
            images.append(np.asarray(batch[b"data"]).reshape([-1, 3, 32, 32]))
            labels.append(np.asarray(batch[b"labels"], np.int64))
        elif re.match("test_batch", name):
            batch = load_cifar_pickle(path, "Cifar10")
            test = (np.asarray(batch[b"data"]).reshape([-1, 3, 32, 32]), np.asarray(batch[b"labels"], np.int64))
    if test is None:
        raise PathNotExistsError("test_batch")
    train_images = np.concatenate(images).transpose(0, 2, 3, 1) if images else np.zeros((0, 32, 32, 3), np.uint8)
    train_labels = np.concatenate(labels) if labels else np.zeros(0, np.int64)
    return train_images, train_labels, test[0].transpose(0, 2, 3, 1), test[1]


def cifar_rows(images: np.ndarray, **labels: np.ndarray) -> List[dict]:
    """One row per image: ``id``, the JPEG bytes as ``data`` and each label."""
    return [dict({"id": i, "data": encode_jpeg(img)}, **{k: int(v[i]) for k, v in labels.items()})
            for i, img in enumerate(images)]


def write_cifar(path: str, schema: dict, rows: List[dict], fields: Optional[list], desc: str) -> None:
    """One single-shard MindRecord file of `rows`, all written in one call as MindSpore does."""
    writer = FileWriter(path, 1)
    writer.add_schema(schema, desc)
    optional_index(writer, fields)
    writer.write_raw_data(rows)
    writer.commit()


class Cifar10ToMR:
    """Convert CIFAR-10 (the python version, ``cifar-10-python.tar.gz`` unpacked) to MindRecord.

    `destination` gets the training samples and ``destination + "_test"`` the test samples, with
    the schema ``{"id": int64, "label": int64, "data": bytes}`` (each image as JPEG).

    Args:
        source: The folder holding ``data_batch_*`` and ``test_batch``.
        destination: The MindRecord file to write.

    Raises:
        ValueError: If `source` or `destination` is invalid.
        PathNotExistsError: If `source` has no ``data_batch_*`` or no ``test_batch`` file.

    Example:
        >>> from tfspore.mindrecord import Cifar10ToMR
        >>> Cifar10ToMR("/path/to/cifar-10-batches-py", "/path/to/cifar10.mindrecord").transform()  # doctest: +SKIP
    """

    def __init__(self, source: str, destination: str) -> None:
        check_filename(source)
        names = os.listdir(source)
        if not any(n.startswith("data_batch_") for n in names):
            raise PathNotExistsError("data_batch_*")
        if not any(n.startswith("test_batch") for n in names):
            raise PathNotExistsError("test_batch")
        check_filename(destination)
        self.source = source
        self.destination = destination
        self.writer = None

    def run(self, fields: Optional[list] = None) -> int:
        """Convert; returns SUCCESS. See :meth:`transform`."""
        check_fields(fields)
        images, labels, test_images, test_labels = load_cifar10(self.source)
        write_cifar(self.destination, _SCHEMA, cifar_rows(images, label=labels), fields, "img_train")
        write_cifar(self.destination + "_test", _SCHEMA, cifar_rows(test_images, label=test_labels), fields,
                    "img_test")
        return SUCCESS

    def transform(self, fields: Optional[list] = None) -> None:
        """Convert CIFAR-10 to MindRecord.

        Args:
            fields: Index fields (see ``FileWriter.add_index``), or None.

        Raises:
            ValueError: If `fields` is not None or a list.
            RuntimeError: If a batch file is not a CIFAR-10 batch.
        """
        self.run(fields)

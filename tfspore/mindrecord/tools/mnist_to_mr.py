"""``mindspore.mindrecord.MnistToMR``: MNIST (gzipped idx files) to MindRecord."""
from __future__ import annotations

import gzip
import os
from typing import Dict, Iterator

import numpy as np

from tfspore.mindrecord.core.shardutils import FAILED, SUCCESS, check_filename
from tfspore.mindrecord.filewriter import FileWriter
from tfspore.mindrecord.tools._convert import check_partition_number, encode_jpeg, write_large_file

__all__ = ["MnistToMR"]

_SCHEMA = {"label": {"type": "int64"}, "data": {"type": "bytes"}}
_FILES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
          "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}


def _read_gz(path: str, skip: int) -> np.ndarray:
    with gzip.open(os.path.realpath(path), "rb") as stream:
        stream.read(skip)
        return np.frombuffer(stream.read(), dtype=np.uint8)


class MnistToMR:
    """Convert MNIST to MindRecord: ``{destination}_train.mindrecord`` and
    ``{destination}_test.mindrecord`` (each in `partition_number` shards), with the schema
    ``{"label": int64, "data": bytes}`` (each image as JPEG) and ``label`` as index field.

    Args:
        source: The folder holding ``train-images-idx3-ubyte.gz``, ``train-labels-idx1-ubyte.gz``,
            ``t10k-images-idx3-ubyte.gz`` and ``t10k-labels-idx1-ubyte.gz``.
        destination: The MindRecord file name prefix.
        partition_number: The number of shards. Default: 1.

    Raises:
        ValueError: If `source`, `destination` or `partition_number` is invalid.

    Example:
        >>> from tfspore.mindrecord import MnistToMR
        >>> MnistToMR("/path/to/mnist", "/path/to/mnist").transform()  # doctest: +SKIP
    """

    def __init__(self, source: str, destination: str, partition_number: int = 1) -> None:
        self.image_size = 28
        self.num_channels = 1
        check_filename(source)
        self.source = source
        self._paths = {split: tuple(os.path.join(source, name) for name in names) for split, names in _FILES.items()}
        for images, labels in self._paths.values():
            check_filename(images)
            check_filename(labels)
        check_filename(destination)
        self.partition_number = check_partition_number(partition_number)
        self.writer_train = FileWriter(f"{destination}_train.mindrecord", self.partition_number)
        self.writer_test = FileWriter(f"{destination}_test.mindrecord", self.partition_number)
        self.mnist_schema_json = dict(_SCHEMA)

    def _rows(self, split: str) -> Iterator[Dict[str, object]]:
        image_path, label_path = self._paths[split]
        images = _read_gz(image_path, 16).reshape(-1, self.image_size, self.image_size, self.num_channels)
        labels = _read_gz(label_path, 8).astype(np.int64)
        for image, label in zip(images, labels):
            yield {"label": int(label), "data": encode_jpeg(image)}

    def _transform(self, split: str, writer: FileWriter) -> int:
        write_large_file(writer, self.mnist_schema_json, "mnist_schema", ["label"], self._rows(split))
        return SUCCESS

    def run(self) -> int:
        """Convert; returns SUCCESS or FAILED. See :meth:`transform`."""
        if self._transform("train", self.writer_train) == FAILED:
            return FAILED
        return self._transform("test", self.writer_test)

    def transform(self) -> None:
        """Convert MNIST to MindRecord.

        Raises:
            OSError: If an input file cannot be read.
            ValueError: If an idx file's size does not fit 28x28 images.
        """
        self.run()

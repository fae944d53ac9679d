"""``mindspore.mindrecord.ImageNetToMR``: an ImageNet-style image folder to MindRecord."""
from __future__ import annotations

import os
from typing import Dict, Iterator

from tfspore.mindrecord.common.exceptions import PathNotExistsError
from tfspore.mindrecord.core.shardutils import SUCCESS, check_filename
from tfspore.mindrecord.filewriter import FileWriter
from tfspore.mindrecord.tools._convert import check_partition_number, write_large_file

__all__ = ["ImageNetToMR"]

_SCHEMA = {"label": {"type": "int32"}, "image": {"type": "bytes"}, "file_name": {"type": "string"}}


class ImageNetToMR:
    """Convert an ImageNet-style folder to MindRecord, with the schema
    ``{"label": int32, "image": bytes, "file_name": string}`` (the files' bytes as they are) and
    ``label`` and ``file_name`` as index fields.

    The map file has one line per class, ``<folder name> <label>``; every ``*.JPEG`` / ``*.jpg``
    file of ``image_dir/<folder name>`` becomes a sample (``file_name``: its path).

    Args:
        map_file: The map file.
        image_dir: The folder holding one sub-folder per class.
        destination: The MindRecord file to write.
        partition_number: The number of shards. Default: 1.

    Raises:
        ValueError: If an argument is invalid.

    Example:
        >>> from tfspore.mindrecord import ImageNetToMR
        >>> ImageNetToMR("labels_map.txt", "/path/to/train", "/path/to/imagenet.mindrecord").transform()  # doctest: +SKIP
    """

    def __init__(self, map_file: str, image_dir: str, destination: str, partition_number: int = 1) -> None:
        check_filename(map_file)
        check_filename(image_dir)
        check_filename(destination)
        self.map_file = map_file
        self.image_dir = image_dir
        self.destination = destination
        self.partition_number = check_partition_number(partition_number)
        self.writer = FileWriter(self.destination, self.partition_number)

    def _class_folders(self) -> Dict[str, str]:
        """Label text -> class folder, in the map file's order (a label listed twice keeps its
        last folder; folders that do not exist are left out)."""
        map_path = os.path.realpath(self.map_file)
        if not os.path.exists(map_path):
            raise IOError(f"map file {self.map_file} not exists")
        folders: Dict[str, str] = {}
        with open(map_path, "r") as handle:
            for line in handle:
                parts = line.split(" ")
                folders[parts[1]] = parts[0]
        found = {label: os.path.join(self.image_dir, name) for label, name in folders.items()
                 if os.path.isdir(os.path.join(self.image_dir, name))}
        if not found:
            raise PathNotExistsError(f"not valid image dir in {self.image_dir}")
        return found

    def _rows(self) -> Iterator[dict]:
        for label, folder in self._class_folders().items():
            for item in os.listdir(folder):
                if not (item.endswith("JPEG") or item.endswith("jpg")):
                    continue
                file_name = os.path.join(folder, item)
                with open(os.path.realpath(file_name), "rb") as handle:
                    image = handle.read()
                if image:
                    yield {"file_name": str(file_name), "label": int(label), "image": image}

    def run(self) -> int:
        """Convert; returns SUCCESS. See :meth:`transform`."""
        write_large_file(self.writer, dict(_SCHEMA), "imagenet_schema", ["label", "file_name"], self._rows(),
                         parallel_writer=True)
        return SUCCESS

    def transform(self) -> None:
        """Convert the folder to MindRecord.

        Raises:
            IOError: If the map file does not exist.
            PathNotExistsError: If no class folder of the map file exists.
        """
        self.run()

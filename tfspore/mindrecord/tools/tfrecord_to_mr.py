"""``mindspore.mindrecord.TFRecordToMR``: a TFRecord file of ``tf.train.Example`` to MindRecord."""
from __future__ import annotations

from string import punctuation
from typing import Any, Dict, Iterator, List, Optional

import numpy as np
import tensorflow as tf

from tfspore.mindrecord.core.shardutils import check_filename
from tfspore.mindrecord.filewriter import FileWriter
from tfspore.mindrecord.tools._convert import BATCH_ROWS, write_in_batches

__all__ = ["TFRecordToMR"]

_NP_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
_MR_TYPES = {tf.string: "string", tf.int8: "int32", tf.int16: "int32", tf.int32: "int32", tf.int64: "int64",
             tf.uint8: "int32", tf.uint16: "int32", tf.uint32: "int64", tf.uint64: "int64", tf.float16: "float32",
             tf.float32: "float32", tf.float64: "float64", tf.bool: "int32"}
_SPECIAL = set(punctuation + " ") - {"_"}


def _cast_name(key: str) -> str:
    """A feature name as a MindRecord field name: punctuation and spaces (but '_') become '_'."""
    return "".join("_" if char in _SPECIAL else char for char in key)


def _mr_type(dtype: tf.DType) -> str:
    if dtype in _MR_TYPES:
        return _MR_TYPES[dtype]
    raise ValueError(f"Type {dtype} is not supported in MindRecord.")


class TFRecordToMR:
    """Convert a TFRecord file of ``tf.train.Example`` records to MindRecord.

    Each feature of `feature_dict` (``tf.io.FixedLenFeature`` only) becomes a field named as the
    feature with punctuation replaced by ``_``: a scalar as a scalar field (strings as ``string``,
    or ``bytes`` when listed in `bytes_fields`), a fixed-length list as an array field.

    Args:
        source: The TFRecord file.
        destination: The MindRecord file to write.
        feature_dict: Feature name -> ``tf.io.FixedLenFeature``.
        bytes_fields: Scalar ``tf.string`` features to store as bytes.

    Raises:
        ValueError: If an argument is invalid.

    Example:
        >>> import tensorflow as tf
        >>> from tfspore.mindrecord import TFRecordToMR
        >>> features = {"image": tf.io.FixedLenFeature([], tf.string), "label": tf.io.FixedLenFeature([], tf.int64)}
        >>> TFRecordToMR("/path/to/x.tfrecord", "/path/to/x.mindrecord", features, ["image"]).transform()  # doctest: +SKIP
    """

    def __init__(self, source: str, destination: str, feature_dict: Dict[str, Any],
                 bytes_fields: Optional[List[str]] = None) -> None:
        self.tf = tf
        if not isinstance(source, str):
            raise ValueError("Parameter source must be string.")
        check_filename(source, "source")
        if not isinstance(destination, str):
            raise ValueError("Parameter destination must be string.")
        check_filename(destination, "destination")
        if feature_dict is None or not isinstance(feature_dict, dict):
            raise ValueError("Parameter feature_dict is None or not dict.")
        for value in feature_dict.values():
            if not isinstance(value, tf.io.FixedLenFeature):
                raise ValueError(f"Parameter feature_dict: {feature_dict} only support FixedLenFeature.")
        self.source = source
        self.destination = destination
        self.feature_dict = feature_dict
        self.bytes_fields_list = self._check_bytes_fields(bytes_fields)
        self.scalar_set = set()
        self.list_set = set()
        self.mindrecord_schema = self._schema()

    def _check_bytes_fields(self, bytes_fields: Optional[List[str]]) -> List[str]:
        if bytes_fields is None:
            return []
        if not isinstance(bytes_fields, list):
            raise ValueError(f"Parameter bytes_fields: {bytes_fields} must be list(str).")
        names = []
        for item in bytes_fields:
            if not isinstance(item, str):
                raise ValueError(f"Parameter bytes_fields's item: {item} is not str.")
            if item not in self.feature_dict:
                raise ValueError(f"Parameter bytes_fields's item: {item} is not in feature_dict: {self.feature_dict}.")
            if not isinstance(self.feature_dict[item].shape, list):
                raise ValueError(f"Parameter feature_dict[{item}].shape should be a list.")
            if self.feature_dict[item].dtype != tf.string:
                raise ValueError(f"Parameter bytes_field: {item} should be tf.string in feature_dict.")
            names.append(_cast_name(item))
        return names

    def _schema(self) -> Dict[str, dict]:
        schema = {}
        for key, feature in self.feature_dict.items():
            name = _cast_name(key)
            if not feature.shape:
                self.scalar_set.add(name)
                schema[name] = {"type": "bytes" if name in self.bytes_fields_list else _mr_type(feature.dtype)}
                continue
            if len(feature.shape) != 1:
                raise ValueError(f"Parameter len(feature_dict[{key}].shape) should be 1.")
            if not isinstance(feature.shape[0], int):
                raise ValueError(f"Invalid parameter feature_dict, value and type mismatch, please check item of "
                                 f"feature_dict[\"{key}\"].")
            if feature.shape[0] < 1:
                raise ValueError(f"Parameter feature_dict[{key}].shape[0] should > 0")
            if feature.dtype == tf.string:
                raise ValueError(f"Parameter feature_dict[{key}].dtype is tf.string which shape[0] is not None. "
                                 f"It is not supported.")
            self.list_set.add(name)
            schema[name] = {"type": _mr_type(feature.dtype), "shape": [feature.shape[0]]}
        return schema

    def _value(self, key: str, name: str, value: np.ndarray) -> Any:
        if name in self.list_set:
            return np.asarray(value, _NP_TYPES[self.mindrecord_schema[name]["type"]])
        if self.feature_dict[key].dtype == tf.string:
            return bytes(value) if name in self.bytes_fields_list else str(bytes(value), encoding="utf-8")
        return int(value) if self.mindrecord_schema[name]["type"].startswith("int") else float(value)

    def tfrecord_iterator(self) -> Iterator[Dict[str, Any]]:
        """The samples of the TFRecord file as MindRecord rows (parsed 256 records at a time).

        Raises:
            ValueError: If a record does not match `feature_dict`.
        """
        features = self.feature_dict
        dataset = tf.data.TFRecordDataset(self.source).batch(BATCH_ROWS).map(
            lambda records: tf.io.parse_example(records, features))
        iterator = iter(dataset)
        while True:
            try:
                batch = next(iterator)
            except StopIteration:
                return
            except tf.errors.InvalidArgumentError as err:
                raise ValueError(f"TFRecord feature_dict parameter error: {self.source!r}: {err.message}") from err
            columns = {key: value.numpy() for key, value in batch.items()}
            size = len(next(iter(columns.values()))) if columns else 0
            for i in range(size):
                yield {_cast_name(key): self._value(key, _cast_name(key), column[i]) for key, column in columns.items()}

    def run(self) -> None:
        """Convert. See :meth:`transform`."""
        writer = FileWriter(self.destination)
        writer.add_schema(self.mindrecord_schema, "TFRecord to MindRecord")
        write_in_batches(writer, self.tfrecord_iterator(), parallel_writer=True)
        return writer.commit()

    def transform(self) -> None:
        """Convert the TFRecord file to MindRecord.

        Raises:
            ValueError: If a record does not match `feature_dict`.
        """
        self.run()

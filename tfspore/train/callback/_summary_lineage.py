"""The lineage a :class:`SummaryCollector` records: MindSpore's train / eval lineage messages.

At the end of a training (an evaluation) the collector records the train (eval) lineage: the
network, loss function, optimizer and learning rate, the loss, epochs, dataset path and size, and
the path and size of the last checkpoint of a ``ModelCheckpoint`` in the same callback list (the
metrics); once per training also the dataset graph and the custom lineage data. They go into the
summary file as MindSpore's ``lineage.proto`` messages (``TrainLineage``, ``EvaluationLineage``,
``DatasetGraph``, ``UserDefinedInfo``), which TensorBoard shows in its HParams and text
dashboards. :class:`SummaryLineage` is a mixin of ``SummaryCollector``; it uses the collector's
``_record``, ``_collect_specified_data``, ``_get_loss`` and ``_get_optimizer``.
"""
from __future__ import annotations

import json
import logging
import os
from typing import Any

import numpy as np

from tfspore._internal.proto import lineage_pb2
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor

_logger = logging.getLogger("tfspore")

_TRAIN = "train"


class LineageMetadata:
    """The keys of the lineage dicts (MindSpore's names)."""

    train_dataset_path = "train_dataset_path"
    valid_dataset_path = "valid_dataset_path"
    train_network = "train_network"
    loss_function = "loss_function"
    loss = "loss"
    optimizer = "optimizer"
    learning_rate = "learning_rate"
    epoch = "epoch"
    step_num = "step_num"
    parallel_mode = "parallel_mode"
    device_num = "device_num"
    batch_size = "batch_size"
    model_path = "model_path"
    model_ckpt = "model_ckpt"
    model_size = "model_size"
    metrics = "metrics"
    train_dataset_size = "train_dataset_size"
    valid_dataset_size = "valid_dataset_size"


class SummaryLineage:
    """The lineage collection of :class:`~tfspore.train.callback.SummaryCollector` (a mixin)."""

    def _collect_dataset_graph(self, cb_params: Any) -> None:
        if not self._collect_specified_data.get("collect_dataset_graph") or cb_params.mode != _TRAIN:
            return
        graph = _dataset_graph(cb_params.get("train_dataset"))
        if graph is None:
            return
        self._record.add_value("dataset_graph", "train_dataset", _lineage_value("dataset_graph", graph))

    @staticmethod
    def _get_learning_rate(optimizer: Any) -> Tensor | None:
        """The learning-rate Parameter's value (MindSpore's lineage value), or None for a schedule."""
        learning_rate = optimizer.learning_rate
        if not isinstance(learning_rate, Parameter):
            _logger.warning("The learning rate detected in the optimizer is not a Parameter type, so it is not "
                            "recorded. Its type is %r.", type(learning_rate).__name__)
            return None
        return learning_rate.data

    def _collect_train_lineage(self, cb_params: Any) -> None:
        if not self._collect_specified_data.get("collect_train_lineage"):
            return
        lineage: dict = {}
        loss = self._get_loss(cb_params)
        lineage[LineageMetadata.loss] = float(np.atleast_1d(loss.asnumpy())[0]) if loss is not None else None
        optimizer = self._get_optimizer(cb_params)
        learning_rate = self._get_learning_rate(optimizer) if optimizer is not None else None
        lineage[LineageMetadata.learning_rate] = (float(np.atleast_1d(learning_rate.asnumpy())[0])
                                                  if learning_rate is not None else None)
        lineage[LineageMetadata.optimizer] = type(optimizer).__name__ if optimizer else None
        lineage[LineageMetadata.train_network] = type(cb_params.network).__name__
        loss_fn = self._get_loss_fn(cb_params)
        lineage[LineageMetadata.loss_function] = type(loss_fn).__name__ if loss_fn else None
        lineage[LineageMetadata.epoch] = cb_params.epoch_num
        lineage[LineageMetadata.step_num] = cb_params.cur_step_num
        lineage[LineageMetadata.parallel_mode] = cb_params.get("parallel_mode")
        lineage[LineageMetadata.device_num] = cb_params.get("device_number")
        ckpt_file_path = self._get_ckpt_file_path(cb_params)
        lineage[LineageMetadata.model_path] = json.dumps({"ckpt": ckpt_file_path})
        lineage[LineageMetadata.model_size] = os.path.getsize(ckpt_file_path) if ckpt_file_path else 0
        self._parse_dataset(cb_params, lineage)
        self._record.add_value("train_lineage", "train_lineage", _lineage_value("train_lineage", lineage))

    def _collect_eval_lineage(self, cb_params: Any) -> None:
        if not self._collect_specified_data.get("collect_eval_lineage"):
            return
        lineage: dict = {}
        try:
            lineage[LineageMetadata.metrics] = json.dumps(_jsonable(cb_params.get("metrics")))
        except TypeError as exc:
            _logger.warning("Summary cannot collect the type of metrics, currently support type: dict, list, tuple, "
                            "str, int, float, bool and None. %s.", exc)
        self._parse_dataset(cb_params, lineage)
        self._record.add_value("eval_lineage", "eval_lineage", _lineage_value("eval_lineage", lineage))

    @staticmethod
    def _parse_dataset(cb_params: Any, lineage: dict) -> dict:
        train = cb_params.mode == _TRAIN
        dataset = cb_params.get("train_dataset") if train else cb_params.get("valid_dataset")
        path = _dataset_path(dataset)
        if path and os.path.isfile(path):
            path = os.path.dirname(path)
        try:
            batch_num = int(dataset.get_dataset_size())
            batch_size = int(dataset.get_batch_size())
        except (AttributeError, TypeError, ValueError):
            batch_num, batch_size = 0, 1
        lineage[LineageMetadata.batch_size] = batch_size
        if train:
            lineage[LineageMetadata.train_dataset_path] = path
            lineage[LineageMetadata.train_dataset_size] = batch_num * batch_size
        else:
            lineage[LineageMetadata.valid_dataset_path] = path
            lineage[LineageMetadata.valid_dataset_size] = batch_num * batch_size
        return lineage

    @staticmethod
    def _get_ckpt_file_path(cb_params: Any) -> str | None:
        from tfspore.train.callback._checkpoint import ModelCheckpoint  # pylint: disable=import-outside-toplevel
        path = None
        for callback in cb_params.get("list_callback") or []:
            if isinstance(callback, ModelCheckpoint):
                path = callback.latest_ckpt_file_name
        return os.path.realpath(path) if path else None

    @staticmethod
    def _get_loss_fn(cb_params: Any) -> Any:
        from tfspore.nn.loss import LossBase  # pylint: disable=import-outside-toplevel
        loss_fn = cb_params.get("loss_fn")
        if loss_fn is not None:
            return loss_fn
        network = cb_params.get("train_network") if cb_params.mode == _TRAIN else cb_params.get("eval_network")
        if network is None:
            return None
        for _, cell in network.cells_and_names():
            if isinstance(cell, LossBase):
                return cell
        return None

    @staticmethod
    def _package_custom_lineage_data(custom_lineage_data: dict) -> Any:
        return _lineage_value("custom_lineage_data", dict(custom_lineage_data))


def _jsonable(value: Any) -> Any:
    """Metric values as JSON-serialisable Python objects (numpy scalars and arrays become lists or numbers)."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def _dataset_path(dataset: Any, depth: int = 0) -> str | None:
    """The directory or file a dataset pipeline reads (its source's ``dataset_dir`` / ``dataset_files``)."""
    if dataset is None or depth > 64:
        return None
    for attr in ("dataset_dir", "dataset_file", "dataset_files"):
        value = getattr(dataset, attr, None)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
            return value[0]
    children = getattr(dataset, "children", None) or []
    return _dataset_path(children[0], depth + 1) if children else None


_DATASET_PARAMS = ("batch_size", "drop_remainder", "num_parallel_workers", "count", "shuffle", "num_samples",
                   "num_shards", "shard_id", "buffer_size", "usage", "seed")


def _dataset_graph(dataset: Any, depth: int = 0) -> dict | None:
    """The dataset pipeline as MindSpore's serialized form: ``{'op_type': ..., <params>, 'children': [...]}``."""
    if dataset is None or depth > 64 or not hasattr(dataset, "get_dataset_size"):
        return None
    name = type(dataset).__name__
    children = getattr(dataset, "children", None) or []
    # Sources keep their class name (``MnistDataset``); pipeline operations drop the suffix (``Batch``).
    op_type = name[:-len("Dataset")] if children and name.endswith("Dataset") else name
    node: dict = {"op_type": op_type}
    for attr in _DATASET_PARAMS:
        value = dataset.__dict__.get(attr, dataset.__dict__.get("_" + attr))
        if isinstance(value, (bool, int, float, str)) and not callable(value):
            node[attr] = value
    path = None
    for attr in ("dataset_dir", "dataset_file"):
        value = getattr(dataset, attr, None)
        if isinstance(value, str):
            path = value
    if path:
        node["dataset_dir"] = path
    operations = getattr(dataset, "operations", None)
    if isinstance(operations, (list, tuple)) and operations:
        node["operations"] = [{"tensor_op_name": type(op).__name__} for op in operations]
    node["children"] = [g for g in (_dataset_graph(c, depth + 1) for c in children) if g is not None]
    return node


def _lineage_value(kind: str, data: dict) -> Any:
    """The lineage ``data`` as the protobuf message ``SummaryRecord.add_value`` takes for plugin ``kind``."""
    if kind == "train_lineage":
        return _train_lineage_message(lineage_pb2.TrainLineage(), data)
    if kind == "eval_lineage":
        message = lineage_pb2.EvaluationLineage()
        if data.get(LineageMetadata.metrics) is not None:
            message.metric = data[LineageMetadata.metrics]
        if data.get(LineageMetadata.valid_dataset_path) is not None:
            message.valid_dataset.valid_dataset_path = data[LineageMetadata.valid_dataset_path]
        if data.get(LineageMetadata.valid_dataset_size) is not None:
            message.valid_dataset.valid_dataset_size = data[LineageMetadata.valid_dataset_size]
        return message
    if kind == "custom_lineage_data":
        message = lineage_pb2.UserDefinedInfo()
        for key, value in data.items():
            field = "map_int32" if isinstance(value, int) else "map_double" if isinstance(value, float) else "map_str"
            getattr(message.user_info.add(), field)[key] = value
        return message
    message = lineage_pb2.DatasetGraph()
    _dataset_graph_message(dict(data), message)
    return message


def _train_lineage_message(message: Any, lineage: dict) -> Any:
    get = lineage.get
    if get(LineageMetadata.train_network) is not None:
        message.algorithm.network = get(LineageMetadata.train_network)
    if get(LineageMetadata.loss) is not None:
        message.algorithm.loss = get(LineageMetadata.loss)
    if get(LineageMetadata.train_dataset_path) is not None:
        message.train_dataset.train_dataset_path = get(LineageMetadata.train_dataset_path)
    if get(LineageMetadata.train_dataset_size) is not None:
        message.train_dataset.train_dataset_size = get(LineageMetadata.train_dataset_size)
    message.model.path = get(LineageMetadata.model_path)
    message.model.size = get(LineageMetadata.model_size)
    hyper = message.hyper_parameters
    for key in (LineageMetadata.learning_rate, LineageMetadata.optimizer, LineageMetadata.loss_function,
                LineageMetadata.parallel_mode):
        if get(key) is not None:
            setattr(hyper, key, get(key))
    for key in (LineageMetadata.epoch, LineageMetadata.device_num, LineageMetadata.batch_size):
        if get(key) is not None:
            setattr(hyper, key, get(key))
    return message


def _dataset_graph_message(node: dict, message: Any) -> None:
    """Fill a ``DatasetGraph`` from the nested dict of :func:`_dataset_graph` (MindSpore's layout)."""
    for child in node.pop("children", []):
        _dataset_graph_message(child, message.children.add())
    for key, value in node.items():
        if key == "operations" and value:
            for operation in value:
                op_message = message.operations.add()
                for op_key, op_value in operation.items():
                    _set_parameter(op_message.operationParam, op_key, op_value)
        else:
            _set_parameter(message.parameter, key, value)


def _set_parameter(message: Any, key: str, value: Any) -> None:
    if isinstance(value, str):
        message.mapStr[key] = value
    elif isinstance(value, bool):
        message.mapBool[key] = value
    elif isinstance(value, int):
        message.mapInt[key] = value
    elif isinstance(value, float):
        message.mapDouble[key] = value

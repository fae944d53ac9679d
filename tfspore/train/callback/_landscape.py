"""SummaryLandscape: loss landscapes from the checkpoints that SummaryCollector saved (MindSpore's tool).

``SummaryCollector(collect_specified_data={'collect_landscape': {...}})`` saves the backbone's
parameters at each step (or epoch) of the ``intervals`` in ``<summary_dir>/ckpt_dir/`` and
writes ``train_metadata.json`` there at the end of training. :class:`SummaryLandscape` reads
them and evaluates the loss on a ``landscape_size x landscape_size`` grid of weights:

* ``create_landscape['train']``: for each interval, around its last checkpoint, along the two
  principal directions (PCA) of the checkpoints' trajectory, with the trajectory itself (the
  loss path) projected onto the plane;
* ``create_landscape['result']``: around the last checkpoint of the last interval, along two
  random directions.

Each direction is rescaled per parameter to the parameter's norm (only parameters whose name
contains ``weight`` or ``bias`` move). The loss is the ``'Loss'`` metric of the model that
``callback_fn`` returns, over ``num_samples`` samples of its dataset. Each landscape is written
through ``SummaryRecord`` with the ``landscape`` plugin under the tag ``landscape_[first, last]``
(its grid as tensors ``<tag>/x``, ``<tag>/y``, ``<tag>/z`` and a heat map), plus a contour
rendering ``<tag>/contour`` (image) with the loss path and the convergence point.

The evaluations run in the calling process, one after another, whatever ``device_ids`` holds:
forking a process that has initialised TensorFlow is unsafe, and TensorFlow already spreads
each evaluation over the CPU cores (or runs it on the accelerator).

Example:
    >>> from tfspore.train.callback import SummaryLandscape
    >>> def callback_fn():
    ...     network = LeNet5()
    ...     model = Model(network, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
    ...                   metrics={"Loss": Loss()})
    ...     return model, network, create_dataset(), {"Loss": Loss()}
    >>> landscape = SummaryLandscape('./summary/lenet_interval_1')
    >>> landscape.gen_landscapes_with_multi_process(callback_fn, device_ids=[0])  # doctest: +SKIP
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import stat
import time
from collections import defaultdict, namedtuple
from typing import Any, Callable, Iterator

import numpy as np

from tfspore._internal import validator
from tfspore._internal.proto import anf_ir_pb2
from tfspore._internal.proto import summary_pb2 as ms_summary_pb2
from tfspore.common.tensor import Tensor
from tfspore.train.callback._paths import make_directory
from tfspore.train.callback._landscape_render import (_COLORMAP, _colorize, _upsample, _to_pixel, _dot,  # noqa: F401
                                                      render_landscape)

_logger = logging.getLogger("tfspore")

Points = namedtuple("Points", ["x", "y", "z"])

_NP_TO_PROTO = {np.bool_: "DT_BOOL", np.int8: "DT_INT8", np.int16: "DT_INT16", np.int32: "DT_INT32",
                np.int64: "DT_INT64", np.uint8: "DT_UINT8", np.uint16: "DT_UINT16", np.uint32: "DT_UINT32",
                np.uint64: "DT_UINT64", np.float16: "DT_FLOAT16", np.float32: "DT_FLOAT32", np.float64: "DT_FLOAT64"}


def _fill_tensor(np_value: Any, message: Any) -> Any:
    """Fill an ANF-IR ``TensorProto`` (dims, data_type, float_data) from a numpy value."""
    np_value = np.asarray(np_value)
    proto = _NP_TO_PROTO.get(np_value.dtype.type)
    if proto is None:
        raise TypeError("No match for proto data type.")
    message.data_type = anf_ir_pb2.DataType.Value(proto)
    message.float_data.extend(np_value.reshape(-1).tolist())
    message.dims.extend(np_value.shape)
    return message


def _is_weight(name: str) -> bool:
    """Whether a parameter moves in the landscape (MindSpore: 'weight' or 'bias' in the name, not 'moment')."""
    return ("weight" in name or "bias" in name) and "moment" not in name


class Landscape:
    """One computed loss landscape, convertible to MindSpore's ``LossLandscape`` message.

    Args:
        intervals: the steps (or epochs) of the checkpoints it was made from.
        decomposition: ``'PCA'`` or ``'Random'``.
        landscape_points: the grid (x and y meshes, z the losses).
        convergence_point: the point of the final weights.
        path_points: the checkpoints projected onto the plane, with their losses (PCA only).
    """

    def __init__(self, intervals: list, decomposition: str, landscape_points: Points,
                 convergence_point: Points | None = None, path_points: Points | None = None) -> None:
        self.landscape_points = landscape_points
        self.decomposition = decomposition
        self.intervals = intervals
        self.num_samples = 2048
        self.convergence_point = convergence_point
        self.path_points = path_points
        self.unit = "step"
        self.step_per_epoch = 1

    def set_convergence_point(self, convergence_point: Points) -> None:
        """Set the convergence point."""
        self.convergence_point = convergence_point

    def transform_to_loss_landscape_msg(self, landscape_data: "Landscape") -> Any:
        """The ``LossLandscape`` message of ``landscape_data`` (x and y as 1-D axes, z as the grid).

        Args:
            landscape_data: the landscape to convert (usually ``self``).

        Returns:
            LossLandscape: the message.
        """
        msg = ms_summary_pb2.LossLandscape()
        points = landscape_data.landscape_points
        _fill_tensor(points.x[0], msg.landscape.x)
        _fill_tensor(points.y[:, 0], msg.landscape.y)
        _fill_tensor(points.z, msg.landscape.z)
        if landscape_data.path_points:
            msg.loss_path.intervals.extend(landscape_data.intervals)
            _fill_tensor(landscape_data.path_points.x, msg.loss_path.points.x)
            _fill_tensor(landscape_data.path_points.y, msg.loss_path.points.y)
            _fill_tensor(landscape_data.path_points.z, msg.loss_path.points.z)
        if landscape_data.convergence_point:
            _fill_tensor(landscape_data.convergence_point.x, msg.convergence_point.x)
            _fill_tensor(landscape_data.convergence_point.y, msg.convergence_point.y)
            _fill_tensor(landscape_data.convergence_point.z, msg.convergence_point.z)
        msg.metadata.decomposition = landscape_data.decomposition
        msg.metadata.unit = self.unit
        msg.metadata.step_per_epoch = self.step_per_epoch
        return msg


class SummaryLandscape:
    """Creates loss landscapes (PCA or random directions) from SummaryCollector's checkpoints.

    Args:
        summary_dir (str): The summary directory of the training run (its ``ckpt_dir`` holds the
            checkpoints and ``train_metadata.json``); the landscapes are written there too.

    Example:
        >>> summary_landscape = SummaryLandscape('./summary/lenet_interval_1')
        >>> summary_landscape.gen_landscapes_with_multi_process(
        ...     callback_fn, collect_landscape={"landscape_size": 4, "create_landscape": {"train": True,
        ...     "result": False}, "num_samples": 2048, "intervals": [[1, 2, 3, 4, 5]]},
        ...     device_ids=[0])  # doctest: +SKIP
    """

    def __init__(self, summary_dir: str) -> None:
        self._summary_dir = os.path.realpath(summary_dir)
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        make_directory(self._ckpt_dir)
        self._model_params_file_map: dict = {}
        self._epoch_group: dict = defaultdict(list)
        self._metric_fns: Any = None

    def clean_ckpt(self) -> None:
        """Remove ``<summary_dir>/ckpt_dir`` (the checkpoints and ``train_metadata.json``)."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    def gen_landscapes_with_multi_process(self, callback_fn: Callable, collect_landscape: dict | None = None,
                                          device_ids: list | None = None, output: str | None = None) -> None:
        """Compute the landscapes and write them to a summary file.

        Args:
            callback_fn: a function without arguments returning ``(model, network, dataset,
                metrics)``: a Model whose ``train_network`` gives the loss (a Model without
                optimizer), its network, the dataset to evaluate on and a dict of metrics with a
                ``'Loss'`` entry.
            collect_landscape: overrides of ``train_metadata.json``: ``landscape_size`` (3..256),
                ``create_landscape`` (``{'train': bool, 'result': bool}``), ``num_samples`` and
                ``intervals`` (lists of at least 3 steps or epochs). Default: None (as saved).
            device_ids: ids (0..7) of the devices. The evaluations run in this process. Default:
                None (``[0]``).
            output: the directory of the summary file. Default: None (``summary_dir``).

        Raises:
            TypeError: for arguments of the wrong type.
            ValueError: for invalid values, or an inconsistent ``train_metadata.json``.
            FileNotFoundError: when ``train_metadata.json`` is missing.
        """
        from tfspore.train.summary import SummaryRecord  # pylint: disable=import-outside-toplevel
        if device_ids is None:
            device_ids = [0]
        self._check_device_ids(device_ids)
        if len(device_ids) > 1:
            _logger.info("SummaryLandscape evaluates the landscapes in this process; device_ids %s are accepted.",
                         device_ids)
        if collect_landscape is not None:
            validator.check_type(collect_landscape, [dict], "collect_landscape", self.__class__.__name__)
            self._check_collect_landscape_data(collect_landscape)
        json_path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if collect_landscape is not None:
            if not os.path.exists(json_path):
                raise FileNotFoundError(f'For "{self.__class__.__name__}", train_metadata.json file path of '
                                        f'{json_path} not exists.')
            with open(json_path, "r", encoding="utf-8") as handle:
                data = json.load(handle)
            for key, value in collect_landscape.items():
                if key in data:
                    data[key] = value
            if "intervals" in collect_landscape:
                self._epoch_group = defaultdict(list)
                for i, interval in enumerate(collect_landscape["intervals"]):
                    self._epoch_group[i].extend(interval)
                data["epoch_group"] = self._epoch_group
            os.chmod(json_path, stat.S_IRUSR | stat.S_IWUSR)
            with open(json_path, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.chmod(json_path, stat.S_IRUSR)

        output_path = os.path.realpath(output) if output is not None else self._summary_dir
        with SummaryRecord(output_path) as summary_record:
            for interval, landscape, image in self._list_landscapes(callback_fn=callback_fn):
                tag = f"landscape_{interval}"
                summary_record.add_value("landscape", tag, landscape)
                summary_record.add_value("image", f"{tag}/contour", Tensor(image))
                summary_record.record(0)
                summary_record.flush()

    # ------------------------------------------------------------------ computing
    def _list_landscapes(self, callback_fn: Callable) -> Iterator[tuple]:
        """Yield ``(interval, LossLandscape message, NCHW contour image)`` for each landscape."""
        json_path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if not os.path.exists(json_path):
            raise FileNotFoundError(f'For "{self.__class__.__name__}", train_metadata.json file does not exist under '
                                    'the path, please use summary_collector to collect information to create the '
                                    'json file')
        with open(json_path, "r", encoding="utf-8") as handle:
            data = json.load(handle)
        self._check_json_file_data(data)
        self._epoch_group = data["epoch_group"]
        self._model_params_file_map = data["model_params_file_map"]
        kwargs = {"proz": 0.2, "landscape_size": data["landscape_size"], "callback_fn": callback_fn,
                  "num_samples": data["num_samples"]}
        start = time.time()
        for name, make in (("train", self._create_landscape_by_pca), ("result", self._create_landscape_by_random)):
            if not data["create_landscape"][name]:
                continue
            intervals = list(self._epoch_group.values())
            groups = intervals if name == "train" else [[intervals[-1][-1]]]
            for epochs in groups:
                _logger.info("Start to create the landscape of checkpoints %s, decomposition is %s.", epochs,
                             "PCA" if name == "train" else "Random")
                landscape = make(epochs=epochs, **kwargs)
                landscape.unit = data["unit"]
                landscape.step_per_epoch = data["step_per_epoch"]
                landscape.num_samples = data["num_samples"]
                interval = [epochs[0], epochs[-1]] if name == "train" else epochs
                image = render_landscape(landscape)
                yield interval, landscape.transform_to_loss_landscape_msg(landscape), image
        _logger.info("Total use time: %s s.", round(time.time() - start, 6))

    def _get_model_params(self, epochs: list) -> list:
        from tfspore.train.serialization import load_checkpoint  # pylint: disable=import-outside-toplevel
        parameters = []
        for epoch in epochs:
            file_path = self._model_params_file_map.get(str(epoch))
            parameters.append([(name, p.asnumpy()) for name, p in load_checkpoint(file_path).items()])
        return parameters

    def _create_landscape_by_pca(self, epochs: list, proz: float, landscape_size: int, callback_fn: Callable,
                                 num_samples: int) -> Landscape:
        multi_parameters = self._get_model_params(epochs)
        matrix = np.vstack([np.concatenate([np.ravel(v) for n, v in params if _is_weight(n)] or [np.zeros(0)])
                            for params in multi_parameters])
        matrix = matrix[:-1] - matrix[-1]
        components = _pca_directions(matrix.T, n_comps=2)
        v_ori, w_ori = components[:, 0], components[:, -1]
        final_params = multi_parameters[-1]
        v_list, w_list = _normalize(final_params, _reshape_vector(v_ori, final_params),
                                    _reshape_vector(w_ori, final_params))
        weights_final = [v for n, v in final_params if _is_weight(n)]
        v_flat = _flat([v for (n, _), v in zip(final_params, v_list) if _is_weight(n)])
        w_flat = _flat([w for (n, _), w in zip(final_params, w_list) if _is_weight(n)])
        coefs = _calc_coefs(multi_parameters, weights_final, v_flat, w_flat)
        coefs_x, coefs_y = coefs[:, 0], coefs[:, 1]
        x_axis = np.linspace(coefs_x.min() - proz * (coefs_x.max() - coefs_x.min()),
                             coefs_x.max() + proz * (coefs_x.max() - coefs_x.min()), landscape_size)
        y_axis = np.linspace(coefs_y.min() - proz * (coefs_y.max() - coefs_y.min()),
                             coefs_y.max() + proz * (coefs_y.max() - coefs_y.min()), landscape_size)
        x_points, y_points = np.meshgrid(x_axis, y_axis)
        paths, z_points = self._cont_loss_wrapper(callback_fn, final_params, v_list, w_list, x_points, y_points,
                                                  num_samples, coefs=coefs)
        paths = np.array(paths)
        landscape_points = Points(x_points, y_points, np.vstack(z_points))
        path_points = Points(coefs_x, coefs_y, paths.T[0])
        zero_index = int(np.argmin(np.abs(path_points.x)))
        convergence_point = Points(np.array([0]), np.array([0]), np.array([path_points.z[zero_index]]))
        return Landscape(intervals=epochs, decomposition="PCA", landscape_points=landscape_points,
                         path_points=path_points, convergence_point=convergence_point)

    def _create_landscape_by_random(self, epochs: list, proz: float, landscape_size: int, callback_fn: Callable,
                                    num_samples: int) -> Landscape:
        final_params = self._get_model_params(epochs)[-1]
        total = sum(np.size(v) for _, v in final_params)
        v_rand, w_rand = np.random.normal(size=total), np.random.normal(size=total)
        v_list, w_list = _normalize(final_params, _reshape_random(v_rand, final_params),
                                    _reshape_random(w_rand, final_params))
        bound = 5
        x_axis = np.linspace(-proz * bound, proz * bound, landscape_size)
        y_axis = np.linspace(-proz * bound, proz * bound, landscape_size)
        x_points, y_points = np.meshgrid(x_axis, y_axis)
        _, z_points = self._cont_loss_wrapper(callback_fn, final_params, v_list, w_list, x_points, y_points,
                                              num_samples)
        landscape_points = Points(x_points, y_points, np.vstack(z_points))
        mid = len(x_axis) // 2
        convergence_point = Points(np.array([x_axis[mid]]), np.array([y_axis[mid]]),
                                   np.array([z_points[mid][len(y_axis) // 2]]))
        return Landscape(intervals=epochs, decomposition="Random", landscape_points=landscape_points,
                         convergence_point=convergence_point)

    def _cont_loss_wrapper(self, callback_fn: Callable, final_params: list, v_list: list, w_list: list,
                           x_points: np.ndarray, y_points: np.ndarray, num_samples: int,
                           coefs: np.ndarray | None = None) -> tuple[list, list]:
        model, network, valid_dataset, metrics = callback_fn()
        num_batches = num_samples // valid_dataset.get_batch_size()
        valid_dataset = valid_dataset.take(num_batches)
        by_name = {p.name: p for p in network.get_parameters()}
        targets = [(by_name.get(name), value, v, w) for (name, value), v, w in zip(final_params, v_list, w_list)]
        paths = []
        if coefs is not None:
            for i, coef in enumerate(coefs):
                loss = self._cont_loss(valid_dataset, model, metrics, targets, [coef[0]], coef[1], path=True)
                paths.append(loss)
                print(f"Drawing landscape path total progress is {i + 1}/{len(coefs)}, landscape path loss is "
                      f"{loss[0]}.")
        z_points = []
        for i, y_point in enumerate(y_points):
            print(f"Drawing landscape total progress: {i + 1}/{len(y_points)}.")
            z_points.append(self._cont_loss(valid_dataset, model, metrics, targets, x_points[i], y_point[0]))
        return paths, z_points

    def _cont_loss(self, dataset: Any, model: Any, metrics: Any, targets: list, alphas: Any, beta: float,
                   path: bool = False) -> np.ndarray:
        """The loss at ``final + alpha * v + beta * w`` for each alpha."""
        vals = []
        for i, alpha in enumerate(alphas):
            for param, value, v, w in targets:
                if param is not None:
                    param.set_data(Tensor((value + alpha * v + beta * w).astype(param.asnumpy().dtype)))
            loss = self._loss_compute(model, dataset, metrics)
            if not path:
                print(f"Current local landscape progress is {i + 1}/{len(alphas)}, landscape loss is "
                      f"{loss.get('Loss')}.")
            vals.append(loss.get("Loss"))
        return np.array(vals)

    def _loss_compute(self, model: Any, data: Any, metrics: Any) -> dict:
        from tfspore.train.dataset_helper import DatasetHelper  # pylint: disable=import-outside-toplevel
        from tfspore.train.metrics import get_metrics  # pylint: disable=import-outside-toplevel
        self._metric_fns = get_metrics(metrics)
        for metric in self._metric_fns.values():
            metric.clear()
        network = model.train_network
        network.set_train(True)
        for inputs in DatasetHelper(data, dataset_sink_mode=False):
            outputs = network(*(inputs if isinstance(inputs, (list, tuple)) else (inputs,)))
            if isinstance(outputs, Tensor):
                outputs = (outputs,)
            if not isinstance(outputs, tuple):
                raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}. Modify 'output' "
                                 "to Tensor or tuple. ")
            for metric in self._metric_fns.values():
                metric.update(outputs[0])
        return {key: value.eval() for key, value in self._metric_fns.items()}

    # ------------------------------------------------------------------ validation
    def _check_unit(self, unit: Any) -> None:
        validator.check_type(unit, str, "unit", self.__class__.__name__)
        if unit not in ("step", "epoch"):
            raise ValueError(f'For "{self.__class__.__name__}", the "unit" in train_metadata.json should be step or '
                             f'epoch, but got the: {unit}')

    def _check_landscape_size(self, landscape_size: Any) -> None:
        validator.check_type(landscape_size, int, "landscape_size", self.__class__.__name__)
        if landscape_size < 3 or landscape_size > 256:
            raise ValueError(f'For "{self.__class__.__name__}", "landscape_size" in train_metadata.json should be '
                             f'between 3 and 256, but got the: {landscape_size}')

    def _check_create_landscape(self, create_landscape: Any) -> None:
        validator.check_type(create_landscape, dict, "create_landscape", self.__class__.__name__)
        for param, value in create_landscape.items():
            if param not in ("train", "result"):
                raise ValueError(f'For "{self.__class__.__name__}", the key of "create_landscape" should be in '
                                 f'["train", "result"], but got the: {param}.')
            if len(create_landscape) < 2:
                raise ValueError(f'For "{self.__class__.__name__}", the key of "create_landscape" should be train '
                                 f'and result, but only got the: {param}')
            validator.check_type(value, bool, param, self.__class__.__name__)

    def _check_intervals(self, intervals: Any) -> None:
        validator.check_type(intervals, list, "intervals", self.__class__.__name__)
        for interval in intervals:
            validator.check_type(interval, list, "each interval in intervals", self.__class__.__name__)
            if len(interval) < 3:
                raise ValueError(f'For "{self.__class__.__name__}", the length of each list in "intervals" should '
                                 f'not be less than three, but got the: {interval}.')
            for j in interval:
                if not isinstance(j, int) or isinstance(j, bool):
                    raise TypeError(f'For "{self.__class__.__name__}", the type of each value in "intervals" should '
                                    f'be int, but got the: {type(j)}.')

    def _check_device_ids(self, device_ids: Any) -> None:
        validator.check_type(device_ids, list, "device_ids", self.__class__.__name__)
        for i in device_ids:
            if not isinstance(i, int) or isinstance(i, bool):
                raise TypeError(f'For "{self.__class__.__name__}.gen_landscapes_with_multi_process", the parameter '
                                f'"device_ids" type should be int, but got the: {type(i)}.')
            if i < 0 or i > 7:
                raise ValueError(f'For "{self.__class__.__name__}.gen_landscapes_with_multi_process", the parameter '
                                 f'"device_ids" should be between 0 and 7, but got {i}.')

    def _check_collect_landscape_data(self, collect_landscape: dict) -> None:
        for param in collect_landscape:
            if param not in ("landscape_size", "unit", "num_samples", "create_landscape", "intervals"):
                raise ValueError(f'For "{self.__class__.__name__}", the key of collect landscape should be '
                                 f'landscape_size, unit, num_samples create_landscape or intervals, but got the: '
                                 f'{param}. ')
        if "landscape_size" in collect_landscape:
            self._check_landscape_size(collect_landscape["landscape_size"])
        if "unit" in collect_landscape:
            self._check_unit(collect_landscape["unit"])
        if "num_samples" in collect_landscape:
            validator.check_type(collect_landscape["num_samples"], int, "num_samples", self.__class__.__name__)
        if "create_landscape" in collect_landscape:
            self._check_create_landscape(collect_landscape["create_landscape"])
        if "intervals" in collect_landscape:
            self._check_intervals(collect_landscape["intervals"])

    def _check_json_file_data(self, json_file_data: dict) -> None:
        file_key = ["epoch_group", "model_params_file_map", "step_per_epoch", "unit", "num_samples",
                    "landscape_size", "create_landscape"]
        for key in json_file_data:
            if key not in file_key:
                raise ValueError(f'"train_metadata" json file should be {file_key}, but got the: {key}')
        model_params_file_map = json_file_data["model_params_file_map"]
        for epochs in json_file_data["epoch_group"].values():
            if len(epochs) < 3:
                raise ValueError(f'For "{self.__class__.__name__}", the "epoch_group" in train_metadata.json, length '
                                 f'of each list in "epoch_group" should not be less than 3, but got: {len(epochs)}. ')
            for epoch in epochs:
                if str(epoch) not in model_params_file_map:
                    raise ValueError(f'For "{self.__class__.__name__}", the "model_params_file_map" in '
                                     f'train_metadata.json does not exist {epoch}th checkpoint in intervals.')
        validator.check_type(json_file_data["step_per_epoch"], int, "step_per_epoch", self.__class__.__name__)
        self._check_landscape_size(json_file_data["landscape_size"])
        self._check_unit(json_file_data["unit"])
        validator.check_type(json_file_data["num_samples"], int, "num_samples", self.__class__.__name__)
        self._check_create_landscape(json_file_data["create_landscape"])


# ---------------------------------------------------------------------------------- the math
def _pca_directions(x: np.ndarray, n_comps: int) -> np.ndarray:
    """The first ``n_comps`` principal components of ``x`` (rows are samples), scaled by their singular values.

    ``u, s, vt = svd(x - mean(x, axis=0))``, the signs fixed so that each column of ``u`` has its
    largest absolute entry positive; returns ``u[:, :n] * s[:n]`` (a zero singular value is
    replaced by 1e-19).
    """
    x = np.array(x, dtype=np.float64)
    x -= x.mean(axis=0)
    u, s, _ = np.linalg.svd(x, full_matrices=False)
    rows = np.argmax(np.abs(u), axis=0)
    signs = np.sign(u[rows, np.arange(u.shape[1])])
    signs[signs == 0] = 1.0
    u *= signs
    s = np.where(s == 0, 1e-19, s)
    if u.shape[1] < n_comps:  # fewer checkpoints than components: pad with zero directions
        u = np.pad(u, ((0, 0), (0, n_comps - u.shape[1])))
        s = np.pad(s, (0, n_comps - s.shape[0]), constant_values=1e-19)
    return u[:, :n_comps] * s[:n_comps]


def _reshape_vector(vector: np.ndarray, params: list) -> list:
    """Cut a flat vector over the moving parameters into their shapes (the others keep their values)."""
    out, index = [], 0
    for name, value in params:
        if not _is_weight(name):
            out.append(np.array(value, dtype=np.float32))
            continue
        out.append(np.array(vector[index:index + value.size].reshape(value.shape), dtype=np.float32))
        index += value.size
    return out


def _reshape_random(vector: np.ndarray, params: list) -> list:
    out, index = [], 0
    for _, value in params:
        out.append(np.array(vector[index:index + np.size(value)].reshape(np.shape(value)), dtype=np.float32))
        index += np.size(value)
    return out


def _normalize(params: list, v_list: list, w_list: list) -> tuple[list, list]:
    """Scale each parameter's part of the directions to the parameter's norm; zero for the others."""
    for i, (name, value) in enumerate(params):
        if _is_weight(name):
            norm = np.linalg.norm(value)
            v_list[i] = v_list[i] * (norm / np.linalg.norm(v_list[i]))
            w_list[i] = w_list[i] * (norm / np.linalg.norm(w_list[i]))
        else:
            v_list[i] = v_list[i] * 0
            w_list[i] = w_list[i] * 0
    return v_list, w_list


def _flat(arrays: list) -> np.ndarray:
    return np.concatenate([np.ravel(a) for a in arrays]) if arrays else np.zeros(0)


def _calc_coefs(parameter_group: list, final_weights: list, v_vector: np.ndarray, w_vector: np.ndarray) -> np.ndarray:
    """The least-squares (alpha, beta) of each checkpoint's offset from the final weights in the (v, w) plane."""
    matrix = np.vstack([v_vector, w_vector]).T
    final = _flat(final_weights)
    coefs = []
    for params in parameter_group:
        offset = _flat([v for n, v in params if _is_weight(n)]) - final
        coefs.append(np.hstack(np.linalg.lstsq(matrix, offset, rcond=None)[0]))
    return np.array(coefs)



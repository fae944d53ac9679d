"""SummaryCollector: records a training or evaluation run for TensorBoard (MindSpore's callback).

The collector owns a :class:`tfspore.train.summary.SummaryRecord` while ``Model.train``,
``Model.eval`` or ``Model.fit`` runs (it is a context manager, entered by the callback list),
and writes with MindSpore's tag names:

* ``loss/auto`` (scalar): the mean of the network's first output;
* ``learning_rate/auto`` (scalar, beyond MindSpore): the optimizer's learning rate of the step;
* ``<parameter name>/auto`` (histogram): the first five optimizer parameters, or those whose
  names match ``histogram_regular``;
* ``input_data/auto`` (image): the first input of the batch when it is an NCHW image batch;
* ``train_network/auto`` (graph, GRAPH_MODE): the compiled training step;
* ``<metric name>/auto`` (scalar, beyond MindSpore): the metrics of ``Model.eval`` (at step 0,
  where MindSpore records the end of a run), and the metrics that ``cb_params.metrics`` holds at
  the end of a training epoch (the validation of ``Model.fit``), at that epoch's last step;
* train / eval lineage, custom lineage data and the dataset graph (TensorBoard's HParams and
  text dashboards).

Collection follows MindSpore: the first step always, then every ``collect_freq`` steps (in
dataset sink mode, every ``collect_freq`` epochs); ``epoch_end`` collects again, so the last step
of an epoch can be recorded twice. With ``collect_landscape`` (on by default) the backbone's
parameters are saved as ``<summary_dir>/ckpt_dir/<Backbone>_<n>_<unit>.ckpt`` for each step (or
epoch) in the intervals, and ``train_metadata.json`` is written at the end of training, for
:class:`SummaryLandscape`.

Example:
    >>> from tfspore.train.callback import SummaryCollector
    >>> summary_collector = SummaryCollector(summary_dir='./summary_dir', collect_freq=10)
    >>> model.train(1, ds_train, callbacks=[summary_collector], dataset_sink_mode=False)  # doctest: +SKIP
"""
from __future__ import annotations

import json
import logging
import os
import re
import stat
from collections import defaultdict
from typing import Any, Callable

import numpy as np

from tfspore import context as _context
from tfspore._internal import rank_dirs, validator
from tfspore._internal.proto import lineage_pb2
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.train.callback._callback import Callback, RunContext
from tfspore.train.callback._paths import make_directory

_logger = logging.getLogger("tfspore")

HYPER_CONFIG_ENV_NAME = "MINDINSIGHT_HYPER_CONFIG"
HYPER_CONFIG_LEN_LIMIT = 100000
_TRAIN, _EVAL = "train", "eval"


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


def _lock_write(path: str, write: Callable[[str], None]) -> None:
    """Write ``path`` once (under an flock on ``path.lock``) unless it exists; errors are logged."""
    lock_file = f"{path}.lock"
    try:
        import fcntl  # pylint: disable=import-outside-toplevel
    except ImportError:  # not Linux
        fcntl = None
    try:
        with os.fdopen(os.open(lock_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IWUSR), "w") as handle:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            if not os.path.isfile(path):
                write(path)
    except OSError as exc:
        _logger.error("Write %s failed, detail: %s", path, exc)
    try:
        if os.path.isfile(lock_file):
            os.remove(lock_file)
    except OSError:
        _logger.warning("The lock file %s has been removed.", lock_file)


class SummaryCollector(Callback):
    """Collects the loss, learning rate, weights, input images, graph and lineage of a run for TensorBoard.

    MindSpore's ``SummaryCollector``: use it in ``Model.train``, ``Model.eval`` or ``Model.fit``
    (in sink mode and not, GRAPH and PYNATIVE mode); the event files in ``summary_dir`` show with
    ``tensorboard --logdir <summary_dir>``. Only one SummaryCollector may be in a callback list
    (only one ``SummaryRecord`` can be open at a time). Data of the summary ops
    (``ops.ScalarSummary``, ...) is always recorded at the collection steps.

    Args:
        summary_dir (str): The directory of the summary files, created if missing. In a job of
            several processes it is the run of the rank its name ends with (rank 0 when it ends
            with no rank); the other ranks write into ``summary_dir/rank_<rank>``, each its own
            TensorBoard run with its own ``ckpt_dir``.
        collect_freq (int): Collect every ``collect_freq`` steps (epochs in dataset sink mode); the
            first step is always collected. Default: 10.
        num_process (int): Accepted for compatibility (MindSpore's writer processes). Default: 32.
        collect_specified_data (Union[None, dict]): What to collect. Keys: ``collect_metric``,
            ``collect_graph``, ``collect_train_lineage``, ``collect_eval_lineage``,
            ``collect_input_data``, ``collect_dataset_graph`` (bools), ``histogram_regular`` (a
            regular expression over parameter names, or None for the first five parameters) and
            ``collect_landscape`` (None, or a dict of ``landscape_size``, ``unit``,
            ``num_samples``, ``create_landscape``, ``intervals``). Default: None (collect all).
        keep_default_action (bool): Whether the keys not given in ``collect_specified_data`` keep
            their default (True) or are not collected (False). Default: True.
        custom_lineage_data (Union[dict, None]): User data (str keys; int, float or str values)
            recorded once as custom lineage. Default: None.
        collect_tensor_freq (Optional[int]): As ``collect_freq`` for ``TensorSummary`` data only;
            by default at most 20 steps of it are collected. Default: None.
        max_file_size (Optional[int]): The largest size in bytes of each summary file. Default: None.
        export_options (Union[None, dict]): ``{'tensor_format': 'npy'}`` also exports the tensor
            data as ``.npy`` files. Default: None.

    Raises:
        TypeError: for an argument of the wrong type.
        ValueError: for a non-positive frequency or size, an unknown key, or a bad regular expression.

    Example:
        >>> from tfspore.train.callback import SummaryCollector
        >>> specified = {'collect_metric': False, 'histogram_regular': '^conv1.*'}
        >>> summary_collector = SummaryCollector(summary_dir='./summary_dir', collect_specified_data=specified)
        >>> model.train(1, ds_train, callbacks=[summary_collector], dataset_sink_mode=False)  # doctest: +SKIP
    """

    _DEFAULT_SPECIFIED_DATA = {
        "collect_metric": True,
        "collect_graph": True,
        "collect_train_lineage": True,
        "collect_eval_lineage": True,
        "collect_input_data": True,
        "collect_dataset_graph": True,
        "histogram_regular": None,
        "collect_landscape": {"landscape_size": 40,
                              "unit": "step",
                              "num_samples": 2048,
                              "create_landscape": {"train": True, "result": True},
                              "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                            [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]},
    }

    def __init__(self, summary_dir: str, collect_freq: int = 10, num_process: int = 32,
                 collect_specified_data: dict | None = None, keep_default_action: bool = True,
                 custom_lineage_data: dict | None = None, collect_tensor_freq: int | None = None,
                 max_file_size: int | None = None, export_options: dict | None = None) -> None:
        super().__init__()
        # in a job of several processes: this rank's own run folder (see SummaryRecord)
        self._summary_dir = make_directory(rank_dirs.rank_directory(make_directory(summary_dir, "summary_dir")))
        self._record: Any = None

        self._check_positive("collect_freq", collect_freq)
        self._collect_freq = collect_freq
        self._check_positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        self._collect_tensor_freq = collect_tensor_freq
        self._tensor_collect_range: Any = None
        self._check_positive("max_file_size", max_file_size, allow_none=True)
        self._max_file_size = max_file_size
        from tfspore.train.summary.summary_record import process_export_options  # pylint: disable=C0415
        self._export_options = process_export_options(export_options)
        validator.check_type(keep_default_action, bool, "keep_default_action", "SummaryCollector")

        self._collect_specified_data = self._process_specified_data(collect_specified_data, keep_default_action)
        _logger.debug("For 'collect_specified_data' the value after processing is: %s.",
                     self._collect_specified_data)

        landscape = self._collect_specified_data.get("collect_landscape", None)
        validator.check_type(landscape, [dict, type(None)], "collect_landscape", "SummaryCollector")
        self._is_collect_landscape = bool(landscape)
        self._model_params_file_map: dict = {}
        self._epoch_group: dict = defaultdict(list)
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        if self._is_collect_landscape:
            self._check_collect_landscape_data(landscape)
            make_directory(self._ckpt_dir)
            for i, interval in enumerate(landscape.get("intervals")):
                self._epoch_group[i].extend(interval)

        self._custom_lineage_data = self._process_custom_lineage_data(custom_lineage_data)
        self._num_process = num_process
        self._temp_optimizer: Any = None
        self._has_saved_graph = False
        self._has_saved_custom_data = False
        self._is_parse_loss_success = True
        self._first_step = True
        self._dataset_sink_mode = True

    # ------------------------------------------------------------------ context manager
    def __enter__(self) -> "SummaryCollector":
        """Open the SummaryRecord of this run (a new summary file per train/eval call)."""
        from tfspore.train.summary import SummaryRecord  # pylint: disable=import-outside-toplevel
        self._record = SummaryRecord(log_dir=self._summary_dir, max_file_size=self._max_file_size,
                                     raise_exception=False, export_options=self._export_options)
        self._first_step, self._dataset_sink_mode = True, True
        return self

    def __exit__(self, *err: Any) -> None:
        """Close the SummaryRecord (all pending data is written)."""
        if self._record is not None:
            self._record.close()

    # ------------------------------------------------------------------ validation
    def _check_positive(self, name: str, value: Any, allow_none: bool = False) -> None:
        if allow_none and value is None:
            return
        validator.check_positive_int(value, name, self.__class__.__name__)

    def _process_specified_data(self, specified_data: Any, action: bool) -> dict:
        validator.check_type(specified_data, [dict, type(None)], "collect_specified_data", "SummaryCollector")
        if specified_data is None:
            return dict(self._DEFAULT_SPECIFIED_DATA) if action else {}
        for param_name in specified_data:
            validator.check_type(param_name, [str], param_name, "SummaryCollector")
        unexpected = set(specified_data) - set(self._DEFAULT_SPECIFIED_DATA)
        if unexpected:
            raise ValueError(f'For "{self.__class__.__name__}", the keys {unexpected} of `collect_specified_data` are '
                             f'unsupported, expect the follow keys: {list(self._DEFAULT_SPECIFIED_DATA.keys())}')
        if "histogram_regular" in specified_data:
            regular = specified_data.get("histogram_regular")
            validator.check_type(regular, (str, type(None)), "histogram_regular", "SummaryCollector")
            if isinstance(regular, str):
                try:
                    re.match(regular, "")
                except re.error as exc:
                    raise ValueError(f"For `collect_specified_data`, the value of `histogram_regular` is not a valid "
                                     f"regular expression. Detail: {exc}. Got {regular!r}.") from exc
        bool_items = set(self._DEFAULT_SPECIFIED_DATA) - {"histogram_regular", "collect_landscape"}
        for item in sorted(bool_items):
            if item in specified_data:
                validator.check_type(specified_data.get(item), bool, item, "SummaryCollector")
        if action:
            result = dict(self._DEFAULT_SPECIFIED_DATA)
            result.update(specified_data)
            return result
        return dict(specified_data)

    def _check_collect_landscape_data(self, collect_landscape: dict) -> None:
        name = self.__class__.__name__
        defaults = self._DEFAULT_SPECIFIED_DATA["collect_landscape"]
        unexpected = set(collect_landscape) - set(defaults)
        if unexpected:
            raise ValueError(f'For "{name}", the keys {unexpected} of `collect_landscape` are unsupported, expect the '
                             f'follow keys: {list(defaults.keys())}')
        size = collect_landscape.get("landscape_size", 40)
        validator.check_type(size, int, "landscape_size", "SummaryCollector")
        if size < 3 or size > 256:
            raise ValueError(f'For "{name}", the "landscape_size" in collect_specified_data should be less than 256 '
                             f'and more than 3, but got the: {size}')
        unit = collect_landscape.get("unit", "step")
        validator.check_type(unit, str, "unit", "SummaryCollector")
        if unit not in ("step", "epoch"):
            raise ValueError(f'For "{name}", unit in collect_specified_data should be step or epoch, but got the: '
                             f'{unit}.')
        validator.check_type(collect_landscape.get("num_samples", 2048), int, "num_samples", "SummaryCollector")
        create = collect_landscape.get("create_landscape", {"train": True, "result": True})
        validator.check_type(create, dict, "create_landscape", "SummaryCollector")
        for param, value in create.items():
            if param not in ("train", "result"):
                raise ValueError(f'For "{name}", the key to create landscape should be in ["train", "result"], but '
                                 f'got the: {param}.')
            validator.check_type(value, bool, param, "SummaryCollector")
        intervals = collect_landscape.get("intervals")
        validator.check_type(intervals, list, "intervals", "SummaryCollector")
        for interval in intervals:
            validator.check_type(interval, list, "each interval in intervals", "SummaryCollector")
            if len(interval) < 3:
                raise ValueError(f'For "{name}", the length of each list in "intervals" should not be less than '
                                 f'three, but got the: {interval}')
            for j in interval:
                if not isinstance(j, int):
                    raise TypeError(f'For "{name}", the value of each list in "intervals" should be int, but got '
                                    f'the: {type(j)}')

    def _process_custom_lineage_data(self, custom_lineage_data: Any) -> dict:
        if custom_lineage_data is None:
            custom_lineage_data = {}
        self._check_custom_lineage_type("custom_lineage_data", custom_lineage_data)
        auto = self._collect_optimizer_custom_lineage_data()
        self._check_custom_lineage_type("auto_custom_lineage_data", auto)
        auto.update(custom_lineage_data)  # the user's values win
        return auto

    @staticmethod
    def _check_custom_lineage_type(param_name: str, custom_lineage: Any) -> None:
        validator.check_type(custom_lineage, [dict, type(None)], param_name, "SummaryCollector")
        for key, value in custom_lineage.items():
            validator.check_type(key, str, f"keys of {param_name}", "SummaryCollector")
            validator.check_type(value, (int, str, float), f"{param_name}[{key!r}]", "SummaryCollector")

    @staticmethod
    def _collect_optimizer_custom_lineage_data() -> dict:
        """The ``custom_lineage_data`` of the ``MINDINSIGHT_HYPER_CONFIG`` environment variable, if set."""
        hyper_config = os.environ.get(HYPER_CONFIG_ENV_NAME)
        if hyper_config is None:
            return {}
        if len(hyper_config) > HYPER_CONFIG_LEN_LIMIT:
            _logger.warning("The 'MINDINSIGHT_HYPER_CONFIG' of environment variable is too long. The length limit is "
                            "%s, the length of hyper_config is %s.", HYPER_CONFIG_LEN_LIMIT, len(hyper_config))
            return {}
        try:
            hyper_config = json.loads(hyper_config)
        except (TypeError, json.JSONDecodeError) as exc:
            _logger.warning("The 'MINDINSIGHT_HYPER_CONFIG' of environment variable decode error. Detail: %s.", exc)
            return {}
        data = hyper_config.get("custom_lineage_data") if isinstance(hyper_config, dict) else None
        return dict(data) if isinstance(data, dict) else {}

    # ------------------------------------------------------------------ hooks
    def begin(self, run_context: RunContext) -> None:
        """Check the callback list and set the record's mode (train or eval)."""
        cb_params = run_context.original_args()
        self._check_callbacks(cb_params)
        if cb_params.mode not in (_TRAIN, _EVAL):
            raise ValueError("Only support `train` (model.train) and `eval` (model.eval) mode, but got "
                             f"`{cb_params.mode}` mode.")
        self._record.set_mode(cb_params.mode)
        self._dataset_sink_mode = bool(cb_params.get("dataset_sink_mode", False))

    def step_end(self, run_context: RunContext) -> None:
        """Record the graph, dataset graph and custom lineage once, then collect at the due steps."""
        cb_params = run_context.original_args()
        if cb_params.mode != _TRAIN:
            return
        if not self._has_saved_graph:
            self._collect_graphs(cb_params)
            self._collect_dataset_graph(cb_params)
            self._has_saved_graph = True
            self._record.record(cb_params.cur_step_num)
        if self._custom_lineage_data and not self._has_saved_custom_data:
            self._record.add_value("custom_lineage_data", "custom_lineage_data",
                                   self._package_custom_lineage_data(self._custom_lineage_data))
            self._has_saved_custom_data = True
            self._record.record(cb_params.cur_step_num)
        if not self._dataset_sink_mode:
            self._collect_tensor_data(cb_params)
        if self._landscape_due(cb_params, "step", cb_params.get("cur_step_num")):
            self._save_model_params_for_landscape(cb_params)

    def epoch_end(self, run_context: RunContext) -> None:
        """Record validation metrics (fit), collect at the due steps or epochs and flush."""
        cb_params = run_context.original_args()
        if cb_params.mode == _TRAIN and self._collect_specified_data.get("collect_metric"):
            self._record_fit_metrics(cb_params)
        self._collect_tensor_data(cb_params)
        if self._landscape_due(cb_params, "epoch", cb_params.get("cur_epoch_num")):
            self._save_model_params_for_landscape(cb_params)
        self._record.flush()

    def end(self, run_context: RunContext) -> None:
        """Write the lineage (and the eval metrics), then the landscape metadata after training."""
        cb_params = run_context.original_args()
        if cb_params.mode == _TRAIN:
            self._collect_train_lineage(cb_params)
        else:
            self._collect_eval_lineage(cb_params)
            if self._collect_specified_data.get("collect_metric"):
                self._add_metric_scalars(cb_params.get("metrics"))
        # Summary-op data is not collected in eval mode; step 0 as in MindSpore.
        self._record.set_mode(_EVAL)
        self._record.record(step=0)
        landscape = self._collect_specified_data.get("collect_landscape")
        if cb_params.mode == _TRAIN and landscape:
            self._save_metadata(cb_params.batch_num, landscape.get("unit", "step"),
                                landscape.get("num_samples", 2048), landscape.get("landscape_size", 40),
                                landscape.get("create_landscape", {"train": True, "result": True}))

    # ------------------------------------------------------------------ collection
    def _collect_tensor_data(self, cb_params: Any) -> None:
        if cb_params.mode != _TRAIN:
            return
        if self._first_step:
            self._tensor_collect_range = self._get_tensor_collect_range(cb_params, self._dataset_sink_mode)
            self._collect_at_step_end(cb_params, plugin_filter=None)
            self._first_step = False
            self._record.flush()
            return
        current = cb_params.cur_epoch_num if self._dataset_sink_mode else cb_params.cur_step_num
        due = current % self._collect_freq == 0
        in_range = current in self._tensor_collect_range
        if due and in_range:
            self._collect_at_step_end(cb_params, plugin_filter=None)
        elif in_range:
            self._collect_at_step_end(cb_params, lambda plugin: plugin == "tensor")
        elif due:
            self._collect_at_step_end(cb_params, lambda plugin: plugin != "tensor")

    def _get_tensor_collect_range(self, cb_params: Any, dataset_sink_mode: bool) -> Any:
        total_step = cb_params.epoch_num
        if not dataset_sink_mode:
            total_step *= cb_params.batch_num
        if self._collect_tensor_freq is not None:
            return range(0, total_step + 1, self._collect_tensor_freq)
        summary_to_collect = len(range(0, total_step + 1, self._collect_freq))
        limit = 20
        if summary_to_collect > limit:
            tensor_freq = total_step // (limit - 1)
            if tensor_freq > 1:
                return range(0, total_step + 1, tensor_freq)[:limit]
            return range(0, total_step + 1)[:limit + 1]
        return range(0, total_step + 1, self._collect_freq)

    def _collect_at_step_end(self, cb_params: Any, plugin_filter: Callable | None) -> None:
        self._collect_input_data(cb_params)
        self._collect_metric(cb_params)
        self._collect_histogram(cb_params)
        self._record.record(cb_params.cur_step_num, plugin_filter=plugin_filter)

    def _landscape_due(self, cb_params: Any, unit: str, current: Any) -> bool:
        landscape = self._collect_specified_data.get("collect_landscape")
        if not landscape or landscape.get("unit", "step") != unit or current is None:
            return False
        return any(current in interval for interval in landscape.get("intervals") or [])

    def _collect_input_data(self, cb_params: Any) -> None:
        """The first input of the batch as ``input_data/auto`` when it is an NCHW image batch."""
        if not self._collect_specified_data.get("collect_input_data"):
            return
        input_data = cb_params.get("train_dataset_element")
        if not isinstance(input_data, (Tensor, list, tuple)):
            self._collect_specified_data["collect_input_data"] = False
            _logger.warning("The type of input data is not Tensor/list/tuple, so SummaryCollector will not collect "
                            "input data.")
            return
        if not isinstance(input_data, Tensor) and not input_data:
            self._collect_specified_data["collect_input_data"] = False
            _logger.warning("The 'train_dataset_element' in RunContext.original_args is empty, so SummaryCollector "
                            "will not record the input data. ")
            return
        if isinstance(input_data, (list, tuple)):
            input_data = input_data[0]
        if not isinstance(input_data, Tensor):
            input_data = _as_tensor(input_data)
        shape = tuple(getattr(input_data, "shape", ()))
        if input_data is None or len(shape) != 4 or shape[1] not in (1, 3):
            _logger.warning("The input data of network are not image, so will not collect by SummaryCollector.")
            self._collect_specified_data["collect_input_data"] = False
            return
        try:
            self._record.add_value("image", "input_data/auto", input_data)
        except (TypeError, ValueError):
            _logger.warning("The input data of network are not image, so will not collect by SummaryCollector.")
            self._collect_specified_data["collect_input_data"] = False

    def _collect_metric(self, cb_params: Any) -> None:
        """The loss (``loss/auto``) and the learning rate (``learning_rate/auto``) as scalars."""
        if not self._collect_specified_data.get("collect_metric"):
            return
        loss = self._get_loss(cb_params)
        if loss is not None:
            try:
                self._record.add_value("scalar", "loss/auto", loss)
            except ValueError:
                _logger.warning("The output of network is not a scalar, so SummaryCollector will not collect loss.")
                self._collect_specified_data["collect_metric"] = False
                return
        optimizer = self._get_optimizer(cb_params)
        if optimizer is not None:
            lr = self._current_learning_rate(optimizer)
            if lr is not None:
                self._record.add_value("scalar", "learning_rate/auto", lr)

    def _record_fit_metrics(self, cb_params: Any) -> None:
        """After a validation run of ``Model.fit``, its metrics at the current step."""
        if self._add_metric_scalars(cb_params.get("metrics")):
            # eval mode: the summary-op data stays queued for the next train-mode record.
            self._record.set_mode(_EVAL)
            self._record.record(cb_params.cur_step_num)
            self._record.set_mode(_TRAIN)

    def _add_metric_scalars(self, metrics: Any) -> bool:
        if not isinstance(metrics, dict):
            return False
        added = False
        for name, value in metrics.items():
            array = _numpy_or_none(value)
            if array is None or array.size != 1 or not np.issubdtype(array.dtype, np.number):
                continue
            self._record.add_value("scalar", f"{name}/auto", Tensor(np.asarray(array.reshape(()), np.float32)))
            added = True
        return added

    def _collect_histogram(self, cb_params: Any) -> None:
        if "histogram_regular" not in self._collect_specified_data:
            return
        optimizer = self._get_optimizer(cb_params)
        if optimizer is None:
            return
        parameters = list(optimizer.parameters)
        regular = self._collect_specified_data.get("histogram_regular")
        if regular is not None:
            selected = [p for p in parameters if re.match(regular, p.name)]
        else:
            selected = parameters[:5]
        for parameter in selected:
            self._record.add_value("histogram", parameter.name + "/auto", parameter.data)

    def _collect_graphs(self, cb_params: Any) -> None:
        if not self._collect_specified_data.get("collect_graph"):
            return
        network = cb_params.train_network if cb_params.mode == _TRAIN else cb_params.eval_network
        if _context._mode() != _context.GRAPH_MODE:
            _logger.warning("Can not get graph proto, it may not be 'GRAPH_MODE' in context currently, so "
                            "SummaryCollector will not collect graph.")
            return
        graph = _network_graph(network)
        if graph is None:
            _logger.warning("Can not get the compiled graph of the network, so SummaryCollector will not collect "
                            "graph.")
            return
        self._record.add_value("graph", "train_network/auto", graph)

    def _collect_dataset_graph(self, cb_params: Any) -> None:
        if not self._collect_specified_data.get("collect_dataset_graph") or cb_params.mode != _TRAIN:
            return
        graph = _dataset_graph(cb_params.get("train_dataset"))
        if graph is None:
            return
        self._record.add_value("dataset_graph", "train_dataset", _lineage_value("dataset_graph", graph))

    # ------------------------------------------------------------------ loss / optimizer / lr
    def _get_loss(self, cb_params: Any) -> Tensor | None:
        """The mean of the network's first output, or None (with a warning once)."""
        if not self._is_parse_loss_success:
            return None
        output = cb_params.get("net_outputs")
        if output is None:
            _logger.warning("Can not find any output by this network, so SummaryCollector will not collect loss.")
            self._is_parse_loss_success = False
            return None
        if isinstance(output, (list, tuple)):
            if not output:
                output = None
            else:
                output = output[0]
        array = _numpy_or_none(output)
        if array is None or not np.issubdtype(array.dtype, np.number):
            _logger.warning("The output type could not be identified, expect type is one of [int, float, Tensor, "
                            "list, tuple], so no loss was recorded in SummaryCollector.")
            self._is_parse_loss_success = False
            return None
        return Tensor(np.asarray(np.mean(array), dtype=np.float32))

    def _get_optimizer(self, cb_params: Any) -> Any:
        from tfspore.nn.optim.optimizer import Optimizer  # pylint: disable=import-outside-toplevel
        if self._temp_optimizer == "Failed":
            return None
        if self._temp_optimizer is not None:
            return self._temp_optimizer
        optimizer = cb_params.get("optimizer")
        if optimizer is None:
            network = cb_params.get("train_network") if cb_params.mode == _TRAIN else cb_params.get("eval_network")
            optimizer = self._parse_optimizer_by_network(network) if network is not None else None
        if optimizer is None or not isinstance(optimizer, Optimizer):
            _logger.warning("Can not find optimizer in network, or the optimizer does not inherit MindSpore's "
                            "optimizer, so we will not collect data about optimizer in SummaryCollector.")
            optimizer = None
        self._temp_optimizer = optimizer if optimizer is not None else "Failed"
        return optimizer

    @staticmethod
    def _parse_optimizer_by_network(network: Any) -> Any:
        from tfspore.nn.optim.optimizer import Optimizer  # pylint: disable=import-outside-toplevel
        for _, cell in network.cells_and_names():
            if isinstance(cell, Optimizer):
                return cell
            optimizer = getattr(cell, "optimizer", None)
            if isinstance(optimizer, Optimizer):
                return optimizer
        return None

    @staticmethod
    def _get_learning_rate(optimizer: Any) -> Tensor | None:
        """The learning-rate Parameter's value (MindSpore's lineage value), or None for a schedule."""
        learning_rate = optimizer.learning_rate
        if not isinstance(learning_rate, Parameter):
            _logger.warning("The learning rate detected in the optimizer is not a Parameter type, so it is not "
                            "recorded. Its type is %r.", type(learning_rate).__name__)
            return None
        return learning_rate.data

    @staticmethod
    def _current_learning_rate(optimizer: Any) -> Tensor | None:
        """The learning rate the last step used (the first group's, for grouped learning rates)."""
        lr = optimizer.learning_rate
        try:
            if getattr(optimizer, "dynamic_lr", False):
                step = Tensor(np.maximum(optimizer.global_step.asnumpy() - 1, 0).astype(np.int32))
                schedule = lr[0] if getattr(optimizer, "is_group_lr", False) else lr
                lr = schedule(step)
            elif getattr(optimizer, "is_group_lr", False):
                lr = lr[0]
            array = _numpy_or_none(lr)
        except (TypeError, ValueError, IndexError):  # an unusual schedule: skip the scalar
            return None
        if array is None or array.size < 1:
            return None
        return Tensor(np.asarray(array.reshape(-1)[0], dtype=np.float32))

    # ------------------------------------------------------------------ lineage
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

    # ------------------------------------------------------------------ landscape
    def _check_callbacks(self, cb_params: Any) -> None:
        """Only one SummaryCollector may be in the callback list."""
        found = False
        for callback in cb_params.get("list_callback") or []:
            if type(callback).__name__ == self.__class__.__name__:
                if not found:
                    found = True
                    continue
                raise ValueError(f"There are more than one {self.__class__.__name__} instance in callback list,"
                                 f"but expected only one {self.__class__.__name__} instance.")

    @staticmethod
    def _get_backbone(network: Any) -> Any:
        for _, cell in network.cells_and_names():
            if _has_backbone(cell):
                return getattr(cell, "_backbone")
        return network

    def _save_model_params_for_landscape(self, cb_params: Any) -> None:
        if cb_params.mode != _TRAIN:
            return
        backbone = self._get_backbone(cb_params.train_network)
        while True:
            cells = backbone.name_cells()
            if "network" in cells:
                backbone = backbone.network
                if "optimizer" in cells:
                    break
            else:
                break
        landscape = self._collect_specified_data.get("collect_landscape")
        unit = landscape.get("unit", "step")
        cur_num = cb_params.cur_epoch_num if unit == "epoch" else cb_params.cur_step_num
        _logger.info("Save model params, %s: %s.", unit, cur_num)
        self._save_model_params(cur_num, unit, backbone)

    def _save_model_params(self, cur_num: int, unit: str, backbone: Any) -> None:
        from tfspore.train.serialization import save_checkpoint  # pylint: disable=import-outside-toplevel
        param_list = [{"name": p.name, "data": Tensor(p.asnumpy())} for p in backbone.get_parameters()]
        file_path = os.path.join(self._ckpt_dir, f"{type(backbone).__name__}_{cur_num}_{unit}.ckpt")
        self._model_params_file_map[str(cur_num)] = file_path
        _lock_write(file_path, lambda path: save_checkpoint(param_list, path))

    def _save_metadata(self, step_per_epoch: int, unit: str, num_samples: int, landscape_size: int,
                       create_landscape: dict) -> None:
        data = {"epoch_group": self._epoch_group,
                "model_params_file_map": self._model_params_file_map,
                "step_per_epoch": step_per_epoch,
                "unit": unit,
                "num_samples": num_samples,
                "landscape_size": landscape_size,
                "create_landscape": create_landscape}

        def write(path: str) -> None:
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.chmod(path, stat.S_IRUSR)

        _lock_write(os.path.join(self._ckpt_dir, "train_metadata.json"), write)


# ---------------------------------------------------------------------------------- helpers
def _has_backbone(cell: Any) -> bool:
    try:
        getattr(cell, "_backbone")
    except (AttributeError, KeyError):
        return False
    return True


def _as_tensor(value: Any) -> Any:
    try:
        return Tensor(value)
    except (TypeError, ValueError):
        return None


def _numpy_or_none(value: Any) -> np.ndarray | None:
    """``value`` as a numpy array (Tensors, tf tensors, numbers, arrays), or None."""
    if value is None:
        return None
    if isinstance(value, Tensor):
        return np.asarray(value.asnumpy())
    if hasattr(value, "numpy") and callable(value.numpy):
        try:
            return np.asarray(value.numpy())
        except (TypeError, ValueError, AttributeError):
            return None
    if isinstance(value, (bool, int, float, np.number, np.ndarray)):
        return np.asarray(value)
    return None


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


def _network_graph(network: Any) -> Any:
    """The TF graph of the network's compiled step (the most recent trace), or None when it has none yet."""
    import tensorflow as tf  # pylint: disable=import-outside-toplevel
    candidates = []
    for attr in ("_loops", "_compiled"):
        store = getattr(network, "__dict__", {}).get(attr)
        if isinstance(store, dict):
            candidates.extend(store.values())
    for fn in reversed(candidates):
        concrete = None
        lister = getattr(fn, "_list_all_concrete_functions", None)
        if callable(lister):
            found = list(lister())
            concrete = found[-1] if found else None
        if concrete is not None:
            graph = getattr(concrete, "graph", None)
            if isinstance(graph, tf.Graph):
                return graph
    return None


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

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

The options and their checks are in :mod:`~tfspore.train.callback._summary_options`, the lineage
messages in :mod:`~tfspore.train.callback._summary_lineage` and the files saved for
``SummaryLandscape`` in :mod:`~tfspore.train.callback._landscape_data`: mixins of the collector,
which keeps the hooks and what each collection step records.

Example:
    >>> from tfspore.train.callback import SummaryCollector
    >>> summary_collector = SummaryCollector(summary_dir='./summary_dir', collect_freq=10)
    >>> model.train(1, ds_train, callbacks=[summary_collector], dataset_sink_mode=False)  # doctest: +SKIP
"""
from __future__ import annotations

import logging
import os
import re
from collections import defaultdict
from typing import Any, Callable

import numpy as np

from tfspore import context as _context
from tfspore._internal import rank_dirs, validator
from tfspore.common.tensor import Tensor
from tfspore.train.callback._callback import Callback, RunContext
from tfspore.train.callback._landscape_data import LandscapeData
from tfspore.train.callback._paths import make_directory
from tfspore.train.callback._summary_lineage import LineageMetadata, SummaryLineage  # noqa: F401
from tfspore.train.callback._summary_options import (HYPER_CONFIG_ENV_NAME, HYPER_CONFIG_LEN_LIMIT,  # noqa: F401
                                                     SummaryOptions)

_logger = logging.getLogger("tfspore")

_TRAIN, _EVAL = "train", "eval"


class SummaryCollector(SummaryOptions, SummaryLineage, LandscapeData, Callback):
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


# ---------------------------------------------------------------------------------- helpers
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


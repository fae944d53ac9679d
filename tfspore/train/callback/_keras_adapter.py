"""tfspore callbacks in ``keras.Model.fit`` / ``evaluate``: :func:`as_keras_callback`.

A tfspore callback reads MindSpore's ``cb_params``; Keras calls ``on_epoch_begin(epoch, logs)``
and friends on a ``keras.callbacks.Callback``. The adapter keeps a ``cb_params`` up to date from
Keras's hooks and calls the tfspore hooks with it. So that callbacks which save, load or inspect
the network (ModelCheckpoint, BackupAndRestore, OnRequestExit, SummaryCollector) work on a Keras
model, ``train_network`` and ``network`` are Cells (``tfspore.keras.KerasCell``) whose Parameters
hold the Keras model's own variables (``train_network`` with the Keras optimizer's variables too,
as a MindSpore train network holds the optimizer state); the Keras model is
``cb_params.keras_model``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.train.callback._callback import (Callback, RunContext, _InternalCallbackParam, _PUBLIC_CALLBACK_NAMES,
                                              _is_tensor, _to_numpy)
from tfspore.train.callback._time_monitor import TimeMonitor

__all__ = ["as_keras_callback"]


def _keras_learning_rate(optimizer: Any) -> float:
    return float(np.asarray(optimizer.learning_rate))


class _KerasLearningRate(Parameter):
    """A Keras optimizer's learning rate as a scalar Parameter (what tfspore's LR callbacks read and set).

    Reads return the Keras optimizer's current learning rate and writes set it, so
    ``LearningRateScheduler`` and ``ReduceLROnPlateau`` drive Keras's optimizer.
    """

    def __init__(self, optimizer: Any) -> None:
        super().__init__(np.float32(_keras_learning_rate(optimizer)), name="learning_rate", requires_grad=False)
        self.__dict__["_keras_optimizer"] = optimizer

    def asnumpy(self) -> np.ndarray:
        return np.asarray(_keras_learning_rate(self._keras_optimizer), np.float32)

    def assign_value(self, value: Any) -> "Parameter":
        number = float(np.asarray(_to_numpy(value) if _is_tensor(value) else value).reshape(-1)[0])
        self._keras_optimizer.learning_rate = number
        return super().assign_value(Tensor(np.float32(number), mstype.float32))

    def set_data(self, data: Any, slice_shape: bool = False) -> "Parameter":
        return self.assign_value(data)


class _KerasOptimizerView:
    """``cb_params.optimizer`` in ``keras.Model.fit``: the Keras optimizer and its learning rate."""

    def __init__(self, optimizer: Any) -> None:
        self.keras_optimizer = optimizer
        self.learning_rate = _KerasLearningRate(optimizer)


_ADAPTER_CLASS: Any = None


def _adapter_class() -> type:
    global _ADAPTER_CLASS
    if _ADAPTER_CLASS is not None:
        return _ADAPTER_CLASS
    import keras

    class TfsporeCallbackAdapter(keras.callbacks.Callback):
        """A tfspore callback running inside ``keras.Model.fit`` / ``evaluate``."""

        def __init__(self, callback: Callback) -> None:
            super().__init__()
            self.callback = callback
            self._cb: _InternalCallbackParam | None = None
            self._run_context: RunContext | None = None
            self._eval_cb: _InternalCallbackParam | None = None
            self._eval_context: RunContext | None = None
            self._in_fit = False
            self._entered = False
            self._cells: tuple | None = None

        def _network_cells(self) -> tuple:
            """(network, train_network): Cells over the Keras model's variables (and its optimizer's)."""
            model = self.model
            if self._cells is None or self._cells[0] is not model:
                from tfspore.keras import KerasCell  # pylint: disable=import-outside-toplevel
                network = KerasCell(model)
                with_optimizer = getattr(model, "optimizer", None) is not None
                train_network = KerasCell(model, include_optimizer=True) if with_optimizer else network
                self._cells = (model, network, train_network)
            return self._cells[1], self._cells[2]

        def _base_params(self, mode: str) -> _InternalCallbackParam:
            cb = _InternalCallbackParam()
            cb.keras_model = self.model
            cb.network, cb.train_network = self._network_cells()
            opt = getattr(self.model, "optimizer", None)
            cb.optimizer = _KerasOptimizerView(opt) if opt is not None else None
            cb.loss_fn = getattr(self.model, "loss", None)
            cb.mode = mode
            cb.cur_step_num = 0
            cb.batch_num = (self.params or {}).get("steps") or 0
            cb.dataset_sink_mode = False
            cb.parallel_mode = "stand_alone"
            cb.device_number = 1
            cb.last_save_ckpt_step = None
            cb.latest_ckpt_file = None
            return cb

        def _enter(self) -> None:
            if not self._entered:
                self.callback.__enter__()
                self._entered = True

        def _exit(self) -> None:
            if self._entered:
                self._entered = False
                self.callback.__exit__(None, None, None)

        def _sync_stop(self, run_context: RunContext) -> None:
            if run_context.get_stop_requested():
                self.model.stop_training = True

        # ------------------------------------------------------------- train
        def on_train_begin(self, logs: dict | None = None) -> None:
            self._in_fit = True
            self._cb = self._base_params("train")
            self._cb.epoch_num = (self.params or {}).get("epochs", 1)
            self._run_context = RunContext(self._cb)
            self._enter()
            self.callback.on_train_begin(self._run_context)
            self._sync_stop(self._run_context)

        def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
            self._cb.cur_epoch_num = epoch + 1
            self.callback.on_train_epoch_begin(self._run_context)
            self._sync_stop(self._run_context)

        def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
            self._cb.cur_step_num += 1
            self.callback.on_train_step_begin(self._run_context)
            self._sync_stop(self._run_context)

        def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
            loss = (logs or {}).get("loss")
            if loss is not None:
                self._cb.net_outputs = Tensor(np.float32(np.asarray(loss)))
            self.callback.on_train_step_end(self._run_context)
            self._sync_stop(self._run_context)

        def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
            logs = logs or {}
            metrics = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
            if metrics:
                self._cb.metrics = metrics
                results = dict(metrics)
                if "loss" in metrics:
                    results["eval_loss"] = metrics["loss"]
                self._cb.eval_results = results
            self.callback.on_train_epoch_end(self._run_context)
            self._cb.pop("metrics", None)
            self._cb.pop("eval_results", None)
            self._sync_stop(self._run_context)

        def on_train_end(self, logs: dict | None = None) -> None:
            try:
                self.callback.on_train_end(self._run_context)
            finally:
                self._in_fit = False
                self._exit()

        # -------------------------------------------------------------- eval
        def _eval_runs(self) -> bool:
            name = type(self.callback).__name__
            return not self._in_fit or name not in _PUBLIC_CALLBACK_NAMES or isinstance(self.callback, TimeMonitor)

        def on_test_begin(self, logs: dict | None = None) -> None:
            if not self._eval_runs():
                return
            self._eval_cb = self._cb if self._in_fit else self._base_params("eval")
            if self._in_fit:
                self._saved = {k: self._eval_cb.get(k) for k in ("mode", "cur_step_num", "batch_num")}
                self._eval_cb.mode = "eval"
                self._eval_cb.cur_step_num = 0
                self._eval_cb.batch_num = 0
            else:
                self._eval_cb.eval_network = self._eval_cb.network
                self._enter()
            self._eval_context = RunContext(self._eval_cb)
            self.callback.on_eval_begin(self._eval_context)
            self.callback.on_eval_epoch_begin(self._eval_context)

        def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None:
            if self._eval_context is None:
                return
            self._eval_cb.cur_step_num += 1
            if not self._eval_cb.batch_num:
                self._eval_cb.batch_num = (self.params or {}).get("steps") or 10 ** 9
            self.callback.on_eval_step_begin(self._eval_context)

        def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None:
            if self._eval_context is None:
                return
            loss = (logs or {}).get("loss")
            if loss is not None:
                self._eval_cb.net_outputs = Tensor(np.float32(np.asarray(loss)))
            self.callback.on_eval_step_end(self._eval_context)

        def on_test_end(self, logs: dict | None = None) -> None:
            if self._eval_context is None:
                return
            try:
                self._eval_cb.batch_num = self._eval_cb.cur_step_num or 1
                self.callback.on_eval_epoch_end(self._eval_context)
                self._eval_cb.metrics = dict(logs or {})
                self.callback.on_eval_end(self._eval_context)
            finally:
                if self._in_fit:
                    self._eval_cb.pop("metrics", None)
                    for key, value in self._saved.items():
                        self._eval_cb[key] = value
                else:
                    self._exit()
                self._eval_context = None

    _ADAPTER_CLASS = TfsporeCallbackAdapter
    return _ADAPTER_CLASS


def as_keras_callback(callback: Callback) -> Any:
    """Wrap a tfspore callback for ``keras.Model.fit`` / ``evaluate``.

    The callback receives MindSpore-style ``cb_params``: ``cur_epoch_num``, ``cur_step_num``
    (global), ``batch_num`` (Keras's steps per epoch), ``epoch_num``, ``mode``, ``net_outputs``
    (a Tensor of Keras's logged loss, the running mean of the epoch), ``network`` (a Cell whose
    Parameters are the Keras model's weights), ``train_network`` (the same plus the Keras
    optimizer's variables), ``keras_model``, ``optimizer`` (a view whose ``learning_rate`` is a
    scalar Parameter reading and setting the Keras learning rate) and, at the end of a validated
    epoch, ``metrics`` and ``eval_results`` (from the ``val_*`` logs).
    ``run_context.request_stop()`` sets ``model.stop_training``. Every tfspore callback works this
    way: LossMonitor, TimeMonitor, History, LambdaCallback, EarlyStopping and ReduceLROnPlateau
    (``loss`` / ``eval_loss`` / metric names), LearningRateScheduler, ModelCheckpoint,
    BackupAndRestore and OnRequestExit (checkpoints of ``train_network``: weights and optimizer
    state), and SummaryCollector (loss, lineage and landscape; the learning rate and weight
    histograms need a tfspore optimizer, so a Keras optimizer's are left out with a warning, and
    there is no compiled graph to record).

    Args:
        callback: a tfspore :class:`Callback`.

    Returns:
        keras.callbacks.Callback: the adapter.

    Raises:
        TypeError: when ``callback`` is not a tfspore Callback.

    Example:
        >>> keras_model.fit(x, y, epochs=2, callbacks=[as_keras_callback(LossMonitor())])  # doctest: +SKIP
        epoch: 1 step: 1, loss is 2.3025851249694824
    """
    if not isinstance(callback, Callback):
        raise TypeError("For 'as_keras_callback', the argument 'callback' must be a tfspore Callback, but got "
                        f"{callback!r} of type {type(callback).__name__}.")
    return _adapter_class()(callback)

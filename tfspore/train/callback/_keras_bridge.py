"""Keras callbacks in ``Model.train`` / ``eval`` / ``fit``, and tfspore callbacks in ``keras.Model.fit``.

A ``keras.callbacks.Callback`` in a tfspore callbacks list is wrapped in
:class:`KerasCallbackBridge`, which calls the Keras hooks with Keras's arguments:

==========================  ==============================================================
tfspore hook                Keras hook (arguments)
==========================  ==============================================================
``on_train_begin``          ``set_model``, ``set_params``, ``on_train_begin(logs)``
``on_train_epoch_begin``    ``on_epoch_begin(epoch - 1)``
``on_train_step_begin/end`` ``on_train_batch_begin/end(step in epoch - 1, {"loss": mean})``
``on_train_epoch_end``      ``on_epoch_end(epoch - 1, {"loss": ..., "val_<metric>": ...})``
``on_train_end``            ``on_train_end(logs)``
``on_eval_*``               ``on_test_begin``, ``on_test_batch_begin/end``, ``on_test_end``
==========================  ==============================================================

As in Keras, the ``"loss"`` in the logs is the mean of the epoch's step losses so far; at the end
of an epoch of ``Model.fit`` the validation metrics follow as ``val_<name>`` (``val_loss`` is the
Loss metric if the Model has one, otherwise ``eval_results["eval_loss"]``). The Keras callback
sees a stand-in model: ``model.stop_training = True`` stops tfspore's loop as
``run_context.request_stop()`` does, ``model.optimizer.learning_rate`` reads and writes the
optimizer's learning-rate Parameter, ``model.get_weights()`` / ``set_weights()`` work on the
network's parameters, and ``model.layers`` lets TensorBoard write weight histograms.

Example:
    >>> import keras
    >>> model.train(3, dataset, callbacks=[keras.callbacks.CSVLogger("log.csv"),
    ...                                    keras.callbacks.TerminateOnNaN()])  # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.train.callback._callback import (Callback, RunContext, _InternalCallbackParam, _PUBLIC_CALLBACK_NAMES,
                                              _handle_loss, _is_tensor, _to_numpy)
from tfspore.train.callback._time_monitor import TimeMonitor


def _as_float(value: Any) -> float | None:
    """A Python float for a loss or metric value (None when it is not a number)."""
    if value is None:
        return None
    if _is_tensor(value):
        value = _to_numpy(value)
    try:
        return float(np.mean(np.asarray(value, dtype=np.float64)))
    except (TypeError, ValueError):
        return None


class _RunningMean:
    """The mean of the values seen since the last reset."""

    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0

    def reset(self) -> None:
        self.total, self.count = 0.0, 0

    def add(self, value: float | None) -> None:
        if value is not None:
            self.total += value
            self.count += 1

    @property
    def value(self) -> float | None:
        return self.total / self.count if self.count else None


class _Weight:
    """A named view of a Parameter that TensorFlow ops accept (for TensorBoard histograms)."""

    def __init__(self, param: Parameter) -> None:
        self.param = param
        self.path = param.name
        self.name = param.name

    def __tf_tensor__(self, dtype: Any = None, name: Any = None) -> Any:
        import tensorflow as tf
        return tf.convert_to_tensor(self.param.asnumpy(), dtype=dtype, name=name)

    def numpy(self) -> np.ndarray:
        return self.param.asnumpy()


class _Layer:
    """One pseudo-layer holding all the network's parameters."""

    def __init__(self, network: Any) -> None:
        self.name = type(network).__name__
        self.weights = [_Weight(p) for p in network.get_parameters()] if network is not None else []


class _OptimizerView:
    """``model.optimizer`` as Keras callbacks use it: ``learning_rate`` and ``iterations``."""

    def __init__(self, view: "_KerasModelView") -> None:
        self._view = view

    @property
    def _optimizer(self) -> Any:
        return self._view.cb_params.get("optimizer")

    @property
    def name(self) -> str:
        return type(self._optimizer).__name__

    @property
    def learning_rate(self) -> float:
        """float: the current learning rate (a scalar learning-rate Parameter)."""
        lr = self._optimizer.learning_rate
        arr = np.asarray(lr.asnumpy() if isinstance(lr, Tensor) else lr)
        if arr.size != 1:
            raise TypeError("Keras callbacks can only read a single learning rate, but the optimizer has a learning "
                            f"rate of shape {arr.shape}.")
        return float(arr.reshape(()))

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        lr = self._optimizer.learning_rate
        if not isinstance(lr, Parameter) or int(np.prod(lr.shape)) != 1:
            raise TypeError("Keras callbacks can only set a single learning rate (a scalar learning-rate Parameter), "
                            f"but the optimizer's learning rate is {type(lr).__name__} of shape "
                            f"{getattr(lr, 'shape', None)}.")
        lr.assign_value(Tensor(np.full(lr.shape, float(np.asarray(value)), np.float32), mstype.float32))

    @property
    def iterations(self) -> int:
        """int: the number of training steps run so far."""
        return int(self._view.train_steps)


class _KerasModelView:
    """The model a bridged Keras callback sees (``callback.model``)."""

    def __init__(self, cb_params: dict) -> None:
        self.cb_params = cb_params
        self.stop_training = False
        self.train_steps = 0
        self.train_function = None
        self.metrics: list = []

    @property
    def network(self) -> Any:
        """Cell: the user network (``cb_params.network``), or the train network."""
        return self.cb_params.get("network") or self.cb_params.get("train_network") \
            or self.cb_params.get("eval_network")

    @property
    def name(self) -> str:
        return type(self.network).__name__

    @property
    def optimizer(self) -> _OptimizerView | None:
        return _OptimizerView(self) if self.cb_params.get("optimizer") is not None else None

    @property
    def layers(self) -> list:
        return [_Layer(self.network)]

    @property
    def weights(self) -> list:
        return _Layer(self.network).weights

    def get_weights(self) -> list:
        """list: copies of the network's parameter values, in parameter order."""
        return [np.array(p.asnumpy(), copy=True) for p in self.network.get_parameters()]

    def set_weights(self, weights: list) -> None:
        """Assign ``weights`` (from :meth:`get_weights`) to the network's parameters."""
        params = list(self.network.get_parameters())
        if len(params) != len(weights):
            raise ValueError(f"set_weights expects {len(params)} arrays, but got {len(weights)}.")
        for param, value in zip(params, weights):
            param.assign_value(value)

    def save(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("A tfspore network can't be saved as a Keras model; use "
                                  "tfspore.train.ModelCheckpoint or tfspore.save_checkpoint.")

    save_weights = save


class KerasCallbackBridge(Callback):
    """Runs a ``keras.callbacks.Callback`` inside tfspore's ``Model``.

    Created by the callback manager for every Keras callback in a callbacks list; one bridge per
    Keras callback object, so the validation run of ``Model.fit`` reaches the same state.

    Args:
        keras_callback: the Keras callback.

    Example:
        >>> bridge = KerasCallbackBridge(keras.callbacks.TerminateOnNaN())  # doctest: +SKIP
    """

    _step_begin_reads_batch = False  # Keras's on_train_batch_begin gets the batch index only

    def __init__(self, keras_callback: Any) -> None:
        super().__init__()
        self.keras_callback = keras_callback
        self._view: _KerasModelView | None = None
        self._in_train = False
        self._params_final = False
        self._train_loss = _RunningMean()
        self._eval_loss = _RunningMean()
        self._last_epoch_logs: dict = {}

    def __repr__(self) -> str:
        return f"KerasCallbackBridge({self.keras_callback!r})"

    # ---------------------------------------------------------------- plumbing
    def _bind(self, cb_params: dict) -> _KerasModelView:
        if self._view is None or self._view.cb_params is not cb_params:
            self._view = _KerasModelView(cb_params)
            self.keras_callback.set_model(self._view)
        return self._view

    def _check_stop(self, run_context: RunContext) -> None:
        if self._view is not None and self._view.stop_training:
            run_context.request_stop()

    @staticmethod
    def _step_in_epoch(cb_params: dict) -> int:
        batch_num = cb_params.get("batch_num")
        cur = cb_params.get("cur_step_num", 1)
        if isinstance(batch_num, int) and batch_num > 0:
            return (cur - 1) % batch_num + 1
        return cur

    @staticmethod
    def _metric_logs(cb_params: dict, prefix: str) -> dict:
        logs = {}
        metrics = cb_params.get("metrics") or {}
        for name, value in metrics.items():
            number = _as_float(value)
            logs[prefix + name] = number if number is not None else value
        eval_results = cb_params.get("eval_results") or {}
        if prefix + "loss" not in logs and eval_results.get("eval_loss") is not None:
            logs[prefix + "loss"] = _as_float(eval_results["eval_loss"])
        return logs

    # ------------------------------------------------------------------ train
    def on_train_begin(self, run_context: RunContext) -> None:
        """Bind the model view, set Keras's params and call ``on_train_begin``."""
        cb_params = run_context.original_args()
        self._view = None
        view = self._bind(cb_params)
        view.stop_training = False
        self._in_train = True
        self._params_final = False
        self._last_epoch_logs = {}
        self.keras_callback.set_params({"verbose": 1, "epochs": cb_params.get("epoch_num", 1),
                                        "steps": cb_params.get("batch_num")})
        self.keras_callback.on_train_begin(logs={})
        self._check_stop(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        """Call ``on_epoch_begin(epoch)`` (0-based, absolute)."""
        cb_params = run_context.original_args()
        self._bind(cb_params)
        epoch = cb_params.cur_epoch_num - 1
        if not self._params_final:  # Keras's "epochs" is the final epoch index (initial_epoch + count)
            self.keras_callback.set_params({"verbose": 1, "epochs": cb_params.get("epoch_num", 1) + epoch,
                                            "steps": cb_params.get("batch_num")})
            self._params_final = True
        self._train_loss.reset()
        self.keras_callback.on_epoch_begin(epoch, logs={})
        self._check_stop(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Call ``on_train_batch_begin(batch)``."""
        cb_params = run_context.original_args()
        self.keras_callback.on_train_batch_begin(self._step_in_epoch(cb_params) - 1, logs={})
        self._check_stop(run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Call ``on_train_batch_end(batch, {"loss": mean loss of the epoch so far})``."""
        cb_params = run_context.original_args()
        self._bind(cb_params).train_steps = cb_params.get("cur_step_num", 0)
        self._train_loss.add(_as_float(_handle_loss(cb_params.get("net_outputs"))))
        logs = {} if self._train_loss.value is None else {"loss": self._train_loss.value}
        self.keras_callback.on_train_batch_end(self._step_in_epoch(cb_params) - 1, logs=logs)
        self._check_stop(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Call ``on_epoch_end(epoch, logs)`` with the epoch's loss and the validation metrics."""
        cb_params = run_context.original_args()
        logs: dict = {}
        if self._train_loss.value is not None:
            logs["loss"] = self._train_loss.value
        logs.update(self._metric_logs(cb_params, "val_"))
        self.keras_callback.on_epoch_end(cb_params.cur_epoch_num - 1, logs=logs)
        self._last_epoch_logs = logs
        self._check_stop(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        """Call ``on_train_end(logs)`` with the last epoch's logs."""
        try:
            self.keras_callback.on_train_end(logs=dict(self._last_epoch_logs))
        finally:
            self._in_train = False

    # ------------------------------------------------------------------- eval
    def on_eval_begin(self, run_context: RunContext) -> None:
        """Call ``on_test_begin`` (after binding the model and params for a standalone eval)."""
        cb_params = run_context.original_args()
        if not self._in_train:
            self._view = None
            self._bind(cb_params).stop_training = False
            self.keras_callback.set_params({"verbose": 1, "epochs": 1, "steps": cb_params.get("batch_num")})
        self._eval_loss.reset()
        self.keras_callback.on_test_begin(logs={})
        self._check_stop(run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        """Call ``on_test_batch_begin(batch)``."""
        cb_params = run_context.original_args()
        self.keras_callback.on_test_batch_begin(cb_params.get("cur_step_num", 1) - 1, logs={})
        self._check_stop(run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """Call ``on_test_batch_end(batch, {"loss": mean loss so far})``."""
        cb_params = run_context.original_args()
        self._eval_loss.add(_as_float(_handle_loss(cb_params.get("net_outputs"))))
        logs = {} if self._eval_loss.value is None else {"loss": self._eval_loss.value}
        self.keras_callback.on_test_batch_end(cb_params.get("cur_step_num", 1) - 1, logs=logs)
        self._check_stop(run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        """Call ``on_test_end(logs)`` with the mean loss and the metrics."""
        cb_params = run_context.original_args()
        logs = self._metric_logs(cb_params, "")
        if self._eval_loss.value is not None and "loss" not in (cb_params.get("metrics") or {}):
            logs["loss"] = self._eval_loss.value  # the mean over the evaluation, as in Keras
        self.keras_callback.on_test_end(logs=logs)
        self._check_stop(run_context)


# ------------------------------------------------------------------------ tfspore -> Keras
class _LearningRateView:
    """A Keras optimizer's learning rate as tfspore's LearningRateScheduler reads and writes it."""

    def __init__(self, optimizer: Any) -> None:
        self._optimizer = optimizer

    def asnumpy(self) -> np.ndarray:
        return np.asarray(float(np.asarray(self._optimizer.learning_rate)), np.float32)

    def assign_value(self, value: Any) -> None:
        self._optimizer.learning_rate = float(np.asarray(_to_numpy(value) if _is_tensor(value) else value))


class _KerasOptimizerView:
    def __init__(self, optimizer: Any) -> None:
        self.keras_optimizer = optimizer
        self.learning_rate = _LearningRateView(optimizer)


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

        def _base_params(self, mode: str) -> _InternalCallbackParam:
            cb = _InternalCallbackParam()
            cb.train_network = self.model
            cb.network = self.model
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
    (a Tensor of Keras's logged loss, the running mean of the epoch), ``train_network`` and
    ``network`` (the Keras model), ``optimizer`` (a view whose ``learning_rate`` LearningRateScheduler
    can read and set) and, at the end of a validated epoch, ``metrics`` and ``eval_results``
    (from the ``val_*`` logs). ``run_context.request_stop()`` sets ``model.stop_training``.
    LossMonitor, TimeMonitor, History, LambdaCallback, EarlyStopping (``loss`` / ``eval_loss``
    / metric names), LearningRateScheduler and ModelCheckpoint (the model's weights, named by
    their Keras paths) work this way.

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


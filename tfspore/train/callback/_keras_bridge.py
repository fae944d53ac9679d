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
network's parameters, ``model.layers`` lets TensorBoard write weight histograms, and
``model.save_weights()`` / ``load_weights()`` write and read an HDF5 file of every Parameter of
the train network (weights and optimizer state), so ``keras.callbacks.ModelCheckpoint(...,
save_weights_only=True)`` and ``keras.callbacks.BackupAndRestore`` work; BackupAndRestore's
restored epoch (``model._initial_epoch``) makes ``Model.train`` resume at that epoch. A
``.keras`` model file (``model.save``) cannot hold a tfspore network and raises a
NotImplementedError naming the callback. ``keras.callbacks.SwapEMAWeights`` needs a Keras
optimizer with ``use_ema=True`` and raises a ValueError saying so.

CSVLogger's columns are the logs of the first epoch; Keras adds ``val_<name>`` columns when
those logs have none (for a ``validation_freq`` > 1), which in a plain ``Model.train`` are
columns that never get a value, so the bridge fixes the columns to the logged keys unless the
run validates (``Model.fit`` with a ``valid_dataset``).

Example:
    >>> import keras
    >>> model.train(3, dataset, callbacks=[keras.callbacks.CSVLogger("log.csv"),
    ...                                    keras.callbacks.TerminateOnNaN()])  # doctest: +SKIP
"""
from __future__ import annotations

import io
import os
from typing import Any

import numpy as np

from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.train import _atomic
from tfspore.train.callback._callback_base import Callback, RunContext, _handle_loss, _is_tensor, _to_numpy


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

    built = True  # tfspore's optimizer creates its state with the network: nothing to build

    def __init__(self, view: "_KerasModelView") -> None:
        self._view = view

    def build(self, variables: Any) -> None:
        """Nothing to do (Keras callbacks call it before loading weights into an unbuilt optimizer)."""

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

    built = True  # a Cell's Parameters exist from its construction

    def __init__(self, cb_params: dict, keras_callback: Any = None) -> None:
        self.cb_params = cb_params
        self.stop_training = False
        self.train_steps = 0
        self.train_function = None
        self.metrics: list = []
        self.history = None
        self._initial_epoch = None  # set by keras.callbacks.BackupAndRestore when it restores
        self._keras_callback = keras_callback

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

    @property
    def trainable_variables(self) -> list:
        return [_Weight(p) for p in self.network.trainable_params()]

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

    def _state_params(self) -> list:
        network = self.cb_params.get("train_network") or self.network
        return list(network.get_parameters())

    def save_weights(self, filepath: str, overwrite: bool = True, **kwargs: Any) -> None:
        """Write every Parameter of the train network (weights and optimizer state) to an HDF5 file.

        Args:
            filepath: the file (Keras callbacks use ``*.weights.h5``); replaced atomically.
            overwrite: whether an existing file may be replaced.

        Raises:
            FileExistsError: when the file exists and ``overwrite`` is False.
        """
        import h5py  # pylint: disable=import-outside-toplevel
        filepath = str(filepath)
        if not overwrite and os.path.exists(filepath):
            raise FileExistsError(f"save_weights: {filepath} exists and overwrite is False.")
        buffer = io.BytesIO()
        with h5py.File(buffer, "w") as h5:
            group = h5.create_group("tfspore_parameters")
            for i, param in enumerate(self._state_params()):
                dataset = group.create_dataset(str(i), data=param.asnumpy())
                dataset.attrs["name"] = param.name
        directory = os.path.dirname(filepath)
        if directory:
            os.makedirs(directory, exist_ok=True)
        with _atomic.atomic_write(filepath, final_mode=None) as f:
            f.write(buffer.getvalue())

    def load_weights(self, filepath: str, **kwargs: Any) -> None:
        """Assign the Parameters saved by :meth:`save_weights` to the train network's, by name.

        Args:
            filepath: the HDF5 file.

        Raises:
            ValueError: when the file lacks a Parameter of the network or a shape differs.
        """
        import h5py  # pylint: disable=import-outside-toplevel
        with h5py.File(str(filepath), "r") as h5:
            if "tfspore_parameters" not in h5:
                raise ValueError(f"load_weights: {filepath} was not written by a tfspore Model's Keras callback.")
            saved = {ds.attrs["name"]: ds[()] for ds in h5["tfspore_parameters"].values()}
        params = self._state_params()
        missing = [p.name for p in params if p.name not in saved]
        if missing:
            raise ValueError(f"load_weights: {filepath} has no value for the Parameters {missing}.")
        for param in params:
            value = np.asarray(saved[param.name])
            if tuple(value.shape) != tuple(param.shape):
                raise ValueError(f"load_weights: {param.name} has shape {tuple(param.shape)} in the network but "
                                 f"{tuple(value.shape)} in {filepath}.")
            param.assign_value(Tensor(value.astype(param.asnumpy().dtype)))

    def save(self, filepath: Any = None, *args: Any, **kwargs: Any) -> None:
        name = type(self._keras_callback).__name__ if self._keras_callback is not None else "A Keras callback"
        raise NotImplementedError(f"keras.callbacks.{name} tried to save a .keras model ({filepath}), which cannot "
                                  "hold a tfspore network: use save_weights_only=True (an HDF5 file of the "
                                  "Parameters), or tfspore's ModelCheckpoint for MindSpore .ckpt files.")


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
        self._expects_validation = False

    def expect_validation(self) -> None:
        """Note that this training validates (``Model.fit`` with a ``valid_dataset``) until it ends."""
        self._expects_validation = True

    def __repr__(self) -> str:
        return f"KerasCallbackBridge({self.keras_callback!r})"

    # ---------------------------------------------------------------- plumbing
    def _bind(self, cb_params: dict) -> _KerasModelView:
        if self._view is None or self._view.cb_params is not cb_params:
            self._view = _KerasModelView(cb_params, self.keras_callback)
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
        self._refuse_unsupported()
        self._view = None
        view = self._bind(cb_params)
        view.stop_training = False
        self._in_train = True
        self._params_final = False
        self._last_epoch_logs = {}
        start = getattr(run_context, "start_epoch", None)
        if start is not None:  # Keras's "epochs" is the final epoch index (initial_epoch + count)
            self._params_final = True
        self.keras_callback.set_params({"verbose": 1, "epochs": cb_params.get("epoch_num", 1) + (start or 0),
                                        "steps": cb_params.get("batch_num")})
        self.keras_callback.on_train_begin(logs={})
        self._resume(run_context, view)
        self._check_stop(run_context)

    @staticmethod
    def _resume(run_context: RunContext, view: _KerasModelView) -> None:
        """Move the start of training to the epoch a Keras callback restored (BackupAndRestore)."""
        restored = view._initial_epoch
        view._initial_epoch = None
        if restored is None:
            return
        cb_params = run_context.original_args()
        start = getattr(run_context, "start_epoch", None)
        if start is None:
            raise RuntimeError(f"A Keras callback restored training at epoch {restored}, but this Model cannot "
                               "resume at a later epoch: pass initial_epoch to Model.train.")
        if int(restored) > start:
            steps = cb_params.get("batch_num") or 0
            cb_params.cur_step_num = cb_params.get("cur_step_num", 0) + (int(restored) - start) * steps
            run_context.start_epoch = int(restored)

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
        self._fix_csv_columns(logs)
        self.keras_callback.on_epoch_end(cb_params.cur_epoch_num - 1, logs=logs)
        self._last_epoch_logs = logs
        self._check_stop(run_context)

    def _refuse_unsupported(self) -> None:
        """Keras callbacks that need what a tfspore Model does not have raise, saying why."""
        import keras  # pylint: disable=import-outside-toplevel  # loaded: this is a Keras callback
        if isinstance(self.keras_callback, keras.callbacks.SwapEMAWeights):
            raise ValueError("keras.callbacks.SwapEMAWeights needs a Keras optimizer with use_ema=True, which keeps "
                             "moving averages of the weights; tfspore's optimizers keep none, so it cannot run in "
                             "Model.train / fit.")

    def _fix_csv_columns(self, logs: dict) -> None:
        """CSVLogger's columns: the logged keys when the run does not validate (no phantom ``val_*``)."""
        import keras  # pylint: disable=import-outside-toplevel  # loaded: this is a Keras callback
        csv_logger = self.keras_callback
        if (isinstance(csv_logger, keras.callbacks.CSVLogger) and getattr(csv_logger, "keys", None) is None
                and not self._expects_validation and not any(k.startswith("val_") for k in logs)):
            csv_logger.keys = sorted(logs)

    def on_train_end(self, run_context: RunContext) -> None:
        """Call ``on_train_end(logs)`` with the last epoch's logs."""
        try:
            self.keras_callback.on_train_end(logs=dict(self._last_epoch_logs))
        finally:
            self._in_train = False
            self._expects_validation = False

    # ------------------------------------------------------------------- eval
    def on_eval_begin(self, run_context: RunContext) -> None:
        """Call ``on_test_begin`` (after binding the model and params for a standalone eval)."""
        cb_params = run_context.original_args()
        if self._in_train:
            self._expects_validation = True
        else:
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

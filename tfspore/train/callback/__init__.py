"""``tfspore.train.callback``: MindSpore's training callbacks.

Callbacks are context managers that ``Model.train`` / ``eval`` / ``fit`` call at each stage
(``on_train_begin``, ``on_train_epoch_begin``, ``on_train_step_begin``, ``on_train_step_end``,
``on_train_epoch_end``, ``on_train_end`` and the ``on_eval_*`` equivalents) with a
:class:`RunContext`. Keras callbacks (``keras.callbacks.Callback``) are accepted in the same
lists, and :func:`as_keras_callback` runs a tfspore callback inside ``keras.Model.fit``.

Example:
    >>> from tfspore.train.callback import LossMonitor, TimeMonitor, ModelCheckpoint, CheckpointConfig
    >>> callbacks = [LossMonitor(), TimeMonitor(), ModelCheckpoint(prefix="lenet", directory="./ckpt")]
"""
from tfspore.train.callback._callback import Callback, RunContext
from tfspore.train.callback._callback import _CallbackManager, _InternalCallbackParam  # noqa: F401
from tfspore.train.callback._callback import _handle_loss  # noqa: F401
from tfspore.train.callback._checkpoint import CheckpointConfig, ModelCheckpoint
from tfspore.train.callback._checkpoint import CheckpointManager as _CheckpointManager  # noqa: F401
from tfspore.train.callback._loss_monitor import LossMonitor
from tfspore.train.callback._time_monitor import TimeMonitor
from tfspore.train.callback._lr_scheduler_callback import LearningRateScheduler
from tfspore.train.callback._history import History
from tfspore.train.callback._lambda_callback import LambdaCallback
from tfspore.train.callback._early_stop import EarlyStopping
from tfspore.train.callback._reduce_lr_on_plateau import ReduceLROnPlateau
from tfspore.train.callback._on_request_exit import OnRequestExit
from tfspore.train.callback._backup_and_restore import BackupAndRestore
from tfspore.train.callback._keras_adapter import as_keras_callback
from tfspore.train.callback._summary_collector import SummaryCollector
from tfspore.train.callback._landscape import SummaryLandscape

__all__ = ["Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig", "RunContext",
           "LearningRateScheduler", "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping",
           "OnRequestExit", "BackupAndRestore", "as_keras_callback", "SummaryCollector", "SummaryLandscape"]

"""The callback protocol: the ``Callback`` base class, ``RunContext`` and the callback parameters dict.

``Model`` drives callbacks as MindSpore's Model does (the dispatch is in ``_callback``)::

    cb_params = _InternalCallbackParam()
    run_context = RunContext(cb_params)
    with _CallbackManager(callbacks) as list_callback:
        list_callback.on_train_begin(run_context)
        ...

Model only calls the twelve new hook names (``on_train_*``, ``on_eval_*``); by default each
forwards to one of the six old names (``begin``, ``epoch_begin``, ``step_begin``, ``step_end``,
``epoch_end``, ``end``), so a callback that implements ``step_end`` runs on train steps and on
eval steps alike. Every callback module imports its base from here.

Example:
    >>> from tfspore.train.callback import Callback
    >>> class PrintStep(Callback):
    ...     def on_train_step_end(self, run_context):
    ...         print("step_num:", run_context.original_args().cur_step_num)
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from tfspore.common.tensor import Tensor

# MindSpore's ``mindspore.train.callback.__all__``: the names that Model treats as built-in.
_PUBLIC_CALLBACK_NAMES = ("Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "FlopsUtilizationCollector",
                          "SummaryCollector", "CheckpointConfig", "RunContext", "LearningRateScheduler",
                          "SummaryLandscape", "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping",
                          "OnRequestExit", "BackupAndRestore", "TrainFaultTolerance")
_OLD_METHOD_NAMES = frozenset({"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"})


class Callback:
    """Base class of callbacks: context managers entered while ``Model`` runs.

    Each hook receives a :class:`RunContext` whose ``original_args()`` is the dict of the
    model's state (``cb_params``). Override the ``on_train_*`` / ``on_eval_*`` hooks; the old
    names (``begin``, ``epoch_begin``, ``step_begin``, ``step_end``, ``epoch_end``, ``end``)
    still work in ``train`` and ``eval`` (with a warning for custom callbacks) but make
    ``Model.fit`` raise a ValueError, as in MindSpore.

    Example:
        >>> class StopAtStep(Callback):
        ...     def __init__(self, stop_step):
        ...         super().__init__()
        ...         self.stop_step = stop_step
        ...     def on_train_step_end(self, run_context):
        ...         if run_context.original_args().cur_step_num >= self.stop_step:
        ...             run_context.request_stop()
    """

    def __enter__(self) -> "Callback":
        """Return the object that the run uses (``self``)."""
        return self

    def __exit__(self, *err: Any) -> Any:
        """Release resources, if any."""

    # ------------------------------------------------------------------ old names
    def begin(self, run_context: "RunContext") -> None:
        """Called once before the network runs (old name of ``on_train_begin`` and ``on_eval_begin``).

        Args:
            run_context: the run's context.
        """

    def epoch_begin(self, run_context: "RunContext") -> None:
        """Called before each epoch (old name of ``on_train_epoch_begin`` and ``on_eval_epoch_begin``).

        Args:
            run_context: the run's context.
        """

    def epoch_end(self, run_context: "RunContext") -> None:
        """Called after each epoch (old name of ``on_train_epoch_end`` and ``on_eval_epoch_end``).

        Args:
            run_context: the run's context.
        """

    def step_begin(self, run_context: "RunContext") -> None:
        """Called before each step (old name of ``on_train_step_begin`` and ``on_eval_step_begin``).

        Args:
            run_context: the run's context.
        """

    def step_end(self, run_context: "RunContext") -> None:
        """Called after each step (old name of ``on_train_step_end`` and ``on_eval_step_end``).

        Args:
            run_context: the run's context.
        """

    def end(self, run_context: "RunContext") -> None:
        """Called once after the run (old name of ``on_train_end`` and ``on_eval_end``).

        Args:
            run_context: the run's context.
        """

    # ------------------------------------------------------------------ new names
    def on_train_begin(self, run_context: "RunContext") -> None:
        """Called once before training; calls :meth:`begin` by default.

        Args:
            run_context: the run's context.
        """
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: "RunContext") -> None:
        """Called before each training epoch; calls :meth:`epoch_begin` by default.

        Args:
            run_context: the run's context.
        """
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: "RunContext") -> None:
        """Called after each training epoch; calls :meth:`epoch_end` by default.

        Args:
            run_context: the run's context.
        """
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: "RunContext") -> None:
        """Called before each training step; calls :meth:`step_begin` by default.

        Args:
            run_context: the run's context.
        """
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: "RunContext") -> None:
        """Called after each training step; calls :meth:`step_end` by default.

        Args:
            run_context: the run's context.
        """
        self.step_end(run_context)

    def on_train_end(self, run_context: "RunContext") -> None:
        """Called once after training; calls :meth:`end` by default.

        Args:
            run_context: the run's context.
        """
        self.end(run_context)

    def on_eval_begin(self, run_context: "RunContext") -> None:
        """Called once before evaluation; calls :meth:`begin` by default.

        Args:
            run_context: the run's context.
        """
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: "RunContext") -> None:
        """Called before the evaluation epoch; calls :meth:`epoch_begin` by default.

        Args:
            run_context: the run's context.
        """
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: "RunContext") -> None:
        """Called after the evaluation epoch; calls :meth:`epoch_end` by default.

        Args:
            run_context: the run's context.
        """
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: "RunContext") -> None:
        """Called before each evaluation step; calls :meth:`step_begin` by default.

        Args:
            run_context: the run's context.
        """
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: "RunContext") -> None:
        """Called after each evaluation step; calls :meth:`step_end` by default.

        Args:
            run_context: the run's context.
        """
        self.step_end(run_context)

    def on_eval_end(self, run_context: "RunContext") -> None:
        """Called once after evaluation; calls :meth:`end` by default.

        Args:
            run_context: the run's context.
        """
        self.end(run_context)


class _InternalCallbackParam(dict):
    """The ``cb_params`` dict: item access and attribute access are the same.

    As in MindSpore, reading a missing attribute raises ``KeyError`` (so ``hasattr`` raises too);
    use ``cb_params.get(name)`` for optional fields. Dunder lookups raise AttributeError, so copy
    and pickle keep working.

    Example:
        >>> cb = _InternalCallbackParam()
        >>> cb.cur_step_num = 3
        >>> cb["cur_step_num"]
        3
    """

    def __getattr__(self, key: str) -> Any:
        if key.startswith("__") and key.endswith("__"):
            raise AttributeError(key)
        return self[key]

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __delattr__(self, key: str) -> None:
        del self[key]


InternalCallbackParam = _InternalCallbackParam


class RunContext:
    """The context handed to every callback hook.

    ``original_args()`` returns the model's state dict (``cb_params``); ``request_stop()`` asks
    the loop to stop (train: after the current step's ``on_train_step_end`` the epoch ends,
    ``on_train_epoch_end`` and ``on_train_end`` still run).

    Args:
        original_args: the dict of model information (``cb_params``).

    Raises:
        TypeError: when ``original_args`` is not a dict.

    Example:
        >>> run_context = RunContext({"cur_epoch_num": 1, "cur_step_num": 2})
        >>> run_context.request_stop()
        >>> run_context.get_stop_requested()
        True
    """

    def __init__(self, original_args: dict) -> None:
        if not isinstance(original_args, dict):
            raise TypeError("The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False
        # The epoch index training starts from (Model.train's initial_epoch); a callback that
        # restores an interrupted run (Keras's BackupAndRestore through the bridge) moves it on
        # in on_train_begin. Kept here, not in cb_params, whose keys are MindSpore's.
        self.start_epoch: int | None = None

    def original_args(self) -> dict:
        """Return the dict of model information (the same object on every call).

        Returns:
            dict: ``cb_params``.
        """
        return self._original_args

    def request_stop(self) -> None:
        """Ask the running loop to stop."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        """Whether a stop was requested.

        Returns:
            bool: True once :meth:`request_stop` was called.
        """
        return self._stop_requested


# ------------------------------------------------------------------------------------ helpers
def _is_tensor(value: Any) -> bool:
    """Whether ``value`` is a tfspore Tensor (or Parameter) or an eager ``tf.Tensor``."""
    if isinstance(value, Tensor):
        return True
    tf = sys.modules.get("tensorflow")
    return tf is not None and isinstance(value, tf.Tensor) and hasattr(value, "numpy")


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(value)


def _to_numpy(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.asnumpy()
    return np.asarray(value)


def _handle_loss(loss: Any) -> Any:
    """The loss as LossMonitor, EarlyStopping and ReduceLROnPlateau see it.

    A tuple or list whose first item is a Tensor gives that Tensor (printed as a Tensor); a
    Tensor gives ``float(mean)``; anything else is returned unchanged.

    Args:
        loss: ``cb_params.net_outputs``.

    Returns:
        The loss value.
    """
    if isinstance(loss, (tuple, list)):
        if loss and _is_tensor(loss[0]):
            loss = _as_tensor(loss[0])
    elif _is_tensor(loss):
        loss = float(np.mean(_to_numpy(loss)))
    return loss

"""Callback base class, RunContext, the callback parameters dict and the callback manager.

``Model`` drives callbacks as MindSpore's Model does::

    cb_params = _InternalCallbackParam()
    run_context = RunContext(cb_params)
    with _CallbackManager(callbacks) as list_callback:
        list_callback.on_train_begin(run_context)
        ...

Model only calls the twelve new hook names (``on_train_*``, ``on_eval_*``); by default each
forwards to one of the six old names (``begin``, ``epoch_begin``, ``step_begin``, ``step_end``,
``epoch_end``, ``end``), so a callback that implements ``step_end`` runs on train steps and on
eval steps alike.

Example:
    >>> from tfspore.train.callback import Callback
    >>> class PrintStep(Callback):
    ...     def on_train_step_end(self, run_context):
    ...         print("step_num:", run_context.original_args().cur_step_num)
"""
from __future__ import annotations

import logging
import sys
import weakref
from collections.abc import Iterable
from contextlib import ExitStack
from typing import Any

import numpy as np

from tfspore.common.tensor import Tensor

_logger = logging.getLogger("tfspore")

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


def _is_keras_callback(obj: Any) -> bool:
    """Whether ``obj`` is a ``keras.callbacks.Callback`` (Keras 3, or tf_keras) without importing Keras."""
    for module_name in ("keras", "tf_keras"):
        keras = sys.modules.get(module_name)
        if keras is None:
            continue
        try:
            if isinstance(obj, keras.callbacks.Callback):
                return True
        except AttributeError:
            continue
    return False


_BRIDGES: "weakref.WeakKeyDictionary[Any, Callback]" = weakref.WeakKeyDictionary()


def _as_callback(obj: Any) -> Callback:
    """Return ``obj`` itself for a Callback, or the (cached) bridge for a Keras callback."""
    if isinstance(obj, Callback):
        return obj
    if _is_keras_callback(obj):
        bridge = _BRIDGES.get(obj)
        if bridge is None:
            from tfspore.train.callback._keras_bridge import KerasCallbackBridge
            bridge = KerasCallbackBridge(obj)
            _BRIDGES[obj] = bridge
        return bridge
    raise TypeError("When the 'callbacks' is a list, the elements in 'callbacks' must be Callback functions, "
                    f"but got {obj!r} of type {type(obj).__name__}.")


def _normalize_callbacks(callbacks: Any) -> list:
    """Model's ``_transform_callbacks``: None gives ``[]``, an iterable a list, anything else ``[obj]``.

    Args:
        callbacks: None, a Callback, or an iterable of callbacks.

    Returns:
        list: the callbacks.
    """
    if callbacks is None:
        return []
    if isinstance(callbacks, Iterable) and not isinstance(callbacks, (str, bytes, dict)):
        return list(callbacks)
    return [callbacks]


def _check_methods_for_custom_callbacks(callbacks: Any, current_mode: str) -> None:
    """Check custom callbacks for the old method names (MindSpore's Model does this).

    A callback whose class name is not a built-in callback name and whose own class defines any
    of ``begin, end, epoch_begin, epoch_end, step_begin, step_end`` gets a warning in ``train``
    and ``eval`` and a ValueError in ``fit``.

    Args:
        callbacks: a callback or a list of callbacks.
        current_mode: ``"train"``, ``"eval"`` or ``"fit"``.

    Raises:
        ValueError: in fit mode, for a custom callback with old method names.
    """
    if not isinstance(callbacks, (list, tuple)):
        callbacks = [callbacks]
    for cb in callbacks:
        if cb is None or _is_keras_callback(cb):
            continue
        cb_name = cb.__class__.__name__
        if cb_name in _PUBLIC_CALLBACK_NAMES:
            continue
        invalid = set(cb.__class__.__dict__.keys()) & _OLD_METHOD_NAMES
        if not invalid:
            continue
        msg = (f"For {cb_name} callback, {invalid} methods may not be supported in later version, Use methods "
               "prefixed with 'on_train' or 'on_eval' instead when using customized callbacks.")
        if current_mode in ("train", "eval"):
            _logger.warning(msg)
        else:
            raise ValueError(msg)


def _check_old_style_callbacks(callbacks: Any, fit: bool = False) -> None:
    """:func:`_check_methods_for_custom_callbacks` for ``train``/``eval`` (``fit=False``) or ``fit``.

    Args:
        callbacks: a callback or a list of callbacks.
        fit: True in ``Model.fit`` (an error instead of a warning).
    """
    _check_methods_for_custom_callbacks(callbacks, "fit" if fit else "train")


def _eval_callbacks_in_fit(callbacks: Any) -> list:
    """The callbacks that run during ``fit``'s validation.

    Built-in callbacks (by class name) are dropped, except TimeMonitor; custom callbacks and
    Keras callbacks are kept.

    Args:
        callbacks: the train callback list (or a ``_CallbackManager``).

    Returns:
        list: the callbacks for the validation run.
    """
    from tfspore.train.callback._time_monitor import TimeMonitor
    if isinstance(callbacks, _CallbackManager):
        callbacks = callbacks.callbacks
    result = []
    for cb in _normalize_callbacks(callbacks):
        if _is_keras_callback(cb) or type(cb).__name__ not in _PUBLIC_CALLBACK_NAMES or isinstance(cb, TimeMonitor):
            result.append(cb)
    return result


class _CallbackManager(Callback):
    """Runs a list of callbacks in order; a context manager that enters all of them.

    ``with _CallbackManager(callbacks) as cbs:`` enters every callback (``ExitStack``) and exits
    them in reverse order afterwards, also on an exception. A callback whose ``__enter__`` does
    not return a Callback is used as it is, with a warning. Keras callbacks are wrapped in a
    bridge that translates the hooks.

    Args:
        callbacks: None, a Callback, a Keras callback, or a list/tuple of them.

    Raises:
        TypeError: for an element that is neither a Callback nor a Keras callback.

    Example:
        >>> with _CallbackManager([LossMonitor()]) as cbs:
        ...     cbs.on_train_begin(RunContext(_InternalCallbackParam()))
    """

    def __init__(self, callbacks: Any) -> None:
        self._callbacks: list = []
        self._stack: ExitStack | None = None
        if callbacks is None:
            return
        if isinstance(callbacks, Callback) or _is_keras_callback(callbacks):
            self._callbacks.append(_as_callback(callbacks))
        elif isinstance(callbacks, (list, tuple)):
            for cb in callbacks:
                self._callbacks.append(_as_callback(cb))
        else:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback, but got "
                            f"{callbacks!r} of type {type(callbacks).__name__}.")

    @property
    def callbacks(self) -> list:
        """list: the managed callbacks (Keras callbacks appear as their bridges)."""
        return list(self._callbacks)

    def __enter__(self) -> "_CallbackManager":
        if self._stack is None:
            entered, stack = [], ExitStack()
            stack.__enter__()
            try:
                for callback in self._callbacks:
                    target = stack.enter_context(callback)
                    if not isinstance(target, Callback):
                        _logger.warning("Please return 'self' or a Callback as the enter target.")
                        entered.append(callback)
                    else:
                        entered.append(target)
            except BaseException:
                stack.__exit__(*sys.exc_info())
                raise
            self._stack = stack
            self._callbacks = entered
        return self

    def __exit__(self, *err: Any) -> Any:
        stack, self._stack = self._stack, None
        if stack is None:
            return None
        return stack.__exit__(*err)

    def _dispatch(self, name: str, run_context: RunContext) -> None:
        for cb in self._callbacks:
            getattr(cb, name)(run_context)

    def begin(self, run_context: RunContext) -> None:
        """Call ``begin`` on every callback."""
        self._dispatch("begin", run_context)

    def epoch_begin(self, run_context: RunContext) -> None:
        """Call ``epoch_begin`` on every callback."""
        self._dispatch("epoch_begin", run_context)

    def epoch_end(self, run_context: RunContext) -> None:
        """Call ``epoch_end`` on every callback."""
        self._dispatch("epoch_end", run_context)

    def step_begin(self, run_context: RunContext) -> None:
        """Call ``step_begin`` on every callback."""
        self._dispatch("step_begin", run_context)

    def step_end(self, run_context: RunContext) -> None:
        """Call ``step_end`` on every callback."""
        self._dispatch("step_end", run_context)

    def end(self, run_context: RunContext) -> None:
        """Call ``end`` on every callback."""
        self._dispatch("end", run_context)

    def on_train_begin(self, run_context: RunContext) -> None:
        """Call ``on_train_begin`` on every callback."""
        self._dispatch("on_train_begin", run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        """Call ``on_train_epoch_begin`` on every callback."""
        self._dispatch("on_train_epoch_begin", run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Call ``on_train_epoch_end`` on every callback."""
        self._dispatch("on_train_epoch_end", run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Call ``on_train_step_begin`` on every callback."""
        self._dispatch("on_train_step_begin", run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Call ``on_train_step_end`` on every callback."""
        self._dispatch("on_train_step_end", run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        """Call ``on_train_end`` on every callback."""
        self._dispatch("on_train_end", run_context)

    def on_eval_begin(self, run_context: RunContext) -> None:
        """Call ``on_eval_begin`` on every callback."""
        self._dispatch("on_eval_begin", run_context)

    def on_eval_epoch_begin(self, run_context: RunContext) -> None:
        """Call ``on_eval_epoch_begin`` on every callback."""
        self._dispatch("on_eval_epoch_begin", run_context)

    def on_eval_epoch_end(self, run_context: RunContext) -> None:
        """Call ``on_eval_epoch_end`` on every callback."""
        self._dispatch("on_eval_epoch_end", run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        """Call ``on_eval_step_begin`` on every callback."""
        self._dispatch("on_eval_step_begin", run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """Call ``on_eval_step_end`` on every callback."""
        self._dispatch("on_eval_step_end", run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        """Call ``on_eval_end`` on every callback."""
        self._dispatch("on_eval_end", run_context)


CallbackManager = _CallbackManager

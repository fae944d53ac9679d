"""The callback dispatch: ``_CallbackManager`` runs a list of callbacks (Keras callbacks through a
bridge) for ``Model``; also the public home of the callback protocol (``Callback``, ``RunContext``,
``_InternalCallbackParam``, defined in ``_callback_base``).

``Model`` drives callbacks as MindSpore's Model does::

    cb_params = _InternalCallbackParam()
    run_context = RunContext(cb_params)
    with _CallbackManager(callbacks) as list_callback:
        list_callback.on_train_begin(run_context)
        ...

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

from tfspore.train.callback._callback_base import (_OLD_METHOD_NAMES, _PUBLIC_CALLBACK_NAMES, Callback,  # noqa: F401
                                                   InternalCallbackParam, RunContext, _as_tensor, _handle_loss,
                                                   _InternalCallbackParam, _is_tensor, _to_numpy)
from tfspore.train.callback._keras_bridge import KerasCallbackBridge
from tfspore.train.callback._time_monitor import TimeMonitor

_logger = logging.getLogger("tfspore")

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
    if isinstance(callbacks, _CallbackManager):
        callbacks = callbacks.callbacks
    result = []
    for cb in _normalize_callbacks(callbacks):
        if _is_keras_callback(cb) or type(cb).__name__ not in _PUBLIC_CALLBACK_NAMES or isinstance(cb, TimeMonitor):
            result.append(cb)
            if _is_keras_callback(cb):  # its logs will have val_* keys (CSVLogger's columns)
                _as_callback(cb).expect_validation()
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

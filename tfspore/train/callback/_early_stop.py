"""EarlyStopping: stops training when a monitored value stops improving."""
from __future__ import annotations

import logging
import math
from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.train.callback._callback import Callback, RunContext, _handle_loss, _is_tensor, _to_numpy

_logger = logging.getLogger("tfspore")

_smaller_better_metrics = ["hausdorff_distance", "mae", "mse", "loss", "perplexity",
                           "mean_surface_distance", "root_mean_square_distance", "eval_loss"]


def _check_mode(mode: Any, api: str) -> str:
    validator.check_type(mode, str, "mode", api)
    return validator.check_string(mode, ("auto", "min", "max"), "mode", api)


def _lower_is_better(mode: str, monitor: str) -> bool:
    return mode == "min" or (mode == "auto" and monitor in _smaller_better_metrics)


def _initial_best(cb: Any) -> float:
    """The starting ``best`` of a callback with ``mode`` and ``monitor``: +inf when lower is better, else -inf."""
    return np.inf if _lower_is_better(cb.mode, cb.monitor) else -np.inf


def _init_improvement(cb: Any) -> None:
    """Set ``cb.is_improvement`` (beating ``b`` by more than ``cb.min_delta``) and ``cb.best``."""
    if _lower_is_better(cb.mode, cb.monitor):
        cb.is_improvement = lambda a, b: np.less(a, b - cb.min_delta)
    else:
        cb.is_improvement = lambda a, b: np.greater(a, b + cb.min_delta)
    cb.best = _initial_best(cb)


def _monitor_value(cb_params: dict, monitor: str, what: str, owner: str) -> np.ndarray | None:
    """The monitored value at the end of a train epoch, or None (with a warning) when it is missing.

    ``"loss"`` is taken from the network output (item 0 of a tuple); any other name from
    ``cb_params.eval_results`` (set by ``Model.fit``'s validation: the metrics and ``eval_loss``).
    """
    candidates: dict = {}
    if monitor == "loss":
        value = _handle_loss(cb_params.get("net_outputs"))
    else:
        candidates = cb_params.get("eval_results") or {}
        value = candidates.get(monitor)
    if value is None:
        _logger.warning("%s is conditioned on %s, which is not available. Available choices are: %s",
                        what, monitor, set(["loss"] + list(candidates.keys())))
        return None
    arr = np.asarray(_to_numpy(value) if _is_tensor(value) else value)
    if arr.shape != ():
        raise ValueError(f"{owner} only supports scalar monitor now, but got a value of shape {arr.shape}.")
    if monitor == "loss" and arr.dtype.kind == "f" and not math.isfinite(float(arr)):
        _logger.warning("Invalid %s.", monitor)
    return arr


class EarlyStopping(Callback):
    """Stop training when a monitored value has stopped improving.

    At the end of each train epoch the monitored value is compared with the best so far: an
    improvement (by more than ``min_delta``, and past ``baseline`` when one is given) resets the
    wait counter; otherwise the counter grows, and once it reaches ``patience`` (at least one
    epoch without improvement) training stops after this epoch.

    Args:
        monitor: ``"loss"`` (the training loss: item 0 of a tuple output), or, in ``Model.fit``
            with validation, ``"eval_loss"`` or a metric name of the Model. Default: ``"eval_loss"``.
        min_delta: the smallest change that counts as an improvement (its absolute value is used).
            Default: 0.
        patience: the number of epochs without improvement to wait. Default: 0.
        verbose: print when stopping. Default: False.
        mode: ``"min"``, ``"max"`` or ``"auto"`` (min for loss-like names, max otherwise).
            Default: ``"auto"``.
        baseline: a value the monitor must beat for the wait counter to reset. Default: None.
        restore_best_weights: when stopping, restore the train network's weights from the best
            epoch. Default: False.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for a bad ``mode``, a negative ``patience``, or a monitored value that is not a scalar.

    Example:
        >>> cb = EarlyStopping(monitor="acc", patience=3, verbose=True)
        >>> model.fit(10, train_dataset, valid_dataset, callbacks=[cb])  # doctest: +SKIP
    """

    def __init__(self, monitor: str = "eval_loss", min_delta: float = 0, patience: int = 0, verbose: bool = False,
                 mode: str = "auto", baseline: float | None = None, restore_best_weights: bool = False) -> None:
        super().__init__()
        self.monitor = validator.check_type(monitor, str, "monitor", "EarlyStopping")
        min_delta = validator.check_type(min_delta, [float, int], "min_delta", "EarlyStopping")
        self.min_delta = abs(min_delta)
        self.patience = validator.check_non_negative_int(patience, "patience", "EarlyStopping")
        self.verbose = validator.check_bool(verbose, "verbose", "EarlyStopping")
        self.mode = _check_mode(mode, "EarlyStopping")
        self.baseline = None if baseline is None else validator.check_type(baseline, [float, int], "baseline",
                                                                                 "EarlyStopping")
        self.restore_best_weights = validator.check_bool(restore_best_weights, "restore_best_weights", "EarlyStopping")
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights_param_dict: dict | None = None
        _init_improvement(self)

    def on_train_begin(self, run_context: RunContext) -> None:
        """Reset the counters at the beginning of training.

        Args:
            run_context: the run's context.
        """
        self.wait = 0
        self.stopped_epoch = 0
        self.best = _initial_best(self)
        self.best_weights_param_dict = None

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Compare the monitored value with the best one, and stop when patience has run out.

        Args:
            run_context: the run's context.
        """
        cb_params = run_context.original_args()
        current = _monitor_value(cb_params, self.monitor, "Early stopping", "EarlyStopping")
        if current is None:
            return
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = _snapshot(cb_params.train_network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = _snapshot(cb_params.train_network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
                return
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                _restore(cb_params.train_network, self.best_weights_param_dict)

    def on_train_end(self, run_context: RunContext) -> None:
        """Print ``Epoch 00003: early stopping`` if verbose and training was stopped.

        Args:
            run_context: the run's context.
        """
        if self.stopped_epoch and self.stopped_epoch > 0 and self.verbose:
            print("Epoch %05d: early stopping" % self.stopped_epoch)


def _snapshot(network: Any) -> dict:
    """Copies of the network's parameter values, by name."""
    return {name: np.array(p.asnumpy(), copy=True) for name, p in network.parameters_dict().items()}


def _restore(network: Any, values: dict) -> None:
    params = network.parameters_dict()
    for name, value in values.items():
        if name in params:
            params[name].assign_value(value)

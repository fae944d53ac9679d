"""ReduceLROnPlateau: lowers the learning rate when a monitored value stops improving."""
from __future__ import annotations

import numpy as np

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.train.callback._callback import Callback, RunContext
from tfspore.train.callback._early_stop import _check_mode, _init_improvement, _initial_best, _monitor_value

_API = "ReduceLROnPlateau"


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` when a monitored value stops improving.

    At the end of each train epoch: during a cooldown the wait counter stays at 0; an improvement
    (by more than ``min_delta``) resets it; otherwise it grows, and once it reaches ``patience``
    the learning rate becomes ``max(lr * factor, min_lr)`` (if ``lr > min_lr``), the cooldown
    starts and the counter resets. With ``verbose`` it prints
    ``Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.25.``

    Args:
        monitor: ``"loss"`` or, in ``Model.fit`` with validation, ``"eval_loss"`` or a metric
            name. Default: ``"eval_loss"``.
        factor: the multiplier, in (0, 1). Default: 0.1.
        patience: epochs without improvement before reducing. Default: 10.
        verbose: print each reduction. Default: False.
        mode: ``"min"``, ``"max"`` or ``"auto"``. Default: ``"auto"``.
        min_delta: the smallest change that counts as an improvement. Default: 1e-4.
        cooldown: epochs to wait after a reduction. Default: 0.
        min_lr: the lower bound of the learning rate. Default: 0.

    Raises:
        TypeError, ValueError: for bad arguments; ValueError at epoch end when the optimizer's
            learning rate is not a single Parameter.

    Example:
        >>> cb = ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=2, verbose=True)
        >>> model.fit(10, train_dataset, valid_dataset, callbacks=[cb])  # doctest: +SKIP
    """

    def __init__(self, monitor: str = "eval_loss", factor: float = 0.1, patience: int = 10, verbose: bool = False,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0) -> None:
        super().__init__()
        self.monitor = validator.check_type(monitor, str, "monitor", _API)
        self.factor = validator.check_float_range(factor, "factor", _API, 0.0, 1.0, inc_low=False, inc_high=False,
                                                  allow_int=False)
        self.patience = validator.check_non_negative_int(patience, "patience", _API)
        self.verbose = validator.check_bool(verbose, "verbose", _API)
        self.mode = _check_mode(mode, _API)
        min_delta = validator.check_type(min_delta, [float, int], "min_delta", _API)
        self.min_delta = abs(min_delta)
        self.cooldown = validator.check_non_negative_int(cooldown, "cooldown", _API)
        self.min_lr = validator.check_type(min_lr, [float, int], "min_lr", _API)
        self.cooldown_counter = 0
        self.wait = 0
        _init_improvement(self)

    def on_train_begin(self, run_context: RunContext) -> None:
        """Reset the counters at the beginning of training.

        Args:
            run_context: the run's context.
        """
        self.cooldown_counter = 0
        self.wait = 0
        self.best = _initial_best(self)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Reduce the learning rate when the monitored value has not improved for ``patience`` epochs.

        Args:
            run_context: the run's context.

        Raises:
            ValueError: when the learning rate is not a single Parameter.
        """
        cb_params = run_context.original_args()
        cur_lr = cb_params.optimizer.learning_rate
        if not isinstance(cur_lr, Parameter):
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now, "
                             f"but got a learning rate of type {type(cur_lr).__name__}.")
        current = _monitor_value(cb_params, self.monitor, "Learning rate reduction", "ReduceLROnPlateau")
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                lr = np.float32(cur_lr.asnumpy())
                if lr > self.min_lr:
                    reduced = np.float32(lr * np.float32(self.factor))
                    new_lr = self.min_lr if self.min_lr > reduced else Tensor(reduced)
                    cur_lr.assign_value(Tensor(float(new_lr.asnumpy()) if isinstance(new_lr, Tensor) else new_lr,
                                               mstype.float32))
                    if self.verbose:
                        print("Epoch %05d: ReduceLROnPlateau reducing learning rate to %s."
                              % (cb_params.cur_epoch_num, new_lr))
                self.cooldown_counter = self.cooldown
                self.wait = 0

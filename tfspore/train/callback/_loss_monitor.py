"""LossMonitor: prints the training loss, and stops on a NaN or infinite loss."""
from __future__ import annotations

import math

import numpy as np

from tfspore._internal import validator
from tfspore.train.callback._callback import Callback, RunContext, _handle_loss


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps; raise on a NaN or infinite loss.

    Prints ``epoch: 1 step: 3, loss is 2.3025851249694824`` (the step within the epoch, the loss
    as a Python float; a loss taken from a tuple output prints as a Tensor). The count is on the
    global step, so ``per_print_times=2`` prints at global steps 2, 4, 6, ... across epochs. In
    ``Model.fit`` it also prints the validation metrics at the end of each validated epoch.

    Note:
        ``per_print_times=0`` never prints; the NaN check still applies. The check only applies to
        a loss that is a float, i.e. a Tensor output, not a tuple output such as
        ``(loss, overflow, scale)`` of a loss-scale cell.

    Args:
        per_print_times: how many steps between two prints. Default: 1.

    Raises:
        ValueError: if ``per_print_times`` is a negative int.
        TypeError: if ``per_print_times`` is not an int (a bool is rejected).

    Example:
        >>> from tfspore.train import Model, LossMonitor
        >>> model.train(10, dataset, callbacks=LossMonitor())  # doctest: +SKIP
        epoch: 1 step: 1, loss is 2.3025851249694824
    """

    def __init__(self, per_print_times: int = 1) -> None:
        super().__init__()
        validator.check_non_negative_int(per_print_times, "per_print_times", "LossMonitor")
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context: RunContext) -> None:
        """Print the loss at the end of a step (train and eval steps).

        Args:
            run_context: the run's context.

        Raises:
            ValueError: when the loss is NaN or infinite:
                ``In epoch: 1 step: 1, loss is NAN or INF, training process cannot continue,
                terminating training.``
        """
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = _handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1

        if isinstance(loss, float) and (math.isnan(loss) or math.isinf(loss)):
            raise ValueError(f"In epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is NAN or INF, training "
                             "process cannot continue, terminating training.")

        # After a rollback (fault recovery) cur_step_num can fall back below the last print.
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times,
                                             cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)

        if self._per_print_times != 0 and (cb_params.cur_step_num - self._last_print_time) >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print("epoch: %s step: %s, loss is %s" % (cur_epoch_num, cur_step_in_epoch, loss), flush=True)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """In ``Model.fit``, print the validation metrics of the epoch, if it was validated.

        Prints ``Eval result: epoch 2, metrics: {'acc': 0.5, 'loss': 1.04}``.

        Args:
            run_context: the run's context.
        """
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            # numpy scalars print as plain numbers, as in MindSpore's logs (numpy 2 would show np.float64(...))
            shown = {k: v.item() if isinstance(v, np.generic) else v for k, v in metrics.items()}
            print("Eval result: epoch %d, metrics: %s" % (cb_params.cur_epoch_num, shown))

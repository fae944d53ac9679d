"""TimeMonitor: prints the epoch time and the time per step."""
from __future__ import annotations

import time
from typing import Any

from tfspore._internal import validator
from tfspore.train.callback._callback_base import Callback, RunContext


class TimeMonitor(Callback):
    """Print the time of each epoch and the mean time per step.

    Prints ``Train epoch time: 198.863 ms, per step time: 66.288 ms`` at the end of each epoch
    (``Eval ...`` for evaluation epochs, which it also times). With ``data_time=True`` in
    non-sink mode, ``" (data time: 0.746 ms)"`` is appended: the mean host time between the end
    of a step and the start of the next one (fetching the data).

    Args:
        data_size: the number of steps per epoch, used only when ``cb_params.batch_num`` is not
            a positive int. Default: None.
        data_time: whether to show the mean data-fetch time. Default: False.

    Raises:
        TypeError: if ``data_time`` is not a bool.
        ValueError: at the end of an epoch, when neither ``batch_num`` nor ``data_size`` is a
            positive int.

    Example:
        >>> from tfspore.train import TimeMonitor
        >>> model.train(10, dataset, callbacks=TimeMonitor())  # doctest: +SKIP
        Train epoch time: 198.863 ms, per step time: 66.288 ms
    """

    @property
    def _step_begin_reads_batch(self) -> bool:
        # step_begin only reads the clock; with data_time the batch must be fetched before it, as timed
        return self.data_time

    def __init__(self, data_size: int | None = None, data_time: bool = False) -> None:
        super().__init__()
        self.data_size = data_size
        self.epoch_time = time.time()
        validator.check_bool(data_time, "data_time", "TimeMonitor")
        self.data_time = data_time
        self.data_time_sum = 0.0
        self.data_time_start = 0.0
        self.data_sink = lambda c: c.original_args().get("dataset_sink_mode", False)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Add the time since the previous step ended to the data time.

        Args:
            run_context: the run's context.
        """
        if self.data_time and not self.data_sink(run_context):
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Record the end time of the step.

        Args:
            run_context: the run's context.
        """
        if self.data_time and not self.data_sink(run_context):
            self.data_time_start = time.time()

    def epoch_begin(self, run_context: RunContext) -> None:
        """Record the start time of the epoch (train and eval epochs).

        Args:
            run_context: the run's context.
        """
        self.epoch_time = time.time()
        if self.data_time and not self.data_sink(run_context):
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context: RunContext) -> None:
        """Print the epoch time and the time per step (train and eval epochs).

        Args:
            run_context: the run's context.

        Raises:
            ValueError: when the number of steps is unknown.
        """
        epoch_ms = (time.time() - self.epoch_time) * 1000
        step_size: Any = self.data_size
        cb_params = run_context.original_args()
        mode = cb_params.get("mode", "")
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and not isinstance(batch_num, bool) and batch_num > 0:
            step_size = batch_num
        validator.check_positive_int(step_size, "step_size", "TimeMonitor")
        step_ms = epoch_ms / step_size

        train_log = "{} epoch time: {:5.3f} ms, per step time: {:5.3f} ms".format(mode.title(), epoch_ms, step_ms)
        if self.data_time and not self.data_sink(run_context):
            train_log += " (data time: {:5.3f} ms)".format(self.data_time_sum * 1000 / step_size)
        elif self.data_time:
            fetch_ms = self._sink_data_time(cb_params)
            if fetch_ms is not None:
                train_log += " (data time: {:5.3f} ms)".format(fetch_ms)
        print(train_log, flush=True)

    @staticmethod
    def _sink_data_time(cb_params: dict) -> float | None:
        """The data time the dataset helper reports for this epoch in sink mode, if it reports one."""
        helper = cb_params.get("dataset_helper")
        get_info = getattr(helper, "get_send_info", None)
        if get_info is None:
            return None
        try:
            info = get_info(RunContext(cb_params)).epoch(cb_params["cur_epoch_num"])
            return float(info["fetch_data_time"])
        except (AttributeError, KeyError, TypeError):
            return None

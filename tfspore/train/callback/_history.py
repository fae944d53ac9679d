"""History: records the network output and the metrics of each epoch."""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.train.callback._callback import Callback, RunContext, _is_tensor, _to_numpy


class History(Callback):
    """Record the network output (the loss) and the metrics at the end of each epoch.

    ``history`` maps ``"net_output"`` (and, in ``Model.fit``, each metric name) to a list with
    one value per epoch; ``epoch`` is ``{"epoch": [1, 2, ...]}`` for the last run. The output
    recorded is item 0 of a tuple output, and the mean of a Tensor (a ``numpy.float32``).

    Example:
        >>> history_cb = History()
        >>> model.train(2, train_dataset, callbacks=[history_cb])  # doctest: +SKIP
        >>> print(history_cb.epoch)  # doctest: +SKIP
        {'epoch': [1, 2]}
        >>> print(history_cb.history)  # doctest: +SKIP
        {'net_output': [1.607877, 1.6033841]}
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list] = {}
        self.epoch: dict[str, list] | None = None

    def begin(self, run_context: RunContext) -> None:
        """Reset ``epoch`` at the beginning of a run.

        Args:
            run_context: the run's context.
        """
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: RunContext) -> None:
        """Record the network output and the metrics of the epoch.

        Args:
            run_context: the run's context.
        """
        cb_params = run_context.original_args()
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        net_output: Any = cb_params.net_outputs
        if isinstance(net_output, (tuple, list)) and net_output and _is_tensor(net_output[0]):
            net_output = net_output[0]
        if _is_tensor(net_output):
            net_output = np.mean(_to_numpy(net_output))
        cur_history = {"net_output": net_output}
        metrics = cb_params.get("metrics")
        if metrics:
            cur_history.update(metrics)
        for key, value in cur_history.items():
            self.history.setdefault(key, []).append(value)

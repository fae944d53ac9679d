"""LearningRateScheduler: changes the optimizer's learning rate during training."""
from __future__ import annotations

import logging
import math
from typing import Callable

import numpy as np

from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor
from tfspore.train.callback._callback import Callback, RunContext

_logger = logging.getLogger("tfspore")


class LearningRateScheduler(Callback):
    """Set the learning rate after every training step from ``learning_rate_function``.

    At each step end, ``new = learning_rate_function(lr, cur_step_num)`` is called with the
    current learning rate (a float) and the global step number; when ``new`` differs from
    ``lr`` it is written into ``optimizer.learning_rate``, which must be a single Parameter
    (a scalar learning rate).

    Args:
        learning_rate_function: ``f(lr: float, cur_step_num: int) -> float``.

    Example:
        >>> def learning_rate_function(lr, cur_step_num):
        ...     if cur_step_num % 1000 == 0:
        ...         lr = lr * 0.1
        ...     return lr
        >>> model.train(1, dataset, callbacks=[LearningRateScheduler(learning_rate_function)])  # doctest: +SKIP
    """

    def __init__(self, learning_rate_function: Callable[[float, int], float]) -> None:
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: RunContext) -> None:
        """Change the learning rate at the end of a training step.

        Args:
            run_context: the run's context.
        """
        cb_params = run_context.original_args()
        lr_param = cb_params.optimizer.learning_rate
        lr = float(np.array2string(np.asarray(lr_param.asnumpy())))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            lr_param.assign_value(Tensor(new_lr, mstype.float32))
            _logger.info("At step %s, learning_rate change to %s", cb_params.cur_step_num, new_lr)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """Evaluation steps leave the learning rate alone."""

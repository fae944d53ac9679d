"""``Loss``: the average of the loss values seen by ``update``.

Example:
    >>> import numpy as np
    >>> from tfspore.train import Loss
    >>> m = Loss()
    >>> m.update(np.array(0.2))
    >>> m.update(np.array([0.4, 0.6]))
    >>> round(float(m.eval()), 6)
    0.35
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["Loss"]


class Loss(Metric):
    """The mean over ``update`` calls of each call's mean loss.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import Loss
        >>> float(Loss()(np.array([1.0, 2.0])))
        1.5
    """

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        """Reset the sum."""
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Add the mean of one loss value (a scalar or a 1-D Tensor).

        Raises:
            ValueError: for a wrong number of inputs, or an input of rank > 1.
        """
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but got {loss.ndim}.")
        # float64 accumulation: MindSpore 2.10 (numpy < 2) returns numpy.float64 from eval.
        self._sum_loss += np.float64(loss.mean(-1))
        self._total_num += 1

    def eval(self) -> float:
        """The average loss.

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples is 0, please check "
                               "whether has called update method before calling eval method.")
        return self._sum_loss / self._total_num

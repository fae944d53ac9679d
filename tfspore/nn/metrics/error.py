"""``MAE`` and ``MSE``: mean absolute and mean squared error per sample.

Example:
    >>> import numpy as np
    >>> from tfspore.train import MAE
    >>> round(float(MAE()(np.array([0.1, 0.2, 0.6, 0.9]), np.array([0.1, 0.25, 0.7, 0.9]))), 6)
    0.0375
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["MAE", "MSE"]


class MAE(Metric):
    r"""Mean absolute error: the sum of :math:`|y - \hat y|` over all elements divided by the number of samples.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import MAE
        >>> m = MAE()
        >>> m.update(np.array([[1.0, 2.0]]), np.array([[1.5, 2.0]]))
        >>> float(m.eval())
        0.5
    """

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._abs_error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch.

        Args:
            inputs: ``(y_pred, y)``; ``y`` is reshaped to ``y_pred``'s shape; samples are along axis 0.

        Raises:
            ValueError: for a wrong number of inputs.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'MAE.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._abs_error_sum += np.abs(y.reshape(y_pred.shape) - y_pred).sum()
        self._samples_num += y.shape[0]

    def eval(self) -> float:
        """The mean absolute error.

        Raises:
            RuntimeError: when no sample was seen.
        """
        if self._samples_num == 0:
            raise RuntimeError("The 'MAE' can not be calculated, because the number of samples is 0, please check "
                               "whether your inputs(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        return self._abs_error_sum / self._samples_num


class MSE(Metric):
    r"""Mean squared error: the sum of :math:`(y - \hat y)^2` over all elements divided by the number of samples.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import MSE
        >>> round(float(MSE()(np.array([0.1, 0.2, 0.6, 0.9]), np.array([0.1, 0.25, 0.5, 0.9]))), 6)
        0.003125
    """

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._squared_error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch.

        Args:
            inputs: ``(y_pred, y)``; ``y`` is reshaped to ``y_pred``'s shape; samples are along axis 0.

        Raises:
            ValueError: for a wrong number of inputs.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'MSE.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._squared_error_sum += np.power(y.reshape(y_pred.shape) - y_pred, 2).sum()
        self._samples_num += y.shape[0]

    def eval(self) -> float:
        """The mean squared error.

        Raises:
            RuntimeError: when no sample was seen.
        """
        if self._samples_num == 0:
            raise RuntimeError("The 'MSE' can not be calculated, because the number of samples is 0, please check "
                               "whether your inputs(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        return self._squared_error_sum / self._samples_num

"""``MAE`` and ``MSE``: mean absolute and mean squared error per sample.

Both sum an elementwise error over each batch and divide by the number of samples; they differ
only in the error (``|d|`` or ``d ** 2``), which :class:`_MeanError` takes from each subclass.

Example:
    >>> import numpy as np
    >>> from tfspore.train import MAE
    >>> round(float(MAE()(np.array([0.1, 0.2, 0.6, 0.9]), np.array([0.1, 0.25, 0.7, 0.9]))), 6)
    0.0375
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics.metric import Metric, _check_samples, rearrange_inputs

__all__ = ["MAE", "MSE"]


class _MeanError(Metric):
    """The sum of ``_error(y - y_pred)`` over all elements divided by the number of samples."""

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch.

        Args:
            inputs: ``(y_pred, y)``; ``y`` is reshaped to ``y_pred``'s shape; samples are along axis 0.

        Raises:
            ValueError: for a wrong number of inputs.
        """
        name = type(self).__name__
        y_pred, y = self._pred_and_true(name, inputs)
        self._error_sum += self._error(y.reshape(y_pred.shape) - y_pred).sum()
        self._samples_num += y.shape[0]

    def eval(self) -> float:
        """The mean error per sample.

        Raises:
            RuntimeError: when no sample was seen.
        """
        _check_samples(type(self).__name__, self._samples_num)
        return self._error_sum / self._samples_num


class MAE(_MeanError):
    r"""Mean absolute error: the sum of :math:`|y - \hat y|` over all elements divided by the number of samples.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import MAE
        >>> m = MAE()
        >>> m.update(np.array([[1.0, 2.0]]), np.array([[1.5, 2.0]]))
        >>> float(m.eval())
        0.5
    """

    _error = staticmethod(np.abs)


class MSE(_MeanError):
    r"""Mean squared error: the sum of :math:`(y - \hat y)^2` over all elements divided by the number of samples.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import MSE
        >>> round(float(MSE()(np.array([0.1, 0.2, 0.6, 0.9]), np.array([0.1, 0.25, 0.5, 0.9]))), 6)
        0.003125
    """

    _error = staticmethod(np.square)

"""``Dice``: the Dice coefficient of predictions and labels, averaged over the samples.

Example:
    >>> import numpy as np
    >>> from tfspore.train import Dice
    >>> m = Dice(smooth=1e-5)
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([[0, 1], [1, 0], [0, 1]]))
    >>> round(m.eval(), 6)
    0.204678
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics.metric import Metric, _check_samples, rearrange_inputs

__all__ = ["Dice"]


def check_smooth(smooth: Any, api: str) -> float:
    """Return ``smooth`` of ``api`` (``Dice``, ``DiceLoss``) if it is a float > 0; MindSpore's errors otherwise.

    Raises:
        TypeError: when ``smooth`` is not a float.
        ValueError: when ``smooth`` is not positive.
    """
    if isinstance(smooth, bool) or not isinstance(smooth, float):
        raise TypeError(f"For '{api}', the 'smooth' must be float, but got '{type(smooth).__name__}'.")
    if not smooth > 0:
        raise ValueError(f"For '{api}', the 'smooth' must be float and must > 0, but got '{smooth}' with type "
                         f"'float'.")
    return smooth


class Dice(Metric):
    r"""Each update adds :math:`2 |X \cap Y| / (|X|^2 + |Y|^2 + smooth)` (over the whole batch);
    ``eval`` divides the sum by the number of samples seen.

    Args:
        smooth: a positive float added to the denominator. Default: ``1e-5``.

    Raises:
        TypeError: when ``smooth`` is not a float.
        ValueError: when ``smooth`` is not positive.

    Example:
        >>> from tfspore.train import Dice
        >>> m = Dice()
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        self.smooth = check_smooth(smooth, "Dice")
        self._dice_coeff_sum = 0
        self._samples_num = 0
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Add one batch.

        Args:
            inputs: ``(y_pred, y)`` of the same shape, samples along axis 0.

        Raises:
            ValueError: for a wrong number of inputs or different shapes.
        """
        y_pred, y = self._pred_and_true("Dice", inputs)
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value (input[1]) should have "
                             f"same shape, but got predicted value shape: {y_pred.shape}, true value shape: "
                             f"{y.shape}.")
        intersection = np.dot(y_pred.flatten(), y.flatten())
        unionset = np.dot(y_pred.flatten(), y_pred.flatten()) + np.dot(y.flatten(), y.flatten())
        self._dice_coeff_sum += 2 * float(intersection) / float(unionset + self.smooth)

    def eval(self) -> float:
        """The average Dice coefficient.

        Raises:
            RuntimeError: when no sample was seen.
        """
        _check_samples("Dice coefficient", self._samples_num)
        return self._dice_coeff_sum / float(self._samples_num)

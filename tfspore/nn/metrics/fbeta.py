"""``Fbeta`` and ``F1``: the weighted harmonic mean of precision and recall, per class.

Example:
    >>> import numpy as np
    >>> from tfspore.train import F1
    >>> m = F1()
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    >>> m.eval()
    array([0.66666667, 0.66666667])
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics.metric import Metric, _check_class_num, _check_onehot_data, _check_samples, rearrange_inputs

__all__ = ["Fbeta", "F1"]


class Fbeta(Metric):
    r"""F-beta score per class: :math:`(1 + \beta^2) TP / (\beta^2 (TP + FN) + TP + FP)`.

    The prediction is the argmax of the scores; labels are class indices or one-hot.

    Args:
        beta: the weight of recall (> 0).

    Raises:
        ValueError: when ``beta`` is not positive.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import Fbeta
        >>> m = Fbeta(2.0)
    """

    def __init__(self, beta: float) -> None:
        super().__init__()
        self.eps = sys.float_info.min
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}.")
        self.beta = beta
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one batch.

        Args:
            inputs: ``(y_pred, y)``: scores ``(N, C)`` and class indices ``(N,)`` or one-hot ``(N, C)``.

        Raises:
            ValueError: for a wrong number of inputs, or class counts that do not match.
        """
        y_pred, y = self._pred_and_true("Fbeta", inputs)
        if y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        class_num = _check_class_num(self, "Fbeta", y_pred)
        if y.max() + 1 > class_num:
            raise ValueError(f"For 'Fbeta.update', predicted value(inputs[0]) and true value(inputs[1]) should contain "
                             f"same classes, but got predicted value contains {class_num} classes and true value "
                             f"contains {y.max() + 1} classes.")
        y = np.eye(class_num)[y.reshape(-1)]
        y_pred = np.eye(class_num)[y_pred.argmax(axis=1).reshape(-1)]
        self._true_positives += (y * y_pred).sum(axis=0)
        self._positives += y_pred.sum(axis=0)
        self._actual_positives += y.sum(axis=0)

    def eval(self, average: bool = False) -> Any:
        """The F-beta score.

        Args:
            average: return the mean over the classes instead of one value per class.

        Raises:
            TypeError: when ``average`` is not a bool.
            RuntimeError: when nothing was counted.
        """
        validator.check_type(average, [bool], "average", self.__class__.__name__)
        _check_samples("Fbeta", self._class_num)
        fbeta = (1.0 + self.beta ** 2) * self._true_positives / (
            self.beta ** 2 * self._actual_positives + self._positives + self.eps)
        if average:
            return fbeta.mean()
        return fbeta


class F1(Fbeta):
    """The F1 score: :class:`Fbeta` with ``beta = 1``.

    Example:
        >>> from tfspore.train import F1
        >>> m = F1()
    """

    def __init__(self) -> None:
        super().__init__(1.0)

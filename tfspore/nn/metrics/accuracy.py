"""``Accuracy``: the fraction of correctly classified samples.

Example:
    >>> import numpy as np
    >>> from tfspore.train import Accuracy
    >>> m = Accuracy('classification')
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    >>> float(m.eval())
    0.6666666666666666
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics.metric import EvaluationBase, _check_onehot_data, rearrange_inputs

__all__ = ["Accuracy"]


class Accuracy(EvaluationBase):
    """Accuracy for classification (argmax of the scores against class indices or one-hot labels) or
    multilabel data (a sample counts when all its 0/1 labels match).

    Args:
        eval_type: ``'classification'`` (default) or ``'multilabel'``.

    Raises:
        TypeError: for another ``eval_type``.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import Accuracy
        >>> float(Accuracy()(np.array([[0.2, 0.5], [0.3, 0.1]]), np.array([1, 1])))
        0.5
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one batch.

        Args:
            inputs: ``(y_pred, y)``: scores of shape ``(N, C, ...)`` and labels of shape ``(N, ...)``
                (class indices) or ``(N, C, ...)`` (one-hot, or 0/1 for multilabel).

        Raises:
            ValueError: for a wrong number of inputs, mismatched shapes, non-binary multilabel data,
                or a class count that differs from the earlier batches.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'Accuracy.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For 'Accuracy.update', class number not match, last input predicted data contain "
                             f"{self._class_num} classes, but current predicted data contain {y_pred.shape[1]} "
                             f"classes, please check your predicted value(inputs[0]).")
        if self._type == "classification":
            indices = y_pred.argmax(axis=1)
            result = (np.equal(indices, y) * 1).reshape(-1)
        else:
            dimension_index = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, dimension_index).reshape(-1, self._class_num)
            y = y.swapaxes(1, dimension_index).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self) -> float:
        """The accuracy.

        Returns:
            float: correct samples / samples.

        Raises:
            RuntimeError: when no sample was counted.
        """
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of samples is 0, please "
                               "check whether your inputs(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        return self._correct_num / self._total_num

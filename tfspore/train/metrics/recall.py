"""``Recall``: true positives / actual positives, per class.

Example:
    >>> import numpy as np
    >>> from tfspore.train import Recall
    >>> m = Recall('classification')
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    >>> float(m.eval(average=True))
    0.75
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from tfspore.nn.layer import _checkparam as validator
from tfspore.train.metrics.metric import EvaluationBase, rearrange_inputs
from tfspore.train.metrics.precision import _binarize

__all__ = ["Recall"]


class Recall(EvaluationBase):
    r"""Recall :math:`TP / (TP + FN)` per class, or averaged over the classes.

    Args:
        eval_type: ``'classification'`` (default) or ``'multilabel'``.

    Raises:
        TypeError: for another ``eval_type``.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import Recall
        >>> Recall()(np.array([[0.2, 0.5], [0.3, 0.1]]), np.array([1, 1]))
        array([0. , 0.5])
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._actual_positives = np.empty(0)
            self._true_positives_average = 0
            self._actual_positives_average = 0
        else:
            self._true_positives = 0
            self._actual_positives = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one batch.

        Args:
            inputs: ``(y_pred, y)`` as for :class:`Accuracy`.

        Raises:
            ValueError: for a wrong number of inputs, mismatched shapes or class counts.
        """
        y_pred, y = _binarize(self, "Recall", inputs)
        actual_positives = y.sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives_average += np.sum(true_positives / (actual_positives + self.eps))
            self._actual_positives_average += len(actual_positives)
            self._true_positives = np.concatenate((self._true_positives, true_positives), axis=0)
            self._actual_positives = np.concatenate((self._actual_positives, actual_positives), axis=0)
        else:
            self._true_positives += true_positives
            self._actual_positives += actual_positives

    def eval(self, average: bool = False) -> Any:
        """The recall.

        Args:
            average: return the mean over the classes instead of one value per class.

        Returns:
            numpy.ndarray or float.

        Raises:
            RuntimeError: when nothing was counted.
            TypeError: when ``average`` is not a bool.
        """
        if self._class_num == 0:
            raise RuntimeError("The 'Recall' can not be calculated, because the number of samples is 0, please "
                               "check whether your inputs (predicted value, true value) are empty, or has called "
                               "update method before calling eval method.")
        validator.check_value_type(average, [bool], "average", self.__class__.__name__)
        result = self._true_positives / (self._actual_positives + self.eps)
        if average:
            if self._type == "multilabel":
                result = self._true_positives_average / (self._actual_positives_average + self.eps)
            return result.mean()
        return result

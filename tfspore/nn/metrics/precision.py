"""``Precision``: true positives / predicted positives, per class.

Example:
    >>> import numpy as np
    >>> from tfspore.train import Precision
    >>> m = Precision('classification')
    >>> m.update(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]), np.array([1, 0, 1]))
    >>> float(m.eval(average=True))
    0.75
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics.metric import EvaluationBase, _check_samples, rearrange_inputs

__all__ = ["Precision"]


def _binarize(metric: EvaluationBase, name: str, inputs: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Check one batch and return 0/1 predictions and labels, one column per class (one row per class for
    multilabel data), updating ``metric._class_num``."""
    y_pred, y = metric._checked_batch(name, inputs)
    class_num = metric._class_num
    if metric._type == "classification":
        if y.max() + 1 > class_num:
            raise ValueError(f"For '{name}.update', predicted value (input[0]) should have the same classes number "
                             f"as true value (input[1]), but got predicted value classes {class_num}, true value "
                             f"classes {y.max() + 1}.")
        y = np.eye(class_num)[y.reshape(-1)]
        y_pred = np.eye(class_num)[y_pred.argmax(axis=1).reshape(-1)]
    else:
        y_pred = y_pred.swapaxes(1, 0).reshape(class_num, -1)
        y = y.swapaxes(1, 0).reshape(class_num, -1)
    return y_pred, y


class _PerClassRatio(EvaluationBase):
    """Counts true positives over a per-class denominator; Precision and Recall differ only in it."""

    _label = ""

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    @staticmethod
    def _denominator(y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def clear(self) -> None:
        """Reset the counts."""
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._positives = np.empty(0)
            self._true_positives_average = 0
            self._positives_average = 0
        else:
            self._true_positives = 0
            self._positives = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one batch.

        Args:
            inputs: ``(y_pred, y)`` as for :class:`Accuracy`.

        Raises:
            ValueError: for a wrong number of inputs, mismatched shapes or class counts.
        """
        y_pred, y = _binarize(self, self._label, inputs)
        positives = self._denominator(y_pred, y)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives_average += np.sum(true_positives / (positives + self.eps))
            self._positives_average += len(positives)
            self._true_positives = np.concatenate((self._true_positives, true_positives), axis=0)
            self._positives = np.concatenate((self._positives, positives), axis=0)
        else:
            self._true_positives += true_positives
            self._positives += positives

    def eval(self, average: bool = False) -> Any:
        """The ratio per class.

        Args:
            average: return the mean over the classes instead of one value per class.

        Returns:
            numpy.ndarray or float.

        Raises:
            RuntimeError: when nothing was counted.
            TypeError: when ``average`` is not a bool.
        """
        _check_samples(self._label, self._class_num, "inputs (predicted value, true value)")
        validator.check_type(average, [bool], "average", self.__class__.__name__)
        result = self._true_positives / (self._positives + self.eps)
        if average:
            if self._type == "multilabel":
                result = self._true_positives_average / (self._positives_average + self.eps)
            return result.mean()
        return result


class Precision(_PerClassRatio):
    r"""Precision :math:`TP / (TP + FP)` per class, or averaged over the classes.

    For ``'classification'`` the prediction is the argmax of the scores. For ``'multilabel'`` the
    predictions and labels are 0/1 and each update adds one value per sample.

    Args:
        eval_type: ``'classification'`` (default) or ``'multilabel'``.

    Raises:
        TypeError: for another ``eval_type``.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import Precision
        >>> Precision()(np.array([[0.2, 0.5], [0.3, 0.1]]), np.array([1, 1]))
        array([0., 1.])
    """

    _label = "Precision"

    @staticmethod
    def _denominator(y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y_pred.sum(axis=0)

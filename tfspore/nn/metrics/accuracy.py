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

from tfspore.nn.metrics.metric import EvaluationBase, _check_samples, rearrange_inputs

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
        y_pred, y = self._checked_batch("Accuracy", inputs, end="")
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
        _check_samples("Accuracy", self._total_num)
        return self._correct_num / self._total_num

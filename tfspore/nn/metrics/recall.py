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

import numpy as np

from tfspore.nn.metrics.precision import _PerClassRatio

__all__ = ["Recall"]


class Recall(_PerClassRatio):
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

    _label = "Recall"

    @staticmethod
    def _denominator(y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y.sum(axis=0)

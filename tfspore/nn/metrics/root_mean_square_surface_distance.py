"""``RootMeanSquareDistance``: the root-mean-square distance between two segmentation boundaries.

Example:
    >>> import numpy as np
    >>> from tfspore.train import RootMeanSquareDistance
    >>> m = RootMeanSquareDistance(symmetric=False, distance_metric="euclidean")
    >>> m.update(np.array([[3, 0, 1], [1, 1, 0], [0, 1, 1]]), np.array([[0, 1, 1], [1, 0, 0], [0, 1, 1]]), 0)
    >>> float(m.eval())
    0.3333333333333333
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics import _surface
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["RootMeanSquareDistance"]


class RootMeanSquareDistance(_surface.BoundaryDistance, Metric):
    """The mean squared surface distance (one direction), or the root of the mean of both directions
    (``symmetric``), between the boundaries of the regions labelled ``label_idx``.

    Args:
        symmetric: use both directions. Default: ``False``.
        distance_metric: ``'euclidean'`` (default), ``'chessboard'`` or ``'taxicab'``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for another ``distance_metric``.

    Example:
        >>> from tfspore.train import RootMeanSquareDistance
        >>> m = RootMeanSquareDistance(symmetric=True)
    """

    _name = "RootMeanSquareDistance"
    _inputs_error = ("For 'RootMeanSquareDistance.update', it needs 3 inputs(predicted value, true value, label index)"
                     ", but got {}.")
    _label_error = TypeError

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Keep the boundaries of one pair of masks (it replaces the previous pair).

        Args:
            inputs: ``(y_pred, y, label_idx)``.

        Raises:
            ValueError: for a wrong number of inputs, a label index in neither map, or maps that are
                empty or of different shapes.
            TypeError: when the label index is not a number.
        """
        self._update(inputs)

    @staticmethod
    def _reduce(dist: np.ndarray) -> Any:
        return (dist ** 2).mean()

    @staticmethod
    def _combine(a: Any, b: Any) -> Any:
        return np.sqrt(np.mean((a, b)))

"""``MeanSurfaceDistance``: the mean distance from one segmentation boundary to another.

Example:
    >>> import numpy as np
    >>> from tfspore.train import MeanSurfaceDistance
    >>> m = MeanSurfaceDistance(symmetric=False, distance_metric="euclidean")
    >>> m.update(np.array([[3, 0, 1], [1, 1, 0], [0, 1, 1]]), np.array([[0, 1, 1], [1, 0, 0], [0, 1, 1]]), 0)
    >>> float(m.eval())
    0.3333333333333333
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics import _surface
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["MeanSurfaceDistance"]


class MeanSurfaceDistance(_surface.BoundaryDistance, Metric):
    """The mean surface distance between the boundaries of the regions labelled ``label_idx``.

    Args:
        symmetric: average both directions. Default: ``False``.
        distance_metric: ``'euclidean'`` (default), ``'chessboard'`` or ``'taxicab'``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for another ``distance_metric``.

    Example:
        >>> from tfspore.train import MeanSurfaceDistance
        >>> m = MeanSurfaceDistance(symmetric=True)
    """

    _name = "MeanSurfaceDistance"
    _inputs_error = ("For 'MeanSurfaceDistance.update', it needs 3 inputs (predicted value, true value, label index)"
                     ", but got {}")
    _label_error = ValueError

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Keep the boundaries of one pair of masks (it replaces the previous pair).

        Args:
            inputs: ``(y_pred, y, label_idx)``.

        Raises:
            ValueError: for a wrong number of inputs, a bad label index, or maps that are empty or of
                different shapes.
        """
        self._update(inputs)

    @staticmethod
    def _reduce(dist: np.ndarray) -> Any:
        return dist.mean()

    @staticmethod
    def _combine(a: Any, b: Any) -> Any:
        return np.mean((a, b))

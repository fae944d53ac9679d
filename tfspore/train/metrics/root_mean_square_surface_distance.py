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

from tfspore.nn.layer import _checkparam as validator
from tfspore.train.metrics import _surface
from tfspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["RootMeanSquareDistance"]


class RootMeanSquareDistance(Metric):
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

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        super().__init__()
        name = "RootMeanSquareDistance"
        self.distance_metric_list = ["euclidean", "chessboard", "taxicab"]
        distance_metric = validator.check_value_type(distance_metric, [str], "distance_metric", name)
        self.distance_metric = validator.check_string(distance_metric, self.distance_metric_list, "distance_metric",
                                                      name)
        self.symmetric = validator.check_value_type(symmetric, [bool], "symmetric", name)
        self.clear()

    def clear(self) -> None:
        """Forget the data."""
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

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
        if len(inputs) != 3:
            raise ValueError(f"For 'RootMeanSquareDistance.update', it needs 3 inputs(predicted value, true value, "
                             f"label index), but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        label_idx = inputs[2]
        _surface.check_label_inputs("RootMeanSquareDistance", y_pred, y, label_idx, label_error=TypeError)
        if y_pred.dtype != bool:
            y_pred = y_pred == label_idx
        if y.dtype != bool:
            y = y == label_idx
        self._y_pred_edges = _surface.edges(y_pred)
        self._y_edges = _surface.edges(y)
        self._is_update = True

    def eval(self) -> float:
        """The distance (inf when a boundary is empty).

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        dist = _surface.surface_distance(self._y_pred_edges, self._y_edges, self.distance_metric)
        if dist.shape == (0,):
            return np.inf
        rms = (dist ** 2).mean()
        if not self.symmetric:
            return rms
        contrary = _surface.surface_distance(self._y_edges, self._y_pred_edges, self.distance_metric)
        if contrary.shape == (0,):
            return np.inf
        return np.sqrt(np.mean((rms, (contrary ** 2).mean())))

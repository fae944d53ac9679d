"""``HausdorffDistance``: the (percentile) Hausdorff distance between two segmentation boundaries.

Example:
    >>> import numpy as np
    >>> from tfspore.train import HausdorffDistance
    >>> m = HausdorffDistance()
    >>> m.update(np.array([[3, 0], [0, 1]]), np.array([[0, 1], [1, 0]]), 0)
    >>> float(m.eval())
    1.0
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics import _surface
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["HausdorffDistance"]

_DISTANCES = ["euclidean", "chessboard", "taxicab"]


class HausdorffDistance(Metric):
    """The Hausdorff distance between the boundaries of the regions labelled ``label_idx``.

    Args:
        distance_metric: ``'euclidean'`` (default), ``'chessboard'`` or ``'taxicab'``.
        percentile: a float in [0, 100]: use this percentile of the distances instead of the maximum.
        directed: only the distance from the prediction to the labels. Default: ``False``.
        crop: crop both masks to the bounding box of their union first. Default: ``True``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for another ``distance_metric``.

    Example:
        >>> from tfspore.train import HausdorffDistance
        >>> m = HausdorffDistance(percentile=95.0)
    """

    def __init__(self, distance_metric: str = "euclidean", percentile: float | None = None, directed: bool = False,
                 crop: bool = True) -> None:
        super().__init__()
        name = "HausdorffDistance"
        distance_metric = validator.check_type(distance_metric, [str], "distance_metric", name)
        self.distance_metric = validator.check_string(distance_metric, _DISTANCES, "distance_metric", name)
        self.percentile = percentile if percentile is None else validator.check_type(
            percentile, [float], "percentile", name)
        self.directed = directed if directed is None else validator.check_type(directed, [bool], "directed", name)
        self.crop = crop if crop is None else validator.check_type(crop, [bool], "crop", name)
        self.clear()

    def _calculate_percent_hausdorff_distance(self, y_pred_edges: np.ndarray, y_edges: np.ndarray) -> float:
        distances = _surface.surface_distance(y_pred_edges, y_edges, self.distance_metric)
        if distances.shape == (0,):
            return np.inf
        if not self.percentile:
            return distances.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(distances, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], but got "
                         f"{self.percentile}.")

    @staticmethod
    def _bounding_box(image: np.ndarray) -> tuple[list, list]:
        data = np.any(image > 0, axis=0)
        nonzero_idx = np.nonzero(data)
        start, end = [], []
        for i in range(data.ndim):
            if nonzero_idx[i].size <= 0:
                raise ValueError(f"Did not find nonzero index at the spatial dim {i}")
            start.append(max(0, np.min(nonzero_idx[i])))
            end.append(min(data.shape[i], np.max(nonzero_idx[i]) + 1))
        return start, end

    def _get_mask_edges_distance(self, y_pred: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.crop:
            if not np.any(y_pred | y):
                return np.zeros_like(y_pred), np.zeros_like(y)
            y_pred, y = np.expand_dims(y_pred, 0), np.expand_dims(y, 0)
            start, end = self._bounding_box(y_pred | y)
            sd = min(len(start), len(end), len(y_pred.shape[1:]))
            slices = tuple([slice(None)] + [slice(s, e) for s, e in zip(start[:sd], end[:sd])])
            y_pred, y = np.squeeze(y_pred[slices]), np.squeeze(y[slices])
        return _surface.edges(y_pred), _surface.edges(y)

    def clear(self) -> None:
        """Forget the data."""
        self.y_pred_edges = 0
        self.y_edges = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Keep the boundaries of one pair of masks (it replaces the previous pair).

        Args:
            inputs: ``(y_pred, y, label_idx)``: two label maps of one shape and the label to compare.

        Raises:
            ValueError: for a wrong number of inputs, a label index that is not a number or appears in
                neither map, or maps that are empty or of different shapes.
        """
        self._is_update = True
        if len(inputs) != 3:
            raise ValueError(f"For 'HausdorffDistance.update', it needs 3 inputs (predicted value, true value, label "
                             f"index), but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        label_idx = inputs[2]
        _surface.check_label_inputs("HausdorffDistance", y_pred, y, label_idx)
        self.y_pred_edges, self.y_edges = self._get_mask_edges_distance(y_pred == label_idx, y == label_idx)

    def eval(self) -> float:
        """The Hausdorff distance (inf when a boundary is empty).

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        self._check_updated()
        hd = self._calculate_percent_hausdorff_distance(self.y_pred_edges, self.y_edges)
        if self.directed:
            return hd
        hd2 = self._calculate_percent_hausdorff_distance(self.y_edges, self.y_pred_edges)
        return max(hd, hd2)

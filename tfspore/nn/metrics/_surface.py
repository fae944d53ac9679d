"""Helpers of the surface-distance metrics: binary edges and the distance transform (through scipy)."""
from __future__ import annotations

from typing import Any

import numpy as np


def ndimage():
    """``scipy.ndimage``, imported on first use (scipy comes with scikit-learn)."""
    from scipy import ndimage as _ndimage  # pylint: disable=import-outside-toplevel
    return _ndimage


def edges(mask: np.ndarray) -> np.ndarray:
    """The boundary of a binary mask: the mask minus its binary erosion."""
    return ndimage().binary_erosion(mask) ^ mask


def surface_distance(y_pred_edges: np.ndarray, y_edges: np.ndarray, distance_metric: str) -> np.ndarray:
    """For each edge point of ``y_pred_edges``, its distance to the nearest edge point of ``y_edges``.

    Args:
        y_pred_edges: a boolean edge mask.
        y_edges: a boolean edge mask of the same shape.
        distance_metric: ``'euclidean'``, ``'chessboard'`` or ``'taxicab'``.

    Returns:
        A 1-D array (empty when ``y_pred_edges`` has no point; inf everywhere when ``y_edges`` has none).
    """
    if not np.any(y_pred_edges):
        return np.array([])
    if not np.any(y_edges):
        dis = np.full(y_edges.shape, np.inf)
    elif distance_metric == "euclidean":
        dis = ndimage().distance_transform_edt(~y_edges)
    else:
        dis = ndimage().distance_transform_cdt(~y_edges, metric=distance_metric)
    return dis[y_pred_edges]


def check_label_inputs(name: str, y_pred: np.ndarray, y: np.ndarray, label_idx: object,
                       label_error: type = ValueError) -> None:
    """The checks the surface-distance metrics make on ``update``'s inputs."""
    if not isinstance(label_idx, (int, float)):
        raise label_error(f"For '{name}.update', the label index (input[2]) must be int or float, but got "
                          f"{type(label_idx)}.")
    if label_idx not in y_pred and label_idx not in y:
        raise ValueError(f"For '{name}.update', the label index (input[2]) must be in predicted value (input[0]) or "
                         f"true value (input[1]), but {label_idx} is not.")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(f"For '{name}.update', the size of predicted value (input[0]) and true value (input[1]) must "
                         f"be greater than 0, in addition to that, predicted value and true value must have the same "
                         f"shape, but got predicted value size: {y_pred.size}, shape: {y_pred.shape}, true value "
                         f"size: {y.size}, shape: {y.shape}.")


class BoundaryDistance:
    """The shared body of MeanSurfaceDistance and RootMeanSquareDistance (mixed into ``Metric``).

    Subclasses set ``_name``, ``_inputs_error`` (MindSpore's message for a wrong input count),
    ``_label_error`` and ``_reduce(dist)`` / ``_combine(a, b)``.
    """

    _name = ""
    _inputs_error = ""
    _label_error: type = ValueError

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        from tfspore._internal import validator  # pylint: disable=import-outside-toplevel
        super().__init__()
        self.distance_metric_list = ["euclidean", "chessboard", "taxicab"]
        distance_metric = validator.check_type(distance_metric, [str], "distance_metric", self._name)
        self.distance_metric = validator.check_string(distance_metric, self.distance_metric_list, "distance_metric",
                                                      self._name)
        self.symmetric = validator.check_type(symmetric, [bool], "symmetric", self._name)
        self.clear()

    def clear(self) -> None:
        """Forget the data."""
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    def _update(self, inputs: tuple) -> None:
        if len(inputs) != 3:
            raise ValueError(self._inputs_error.format(len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        label_idx = inputs[2]
        check_label_inputs(self._name, y_pred, y, label_idx, label_error=self._label_error)
        if y_pred.dtype != bool:
            y_pred = y_pred == label_idx
        if y.dtype != bool:
            y = y == label_idx
        self._y_pred_edges = edges(y_pred)
        self._y_edges = edges(y)
        self._is_update = True

    @staticmethod
    def _reduce(dist: np.ndarray) -> Any:
        raise NotImplementedError

    @staticmethod
    def _combine(a: Any, b: Any) -> Any:
        raise NotImplementedError

    def eval(self) -> float:
        """The distance (inf when a boundary is empty).

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        self._check_updated()
        dist = surface_distance(self._y_pred_edges, self._y_edges, self.distance_metric)
        if dist.shape == (0,):
            return np.inf
        one_way = self._reduce(dist)
        if not self.symmetric:
            return one_way
        contrary = surface_distance(self._y_edges, self._y_pred_edges, self.distance_metric)
        if contrary.shape == (0,):
            return np.inf
        return self._combine(one_way, self._reduce(contrary))

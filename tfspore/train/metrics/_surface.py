"""Helpers of the surface-distance metrics: binary edges and the distance transform (through scipy)."""
from __future__ import annotations

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

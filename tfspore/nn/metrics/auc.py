"""``auc``: the area under a curve, by the trapezoidal rule.

Example:
    >>> import numpy as np
    >>> from tfspore.train import ROC, auc
    >>> m = ROC(pos_label=1)
    >>> m.update(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
    >>> fpr, tpr, _ = m.eval()
    >>> float(auc(fpr, tpr))
    0.75
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["auc"]


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False) -> Any:
    """The area under the curve through the points ``(x, y)`` (for example the ROC's ``fpr, tpr``).

    Args:
        x: increasing or decreasing x coordinates, a 1-D numpy array (or ``(n, 1)``).
        y: the y coordinates, same length.
        reorder: sort the points by x (then y) first instead of requiring a monotonic ``x``.

    Returns:
        The area (a numpy float).

    Raises:
        TypeError: when ``x`` or ``y`` is not a numpy array.
        ValueError: for fewer than 2 points, inconsistent lengths, or a non-monotonic ``x`` without ``reorder``.
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got {type(x)}, {type(y)}")
    _check_consistent_length(x, y)
    x = _column_or_1d(x)
    y = _column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater than 2, but got "
                         f"{x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if np.all(dx <= 0):
                direction = -1
            else:
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array must be increasing or "
                                 f"decreasing, but got 'x': {x}")
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    area = direction * trapezoid(y, x)
    if isinstance(area, np.memmap):
        area = area.dtype.type(area)
    return area


def _column_or_1d(y: np.ndarray) -> np.ndarray:
    shape = np.shape(y)
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return np.ravel(y)
    raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional array with the second "
                     f"dimension of 1, but got shape {shape}.")


def _num_samples(x: Any) -> int:
    if hasattr(x, "fit") and callable(x.fit):
        raise TypeError(f"Expected sequence or array-like, got estimator {x}.")
    if not hasattr(x, "__len__") and not hasattr(x, "shape"):
        if hasattr(x, "__array__"):
            x = np.asarray(x)
        else:
            raise TypeError(f"Expected sequence or array-like, got {type(x)}.")
    if hasattr(x, "shape"):
        if x.ndim == 0:
            raise TypeError(f"Singleton array {x} cannot be considered as a valid collection.")
        return x.shape[0]
    return x.size


def _check_consistent_length(*arrays: Any) -> None:
    lengths = [_num_samples(a) for a in arrays if a is not None]
    if len(np.unique(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {[int(n) for n in lengths]}.")

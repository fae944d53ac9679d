"""``ROC``: the receiver operating characteristic curve (false and true positive rates per threshold).

Example:
    >>> import numpy as np
    >>> from tfspore.train import ROC
    >>> m = ROC(pos_label=1)
    >>> m.update(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
    >>> fpr, tpr, thresholds = m.eval()
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics.metric import Metric, _binary_clf_curve, rearrange_inputs

__all__ = ["ROC"]


class ROC(Metric):
    """The ROC curve of the latest ``update``: binary scores, or one curve per class for multi-class scores.

    Args:
        class_num: the number of classes; None or 1 for binary data. Default: ``None``.
        pos_label: the positive label for binary data (default 1); must be None for multi-class data.

    Raises:
        TypeError: when ``class_num`` or ``pos_label`` is neither None nor an int.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import ROC
        >>> m = ROC(class_num=3)
        >>> m.update(np.array([[0.28, 0.55, 0.15], [0.10, 0.20, 0.70], [0.20, 0.10, 0.70], [0.80, 0.10, 0.10]]),
        ...          np.array([0, 1, 2, 0]))
        >>> fpr, tpr, thresholds = m.eval()
    """

    def __init__(self, class_num: int | None = None, pos_label: int | None = None) -> None:
        super().__init__()
        self.class_num = class_num if class_num is None else validator.check_type(
            class_num, [int], "class_num", "ROC")
        self.pos_label = pos_label if pos_label is None else validator.check_type(
            pos_label, [int], "pos_label", "ROC")
        self.clear()

    def clear(self) -> None:
        """Forget the data."""
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Keep one batch of scores and labels (it replaces the previous one).

        Args:
            inputs: ``(y_pred, y)``: scores ``(N,)`` (binary) or ``(N, C)``, and labels ``(N,)``.

        Raises:
            ValueError: for a wrong number of inputs, or shapes that do not fit ``class_num`` and ``pos_label``.
        """
        y_pred, y = self._pred_and_true("ROC", inputs, "")
        y_pred, y, class_num, pos_label = _precision_recall_curve_update(y_pred, y, self.class_num, self.pos_label)
        self.y_pred = y_pred
        self.y = y
        self.class_num = class_num
        self.pos_label = pos_label
        self._is_update = True

    def _roc_eval(self, y_pred: np.ndarray, y: np.ndarray, class_num: int, pos_label: int | None,
                  sample_weights: Any = None) -> tuple:
        if class_num == 1:
            fps, tps, thresholds = _binary_clf_curve(y_pred, y, sample_weights=sample_weights, pos_label=pos_label)
            tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
            fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
            thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
            if fps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no negative samples in true value, false positive value is "
                                 "meaningless.")
            fpr = fps / fps[-1]
            if tps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no positive samples in true value, true positive value is "
                                 "meaningless.")
            tpr = tps / tps[-1]
            return fpr, tpr, thresholds
        fpr, tpr, thresholds = [], [], []
        for c in range(class_num):
            preds_c = y_pred[:, c]
            res = self._roc(preds_c, y, class_num=1, pos_label=c, sample_weights=sample_weights)
            fpr.append(res[0])
            tpr.append(res[1])
            thresholds.append(res[2])
        return fpr, tpr, thresholds

    def _roc(self, y_pred: np.ndarray, y: np.ndarray, class_num: int | None = None, pos_label: int | None = None,
             sample_weights: Any = None) -> tuple:
        y_pred, y, class_num, pos_label = _precision_recall_curve_update(y_pred, y, class_num, pos_label)
        return self._roc_eval(y_pred, y, class_num, pos_label, sample_weights)

    def eval(self) -> tuple:
        """The curve.

        Returns:
            ``(fpr, tpr, thresholds)``: numpy arrays, or lists of one array per class.

        Raises:
            RuntimeError: when ``update`` was not called.
            ValueError: when the labels have no negative or no positive sample.
        """
        self._check_updated()
        return self._roc_eval(np.squeeze(self.y_pred), np.squeeze(self.y), self.class_num, self.pos_label)


def _precision_recall_curve_update(y_pred: np.ndarray, y: np.ndarray, class_num: int | None,
                                   pos_label: int | None) -> tuple:
    if not (len(y_pred.shape) == len(y.shape) or len(y_pred.shape) == len(y.shape) + 1):
        raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must have same dimensions, "
                         f"or the dimension of predicted value equal the dimension of true value add 1, but got "
                         f"predicted value ndim: {len(y_pred.shape)}, true value ndim: {len(y.shape)}.")
    if len(y_pred.shape) == len(y.shape):
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value (input[1]) have the same "
                             f"shape, the 'class_num' must be 1, but got {class_num}.")
        class_num = 1
        if pos_label is None:
            pos_label = 1
        y_pred = y_pred.flatten()
        y = y.flatten()
    else:
        if pos_label is not None:
            raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals the dimension of "
                             f"true value (input[1]) add 1, the 'pos_label' must be None, but got {pos_label}.")
        if class_num != y_pred.shape[1]:
            raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from predicted value "
                             f"(input[0]), but got 'class_num' {class_num}, the number of classes from predicted value "
                             f"{y_pred.shape[1]}.")
        # One column of scores per class: (N, C, d...) -> (N * d..., C). MindSpore 2.10 writes numpy's
        # transpose(0, 1) (an identity permutation) for torch's swap of axes 0 and 1, which scrambles the
        # scores whenever N != C; this follows the documented per-class curves instead.
        y_pred = np.swapaxes(y_pred, 0, 1).reshape(class_num, -1).swapaxes(0, 1)
        y = y.flatten()
    return y_pred, y, class_num, pos_label

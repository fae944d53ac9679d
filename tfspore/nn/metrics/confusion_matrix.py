"""``ConfusionMatrix`` and ``ConfusionMatrixMetric`` (sensitivity, specificity, precision, F1, MCC, ...).

Example:
    >>> import numpy as np
    >>> from tfspore.train import ConfusionMatrix
    >>> m = ConfusionMatrix(num_classes=2)
    >>> m.update(np.array([1, 0, 1, 0]), np.array([1, 0, 0, 1]))
    >>> m.eval()
    array([[1., 1.],
           [1., 1.]])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix", "ConfusionMatrixMetric"]


class ConfusionMatrix(Metric):
    """The confusion matrix (rows: true class, columns: predicted class), optionally normalized.

    Args:
        num_classes: the number of classes.
        normalize: ``'no_norm'`` (default: counts), ``'target'`` (rows sum to 1), ``'prediction'``
            (columns sum to 1) or ``'all'`` (the whole matrix sums to 1).
        threshold: for float predictions of the labels' rank, the score from which a prediction is 1.
            Default: ``0.5``.

    Raises:
        TypeError: when ``num_classes`` is not an int or ``threshold`` not a float.
        ValueError: for another ``normalize``.

    Example:
        >>> from tfspore.train import ConfusionMatrix
        >>> m = ConfusionMatrix(num_classes=3, normalize='target')
    """

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5) -> None:
        super().__init__()
        self.num_classes = validator.check_type(num_classes, [int], "num_classes", "ConfusionMatrix")
        if normalize not in ["target", "prediction", "all", "no_norm"]:
            raise ValueError(f"For 'ConfusionMatrix', the argument 'normalize' must be in ['all', 'prediction', "
                             f"'label', 'no_norm'(None)], but got {normalize}.")
        self.normalize = normalize
        self.threshold = validator.check_type(threshold, [float], "threshold", "ConfusionMatrix")
        self.clear()

    def clear(self) -> None:
        """Reset the matrix to zeros."""
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one batch.

        Args:
            inputs: ``(y_pred, y)``: class scores ``(N, C, ...)`` (argmax taken), or predictions of the
                labels' shape (float ones thresholded), and class-index labels ``(N, ...)``.

        Raises:
            ValueError: for a wrong number of inputs or incompatible ranks.
        """
        y_pred, y = self._pred_and_true("ConfusionMatrix", inputs)
        if not (y_pred.ndim == y.ndim or y_pred.ndim == y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', predicted value (input[0]) and true value (input[1]) "
                             f"should have same dimensions, or the dimension of predicted value equals the dimension "
                             f"of true value add 1, but got predicted value ndim: {y_pred.ndim}, true value ndim: "
                             f"{y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        if y_pred.ndim == y.ndim and y_pred.dtype in (np.float16, np.float32, np.float64):
            y_pred = (y_pred >= self.threshold).astype(int)
        trans = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        bincount = np.bincount(trans, minlength=self.num_classes ** 2)
        self.confusion_matrix += bincount.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The (normalized) confusion matrix; rows or columns without samples normalize to 0.

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        self._check_updated()
        confusion_matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return confusion_matrix
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.normalize == "target":
                matrix = confusion_matrix / confusion_matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = confusion_matrix / confusion_matrix.sum(axis=0, keepdims=True)
            else:
                matrix = confusion_matrix / confusion_matrix.sum()
        matrix[np.isnan(matrix)] = 0
        return matrix


_DECREASES = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel"]


class ConfusionMatrixMetric(Metric):
    """A metric derived from the confusion matrix of binarized, one-hot segmentation or classification data.

    Args:
        skip_channel: count channel 0 (often the background) too. Default: ``True``.
        metric_name: ``'sensitivity'`` (default), ``'specificity'``, ``'precision'``,
            ``'negative predictive value'``, ``'miss rate'``, ``'fall out'``, ``'false discovery rate'``,
            ``'false omission rate'``, ``'prevalence threshold'``, ``'threat score'``, ``'accuracy'``,
            ``'balanced accuracy'``, ``'f1 score'``, ``'matthews correlation coefficient'``,
            ``'fowlkes mallows index'``, ``'informedness'``, ``'markedness'`` (or their abbreviations).
        calculation_method: compute the metric per sample and average (True), or on the summed
            confusion matrix (False, default).
        decrease: how per-sample values reduce with ``calculation_method``: ``'none'``, ``'mean'``
            (default), ``'sum'``, ``'mean_batch'``, ``'sum_batch'``, ``'mean_channel'``, ``'sum_channel'``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for another ``decrease``.
        NotImplementedError: for an unknown ``metric_name``.

    Example:
        >>> import numpy as np
        >>> from tfspore.train import ConfusionMatrixMetric
        >>> m = ConfusionMatrixMetric(skip_channel=True, metric_name="tpr", calculation_method=False)
        >>> m.update(np.array([[[0], [1]], [[1], [0]]]), np.array([[[0], [1]], [[0], [1]]]))
        >>> m.eval()
        array([0.5])
    """

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity", calculation_method: bool = False,
                 decrease: str = "mean") -> None:
        super().__init__()
        name = "ConfusionMatrixMetric"
        self.skip_channel = validator.check_type(skip_channel, [bool], "skip_channel", name)
        self.calculation_method = validator.check_type(calculation_method, [bool], "calculation_method", name)
        self.metric_name = validator.check_type(metric_name, [str], "metric_name", name)
        _check_metric_name(metric_name)
        decrease = validator.check_type(decrease, [str], "decrease", name)
        self.decrease = validator.check_string(decrease, _DECREASES, "decrease", name)
        self.confusion_matrix = _ConfusionMatrix(skip_channel=skip_channel, metric_name=metric_name,
                                                 calculation_method=calculation_method, decrease=decrease)
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._total_num = 0
        self._class_num = 0
        self._total_tp = 0.0
        self._total_fp = 0.0
        self._total_tn = 0.0
        self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one batch.

        Args:
            inputs: ``(y_pred, y)``: binarized one-hot arrays of shape ``(N, C, ...)``.

        Raises:
            ValueError: for a wrong number of inputs, non-binary labels, or predictions of rank < 2.
        """
        y_pred, y = self._pred_and_true("ConfusionMatrixMetric", inputs)
        if self.calculation_method:
            score, not_nans = self.confusion_matrix(y_pred, y)
            not_nans = int(not_nans.item())
            self._total_num += score.item() * not_nans
            self._class_num += not_nans
        else:
            confusion_matrix = self.confusion_matrix(y_pred, y)
            confusion_matrix, _ = _decrease_metric(confusion_matrix, "sum")
            self._total_tp += confusion_matrix[0].item()
            self._total_fp += confusion_matrix[1].item()
            self._total_tn += confusion_matrix[2].item()
            self._total_fn += confusion_matrix[3].item()

    def eval(self) -> Any:
        """The metric.

        Raises:
            RuntimeError: with ``calculation_method``, when no valid sample was seen.
        """
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples "
                                   "is 0, please check whether your inputs(predicted value, true value) are empty, or "
                                   "has called update method before calling eval method.")
            return self._total_num / self._class_num
        confusion_matrix = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return _compute_confusion_matrix_metric(self.metric_name, confusion_matrix)


class _ConfusionMatrix:
    """Per-sample, per-channel ``[tp, fp, tn, fn]`` counts, or the metric computed from them."""

    def __init__(self, skip_channel: bool = True, metric_name: str = "hit_rate", calculation_method: bool = False,
                 decrease: str = "mean") -> None:
        self.skip_channel = skip_channel
        self.metric_name = metric_name
        self.calculation_method = calculation_method
        self.decrease = decrease

    def __call__(self, y_pred: np.ndarray, y: np.ndarray) -> Any:
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
        dims = y_pred.ndim
        if dims < 2:
            raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                             f"dimensions, but got {dims}.")
        if dims == 2 or (dims == 3 and y_pred.shape[-1] == 1):
            if self.calculation_method:
                self.calculation_method = False
        confusion_matrix = _get_confusion_matrix(y_pred=y_pred, y=y, skip_channel=self.skip_channel)
        if self.calculation_method:
            sub = _compute_confusion_matrix_metric(self.metric_name, confusion_matrix)
            return _decrease_metric(sub, self.decrease)
        return confusion_matrix


def _get_confusion_matrix(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool = True) -> np.ndarray:
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    y = y.astype(float)
    y_pred = y_pred.astype(float)
    if y.shape != y_pred.shape:
        raise ValueError(f"The 'y_shape' should be = y_pred_shape: {y_pred.shape}, but got {y.shape}.")
    batch_size, n_class = y_pred.shape[:2]
    y_pred = y_pred.reshape(batch_size, n_class, -1)
    y = y.reshape(batch_size, n_class, -1)
    tp = (y_pred + y == 2).astype(float).sum(axis=2)
    tn = (y_pred + y == 0).astype(float).sum(axis=2)
    p = y.sum(axis=2)
    n = y.shape[-1] - p
    fn = p - tp
    fp = n - tn
    return np.stack([tp, fp, tn, fn], axis=-1)


def _decrease_metric(chart: np.ndarray, decrease: str = "mean") -> tuple[np.ndarray, np.ndarray]:
    """Reduce per-(sample, channel) values, ignoring NaNs; returns ``(chart, not_nans)``."""
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart[nans] = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        if decrease == "mean":
            nn_ = not_nans.sum(axis=1)
            chart = np.where(nn_ > 0, chart.sum(axis=1) / nn_, np.zeros(1, dtype=float))
            not_nans = (nn_ > 0).astype(float).sum(axis=0)
            chart = np.where(not_nans > 0, chart.sum(axis=0) / not_nans, np.zeros(1, dtype=float))
        elif decrease == "sum":
            not_nans = not_nans.sum(axis=(0, 1))
            chart = np.sum(chart, axis=(0, 1))
        elif decrease == "mean_batch":
            not_nans = not_nans.sum(axis=0)
            chart = np.where(not_nans > 0, chart.sum(axis=0) / not_nans, np.zeros(1, dtype=float))
        elif decrease == "sum_batch":
            not_nans = not_nans.sum(axis=0)
            chart = chart.sum(axis=0)
        elif decrease == "mean_channel":
            not_nans = not_nans.sum(axis=1)
            chart = np.where(not_nans > 0, chart.sum(axis=1) / not_nans, np.zeros(1, dtype=float))
        elif decrease == "sum_channel":
            not_nans = not_nans.sum(axis=1)
            chart = chart.sum(axis=1)
    return chart, not_nans


_NAN = np.array(float("nan"))


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.where(den > 0, num / den, _NAN)


def _numerator_denominator(metric: str, tp: np.ndarray, fp: np.ndarray, tn: np.ndarray,
                           fn: np.ndarray) -> tuple[Any, Any]:
    p = tp + fn
    n = fp + tn
    if metric == "tpr":
        return tp, p
    if metric == "tnr":
        return tn, n
    if metric == "ppv":
        return tp, tp + fp
    if metric == "npv":
        return tn, tn + fn
    if metric == "fnr":
        return fn, p
    if metric == "fpr":
        return fp, n
    if metric == "fdr":
        return fp, fp + tp
    if metric == "for":
        return fn, fn + tn
    if metric == "pt":
        tpr, tnr = _ratio(tp, p), _ratio(tn, n)
        return np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0
    if metric == "ts":
        return tp, tp + fn + fp
    if metric == "acc":
        return tp + tn, p + n
    if metric == "ba":
        return _ratio(tp, p) + _ratio(tn, n), 2.0
    if metric == "f1":
        return tp * 2.0, tp * 2.0 + fn + fp
    if metric == "mcc":
        return tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    if metric == "fm":
        return np.sqrt(_ratio(tp, tp + fp) * _ratio(tp, p)), 1.0
    if metric == "bm":
        return _ratio(tp, p) + _ratio(tn, n) - 1.0, 1.0
    # "mk": MindSpore uses tn / (tn + fn) unguarded for the negative predictive value.
    return _ratio(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0


def _compute_confusion_matrix_metric(metric_name: str, confusion_matrix: np.ndarray) -> np.ndarray:
    metric = _check_metric_name(metric_name)
    if confusion_matrix.ndim == 1:
        confusion_matrix = np.expand_dims(confusion_matrix, 0)
    if confusion_matrix.shape[-1] != 4:
        raise ValueError(f"For 'ConfusionMatrix', the size of the last dimension of confusion_matrix must be 4, but "
                         f"got {confusion_matrix.shape[-1]}.")
    tp, fp, tn, fn = (confusion_matrix[..., i] for i in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        numerator, denominator = _numerator_denominator(metric, tp, fp, tn, fn)
        if isinstance(denominator, np.ndarray):
            return np.where(denominator != 0, numerator / denominator, _NAN)
        return numerator / denominator


_METRIC_NAMES = {
    "sensitivity": "tpr", "recall": "tpr", "hit_rate": "tpr", "true_positive_rate": "tpr", "tpr": "tpr",
    "specificity": "tnr", "selectivity": "tnr", "true_negative_rate": "tnr", "tnr": "tnr",
    "precision": "ppv", "positive_predictive_value": "ppv", "ppv": "ppv",
    "negative_predictive_value": "npv", "npv": "npv",
    "miss_rate": "fnr", "false_negative_rate": "fnr", "fnr": "fnr",
    "fall_out": "fpr", "false_positive_rate": "fpr", "fpr": "fpr",
    "false_discovery_rate": "fdr", "fdr": "fdr",
    "false_omission_rate": "for", "for": "for",
    "prevalence_threshold": "pt", "pt": "pt",
    "threat_score": "ts", "critical_success_index": "ts", "ts": "ts", "csi": "ts",
    "accuracy": "acc", "acc": "acc",
    "balanced_accuracy": "ba", "ba": "ba",
    "f1_score": "f1", "f1": "f1",
    "matthews_correlation_coefficient": "mcc", "mcc": "mcc",
    "fowlkes_mallows_index": "fm", "fm": "fm",
    "informedness": "bm", "bookmaker_informedness": "bm", "bm": "bm",
    "markedness": "mk", "deltap": "mk", "mk": "mk",
}


def _check_metric_name(metric_name: str) -> str:
    key = metric_name.replace(" ", "_").lower()
    info = _METRIC_NAMES.get(key)
    if info is None:
        raise NotImplementedError(f"For 'ConfusionMatrixMetric', the metric '{metric_name}' is not implemented.")
    return info

"""``tfspore.train.metrics``: MindSpore's evaluation metrics (``mindspore.train.metrics``).

The metrics are defined in :mod:`tfspore.nn.metrics` (``nn`` is the lower layer: ``nn`` never
imports ``train``); this package and its submodules (``tfspore.train.metrics.accuracy`` ...) are
MindSpore's import paths to them.

Example:
    >>> import numpy as np
    >>> from tfspore.train.metrics import get_metric_fn
    >>> acc = get_metric_fn('accuracy')
    >>> acc.update(np.array([[0.2, 0.8], [0.9, 0.1]]), np.array([1, 1]))
    >>> float(acc.eval())
    0.5
"""
from tfspore.nn.metrics import (MAE, MSE, ROC, Accuracy, BleuScore, ConfusionMatrix,  # noqa: F401
                                ConfusionMatrixMetric, CosineSimilarity, Dice, F1, Fbeta, HausdorffDistance, Loss,
                                MeanSurfaceDistance, Metric, OcclusionSensitivity, Perplexity, Precision, Recall,
                                RootMeanSquareDistance, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                TopKCategoricalAccuracy, __factory__, auc, get_metric_fn, get_metrics, names,
                                rearrange_inputs)

# MindSpore's mindspore.train.metrics.__all__ (get_metrics is importable but not listed)
__all__ = [
    "names", "get_metric_fn", "Accuracy", "MAE", "MSE", "Metric", "rearrange_inputs", "Precision",
    "HausdorffDistance", "Recall", "Fbeta", "BleuScore", "CosineSimilarity", "OcclusionSensitivity", "F1", "Dice",
    "ROC", "auc", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss",
    "MeanSurfaceDistance", "RootMeanSquareDistance", "Perplexity", "ConfusionMatrix", "ConfusionMatrixMetric",
]

"""``tfspore.nn.metrics``: the metrics of :mod:`tfspore.train.metrics`, also reachable from ``nn``
(as ``mindspore.nn.metrics`` re-exports ``mindspore.train.metrics``).

Example:
    >>> from tfspore.nn import Accuracy
    >>> from tfspore.nn.metrics import get_metrics
"""
from tfspore.train.metrics import (MAE, MSE, ROC, Accuracy, BleuScore, ConfusionMatrix, ConfusionMatrixMetric,
                                   CosineSimilarity, Dice, F1, Fbeta, HausdorffDistance, Loss, MeanSurfaceDistance,
                                   Metric, OcclusionSensitivity, Perplexity, Precision, Recall, RootMeanSquareDistance,
                                   Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy, auc,
                                   get_metric_fn, get_metrics, names, rearrange_inputs)

__all__ = [
    "names", "get_metric_fn", "get_metrics", "Accuracy", "MAE", "MSE", "Metric", "rearrange_inputs", "Precision",
    "HausdorffDistance", "Recall", "Fbeta", "BleuScore", "CosineSimilarity", "OcclusionSensitivity", "F1", "Dice",
    "ROC", "auc", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss",
    "MeanSurfaceDistance", "RootMeanSquareDistance", "Perplexity", "ConfusionMatrix", "ConfusionMatrixMetric",
]

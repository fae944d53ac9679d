"""``tfspore.nn.metrics``: evaluation metrics (MindSpore's ``mindspore.train.metrics``, which
``tfspore.train.metrics`` re-exports; they live here so that ``nn`` needs nothing from ``train``).

Metrics accumulate on the host with numpy. ``Model(..., metrics={'acc', 'loss'})`` builds them by
name through :func:`get_metrics`; :func:`names` lists the names.

Example:
    >>> import numpy as np
    >>> from tfspore.train.metrics import get_metric_fn
    >>> acc = get_metric_fn('accuracy')
    >>> acc.update(np.array([[0.2, 0.8], [0.9, 0.1]]), np.array([1, 1]))
    >>> float(acc.eval())
    0.5
"""
from __future__ import annotations

from typing import Any

from tfspore.nn.metrics.accuracy import Accuracy
from tfspore.nn.metrics.auc import auc
from tfspore.nn.metrics.bleu_score import BleuScore
from tfspore.nn.metrics.confusion_matrix import ConfusionMatrix, ConfusionMatrixMetric
from tfspore.nn.metrics.cosine_similarity import CosineSimilarity
from tfspore.nn.metrics.dice import Dice
from tfspore.nn.metrics.error import MAE, MSE
from tfspore.nn.metrics.fbeta import F1, Fbeta
from tfspore.nn.metrics.hausdorff_distance import HausdorffDistance
from tfspore.nn.metrics.loss import Loss
from tfspore.nn.metrics.mean_surface_distance import MeanSurfaceDistance
from tfspore.nn.metrics.metric import Metric, rearrange_inputs
from tfspore.nn.metrics.occlusion_sensitivity import OcclusionSensitivity
from tfspore.nn.metrics.perplexity import Perplexity
from tfspore.nn.metrics.precision import Precision
from tfspore.nn.metrics.recall import Recall
from tfspore.nn.metrics.roc import ROC
from tfspore.nn.metrics.root_mean_square_surface_distance import RootMeanSquareDistance
from tfspore.nn.metrics.topk import Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy

__all__ = [
    "names", "get_metric_fn", "get_metrics", "Accuracy", "MAE", "MSE", "Metric", "rearrange_inputs", "Precision",
    "HausdorffDistance", "Recall", "Fbeta", "BleuScore", "CosineSimilarity", "OcclusionSensitivity", "F1", "Dice",
    "ROC", "auc", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss",
    "MeanSurfaceDistance", "RootMeanSquareDistance", "Perplexity", "ConfusionMatrix", "ConfusionMatrixMetric",
]

__factory__ = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "dice": Dice,
    "roc": ROC,
    "auc": auc,
    "bleu_score": BleuScore,
    "cosine_similarity": CosineSimilarity,
    "occlusion_sensitivity": OcclusionSensitivity,
    "topk": TopKCategoricalAccuracy,
    "hausdorff_distance": HausdorffDistance,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE,
    "mse": MSE,
    "loss": Loss,
    "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance,
    "perplexity": Perplexity,
    "confusion_matrix": ConfusionMatrix,
    "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names() -> list[str]:
    """The metric names :func:`get_metric_fn` (and a ``Model`` metrics set) accept, sorted.

    Example:
        >>> from tfspore.train.metrics import names
        >>> 'acc' in names()
        True
    """
    return sorted(__factory__.keys())


def get_metric_fn(name: str, *args: Any, **kwargs: Any) -> Any:
    """Build the metric registered under ``name`` (see :func:`names`).

    Args:
        name: the metric's name, e.g. ``'acc'``, ``'loss'``, ``'top_5_accuracy'``.
        *args: the metric's constructor arguments.
        **kwargs: the metric's constructor keyword arguments.

    Returns:
        The metric object (for ``'auc'``, the result of calling :func:`auc` with the arguments).

    Raises:
        KeyError: for an unknown name.

    Example:
        >>> from tfspore.train.metrics import get_metric_fn
        >>> metric = get_metric_fn('precision', eval_type='classification')
    """
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official website for more "
                       f"details about supported metrics.")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics: Any) -> dict | None:
    """The metrics of a ``Model``: None, a dict of name to :class:`Metric`, or a set of metric names.

    Args:
        metrics: None, ``{name: Metric}``, or ``{'acc', 'loss', ...}``.

    Returns:
        None, or a dict of name to metric object.

    Raises:
        TypeError: for another type, or a dict with a non-str key or a non-Metric value.
        KeyError: for an unknown name in a set.

    Example:
        >>> from tfspore.train.metrics import get_metrics
        >>> sorted(get_metrics({'acc', 'loss'}))
        ['acc', 'loss']
    """
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                                f"value in 'metrics' must be Metric, but got key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got {metrics}")

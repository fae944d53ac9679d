"""Loss Cells with MindSpore's arguments, defaults, reductions and formulas (``mindspore.nn.loss.loss``).

Every loss is a :class:`~tfspore.nn.Cell` built from traceable TensorFlow ops, so it runs eagerly in
PYNATIVE_MODE and inside the compiled step in GRAPH_MODE, and its gradient comes from
``tf.GradientTape``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> loss = nn.MSELoss()
    >>> print(loss(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.0, 4.0], np.float32))))
    2.0
"""
from __future__ import annotations

from tfspore.nn.loss._base import LossBase, _Loss  # noqa: F401  (_Loss: the deprecated 1.x base, by its path)
from tfspore.nn.loss._classification import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, KLDivLoss, NLLLoss,
                                             SoftmaxCrossEntropyWithLogits)
from tfspore.nn.loss._ctc import CTCLoss
from tfspore.nn.loss._likelihood import (FocalLoss, GaussianNLLLoss, HingeEmbeddingLoss, MultiLabelSoftMarginLoss,
                                         MultiMarginLoss, PoissonNLLLoss, TripletMarginLoss,
                                         TripletMarginWithDistanceLoss)
from tfspore.nn.loss._dice import DiceLoss, MultiClassDiceLoss
from tfspore.nn.loss._margin import CosineEmbeddingLoss, MarginRankingLoss, MultilabelMarginLoss, SoftMarginLoss
from tfspore.nn.loss._regression import HuberLoss, L1Loss, MAELoss, MSELoss, RMSELoss, SmoothL1Loss

__all__ = [
    "LossBase", "L1Loss", "MSELoss", "SmoothL1Loss", "SoftMarginLoss", "SoftmaxCrossEntropyWithLogits", "BCELoss",
    "BCEWithLogitsLoss", "CosineEmbeddingLoss", "DiceLoss", "MultiClassDiceLoss", "MultilabelMarginLoss",
    "RMSELoss", "MAELoss", "HuberLoss", "CrossEntropyLoss", "NLLLoss", "KLDivLoss", "MarginRankingLoss",
]
__all__ += ["CTCLoss", "FocalLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "MultiLabelSoftMarginLoss",
            "MultiMarginLoss", "PoissonNLLLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss"]

"""``Perplexity``: the exponential of the mean negative log-probability of the labels.

Example:
    >>> import numpy as np
    >>> from tfspore.train import Perplexity
    >>> m = Perplexity(ignore_label=None)
    >>> m.update(np.array([[0.2, 0.8], [0.5, 0.5]]), np.array([1, 0]))
    >>> round(m.eval(), 4)
    1.5811
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["Perplexity"]


class Perplexity(Metric):
    """Perplexity of predicted probabilities ``(..., C)`` at the labels.

    Args:
        ignore_label: a label value left out of the count. Default: ``None``.

    Raises:
        TypeError: when ``ignore_label`` is neither None nor an int.

    Example:
        >>> from tfspore.train import Perplexity
        >>> m = Perplexity(ignore_label=0)
    """

    def __init__(self, ignore_label: int | None = None) -> None:
        super().__init__()
        if ignore_label is None:
            self.ignore_label = ignore_label
        else:
            self.ignore_label = validator.check_type(ignore_label, [int], "ignore_label", "Perplexity")
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch.

        Args:
            inputs: ``(preds, labels)``: probabilities ``(..., C)`` and labels with one entry per row.

        Raises:
            ValueError: for a wrong number of inputs.
            RuntimeError: when the label count does not match the predictions.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got "
                             f"{len(inputs)}.")
        preds = [self._convert_data(inputs[0])]
        labels = [self._convert_data(inputs[1])]
        loss = 0.0
        num = 0
        for label, pred in zip(labels, preds):
            if label.size != pred.size / pred.shape[-1]:
                raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should "
                                   f"have the same shape, but got predicted value shape {pred.shape}, label shape "
                                   f"{label.shape}.")
            label = label.reshape((label.size,))
            label_expand = np.expand_dims(label.astype(int), axis=1)
            first_indices = np.arange(label_expand.shape[0])[:, None]
            pred = np.squeeze(pred[first_indices, label_expand])
            if self.ignore_label is not None:
                ignore = (label == self.ignore_label).astype(pred.dtype)
                num -= np.sum(ignore)
                pred = pred * (1 - ignore) + ignore
            loss -= np.sum(np.log(np.maximum(1e-10, pred)))
            num += pred.size
        self._sum_metric += loss
        self._num_inst += num

    def eval(self) -> float:
        """The perplexity.

        Raises:
            RuntimeError: when nothing was counted.
        """
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, please "
                               "check whether the update method has been called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)

"""``TopKCategoricalAccuracy``, ``Top1CategoricalAccuracy`` and ``Top5CategoricalAccuracy``.

Example:
    >>> import numpy as np
    >>> from tfspore.train import TopKCategoricalAccuracy
    >>> m = TopKCategoricalAccuracy(2)
    >>> m.update(np.array([[0.2, 0.5, 0.3], [0.3, 0.1, 0.6]]), np.array([2, 1]))
    >>> float(m.eval())
    0.5
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore.nn.metrics.metric import Metric, _check_onehot_data, _check_samples, rearrange_inputs

__all__ = ["TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy"]


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose label is among the ``k`` highest scores.

    Args:
        k: the number of top scores (an int >= 1).

    Raises:
        TypeError: when ``k`` is not an int.
        ValueError: when ``k`` < 1.

    Example:
        >>> from tfspore.train import TopKCategoricalAccuracy
        >>> m = TopKCategoricalAccuracy(3)
    """

    def __init__(self, k: int) -> None:
        super().__init__()
        if not isinstance(k, int):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should be int, but got 'k' "
                            f"type: {type(k)}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, but got 'k' value: "
                             f"{k}.")
        self.k = k
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one batch.

        Args:
            inputs: ``(y_pred, y)``: scores ``(N, C)`` and class indices ``(N,)`` or one-hot ``(N, C)``.

        Raises:
            ValueError: for a wrong number of inputs.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'TopKCategoricalAccuracy.update', it needs 2 inputs (predicted value, true value), "
                             f"but got 'inputs' size: {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        indices = np.argsort(-y_pred, axis=1)[:, :self.k]
        repeated_y = y.reshape(-1, 1).repeat(self.k, axis=1)
        correct = np.equal(indices, repeated_y).sum(axis=1)
        self._correct_num += correct.sum()
        self._samples_num += repeated_y.shape[0]

    def eval(self) -> float:
        """The top-k accuracy.

        Raises:
            RuntimeError: when no sample was counted.
        """
        _check_samples("TopKCategoricalAccuracy", self._samples_num, "inputs (predicted value, true value)")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy: :class:`TopKCategoricalAccuracy` with ``k = 1``.

    Example:
        >>> from tfspore.train import Top1CategoricalAccuracy
        >>> m = Top1CategoricalAccuracy()
    """

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy: :class:`TopKCategoricalAccuracy` with ``k = 5``.

    Example:
        >>> from tfspore.train import Top5CategoricalAccuracy
        >>> m = Top5CategoricalAccuracy()
    """

    def __init__(self) -> None:
        super().__init__(5)

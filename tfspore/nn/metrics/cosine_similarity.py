"""``CosineSimilarity``: the pairwise similarity matrix of the rows of the input.

Example:
    >>> import numpy as np
    >>> from tfspore.train import CosineSimilarity
    >>> m = CosineSimilarity()
    >>> m.update(np.array([[1.0, 0.0], [1.0, 1.0]]))
    >>> m.eval().round(4)
    array([[0.    , 0.7071],
           [0.7071, 0.    ]])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Metric):
    """The matrix of cosine (or dot-product) similarities between the rows of the latest input.

    Args:
        similarity: ``'cosine'`` (default) or ``'dot'``.
        reduction: ``'none'`` (default: the matrix), ``'sum'`` or ``'mean'`` (over the last axis).
        zero_diagonal: set the diagonal to 0. Default: ``True``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for another ``similarity`` or ``reduction``.

    Example:
        >>> from tfspore.train import CosineSimilarity
        >>> m = CosineSimilarity(similarity='dot', reduction='mean')
    """

    def __init__(self, similarity: str = "cosine", reduction: str = "none", zero_diagonal: bool = True) -> None:
        super().__init__()
        name = "CosineSimilarity"
        similarity = validator.check_type(similarity, [str], "similarity", name)
        self.similarity = validator.check_string(similarity, ["dot", "cosine"], "similarity", name)
        reduction = validator.check_type(reduction, [str], "reduction", name)
        self.reduction = validator.check_string(reduction, ["none", "sum", "mean"], "reduction", name)
        self.zero_diagonal = validator.check_type(zero_diagonal, [bool], "zero_diagonal", name)
        self.sqr_mtx_res = 0
        self.clear()

    def clear(self) -> None:
        """Forget the data."""
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs: Any) -> None:
        """Compute the similarity matrix of ``inputs`` (an ``(N, D)`` array); it replaces the previous one."""
        input_data = self._convert_data(inputs)
        if self.similarity == "cosine":
            data = np.linalg.norm(input_data, ord=2, axis=1)
            input_data = input_data / np.expand_dims(data, 1)
        self.sqr_mtx_res = np.dot(input_data, input_data.transpose(1, 0))
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The (reduced) similarity matrix.

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        self._check_updated()
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        if self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res

"""``DistributedGradReducer``: all-reduce of gradients across ``tf.distribute`` replicas.

Inside ``strategy.run`` each replica's gradients are summed over the replicas (and divided
by ``degree`` when ``mean``), as MindSpore's reducer does across devices; in a process of a job
joined by ``communication.init()`` they are summed over the job's processes. Outside a
multi-replica context it returns the gradients unchanged.

Example:
    >>> # reducer = DistributedGradReducer(optimizer.parameters, mean=True, degree=8)
    >>> # grads = reducer(grads)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import cluster
from tfspore._internal import data_parallel
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell

__all__ = ["DistributedGradReducer"]


class DistributedGradReducer(Cell):
    """Sum (or average) gradients over the replicas of the active ``tf.distribute`` strategy.

    Args:
        parameters: the parameters the gradients belong to.
        mean: divide the sum by ``degree``; None reads the context's ``gradients_mean``.
        degree: the number of replicas; None reads the strategy's.
        fusion_type: accepted for compatibility.
        group: accepted for compatibility (the world group).

    Raises:
        ValueError: when ``degree`` is not a positive int.
    """

    def __init__(self, parameters: Any, mean: bool | None = None, degree: int | None = None, fusion_type: int = 1,
                 group: Any = None) -> None:
        super().__init__(auto_prefix=False)
        self.mean = data_parallel.gradients_mean() if mean is None else bool(mean)
        if degree is None:
            degree = data_parallel.device_num()
        if not isinstance(degree, int) or isinstance(degree, bool) or degree <= 0:
            raise ValueError(f"For 'DistributedGradReducer', the 'degree' must be a positive int, but got {degree!r}.")
        self.degree = degree
        self.parameters = tuple(parameters)

    def construct(self, grads: Any) -> Any:
        # in a process of a job joined by communication.init(): the job's processes
        ctx = cluster.replica_context()
        if ctx is None or ctx.num_replicas_in_sync == 1:
            return grads
        values = [tf.convert_to_tensor(g._value() if isinstance(g, Tensor) else g) for g in grads]
        reduced = ctx.all_reduce(tf.distribute.ReduceOp.SUM, values)
        if self.mean:
            reduced = [r / tf.cast(self.degree, r.dtype) for r in reduced]
        return tuple(_wrap(r) for r in reduced)

"""``SyncBatchNorm``: batch normalization whose batch statistics span every replica.

On one device it is ``BatchNorm`` (2-D or 4-D input). Inside a ``tf.distribute`` replica context
with several replicas, the training-mode statistics come from the whole global batch: each replica
sums its values, squares and count, the sums are all-reduced through the replica context (so
gradients flow back through the same collective), and every replica normalizes with the global
mean and biased variance and updates the moving statistics with the global unbiased variance, as
MindSpore's ``SyncBatchNorm`` kernel does. ``process_groups`` (lists of replica ids) restricts the
reduction to each replica's own group; replicas in no group use their local statistics.

Example:
    >>> from tfspore import nn
    >>> [p.name for p in nn.SyncBatchNorm(4).get_parameters()]
    ['mean', 'variance', 'gamma', 'beta']
"""
from __future__ import annotations

import itertools
import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import cluster
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._batch_norm import _BatchNorm, _in_stat_dtype, _stat_dtype, _update_moving
from tfspore.nn.layer._utils import cast_to, to_tf

__all__ = ["SyncBatchNorm"]


def _replica_count() -> int:
    return int(tf.distribute.get_strategy().num_replicas_in_sync)


class SyncBatchNorm(_BatchNorm):
    """Batch normalization over a 2-D ``(N, C)`` or 4-D ``(N, C, H, W)`` input, with the batch statistics
    reduced over all replicas of the active ``tf.distribute`` strategy while training.

    Args:
        num_features: the number of channels C.
        eps: added to the variance.
        momentum: the weight of the old moving statistics, in [0, 1].
        affine: whether gamma and beta are trained.
        gamma_init: gamma's initializer.
        beta_init: beta's initializer.
        moving_mean_init: the moving mean's initializer.
        moving_var_init: the moving variance's initializer.
        use_batch_statistics: None follows ``training``; True/False forces batch/moving statistics.
        process_groups: None (all replicas form one group), 0 (no synchronization), or a list of lists of
            replica ids, each a group whose statistics are reduced together.
        dtype: the parameter dtype.

    Inputs:
        x: a Tensor of shape ``(N, C)`` or ``(N, C, H, W)``.

    Outputs:
        A Tensor of the shape of ``x``.

    Raises:
        TypeError: when ``num_features`` is not an int or ``process_groups`` is not a list of lists of ints.
        ValueError: for a bad ``num_features``, ``momentum`` or ``use_batch_statistics``, a duplicated or
            out-of-range rank id in ``process_groups``; at call time, for an input that is not 2-D or 4-D.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> SyncBatchNorm(3)(Tensor(np.ones((2, 3, 4, 4), np.float32))).shape
        (2, 3, 4, 4)
    """

    _valid_ranks = (2, 4)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None, process_groups: Any = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, data_format="NCHW", dtype=dtype)
        self.process_groups = process_groups
        self._group_of_rank: np.ndarray | None = None
        if process_groups is not None and not (isinstance(process_groups, int) and process_groups == 0):
            self._group_of_rank = self._check_groups(process_groups)

    def _check_groups(self, groups: Any) -> np.ndarray:
        """Validate ``process_groups`` and return each rank's group index (-1: in no group of 2 or more)."""
        if not isinstance(groups, list):
            raise TypeError(f"For '{self.cls_name}', the 'process_groups' must be list, but got "
                            f"{type(groups).__name__}: {groups!r}.")
        for sub in groups:
            if not isinstance(sub, list):
                raise TypeError(f"For '{self.cls_name}', the 'sub group' must be list, but got "
                                f"{type(sub).__name__}: {sub!r}.")
        size = _replica_count()
        seen: set = set()
        for rid in itertools.chain(*groups):
            if isinstance(rid, bool) or not isinstance(rid, numbers.Integral):
                raise TypeError(f"For '{self.cls_name}', the 'rank id in process_groups' must be int, but got "
                                f"{rid!r}.")
            if rid < 0 or (size > 1 and rid >= size):
                raise ValueError(f"For '{self.cls_name}', the 'rank id in process_groups' must be in range of "
                                 f"[0, {size}), but got {rid}.")
            if rid in seen:
                raise ValueError(f"For '{self.cls_name}', rank id in 'process_groups' must not be duplicated, "
                                 f"but got {groups}.")
            seen.add(rid)
        table = np.full([max(seen, default=-1) + 1], -1, np.int32)
        for g, sub in enumerate(groups):
            if len(sub) > 1:
                table[sub] = g
        return table

    def _check_input_dim(self, rank: int | None) -> None:
        if rank not in self._valid_ranks:
            raise ValueError(f"For '{self.cls_name}', the must have 2 dims or 4 dims, but got {rank}.")

    def _sync_context(self) -> Any:
        """The replica context to reduce over, or None when the statistics stay local."""
        if self._group_of_rank is None and self.process_groups is not None:
            return None  # process_groups=0
        ctx = cluster.replica_context()  # in a process of a job joined by communication.init(): the job's
        if ctx is None or ctx.num_replicas_in_sync <= 1:
            return None
        if self._group_of_rank is not None and not (self._group_of_rank >= 0).any():
            return None
        return ctx

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        self._check_input_dim(v.shape.rank)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        ctx = self._sync_context() if use_batch else None
        if ctx is None:
            return self._local(v)
        v, stat_dtype, out_dtype = _in_stat_dtype(self, v)
        rank = v.shape.rank
        axes = [0] + list(range(2, rank))
        local_n = tf.cast(tf.reduce_prod(tf.gather(tf.shape(v), axes)), stat_dtype)
        stats = tf.concat([tf.reduce_sum(v, axes), tf.reduce_sum(tf.square(v), axes), local_n[None]], 0)
        total = self._reduce(ctx, stats)
        c = self.num_features
        n = total[2 * c]
        mean = total[:c] / n
        var = tf.maximum(total[c:2 * c] / n - tf.square(mean), 0.0)
        keep = 1.0 - self.momentum
        _update_moving(self.moving_mean, mean, keep)
        _update_moving(self.moving_variance, var * n / tf.maximum(n - 1, 1), keep)
        y = self._normalize(v, mean, var, [1, c] + [1] * (rank - 2), stat_dtype)
        return _wrap(cast_to(y, out_dtype))

    def _local(self, v: tf.Tensor) -> Tensor:
        """Plain batch normalization (one device, evaluation, or no synchronization)."""
        return super().construct(_wrap(v))

    def _reduce(self, ctx: Any, stats: tf.Tensor) -> tf.Tensor:
        """Sum ``stats`` over all replicas, or over each replica's process group."""
        if self._group_of_rank is None:
            return ctx.all_reduce(tf.distribute.ReduceOp.SUM, stats)
        n_rep = ctx.num_replicas_in_sync
        table = np.full([n_rep], -1, np.int32)
        known = self._group_of_rank[:n_rep]
        table[:known.size] = known
        n_groups = int(table.max()) + 1
        rid = tf.cast(ctx.replica_id_in_sync_group, tf.int32)
        group = tf.gather(tf.constant(table), rid)
        onehot = tf.one_hot(group, n_groups, dtype=stats.dtype)  # all zeros for a replica in no group
        summed = ctx.all_reduce(tf.distribute.ReduceOp.SUM, onehot[:, None] * stats[None, :])
        mine = tf.gather(summed, tf.maximum(group, 0))
        return tf.where(group >= 0, mine, stats)

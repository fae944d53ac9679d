"""The data-parallel settings a training wrapper reduces its gradients by: mode, mean and device count.

They combine the auto-parallel context (``context.set_auto_parallel_context``) with what is
running: a multi-replica ``tf.distribute`` strategy means data parallelism even in
``STAND_ALONE`` mode, and a job joined by ``communication.init()`` counts its ranks as devices
when ``device_num`` was not given (MindSpore's default). ``nn.TrainOneStepCell`` and
``nn.DistributedGradReducer`` read them here; ``mindspore.parallel._utils``'s
``_get_parallel_mode`` / ``_get_gradients_mean`` / ``_get_device_num`` are the same functions
under MindSpore's names.

This module stands one step above the others of ``tfspore._internal``: it reads ``tfspore.context``
(which imports only ``tfspore._internal``).

Example:
    >>> parallel_mode(), gradients_mean(), device_num()
    ('stand_alone', False, 1)
"""
from __future__ import annotations

import tensorflow as tf

from tfspore import context
from tfspore._internal import cluster

__all__ = ["parallel_mode", "gradients_mean", "device_num"]


def parallel_mode() -> str:
    """The parallel mode: the auto-parallel context's, or 'data_parallel' under a multi-replica strategy."""
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode == context.ParallelMode.STAND_ALONE and tf.distribute.has_strategy() and \
            tf.distribute.get_strategy().num_replicas_in_sync > 1:
        return context.ParallelMode.DATA_PARALLEL
    return mode


def gradients_mean() -> bool:
    """Whether reduced gradients are averaged (``gradients_mean``)."""
    return bool(context.get_auto_parallel_context("gradients_mean"))


def device_num() -> int:
    """The number of devices: the strategy's replicas, the context's ``device_num`` when set, else the number
    of ranks of a job joined by ``communication.init()`` (as MindSpore's default ``device_num``)."""
    if tf.distribute.has_strategy():
        return int(tf.distribute.get_strategy().num_replicas_in_sync)
    strategy = cluster.communication_strategy()
    if strategy is not None and not context._auto_parallel_is_set("device_num"):  # pylint: disable=protected-access
        return int(strategy.num_replicas_in_sync)
    return int(context.get_auto_parallel_context("device_num"))

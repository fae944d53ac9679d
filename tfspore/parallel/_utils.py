"""Helpers MindSpore's training wrappers import from ``mindspore.parallel._utils``."""
from __future__ import annotations

import tensorflow as tf

from tfspore import context
from tfspore._internal import cluster


def _get_parallel_mode() -> str:
    """The parallel mode: the auto-parallel context's, or 'data_parallel' under a multi-replica strategy."""
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode == context.ParallelMode.STAND_ALONE and tf.distribute.has_strategy() and \
            tf.distribute.get_strategy().num_replicas_in_sync > 1:
        return context.ParallelMode.DATA_PARALLEL
    return mode


def _get_gradients_mean() -> bool:
    """Whether reduced gradients are averaged (``gradients_mean``)."""
    return bool(context.get_auto_parallel_context("gradients_mean"))


def _get_device_num() -> int:
    """The number of devices: the strategy's replicas, the context's ``device_num`` when set, else the number
    of ranks of a job joined by ``communication.init()`` (as MindSpore's default ``device_num``)."""
    if tf.distribute.has_strategy():
        return int(tf.distribute.get_strategy().num_replicas_in_sync)
    strategy = cluster.communication_strategy()
    if strategy is not None and not context._auto_parallel_is_set("device_num"):  # pylint: disable=protected-access
        return int(strategy.num_replicas_in_sync)
    return int(context.get_auto_parallel_context("device_num"))


def _get_enable_parallel_optimizer() -> bool:
    return bool(context.get_auto_parallel_context("enable_parallel_optimizer"))


def _get_pipeline_stages() -> int:
    return int(context.get_auto_parallel_context("pipeline_stages"))

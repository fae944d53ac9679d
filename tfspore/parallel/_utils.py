"""Helpers MindSpore's training wrappers import from ``mindspore.parallel._utils``.

The data-parallel settings are :mod:`tfspore._internal.data_parallel`'s, under MindSpore's names.
"""
from __future__ import annotations

from tfspore import context
from tfspore._internal import data_parallel

_get_parallel_mode = data_parallel.parallel_mode
_get_gradients_mean = data_parallel.gradients_mean
_get_device_num = data_parallel.device_num


def _get_enable_parallel_optimizer() -> bool:
    return bool(context.get_auto_parallel_context("enable_parallel_optimizer"))


def _get_pipeline_stages() -> int:
    return int(context.get_auto_parallel_context("pipeline_stages"))

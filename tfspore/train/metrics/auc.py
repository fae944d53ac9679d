"""``mindspore.train.metrics.auc``: defined in :mod:`tfspore.nn.metrics.auc`."""
from tfspore.nn.metrics.auc import *  # noqa: F401,F403
from tfspore.nn.metrics.auc import __all__  # noqa: F401

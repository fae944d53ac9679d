"""``mindspore.train.metrics.topk``: defined in :mod:`tfspore.nn.metrics.topk`."""
from tfspore.nn.metrics.topk import *  # noqa: F401,F403
from tfspore.nn.metrics.topk import __all__  # noqa: F401

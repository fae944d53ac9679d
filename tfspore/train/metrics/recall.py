"""``mindspore.train.metrics.recall``: defined in :mod:`tfspore.nn.metrics.recall`."""
from tfspore.nn.metrics.recall import *  # noqa: F401,F403
from tfspore.nn.metrics.recall import __all__  # noqa: F401

"""``mindspore.train.metrics.accuracy``: defined in :mod:`tfspore.nn.metrics.accuracy`."""
from tfspore.nn.metrics.accuracy import *  # noqa: F401,F403
from tfspore.nn.metrics.accuracy import __all__  # noqa: F401

"""``mindspore.train.metrics.error``: defined in :mod:`tfspore.nn.metrics.error`."""
from tfspore.nn.metrics.error import *  # noqa: F401,F403
from tfspore.nn.metrics.error import __all__  # noqa: F401

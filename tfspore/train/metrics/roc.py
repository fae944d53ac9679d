"""``mindspore.train.metrics.roc``: defined in :mod:`tfspore.nn.metrics.roc`."""
from tfspore.nn.metrics.roc import *  # noqa: F401,F403
from tfspore.nn.metrics.roc import __all__  # noqa: F401

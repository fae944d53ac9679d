"""``mindspore.train.metrics.metric``: defined in :mod:`tfspore.nn.metrics.metric`."""
from tfspore.nn.metrics.metric import *  # noqa: F401,F403
from tfspore.nn.metrics.metric import __all__  # noqa: F401

"""``mindspore.train.metrics.loss``: defined in :mod:`tfspore.nn.metrics.loss`."""
from tfspore.nn.metrics.loss import *  # noqa: F401,F403
from tfspore.nn.metrics.loss import __all__  # noqa: F401

"""``mindspore.train.metrics.fbeta``: defined in :mod:`tfspore.nn.metrics.fbeta`."""
from tfspore.nn.metrics.fbeta import *  # noqa: F401,F403
from tfspore.nn.metrics.fbeta import __all__  # noqa: F401

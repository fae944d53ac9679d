"""``mindspore.train.metrics.dice``: defined in :mod:`tfspore.nn.metrics.dice`."""
from tfspore.nn.metrics.dice import *  # noqa: F401,F403
from tfspore.nn.metrics.dice import __all__  # noqa: F401

"""``mindspore.train.metrics.precision``: defined in :mod:`tfspore.nn.metrics.precision`."""
from tfspore.nn.metrics.precision import *  # noqa: F401,F403
from tfspore.nn.metrics.precision import __all__  # noqa: F401

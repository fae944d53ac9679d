"""``mindspore.train.metrics.confusion_matrix``: defined in :mod:`tfspore.nn.metrics.confusion_matrix`."""
from tfspore.nn.metrics.confusion_matrix import *  # noqa: F401,F403
from tfspore.nn.metrics.confusion_matrix import __all__  # noqa: F401

"""``mindspore.train.metrics.mean_surface_distance``: defined in :mod:`tfspore.nn.metrics.mean_surface_distance`."""
from tfspore.nn.metrics.mean_surface_distance import *  # noqa: F401,F403
from tfspore.nn.metrics.mean_surface_distance import __all__  # noqa: F401

"""``mindspore.train.metrics.hausdorff_distance``: defined in :mod:`tfspore.nn.metrics.hausdorff_distance`."""
from tfspore.nn.metrics.hausdorff_distance import *  # noqa: F401,F403
from tfspore.nn.metrics.hausdorff_distance import __all__  # noqa: F401

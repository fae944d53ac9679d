"""``mindspore.train.metrics.occlusion_sensitivity``: defined in :mod:`tfspore.nn.metrics.occlusion_sensitivity`."""
from tfspore.nn.metrics.occlusion_sensitivity import *  # noqa: F401,F403
from tfspore.nn.metrics.occlusion_sensitivity import __all__  # noqa: F401

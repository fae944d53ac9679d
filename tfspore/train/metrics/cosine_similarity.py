"""``mindspore.train.metrics.cosine_similarity``: defined in :mod:`tfspore.nn.metrics.cosine_similarity`."""
from tfspore.nn.metrics.cosine_similarity import *  # noqa: F401,F403
from tfspore.nn.metrics.cosine_similarity import __all__  # noqa: F401

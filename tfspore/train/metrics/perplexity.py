"""``mindspore.train.metrics.perplexity``: defined in :mod:`tfspore.nn.metrics.perplexity`."""
from tfspore.nn.metrics.perplexity import *  # noqa: F401,F403
from tfspore.nn.metrics.perplexity import __all__  # noqa: F401

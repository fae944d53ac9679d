"""``mindspore.train.metrics.bleu_score``: defined in :mod:`tfspore.nn.metrics.bleu_score`."""
from tfspore.nn.metrics.bleu_score import *  # noqa: F401,F403
from tfspore.nn.metrics.bleu_score import __all__  # noqa: F401

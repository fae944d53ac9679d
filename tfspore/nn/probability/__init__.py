"""``tfspore.nn.probability`` (MindSpore's ``mindspore.nn.probability``): probability distributions."""
from tfspore.nn.probability import distribution

__all__ = ["distribution"]

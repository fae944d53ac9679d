"""``tfspore.nn.loss``: loss functions (MindSpore's ``mindspore.nn.loss``)."""
from tfspore.nn.loss import loss
from tfspore.nn.loss.loss import *  # noqa: F401,F403

__all__ = list(loss.__all__)

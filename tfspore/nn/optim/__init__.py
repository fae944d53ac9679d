"""``tfspore.nn.optim``: optimizers (MindSpore's ``mindspore.nn.optim``)."""
from tfspore.nn.optim import momentum, optimizer, sgd
from tfspore.nn.optim.momentum import Momentum
from tfspore.nn.optim.optimizer import Optimizer
from tfspore.nn.optim.sgd import SGD

__all__ = ["Optimizer", "Momentum", "SGD"]

"""``tfspore.nn.optim``: optimizers (MindSpore's ``mindspore.nn.optim``)."""
from tfspore.nn.optim import (ada_grad, adadelta, adam, adamax, ftrl, lamb, lars, lazyadam, momentum, optimizer,
                              proximal_ada_grad, rmsprop, sgd)
from tfspore.nn.optim.ada_grad import Adagrad
from tfspore.nn.optim.adadelta import Adadelta
from tfspore.nn.optim.adam import Adam, AdamOffload, AdamWeightDecay
from tfspore.nn.optim.adamax import AdaMax
from tfspore.nn.optim.ftrl import FTRL
from tfspore.nn.optim.lamb import Lamb
from tfspore.nn.optim.lars import LARS
from tfspore.nn.optim.lazyadam import LazyAdam
from tfspore.nn.optim.momentum import Momentum
from tfspore.nn.optim.optimizer import Optimizer
from tfspore.nn.optim.proximal_ada_grad import ProximalAdagrad
from tfspore.nn.optim.rmsprop import RMSProp
from tfspore.nn.optim.sgd import SGD
from tfspore.nn.optim.thor import thor

__all__ = ["Optimizer", "Momentum", "LARS", "Adam", "AdamWeightDecay", "LazyAdam", "AdamOffload", "Lamb", "SGD",
           "FTRL", "RMSProp", "ProximalAdagrad", "Adagrad", "AdaMax", "Adadelta", "thor"]
from tfspore.nn.optim import rprop  # noqa: E402
from tfspore.nn.optim.rprop import Rprop  # noqa: E402
__all__ += ["Rprop"]
from tfspore.nn.optim import asgd  # noqa: E402
from tfspore.nn.optim.asgd import ASGD  # noqa: E402
__all__ += ["ASGD"]

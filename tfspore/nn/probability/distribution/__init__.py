"""``tfspore.nn.probability.distribution``: MindSpore's distribution Cells on TensorFlow ops.

Provided: ``Distribution`` (the base), ``Normal``, ``Uniform``, ``Exponential``, ``Bernoulli`` and
``Categorical``. The others of MindSpore's module (Beta, Gamma, Poisson, ... and
``TransformedDistribution``) are not implemented.
"""
from tfspore.nn.probability.distribution._distribution import Distribution
from tfspore.nn.probability.distribution._continuous import Exponential, Normal, Uniform
from tfspore.nn.probability.distribution._discrete import Bernoulli, Categorical

__all__ = ["Distribution", "Normal", "Uniform", "Exponential", "Bernoulli", "Categorical"]

"""``Distribution``: the base Cell of MindSpore's probability distributions.

A distribution holds optional default parameters (``Normal(0.0, 1.0)``) and every method takes
them again as optional trailing arguments (``dist.log_prob(x, mean, sd)``), which override the
defaults for that call. Methods a subclass does not define derive from those it does (``prob``
from ``log_prob``, ``sd`` from ``var``, ``survival_function`` from ``cdf``, ...), as in MindSpore.
``construct(name, *args)`` dispatches to the method called ``name``, so a distribution can be
called inside a Cell's ``construct``. Sampling draws from TensorFlow's random ops seeded with
``seed`` (0: unseeded); the streams differ from MindSpore's by design.

Example:
    >>> from tfspore.nn.probability import distribution as msd
    >>> float(msd.Normal(0.0, 1.0).prob(0.0))
    0.3989423
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf
from tfspore.ops import operations as P

__all__ = ["Distribution"]

_METHODS = ("prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival", "mean", "mode", "sd", "var",
            "entropy", "kl_loss", "cross_entropy", "sample", "get_dist_args", "get_dist_type")


class Distribution(Cell):
    """The base class of the distributions.

    Args:
        seed: the random seed of ``sample`` (None or 0: unseeded).
        dtype: the dtype of the samples and parameters.
        name: the distribution's name.
        param: the constructor's arguments (``dict(locals())`` with ``param_dict`` holding the parameters).

    Raises:
        TypeError: when ``name`` is not a str.
        ValueError: when ``seed`` is negative.

    Example:
        >>> from tfspore.nn.probability import distribution as msd
        >>> msd.Normal(0.0, 1.0).get_dist_type()
        'Normal'
    """

    _param_names: tuple = ()
    _repr_labels: dict = {}

    def __init__(self, seed: int | None, dtype: Any, name: str, param: dict) -> None:
        super().__init__()
        seed = 0 if seed is None else seed
        if not isinstance(name, str):
            raise TypeError(f"For '{type(self).__name__}', the type of 'name' should be 'str', but got type "
                            f"'{type(name).__name__}'.")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be a non-negative int, but got {seed!r}.")
        self._name, self._seed, self._dtype = name, seed, dtype
        self._parameters = {k: v for k, v in param.items() if k != "self" and not k.startswith("_")}
        self.default_parameters: list = []
        self.parameter_names: list = []
        values = [v for v in self._parameters.get("param_dict", {}).values()]
        self._is_scalar_batch = all(v is None or isinstance(v, (int, float)) for v in values)
        self._batch_shape = None if any(v is None for v in values) else tuple(
            np.broadcast_shapes(*[np.shape(_np(v)) for v in values])) if values else ()
        self._broadcast_shape = self._batch_shape
        self.select = P.Select()

    # ------------------------------------------------------------------ properties and parameters
    @property
    def name(self) -> str:
        """The distribution's name."""
        return self._name

    @property
    def dtype(self) -> Any:
        """The dtype of the samples."""
        return self._dtype

    @property
    def seed(self) -> int:
        """The random seed."""
        return self._seed

    @property
    def parameters(self) -> dict:
        """The constructor's arguments."""
        return self._parameters

    @property
    def is_scalar_batch(self) -> bool:
        """Whether the default parameters are Python numbers."""
        return self._is_scalar_batch

    @property
    def batch_shape(self) -> Any:
        """The broadcast shape of the default parameters (None when one is missing)."""
        return self._batch_shape

    @property
    def broadcast_shape(self) -> Any:
        """The broadcast shape of the default parameters."""
        return self._broadcast_shape

    def _param_dtype(self) -> tf.DType:
        return tf.float32 if not self._dtype.tf_dtype.is_floating else self._dtype.tf_dtype

    def _init_parameters(self, seed: int | None, dtype: Any, name: str, param: dict,
                         **defaults: Any) -> list[Tensor | None]:
        """Initialise the base with the constructor's ``param`` and record ``defaults`` (parameter
        name to value, in order) as the default parameters; returns them (None where missing)."""
        param["param_dict"] = dict(defaults)
        Distribution.__init__(self, seed, dtype, name, param)
        return [self._add_parameter(value, key) for key, value in defaults.items()]

    def _add_parameter(self, value: Any, name: str) -> Tensor | None:
        """Record a default parameter (a float Tensor) under ``name``."""
        value_t = None if value is None else _wrap(tf.cast(tf.constant(_np(value)), self._param_dtype()))
        self.default_parameters.append(value_t)
        self.parameter_names.append(name)
        return value_t

    def _dist_params(self, *args: Any) -> list[tf.Tensor]:
        """The call's parameters (each argument, else the default), broadcast against each other."""
        out = []
        for arg, name, default in zip(args, self.parameter_names, self.default_parameters):
            value = arg if arg is not None else default
            if value is None:
                raise ValueError(f"For '{self.name}', the value of {name} cannot be None.")
            out.append(self._value(value))
        if len(out) > 1:
            shape = out[0].shape
            for t in out[1:]:
                shape = tf.broadcast_static_shape(shape, t.shape)
            out = [tf.broadcast_to(t, shape) for t in out]
        return out

    def _value(self, value: Any) -> tf.Tensor:
        return tf.cast(to_tf(value), self._param_dtype())

    # ------------------------------------------------------------------ public methods
    def _call(self, method: str, *args: Any) -> Tensor:
        fn: Callable | None = getattr(self, "_" + method, None)
        if fn is None:
            raise NotImplementedError(f"{method[:-3]} is not implemented for {type(self).__name__} distribution.")
        return _wrap(fn(*args))

    def prob(self, value: Any, *params: Any) -> Tensor:
        """The probability (density) of ``value``."""
        if hasattr(self, "_prob_tf"):
            return self._call("prob_tf", value, *params)
        return _wrap(tf.exp(to_tf(self.log_prob(value, *params))))

    def log_prob(self, value: Any, *params: Any) -> Tensor:
        """The log probability (density) of ``value``."""
        if hasattr(self, "_log_prob_tf"):
            return self._call("log_prob_tf", value, *params)
        return _wrap(tf.math.log(to_tf(self.prob(value, *params))))

    def cdf(self, value: Any, *params: Any) -> Tensor:
        """The cumulative distribution function at ``value``."""
        return self._call("cdf_tf", value, *params)

    def log_cdf(self, value: Any, *params: Any) -> Tensor:
        """The log of the cumulative distribution function at ``value``."""
        return _wrap(tf.math.log(to_tf(self.cdf(value, *params))))

    def survival_function(self, value: Any, *params: Any) -> Tensor:
        """``1 - cdf(value)``."""
        return _wrap(1.0 - to_tf(self.cdf(value, *params)))

    def log_survival(self, value: Any, *params: Any) -> Tensor:
        """The log of the survival function at ``value``."""
        return _wrap(tf.math.log(to_tf(self.survival_function(value, *params))))

    def mean(self, *params: Any) -> Tensor:
        """The mean."""
        return self._call("mean_tf", *params)

    def mode(self, *params: Any) -> Tensor:
        """The mode."""
        return self._call("mode_tf", *params)

    def var(self, *params: Any) -> Tensor:
        """The variance."""
        if hasattr(self, "_var_tf"):
            return self._call("var_tf", *params)
        return _wrap(tf.square(to_tf(self.sd(*params))))

    def sd(self, *params: Any) -> Tensor:
        """The standard deviation."""
        if hasattr(self, "_sd_tf"):
            return self._call("sd_tf", *params)
        return _wrap(tf.sqrt(to_tf(self.var(*params))))

    def entropy(self, *params: Any) -> Tensor:
        """The entropy."""
        return self._call("entropy_tf", *params)

    def kl_loss(self, dist: str, *params: Any) -> Tensor:
        """The KL divergence ``KL(self || dist)`` to a distribution of type ``dist`` with the given parameters."""
        self._check_same_type(dist)
        return self._call("kl_tf", *params)

    def cross_entropy(self, dist: str, *params: Any) -> Tensor:
        """The cross entropy to ``dist``: ``entropy(self) + kl_loss(dist)``."""
        self._check_same_type(dist)
        n = len(self.parameter_names)
        return _wrap(to_tf(self.entropy(*params[n:])) + to_tf(self.kl_loss(dist, *params)))

    def sample(self, shape: Any = (), *params: Any) -> Tensor:
        """Samples of shape ``shape + batch_shape``."""
        if not isinstance(shape, tuple):
            raise TypeError(f"For '{self.name}', the 'shape' must be a tuple, but got {type(shape).__name__}.")
        return self._call("sample_tf", shape, *params)

    def get_dist_args(self, *params: Any) -> tuple:
        """The parameters of a call: each given one, else the default."""
        return tuple(p if p is not None else d for p, d in
                     zip(params + (None,) * (len(self.parameter_names) - len(params)), self.default_parameters))

    def get_dist_type(self) -> str:
        """The distribution's type name (``'Normal'``, ...)."""
        return type(self).__name__

    def _check_same_type(self, dist: str) -> None:
        if dist != self.get_dist_type():
            raise ValueError(f"For '{self.name}', the 'dist' must be '{self.get_dist_type()}', but got {dist!r}.")

    def _seed_arg(self) -> int | None:
        return self._seed or None

    def construct(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if name not in _METHODS:
            raise ValueError(f"For '{self.name}', the 'name' must be one of {list(_METHODS)}, but got {name!r}.")
        return getattr(self, name)(*args, **kwargs)

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return ", ".join(f"{self._repr_labels.get(n, n)} = {_repr_value(v)}"
                             for n, v in zip(self.parameter_names, self.default_parameters))
        return f"batch_shape = {self._broadcast_shape}"


def _np(value: Any) -> np.ndarray:
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value, dtype=np.float64)


def _repr_value(value: Any) -> str:
    return "None" if value is None else str(value)


float_type = (mstype.float16, mstype.float32, mstype.float64)

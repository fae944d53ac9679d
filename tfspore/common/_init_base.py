"""The base class of initializers and the rules they share: the string-alias registry, MindSpore's
float32 sampling (normal, uniform, truncated normal by rejection) and the fan-in/fan-out and gain
rules. The initializers themselves are in ``_initializers``; ``initializer.py`` is the public
module (``mindspore.common.initializer``).
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from tfspore.common import seed as _seed

_INITIALIZER_ALIAS: Dict[str, type] = {}

# Standard deviation of a standard normal truncated to [-2, 2].
_TRUNC_STD_2 = 0.87962566103423978


# The module users import initializers from (their reprs show it: ``<mindspore.common.initializer.One ...>``).
PUBLIC_MODULE = "tfspore.common.initializer"


class Initializer:
    r"""The abstract base class of initializers.

    Subclasses implement ``_initialize(arr)``, which fills the numpy array ``arr`` in place.

    Args:
        \*\*kwargs: The initializer's arguments, kept for display.

    Example:
        >>> import numpy as np
        >>> from tfspore.common.initializer import Initializer
        >>> class Twos(Initializer):
        ...     def _initialize(self, arr):
        ...         arr.fill(2)
        >>> a = np.zeros((2, 2), np.float32)
        >>> Twos()(a)
        >>> float(a.sum())
        8.0
    """

    __module__ = PUBLIC_MODULE

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        self._seed: Optional[int] = None

    def _keep_args(self, **kwargs: Any) -> None:
        """Initialize with ``kwargs`` and keep each as an attribute of the same name (the built-in initializers)."""
        Initializer.__init__(self, **kwargs)
        for name, value in kwargs.items():
            setattr(self, name, value)

    @property
    def seed(self) -> Tuple[int, int]:
        """The ``(seed, seed2)`` pair of this initializer.

        With a seed assigned through the setter, it is ``(seed + 1, 0)`` and the initializer
        draws the same values on every call; otherwise it is ``(global_seed, 0)`` (``0`` when
        no global seed is set) and values come from the global generator sequence.
        """
        own = getattr(self, '_seed', None)
        if own is None:
            global_seed = _seed.get_seed()
            return (0 if global_seed is None else global_seed % _seed._MAXINT32), 0
        return own + 1, 0

    @seed.setter
    def seed(self, value: Optional[int]) -> None:
        self._seed = value

    def _rng(self) -> np.random.Generator:
        """Return the generator for one initialization."""
        own = getattr(self, '_seed', None)  # subclasses may skip Initializer.__init__
        if own is not None:
            return np.random.default_rng(own)
        return _seed._next_numpy_rng()

    def _initialize(self, *kwargs):
        raise NotImplementedError('Must be overridden!')

    def __call__(self, arr: np.ndarray) -> Any:
        """Fill `arr` in place.

        Args:
            arr: The numpy array to fill.

        Returns:
            Whatever ``_initialize`` returns (None for the built-in initializers).
        """
        return self._initialize(arr)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in getattr(self, '_kwargs', {}).items())
        return f"{type(self).__name__}({args})"


def _register(*aliases: str) -> Callable[[type], type]:
    """Register a class under its lower-cased name and the given aliases."""
    def alias_reg(cls):
        cls.__module__ = PUBLIC_MODULE  # reprs and pickles name the public module, as MindSpore's do
        name = cls.__name__.lower()
        if name not in _INITIALIZER_ALIAS:
            _INITIALIZER_ALIAS[name] = cls
        for alias in aliases:
            if alias not in _INITIALIZER_ALIAS:
                _INITIALIZER_ALIAS[alias] = cls
        return cls
    return alias_reg


def _assignment(arr: np.ndarray, num: Any) -> np.ndarray:
    """Assign `num` (a scalar or an array of arr's shape) to `arr` in place."""
    if arr.shape == ():
        arr[()] = num if not isinstance(num, np.ndarray) else num.reshape(())
    else:
        arr[...] = num
    return arr


# ---------------------------------------------------------------------------------------------
# Random sampling. Values are generated in float32, as MindSpore does, then assigned.

def _random_normal(rng: np.random.Generator, mean: float, sigma: float, shape: Sequence[int]) -> np.ndarray:
    if sigma < 0:
        raise ValueError(f"sigma < 0, but got sigma {sigma}.")
    data = rng.standard_normal(tuple(shape), dtype=np.float32)
    data *= np.float32(sigma)
    data += np.float32(mean)
    return data


def _random_uniform(rng: np.random.Generator, a: float, b: float, shape: Sequence[int]) -> np.ndarray:
    return rng.uniform(a, b, tuple(shape)).astype(np.float32)


def _std_normal_cdf_diff(alpha: float, beta: float) -> float:
    """P(alpha <= Z <= beta) for a standard normal Z, accurate in both tails."""
    if alpha >= 0:
        return 0.5 * (math.erfc(alpha / math.sqrt(2.0)) - math.erfc(beta / math.sqrt(2.0)))
    if beta <= 0:
        return 0.5 * (math.erfc(-beta / math.sqrt(2.0)) - math.erfc(-alpha / math.sqrt(2.0)))
    return 1.0 - 0.5 * (math.erfc(-alpha / math.sqrt(2.0)) + math.erfc(beta / math.sqrt(2.0)))


def _rejection(n: int, rate: float, propose: Callable[[int], np.ndarray],
               accept: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Draw `n` samples by rejection; `rate` estimates the acceptance rate."""
    out = np.empty(n, dtype=np.float64)
    filled = 0
    for _ in range(100000):
        if filled >= n:
            break
        batch = min(int((n - filled) / max(rate, 1e-3) * 1.2) + 16, 1 << 24)
        z = propose(batch)
        keep = z[accept(z)]
        take = min(keep.size, n - filled)
        out[filled:filled + take] = keep[:take]
        filled += take
    else:
        raise RuntimeError("Truncated normal sampling did not converge.")
    return out


def _truncated_standard_normal(rng: np.random.Generator, alpha: float, beta: float, n: int) -> np.ndarray:
    """Draw `n` standard normal samples conditioned on [alpha, beta] (float64)."""
    if n == 0:
        return np.empty(0, dtype=np.float64)
    if alpha == beta:
        return np.full(n, alpha, dtype=np.float64)
    p = _std_normal_cdf_diff(alpha, beta)
    if p >= 0.25:
        return _rejection(n, p, rng.standard_normal, lambda z: (z >= alpha) & (z <= beta))
    if beta <= 0:
        return -_truncated_standard_normal(rng, -beta, -alpha, n)
    if alpha < 0:
        # A narrow interval around zero: uniform proposal, accepted with density ratio.
        return _rejection(n, 0.9, lambda m: rng.uniform(alpha, beta, m),
                          lambda z: rng.random(z.size) <= np.exp(-0.5 * z * z))
    # A tail interval [alpha, beta] with alpha >= 0 (Robert, 1995).
    root = math.sqrt(alpha * alpha + 4.0)
    lam = (alpha + root) / 2.0
    threshold = 2.0 * math.sqrt(math.e) / (alpha + root) * math.exp((alpha * alpha - alpha * root) / 4.0)
    if beta - alpha < threshold:
        return _rejection(n, 0.5, lambda m: rng.uniform(alpha, beta, m),
                          lambda z: rng.random(z.size) <= np.exp(0.5 * (alpha * alpha - z * z)))
    return _rejection(n, 0.5, lambda m: alpha + rng.exponential(1.0 / lam, m),
                      lambda z: (z <= beta) & (rng.random(z.size) <= np.exp(-0.5 * (z - lam) ** 2)))


def _truncated_normal(rng: np.random.Generator, a: float, b: float, mean: float, sigma: float,
                      shape: Sequence[int]) -> np.ndarray:
    """Normal(mean, sigma) samples restricted to the absolute interval [a, b], as float32."""
    if sigma < 0:
        raise ValueError(f"sigma < 0, but got sigma {sigma}.")
    if a > b:
        raise ValueError(f"For TruncatedNormal initializer, the lower bound 'a' must not be greater than "
                         f"the upper bound 'b', but got a {a} and b {b}.")
    shape = tuple(shape)
    n = int(np.prod(shape, dtype=np.int64))
    if sigma == 0:
        data = np.full(n, min(max(mean, a), b), dtype=np.float64)
    else:
        z = _truncated_standard_normal(rng, (a - mean) / sigma, (b - mean) / sigma, n)
        data = mean + sigma * z
    data = np.clip(data.astype(np.float32), np.float32(a), np.float32(b))
    return data.reshape(shape)


# ---------------------------------------------------------------------------------------------
# Fan and gain rules.

def _calculate_fan_in_and_fan_out(shape: Sequence[int]) -> Tuple[int, int]:
    """Return ``(fan_in, fan_out)`` of a weight of `shape`.

    Dense weights are ``(out, in)``; convolution weights ``(out, in, *kernel)``, whose fans
    are multiplied by the kernel size.
    """
    dimensions = len(shape)
    if dimensions < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than"
                         " 2 dimensions, but got dimensions {}.".format(dimensions))
    if dimensions == 2:
        fan_in = shape[1]
        fan_out = shape[0]
    else:
        receptive_field_size = 1
        for i in range(2, dimensions):
            receptive_field_size *= shape[i]
        fan_in = shape[1] * receptive_field_size
        fan_out = shape[0] * receptive_field_size
    return fan_in, fan_out


def _calculate_correct_fan(shape: Sequence[int], mode: str) -> int:
    """Return fan_in or fan_out of `shape` according to `mode`."""
    mode = mode.lower()
    valid_modes = ['fan_in', 'fan_out']
    if mode not in valid_modes:
        raise ValueError("'mode' {} not supported, please use one of {}".format(mode, valid_modes))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == 'fan_in' else fan_out


def _calculate_gain(nonlinearity: str, param: Optional[float] = None) -> float:
    """Return the recommended gain for `nonlinearity` (`param` is leaky_relu's negative slope)."""
    linear_fns = ['linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d']
    if nonlinearity in linear_fns or nonlinearity == 'sigmoid':
        return 1
    if nonlinearity == 'tanh':
        return 5.0 / 3
    if nonlinearity == 'relu':
        return math.sqrt(2.0)
    if nonlinearity == 'leaky_relu':
        if param is None:
            negative_slope = 0.01
        elif isinstance(param, numbers.Real) and not isinstance(param, (bool, np.bool_)):
            negative_slope = param
        else:
            raise ValueError("For 'HeUniform', 'negative_slope' {} is not a valid number."
                             "When 'nonlinearity' has been set to "
                             "'leaky_relu', 'negative_slope' should be int or float type, but got "
                             "{}.".format(param, type(param)))
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    raise ValueError("For 'HeUniform', the argument 'nonlinearity' should be one of "
                     "['sigmoid', 'tanh', 'relu' or 'leaky_relu'], "
                     "but got {}.".format(nonlinearity))


# The fan rule under a public name, for the layers that size their default initializers with it.
calculate_fan_in_and_fan_out = _calculate_fan_in_and_fan_out

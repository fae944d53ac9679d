"""MindSpore's initializers (``Zero`` ... ``VarianceScaling``) and the conversion of an ``init``
argument (an Initializer, a registered name or a number) into the values of a lazily
initialized Tensor (:func:`_init_to_numpy`, called by ``Tensor.init_data``).

This module does not import ``Tensor``, so ``tfspore.common.tensor`` can import it.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from tfspore.common._init_base import (_INITIALIZER_ALIAS, _TRUNC_STD_2, Initializer, _assignment,
                                       _calculate_correct_fan, _calculate_fan_in_and_fan_out, _calculate_gain,
                                       _random_normal, _random_uniform, _register, _truncated_normal)

# ---------------------------------------------------------------------------------------------
# Initializers.

@_register('zeros')
class Zero(Initializer):
    """Fills the array with zeros.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Zero
        >>> w1 = initializer(Zero(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('zeros', [1, 2, 3], ms.float32)
    """

    def _initialize(self, arr):
        arr.fill(0)


@_register('ones')
class One(Initializer):
    """Fills the array with ones.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, One
        >>> w1 = initializer(One(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('ones', [1, 2, 3], ms.float32)
    """

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """Fills the array with a constant.

    Args:
        value: The value: a number, or an array broadcastable to the initialized shape.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Constant
        >>> w = initializer(Constant(3), [1, 2, 3], ms.float32)
    """

    def __init__(self, value: Union[numbers.Number, np.ndarray]) -> None:
        self._keep_args(value=value)

    def _initialize(self, arr):
        _assignment(arr, self.value)


class _Xavier(Initializer):
    """The ``gain`` argument of :class:`XavierNormal` and :class:`XavierUniform`."""

    def __init__(self, gain: float = 1) -> None:
        self._keep_args(gain=gain)


@_register('xavier_normal')
class XavierNormal(_Xavier):
    r"""Samples from :math:`N(0, \sigma^2)` with :math:`\sigma = gain \sqrt{2 / (fan_{in} + fan_{out})}`.

    Args:
        gain: A scaling factor. Default: ``1``.

    Raises:
        ValueError: At initialization, if the array has fewer than 2 dimensions.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, XavierNormal
        >>> w1 = initializer(XavierNormal(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('xavier_normal', [1, 2, 3], ms.float32)
    """

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        _assignment(arr, _random_normal(self._rng(), 0, std, arr.shape))


@_register('xavier_uniform')
class XavierUniform(_Xavier):
    r"""Samples from :math:`U(-b, b)` with :math:`b = gain \sqrt{6 / (fan_{in} + fan_{out})}`.

    Args:
        gain: A scaling factor. Default: ``1``.

    Raises:
        ValueError: At initialization, if the array has fewer than 2 dimensions.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, XavierUniform
        >>> w1 = initializer(XavierUniform(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('xavier_uniform', [1, 2, 3], ms.float32)
    """

    def _initialize(self, arr):
        n_in, n_out = _calculate_fan_in_and_fan_out(arr.shape)
        boundary = self.gain * math.sqrt(6.0 / (n_in + n_out))
        _assignment(arr, _random_uniform(self._rng(), -boundary, boundary, arr.shape))


class _He(Initializer):
    """The arguments of :class:`HeUniform` and :class:`HeNormal`, and the gain and fan they scale by."""

    def __init__(self, negative_slope: float = 0, mode: str = 'fan_in', nonlinearity: str = 'leaky_relu') -> None:
        self._keep_args(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)

    def _gain_and_fan(self, shape: Sequence[int]) -> Tuple[float, int]:
        """The gain of ``nonlinearity`` and the fan of ``mode`` for an array of ``shape``."""
        fan = _calculate_correct_fan(shape, self.mode)
        return _calculate_gain(self.nonlinearity, self.negative_slope), fan


@_register('he_uniform')
class HeUniform(_He):
    r"""Samples from :math:`U(-b, b)` with :math:`b = gain \sqrt{3 / fan\_mode}` (Kaiming uniform).

    With ``negative_slope=math.sqrt(5)`` (the default of ``nn.Dense`` and ``nn.Conv2d``) the
    bound is :math:`1/\sqrt{fan_{in}}`.

    Args:
        negative_slope: The negative slope of the rectifier after this layer, used when
            `nonlinearity` is ``'leaky_relu'``. Default: ``0``.
        mode: ``'fan_in'`` or ``'fan_out'``. Default: ``'fan_in'``.
        nonlinearity: ``'sigmoid'``, ``'tanh'``, ``'relu'``, ``'leaky_relu'`` or a linear
            function name (``'linear'``, ``'conv2d'``, ...). Default: ``'leaky_relu'``.

    Raises:
        ValueError: At initialization, for a bad `mode`, `nonlinearity` or `negative_slope`,
            or an array with fewer than 2 dimensions.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, HeUniform
        >>> w1 = initializer(HeUniform(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('he_uniform', [1, 2, 3], ms.float32)
    """

    def _initialize(self, arr):
        gain, fan = self._gain_and_fan(arr.shape)
        boundary = math.sqrt(3.0) * gain / math.sqrt(fan)
        _assignment(arr, _random_uniform(self._rng(), -boundary, boundary, arr.shape))


@_register('he_normal')
class HeNormal(_He):
    r"""Samples from :math:`N(0, \sigma^2)` with :math:`\sigma = gain / \sqrt{fan\_mode}` (Kaiming normal).

    Args:
        negative_slope: The negative slope of the rectifier after this layer, used when
            `nonlinearity` is ``'leaky_relu'``. Default: ``0``.
        mode: ``'fan_in'`` or ``'fan_out'``. Default: ``'fan_in'``.
        nonlinearity: ``'sigmoid'``, ``'tanh'``, ``'relu'``, ``'leaky_relu'`` or a linear
            function name. Default: ``'leaky_relu'``.

    Raises:
        ValueError: At initialization, for a bad `mode`, `nonlinearity` or `negative_slope`,
            or an array with fewer than 2 dimensions.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, HeNormal
        >>> w1 = initializer(HeNormal(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('he_normal', [1, 2, 3], ms.float32)
    """

    def _initialize(self, arr):
        gain, fan = self._gain_and_fan(arr.shape)
        std = gain / math.sqrt(fan)
        _assignment(arr, _random_normal(self._rng(), 0, std, arr.shape))


@_register()
class Identity(Initializer):
    """Fills a 2-D array with the identity matrix (``numpy.eye`` for non-square shapes).

    Raises:
        ValueError: At initialization, if the array is not 2-D.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Identity
        >>> w1 = initializer(Identity(), [2, 3], ms.float32)
        >>> w2 = initializer('identity', [2, 3], ms.float32)
    """

    def _initialize(self, arr):
        if len(arr.shape) != 2:
            raise ValueError('For Identity initializer, the dimension of the initialized tensor should be 2, '
                             'but got {}.'.format(len(arr.shape)))
        _assignment(arr, np.eye(arr.shape[0], arr.shape[1]))


@_register()
class Sparse(Initializer):
    """Samples a 2-D array from :math:`N(0, sigma^2)` and zeroes a fraction of each column.

    In every column ``ceil(sparsity * rows)`` randomly chosen entries are set to zero.

    Args:
        sparsity: The fraction of elements set to zero in each column.
        sigma: The standard deviation of the normal distribution. Default: ``0.01``.

    Raises:
        ValueError: At initialization, if the array is not 2-D.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Sparse
        >>> w = initializer(Sparse(sparsity=0.1, sigma=0.01), [5, 8], ms.float32)
    """

    def __init__(self, sparsity: float, sigma: float = 0.01) -> None:
        self._keep_args(sparsity=sparsity, sigma=sigma)

    def _initialize(self, arr):
        if len(arr.shape) != 2:
            raise ValueError('For Sparse initializer, the dimension of the initialized tensor should be 2, '
                             'but got {}.'.format(len(arr.shape)))
        rows, cols = arr.shape
        zero_num = min(int(np.ceil(self.sparsity * rows)), rows)
        rng = self._rng()
        data = _random_normal(rng, 0, self.sigma, arr.shape)
        if zero_num > 0:
            row_idx = np.argsort(rng.random((rows, cols)), axis=0)[:zero_num]
            data[row_idx, np.arange(cols)[None, :]] = 0.
        _assignment(arr, data)


@_register()
class Dirac(Initializer):
    """Fills a 3-, 4- or 5-D convolution weight with the Dirac delta (identity convolution).

    Args:
        groups: The number of groups of the convolution; each group gets the same pattern.
            Default: ``1``.

    Raises:
        ValueError: At initialization, if the array's dimension is not 3, 4 or 5, or its
            first dimension is not divisible by `groups`.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Dirac
        >>> w1 = initializer(Dirac(groups=2), [6, 4, 3, 3], ms.float32)
        >>> w2 = initializer("dirac", [6, 4, 3, 3], ms.float32)
    """

    def __init__(self, groups: int = 1) -> None:
        self._keep_args(groups=groups)

    def _initialize(self, arr):
        dimension = len(arr.shape)
        if dimension not in [3, 4, 5]:
            raise ValueError("For Dirac initializer, only support "
                             "to initialize tensor with dimension of 3, 4 or 5, but got {}.".format(dimension))
        shapes = arr.shape
        if shapes[0] % self.groups != 0:
            raise ValueError("For Dirac initializer, the first dimension of "
                             "the initialized tensor must be divisible by groups, "
                             "but got first dimension {}, groups {}.".format(shapes[0], self.groups))
        data = np.zeros(arr.shape)
        out_channel_per_group = shapes[0] // self.groups
        min_dim = min(out_channel_per_group, shapes[1])
        centre = tuple(s // 2 for s in shapes[2:])
        for group in range(self.groups):
            for dim in range(min_dim):
                data[(group * out_channel_per_group + dim, dim) + centre] = 1
        _assignment(arr, data)


@_register()
class Orthogonal(Initializer):
    """Fills the array with a (semi-)orthogonal matrix times `gain`.

    Trailing dimensions are flattened: the array is viewed as ``(shape[0], prod(shape[1:]))``.

    Args:
        gain: A scaling factor. Default: ``1.0``.

    Raises:
        ValueError: At initialization, if the array has fewer than 2 dimensions.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Orthogonal
        >>> w1 = initializer(Orthogonal(gain=2.), [2, 3, 4], ms.float32)
        >>> w2 = initializer('orthogonal', [2, 3, 4], ms.float32)
    """

    def __init__(self, gain: float = 1.) -> None:
        self._keep_args(gain=gain)

    def _initialize(self, arr):
        if len(arr.shape) < 2:
            raise ValueError('For Orthogonal initializer, the dimension of the initialized tensor should'
                             ' be no less than 2, but got {}.'.format(len(arr.shape)))
        rows = arr.shape[0]
        cols = int(np.prod(arr.shape)) // rows
        data = _random_normal(self._rng(), 0, 1, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        _assignment(arr, (q * self.gain).reshape(arr.shape))


@_register()
class VarianceScaling(Initializer):
    r"""Samples with a variance scaled by the fan: :math:`\sigma^2 = scale / n`.

    `n` is fan_in, fan_out or their mean, per `mode`. ``'truncated_normal'`` samples a
    normal truncated at two standard deviations whose standard deviation after truncation is
    :math:`\sqrt{scale/n}`; ``'untruncated_normal'`` samples :math:`N(0, scale/n)`;
    ``'uniform'`` samples :math:`U(-\sqrt{3 scale/n}, \sqrt{3 scale/n})`.

    Args:
        scale: The scaling factor, greater than 0. Default: ``1.0``.
        mode: ``'fan_in'``, ``'fan_out'`` or ``'fan_avg'``. Default: ``'fan_in'``.
        distribution: ``'uniform'``, ``'truncated_normal'`` or ``'untruncated_normal'``.
            Default: ``'truncated_normal'``.

    Raises:
        ValueError: If `scale` is not greater than 0, or `mode` or `distribution` is not one
            of the values above.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, VarianceScaling
        >>> w1 = initializer(VarianceScaling(scale=1.0, mode='fan_out',
        ...                                  distribution='untruncated_normal'), [2, 3], ms.float32)
        >>> w2 = initializer('varianceScaling', [2, 3], ms.float32)
    """

    def __init__(self, scale: float = 1.0, mode: str = 'fan_in', distribution: str = 'truncated_normal') -> None:
        if scale <= 0.:
            raise ValueError("For VarianceScaling initializer, "
                             "the argument 'scale' must be greater than 0, but got {}.".format(scale))
        if mode not in ['fan_in', 'fan_out', 'fan_avg']:
            raise ValueError("For VarianceScaling initializer, the argument 'mode' must be fan_in, "
                             "fan_out or fan_avg, but got {}.".format(mode))
        if distribution not in ['uniform', 'truncated_normal', 'untruncated_normal']:
            raise ValueError("For VarianceScaling initializer, the argument 'distribution' must be uniform, "
                             "truncated_normal or untruncated_normal, but got {}.".format(distribution))
        self._keep_args(scale=scale, mode=mode, distribution=distribution)

    def _initialize(self, arr):
        scale = self.scale
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        if self.mode == 'fan_in':
            scale /= max(1., fan_in)
        elif self.mode == 'fan_out':
            scale /= max(1., fan_out)
        else:
            scale /= max(1., (fan_in + fan_out) / 2.)
        rng = self._rng()
        if self.distribution == 'truncated_normal':
            stddev = math.sqrt(scale) / _TRUNC_STD_2
            data = _truncated_normal(rng, -2 * stddev, 2 * stddev, 0, stddev, arr.shape)
        elif self.distribution == 'untruncated_normal':
            data = _random_normal(rng, 0, math.sqrt(scale), arr.shape)
        else:
            limit = math.sqrt(3.0 * scale)
            data = _random_uniform(rng, -limit, limit, arr.shape)
        _assignment(arr, data)


@_register()
class Uniform(Initializer):
    """Samples from :math:`U(-scale, scale)`.

    Args:
        scale: The bound of the distribution. Default: ``0.07``.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Uniform
        >>> w1 = initializer(Uniform(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('uniform', [1, 2, 3], ms.float32)
    """

    def __init__(self, scale: float = 0.07) -> None:
        self._keep_args(scale=scale)

    def _initialize(self, arr):
        _assignment(arr, _random_uniform(self._rng(), -self.scale, self.scale, arr.shape))


@_register()
class Normal(Initializer):
    r"""Samples from :math:`N(mean, sigma^2)`.

    Args:
        sigma: The standard deviation. Default: ``0.01``.
        mean: The mean. Default: ``0.0``.

    Raises:
        ValueError: At initialization, if `sigma` is negative.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, Normal
        >>> w1 = initializer(Normal(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('normal', [1, 2, 3], ms.float32)
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        self._keep_args(sigma=sigma, mean=mean)

    def _initialize(self, arr):
        _assignment(arr, _random_normal(self._rng(), self.mean, self.sigma, arr.shape))


@_register()
class TruncatedNormal(Initializer):
    """Samples from :math:`N(mean, sigma^2)` restricted to the interval ``[a, b]``.

    `a` and `b` are absolute bounds (not multiples of `sigma`), as in MindSpore: with the
    defaults the values lie in ``[-2, 2]``, which barely truncates ``N(0, 0.01^2)``.

    Args:
        sigma: The standard deviation. Default: ``0.01``.
        mean: The mean. Default: ``0.0``.
        a: The lower bound. Default: ``-2.0``.
        b: The upper bound. Default: ``2.0``.

    Raises:
        ValueError: At initialization, if `sigma` is negative or `a` > `b`.

    Example:
        >>> import tfspore as ms
        >>> from tfspore.common.initializer import initializer, TruncatedNormal
        >>> w1 = initializer(TruncatedNormal(), [1, 2, 3], ms.float32)
        >>> w2 = initializer('truncatedNormal', [1, 2, 3], ms.float32)
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0) -> None:
        self._keep_args(sigma=sigma, mean=mean, a=a, b=b)

    def _initialize(self, arr):
        _assignment(arr, _truncated_normal(self._rng(), self.a, self.b, self.mean, self.sigma, arr.shape))


# ---------------------------------------------------------------------------------------------
# Entry points.

def _alias_to_initializer(name: str) -> Initializer:
    """Instantiate the initializer registered under `name` (case-insensitive)."""
    cls = _INITIALIZER_ALIAS.get(name.lower())
    if cls is None:
        raise ValueError(f"For 'initializer', the class corresponding to '{name}' was not found.")
    try:
        return cls()
    except TypeError as e:
        raise TypeError(f"For 'initializer', the initializer '{name}' needs arguments and cannot be created "
                        f"from its name; pass {cls.__name__}(...) instead. {e}") from e


def _to_initializer(init: Any) -> Any:
    """Turn a str alias or a number into an Initializer; pass Initializers through."""
    if isinstance(init, str):
        return _alias_to_initializer(init)
    if isinstance(init, numbers.Number):
        return Constant(init)
    return init


def _normalize_shape(shape: Any) -> Optional[Tuple[int, ...]]:
    """Validate `shape` for ``initializer`` and return it as a tuple of ints."""
    if shape is None:
        return None
    if isinstance(shape, (bool, np.bool_)):
        raise TypeError(f"For 'initializer', the argument 'shape' must be a tuple, list or int, "
                        f"but got {shape!r} with type {type(shape).__name__}.")
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    elif isinstance(shape, (list, tuple)):
        shape = tuple(shape)
    else:
        raise TypeError(f"For 'initializer', the argument 'shape' must be a tuple, list or int, "
                        f"but got {shape!r} with type {type(shape).__name__}.")
    for value in shape:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of 'shape' "
                             f"must be positive integer, but got {shape}")
    return tuple(int(v) for v in shape)


def _init_to_numpy(init: Any, shape: Sequence[int], np_dtype: Any) -> np.ndarray:
    """Create the values of a lazily initialized Tensor.

    Args:
        init: An Initializer (or any callable that fills a numpy array in place), a str alias
            or a number.
        shape: The shape, a sequence of non-negative ints (``()`` for a scalar).
        np_dtype: Anything ``numpy.dtype`` accepts. Types numpy cannot compute in natively
            (``bfloat16``, float8 from ml_dtypes) produce float32 for the caller to cast.

    Returns:
        A new numpy array of `shape` filled by `init`.

    Raises:
        TypeError: If `np_dtype` is not numeric or boolean.
    """
    init = _to_initializer(init)
    dtype = np.dtype(np_dtype)
    if dtype.kind == 'V':
        dtype = np.dtype(np.float32)
    elif dtype.kind not in 'biufc':
        raise TypeError(f"For 'init_data', an initializer can only fill a numeric tensor, but got dtype {dtype}.")
    arr = np.zeros(tuple(int(d) for d in shape), dtype=dtype)
    if not isinstance(init, Zero):
        init(arr)
    return arr

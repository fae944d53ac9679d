"""Parameter initializers (``mindspore.common.initializer``).

An :class:`Initializer` fills a numpy array in place. :func:`initializer` wraps one in a
lazily initialized :class:`~tfspore.common.tensor.Tensor` whose ``init_data()`` creates the
values. The distributions, their default arguments, the fan-in/fan-out and gain rules and
the string aliases are MindSpore's. Random values come from generators handed out by
:mod:`tfspore.common.seed`, so :func:`~tfspore.common.seed.set_seed` makes them reproducible.

Example:
    >>> import tfspore as ms
    >>> from tfspore.common.initializer import initializer, HeUniform
    >>> w = initializer(HeUniform(), [32, 64], ms.float32)
    >>> w.init_data().shape
    (32, 64)

The module is split by concept: ``_init_base`` (the base class, the alias registry, sampling and
fan/gain rules), ``_initializers`` (the initializers and ``init``-argument conversion) and this
public module, which adds :func:`initializer`.
"""
from __future__ import annotations

import numbers
from typing import Tuple, Union

import numpy as np

from tfspore.common import dtype as mstype
from tfspore.common._init_base import (_INITIALIZER_ALIAS, _TRUNC_STD_2, Initializer,  # noqa: F401
                                       _calculate_correct_fan, _calculate_fan_in_and_fan_out, _calculate_gain,
                                       _register, calculate_fan_in_and_fan_out)
from tfspore.common._initializers import (Constant, Dirac, HeNormal, HeUniform, Identity, Normal, One,  # noqa: F401
                                          Orthogonal, Sparse, TruncatedNormal, Uniform, VarianceScaling,
                                          XavierNormal, XavierUniform, Zero, _alias_to_initializer,
                                          _init_to_numpy, _normalize_shape, _to_initializer)
from tfspore.common.tensor import Tensor

__all__ = [
    'Initializer',
    'initializer',
    'TruncatedNormal',
    'Normal',
    'Uniform',
    'HeUniform',
    'HeNormal',
    'XavierUniform',
    'XavierNormal',
    'One',
    'Zero',
    'Constant',
    'Identity',
    'Sparse',
    'Dirac',
    'Orthogonal',
    'VarianceScaling']


def initializer(init: Union["Tensor", np.ndarray, str, Initializer, numbers.Number],
                shape: Union[Tuple[int, ...], list, int, None] = None,
                dtype: mstype.Type = mstype.float32) -> "Tensor":
    """Create a lazily initialized Tensor.

    Args:
        init: The initial value:

            - a Tensor (or numpy array): used as is; `shape`, if given, must equal its shape;
            - a str: an initializer alias such as ``'normal'``, ``'ones'``, ``'zeros'``,
              ``'he_uniform'`` (case-insensitive);
            - an :class:`Initializer`;
            - a number: a :class:`Constant`.

        shape: The shape of the tensor, a tuple or list of positive ints or one int. Default:
            ``None`` (only valid when `init` is a Tensor).
        dtype: The data type. Default: ``mstype.float32``.

    Returns:
        A Tensor. For an Initializer, str or number, the Tensor is lazy: ``init_data()``
        creates its values. A Tensor `init` is returned unchanged.

    Raises:
        TypeError: If `init` or `shape` has a wrong type.
        ValueError: If `init` is an unknown alias, `shape` holds a non-positive value, or a
            Tensor's shape differs from `shape`.

    Example:
        >>> import numpy as np
        >>> import tfspore as ms
        >>> from tfspore import Tensor
        >>> from tfspore.common.initializer import initializer, One
        >>> data = Tensor(np.zeros([1, 2, 3]), ms.float32)
        >>> w1 = initializer(data, [1, 2, 3], ms.float32)
        >>> w2 = initializer('ones', [1, 2, 3], ms.float32)
        >>> w3 = initializer(One(), [1, 2, 3], ms.float32)
        >>> w4 = initializer(0, [1, 2, 3], ms.float32)
    """
    if isinstance(init, np.ndarray):
        init = Tensor(init, dtype=dtype)
    if isinstance(init, Tensor):
        if shape is not None:
            expected = _normalize_shape(shape)
            if tuple(init.shape) != expected:
                raise ValueError("For 'initializer', the shape of the 'init' argument should be same as "
                                 "the argument 'shape', but got the "
                                 "'init' shape {} and the 'shape' {}.".format(list(init.shape), list(expected)))
        return init
    if not isinstance(init, (numbers.Number, str, Initializer)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', 'string' "
                        "or 'initializer', but got {!r} with type {}.".format(init, type(init).__name__))
    shape = _normalize_shape(shape)
    init = _to_initializer(init)
    if shape is None:
        shape = getattr(init, 'shape', None)
        if shape is None:
            raise ValueError(f"For 'initializer', the argument 'shape' must be given when 'init' is "
                             f"{init!r}, but got None.")
        shape = _normalize_shape(shape)
    return Tensor(dtype=dtype, shape=shape, init=init)

"""Basic layers: ``Dense``, ``Flatten``, ``Dropout``, ``Identity``.

Example:
    >>> from tfspore import nn
    >>> nn.Dense(3, 2)
    Dense(input_channels=3, output_channels=2, has_bias=True)
"""
from __future__ import annotations

import logging
import math
from typing import Any

import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore.common import seed as _seed
from tfspore.common.initializer import HeUniform, Uniform, initializer
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer import _checkparam as validator
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf
from tfspore.nn.layer.activation import get_activation

__all__ = ["Dense", "Flatten", "Dropout", "Identity"]

_logger = logging.getLogger("tfspore")
_WARNED: set = set()


def _warn_once(key: str, msg: str) -> None:
    if key not in _WARNED:
        _WARNED.add(key)
        _logger.warning(msg)


def _flatten_shape(v: tf.Tensor, start: int, end: int) -> Any:
    """The target shape of flattening dims ``start..end`` of ``v`` (static where possible)."""
    dims = v.shape.as_list()
    block = dims[start:end + 1]
    outside = dims[:start] + dims[end + 1:]
    if all(d is not None for d in block) and sum(d is None for d in outside) <= 1:
        size = 1
        for d in block:
            size *= d
        return [(-1 if d is None else d) for d in dims[:start]] + [size] + \
               [(-1 if d is None else d) for d in dims[end + 1:]]
    if all(d is not None for d in outside):
        return dims[:start] + [-1] + dims[end + 1:]
    dyn = tf.shape(v)
    return tf.concat([dyn[:start], tf.reshape(tf.reduce_prod(dyn[start:end + 1]), [1]), dyn[end + 1:]], 0)


class Dense(Cell):
    """The fully connected layer: ``activation(x @ weight^T + bias)``.

    Args:
        in_channels: the size of the last input dimension.
        out_channels: the size of the last output dimension.
        weight_init: a Tensor of shape ``(out_channels, in_channels)``, an initializer name or
            object, or a number. Default: ``HeUniform(math.sqrt(5))``.
        bias_init: the bias initializer. Default: ``Uniform(1/sqrt(in_channels))``.
        has_bias: whether to add a bias.
        activation: an activation name (``'relu'``), Cell or callable applied to the output.
        dtype: the parameter dtype.

    Inputs:
        x: a Tensor of shape ``(*, in_channels)``.

    Outputs:
        A Tensor of shape ``(*, out_channels)``.

    Raises:
        TypeError: when ``in_channels``/``out_channels`` is not an int, ``has_bias`` not a bool, or
            ``activation`` not a str, Cell or callable.
        ValueError: when a Tensor initializer has the wrong shape.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> Dense(3, 4)(Tensor(np.ones((2, 3), np.float32))).shape
        (2, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = None, bias_init: Any = None,
                 has_bias: bool = True, activation: Any = None, dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.in_channels = validator.check_positive_int(in_channels, "in_channels", self.cls_name)
        self.out_channels = validator.check_positive_int(out_channels, "out_channels", self.cls_name)
        self.has_bias = validator.check_bool(has_bias, "has_bias", self.cls_name)
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 2 or weight_init.shape[0] != out_channels or weight_init.shape[1] != in_channels:
                raise ValueError(f"For '{self.cls_name}', weight init shape error. The ndim of 'weight_init' must be "
                                 f"equal to 2, and the first dim must be equal to 'out_channels', and the second dim "
                                 f"must be equal to 'in_channels'. But got 'weight_init' shape: "
                                 f"{tuple(weight_init.shape)}, 'out_channels': {out_channels}, 'in_channels': "
                                 f"{in_channels}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor):
                if bias_init.ndim != 1 or bias_init.shape[0] != out_channels:
                    raise ValueError(f"For '{self.cls_name}', bias init shape error. The ndim of 'bias_init' must be "
                                     f"equal to 1, and the first dim must be equal to 'out_channels'. But got "
                                     f"'bias_init' shape: {tuple(bias_init.shape)}, 'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")
        self.activation = get_activation(activation, self.cls_name) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(self.activation, Cell) and not callable(self.activation):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell or Primitive, but got "
                            f"{type(activation).__name__}.")
        self.activation_flag = self.activation is not None

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        dt = compute_dtype(self, v, self.weight._var.dtype)
        v = cast_to(v, dt)
        rank = v.shape.rank
        lead = None
        if rank != 2:
            dims = v.shape.as_list()
            lead = dims[:-1] if all(d is not None for d in dims[:-1]) else tf.shape(v)[:-1]
            v = tf.reshape(v, [-1, dims[-1] if dims[-1] is not None else tf.shape(v)[-1]])
        y = tf.matmul(v, read_param(self.weight, dt), transpose_b=True)
        if self.has_bias:
            y = tf.nn.bias_add(y, read_param(self.bias, dt))
        if self.activation_flag:
            y = to_tf(self.activation(_wrap(y)))
        if lead is not None:
            if isinstance(lead, list):
                y = tf.reshape(y, lead + [self.out_channels])
            else:
                y = tf.reshape(y, tf.concat([lead, [self.out_channels]], 0))
        return _wrap(y)

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Flatten the dimensions ``start_dim`` to ``end_dim`` into one.

    Args:
        start_dim: the first dimension to flatten.
        end_dim: the last dimension to flatten.

    Raises:
        TypeError: when ``start_dim`` or ``end_dim`` is not an int.
        ValueError: at call time, when a dimension is out of range or ``start_dim > end_dim``.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> Flatten()(Tensor(np.ones((2, 3, 4), np.float32))).shape
        (2, 12)
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = validator.check_int(start_dim, "start_dim", self.cls_name)
        self.end_dim = validator.check_int(end_dim, "end_dim", self.cls_name)

    @staticmethod
    def check_axis_valid(axis: int, ndim: int) -> None:
        """Raise ValueError when ``axis`` is outside ``[-ndim, ndim)``."""
        if axis < -ndim or axis >= ndim:
            raise ValueError(f"For 'Flatten', 'start_dim' or 'end_dim' out of range: got {axis} for an input with "
                             f"{ndim} dims.")

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        rank = v.shape.rank
        ndim = rank if rank else 1
        self.check_axis_valid(self.start_dim, ndim)
        self.check_axis_valid(self.end_dim, ndim)
        start, end = self.start_dim % ndim, self.end_dim % ndim
        if start > end:
            raise ValueError(f"For 'flatten', 'start_dim' cannot come after 'end_dim', but got start_dim="
                             f"{self.start_dim} and end_dim={self.end_dim}.")
        if rank == 0:
            return _wrap(tf.reshape(v, [1]))
        if start == end:
            return x if isinstance(x, Tensor) else _wrap(v)
        return _wrap(tf.reshape(v, _flatten_shape(v, start, end)))


class Dropout(Cell):
    """Randomly zero elements with probability ``p`` during training, scaling the rest by ``1/(1-p)``.

    Args:
        keep_prob: deprecated: the probability of keeping an element, in (0, 1].
        p: the probability of zeroing an element, in [0, 1). Takes precedence over ``keep_prob``.
        dtype: deprecated, accepted for compatibility.

    Raises:
        TypeError: when ``keep_prob`` is not a float or ``p`` not a number.
        ValueError: when ``keep_prob`` is outside (0, 1] or ``p`` outside [0, 1).

    Example:
        >>> Dropout(p=0.5)
        Dropout(p=0.5)
    """

    def __init__(self, keep_prob: float = 0.5, p: float | None = None, dtype: Any = mstype.float32) -> None:
        super().__init__()
        if dtype != mstype.float32:
            _warn_once("Dropout.dtype", "This parameter `dtype` will be deleted or invisible in the future. Please "
                       "don't use it.")
        if p is None:
            _warn_once("Dropout.keep_prob", "For Dropout, this parameter `keep_prob` will be deprecated, please use "
                       "`p` instead.")
            validator.check_value_type(keep_prob, [float], "keep_prob", self.cls_name)
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For '{self.cls_name}', the 'keep_prob' must be a number in range (0, 1], but got "
                                 f"{keep_prob}.")
            self._rate = 1.0 - keep_prob
        else:
            validator.check_value_type(p, [float, int], "p", self.cls_name)
            if p < 0 or p >= 1:
                raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range [0, 1), but got {p}.")
            self._rate = float(p)
        self.p = p
        self.keep_prob = keep_prob
        self._seed = _seed._get_op_seed()[0]

    def construct(self, x: Any) -> Any:
        if not self.training or self.keep_prob == 1 or self.p == 0:
            return x
        v = to_tf(x)
        return _wrap(tf.nn.dropout(v, rate=self._rate, seed=self._seed))

    def extend_repr(self) -> str:
        if self.p is None:
            return f"keep_prob={self.keep_prob}"
        return f"p={self.p}"


class Identity(Cell):
    """Return the input unchanged (a placeholder layer).

    Args:
        *args: ignored.
        **kwargs: ignored.

    Example:
        >>> Identity()
        Identity()
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def construct(self, input: Any) -> Any:  # noqa: A002 (MindSpore's argument name)
        return input


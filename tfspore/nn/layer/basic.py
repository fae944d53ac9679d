"""Basic layers: ``Dense``, ``Flatten``, ``Unflatten``, ``Dropout`` (and its 1-D/2-D/3-D channel forms),
``Identity``, ``Pad``, ``Upsample``.

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

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common import seed as _seed
from tfspore.common.initializer import HeUniform, Uniform, initializer
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, check_same_float, compute_dtype, read_param, to_tf
from tfspore.nn.layer.activation import get_activation
from tfspore.ops.function.nn_func import interpolate
from tfspore.ops.function.kernel_dtype import fast_matmul

__all__ = ["Dense", "Flatten", "Unflatten", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "Identity", "Pad",
           "Upsample"]
__all__ += ["Linear"]

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
        if not v.dtype.is_floating:
            # MindSpore's MatMul refuses mixed types (a layer's to_float casts only float inputs)
            w_dtype = self.weight._var.dtype
            raise TypeError(f"For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                            f"Tensor[{mstype.from_tf_dtype(v.dtype)}] and 'x2' with type "
                            f"Tensor[{mstype.from_tf_dtype(w_dtype)}]. ('{self.cls_name}' got an input of dtype "
                            f"{mstype.from_tf_dtype(v.dtype)}; cast it to {mstype.from_tf_dtype(w_dtype)}.)")
        check_same_float(self, v, self.weight._var.dtype, "MatMul")
        dt = compute_dtype(self, v, self.weight._var.dtype)
        v = cast_to(v, dt)
        rank = v.shape.rank
        cols = v.shape[-1] if rank else None
        if cols is not None and cols != self.in_channels:
            raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': {cols} and "
                             f"'x2_row': {self.in_channels}. ('{self.cls_name}' got input shape "
                             f"{tuple(v.shape.as_list())} for in_channels={self.in_channels}.)")
        lead = None
        if rank != 2:
            dims = v.shape.as_list()
            lead = dims[:-1] if all(d is not None for d in dims[:-1]) else tf.shape(v)[:-1]
            v = tf.reshape(v, [-1, dims[-1] if dims[-1] is not None else tf.shape(v)[-1]])
        y = fast_matmul(v, read_param(self.weight, dt), transpose_b=True)
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
            validator.check_type(keep_prob, [float], "keep_prob", self.cls_name)
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For '{self.cls_name}', the 'keep_prob' must be a number in range (0, 1], but got "
                                 f"{keep_prob}.")
            self._rate = 1.0 - keep_prob
        else:
            validator.check_type(p, [float, int], "p", self.cls_name)
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



class Unflatten(Cell):
    """Unflatten dimension ``axis`` into ``unflattened_size``.

    Args:
        axis: the dimension to unflatten.
        unflattened_size: the new shape of that dimension (a tuple or list of ints).

    Raises:
        TypeError: when ``axis`` is not an int or ``unflattened_size`` not a tuple or list.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> Unflatten(1, (2, 3))(Tensor(np.ones((4, 6), np.float32))).shape
        (4, 2, 3)
    """

    def __init__(self, axis: int, unflattened_size: tuple | list) -> None:
        super().__init__()
        validator.check_int(axis, "axis", "Unflatten")
        validator.check_type(unflattened_size, [list, tuple], "unflattened_size", "Unflatten")
        self.axis = axis
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, input_x: Any) -> Tensor:
        v = to_tf(input_x)
        dims = [d if d is not None else -1 for d in v.shape.as_list()]
        axis = self.axis % len(dims)
        new_shape = dims[:axis] + list(self.unflattened_size) + dims[axis + 1:]
        if sum(d == -1 for d in new_shape) > 1:
            dyn = tf.unstack(tf.shape(v))
            new_shape = dyn[:axis] + list(self.unflattened_size) + dyn[axis + 1:]
        return _wrap(tf.reshape(v, new_shape))


class _ChannelDropout(Cell):
    """Zero whole channels (dimension 1, or 0 of an unbatched input) with probability ``p``."""

    _ranks: tuple = ()

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        validator.check_type(p, [float], "p", self.cls_name)
        if p < 0 or p > 1:
            raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range [0, 1], but got {p}.")
        self.p = p
        self.keep_prob = 1.0 - p
        self._seed = _seed._get_op_seed()[0]

    def construct(self, x: Any) -> Any:
        if not self.training or self.p == 0:
            return x
        v = to_tf(x)
        rank = v.shape.rank
        if rank not in self._ranks:
            dims = " or ".join(str(r) for r in self._ranks)
            raise ValueError(f"For '{self.cls_name}', the input must be {dims}-D, but got rank {rank}.")
        if self.p == 1:
            return _wrap(tf.zeros_like(v))
        lead = 2 if rank == self._ranks[-1] else 1
        noise = tf.concat([tf.shape(v)[:lead], tf.ones([rank - lead], tf.int32)], 0)
        keep = tf.cast(tf.random.uniform(noise, seed=self._seed) < self.keep_prob, v.dtype)
        return _wrap(v * keep / tf.cast(self.keep_prob, v.dtype))

    def extend_repr(self) -> str:
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """During training, zero whole channels of a ``(N, C, L)`` or ``(C, L)`` input with probability ``p``,
    scaling the rest by ``1 / (1 - p)``.

    Args:
        p: the probability of zeroing a channel, a float in [0, 1].

    Raises:
        TypeError: when ``p`` is not a float.
        ValueError: when ``p`` is outside [0, 1].

    Example:
        >>> Dropout1d(0.3)
        Dropout1d()
    """

    _ranks = (2, 3)

    def extend_repr(self) -> str:
        return ""


class Dropout2d(_ChannelDropout):
    """During training, zero whole channels of a ``(N, C, H, W)`` input with probability ``p``,
    scaling the rest by ``1 / (1 - p)``.

    Args:
        p: the probability of zeroing a channel, a float in [0, 1].

    Raises:
        TypeError: when ``p`` is not a float.
        ValueError: when ``p`` is outside [0, 1].

    Example:
        >>> Dropout2d(0.3)
        Dropout2d(p=0.3)
    """

    _ranks = (4,)


class Dropout3d(_ChannelDropout):
    """During training, zero whole channels of a ``(N, C, D, H, W)`` input with probability ``p``,
    scaling the rest by ``1 / (1 - p)``.

    Args:
        p: the probability of zeroing a channel, a float in [0, 1].

    Raises:
        TypeError: when ``p`` is not a float.
        ValueError: when ``p`` is outside [0, 1].

    Example:
        >>> Dropout3d(0.3)
        Dropout3d(p=0.3)
    """

    _ranks = (5,)


_PAD_MODES = {"CONSTANT": "CONSTANT", "REFLECT": "REFLECT", "SYMMETRIC": "SYMMETRIC"}


class Pad(Cell):
    """Pad every dimension of the input by ``paddings[d] = (before, after)``.

    Args:
        paddings: a tuple of ``(before, after)`` pairs, one per input dimension (at most 4).
        mode: ``'CONSTANT'`` (zeros), ``'REFLECT'`` (mirror without the edge) or ``'SYMMETRIC'``
            (mirror with the edge).

    Inputs:
        x: a Tensor whose rank equals ``len(paddings)``.

    Raises:
        TypeError: when ``paddings`` is not a tuple.
        ValueError: for a bad ``mode``, a pair not of length 2 or more than 4 pairs; at call time,
            for an input of another rank.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> Pad(((1, 1), (2, 2)))(Tensor(np.ones((2, 3), np.float32))).shape
        (4, 7)
    """

    def __init__(self, paddings: tuple, mode: str = "CONSTANT") -> None:
        super().__init__()
        self.mode = mode
        self.paddings = paddings
        validator.check_string(mode, list(_PAD_MODES), "mode", self.cls_name)
        if not isinstance(paddings, tuple):
            raise TypeError(f"For '{self.cls_name}', the type of 'paddings' must be tuple, but got "
                            f"{type(paddings).__name__}: {paddings!r}.")
        for item in paddings:
            if len(item) != 2:
                raise ValueError(f"For '{self.cls_name}', the dimension of 'paddings' must be (n, 2), but got "
                                 f"{paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For '{self.cls_name}', only 'paddings' up to 4 dims is supported, but got "
                             f"{len(paddings)}: {paddings!r}.")
        self._pads = [[int(a), int(b)] for a, b in paddings]

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if v.shape.rank != len(self._pads):
            raise ValueError(f"For '{self.cls_name}', the length of 'paddings' must be equal to the rank of the "
                             f"input, but got {len(self._pads)} vs {v.shape.rank}.")
        return _wrap(tf.pad(v, self._pads, mode=self.mode))


class Upsample(Cell):
    """Resize the spatial dimensions of an ``(N, C, *spatial)`` input (MindSpore's ``nn.Upsample``,
    which calls ``ops.interpolate``).

    Args:
        size: the output spatial size (an int or a tuple).
        scale_factor: a float or a tuple of floats (when ``size`` is None).
        mode: ``'nearest'``, ``'nearest-exact'``, ``'linear'``, ``'bilinear'``, ``'bicubic'``,
            ``'trilinear'`` or ``'area'``.
        align_corners: align the corner pixels (linear modes).
        recompute_scale_factor: compute the scale from the output size instead of ``scale_factor``.

    Inputs:
        x: a 3-D, 4-D or 5-D Tensor.

    Raises:
        ValueError: at call time, for inconsistent arguments.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> Upsample(size=(4, 6), mode='bilinear')(Tensor(np.ones((1, 1, 2, 3), np.float32))).shape
        (1, 1, 4, 6)
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if self._mixed_precision_type is not None or v.dtype.is_floating:
            v = cast_to(v, compute_dtype(self, v))
        return interpolate(v, self.size, self.scale_factor, self.mode, self.align_corners,
                                 self.recompute_scale_factor)


class Linear(Dense):
    """The affine layer ``x @ weight^T + bias`` with PyTorch-style arguments (MindSpore 2.x's ``nn.Linear``).

    The Parameters are ``weight`` ``(out_features, in_features)`` and ``bias`` ``(out_features,)``, as
    for ``Dense``.

    Args:
        in_features: the size of the last input dimension.
        out_features: the size of the last output dimension.
        bias: whether to add a bias.
        weight_init: the weight initializer. Default: ``HeUniform(math.sqrt(5))``.
        bias_init: the bias initializer. Default: ``Uniform(1/sqrt(in_features))``.
        dtype: the parameter dtype (float32 when None).

    Inputs:
        x: a Tensor of shape ``(*, in_features)``.

    Outputs:
        A Tensor of shape ``(*, out_features)``.

    Raises:
        TypeError: when a size is not an int or ``bias`` not a bool.
        ValueError: when a Tensor initializer has the wrong shape.

    Example:
        >>> Linear(3, 4).weight.shape
        (4, 3)
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, weight_init: Any = None,
                 bias_init: Any = None, dtype: Any = None) -> None:
        super().__init__(in_features, out_features, weight_init, bias_init, bias,
                         dtype=mstype.float32 if dtype is None else dtype)
        self.in_features, self.out_features = self.in_channels, self.out_channels

    def extend_repr(self) -> str:
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s

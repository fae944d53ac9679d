"""Normalization layers: ``BatchNorm1d/2d/3d``, ``LayerNorm``, ``GroupNorm``, ``InstanceNorm1d/2d/3d``.

Batch normalization follows MindSpore: ``moving = momentum * moving + (1 - momentum) * batch``
(momentum 0.9 here is PyTorch's 0.1), the moving variance takes the unbiased batch variance and
the normalisation the biased one. Standalone, the moving statistics are named ``mean`` and
``variance``; nested, ``bn.moving_mean`` and ``bn.moving_variance``. ``BatchNorm3d`` holds a
``BatchNorm2d`` child ``bn2d``, so its Parameters are ``bn2d.gamma``, ... as in MindSpore.

Example:
    >>> from tfspore import nn
    >>> [p.name for p in nn.BatchNorm2d(4).get_parameters()]
    ['mean', 'variance', 'gamma', 'beta']
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.initializer import Initializer, initializer
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, read_param, to_tf
from tfspore.nn.layer._batch_norm import (_in_stat_dtype, _stat_dtype, _count, _split_long_axes,  # noqa: F401
                                          _staged_sum, _affine, _batch_norm_train, _precise_batchnorm, _is_zero,
                                          _update_moving, _BatchNorm, BatchNorm1d, BatchNorm2d, BatchNorm3d)

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d"]


class LayerNorm(Cell):
    """Layer normalization over the dimensions from ``begin_norm_axis`` on.

    ``gamma`` and ``beta`` have shape ``normalized_shape`` and apply to the dimensions from
    ``begin_params_axis`` on. Note MindSpore's default ``epsilon`` of 1e-7.

    Args:
        normalized_shape: a tuple or list of ints: the shape of gamma and beta.
        begin_norm_axis: the first normalised dimension.
        begin_params_axis: the first dimension gamma and beta apply to.
        gamma_init: gamma's initializer.
        beta_init: beta's initializer.
        epsilon: added to the variance.
        dtype: the parameter dtype.

    Raises:
        TypeError: when ``normalized_shape`` is not a tuple or list.
        ValueError: when it is empty; at call time, when the input's trailing shape differs.

    Example:
        >>> LayerNorm((4,)).gamma.shape
        (4,)
    """

    def __init__(self, normalized_shape: tuple | list, begin_norm_axis: int = -1, begin_params_axis: int = -1,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", epsilon: float = 1e-7,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of 'normalized_shape' must be tuple[int] or list[int], "
                            f"but got {normalized_shape!r} and the type is {type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"For '{self.cls_name}', expected normalized_shape to be at least 1-dimensional, i.e., "
                             f"containing at least one element, but got normalized_shape = {normalized_shape!r}.")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = validator.check_int(begin_norm_axis, "begin_norm_axis", self.cls_name)
        self.begin_params_axis = validator.check_int(begin_params_axis, "begin_params_axis", self.cls_name)
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype=dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype=dtype), name="beta")

    def construct(self, input_x: Any) -> Tensor:
        v = to_tf(input_x)
        v, st, out_dtype = _in_stat_dtype(self, v)
        rank = v.shape.rank
        norm_axis = self.begin_norm_axis % rank
        params_axis = self.begin_params_axis % rank
        pshape = tuple(self.gamma.shape)
        got = tuple(v.shape.as_list()[params_axis:])
        if len(got) != len(pshape) or any(g is not None and g != p for g, p in zip(got, pshape)):
            raise ValueError(f"For '{self.cls_name}', the input shape from 'begin_params_axis' "
                             f"{self.begin_params_axis} must equal 'normalized_shape' {tuple(self.normalized_shape)}, "
                             f"but got input shape {tuple(v.shape.as_list())}.")
        mean, var = tf.nn.moments(v, list(range(norm_axis, rank)), keepdims=True)
        y = (v - mean) * tf.math.rsqrt(var + tf.cast(self.epsilon, st))
        y = y * read_param(self.gamma, st) + read_param(self.beta, st)
        return _wrap(cast_to(y, out_dtype))

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    """Group normalization: the channels of an ``(N, C, *)`` input split into ``num_groups`` groups,
    each normalised over its channels and all spatial positions, then scaled per channel.

    Args:
        num_groups: the number of groups.
        num_channels: the number of channels C (divisible by ``num_groups``).
        eps: added to the variance (a float).
        affine: whether gamma and beta are trained.
        gamma_init: gamma's initializer.
        beta_init: beta's initializer.
        dtype: the parameter dtype.

    Raises:
        TypeError: when ``eps`` is not a float or ``affine`` not a bool.
        ValueError: for non-positive sizes or channels not divisible by ``num_groups``.

    Example:
        >>> GroupNorm(2, 4)
        GroupNorm(num_groups=2, num_channels=4)
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.num_groups = validator.check_positive_int(num_groups, "num_groups", self.cls_name)
        self.num_channels = validator.check_positive_int(num_channels, "num_channels", self.cls_name)
        if num_channels % num_groups != 0:
            raise ValueError(f"For '{self.cls_name}', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        self.eps = validator.check_type(eps, [float], "eps", self.cls_name)
        self.affine = validator.check_bool(affine, "affine", self.cls_name)
        self.gamma = Parameter(initializer(gamma_init, self.num_channels, dtype=dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, self.num_channels, dtype=dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        v, st, out_dtype = _in_stat_dtype(self, v)
        rank = v.shape.rank
        if rank is None or rank < 2:
            raise ValueError(f"For '{self.cls_name}', the input must have at least 2 dims, but got {rank}.")
        if v.shape[1] is not None and v.shape[1] != self.num_channels:
            raise ValueError(f"For '{self.cls_name}', the channel (the second dim of the input 'x') must be equal to "
                             f"num_channels, but got channel: {v.shape[1]}, num_channels: {self.num_channels}.")
        shape = tf.shape(v)
        grouped = tf.reshape(v, tf.stack([shape[0], self.num_groups, -1]))
        mean, var = tf.nn.moments(grouped, [2], keepdims=True)
        y = tf.reshape((grouped - mean) * tf.math.rsqrt(var + tf.cast(self.eps, st)), shape)
        cshape = [1, self.num_channels] + [1] * (rank - 2)
        y = y * tf.reshape(read_param(self.gamma, st), cshape) + tf.reshape(read_param(self.beta, st), cshape)
        return _wrap(cast_to(y, out_dtype))

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class _InstanceNorm(Cell):
    """Instance normalization: each sample's channel normalised over its spatial positions."""

    _rank = 4

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", dtype: Any = mstype.float32) -> None:
        super().__init__()
        name = self.cls_name
        validator.check_type(num_features, [int], "num_features", name)
        validator.check_type(eps, [float], "eps", name)
        validator.check_type(momentum, [float], "momentum", name)
        validator.check_type(affine, [bool], "affine", name)
        for key, val in (("gamma_init", gamma_init), ("beta_init", beta_init)):
            if not isinstance(val, (Tensor, numbers.Number, str, Initializer)):
                raise TypeError(f"For '{name}', the type of '{key}' must be in [Tensor, numbers.Number, str, "
                                f"Initializer], but got type {type(val).__name__}: {val!r}.")
            if isinstance(val, Tensor) and val.dtype != mstype.float32:
                raise TypeError(f"For '{name}', the type of '{key}' must be float32, but got {val.dtype}.")
        if num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be at least 1, but got {num_features}.")
        validator.check_float_range(momentum, "momentum", name, 0.0, 1.0)
        self.num_features = num_features
        self.eps = eps
        self.moving_mean = Parameter(initializer("zeros", num_features, dtype=dtype), name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)
        self.momentum = momentum

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if v.shape.rank != self._rank:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have {self._rank} dims, but got "
                             f"{v.shape.rank}.")
        if v.shape[1] is not None and v.shape[1] != self.num_features:
            raise ValueError(f"For '{self.cls_name}', the channel (the second dim of the input) must be equal to "
                             f"num_features, but got channel: {v.shape[1]}, num_features: {self.num_features}.")
        v, st, out_dtype = _in_stat_dtype(self, v)
        axes = list(range(2, self._rank))
        mean, var = tf.nn.moments(v, axes, keepdims=True)
        if self.training:
            n = _count(v, axes, st)
            keep = self.momentum
            _update_moving(self.moving_mean, tf.reduce_mean(mean, axis=[0] + axes), keep)
            _update_moving(self.moving_variance, tf.reduce_mean(var, axis=[0] + axes) * n / tf.maximum(n - 1, 1),
                           keep)
        cshape = [1, self.num_features] + [1] * (self._rank - 2)
        y = (v - mean) * tf.math.rsqrt(var + tf.cast(self.eps, st))
        y = y * tf.reshape(read_param(self.gamma, st), cshape) + tf.reshape(read_param(self.beta, st), cshape)
        return _wrap(cast_to(y, out_dtype))

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


_INSTANCE_DOC = """Instance normalization over a {rank}-D input ``{shape}``.

    Each sample's channel is normalised over its spatial positions (biased variance), then scaled
    by ``gamma`` and shifted by ``beta`` per channel. Instance statistics are used in training and
    evaluation alike. In training the moving statistics are updated as
    ``moving = momentum * moving + (1 - momentum) * batch`` with the batch mean of the instance
    means and of the unbiased instance variances; they do not enter the output.

    Args:
        num_features: the number of channels C.
        eps: added to the variance (a float).
        momentum: the weight of the old moving statistics, a float in [0, 1].
        affine: whether gamma and beta are trained.
        gamma_init: gamma's initializer.
        beta_init: beta's initializer.
        dtype: the parameter dtype.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for a bad ``num_features`` or ``momentum``; at call time, for an input of
            another rank.

    Example:
        >>> {name}(3).gamma.shape
        (3,)
    """


class InstanceNorm1d(_InstanceNorm):
    __doc__ = _INSTANCE_DOC.format(rank=3, shape="(N, C, L)", name="InstanceNorm1d")
    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    __doc__ = _INSTANCE_DOC.format(rank=4, shape="(N, C, H, W)", name="InstanceNorm2d")
    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    __doc__ = _INSTANCE_DOC.format(rank=5, shape="(N, C, D, H, W)", name="InstanceNorm3d")
    _rank = 5

"""Batch normalization: ``BatchNorm1d`` and ``BatchNorm2d``.

The moving statistics follow MindSpore: ``moving = momentum * moving + (1 - momentum) * batch``
(momentum 0.9 here is PyTorch's 0.1), the moving variance takes the unbiased batch variance and
the normalisation the biased one. Standalone, the moving statistics are named ``mean`` and
``variance``; nested, ``bn.moving_mean`` and ``bn.moving_variance``.

Example:
    >>> from tfspore import nn
    >>> [p.name for p in nn.BatchNorm2d(4).get_parameters()]
    ['mean', 'variance', 'gamma', 'beta']
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore import context as _context
from tfspore.common import dtype as mstype
from tfspore.common.initializer import initializer
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer import _checkparam as validator
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf

__all__ = ["BatchNorm1d", "BatchNorm2d"]


class _BatchNorm(Cell):
    """Batch normalization over the channel dimension (dimension 1, or the last one for NHWC)."""

    _valid_ranks: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None, data_format: str = "NCHW",
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        validator.check_value_type(num_features, [int], "num_features", self.cls_name)
        if num_features < 1:
            raise ValueError(f"For '{self.cls_name}', the 'num_features' must be at least 1, but got {num_features}.")
        if isinstance(momentum, bool) or not isinstance(momentum, numbers.Real) or momentum < 0 or momentum > 1:
            raise ValueError(f"For '{self.cls_name}', the 'momentum' must be a number in range [0, 1], but got "
                             f"{momentum}.")
        self.format = validator.check_string(data_format, ["NCHW", "NHWC"], "format", self.cls_name)
        target = _context.get_context("device_target")
        if target != "GPU" and self.format == "NHWC":
            raise ValueError(f"For '{self.cls_name}', the 'NHWC' format only support in GPU target, but got device "
                             f"target {target}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{self.cls_name}', the 'use_batch_statistics' must be a boolean value or None, but "
                             f"got {use_batch_statistics}.")
        self.use_batch_statistics = use_batch_statistics
        self.num_features = num_features
        self.eps = eps
        self.beta_init = beta_init
        self.gamma_init = gamma_init
        self.moving_mean_init = moving_mean_init
        self.moving_var_init = moving_var_init
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)
        self.momentum = 1.0 - momentum

    def _check_input_dim(self, rank: int | None) -> None:
        if rank not in self._valid_ranks:
            dims = " or ".join(str(r) for r in self._valid_ranks)
            raise ValueError(f"For '{self.cls_name}', the input must have {dims} dims, but got {rank}.")

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        rank = v.shape.rank
        self._check_input_dim(rank)
        out_dtype = compute_dtype(self, v, self.gamma._var.dtype)
        stat_dtype = tf.float32 if out_dtype in (tf.float16, tf.bfloat16) else out_dtype
        v = cast_to(v, stat_dtype)
        channel = rank - 1 if self.format == "NHWC" else 1
        axes = [i for i in range(rank) if i != channel]
        bshape = [1] * rank
        bshape[channel] = self.num_features
        gamma = tf.reshape(read_param(self.gamma, stat_dtype), bshape)
        beta = tf.reshape(read_param(self.beta, stat_dtype), bshape)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if use_batch:
            mean, var = tf.nn.moments(v, axes, keepdims=False)
            dims = v.shape.as_list()
            count = 1
            if all(dims[i] is not None for i in axes):
                for i in axes:
                    count *= dims[i]
                n = tf.constant(float(count), stat_dtype)
            else:
                n = tf.cast(tf.reduce_prod(tf.gather(tf.shape(v), axes)), stat_dtype)
            unbiased = var * n / tf.maximum(n - 1, 1)
            m = self.momentum
            mm, mv = self.moving_mean._var, self.moving_variance._var
            keep, take = tf.cast(1.0 - m, mm.dtype), tf.cast(m, mm.dtype)
            mm.assign(mm * keep + tf.cast(tf.stop_gradient(mean), mm.dtype) * take)
            mv.assign(mv * keep + tf.cast(tf.stop_gradient(unbiased), mv.dtype) * take)
        else:
            mean = tf.stop_gradient(read_param(self.moving_mean, stat_dtype))
            var = tf.stop_gradient(read_param(self.moving_variance, stat_dtype))
        inv = tf.math.rsqrt(tf.reshape(var, bshape) + tf.cast(self.eps, stat_dtype))
        y = (v - tf.reshape(mean, bshape)) * inv * gamma + beta
        return _wrap(cast_to(y, out_dtype))

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={1.0 - self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization over a 2-D ``(N, C)`` or 3-D ``(N, C, L)`` input.

    Args:
        num_features: the number of channels C.
        eps: added to the variance.
        momentum: the weight of the old moving statistics, in [0, 1].
        affine: whether gamma and beta are trained.
        gamma_init: gamma's initializer.
        beta_init: beta's initializer.
        moving_mean_init: the moving mean's initializer.
        moving_var_init: the moving variance's initializer.
        use_batch_statistics: None follows ``training``; True/False forces batch/moving statistics.
        data_format: 'NCHW' (or 'NHWC' on GPU).
        dtype: the parameter dtype.

    Raises:
        ValueError: for a bad ``num_features``, ``momentum`` or ``use_batch_statistics``.

    Example:
        >>> BatchNorm1d(3).gamma.shape
        (3,)
    """

    _valid_ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization over a 4-D ``(N, C, H, W)`` input.

    Args:
        num_features: the number of channels C.
        eps: added to the variance.
        momentum: the weight of the old moving statistics, in [0, 1].
        affine: whether gamma and beta are trained.
        gamma_init: gamma's initializer.
        beta_init: beta's initializer.
        moving_mean_init: the moving mean's initializer.
        moving_var_init: the moving variance's initializer.
        use_batch_statistics: None follows ``training``; True/False forces batch/moving statistics.
        data_format: 'NCHW' (or 'NHWC' on GPU).
        dtype: the parameter dtype.

    Raises:
        ValueError: for a bad ``num_features``, ``momentum`` or ``use_batch_statistics``.

    Example:
        >>> BatchNorm2d(4).moving_mean.name
        'mean'
    """

    _valid_ranks = (4,)

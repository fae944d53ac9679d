"""Batch normalization (``BatchNorm1d/2d/3d`` and their base ``_BatchNorm``): statistics, moving averages, affine.

MindSpore's import path for them is ``tfspore.nn.layer.normalization`` (and ``tfspore.nn``).
"""
from __future__ import annotations

import os
from typing import Any

import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import validator
from tfspore._internal.layout import TO_NCHW, transposed_from
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common import dtype as mstype
from tfspore.common.initializer import initializer
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf


def _stat_dtype(dt: tf.DType) -> tf.DType:
    """Statistics of half-precision inputs are computed in float32."""
    return tf.float32 if dt in (tf.float16, tf.bfloat16) else dt


def _in_stat_dtype(cell: Cell, v: tf.Tensor) -> tuple[tf.Tensor, tf.DType, tf.DType]:
    """``(v in the statistics dtype, that dtype, the output dtype)`` for a normalization cell with ``gamma``."""
    out_dtype = compute_dtype(cell, v, cell.gamma._var.dtype)
    stat_dtype = _stat_dtype(out_dtype)
    return cast_to(v, stat_dtype), stat_dtype, out_dtype


def _count(v: tf.Tensor, axes: list, dtype: tf.DType) -> tf.Tensor:
    dims = v.shape.as_list()
    if all(dims[i] is not None for i in axes):
        n = 1
        for i in axes:
            n *= dims[i]
        return tf.constant(float(n), dtype)
    return tf.cast(tf.reduce_prod(tf.gather(tf.shape(v), axes)), dtype)


def _split_long_axes(shape: list, channel: int) -> tuple | None:
    """A reshape of a fully static ``shape`` that splits each long reduced axis in two, or None.

    A reduced (non-``channel``) axis longer than 1024 whose length has a divisor in
    ``[8, sqrt(length)]`` becomes two axes (the divisor nearest ``sqrt(length)`` outer), so that
    each staged sum stays short. Returns the new shape and the channel's index in it.
    """
    if any(d is None for d in shape):
        return None
    out: list = []
    new_channel = channel
    for i, d in enumerate(shape):
        if i == channel:
            new_channel = len(out)
        f = 0
        if i != channel and d > 1024:
            f = next((k for k in range(int(d ** 0.5), 7, -1) if d % k == 0), 0)
        out += [f, d // f] if f else [d]
    return (out, new_channel) if len(out) > len(shape) else None


def _staged_sum(v: tf.Tensor, axes: list) -> tf.Tensor:
    """The sum of ``v`` over ``axes`` (kept as size-1 axes), one axis at a time, the innermost first.

    A float32 reduction over several axes at once accumulates sequentially along the outer ones, so
    its rounding error grows with the number of values per channel (about 1e-5 relative for
    2 x 149 x 149 values); summing one axis at a time keeps every sum short and the result within a
    few ulps, as precise as MindSpore's CPU kernel, for the cost of small intermediate tensors.
    """
    for a in sorted(axes, reverse=True):
        if v.shape[a] != 1:
            v = tf.reduce_sum(v, a, keepdims=True)
    return v


def _affine(t: tf.Tensor, channel: int, mean: tf.Tensor, var: tf.Tensor, scale: tf.Tensor, offset: tf.Tensor,
            eps: float) -> tf.Tensor:
    """``(t - mean) * rsqrt(var + eps) * scale + offset`` per channel (the other arguments have ``t``'s rank,
    size 1 but on ``channel``); one ``FusedBatchNormV3`` inference pass for a 4-D float32 ``t``.

    The fused pass's own gradient treats ``mean`` and ``var`` as constants; its gradient here is the
    element-wise formula's (it serves only higher-order gradients of ``_batch_norm_train``).
    """

    def formula(t: tf.Tensor, mean: tf.Tensor, var: tf.Tensor, scale: tf.Tensor, offset: tf.Tensor) -> tf.Tensor:
        return (t - mean) * (tf.math.rsqrt(var + tf.cast(eps, t.dtype)) * scale) + offset

    if not (t.shape.rank == 4 and channel in (1, 3) and t.dtype == tf.float32):
        return formula(t, mean, var, scale, offset)

    @tf.custom_gradient
    def fused(t: tf.Tensor, mean: tf.Tensor, var: tf.Tensor, scale: tf.Tensor, offset: tf.Tensor) -> tuple:
        y = tf.raw_ops.FusedBatchNormV3(
            x=t, scale=tf.reshape(scale, [-1]), offset=tf.reshape(offset, [-1]), mean=tf.reshape(mean, [-1]),
            variance=tf.reshape(var, [-1]), epsilon=float(eps), data_format="NCHW" if channel == 1 else "NHWC",
            is_training=False)[0]

        def grad(dy: tf.Tensor) -> list:
            args = [t, mean, var, scale, offset]
            with tf.GradientTape() as tape:
                tape.watch(args)
                again = formula(*args)
            return tape.gradient(again, args, output_gradients=dy)

        return y, grad

    return fused(t, mean, var, scale, offset)


def _batch_norm_train(v: tf.Tensor, gamma: tf.Tensor, beta: tf.Tensor, channel: int, eps: float) -> tuple:
    """Training batch normalization of ``v`` over every axis but ``channel``, with precise statistics.

    Returns ``(y, mean, biased variance)``, the statistics of shape ``(C,)`` and without gradient
    (they feed the moving statistics). The mean, the centred (two-pass) variance and the gradient's
    sums of ``dy`` and ``dy * x_hat`` are staged sums (``_staged_sum``); the gradient is batch
    normalization's closed form, ``gamma * inv * (dy - (sum(dy) + x_hat * sum(dy * x_hat)) / n)``.
    """
    split = _split_long_axes(v.shape.as_list(), channel)
    x = v
    if split is not None:
        x = tf.reshape(v, split[0])
        channel = split[1]
    rank = len(x.shape)
    axes = [i for i in range(rank) if i != channel]
    bshape = [1] * rank
    bshape[channel] = -1
    n = _count(x, axes, x.dtype)

    @tf.custom_gradient
    def bn(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor) -> tuple:
        mean = _staged_sum(x, axes) / n
        var = _staged_sum(tf.math.squared_difference(x, mean), axes) / n
        y = _affine(x, channel, mean, var, g, b, eps)

        def grad(dy: tf.Tensor, dmean: tf.Tensor | None, dvar: tf.Tensor | None) -> tuple:
            x_hat = _affine(x, channel, mean, var, tf.ones_like(g), tf.zeros_like(b), eps)
            dbeta = _staged_sum(dy, axes)
            dgamma = _staged_sum(dy * x_hat, axes)
            u = _affine(x, channel, mean, var, dgamma / n, dbeta / n, eps)  # (sum(dy) + x_hat * sum(dy x_hat)) / n
            dx = _affine(dy - u, channel, tf.zeros_like(mean), var, g, tf.zeros_like(b), eps)
            if not (_is_zero(dmean) and _is_zero(dvar)):  # the statistics' own gradients (higher orders)
                dmean = tf.zeros_like(mean) if dmean is None else dmean
                dvar = tf.zeros_like(var) if dvar is None else dvar
                dx = dx + ((x - mean) * (2 * dvar / n) + dmean / n)
            return dx, dgamma, dbeta

        return (y, mean, var), grad

    y, mean, var = bn(x, tf.reshape(gamma, bshape), tf.reshape(beta, bshape))
    if split is not None:
        y = tf.reshape(y, tf.shape(v))
    return y, tf.stop_gradient(tf.reshape(mean, [-1])), tf.stop_gradient(tf.reshape(var, [-1]))


def _precise_batchnorm() -> bool:
    """Whether ``TFSPORE_PRECISE_BATCHNORM`` asks for staged statistics on 4-D float32 inputs too."""
    choice = os.environ.get("TFSPORE_PRECISE_BATCHNORM", "0").strip().lower()
    if choice not in ("0", "1", "false", "true"):
        raise ValueError(f"The environment variable 'TFSPORE_PRECISE_BATCHNORM' must be 0 or 1, but got {choice!r}.")
    return choice in ("1", "true")


def _is_zero(t: tf.Tensor | None) -> bool:
    """Whether ``t`` is None or known at trace time to be all zeros."""
    value = None if t is None else tf.get_static_value(t)
    return t is None or (value is not None and not value.any())


def _update_moving(param: Parameter, batch: tf.Tensor, keep: float) -> None:
    """``param = keep * param + (1 - keep) * batch`` (no gradient)."""
    var = param._var
    k = tf.cast(keep, var.dtype)
    var.assign(var * k + tf.cast(tf.stop_gradient(batch), var.dtype) * (1 - k))


class _BatchNorm(Cell):
    """Batch normalization over the channel dimension (dimension 1, or the last one for NHWC)."""

    _valid_ranks: tuple = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None, data_format: str = "NCHW",
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        validator.check_positive_int(num_features, "num_features", self.cls_name)
        validator.check_float_range(momentum, "momentum", self.cls_name, 0.0, 1.0)
        self.format = validator.check_string(data_format, ["NCHW", "NHWC"], "format", self.cls_name)
        target = _context.get_context("device_target")
        if target != "GPU" and self.format == "NHWC":
            raise ValueError(f"For '{self.cls_name}', the 'NHWC' format only support in GPU target, but got device "
                             f"target {target}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{self.cls_name}', the 'use_batch_statistics' must be a boolean value or None, but "
                             f"got {use_batch_statistics!r}.")
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
        v, stat_dtype, out_dtype = _in_stat_dtype(self, v)
        channel = rank - 1 if self.format == "NHWC" else 1
        if v.shape[channel] is not None and v.shape[channel] != self.num_features:
            raise ValueError(f"For BatchNorm, scale.shape[0] should be equal to input_x's channel dimension: "
                             f"{v.shape[channel]}, but got scale.shape[0]: {self.num_features}. ('{self.cls_name}' "
                             f"got input shape {tuple(v.shape.as_list())} for num_features={self.num_features}.)")
        bshape = [1] * rank
        bshape[channel] = self.num_features
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if use_batch:
            return _wrap(cast_to(self._train(v, channel, stat_dtype), out_dtype))
        mean = tf.stop_gradient(read_param(self.moving_mean, stat_dtype))
        var = tf.stop_gradient(read_param(self.moving_variance, stat_dtype))
        return _wrap(cast_to(self._normalize(v, mean, var, bshape, stat_dtype), out_dtype))

    def _normalize(self, v: tf.Tensor, mean: tf.Tensor, var: tf.Tensor, bshape: list,
                   stat_dtype: tf.DType) -> tf.Tensor:
        """``(v - mean) / sqrt(var + eps) * gamma + beta``, the statistics and parameters reshaped to ``bshape``."""
        gamma = tf.reshape(read_param(self.gamma, stat_dtype), bshape)
        beta = tf.reshape(read_param(self.beta, stat_dtype), bshape)
        inv = tf.math.rsqrt(tf.reshape(var, bshape) + tf.cast(self.eps, stat_dtype))
        return (v - tf.reshape(mean, bshape)) * inv * gamma + beta

    def _train(self, v: tf.Tensor, channel: int, stat_dtype: tf.DType) -> tf.Tensor:
        """Normalize ``v`` with its batch statistics and update the moving statistics.

        A 4-D float32 input runs TensorFlow's ``FusedBatchNormV3`` (one kernel forward, one
        backward), whose float32 sums lose about 1e-5 (relative) on large feature maps where
        MindSpore's lose about 1e-6. ``TFSPORE_PRECISE_BATCHNORM=1`` (and every other input) takes
        staged sums instead (see ``_batch_norm_train``): about 1e-7, but 1.1-1.35x the time of a
        convolution + BatchNorm training step on CPU. When the input is the NCHW transpose of an
        NHWC tensor (a convolution's output on CPU), the normalization runs on that tensor and the
        transpose comes after.
        """
        nhwc = transposed_from(v, TO_NCHW) if v.shape.rank == 4 and channel == 1 else None
        if v.shape.rank == 4 and stat_dtype == tf.float32 and not _precise_batchnorm():
            return self._fused_train(v, channel if nhwc is None else 3, nhwc)
        if nhwc is not None:  # the previous layer computed in NHWC: normalize there, transpose after
            v, channel = nhwc, 3
        y, mean, var = _batch_norm_train(v, read_param(self.gamma, stat_dtype), read_param(self.beta, stat_dtype),
                                         channel, self.eps)
        n = _count(v, [i for i in range(v.shape.rank) if i != channel], stat_dtype)
        keep = 1.0 - self.momentum
        _update_moving(self.moving_mean, mean, keep)
        _update_moving(self.moving_variance, var * n / tf.maximum(n - 1, 1), keep)
        return tf.transpose(y, TO_NCHW) if nhwc is not None else y

    def _fused_train(self, v: tf.Tensor, channel: int, nhwc: tf.Tensor | None) -> tf.Tensor:
        """``FusedBatchNormV3`` in training mode on a 4-D float32 input (on ``nhwc`` where given).

        The raw op keeps ``eps`` as given (the ``tf.nn`` wrapper raises it to 1.001e-5); its
        variance output is the unbiased one the moving variance takes.
        """
        if nhwc is not None:
            v = nhwc
        empty = tf.constant([], tf.float32)
        y, mean, var, _, _, _ = tf.raw_ops.FusedBatchNormV3(
            x=v, scale=read_param(self.gamma, tf.float32), offset=read_param(self.beta, tf.float32), mean=empty,
            variance=empty, epsilon=float(self.eps), data_format="NHWC" if channel == 3 else "NCHW",
            is_training=True)
        keep = 1.0 - self.momentum
        _update_moving(self.moving_mean, mean, keep)
        _update_moving(self.moving_variance, var, keep)
        return tf.transpose(y, TO_NCHW) if nhwc is not None else y

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
        TypeError: when ``num_features`` is not an int.
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
        TypeError: when ``num_features`` is not an int.
        ValueError: for a bad ``num_features``, ``momentum`` or ``use_batch_statistics``.

    Example:
        >>> BatchNorm2d(4).moving_mean.name
        'mean'
    """

    _valid_ranks = (4,)


class BatchNorm3d(Cell):
    """Batch normalization over a 5-D ``(N, C, D, H, W)`` input, through a ``BatchNorm2d`` child ``bn2d``.

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
        dtype: the parameter dtype.

    Raises:
        TypeError: when ``num_features`` is not an int.
        ValueError: for a bad ``num_features``, ``momentum`` or ``use_batch_statistics``; at call
            time, for an input that is not 5-D.

    Example:
        >>> [p.name for p in BatchNorm3d(2).get_parameters()]
        ['bn2d.moving_mean', 'bn2d.moving_variance', 'bn2d.gamma', 'bn2d.beta']
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.bn2d = BatchNorm2d(num_features=num_features, eps=eps, momentum=momentum, affine=affine,
                                gamma_init=gamma_init, beta_init=beta_init, moving_mean_init=moving_mean_init,
                                moving_var_init=moving_var_init, use_batch_statistics=use_batch_statistics,
                                data_format="NCHW", dtype=dtype)

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if v.shape.rank != 5:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have 5 dims, but got {v.shape.rank}.")
        shape = tf.shape(v)
        y = to_tf(self.bn2d(_wrap(tf.reshape(v, tf.stack([shape[0], shape[1], shape[2] * shape[3], shape[4]])))))
        return _wrap(tf.reshape(y, shape))

"""Neural-network primitives: activations, convolution, pooling, normalisation, losses, dropout.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> conv = ops.Conv2D(out_channel=4, kernel_size=3, pad_mode="same")
    >>> conv(Tensor(np.ones((1, 2, 5, 5), np.float32)), Tensor(np.ones((4, 2, 3, 3), np.float32))).shape
    (1, 4, 5, 5)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import nn_func as N
from tfspore.ops.function.kernel_dtype import kernel_dtype
from tfspore._internal.layout import nchw_supported
from tfspore.ops.function import _pool as PL
from tfspore.ops.function._utils import pads4, positive_pair, to_float, to_tf
from tfspore.ops.operations._helpers import simple_prim
from tfspore.ops.operations.array_ops import OneHot, TopK  # noqa: F401  (MindSpore lists them in nn_ops too)
from tfspore.ops.primitive import Primitive, prim_attr_register
from tfspore.ops.operations._nn_loss_ops import (SoftmaxCrossEntropyWithLogits,  # noqa: F401
                                                 SparseSoftmaxCrossEntropyWithLogits, _Reduction,
                                                 BCEWithLogitsLoss, BinaryCrossEntropy, KLDivLoss,
                                                 SmoothL1Loss, NLLLoss)

_M = __name__

__all__ = [
    "ReLU", "ReLU6", "Sigmoid", "Tanh", "GeLU", "FastGeLU", "SiLU", "Softmax", "LogSoftmax", "HSwish", "HSigmoid",
    "Elu", "SeLU", "Softplus", "Softsign", "Mish", "PReLU", "Conv2D", "Conv2DBackpropInput", "Conv2DTranspose",
    "MaxPool", "AvgPool", "AdaptiveAvgPool2D", "BiasAdd", "BatchNorm", "LayerNorm", "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogits", "SigmoidCrossEntropyWithLogits", "BCEWithLogitsLoss",
    "BinaryCrossEntropy", "SmoothL1Loss", "KLDivLoss", "NLLLoss", "L2Loss", "L2Normalize", "Dropout", "Dropout2D",
    "Pad", "MirrorPad", "ResizeBilinearV2", "LRN", "OneHot", "TopK",
]

ReLU = simple_prim("ReLU", N.relu, "Element-wise ``max(x, 0)``.", _M)
ReLU6 = simple_prim("ReLU6", N.relu6, "Element-wise ``min(max(x, 0), 6)``.", _M)
Sigmoid = simple_prim("Sigmoid", N.sigmoid, "Element-wise logistic sigmoid.", _M)
Tanh = simple_prim("Tanh", N.tanh, "Element-wise hyperbolic tangent.", _M)
GeLU = simple_prim("GeLU", lambda x: N.gelu(x, "tanh"), "GELU, tanh approximation (MindSpore's GeLU kernel).", _M)
FastGeLU = simple_prim("FastGeLU", N.fast_gelu, "``x / (1 + exp(-1.702|x|)) * exp(0.851(x - |x|))``.", _M)
SiLU = simple_prim("SiLU", N.silu, "Element-wise ``x * sigmoid(x)``.", _M)
HSwish = simple_prim("HSwish", N.hardswish, "Hard swish ``x * relu6(x + 3) / 6``.", _M)
HSigmoid = simple_prim("HSigmoid", N.hardsigmoid, "Hard sigmoid ``relu6(x + 3) / 6``.", _M)
SeLU = simple_prim("SeLU", N.selu, "Scaled exponential linear unit.", _M)
Softsign = simple_prim("Softsign", N.softsign, "``x / (1 + |x|)``.", _M)
Mish = simple_prim("Mish", N.mish, "``x * tanh(softplus(x))``.", _M)
Softplus = simple_prim("Softplus", lambda x: N.softplus(x, 1, 1e30), "``log(1 + exp(x))``.", _M)
PReLU = simple_prim("PReLU", N.prelu, "Parametric ReLU: ``PReLU()(x, weight)``.", _M)
L2Loss = simple_prim("L2Loss", N.l2_loss, "``sum(x ** 2) / 2``.", _M)
SigmoidCrossEntropyWithLogits = simple_prim("SigmoidCrossEntropyWithLogits", N.sigmoid_cross_entropy,
                                            "Element-wise sigmoid cross entropy: ``(logits, labels)``.", _M)


class Elu(Primitive):
    """Exponential linear unit.

    Args:
        alpha: the scale of the negative part.
    """

    @prim_attr_register
    def __init__(self, alpha: float = 1.0) -> None:
        V.check_number(alpha, "alpha", "Elu")

    def __call__(self, input_x: Any) -> Tensor:
        return N.elu(input_x, self.alpha)


class Softmax(Primitive):
    """Softmax along ``axis``.

    Args:
        axis: an int or a tuple of ints.
    """

    @prim_attr_register
    def __init__(self, axis: Any = -1) -> None:
        if isinstance(axis, int):
            self.add_prim_attr("axis", (axis,))
        else:
            self.add_prim_attr("axis", V.check_int_tuple(axis, "axis", "Softmax"))

    def __call__(self, x: Any) -> Tensor:
        return N.softmax(x, self.axis)


class LogSoftmax(Primitive):
    """Log-softmax along ``axis``.

    Args:
        axis: the axis.
    """

    @prim_attr_register
    def __init__(self, axis: int = -1) -> None:
        V.check_int(axis, "axis", "LogSoftmax")

    def __call__(self, logits: Any) -> Tensor:
        return N.log_softmax(logits, self.axis)


# ---------------------------------------------------------------------------- convolution
def _stride_pair(op: str, arg: str, v: Any) -> tuple[int, int]:
    return positive_pair(op, arg, v, True)


class Conv2D(Primitive):
    """2-D convolution of NCHW data with weight ``(out_channel, in / group, kh, kw)``: ``Conv2D(...)(x, weight)``.

    Args:
        out_channel: the number of output channels.
        kernel_size: an int or a tuple of 2 ints.
        mode: accepted for compatibility (1: cross-correlation).
        pad_mode: 'valid', 'same' or 'pad'.
        pad: with 'pad', an int or ``(top, bottom, left, right)``.
        stride: an int or a tuple of 2 or 4 ints.
        dilation: an int or a tuple of 2 or 4 ints.
        group: the number of groups.
        data_format: 'NCHW' (or 'NHWC').

    Raises:
        ValueError: for inconsistent arguments or shapes.
    """

    @prim_attr_register
    def __init__(self, out_channel: int, kernel_size: Any, mode: int = 1, pad_mode: str = "valid", pad: Any = 0,
                 stride: Any = 1, dilation: Any = 1, group: int = 1, data_format: str = "NCHW") -> None:
        V.check_positive_int(out_channel, "out_channel", "Conv2D")
        ks = positive_pair("Conv2D", "kernel_size", kernel_size, False)
        pm = V.check_string(pad_mode, ("valid", "same", "pad"), "pad_mode", "Conv2D", lower=True)
        pads = pads4("Conv2D", pad)
        if pm != "pad" and any(pads):
            raise ValueError(f"For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': "
                             f"{pads} and 'pad_mode': {pad_mode}.")
        st = _stride_pair("Conv2D", "stride", stride)
        dl = _stride_pair("Conv2D", "dilation", dilation)
        V.check_positive_int(group, "group", "Conv2D")
        V.check_string(data_format, ("NCHW", "NHWC"), "data_format", "Conv2D")
        self.add_prim_attr("kernel_size", ks)
        self.add_prim_attr("pad_mode", pm)
        self.add_prim_attr("pad", pads)
        self.add_prim_attr("stride", (1, 1) + st)
        self.add_prim_attr("dilation", (1, 1) + dl)
        self.add_prim_attr("groups", group)

    def __call__(self, x: Any, weight: Any) -> Tensor:
        t = to_tf(x, "Conv2D", "x")
        w = to_tf(weight, "Conv2D", "weight")
        if self.data_format == "NHWC":
            t = tf.transpose(t, [0, 3, 1, 2])
        ws = w.shape.as_list() if w.shape.rank == 4 else None
        if ws is not None:
            if ws[0] is not None and ws[0] != self.out_channel:
                raise ValueError(f"For 'Conv2D', the 'weight' shape[0] must equal 'out_channel' {self.out_channel}, "
                                 f"but got weight shape {tuple(ws)}.")
            if ws[2:] != list(self.kernel_size) and None not in ws[2:]:
                raise ValueError(f"For 'Conv2D', the 'weight' spatial shape must equal 'kernel_size' "
                                 f"{self.kernel_size}, but got weight shape {tuple(ws)}.")
        y = N._conv_core("Conv2D", t, w, self.stride[2:], self.dilation[2:], self.pad_mode, self.pad, self.group)
        if self.data_format == "NHWC":
            y = tf.transpose(y, [0, 2, 3, 1])
        return _wrap(y)


class Conv2DBackpropInput(Primitive):
    """Transposed 2-D convolution (the gradient of Conv2D w.r.t. its input): ``(dout, weight, input_size)``.

    Args:
        out_channel: the output channels of the forward Conv2D (the input channels here).
        kernel_size: an int or a tuple of 2 ints.
        pad_mode: 'valid', 'same' or 'pad'.
        pad: with 'pad', an int or ``(top, bottom, left, right)``.
        pad_list: accepted for compatibility.
        mode: accepted for compatibility.
        stride: an int or a tuple of 2 or 4 ints.
        dilation: an int or a tuple of 2 or 4 ints.
        group: the number of groups.
        data_format: 'NCHW'.
    """

    @prim_attr_register
    def __init__(self, out_channel: int, kernel_size: Any, pad_mode: str = "valid", pad: Any = 0,
                 pad_list: Any = None, mode: int = 1, stride: Any = 1, dilation: Any = 1, group: int = 1,
                 data_format: str = "NCHW") -> None:
        self.add_prim_attr("pad_mode", V.check_string(pad_mode, ("valid", "same", "pad"), "pad_mode", self.name,
                                                      lower=True))
        self.add_prim_attr("pad", pads4(self.name, pad))
        self.add_prim_attr("stride", (1, 1) + _stride_pair(self.name, "stride", stride))
        self.add_prim_attr("dilation", (1, 1) + _stride_pair(self.name, "dilation", dilation))

    def __call__(self, dout: Any, weight: Any, input_size: Any) -> Tensor:
        dy = to_tf(dout, self.name, "dout")
        w = to_tf(weight, self.name, "weight", dy.dtype)
        size = [int(s) for s in (input_size.asnumpy().tolist() if isinstance(input_size, Tensor) else input_size)]
        low = dy.dtype
        cdt = kernel_dtype(low)  # float16 computes in float32 off GPU, as on MindSpore's CPU build
        dy, w = tf.cast(dy, cdt), tf.cast(w, cdt)
        filt = tf.transpose(w, [2, 3, 1, 0])
        st, dl = list(self.stride[2:]), list(self.dilation[2:])
        if self.group != 1:
            raise ValueError(f"For '{self.name}', 'group' > 1 is not supported, but got {self.group}.")
        t, b, l, r = self.pad if self.pad_mode == "pad" else (0, 0, 0, 0)
        padding = "SAME" if self.pad_mode == "same" else "VALID"
        # explicit padding: transpose-convolve to the padded size, then crop the padding away
        full = [size[0], size[1], size[2] + t + b, size[3] + l + r]
        if nchw_supported("conv_transpose"):
            y = tf.nn.conv2d_transpose(dy, filt, full, [1, 1] + st, padding, data_format="NCHW",
                                       dilations=[1, 1] + dl)
        else:
            y = tf.nn.conv2d_transpose(tf.transpose(dy, [0, 2, 3, 1]), filt, [full[0], full[2], full[3], full[1]],
                                       [1] + st + [1], padding, dilations=[1] + dl + [1])
            y = tf.transpose(y, [0, 3, 1, 2])
        if t or b or l or r:
            y = y[:, :, t:t + size[2], l:l + size[3]]
        return _wrap(y if y.dtype == low else tf.cast(y, low))


class Conv2DTranspose(Conv2DBackpropInput):
    """Transposed 2-D convolution; same arguments and call as :class:`Conv2DBackpropInput`."""


# ---------------------------------------------------------------------------- pooling
class _Pool(Primitive):
    _kind = "max"

    @prim_attr_register
    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                 data_format: str = "NCHW") -> None:
        ks = positive_pair(self.name, "kernel_size", kernel_size, True)
        st = positive_pair(self.name, "strides", strides, True)
        pm = V.check_string(pad_mode, ("valid", "same"), "pad_mode", self.name, lower=True)
        V.check_string(data_format, ("NCHW", "NHWC"), "data_format", self.name)
        self.add_prim_attr("kernel_size", (1, 1) + ks)
        self.add_prim_attr("strides", (1, 1) + st)
        self.add_prim_attr("pad_mode", pm.upper())

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, self.name, "x")
        if t.shape.rank != 4:
            raise ValueError(f"For '{self.name}', the input must be 4-D, but got shape "
                             f"{tuple(t.shape.as_list()) if t.shape.rank is not None else None}.")
        if self._kind == "avg":
            t = to_float(t)
        ks, st = self.kernel_size[2:], self.strides[2:]
        if self.data_format == "NHWC":
            fn = tf.nn.max_pool2d if self._kind == "max" else tf.nn.avg_pool2d
            return _wrap(fn(t, list(ks), list(st), self.pad_mode))
        return _wrap(PL._pool_nchw(self._kind, t, ks, st, self.pad_mode))


class MaxPool(_Pool):
    """2-D max pooling with TensorFlow-style 'valid' / 'same' padding.

    Args:
        kernel_size: an int or a tuple of 2 (or 4) ints.
        strides: an int or a tuple of 2 (or 4) ints.
        pad_mode: 'valid' or 'same'.
        data_format: 'NCHW' or 'NHWC'.
    """

    _kind = "max"


class AvgPool(_Pool):
    """2-D average pooling with 'valid' / 'same' padding ('same' excludes the padding from the mean).

    Args:
        kernel_size: an int or a tuple of 2 (or 4) ints.
        strides: an int or a tuple of 2 (or 4) ints.
        pad_mode: 'valid' or 'same'.
        data_format: 'NCHW' or 'NHWC'.
    """

    _kind = "avg"


class AdaptiveAvgPool2D(Primitive):
    """Adaptive average pooling of NCHW data.

    Args:
        output_size: an int or a tuple of 2 ints (None keeps the input size).
    """

    @prim_attr_register
    def __init__(self, output_size: Any) -> None:
        pass

    def __call__(self, x: Any) -> Tensor:
        return N.adaptive_avg_pool2d(x, self.output_size)


class BiasAdd(Primitive):
    """Add a 1-D bias along the channel dimension: ``BiasAdd()(x, bias)``.

    Args:
        data_format: 'NCHW', 'NHWC' or 'NCDHW'.
    """

    @prim_attr_register
    def __init__(self, data_format: str = "NCHW") -> None:
        V.check_string(data_format, ("NCHW", "NHWC", "NCDHW"), "data_format", "BiasAdd")

    def __call__(self, input_x: Any, bias: Any) -> Tensor:
        return N.bias_add(input_x, bias, self.data_format)


# ---------------------------------------------------------------------------- normalisation
class BatchNorm(Primitive):
    """Batch normalisation over the channel dimension: ``(x, scale, bias, mean, variance)``.

    In training, normalises with the batch statistics and updates the ``mean`` / ``variance``
    Parameters in place (``new = (1 - momentum) * old + momentum * batch``, unbiased variance).
    Returns ``(y, batch_mean, batch_variance, reserve_space_1, reserve_space_2)``.

    Args:
        is_training: use batch statistics and update the moving ones.
        epsilon: added to the variance.
        momentum: the update rate of the moving statistics.
        data_format: 'NCHW' or 'NHWC'.
    """

    @prim_attr_register
    def __init__(self, is_training: bool = False, epsilon: float = 1e-5, momentum: float = 0.1,
                 data_format: str = "NCHW") -> None:
        V.check_bool(is_training, "is_training", "BatchNorm")
        V.check_float_range(epsilon, "epsilon", "BatchNorm", 0.0, 1.0, inc_low=False)
        V.check_float_range(momentum, "momentum", "BatchNorm", 0.0, 1.0)
        V.check_string(data_format, ("NCHW", "NHWC"), "data_format", "BatchNorm")

    def __call__(self, input_x: Any, scale: Any, bias: Any, mean: Any, variance: Any) -> tuple:
        x = to_tf(input_x, "BatchNorm", "input_x")
        if self.data_format == "NHWC":
            x = tf.experimental.numpy.moveaxis(x, -1, 1)
        xf = tf.cast(x, tf.float32) if x.dtype in (tf.float16, tf.bfloat16) else x
        axes = [0] + list(range(2, xf.shape.rank))
        if self.is_training:
            bm, bv = tf.nn.moments(xf, axes)
        else:
            bm = to_tf(mean, "BatchNorm", "mean", xf.dtype)
            bv = to_tf(variance, "BatchNorm", "variance", xf.dtype)
        y = N.batch_norm(Tensor._from_tf(x), mean, variance, scale, bias, self.is_training, self.momentum,
                         self.epsilon)._value()
        if self.data_format == "NHWC":
            y = tf.experimental.numpy.moveaxis(y, 1, -1)
        return _wrap(y), _wrap(bm), _wrap(bv), _wrap(bm), _wrap(bv)


class LayerNorm(Primitive):
    """Layer normalisation: ``LayerNorm(...)(x, gamma, beta)`` returns ``(y, mean, variance)``.

    Args:
        begin_norm_axis: the first normalised axis.
        begin_params_axis: the first axis of ``gamma`` / ``beta``.
        epsilon: added to the variance.
    """

    @prim_attr_register
    def __init__(self, begin_norm_axis: int = 1, begin_params_axis: int = 1, epsilon: float = 1e-7) -> None:
        V.check_int(begin_norm_axis, "begin_norm_axis", "LayerNorm")
        V.check_int(begin_params_axis, "begin_params_axis", "LayerNorm")
        V.check_number(epsilon, "epsilon", "LayerNorm")

    def __call__(self, input_x: Any, gamma: Any, beta: Any) -> tuple:
        t = to_tf(input_x, "LayerNorm", "input_x")
        r = t.shape.rank
        a = V.check_axis(self.begin_norm_axis, "begin_norm_axis", "LayerNorm", r)
        y, mean, var, _ = N._layer_norm_core(t, list(range(a, r)), gamma, beta, self.epsilon)
        return _wrap(y), _wrap(mean), _wrap(var)


class L2Normalize(Primitive):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``.

    Args:
        axis: an int or a tuple of ints.
        epsilon: the lower bound of the squared norm.
    """

    @prim_attr_register
    def __init__(self, axis: Any = 0, epsilon: float = 1e-4) -> None:
        V.check_number(epsilon, "epsilon", "L2Normalize")

    def __call__(self, x: Any) -> Tensor:
        return N.l2_normalize(x, self.axis, self.epsilon)


class LRN(Primitive):
    """Local response normalisation over channels of NCHW data.

    Args:
        depth_radius: half-width of the window.
        bias: the offset.
        alpha: the scale.
        beta: the exponent.
        norm_region: 'ACROSS_CHANNELS'.
    """

    @prim_attr_register
    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        pass

    def __call__(self, x: Any) -> Tensor:
        t = tf.transpose(to_tf(x, "LRN", "x"), [0, 2, 3, 1])
        y = tf.nn.local_response_normalization(t, self.depth_radius, self.bias, self.alpha, self.beta)
        return _wrap(tf.transpose(y, [0, 3, 1, 2]))


# ---------------------------------------------------------------------------- dropout / padding / resize
class Dropout(Primitive):
    """Dropout returning ``(output, mask)``; elements are kept with probability ``keep_prob``.

    Args:
        keep_prob: the keep probability, in (0, 1].
        Seed0: an op-level seed (0: none).
        Seed1: a second seed (combined with ``Seed0``).
    """

    @prim_attr_register
    def __init__(self, keep_prob: float = 0.5, Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803
        V.check_float_range(keep_prob, "keep_prob", "Dropout", 0.0, 1.0, inc_low=False)

    def __call__(self, x: Any) -> tuple:
        t = to_tf(x, "Dropout", "x")
        seed = None if not (self.Seed0 or self.Seed1) else (self.Seed0 * 1000003 + self.Seed1) % (2**31 - 1)
        mask = N._dropout_mask(t, self.keep_prob, seed)
        return _wrap(t * mask / tf.cast(self.keep_prob, t.dtype)), _wrap(mask)


class Dropout2D(Primitive):
    """Channel dropout of NCHW data returning ``(output, mask)``.

    Args:
        keep_prob: the keep probability.
    """

    @prim_attr_register
    def __init__(self, keep_prob: float = 0.5) -> None:
        V.check_float_range(keep_prob, "keep_prob", "Dropout2D", 0.0, 1.0, inc_low=False)

    def __call__(self, x: Any) -> tuple:
        t = to_tf(x, "Dropout2D", "x")
        shp = tf.concat([tf.shape(t)[:2], tf.ones([tf.rank(t) - 2], tf.int32)], 0)
        mask = N._dropout_mask(t, self.keep_prob, None, shp)
        return _wrap(t * mask / tf.cast(self.keep_prob, t.dtype)), _wrap(tf.broadcast_to(mask, tf.shape(t)))


class Pad(Primitive):
    """Constant zero padding: ``paddings[i] = (before, after)`` for each dimension.

    Args:
        paddings: a tuple of ``(before, after)`` pairs, one per dimension.
    """

    @prim_attr_register
    def __init__(self, paddings: Any) -> None:
        if not isinstance(paddings, (tuple, list)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 for p in paddings):
            raise TypeError(f"For 'Pad', the 'paddings' must be a tuple of (before, after) pairs, but got "
                            f"{paddings!r}.")
        if any(v < 0 for p in paddings for v in p):
            raise ValueError(f"For 'Pad', all elements of 'paddings' must be >= 0, but got {paddings!r}.")

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, "Pad", "x")
        if t.shape.rank is not None and len(self.paddings) != t.shape.rank:
            raise ValueError(f"For 'Pad', the length of 'paddings' must equal the rank {t.shape.rank} of 'x', but "
                             f"got {len(self.paddings)}.")
        return _wrap(tf.pad(t, [list(p) for p in self.paddings]))


class MirrorPad(Primitive):
    """Mirror padding: ``MirrorPad(mode)(x, paddings)``.

    Args:
        mode: 'REFLECT' or 'SYMMETRIC'.
    """

    @prim_attr_register
    def __init__(self, mode: str = "REFLECT") -> None:
        V.check_string(mode, ("REFLECT", "SYMMETRIC"), "mode", "MirrorPad")

    def __call__(self, input_x: Any, paddings: Any) -> Tensor:
        p = to_tf(paddings, "MirrorPad", "paddings")
        return _wrap(tf.pad(to_tf(input_x, "MirrorPad", "input_x"), p, mode=self.mode))


class ResizeBilinearV2(Primitive):
    """Bilinear resize of NCHW data: ``ResizeBilinearV2(...)(x, size)``.

    Args:
        align_corners: align corner pixels.
        half_pixel_centers: sample at pixel centres.
    """

    @prim_attr_register
    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        if align_corners and half_pixel_centers:
            raise ValueError("For 'ResizeBilinearV2', 'align_corners' and 'half_pixel_centers' cannot both be True.")

    def __call__(self, x: Any, size: Any) -> Tensor:
        t = to_tf(x, "ResizeBilinearV2", "x")
        sz = [int(s) for s in (size.asnumpy().tolist() if isinstance(size, Tensor) else size)]
        y = tf.compat.v1.image.resize_bilinear(tf.transpose(to_float(t), [0, 2, 3, 1]), sz,
                                               align_corners=self.align_corners,
                                               half_pixel_centers=self.half_pixel_centers)
        return _wrap(tf.cast(tf.transpose(y, [0, 3, 1, 2]), t.dtype) if t.dtype.is_floating else
                     tf.transpose(y, [0, 3, 1, 2]))

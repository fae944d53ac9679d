"""Convolution layers: ``Conv2d`` (MindSpore's NCHW layout, weight ``(out, in/group, kh, kw)``).

TensorFlow's CPU convolution kernels need NHWC, so on CPU the op transposes the input to NHWC and
the result back; with a GPU visible the convolution runs natively in NCHW.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.Conv2d(1, 4, 3)(Tensor(np.ones((2, 1, 8, 8), np.float32))).shape
    (2, 4, 8, 8)
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import tensorflow as tf

from tfspore import context as _context
from tfspore.common import dtype as mstype
from tfspore.common.initializer import HeUniform, Uniform, _calculate_fan_in_and_fan_out, initializer
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer import _checkparam as validator
from tfspore.nn.layer._utils import cast_to, compute_dtype, init_repr, nchw_native, read_param, to_tf

__all__ = ["Conv2d"]


def _dilate_filter(filt: tf.Tensor, dh: int, dw: int) -> tf.Tensor:
    """Insert zeros into an HWIO filter so that a dilation-1 convolution equals the dilated one.

    TF's CPU kernels do not differentiate convolutions with dilation > 1.
    """
    kh, kw = filt.shape[0], filt.shape[1]
    if dh > 1:
        f = tf.pad(filt[:, None], [[0, 0], [0, dh - 1], [0, 0], [0, 0], [0, 0]])
        filt = tf.reshape(f, [kh * dh, kw, filt.shape[2], filt.shape[3]])[:(kh - 1) * dh + 1]
    if dw > 1:
        kh2 = filt.shape[0]
        f = tf.pad(filt[:, :, None], [[0, 0], [0, 0], [0, dw - 1], [0, 0], [0, 0]])
        filt = tf.reshape(f, [kh2, kw * dw, filt.shape[2], filt.shape[3]])[:, :(kw - 1) * dw + 1]
    return filt


class _Conv(Cell):
    """The shared constructor of the N-D convolutions: validation, weight and bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: tuple, pad_mode: str,
                 padding: Any, dilation: tuple, group: int, has_bias: bool, weight_init: Any, bias_init: Any,
                 data_format: str = "NCHW", transposed: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.in_channels = validator.check_positive_int(in_channels, "in_channels", self.cls_name)
        self.out_channels = validator.check_positive_int(out_channels, "out_channels", self.cls_name)
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad_mode = validator.check_string(pad_mode, ["valid", "same", "pad"], "pad_mode", self.cls_name)
        self.data_format = validator.check_string(data_format, ["NCHW", "NHWC", "NCDHW"], "format", self.cls_name)
        target = _context.get_context("device_target")
        if target != "GPU" and self.data_format == "NHWC":
            raise ValueError(f"For '{self.cls_name}', the \"NHWC\" format only support in GPU target, but got the "
                             f"'format' is {self.data_format} and the platform is {target}.")
        if isinstance(padding, bool) or not isinstance(padding, (numbers.Integral, tuple)):
            raise TypeError(f"For '{self.cls_name}', the type of 'padding' must be int or tuple(int), but got "
                            f"{type(padding).__name__}.")
        if isinstance(padding, tuple):
            for pad in padding:
                validator.check_non_negative_int(pad, "padding item", self.cls_name)
        else:
            validator.check_non_negative_int(padding, "padding", self.cls_name)
        self.padding = padding
        self.dilation = dilation
        self.group = validator.check_positive_int(group, "group", self.cls_name)
        self.has_bias = validator.check_bool(has_bias, "has_bias", self.cls_name)
        if in_channels % group != 0:
            raise ValueError(f"For '{self.cls_name}', the attr 'in_channels' must be divisible by attr 'group', but "
                             f"got 'in_channels': {in_channels} and 'group': {group}.")
        if out_channels % group != 0:
            raise ValueError(f"For '{self.cls_name}', the 'out_channels' must be divisible by attr 'group', but got "
                             f"'out_channels': {out_channels} and 'group': {group}.")
        if transposed:
            shape = [in_channels, out_channels // group, *kernel_size]
        elif self.data_format == "NHWC":
            shape = [out_channels, *kernel_size, in_channels // group]
        else:
            shape = [out_channels, in_channels // group, *kernel_size]
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        self.weight = Parameter(initializer(weight_init, shape, dtype=dtype), name="weight")
        self.bias_init = bias_init
        if has_bias:
            if bias_init is None:
                fan_in, _ = _calculate_fan_in_and_fan_out(shape)
                bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in != 0 else "zeros"
                self.bias_init = bias_init
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype=dtype), name="bias")
        else:
            self.bias = None

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={init_repr(self.weight_init)}, bias_init={init_repr(self.bias_init)}, "
                f"format={self.data_format}")


class Conv2d(_Conv):
    """2D convolution over NCHW input (MindSpore's ``nn.Conv2d``).

    Args:
        in_channels: input channels C_in.
        out_channels: output channels C_out.
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)``.
        pad_mode: ``'same'`` (default; output size ``ceil(in / stride)``), ``'valid'`` or ``'pad'``.
        padding: with ``pad_mode='pad'``, an int or ``(top, bottom, left, right)``; 0 otherwise.
        dilation: an int or ``(dh, dw)``.
        group: the number of groups splitting the input channels.
        has_bias: whether to add a bias (default False).
        weight_init: the weight initializer. Default: ``HeUniform(math.sqrt(5))``.
        bias_init: the bias initializer. Default: ``Uniform(1/sqrt(fan_in))``.
        data_format: ``'NCHW'``, or ``'NHWC'`` on GPU (weight ``(out, kh, kw, in/group)``).
        dtype: the parameter dtype.

    Inputs:
        x: a Tensor of shape ``(N, C_in, H, W)``.

    Outputs:
        A Tensor of shape ``(N, C_out, H_out, W_out)``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for a bad ``pad_mode``, a non-zero ``padding`` without ``pad_mode='pad'``, channels
            not divisible by ``group``, or NHWC off GPU.

    Example:
        >>> Conv2d(1, 4, 3, has_bias=True, weight_init='normal', bias_init='zeros').weight.shape
        (4, 1, 3, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, data_format: str = "NCHW",
                 dtype: Any = mstype.float32) -> None:
        name = type(self).__name__
        kernel_size = validator.twice(kernel_size, "kernel_size", name)
        stride = validator.twice(stride, "stride", name)
        self._dilation = dilation
        dilation = validator.twice(dilation, "dilation", name)
        validator.check_positive_int(group, "group", name)
        validator.check_positive_int(in_channels, "in_channels", name)
        validator.check_positive_int(out_channels, "out_channels", name)
        if not (in_channels % group == 0 and out_channels % group == 0):
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and 'out_channels', but got "
                             f"group:{group}, in_channels:{in_channels}, out_channels:{out_channels}.")
        validator.check_value_type(pad_mode, [str], "pad_mode", "Conv2D")
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For 'Conv2D', the 'pad_mode' must be str and must be in '['valid', 'same', 'pad']', "
                             f"but got '{pad_mode}'.")
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For 'Conv2D', the 'pad size' must be 4, but got {len(padding)}: {padding}.")
        pads = (padding,) * 4 if isinstance(padding, numbers.Integral) and not isinstance(padding, bool) else padding
        if pad_mode != "pad" and isinstance(pads, tuple) and pads != (0, 0, 0, 0):
            raise ValueError(f"For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': "
                             f"{padding} and 'pad_mode': {pad_mode}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)
        self._pads = tuple(int(p) for p in pads)

    def _tf_padding(self, layout: str) -> Any:
        if self.pad_mode == "same":
            return "SAME"
        if self.pad_mode == "valid":
            return "VALID"
        top, bottom, left, right = self._pads
        if (top, bottom, left, right) == (0, 0, 0, 0):
            return "VALID"
        if layout == "NCHW":
            return [[0, 0], [0, 0], [top, bottom], [left, right]]
        return [[0, 0], [top, bottom], [left, right], [0, 0]]

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        dt = compute_dtype(self, v, self.weight._var.dtype)
        v = cast_to(v, dt)
        w = read_param(self.weight, dt)
        sh, sw = self.stride
        dh, dw = self.dilation
        bias = read_param(self.bias, dt) if self.has_bias else None
        if self.data_format == "NHWC":
            y = tf.nn.conv2d(v, tf.transpose(w, [1, 2, 3, 0]), strides=[1, sh, sw, 1],
                             padding=self._tf_padding("NHWC"), data_format="NHWC", dilations=[1, dh, dw, 1])
            if bias is not None:
                y = tf.nn.bias_add(y, bias, data_format="NHWC")
            return _wrap(y)
        filt = tf.transpose(w, [2, 3, 1, 0])
        if nchw_native():
            y = tf.nn.conv2d(v, filt, strides=[1, 1, sh, sw], padding=self._tf_padding("NCHW"), data_format="NCHW",
                             dilations=[1, 1, dh, dw])
            if bias is not None:
                y = tf.nn.bias_add(y, bias, data_format="NCHW")
            return _wrap(y)
        if dh > 1 or dw > 1:
            filt = _dilate_filter(filt, dh, dw)
        y = tf.nn.conv2d(tf.transpose(v, [0, 2, 3, 1]), filt, strides=[1, sh, sw, 1],
                         padding=self._tf_padding("NHWC"), data_format="NHWC")
        if bias is not None:
            y = tf.nn.bias_add(y, bias, data_format="NHWC")
        return _wrap(tf.transpose(y, [0, 3, 1, 2]))

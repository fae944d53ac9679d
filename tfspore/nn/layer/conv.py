"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d``, ``Conv1dTranspose``, ``Conv2dTranspose``.

MindSpore's layouts throughout: NCHW / NCDHW data, weight ``(out, in/group, *kernel)`` for the
convolutions and ``(in, out/group, *kernel)`` for the transposed ones. ``Conv1d`` and
``Conv1dTranspose`` keep MindSpore's 4-D weight ``(out, in/group, 1, k)`` so that checkpoints load
unchanged.

The kernels (``_conv_kernels``) run NCHW where TensorFlow's kernels take it (GPUs, CPUs with
oneDNN) and transpose to NHWC elsewhere; 3-D convolutions run in NDHWC off GPU.

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

import numpy as np
import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.initializer import (HeUniform, Uniform,
                                        calculate_fan_in_and_fan_out as _calculate_fan_in_and_fan_out, initializer)
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._conv_kernels import add_bias, conv2d_nchw, conv2d_transpose_nchw, conv3d_ncdhw, deconv_length
from tfspore.nn.layer._utils import cast_to, check_same_float, compute_dtype, init_repr, read_param, to_tf
from tfspore.nn.layer._window import check_nonempty, check_window

__all__ = ["Conv2d", "Conv2dTranspose", "Conv1d", "Conv1dTranspose", "Conv3d"]

_PAD_MODES = ("valid", "same", "pad")


def _check_group_divisible(name: str, in_channels: Any, out_channels: Any, group: Any) -> None:
    validator.check_positive_int(group, "group", name)
    validator.check_positive_int(in_channels, "in_channels", name)
    validator.check_positive_int(out_channels, "out_channels", name)
    if in_channels % group != 0 or out_channels % group != 0:
        raise ValueError(f"For '{name}', the argument 'group' should be divisible by 'in_channels' and "
                         f"'out_channels', but got group:{group}, in_channels:{in_channels}, "
                         f"out_channels:{out_channels}.")


def _triple(name: str, arg: str, value: Any) -> tuple[int, int, int]:
    ok = (isinstance(value, numbers.Integral) and not isinstance(value, bool) and value > 0) or (
        isinstance(value, tuple) and len(value) == 3
        and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) and v > 0 for v in value))
    if not ok:
        raise ValueError(f"For '{name}', the parameter '{arg}' must be an positive integer or a tuple of three "
                         f"positive integer, but got {value!r}.")
    return (int(value),) * 3 if isinstance(value, numbers.Integral) else tuple(int(v) for v in value)


def _twice(name: str, arg: str, value: Any) -> tuple[int, int]:
    """An int or a pair of ints as a pair (MindSpore's ``twice``; TypeError for anything else)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value), int(value)
    if isinstance(value, tuple) and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        if len(value) != 2:
            raise TypeError(f"For '{name}', the '{arg}' must be an int or a tuple of 2 ints, but got {value!r}.")
        return int(value[0]), int(value[1])
    raise TypeError(f"For '{name}', the '{arg}' must be an int or a tuple of 2 ints, but got {value!r} of type "
                    f"{type(value).__name__}.")


# -------------------------------------------------------------------------------------- base
class _Conv(Cell):
    """The shared constructor of the convolutions: validation, weight and bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: tuple, pad_mode: str,
                 padding: Any, dilation: tuple, group: int, has_bias: bool, weight_init: Any, bias_init: Any,
                 data_format: str = "NCHW", transposed: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        name = self.cls_name
        self.in_channels = validator.check_positive_int(in_channels, "in_channels", name)
        self.out_channels = validator.check_positive_int(out_channels, "out_channels", name)
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad_mode = pad_mode
        self.data_format = validator.check_string(data_format, ["NCHW", "NHWC", "NCDHW"], "format", name)
        target = _context.get_context("device_target")
        if target != "GPU" and self.data_format == "NHWC":
            raise ValueError(f"For '{name}', the \"NHWC\" format only support in GPU target, but got the 'format' is "
                             f"{self.data_format} and the platform is {target}.")
        validator.check_type(padding, (numbers.Integral, tuple), "padding", name, "int or tuple(int)")
        if isinstance(padding, tuple):
            for pad in padding:
                validator.check_non_negative_int(pad, "padding item", name)
        else:
            validator.check_non_negative_int(padding, "padding", name)
        self.padding = padding
        self.dilation = dilation
        self.group = validator.check_positive_int(group, "group", name)
        self.has_bias = has_bias
        for k in kernel_size:
            validator.check_positive_int(k, "kernel_size item", name)
        for s in stride:
            validator.check_positive_int(s, "stride item", name)
        for d in dilation:
            validator.check_positive_int(d, "dilation item", name)
        if in_channels % group != 0:
            raise ValueError(f"For '{name}', the attr 'in_channels' must be divisible by attr 'group', but got "
                             f"'in_channels': {in_channels} and 'group': {group}.")
        if out_channels % group != 0:
            raise ValueError(f"For '{name}', the 'out_channels' must be divisible by attr 'group', but got "
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
        if validator.check_bool(has_bias, "has_bias", name):
            if bias_init is None:
                fan_in, _ = _calculate_fan_in_and_fan_out(shape)
                self.bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in != 0 else "zeros"
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype=dtype), name="bias")
        else:
            self.bias = None

    def _prepare(self, x: Any) -> tuple[tf.Tensor, tf.Tensor, tf.Tensor | None]:
        """The input, weight and bias as TF tensors in the compute dtype."""
        v = to_tf(x)
        check_same_float(self, v, self.weight._var.dtype, "Conv3D" if v.shape.rank == 5 else "Conv2D")
        dt = compute_dtype(self, v, self.weight._var.dtype)
        v = cast_to(v, dt)
        w = read_param(self.weight, dt)
        b = read_param(self.bias, dt) if self.has_bias else None
        return v, w, b

    def _check_rank(self, v: tf.Tensor, rank: int) -> None:
        if v.shape.rank != rank:
            raise ValueError(f"For '{self.cls_name}', the input must be a {rank}-D tensor, but got shape "
                             f"{tuple(v.shape.as_list()) if v.shape.rank is not None else None}.")
        c = v.shape[1] if self.data_format != "NHWC" else v.shape[-1]
        if c is not None and c != self.in_channels:
            # MindSpore's Conv2D (behind Conv1d and Conv2d) raises RuntimeError here, Conv3D ValueError
            err = ValueError if rank == 5 else RuntimeError
            raise err(f"For '{self.cls_name}', the input channels must equal 'in_channels' "
                      f"{self.in_channels}, but got input shape {tuple(v.shape.as_list())}.")

    def _check_window(self, v: tf.Tensor, spatial: list) -> None:
        """Raise ValueError when the (padded) input is smaller than the dilated kernel."""
        nd = len(spatial)
        if self._tf_pad == "SAME":
            return
        def last(value: Any) -> tuple:
            return tuple(value)[-nd:] if isinstance(value, (tuple, list)) else (value,) * nd
        pads = (0,) * nd if self._tf_pad == "VALID" else tuple(lo + hi for lo, hi in self._tf_pad)[-nd:]
        check_window(self.cls_name, v, spatial, last(self.kernel_size), last(self.stride), last(self.dilation), pads,
                     lead=(v.shape[0], self.out_channels))

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={init_repr(self.weight_init)}, bias_init={init_repr(self.bias_init)}, "
                f"format={self.data_format}")


def _pads4(name: str, padding: Any, pad_mode: str, n: int = 4, prim: str = "Conv2D") -> tuple[int, ...]:
    """``padding`` as an ``n``-tuple, checked against ``pad_mode`` as MindSpore's primitives check it."""
    pads = (int(padding),) * n if isinstance(padding, numbers.Integral) else tuple(int(p) for p in padding)
    if len(pads) != n:
        raise ValueError(f"For '{prim}', the 'pad size' must be int and must = {n}, but got {len(pads)}: "
                         f"{padding!r}.")
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"For '{prim}', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': "
                         f"{padding} and 'pad_mode': {pad_mode}.")
    return pads


# ------------------------------------------------------------------------------------ Conv2d
class Conv2d(_Conv):
    """2-D convolution over NCHW input (MindSpore's ``nn.Conv2d``).

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
            not divisible by ``group``, non-positive sizes, or NHWC off GPU.

    Example:
        >>> Conv2d(1, 4, 3, has_bias=True, weight_init='normal', bias_init='zeros').weight.shape
        (4, 1, 3, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, data_format: str = "NCHW",
                 dtype: Any = mstype.float32) -> None:
        name = type(self).__name__
        kernel_size = _twice(name, "kernel_size", kernel_size)
        stride = _twice(name, "stride", stride)
        self._dilation = dilation
        dilation = _twice(name, "dilation", dilation)
        _check_group_divisible(name, in_channels, out_channels, group)
        validator.check_type(padding, (numbers.Integral, tuple), "padding", name, "int or tuple(int)")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)
        validator.check_string(pad_mode, _PAD_MODES, "pad_mode", "Conv2D")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For 'Conv2D', the 'format' must be str and must be in '['NCHW', 'NHWC']', but got "
                             f"{data_format!r}.")
        t, b, l, r = _pads4(name, padding, pad_mode)
        self._tf_pad: Any = {"same": "SAME", "valid": "VALID"}.get(pad_mode, ((t, b), (l, r)))

    def construct(self, x: Any) -> Tensor:
        v, w, b = self._prepare(x)
        self._check_rank(v, 4)
        self._check_window(v, v.shape.as_list()[1:3] if self.data_format == "NHWC" else v.shape.as_list()[2:])
        if self.data_format == "NHWC":
            pad = self._tf_pad
            if not isinstance(pad, str):
                v = tf.pad(v, [[0, 0], list(pad[0]), list(pad[1]), [0, 0]])
                pad = "VALID"
            y = tf.nn.conv2d(v, tf.transpose(w, [1, 2, 3, 0]), [1, *self.stride, 1], pad,
                             dilations=[1, *self.dilation, 1])
            return _wrap(y + b if b is not None else y)
        y = conv2d_nchw(v, w, self.stride, self.dilation, self._tf_pad, self.group)
        return _wrap(add_bias(y, b) if b is not None else y)


# ------------------------------------------------------------------------------------ Conv1d
def _conv1d_args(name: str, kernel_size: Any, stride: Any, padding: Any, dilation: Any) -> None:
    for arg, value in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
                       ("dilation", dilation)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"For '{name}', the type of '{arg}' should be 'int', but got type "
                            f"'{type(value).__name__}': {value!r}.")
    validator.check_int_range(kernel_size, "kernel_size", name, 1, None)
    validator.check_int_range(stride, "stride", name, 1, None)
    validator.check_non_negative_int(padding, "padding", name)
    validator.check_int_range(dilation, "dilation", name, 1, None)


def _expand_weight_init(name: str, weight_init: Any) -> Any:
    """A 3-D Tensor initializer of a 1-D convolution as MindSpore's 4-D ``(o, i, 1, k)`` weight."""
    if isinstance(weight_init, Tensor):
        if weight_init.ndim != 3:
            raise ValueError(f"For '{name}', the 'weight_init_shape' must be int and must = 3, but got "
                             f"{weight_init.ndim}: shape {weight_init.shape}.")
        return Tensor(np.expand_dims(weight_init.asnumpy(), 2), weight_init.dtype)
    return weight_init


class Conv1d(_Conv):
    """1-D convolution over ``(N, C_in, L)`` input (MindSpore's ``nn.Conv1d``).

    The weight has MindSpore's 4-D shape ``(out, in/group, 1, kernel_size)``.

    Args:
        in_channels: input channels C_in.
        out_channels: output channels C_out.
        kernel_size: the kernel length (an int).
        stride: the stride (an int).
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``'pad'``, the zero padding on both sides (an int).
        dilation: the dilation (an int).
        group: the number of groups.
        has_bias: whether to add a bias (default False).
        weight_init: the weight initializer (a 3-D Tensor ``(out, in/group, k)`` is accepted).
        bias_init: the bias initializer.
        dtype: the parameter dtype.

    Inputs:
        x: a Tensor of shape ``(N, C_in, L)``.

    Outputs:
        A Tensor of shape ``(N, C_out, L_out)``.

    Raises:
        TypeError: when ``kernel_size``, ``stride``, ``padding`` or ``dilation`` is not an int.
        ValueError: for non-positive sizes, a bad ``pad_mode``, or ``padding`` without ``'pad'``.

    Example:
        >>> Conv1d(2, 4, 3).weight.shape
        (4, 2, 1, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, pad_mode: str = "same",
                 padding: int = 0, dilation: int = 1, group: int = 1, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, dtype: Any = mstype.float32) -> None:
        name = type(self).__name__
        _conv1d_args(name, kernel_size, stride, padding, dilation)
        _check_group_divisible(name, in_channels, out_channels, group)
        weight_init = _expand_weight_init(name, weight_init)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, padding, (1, dilation),
                         group, has_bias, weight_init, bias_init, dtype=dtype)
        self.padding = (0, 0, padding, padding)
        validator.check_string(pad_mode, _PAD_MODES, "pad_mode", name)
        _pads4(name, self.padding, pad_mode)
        self._tf_pad: Any = {"same": "SAME", "valid": "VALID"}.get(pad_mode, ((0, 0), (padding, padding)))

    def construct(self, x: Any) -> Tensor:
        v, w, b = self._prepare(x)
        self._check_rank(v, 3)
        self._check_window(v, [v.shape[2]])
        y = conv2d_nchw(v[:, :, None, :], w, self.stride, self.dilation, self._tf_pad, self.group)[:, :, 0, :]
        return _wrap(add_bias(y, b) if b is not None else y)


# ------------------------------------------------------------------------------------ Conv3d
class Conv3d(_Conv):
    """3-D convolution over NCDHW input (MindSpore's ``nn.Conv3d``).

    Args:
        in_channels: input channels C_in.
        out_channels: output channels C_out.
        kernel_size: an int or ``(kd, kh, kw)``.
        stride: an int or ``(sd, sh, sw)``.
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``'pad'``, an int or ``(head, tail, top, bottom, left, right)``.
        dilation: an int or ``(dd, dh, dw)``.
        group: the number of groups.
        has_bias: whether to add a bias (default False).
        weight_init: the weight initializer. Default: ``HeUniform(math.sqrt(5))``.
        bias_init: the bias initializer. Default: ``Uniform(1/sqrt(fan_in))``.
        data_format: ``'NCDHW'`` only.
        dtype: the parameter dtype.

    Inputs:
        x: a Tensor of shape ``(N, C_in, D, H, W)``.

    Outputs:
        A Tensor of shape ``(N, C_out, D_out, H_out, W_out)``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for bad sizes, ``pad_mode``, ``padding`` or ``data_format``.

    Example:
        >>> Conv3d(2, 4, (1, 2, 3)).weight.shape
        (4, 2, 1, 2, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, data_format: str = "NCDHW",
                 dtype: Any = mstype.float32) -> None:
        name = type(self).__name__
        _check_group_divisible(name, in_channels, out_channels, group)
        kernel_size = _triple(name, "kernel_size", kernel_size)
        stride = _triple(name, "stride", stride)
        dilation = _triple(name, "dilation", dilation)
        validator.check_type(padding, (numbers.Integral, tuple), "padding", name, "int or tuple(int)")
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For '{name}', the 'padding size' must be int and must = 6, but got {len(padding)}: "
                             f"{padding!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)
        validator.check_string(pad_mode, _PAD_MODES, "pad_mode", "Conv3D")
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3D', the 'data_format' must be str and must be in '['NCDHW']', but got "
                             f"{data_format!r}.")
        pads = _pads4(name, padding, pad_mode, 6, "Conv3D")
        self._tf_pad: Any = {"same": "SAME", "valid": "VALID"}.get(
            pad_mode, ((pads[0], pads[1]), (pads[2], pads[3]), (pads[4], pads[5])))

    def construct(self, x: Any) -> Tensor:
        v, w, b = self._prepare(x)
        self._check_rank(v, 5)
        self._check_window(v, v.shape.as_list()[2:])
        y = conv3d_ncdhw(v, w, self.stride, self.dilation, self._tf_pad, self.group)
        return _wrap(add_bias(y, b) if b is not None else y)


# ------------------------------------------------------------------------------- transposed
class Conv2dTranspose(_Conv):
    """2-D transposed convolution (the input gradient of ``Conv2d``), MindSpore's ``nn.Conv2dTranspose``.

    The output size is ``H * stride`` for ``'same'``, ``H * stride + max(k_eff - stride, 0)`` for
    ``'valid'`` and ``H * stride - (top + bottom) + k_eff - stride`` for ``'pad'``, where
    ``k_eff = (k - 1) * dilation + 1``; ``output_padding`` (``'pad'`` only) then appends zeros at the
    bottom and right.

    Args:
        in_channels: input channels C_in.
        out_channels: output channels C_out.
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)``.
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``'pad'``, an int or ``(top, bottom, left, right)``.
        output_padding: an int or ``(oh, ow)``, in ``[0, max(stride, dilation))``.
        dilation: an int or ``(dh, dw)``.
        group: the number of groups.
        has_bias: whether to add a bias (default False).
        weight_init: the weight initializer (weight shape ``(in, out/group, kh, kw)``).
        bias_init: the bias initializer.
        dtype: the parameter dtype.

    Inputs:
        x: a Tensor of shape ``(N, C_in, H, W)``.

    Outputs:
        A Tensor of shape ``(N, C_out, H_out, W_out)``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for bad sizes, ``pad_mode`` or ``padding``; at call time, for a bad ``output_padding``.

    Example:
        >>> Conv2dTranspose(3, 64, 4, pad_mode='pad').weight.shape
        (3, 64, 4, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, output_padding: Any = 0, dilation: Any = 1,
                 group: int = 1, has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = mstype.float32) -> None:
        name = type(self).__name__
        kernel_size = _twice(name, "kernel_size", kernel_size)
        stride = _twice(name, "stride", stride)
        dilation = _twice(name, "dilation", dilation)
        validator.check_type(padding, (numbers.Integral, tuple), "padding", name, "int or tuple(int)")
        if isinstance(padding, tuple) and len(padding) != 4:
            raise ValueError(f"For '{name}', the 'padding size' must be int and must = 4, but got {len(padding)}: "
                             f"{padding!r}.")
        if isinstance(output_padding, bool) or not isinstance(output_padding, (numbers.Integral, tuple)):
            raise TypeError(f"For '{name}', the type of 'output_padding' should be one of '['int', 'tuple']', but "
                            f"got {type(output_padding).__name__}: {output_padding!r}.")
        if isinstance(output_padding, tuple) and len(output_padding) != 2:
            raise ValueError(f"For '{name}', the 'output_padding size' must be int and must = 2, but got "
                             f"{len(output_padding)}: {output_padding!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, transposed=True, dtype=dtype)
        validator.check_string(pad_mode, _PAD_MODES, "pad_mode", name)
        pads = (int(padding),) * 4 if isinstance(padding, numbers.Integral) else tuple(padding)
        if pad_mode != "pad" and any(pads):
            raise ValueError(f"For 'Conv2DTranspose', the 'pad' must be zero or (0, 0, 0, 0) when 'pad_mode' is not "
                             f"\"pad\", but got 'pad' is {padding} and 'pad_mode' is {pad_mode}.")
        self.output_padding = output_padding
        self.padding_top, self.padding_bottom, self.padding_left, self.padding_right = pads
        self.is_valid, self.is_same, self.is_pad = pad_mode == "valid", pad_mode == "same", pad_mode == "pad"

    def _out_padding(self) -> tuple[int, int]:
        op = self.output_padding
        pair = op if isinstance(op, tuple) else (op, op)
        for i, (p, s, d) in enumerate(zip(pair, self.stride, self.dilation)):
            if p < 0 or p >= max(s, d):
                axis = "hw"[i]
                raise ValueError(f"For '{self.cls_name}', the 'output_padding' must be in range of "
                                 f"[0, max(stride_{axis}, dilation_{axis})) = [0, {max(s, d)}), but got {op}.")
        if not self.is_pad and any(pair):
            raise ValueError(f"For '{self.cls_name}', when 'output_padding' is not zero, 'pad_mode' must be 'pad', but "
                             f"got output_padding={op} and pad_mode={self.pad_mode}.")
        return pair

    def _forward(self, v: tf.Tensor, w: tf.Tensor, b: tf.Tensor | None, hw: tuple) -> tf.Tensor:
        kh, kw = self.kernel_size
        sh, sw = self.stride
        dh, dw = self.dilation
        pt, pb, pl, pr = self.padding_top, self.padding_bottom, self.padding_left, self.padding_right
        h_out = deconv_length(self.pad_mode, hw[0], kh, sh, dh, pt + pb)
        w_out = deconv_length(self.pad_mode, hw[1], kw, sw, dw, pl + pr)
        pad: Any = {"same": "SAME", "valid": "VALID"}.get(self.pad_mode, ((pt, pb), (pl, pr)))
        y = conv2d_transpose_nchw(v, w, (h_out, w_out), self.stride, self.dilation, pad, self.group)
        return add_bias(y, b) if b is not None else y

    def construct(self, x: Any) -> Tensor:
        v, w, b = self._prepare(x)
        self._check_rank(v, 4)
        h, wd = v.shape[2], v.shape[3]
        if h is None or wd is None:
            raise ValueError(f"For '{self.cls_name}', the spatial dimensions must be static, but got shape "
                             f"{tuple(v.shape.as_list())}.")
        y = self._forward(v, w, b, (h, wd))
        oh, ow = self._out_padding()
        if oh or ow:
            y = tf.pad(y, [[0, 0], [0, 0], [0, oh], [0, ow]])
        check_nonempty(self.cls_name, v, y, self.kernel_size, self.stride)
        return _wrap(y)


class Conv1dTranspose(Conv2dTranspose):
    """1-D transposed convolution over ``(N, C_in, L)`` input, MindSpore's ``nn.Conv1dTranspose``.

    The weight has MindSpore's 4-D shape ``(in, out/group, 1, kernel_size)``.

    Args:
        in_channels: input channels C_in.
        out_channels: output channels C_out.
        kernel_size: the kernel length (an int).
        stride: the stride (an int).
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``'pad'``, the padding on both sides (an int).
        dilation: the dilation (an int).
        group: the number of groups.
        has_bias: whether to add a bias (default False).
        weight_init: the weight initializer (a 3-D Tensor ``(in, out/group, k)`` is accepted).
        bias_init: the bias initializer.
        dtype: the parameter dtype.

    Inputs:
        x: a Tensor of shape ``(N, C_in, L)``.

    Outputs:
        A Tensor of shape ``(N, C_out, L_out)``.

    Raises:
        TypeError: when ``kernel_size``, ``stride``, ``padding`` or ``dilation`` is not an int.
        ValueError: for non-positive sizes, a bad ``pad_mode``, or ``padding`` without ``'pad'``.

    Example:
        >>> Conv1dTranspose(3, 64, 4, pad_mode='pad').weight.shape
        (3, 64, 1, 4)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, pad_mode: str = "same",
                 padding: int = 0, dilation: int = 1, group: int = 1, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, dtype: Any = mstype.float32) -> None:
        name = type(self).__name__
        _conv1d_args(name, kernel_size, stride, padding, dilation)
        weight_init = _expand_weight_init(name, weight_init)
        _Conv.__init__(self, in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode, padding,
                       (1, dilation), group, has_bias, weight_init, bias_init, transposed=True, dtype=dtype)
        self.padding = (0, 0, padding, padding)
        validator.check_string(pad_mode, _PAD_MODES, "pad_mode", name)
        if pad_mode != "pad" and padding:
            raise ValueError(f"For 'Conv2DBackpropInput', the 'pad' must be zero or (0, 0, 0, 0) when 'pad_mode' is "
                             f"not \"pad\", but got 'pad' is {self.padding} and 'pad_mode' is {pad_mode}.")
        self.output_padding = 0
        self.padding_top, self.padding_bottom, self.padding_left, self.padding_right = self.padding
        self.is_valid, self.is_same, self.is_pad = pad_mode == "valid", pad_mode == "same", pad_mode == "pad"

    def construct(self, x: Any) -> Tensor:
        v, w, b = self._prepare(x)
        self._check_rank(v, 3)
        if v.shape[2] is None:
            raise ValueError(f"For '{self.cls_name}', the length must be static, but got shape "
                             f"{tuple(v.shape.as_list())}.")
        y = self._forward(v[:, :, None, :], w, b, (1, v.shape[2]))
        check_nonempty(self.cls_name, v, y, self.kernel_size, self.stride)
        return _wrap(y[:, :, 0, :])

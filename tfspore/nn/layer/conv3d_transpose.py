"""``Conv3dTranspose``: the 3-D transposed convolution over NCDHW input (MindSpore's ``nn.Conv3dTranspose``).

The weight is ``(C_in, C_out/group, kd, kh, kw)`` as in MindSpore. The output length along each
spatial axis is ``L * stride`` for ``'same'`` (the full transposed output cropped, the smaller half
of the excess taken from the front), ``max(L * stride, (L - 1) * stride + k_eff)`` for ``'valid'``
and ``(L - 1) * stride - (head + tail) + k_eff + output_padding`` for ``'pad'``, where
``k_eff = (k - 1) * dilation + 1``. The kernel runs channels-last (TensorFlow's CPU layout) on
the full transposed output, which is then cropped or extended with zeros; dilation inserts zeros
into the filter (TensorFlow's CPU kernel has no dilated transposed 3-D convolution), and float16
inputs compute in float32 between casts (its float16 CPU kernel is a slow reference loop).

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.Conv3dTranspose(4, 6, 3, stride=2)(Tensor(np.ones((1, 4, 3, 4, 5), np.float32))).shape
    (1, 6, 6, 8, 10)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._conv_kernels import _dilate_filter
from tfspore.nn.layer._utils import cast_to
from tfspore.nn.layer._window import raise_empty
from tfspore.nn.layer.conv import _Conv

__all__ = ["Conv3dTranspose"]


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _triple(name: str, arg: str, value: Any, minimum: int = 1) -> tuple[int, int, int]:
    """An int or a 3-tuple of ints (each at least ``minimum``) as a 3-tuple."""
    items = (value,) * 3 if _is_int(value) else value
    if not (isinstance(items, tuple) and len(items) == 3 and all(_is_int(v) and v >= minimum for v in items)):
        kind = "positive" if minimum > 0 else "non-negative"
        raise ValueError(f"For '{name}', the parameter '{arg}' must be an {kind} integer or a tuple of three "
                         f"{kind} integer, but got {value!r}.")
    return tuple(int(v) for v in items)


def _imax(a: Any, b: Any) -> Any:
    """``max`` of two ints, or ``tf.maximum`` where one is a dynamic size."""
    return max(a, b) if isinstance(a, int) and isinstance(b, int) else tf.maximum(a, b)


def conv3d_transpose_ncdhw(x: tf.Tensor, w: tf.Tensor, stride: tuple, dilation: tuple, pad_mode: str,
                           pads: tuple, output_padding: tuple, group: int) -> tf.Tensor:
    """The transposed 3-D convolution of NCDHW ``x`` with a ``(C_in, C_out/group, kd, kh, kw)`` weight."""
    low = x.dtype
    cdt = tf.float32 if low in (tf.float16, tf.bfloat16) else low
    x = tf.transpose(cast_to(x, cdt), [0, 2, 3, 4, 1])
    filt = _dilate_filter(tf.transpose(cast_to(w, cdt), [2, 3, 4, 1, 0]), dilation)  # (kd, kh, kw, out/g, in)
    k_eff = filt.shape.as_list()[:3]
    spatial = x.shape.as_list()[1:4]
    dyn = tf.shape(x)
    sizes = [spatial[i] if spatial[i] is not None else dyn[i + 1] for i in range(3)]
    full = [(sizes[i] - 1) * stride[i] + k_eff[i] for i in range(3)]
    n = dyn[0]
    xs = tf.split(x, group, axis=-1) if group > 1 else [x]
    fs = tf.split(filt, group, axis=-1) if group > 1 else [filt]
    cout = filt.shape[3]
    ys = [tf.nn.conv3d_transpose(a, f, tf.stack([n, *full, cout]), [1, *stride, 1], "VALID") for a, f in zip(xs, fs)]
    y = tf.concat(ys, axis=-1) if group > 1 else ys[0]
    starts, lengths = [], []
    for i in range(3):
        if pad_mode == "same":
            length = sizes[i] * stride[i]
            start = _imax(full[i] - length, 0) // 2
        elif pad_mode == "valid":
            start, length = 0, _imax(sizes[i] * stride[i], full[i])
        else:
            start = pads[2 * i]
            length = full[i] - pads[2 * i] - pads[2 * i + 1] + output_padding[i]
        starts.append(start)
        lengths.append(length)
    extra = [_imax(starts[i] + lengths[i] - full[i], 0) for i in range(3)]
    y = tf.pad(y, [[0, 0], [0, extra[0]], [0, extra[1]], [0, extra[2]], [0, 0]])
    y = tf.slice(y, tf.stack([0, *starts, 0]), tf.stack([-1, *lengths, -1]))
    return cast_to(tf.transpose(y, [0, 4, 1, 2, 3]), low)


class Conv3dTranspose(_Conv):
    """3-D transposed convolution (the input gradient of ``Conv3d``) over NCDHW input.

    Args:
        in_channels: input channels C_in.
        out_channels: output channels C_out.
        kernel_size: an int or ``(kd, kh, kw)``.
        stride: an int or ``(sd, sh, sw)``.
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``'pad'``, an int or ``(head, tail, top, bottom, left, right)``.
        dilation: an int or ``(1, dh, dw)`` (the depth dilation must be 1, as in MindSpore).
        group: the number of groups.
        output_padding: with ``'pad'``, extra size added to the end of each spatial axis.
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
        ValueError: for bad sizes, ``pad_mode``, ``padding``, ``output_padding``, ``dilation`` or ``data_format``.

    Example:
        >>> Conv3dTranspose(4, 6, 3).weight.shape
        (4, 6, 3, 3, 3)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, pad_mode: str = "same",
                 padding: Any = 0, dilation: Any = 1, group: int = 1, output_padding: Any = 0, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, data_format: str = "NCDHW",
                 dtype: Any = mstype.float32) -> None:
        name = type(self).__name__
        if not (in_channels % group == 0 and out_channels % group == 0):
            raise ValueError("The argument 'group' should be divisible by 'in_channels' and 'out_channels'")
        kernel_size = _triple(name, "kernel_size", kernel_size)
        stride = _triple(name, "stride", stride)
        dilation = _triple(name, "dilation", dilation)
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{name}', the type of 'padding' should be one of '['int', 'tuple']', but got type "
                            f"'{type(padding).__name__}'.")
        if isinstance(padding, tuple) and len(padding) != 6:
            raise ValueError(f"For '{name}', the 'padding size' must be equal to 6, but got {len(padding)}.")
        self.output_padding = _triple(name, "output_padding", output_padding, minimum=0)
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, transposed=True, dtype=dtype)
        prim = "Conv3DTranspose"
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{prim}', the 'pad_mode' must be str and must be in '['valid', 'same', 'pad']', "
                             f"but got {pad_mode!r}.")
        mode = pad_mode.lower()
        pads = (padding,) * 6 if isinstance(padding, int) else tuple(padding)
        if mode != "pad" and pads != (0,) * 6:
            raise ValueError(f"For '{prim}', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' is not "
                             f"\"pad\", but got 'pad' is {padding} and 'pad_mode' is {pad_mode}.")
        if dilation[0] != 1:
            raise ValueError(f"For '{prim}', the depth of parameter 'dilation' must be 1, but got {dilation[0]}.")
        if data_format != "NCDHW":
            raise ValueError(f"For '{prim}', the 'format' must be str and must be in '['NCDHW']', but got "
                             f"{data_format!r}.")
        if mode != "pad" and self.output_padding != (0, 0, 0):
            raise ValueError(f"For '{prim}', the 'output_padding' must be zero or (0, 0, 0) when 'pad_mode' is not "
                             f"\"pad\", but got 'output_padding' is {output_padding} and 'pad_mode' is {pad_mode}.")
        for axis, op in zip("dhw", range(3)):
            limit = max(dilation[op], stride[op])
            if self.output_padding[op] >= limit:
                raise ValueError(f"For '{prim}', the 'output_padding_{axis} belonging [0, max(stride_{axis}, "
                                 f"dilation_{axis}))' must be in range of [0, {limit}), but got "
                                 f"{self.output_padding[op]}.")
        self._mode, self._pads = mode, pads

    def construct(self, x: Any) -> Tensor:
        v, w, b = self._prepare(x)
        self._check_rank(v, 5)
        if self._mode == "pad":
            dims = v.shape.as_list()[2:]
            k, s, d = tuple(self.kernel_size), tuple(self.stride), tuple(self.dilation)
            outs = [None if dims[i] is None else (dims[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - self._pads[2 * i]
                    - self._pads[2 * i + 1] + self.output_padding[i] for i in range(3)]
            if any(o is not None and o <= 0 for o in outs):
                raise_empty(self.cls_name, v, (v.shape[0], self.out_channels, *(max(o, 0) for o in outs)), k, s)
        y = conv3d_transpose_ncdhw(v, w, self.stride, self.dilation, self._mode, self._pads, self.output_padding,
                                   self.group)
        if b is not None:
            y = y + tf.reshape(b, [1, -1, 1, 1, 1])
        return _wrap(y)

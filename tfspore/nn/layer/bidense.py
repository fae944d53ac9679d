"""``BiDense``: the bilinear layer ``out[..., o] = x1 W[o] x2^T + b[o]`` (MindSpore's ``nn.BiDense``).

The weight is ``(out_channels, in1_channels, in2_channels)`` and the bias ``(out_channels,)``,
named ``weight`` and ``bias`` as in MindSpore; both default to ``Uniform(1 / sqrt(in1_channels))``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.BiDense(3, 4, 5)(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 4), np.float32))).shape
    (2, 5)
"""
from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.initializer import Uniform, initializer
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf

__all__ = ["BiDense"]


class BiDense(Cell):
    """The bilinear transformation of two inputs.

    Args:
        in1_channels: the last dimension of the first input.
        in2_channels: the last dimension of the second input.
        out_channels: the output features.
        weight_init: the weight initializer (``Uniform(1/sqrt(in1_channels))`` when None).
        bias_init: the bias initializer (the same default).
        has_bias: whether to add a bias.
        dtype: the parameter dtype.

    Inputs:
        input1: a Tensor ``(*, in1_channels)``.
        input2: a Tensor ``(*, in2_channels)`` with the same leading shape.

    Outputs:
        A Tensor ``(*, out_channels)``.

    Raises:
        TypeError: when a size is not an int, ``has_bias`` is not a bool, or an input is not a Tensor.
        ValueError: for a non-positive size, a Tensor initializer of the wrong shape, or mismatched inputs.

    Example:
        >>> BiDense(3, 4, 5).weight.shape
        (5, 3, 4)
    """

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int, weight_init: Any = None,
                 bias_init: Any = None, has_bias: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        name = self.cls_name
        self.in1_channels = validator.check_positive_int(in1_channels, "in1_channels", name)
        self.in2_channels = validator.check_positive_int(in2_channels, "in2_channels", name)
        self.out_channels = validator.check_positive_int(out_channels, "out_channels", name)
        self.has_bias = validator.check_bool(has_bias, "has_bias", name)
        bound = 1 / math.sqrt(in1_channels)
        weight_init = Uniform(bound) if weight_init is None else weight_init
        shape = (out_channels, in1_channels, in2_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For '{name}', weight init shape error. The ndim of 'weight_init' must be equal to 3, "
                             f"the first dim must be equal to 'out_channels', the second dim must be equal to "
                             f"'in1_channels', and the third dim must be equal to 'in2_channels'. But got "
                             f"'weight_init' shape: {tuple(weight_init.shape)}.")
        self.weight = Parameter(initializer(weight_init, shape, dtype=dtype), "weight")
        if self.has_bias:
            bias_init = Uniform(bound) if bias_init is None else bias_init
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For '{name}', bias init shape error. The ndim of 'bias_init' should be equal to 1, "
                                 f"and the first dim must be equal to 'out_channels'. But got 'bias_init' shape: "
                                 f"{tuple(bias_init.shape)}, 'out_channels': {out_channels}.")
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")

    def construct(self, input1: Any, input2: Any) -> Tensor:
        name = self.cls_name
        for arg, value in (("input1", input1), ("input2", input2)):
            if not isinstance(value, (Tensor, tf.Tensor, tf.Variable)):
                raise TypeError(f"For '{name}', the '{arg}' must be 'Tensor', but got '{type(value).__name__}'.")
        a, b = to_tf(input1), to_tf(input2)
        for arg, v, want in (("input1", a, self.in1_channels), ("input2", b, self.in2_channels)):
            if v.shape[-1] is not None and v.shape[-1] != want:
                raise ValueError(f"For '{name}', the last dimension of '{arg}' must be equal to {want}, but got "
                                 f"{v.shape[-1]}.")
        if a.shape[:-1] != b.shape[:-1]:
            raise ValueError(f"For '{name}', the inputs must have the same leading shape, but got "
                             f"{tuple(a.shape.as_list())} and {tuple(b.shape.as_list())}.")
        dt = compute_dtype(self, a, self.weight._var.dtype)
        a, b = cast_to(a, dt), cast_to(b, dt)
        y = tf.einsum("...i,oij,...j->...o", a, read_param(self.weight, dt), b)
        if self.has_bias:
            y = y + read_param(self.bias, dt)
        return _wrap(y)

    def extend_repr(self) -> str:
        s = f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s

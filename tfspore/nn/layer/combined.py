"""Fused-block Cells: ``Conv2dBnAct`` (Conv2d, optional BatchNorm2d, optional activation) and
``DenseBnAct`` (Dense, optional BatchNorm1d, optional activation).

The children are named ``conv`` / ``dense``, ``batchnorm`` and ``activation`` as in MindSpore, so
the Parameters are ``conv.weight``, ``batchnorm.gamma``, ``batchnorm.moving_mean``, ... and
checkpoints map one to one. ``after_fake`` (a quantization-aware-training flag) is validated and
kept, with no effect, as in MindSpore's float network.

Example:
    >>> from tfspore import nn
    >>> [p.name for p in nn.Conv2dBnAct(3, 8, 3, has_bn=True).get_parameters()][:2]
    ['conv.weight', 'batchnorm.moving_mean']
"""
from __future__ import annotations

from typing import Any

from tfspore._internal import validator
from tfspore.nn.cell import Cell
from tfspore.nn.layer.activation import LeakyReLU, get_activation
from tfspore.nn.layer.basic import Dense
from tfspore.nn.layer.conv import Conv2d
from tfspore.nn.layer.normalization import BatchNorm1d, BatchNorm2d
from tfspore.ops.primitive import Primitive

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _make_activation(cls_name: str, activation: Any, alpha: float) -> Any:
    """The activation child: ``'leakyrelu'`` takes ``alpha``; other names go through ``get_activation``."""
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(act, (Cell, Primitive)):
        raise TypeError(f"For '{cls_name}', the 'activation' must be str or Cell or Primitive, but got "
                        f"{type(activation).__name__}.")
    return act


class _BnAct(Cell):
    """The shared forward: the main layer, then batch norm and activation where configured."""

    def _setup_tail(self, has_bn: bool, after_fake: bool, activation: Any) -> None:
        self.has_bn = validator.check_bool(has_bn, "has_bn", self.cls_name)
        self.has_act = activation is not None
        self.after_fake = validator.check_bool(after_fake, "after_fake", self.cls_name)

    def _tail(self, x: Any) -> Any:
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class Conv2dBnAct(_BnAct):
    """A ``Conv2d`` followed by an optional ``BatchNorm2d`` and an optional activation.

    Args:
        in_channels: input channels.
        out_channels: output channels.
        kernel_size: an int or a pair of ints.
        stride: an int or a pair of ints.
        pad_mode: 'same', 'valid' or 'pad'.
        padding: the explicit padding for 'pad'.
        dilation: an int or a pair of ints.
        group: the number of channel groups.
        has_bias: whether the convolution has a bias.
        weight_init: the convolution weight initializer.
        bias_init: the convolution bias initializer.
        has_bn: whether a ``BatchNorm2d`` follows.
        momentum: the batch norm momentum.
        eps: the batch norm epsilon.
        activation: an activation name, Cell or Primitive, or None.
        alpha: the negative slope when ``activation`` is ``'leakyrelu'``.
        after_fake: kept for quantization-aware training; no effect here.

    Inputs:
        x: a Tensor of shape ``(N, C_in, H, W)``.

    Outputs:
        A Tensor of shape ``(N, C_out, H_out, W_out)``.

    Raises:
        TypeError: when ``has_bn`` or ``after_fake`` is not a bool, or ``activation`` is not a str, Cell or
            Primitive.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> Conv2dBnAct(3, 8, 3, has_bn=True, activation='relu')(Tensor(np.ones((1, 3, 8, 8), np.float32))).shape
        (1, 8, 8, 8)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, pad_mode: str = "same",
                 padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = "normal", bias_init: Any = "zeros", has_bn: bool = False, momentum: float = 0.997,
                 eps: float = 1e-5, activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        self._setup_tail(has_bn, after_fake, activation)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _make_activation(self.cls_name, activation, alpha)

    def construct(self, x: Any) -> Any:
        return self._tail(self.conv(x))


class DenseBnAct(_BnAct):
    """A ``Dense`` followed by an optional ``BatchNorm1d`` and an optional activation.

    Args:
        in_channels: input features.
        out_channels: output features.
        weight_init: the weight initializer.
        bias_init: the bias initializer.
        has_bias: whether the dense layer has a bias.
        has_bn: whether a ``BatchNorm1d`` follows.
        momentum: the batch norm momentum.
        eps: the batch norm epsilon.
        activation: an activation name, Cell or Primitive, or None.
        alpha: the negative slope when ``activation`` is ``'leakyrelu'``.
        after_fake: kept for quantization-aware training; no effect here.

    Inputs:
        x: a Tensor of shape ``(N, in_channels)``.

    Outputs:
        A Tensor of shape ``(N, out_channels)``.

    Raises:
        TypeError: when ``has_bn`` or ``after_fake`` is not a bool, or ``activation`` is not a str, Cell or
            Primitive.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> DenseBnAct(4, 2, activation='relu')(Tensor(np.ones((3, 4), np.float32))).shape
        (3, 2)
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bias: bool = True, has_bn: bool = False, momentum: float = 0.9, eps: float = 1e-5,
                 activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self._setup_tail(has_bn, after_fake, activation)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _make_activation(self.cls_name, activation, alpha)

    def construct(self, x: Any) -> Any:
        return self._tail(self.dense(x))

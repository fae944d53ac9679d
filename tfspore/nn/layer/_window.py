"""Window-size checks of the pooling and convolution layers.

A window larger than its (padded) input makes TensorFlow's oneDNN max pooling kernels divide by
zero (SIGFPE kills the process), and the average-pooling, LP-pooling and transposed-convolution
kernels return empty tensors. The layers call these checks with static shapes, at call time in
PYNATIVE mode and at trace time in GRAPH mode, and raise ``ValueError`` naming the layer, the
input shape and the output shape, as MindSpore's shape inference does.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import tensorflow as tf


def _shape(x: Any) -> tuple:
    shape = x.shape if hasattr(x, "shape") else x
    if isinstance(shape, tf.TensorShape):
        return tuple(shape.as_list()) if shape.rank is not None else ()
    if not isinstance(shape, (tuple, list)):  # a traced tfspore Tensor of unknown rank: its shape is a Tensor
        return ()
    # While a graph is traced, a tfspore Tensor's unknown dimensions are scalar Tensors: unknown here.
    return tuple(int(d) if isinstance(d, (int, np.integer)) else None for d in shape)


def window_out(n: int | None, k: int, s: int = 1, d: int = 1, pad: int = 0) -> int | None:
    """Output length of a VALID window over ``n`` (+ ``pad``) elements; None when ``n`` is unknown."""
    if n is None:
        return None
    return (n + pad - d * (k - 1) - 1) // s + 1


def raise_empty(name: str, x: Any, out: Sequence[Any], kernel: Any, stride: Any, err: type = ValueError) -> None:
    """Raise ``err`` naming ``name``, the input shape and the output shape ``out``."""
    raise err(f"For '{name}', the each element of the output shape must be larger than 0, but got output shape: "
              f"{tuple(out)}. The input shape: {_shape(x)}, kernel size: {tuple(kernel)}, strides: "
              f"{tuple(stride)}.")


def check_window(name: str, x: Any, spatial: Sequence[int | None], kernel: Sequence[int],
                 stride: Sequence[int] | None = None, dilation: Sequence[int] | None = None,
                 pads: Sequence[int] | None = None, lead: Sequence[Any] = (), err: type = ValueError) -> None:
    """Raise when a VALID window (after ``pads``, the summed padding per axis) yields no output.

    Args:
        name: the layer, for the message.
        x: the input tensor (its shape goes in the message).
        spatial: the input's spatial lengths (None where unknown: not checked).
        kernel: the window size per spatial axis.
        stride: the strides per axis (default 1).
        dilation: the dilations per axis (default 1).
        pads: the total padding per axis (default 0).
        lead: the leading (batch, channel) dimensions, for the output shape in the message.
        err: the exception type.
    """
    nd = len(kernel)
    stride = tuple(stride) if stride is not None else (1,) * nd
    dilation = tuple(dilation) if dilation is not None else (1,) * nd
    pads = tuple(pads) if pads is not None else (0,) * nd
    outs = [window_out(n, k, s, d, p) for n, k, s, d, p in zip(spatial, kernel, stride, dilation, pads)]
    if any(o is not None and o <= 0 for o in outs):
        raise_empty(name, x, (*lead, *(max(o, 0) if o is not None else None for o in outs)), kernel, stride, err)


def check_nonempty(name: str, x: Any, y: Any, kernel: Any, stride: Any, first_spatial: int = 2,
                   err: type = ValueError) -> None:
    """Raise when the static spatial shape of a result ``y`` has a zero (from a non-empty input ``x``)."""
    ys, xs = _shape(y), _shape(x)
    if any(d == 0 for d in xs if d is not None):
        return
    if any(d == 0 for d in ys[first_spatial:] if d is not None):
        raise_empty(name, x, ys, kernel, stride, err)

"""The layout-changing Primitives of ``mindspore.ops.operations.array_ops``: padding, resizing, ``Im2Col``,
``SpaceToDepth`` / ``DepthToSpace`` and ``ReverseSequence``.

MindSpore's import path for them is ``tfspore.ops.operations.array_ops`` (and ``tfspore.ops``).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import array_func as A
from tfspore.ops.function._utils import to_tf
from tfspore.ops.primitive import Primitive, prim_attr_register


class Padding(Primitive):
    """Pad the last dimension of a ``(..., 1)`` tensor with zeros to ``pad_dim_size``.

    Args:
        pad_dim_size: the new size of the last dimension.
    """

    @prim_attr_register
    def __init__(self, pad_dim_size: int = 8) -> None:
        V.check_positive_int(pad_dim_size, "pad_dim_size", "Padding")

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, "Padding", "x")
        r = t.shape.rank
        return _wrap(tf.pad(t, [[0, 0]] * (r - 1) + [[0, self.pad_dim_size - 1]]))


class ResizeNearestNeighbor(Primitive):
    """Nearest-neighbour resize of an NCHW tensor to ``size``.

    Args:
        size: ``(new_height, new_width)``.
        align_corners: align corner pixels.
        half_pixel_centers: sample at pixel centres.
    """

    @prim_attr_register
    def __init__(self, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        V.check_int_tuple(size, "size", "ResizeNearestNeighbor")

    def __call__(self, input_x: Any) -> Tensor:
        t = to_tf(input_x, "ResizeNearestNeighbor", "input_x")
        y = tf.compat.v1.image.resize_nearest_neighbor(tf.transpose(t, [0, 2, 3, 1]), list(self.size),
                                                       align_corners=self.align_corners,
                                                       half_pixel_centers=self.half_pixel_centers)
        return _wrap(tf.transpose(y, [0, 3, 1, 2]))


class Im2Col(Primitive):
    """Extract sliding ``ksizes`` patches of an NCHW tensor into columns ``(N, C * kh * kw, L)``.

    Args:
        ksizes: the kernel size.
        strides: the strides.
        dilations: the dilations.
        pads: the zero padding (int or 2-tuple).
    """

    @prim_attr_register
    def __init__(self, ksizes: Any, strides: Any = 1, dilations: Any = 1, pads: Any = 0) -> None:
        pass

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, "Im2Col", "x")
        pair = lambda v: (v, v) if isinstance(v, int) else tuple(v)  # noqa: E731
        k, s, d, p = pair(self.ksizes), pair(self.strides), pair(self.dilations), pair(self.pads)
        t = tf.pad(t, [[0, 0], [0, 0], [p[0], p[0]], [p[1], p[1]]])
        n, c = tf.shape(t)[0], tf.shape(t)[1]
        pt = tf.image.extract_patches(tf.transpose(t, [0, 2, 3, 1]), [1, k[0], k[1], 1], [1, s[0], s[1], 1],
                                      [1, d[0], d[1], 1], "VALID")
        oh, ow = tf.shape(pt)[1], tf.shape(pt)[2]
        pt = tf.reshape(pt, tf.stack([n, oh * ow, k[0] * k[1], c]))
        return _wrap(tf.reshape(tf.transpose(pt, [0, 3, 2, 1]), tf.stack([n, c * k[0] * k[1], oh * ow])))


class _BlockRearrange(Primitive):
    """``tf.nn.space_to_depth`` or ``depth_to_space`` (``_tf_fn``) of an NCHW tensor."""

    _tf_fn: Any = None

    @prim_attr_register
    def __init__(self, block_size: int) -> None:
        V.check_positive_int(block_size, "block_size", self.name)

    def __call__(self, x: Any) -> Tensor:
        t = tf.transpose(to_tf(x, self.name, "x"), [0, 2, 3, 1])
        return _wrap(tf.transpose(self._tf_fn(t, self.block_size), [0, 3, 1, 2]))


class SpaceToDepth(_BlockRearrange):
    """Move ``block_size`` x ``block_size`` spatial blocks of an NCHW tensor into channels.

    Args:
        block_size: the block size.
    """

    _tf_fn = staticmethod(tf.nn.space_to_depth)


class DepthToSpace(_BlockRearrange):
    """Move channels of an NCHW tensor into ``block_size`` x ``block_size`` spatial blocks.

    Args:
        block_size: the block size.
    """

    _tf_fn = staticmethod(tf.nn.depth_to_space)


class ReverseSequence(Primitive):
    """Reverse variable-length prefixes along ``seq_dim``.

    Args:
        seq_dim: the sequence dimension.
        batch_dim: the batch dimension.
    """

    @prim_attr_register
    def __init__(self, seq_dim: int, batch_dim: int = 0) -> None:
        pass

    def __call__(self, x: Any, seq_lengths: Any) -> Tensor:
        return A.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)

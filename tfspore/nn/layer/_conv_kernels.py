"""The convolution kernels behind the conv layers: channels-first data, MindSpore's weight layouts.

2-D convolutions run on NCHW data directly on GPUs; on CPUs the data is transposed to
channels-last and back, which is faster than oneDNN's NCHW kernels (``tfspore.ops.function._layout``
probes which kernels take NCHW; ``TFSPORE_NCHW`` forces the choice). CPUs without oneDNN also lack
grouped-convolution gradients and dilated 3-D convolutions, so there the groups are split (or
run as a depthwise convolution) and the filters dilated with zeros.

Off GPU, float16 convolutions compute in float32 between casts (``kernel_dtype``): TensorFlow's
float16 CPU kernels are up to 1,000x slower (the filter gradient), and MindSpore's CPU build computes
them in float32 too. The casts sit next to the NHWC kernel, inside the layout transposes, so the
transpose pair between consecutive layers still cancels.
"""
from __future__ import annotations

import os
from typing import Any, Sequence

import tensorflow as tf

from tfspore.nn.layer._utils import cast_to
from tfspore.ops.function.kernel_dtype import kernel_dtype
from tfspore._internal.layout import TO_NCHW, gpu_visible, nchw_supported, to_nhwc, transposed_from

__all__ = []


def _dilate_filter(filt: tf.Tensor, dilation: Sequence[int]) -> tf.Tensor:
    """Insert zeros into a spatial-first filter (``(*k, in, out)``) so that a dilation-1 convolution equals
    the dilated one.

    Used on CPUs without oneDNN, whose TensorFlow kernels neither run dilated 3-D convolutions nor
    differentiate dilated 2-D ones.
    """
    for axis, d in enumerate(dilation):
        if d <= 1:
            continue
        k = filt.shape[axis]
        rest = filt.shape.as_list()
        expanded = tf.expand_dims(filt, axis + 1)
        pads = [[0, 0]] * (len(rest) + 1)
        pads[axis + 1] = [0, d - 1]
        merged = tf.reshape(tf.pad(expanded, pads), rest[:axis] + [k * d] + rest[axis + 1:])
        filt = tf.gather(merged, tf.range((k - 1) * d + 1), axis=axis)
    return filt


def _native_cpu_kernels() -> bool:
    """Whether this CPU build runs grouped and dilated convolutions (oneDNN) or a GPU is in use."""
    return gpu_visible() or nchw_supported("conv")


def _direct_nchw_conv() -> bool:
    """Whether 2-D convolutions run on NCHW data directly: on GPUs, or where ``TFSPORE_NCHW`` asks.

    oneDNN's CPU kernels accept NCHW too, but (forward and both gradients) they measure about
    1.3x slower than transposing to NHWC, convolving and transposing back (``bench/``).
    """
    if os.environ.get("TFSPORE_NCHW") is not None:
        return nchw_supported("conv")
    return gpu_visible()


def _spatial_pad(x: tf.Tensor, pads: Sequence[tuple[int, int]]) -> tf.Tensor:
    """Zero-pad the trailing spatial dims of a channels-first tensor."""
    if not any(lo or hi for lo, hi in pads):
        return x
    if len(pads) == 2:
        # The NCHW transpose of the previous layer's NHWC output: pad that tensor, so the transpose
        # pair between the layers still cancels in the convolution's to_nhwc.
        src = transposed_from(x, TO_NCHW)
        if src is not None:
            return tf.transpose(tf.pad(src, [[0, 0]] + [list(p) for p in pads] + [[0, 0]]), TO_NCHW)
    return tf.pad(x, [[0, 0], [0, 0]] + [list(p) for p in pads])


def conv2d_nchw(x: tf.Tensor, w: tf.Tensor, stride: tuple, dilation: tuple, padding: Any, group: int) -> tf.Tensor:
    """2-D convolution of NCHW ``x`` with weight ``(out, in/group, kh, kw)``.

    Args:
        x: the input.
        w: the weight.
        stride: ``(sh, sw)``.
        dilation: ``(dh, dw)``.
        padding: ``'SAME'``, ``'VALID'`` or ``((top, bottom), (left, right))``.
        group: the number of groups.

    Returns:
        The NCHW output.
    """
    if not isinstance(padding, str):
        x = _spatial_pad(x, padding)
        padding = "VALID"
    low = x.dtype
    cdt = kernel_dtype(low)
    filt = tf.transpose(cast_to(w, cdt), [2, 3, 1, 0])
    sh, sw = stride
    dh, dw = dilation
    if _direct_nchw_conv():
        return cast_to(tf.nn.conv2d(cast_to(x, cdt), filt, [1, 1, sh, sw], padding, data_format="NCHW",
                                    dilations=[1, 1, dh, dw]), low)
    native = _native_cpu_kernels()
    if group > 1 and not native:
        cin = x.shape[1]
        if group == cin and sh == sw:
            # depthwise: TensorFlow's depthwise kernel has CPU gradients
            mult = w.shape[0] // cin
            dfilt = tf.transpose(tf.reshape(cast_to(w, cdt), [cin, mult, w.shape[2], w.shape[3]]), [2, 3, 0, 1])
            y = tf.nn.depthwise_conv2d(cast_to(to_nhwc(x), cdt), dfilt, [1, sh, sw, 1], padding,
                                       dilations=[dh, dw])
            return tf.transpose(cast_to(y, low), TO_NCHW)
        xs = tf.split(x, group, axis=1)
        ws = tf.split(w, group, axis=0)
        return tf.concat([conv2d_nchw(a, b, stride, dilation, padding, 1) for a, b in zip(xs, ws)], axis=1)
    if not native and (dh > 1 or dw > 1):
        filt = _dilate_filter(filt, (dh, dw))
        dh = dw = 1
    y = tf.nn.conv2d(cast_to(to_nhwc(x), cdt), filt, [1, sh, sw, 1], padding, dilations=[1, dh, dw, 1])
    return tf.transpose(cast_to(y, low), TO_NCHW)


def conv3d_ncdhw(x: tf.Tensor, w: tf.Tensor, stride: tuple, dilation: tuple, padding: Any, group: int) -> tf.Tensor:
    """3-D convolution of NCDHW ``x`` with weight ``(out, in/group, kd, kh, kw)`` (groups split)."""
    if not isinstance(padding, str):
        x = _spatial_pad(x, padding)
        padding = "VALID"
    if group > 1:
        xs = tf.split(x, group, axis=1)
        ws = tf.split(w, group, axis=0)
        return tf.concat([conv3d_ncdhw(a, b, stride, dilation, padding, 1) for a, b in zip(xs, ws)], axis=1)
    if gpu_visible():
        return tf.nn.conv3d(x, tf.transpose(w, [2, 3, 4, 1, 0]), [1, 1, *stride], padding, data_format="NCDHW",
                            dilations=[1, 1, *dilation])
    low = x.dtype
    cdt = kernel_dtype(low)
    filt = tf.transpose(cast_to(w, cdt), [2, 3, 4, 1, 0])
    if not _native_cpu_kernels() and max(dilation) > 1:
        filt = _dilate_filter(filt, dilation)
        dilation = (1, 1, 1)
    y = tf.nn.conv3d(cast_to(tf.transpose(x, [0, 2, 3, 4, 1]), cdt), filt, [1, *stride, 1], padding,
                     dilations=[1, *dilation, 1])
    return tf.transpose(cast_to(y, low), [0, 4, 1, 2, 3])


def conv2d_transpose_nchw(x: tf.Tensor, w: tf.Tensor, out_hw: tuple, stride: tuple, dilation: tuple,
                          padding: Any, group: int) -> tf.Tensor:
    """Transposed 2-D convolution (the input gradient of a convolution) of NCHW ``x``.

    Args:
        x: the input ``(N, C_in, H, W)``.
        w: the weight ``(C_in, C_out/group, kh, kw)``.
        out_hw: the output spatial size.
        stride: ``(sh, sw)``.
        dilation: ``(dh, dw)``.
        padding: ``'SAME'``, ``'VALID'`` or ``((top, bottom), (left, right))``: the padding of the
            forward convolution whose input gradient this is.
        group: the number of groups.

    Returns:
        The NCHW output ``(N, C_out, *out_hw)``.
    """
    if group > 1:
        xs = tf.split(x, group, axis=1)
        ws = tf.split(w, group, axis=0)
        return tf.concat([conv2d_transpose_nchw(a, b, out_hw, stride, dilation, padding, 1)
                          for a, b in zip(xs, ws)], axis=1)
    crop = None
    oh, ow = out_hw
    if not isinstance(padding, str):
        (pt, pb), (pl, pr) = padding
        crop = (pt, pl)
        oh, ow = oh + pt + pb, ow + pl + pr
        padding = "VALID"
    low = x.dtype
    cdt = kernel_dtype(low)
    filt = tf.transpose(cast_to(w, cdt), [2, 3, 1, 0])  # (kh, kw, out, in)
    n = tf.shape(x)[0]
    cout = w.shape[1]
    sh, sw = stride
    dh, dw = dilation
    if nchw_supported("conv_transpose"):
        y = cast_to(tf.nn.conv2d_transpose(cast_to(x, cdt), filt, tf.stack([n, cout, oh, ow]), [1, 1, sh, sw],
                                           padding, data_format="NCHW", dilations=[1, 1, dh, dw]), low)
    else:
        if not _native_cpu_kernels() and (dh > 1 or dw > 1):
            filt = _dilate_filter(filt, (dh, dw))
            dh = dw = 1
        y = tf.nn.conv2d_transpose(cast_to(tf.transpose(x, [0, 2, 3, 1]), cdt), filt,
                                   tf.stack([n, oh, ow, cout]), [1, sh, sw, 1], padding, dilations=[1, dh, dw, 1])
        y = tf.transpose(cast_to(y, low), [0, 3, 1, 2])
    if crop is not None:
        y = y[:, :, crop[0]:crop[0] + out_hw[0], crop[1]:crop[1] + out_hw[1]]
    return y


def deconv_length(pad_mode: str, size: int, kernel: int, stride: int, dilation: int, pad_sum: int) -> int:
    """MindSpore's output length of a transposed convolution."""
    k = kernel + (kernel - 1) * (dilation - 1)
    if pad_mode == "valid":
        return size * stride + max(k - stride, 0)
    if pad_mode == "same":
        return size * stride
    return size * stride - pad_sum + k - stride


def add_bias(y: tf.Tensor, bias: tf.Tensor) -> tf.Tensor:
    """``y`` (channels-first) plus the per-channel ``bias``. When ``y`` is the NCHW transpose of a channels-last
    convolution output, the bias is added to that tensor and the transpose moves after it, so the transpose
    pair between this layer and the next still cancels."""
    if y.shape.rank == 4:
        src = transposed_from(y, TO_NCHW)
        if src is not None:
            return tf.transpose(tf.nn.bias_add(src, bias), TO_NCHW)
    return y + tf.reshape(bias, [1, -1] + [1] * (y.shape.rank - 2))

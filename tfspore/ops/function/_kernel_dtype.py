"""The precision that float16 convolutions and matrix products compute in on this machine.

On GPUs TensorFlow's float16 kernels are fast and they compute in float16. On CPUs several of them
are pathologically slow (measured on an x86 CPU with AVX512_FP16, TensorFlow 2.21, see
``docs/differences.md``, "float16 convolutions and matrix products on CPU"):

- the filter gradient of a float16 convolution (``Conv2DBackpropFilter``) runs oneDNN's scalar
  reference kernel, 100x to 1,000x slower than float32; float16 3-D, depthwise and transposed
  convolutions are 15x to 100x slower, and even the float16 forward convolution is 2-3x slower;
- a float16 ``MatMul`` followed by a bias addition is fused by Grappler's remapper into a
  ``_FusedMatMul`` whose float16 CPU kernel is about 300x-900x slower than the unfused ops.

MindSpore's CPU build has float32 kernels for these operators only: it runs a float16 convolution or
matrix product in float32 between casts, so the result is the float32 result rounded to float16.
The ops here do the same off GPU, which keeps MindSpore's numbers and TensorFlow's fast kernels.
"""
from __future__ import annotations

import tensorflow as tf

from tfspore.ops.function._layout import gpu_visible

__all__ = []


def kernel_dtype(dtype: tf.DType) -> tf.DType:
    """The dtype a convolution or matrix product of ``dtype`` data computes in here.

    Args:
        dtype: the dtype of the data.

    Returns:
        float32 for float16 data off GPU, else ``dtype``.
    """
    if dtype == tf.float16 and not gpu_visible():
        return tf.float32
    return dtype


def kernel_operand(t: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    """``t`` cast to ``dtype`` (the :func:`kernel_dtype`) for a kernel's input.

    When ``t`` is, in the graph being traced, a cast of a ``dtype`` tensor (a float32 parameter
    that the mixed-precision casts read as float16), that tensor is used as it is: the cast pair
    would only round it to float16 and cost two casts forward and two backward, which for a large
    weight (VGG16's 102M-parameter classifier) take longer than the product itself.

    Args:
        t: the operand.
        dtype: the dtype the kernel computes in.

    Returns:
        The operand in ``dtype``.
    """
    if t.dtype == dtype:
        return t
    if not tf.executing_eagerly() and isinstance(t, tf.Tensor) and hasattr(t, "op"):
        op = t.op
        if (op.type == "Cast" and op.inputs[0].dtype == dtype
                and op.graph is tf.compat.v1.get_default_graph()):
            return op.inputs[0]
    return tf.cast(t, dtype)


def fast_matmul(a: tf.Tensor, b: tf.Tensor, transpose_a: bool = False, transpose_b: bool = False) -> tf.Tensor:
    """``tf.linalg.matmul`` computed in :func:`kernel_dtype` of ``a``'s dtype, returned in that dtype.

    Args:
        a: the left operand.
        b: the right operand (``a``'s dtype).
        transpose_a: transpose the last two axes of ``a`` first.
        transpose_b: transpose the last two axes of ``b`` first.

    Returns:
        The product, in ``a``'s dtype.
    """
    low = a.dtype
    cdt = kernel_dtype(low)
    if cdt == low:
        return tf.linalg.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)
    y = tf.linalg.matmul(kernel_operand(a, cdt), kernel_operand(b, cdt), transpose_a=transpose_a,
                         transpose_b=transpose_b)
    return tf.cast(y, low)

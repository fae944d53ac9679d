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

``TFSPORE_CPU_FLOAT16=bfloat16`` runs them in bfloat16 instead: 4-5x faster than float32 for
convolutions on CPUs with AVX512_BF16 / AMX, but with bfloat16's 8-bit mantissa, so the numbers are
no longer MindSpore's float16 ones (an opt-in; read once, at the first convolution or product).
"""
from __future__ import annotations

import os

import tensorflow as tf

from tfspore._internal.layout import gpu_visible

__all__ = []


def kernel_dtype(dtype: tf.DType) -> tf.DType:
    """The dtype a convolution or matrix product of ``dtype`` data computes in here.

    Args:
        dtype: the dtype of the data.

    Returns:
        float32 (or bfloat16, see the module docstring) for float16 data off GPU, else ``dtype``.
    """
    if dtype == tf.float16 and not gpu_visible():
        return _cpu_float16_kernel_dtype()
    return dtype


_CPU_DTYPE: list = []


def _cpu_float16_kernel_dtype() -> tf.DType:
    """float32, or bfloat16 where ``TFSPORE_CPU_FLOAT16=bfloat16`` asks (read once)."""
    if not _CPU_DTYPE:
        choice = os.environ.get("TFSPORE_CPU_FLOAT16", "float32").strip().lower()
        if choice not in ("float32", "bfloat16"):
            raise ValueError(f"The environment variable 'TFSPORE_CPU_FLOAT16' must be 'float32' or 'bfloat16', "
                             f"but got {choice!r}.")
        _CPU_DTYPE.append(tf.bfloat16 if choice == "bfloat16" else tf.float32)
    return _CPU_DTYPE[0]


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
    if cdt == low or b.dtype != low:
        return tf.linalg.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)
    y = tf.linalg.matmul(tf.cast(a, cdt), tf.cast(b, cdt), transpose_a=transpose_a, transpose_b=transpose_b)
    return tf.cast(y, low)


def float32_for_half(fn, t: tf.Tensor) -> tf.Tensor:
    """``fn(t)`` computed in float32 for float16 or bfloat16 ``t``, rounded once to ``t``'s dtype.

    For the composite activations (GELU, FastGeLU, LogSoftmax, Softplus): MindSpore's CPU kernels
    compute them in float32 for float16 data, so their float16 results are the float32 ones
    rounded (the tanh GELU of float16 data within 2 float16 ulps of the exact value). The same
    formula evaluated op by op in float16 rounds after every op: ``1 + tanh(z)`` near ``z = -3``
    cancels, and the tanh GELU of float16 data was off by up to 4% of the value.

    Args:
        fn: the function of one float tensor.
        t: its input.

    Returns:
        ``fn(t)`` in ``t``'s dtype.
    """
    if t.dtype in (tf.float16, tf.bfloat16):
        return tf.cast(fn(tf.cast(t, tf.float32)), t.dtype)
    return fn(t)

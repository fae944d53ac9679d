"""Pooling layers: ``MaxPool2d`` and ``AvgPool2d`` over NCHW input.

``pad_mode`` 'valid' and 'same' map to TensorFlow's VALID and SAME pooling (SAME average pooling
excludes the padding, as MindSpore's does). 'pad' takes an explicit ``padding`` and ``ceil_mode``
(and ``count_include_pad``/``divisor_override`` for average pooling). TensorFlow's CPU pooling
kernels need NHWC, so off GPU the op transposes around the pool.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.MaxPool2d(kernel_size=2, stride=2)(Tensor(np.ones((1, 3, 8, 8), np.float32))).shape
    (1, 3, 4, 4)
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf

from tfspore import context as _context
from tfspore.common.tensor import Tensor, _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer import _checkparam as validator
from tfspore.nn.layer._utils import cast_to, compute_dtype, nchw_native, to_tf

__all__ = ["MaxPool2d", "AvgPool2d"]


def _pair(v: Any) -> tuple[int, int]:
    return (v, v) if isinstance(v, numbers.Integral) else (v[0], v[1]) if len(v) == 2 else (v[0], v[0])


class _PoolNd(Cell):
    """Shared validation and printing of the pooling layers."""

    def __init__(self, kernel_size: Any, stride: Any, pad_mode: str, data_format: str = "NCHW") -> None:
        super().__init__()
        validator.check_value_type(pad_mode, [str], "pad_mode", self.cls_name)
        self.pad_mode = validator.check_string(pad_mode.upper(), ["VALID", "SAME", "PAD"], "pad_mode", self.cls_name)
        self.format = validator.check_string(data_format, ["NCHW", "NHWC"], "format", self.cls_name)
        target = _context.get_context("device_target")
        if target != "GPU" and self.format == "NHWC":
            raise ValueError(f"For '{self.cls_name}, the 'NHWC' format only support in GPU target, but got device "
                             f"target {target}.")
        self.kernel_size = self._check_int_or_tuple("kernel_size", kernel_size)
        self.stride = self._check_int_or_tuple("stride", stride)

    def _check_int_or_tuple(self, arg_name: str, value: Any) -> Any:
        validator.check_value_type(value, [int, tuple], arg_name, self.cls_name)
        msg = f"For '{self.cls_name}', the '{arg_name}' must be an positive int number or a tuple, but got {value}"
        if isinstance(value, int):
            if value <= 0:
                raise ValueError(msg)
            return value
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int) or item <= 0:
                raise ValueError(msg)
        if len(value) == 1:
            return value[0]
        if len(value) != 2:
            raise ValueError(f"For '{self.cls_name}', the '{arg_name}' must be an positive int number or a tuple of "
                             f"two positive int numbers, but got {value}")
        return value

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"

    # -------------------------------------------------------------- helpers
    def _explicit_pads(self, padding: Any) -> tuple[int, int]:
        validator.check_value_type(padding, [int, tuple, list], "padding", self.cls_name)
        if isinstance(padding, int):
            validator.check_non_negative_int(padding, "padding", self.cls_name)
            return padding, padding
        for p in padding:
            validator.check_non_negative_int(p, "padding", self.cls_name)
        if len(padding) == 1:
            return padding[0], padding[0]
        if len(padding) != 2:
            raise ValueError(f"For {self.cls_name}, the padding must be a int or tuple/list contains 1 or 2 int, but "
                             f"got tuple/list with length:{len(padding)}.")
        return padding[0], padding[1]

    @staticmethod
    def _out_size(size: int, k: int, s: int, p: int, ceil_mode: bool) -> int:
        num = size + 2 * p - k
        out = (-(-num // s) if ceil_mode else num // s) + 1
        if ceil_mode and (out - 1) * s >= size + p:
            out -= 1
        return out

    def _extra_pads(self, v: tf.Tensor, ceil_mode: bool) -> list[tuple[int, int]]:
        """Per spatial dim ``(before, after)`` padding for 'pad' mode, given an NHWC input."""
        kh, kw = _pair(self.kernel_size)
        sh, sw = _pair(self.stride)
        out = []
        for size, k, s, p in ((v.shape[1], kh, sh, self._pads[0]), (v.shape[2], kw, sw, self._pads[1])):
            if size is None:
                raise ValueError(f"For '{self.cls_name}', pad_mode 'pad' needs static spatial dims.")
            o = self._out_size(size, k, s, p, ceil_mode)
            after = max((o - 1) * s + k - size - p, 0)
            out.append((p, after))
        return out

    def _run_nhwc(self, v: tf.Tensor, fn: Any) -> tf.Tensor:
        """Run ``fn`` on ``v`` laid out as NHWC, whatever the layer's format and device."""
        if self.format == "NHWC":
            return fn(v, "NHWC")
        squeeze = v.shape.rank == 3
        if squeeze:
            v = v[None]
        if nchw_native() and not self._explicit:
            y = fn(v, "NCHW")
        else:
            y = tf.transpose(fn(tf.transpose(v, [0, 2, 3, 1]), "NHWC"), [0, 3, 1, 2])
        return y[0] if squeeze else y


class MaxPool2d(_PoolNd):
    """2D max pooling (MindSpore's ``nn.MaxPool2d``).

    Args:
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)``.
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'`` (case-insensitive).
        padding: with ``'pad'``, an int or ``(ph, pw)``.
        dilation: only 1 is supported.
        return_indices: not supported.
        ceil_mode: with ``'pad'``, round the output size up.
        data_format: ``'NCHW'``, or ``'NHWC'`` on GPU.

    Inputs:
        x: a Tensor of shape ``(N, C, H, W)`` or ``(C, H, W)``.

    Raises:
        ValueError: for bad sizes or modes, or non-default ``padding``/``ceil_mode`` without 'pad'.
        NotImplementedError: for ``dilation != 1`` or ``return_indices``.

    Example:
        >>> MaxPool2d(kernel_size=2, stride=2)
        MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False,
                 data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.return_indices = return_indices
        self._explicit = self.pad_mode == "PAD"
        self.ceil_mode = ceil_mode
        self.use_pad = self.pad_mode == "PAD"
        if self.use_pad:
            if self.format == "NHWC":
                raise ValueError(f"For '{self.cls_name}, the 'NHWC' format are not support when 'pad_mode' is 'pad'.")
            self._pads = self._explicit_pads(padding)
            if dilation not in (1, (1,), (1, 1)) or return_indices:
                raise NotImplementedError(f"For '{self.cls_name}', 'dilation' other than 1 and 'return_indices' are "
                                          f"not supported yet, but got dilation={dilation}, "
                                          f"return_indices={return_indices}.")
            self.padding = padding
        elif padding != 0 or dilation != 1 or return_indices or ceil_mode:
            raise ValueError(f"For MaxPool2d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' can "
                             f"not be set to non-default value when pad_mode is not 'pad', but got "
                             f"pad_mode:{pad_mode}.")

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        if v.dtype.is_floating or self._mixed_precision_type is not None:
            v = cast_to(v, compute_dtype(self, v))
        kh, kw = _pair(self.kernel_size)
        sh, sw = _pair(self.stride)

        def pool(t: tf.Tensor, layout: str) -> tf.Tensor:
            if self.use_pad:
                (pt, pb), (pl, pr) = self._extra_pads(t, self.ceil_mode)
                t = tf.pad(t, [[0, 0], [pt, pb], [pl, pr], [0, 0]], constant_values=t.dtype.min)
                return tf.nn.max_pool2d(t, [kh, kw], [sh, sw], "VALID", data_format="NHWC")
            ksize = [1, 1, kh, kw] if layout == "NCHW" else [1, kh, kw, 1]
            strides = [1, 1, sh, sw] if layout == "NCHW" else [1, sh, sw, 1]
            return tf.nn.max_pool2d(t, ksize, strides, self.pad_mode, data_format=layout)
        return _wrap(self._run_nhwc(v, pool))


class AvgPool2d(_PoolNd):
    """2D average pooling (MindSpore's ``nn.AvgPool2d``).

    Args:
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)`` (default 1).
        pad_mode: ``'valid'``, ``'same'`` (padding excluded from the average) or ``'pad'``.
        padding: with ``'pad'``, an int or ``(ph, pw)``.
        ceil_mode: round the output size up.
        count_include_pad: with ``'pad'``, count the zero padding in the divisor.
        divisor_override: a fixed divisor.
        data_format: ``'NCHW'``, or ``'NHWC'`` on GPU.

    Inputs:
        x: a Tensor of shape ``(N, C, H, W)`` or ``(C, H, W)``.

    Raises:
        ValueError: for bad sizes or modes.

    Example:
        >>> AvgPool2d(kernel_size=2)
        AvgPool2d(kernel_size=2, stride=1, pad_mode=VALID)
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None,
                 data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.is_expand = (self.pad_mode == "PAD" or padding != 0 or ceil_mode or not count_include_pad
                          or divisor_override is not None)
        self._explicit = self.is_expand
        if self.is_expand:
            if self.format == "NHWC":
                raise ValueError(f"For '{self.cls_name}, the 'NHWC' format are not support when 'pad_mode' is 'pad' or "
                                 f"'padding' is not 0 or 'ceil_mode' is not False or 'count_include_pad' is not True"
                                 f"or divisor_override is not None, but got pade_mode:{pad_mode}, padding:{padding}, "
                                 f"ceil_mode:{ceil_mode}, count_include_pad:{count_include_pad}, "
                                 f"divisor_override:{divisor_override}.")
            if divisor_override is not None and divisor_override <= 0:
                raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got "
                                 f"{divisor_override}.")
            if self.pad_mode != "PAD" and padding != 0:
                raise ValueError(f"For '{self.cls_name}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but "
                                 f"got padding={padding} and pad_mode={pad_mode}.")
            self._pads = self._explicit_pads(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        v = cast_to(v, compute_dtype(self, v))
        kh, kw = _pair(self.kernel_size)
        sh, sw = _pair(self.stride)

        def pool(t: tf.Tensor, layout: str) -> tf.Tensor:
            if not self.is_expand:
                ksize = [1, 1, kh, kw] if layout == "NCHW" else [1, kh, kw, 1]
                strides = [1, 1, sh, sw] if layout == "NCHW" else [1, sh, sw, 1]
                return tf.nn.avg_pool2d(t, ksize, strides, self.pad_mode, data_format=layout)
            (pt, pb), (pl, pr) = self._extra_pads(t, self.ceil_mode)
            h, w = t.shape[1], t.shape[2]
            padded = tf.pad(t, [[0, 0], [pt, pb], [pl, pr], [0, 0]])
            means = tf.nn.avg_pool2d(padded, [kh, kw], [sh, sw], "VALID")
            if self.divisor_override is not None:
                return means * tf.cast(kh * kw / self.divisor_override, t.dtype)
            # the divisor counts the window inside the input (plus the explicit padding if counted)
            if self.count_include_pad:
                ph, pw = self._pads
                region = tf.ones([1, pt + h + min(pb, ph), pl + w + min(pr, pw), 1], t.dtype)
                region = tf.pad(region, [[0, 0], [0, pb - min(pb, ph)], [0, pr - min(pr, pw)], [0, 0]])
            else:
                region = tf.pad(tf.ones([1, h, w, 1], t.dtype), [[0, 0], [pt, pb], [pl, pr], [0, 0]])
            return means / tf.nn.avg_pool2d(region, [kh, kw], [sh, sw], "VALID")
        return _wrap(self._run_nhwc(v, pool))

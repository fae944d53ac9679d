"""Pooling layers over channels-first input: ``MaxPool1d/2d``, ``AvgPool1d/2d``, ``AdaptiveAvgPool1d/2d``,
``AdaptiveMaxPool1d/2d``.

``pad_mode`` 'valid' and 'same' map to TensorFlow's VALID and SAME pooling (SAME max pooling pads
with -inf, SAME average pooling leaves the padding out of the divisor, as MindSpore's do). 'pad'
takes an explicit symmetric ``padding`` with PyTorch's ``ceil_mode`` rule (and ``dilation`` /
``return_indices`` for max pooling, ``count_include_pad`` / ``divisor_override`` for average
pooling). TensorFlow's CPU pooling kernels take NCHW only in some builds; elsewhere the ops
transpose to NHWC and back.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.MaxPool2d(kernel_size=2, stride=2)(Tensor(np.ones((1, 3, 8, 8), np.float32))).shape
    (1, 3, 4, 4)
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf
from tfspore.nn.layer._window import check_nonempty, check_window
from tfspore.ops.function.nn_func import avg_pool2d, max_pool2d
from tfspore._internal.layout import TO_NCHW, nchw_supported, to_nhwc
from tfspore._internal.pool_window import pooled_length
from tfspore.nn.layer._pool_args import _pair, _is_int, _check_rank  # noqa: F401
from tfspore.nn.layer._pooling_adaptive import (_adaptive_1d_check, _AdaptivePool1d, AdaptiveAvgPool1d,  # noqa: F401
                                                AdaptiveMaxPool1d, _check_output_size2, _bin_index,
                                                AdaptiveAvgPool2d, AdaptiveMaxPool2d)

__all__ = ["MaxPool2d", "MaxPool1d", "AvgPool2d", "AvgPool1d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]


def _tf_pool(kind: str, x: tf.Tensor, ksize: tuple, strides: tuple, padding: str, data_format: str) -> tf.Tensor:
    """Max or average pooling of a 4-D tensor laid out as ``data_format`` (NCHW transposed where needed)."""
    fn = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
    if data_format == "NHWC":
        return fn(x, list(ksize), list(strides), padding, data_format="NHWC")
    if nchw_supported(kind + "pool", x.dtype):
        return fn(x, [1, 1, *ksize], [1, 1, *strides], padding, data_format="NCHW")
    y = fn(to_nhwc(x), list(ksize), list(strides), padding)
    return tf.transpose(y, TO_NCHW)


def _same_pads(n: int, k: int, s: int) -> tuple[int, int, int]:
    """SAME padding ``(before, after)`` and output size for a length ``n``."""
    out = -(-n // s)
    need = max((out - 1) * s + k - n, 0)
    return need // 2, need - need // 2, out


def _avg_pool_same(x: tf.Tensor, k: tuple, s: tuple, count_include_pad: bool, divisor: int) -> tf.Tensor:
    """SAME average pooling with an explicit divisor rule (MindSpore's AvgPool3D in 'same' mode)."""
    h, w = x.shape[2], x.shape[3]
    (ht, hb, oh), (wl, wr, ow) = _same_pads(h, k[0], s[0]), _same_pads(w, k[1], s[1])
    padded = tf.pad(x, [[0, 0], [0, 0], [ht, hb], [wl, wr]])
    sums = _tf_pool("avg", padded, k, s, "VALID", "NCHW") * float(k[0] * k[1])
    if divisor:
        return sums / tf.cast(divisor, sums.dtype)

    def counts(n: int, kk: int, ss: int, lo: int, hi: int, out: int) -> np.ndarray:
        lo_b, hi_b = (-lo, n + hi) if count_include_pad else (0, n)
        return np.array([min(o * ss - lo + kk, hi_b) - max(o * ss - lo, lo_b) for o in range(out)], np.float64)
    div = np.outer(counts(h, k[0], s[0], ht, hb, oh), counts(w, k[1], s[1], wl, wr, ow))
    return sums / tf.constant(div, sums.dtype)


class _PoolNd(Cell):
    """Shared validation and printing of the pooling layers."""

    def __init__(self, kernel_size: Any, stride: Any, pad_mode: str, data_format: str = "NCHW") -> None:
        super().__init__()
        validator.check_type(pad_mode, [str], "pad_mode", self.cls_name)
        self.pad_mode = validator.check_string(pad_mode.upper(), ["VALID", "SAME", "PAD"], "pad_mode", self.cls_name)
        self.format = validator.check_string(data_format, ["NCHW", "NHWC"], "format", self.cls_name)
        target = _context.get_context("device_target")
        if target != "GPU" and self.format == "NHWC":
            raise ValueError(f"For '{self.cls_name}', the 'NHWC' format only support in GPU target, but got device "
                             f"target {target}.")
        self.kernel_size = self._check_int_or_tuple("kernel_size", kernel_size)
        self.stride = self._check_int_or_tuple("stride", stride)

    def _check_int_or_tuple(self, arg_name: str, value: Any) -> Any:
        validator.check_type(value, [int, tuple], arg_name, self.cls_name)
        msg = f"For '{self.cls_name}', the '{arg_name}' must be an positive int number or a tuple, but got {value!r}"
        if isinstance(value, int):
            if value <= 0:
                raise ValueError(msg)
            return value
        if not all(_is_int(item) and item > 0 for item in value):
            raise ValueError(msg)
        return value[0] if len(value) == 1 else value

    def _check_len2(self, arg_name: str, value: Any) -> None:
        if isinstance(value, tuple) and len(value) != 2:
            raise ValueError(f"For {self.cls_name}, the length of {arg_name} must be equal to 2, but got {len(value)}: "
                             f"{value!r}.")

    def _input(self, x: Any) -> tf.Tensor:
        v = to_tf(x)
        if v.dtype.is_floating or self._mixed_precision_type is not None:
            v = cast_to(v, compute_dtype(self, v))
        return v

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


def _maxpool_padding(name: str, padding: Any, nd: int) -> tuple[int, ...]:
    validator.check_type(padding, [int, tuple, list], "padding", name)
    if isinstance(padding, int):
        return (padding,) * nd
    for p in padding:
        validator.check_non_negative_int(p, "padding", name)
    if len(padding) == 1:
        return tuple(padding) * nd
    if len(padding) != nd:
        raise ValueError(f"For {name}, the length of padding must equal to {nd}, but got {len(padding)}: "
                         f"{padding!r}.")
    return tuple(padding)


def _maxpool_dilation(name: str, dilation: Any, nd: int) -> tuple[int, ...]:
    if _is_int(dilation):
        return (int(dilation),) * nd
    if isinstance(dilation, tuple):
        if len(dilation) == 1:
            return (dilation[0],) * nd
        if len(dilation) == nd:
            return tuple(dilation)
        raise ValueError(f"For {name}, the length of 'dilation' must be 1 or {nd}, but got {len(dilation)}: "
                         f"{dilation!r}.")
    raise ValueError(f"For {name}, the 'dilation' must be int or tuple, but got {type(dilation).__name__}: "
                     f"{dilation!r}.")


def _check_pad_vs_kernel(name: str, pads: tuple, kernel: tuple) -> None:
    for p, k in zip(pads, kernel):
        if p < 0 or 2 * p > k:
            raise ValueError(f"For '{name}', the 'padding' must be non-negative and at most half of 'kernel_size', "
                             f"but got padding={pads} and kernel_size={kernel}.")


# ----------------------------------------------------------------------------------- max pooling
class MaxPool2d(_PoolNd):
    """2-D max pooling (MindSpore's ``nn.MaxPool2d``).

    Args:
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)``.
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'`` (case-insensitive).
        padding: with ``'pad'``, an int or ``(ph, pw)`` (at most half the kernel).
        dilation: with ``'pad'``, an int or ``(dh, dw)``.
        return_indices: with ``'pad'``, also return the int64 argmax positions in each ``H * W`` plane.
        ceil_mode: with ``'pad'``, round the output size up.
        data_format: ``'NCHW'``, or ``'NHWC'`` on GPU.

    Inputs:
        x: a Tensor of shape ``(N, C, H, W)`` or ``(C, H, W)``.

    Outputs:
        The pooled Tensor, or ``(output, indices)`` with ``return_indices``.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for bad sizes or modes, or non-default ``padding``, ``dilation``,
            ``return_indices`` or ``ceil_mode`` without 'pad'.

    Example:
        >>> MaxPool2d(kernel_size=2, stride=2)
        MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False,
                 data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode
        self.use_pad = self.pad_mode == "PAD"
        if self.use_pad:
            if self.format == "NHWC":
                raise ValueError(f"For '{self.cls_name}', the 'NHWC' format are not support when 'pad_mode' is 'pad'.")
            self._check_len2("kernel_size", self.kernel_size)
            self._check_len2("stride", self.stride)
            self.padding = _maxpool_padding(self.cls_name, padding, 2)
            self._dilation = _maxpool_dilation(self.cls_name, dilation, 2)
            _check_pad_vs_kernel(self.cls_name, self.padding, _pair(self.kernel_size))
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For MaxPool2d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                                 f"can not be set to non-default value when pad_mode is not 'pad', but got "
                                 f"pad_mode:{pad_mode}, padding:{padding}, dilation:{dilation}, "
                                 f"return_indices:{return_indices}, ceil_mode:{ceil_mode}.")
            self._check_len2("kernel_size", self.kernel_size)
            self._check_len2("stride", self.stride)

    def construct(self, x: Any) -> Any:
        v = self._input(x)
        _check_rank(self.cls_name, v, (3, 4))
        k, s = _pair(self.kernel_size), _pair(self.stride)
        if self.use_pad:
            out = max_pool2d(v, k, s, self.padding, self._dilation, self.return_indices, self.ceil_mode)
            return out
        squeeze = v.shape.rank == 3
        if self.pad_mode == "VALID":  # a window larger than the input crashes oneDNN (SIGFPE)
            spatial = v.shape[-3:-1] if self.format == "NHWC" else v.shape[-2:]
            check_window(self.cls_name, v, list(spatial), k, s, lead=v.shape[:-2] if self.format != "NHWC" else ())
        if squeeze:
            v = v[None]
        y = _tf_pool("max", v, k, s, self.pad_mode, self.format)
        return _wrap(y[0] if squeeze else y)


class MaxPool1d(_PoolNd):
    """1-D max pooling over ``(N, C, L)`` or ``(C, L)`` input (MindSpore's ``nn.MaxPool1d``).

    Args:
        kernel_size: the window length (an int).
        stride: the stride (an int).
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'`` (case-insensitive).
        padding: with ``'pad'``, the padding on both sides (an int or a 1-tuple).
        dilation: with ``'pad'``, the dilation.
        return_indices: with ``'pad'``, also return the int64 argmax positions.
        ceil_mode: with ``'pad'``, round the output size up.

    Inputs:
        x: a Tensor of shape ``(N, C, L)`` or ``(C, L)``.

    Outputs:
        The pooled Tensor, or ``(output, indices)`` with ``return_indices``.

    Raises:
        TypeError: when ``kernel_size`` or ``stride`` is not an int.
        ValueError: for bad sizes or modes.

    Example:
        >>> MaxPool1d(3, 2)
        MaxPool1d(kernel_size=(1, 3), stride=(1, 2), pad_mode=VALID)
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        for arg, value in (("kernel_size", kernel_size), ("stride", stride)):
            validator.check_int(value, arg, self.cls_name)
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode
        self._k, self._s = int(kernel_size), int(stride)
        self.use_pad = self.pad_mode == "PAD"
        if self.use_pad:
            self.kernel_size = (1, 1, kernel_size)
            self.stride = (1, 1, stride)
            self.padding = _maxpool_padding(self.cls_name, padding, 1)
            self._dilation = _maxpool_dilation(self.cls_name, dilation, 1)
            _check_pad_vs_kernel(self.cls_name, self.padding, (self._k,))
        else:
            self.kernel_size = (1, kernel_size)
            self.stride = (1, stride)
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For MaxPool1d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                                 f"can not be set to non-default value when pad_mode is not 'pad', but got "
                                 f"pad_mode:{pad_mode}, padding:{padding}, dilation:{dilation}, "
                                 f"return_indices:{return_indices}, ceil_mode:{ceil_mode}.")

    def construct(self, x: Any) -> Any:
        v = self._input(x)
        _check_rank(self.cls_name, v, (2, 3))
        squeeze = v.shape.rank == 2
        if not self.use_pad and self.pad_mode == "VALID":  # a window larger than the input crashes oneDNN
            check_window(self.cls_name, v, [v.shape[-1]], (self._k,), (self._s,), lead=v.shape[:-1])
        if squeeze:
            v = v[None]
        v = v[:, :, None, :]
        if self.use_pad:
            out = max_pool2d(v, (1, self._k), (1, self._s), (0, self.padding[0]), (1, self._dilation[0]),
                                   self.return_indices, self.ceil_mode)
            outs = out if isinstance(out, tuple) else (out,)
            outs = tuple(_wrap(to_tf(o)[0, :, 0] if squeeze else to_tf(o)[:, :, 0]) for o in outs)
            return outs if self.return_indices else outs[0]
        y = _tf_pool("max", v, (1, self._k), (1, self._s), self.pad_mode, "NCHW")[:, :, 0]
        return _wrap(y[0] if squeeze else y)


# ------------------------------------------------------------------------------- average pooling
def _avg_padding(name: str, padding: Any, nd: int) -> tuple[int, ...]:
    validator.check_type(padding, [int, tuple, list], "padding", name)
    if isinstance(padding, int):
        validator.check_non_negative_int(padding, "padding", name)
        return (padding,) * nd
    for p in padding:
        validator.check_non_negative_int(p, "padding", name)
    if len(padding) == nd:
        return tuple(padding)
    if len(padding) == 1:
        return tuple(padding) * nd
    if nd == 1:
        raise ValueError(f"For {name}, the padding must be a int or tuple/list contains one int, but got tuple/list "
                         f"with length:{len(padding)}: {padding!r}.")
    raise ValueError(f"For {name}, the padding must be a int or tuple/list contains 1 or {nd} int, but got "
                     f"tuple/list with length:{len(padding)}: {padding!r}.")


class AvgPool2d(_PoolNd):
    """2-D average pooling (MindSpore's ``nn.AvgPool2d``).

    Args:
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)`` (default 1).
        pad_mode: ``'valid'``, ``'same'`` (padding excluded from the average) or ``'pad'``.
        padding: with ``'pad'``, an int or ``(ph, pw)`` (at most half the kernel).
        ceil_mode: round the output size up.
        count_include_pad: count the zero padding in the divisor.
        divisor_override: a fixed divisor (> 0).
        data_format: ``'NCHW'``, or ``'NHWC'`` on GPU.

    Inputs:
        x: a Tensor of shape ``(N, C, H, W)`` or ``(C, H, W)``.

    Raises:
        TypeError: for arguments of the wrong type.
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
        self._check_len2("kernel_size", self.kernel_size)
        self._check_len2("stride", self.stride)
        if self.is_expand:
            if self.format == "NHWC":
                raise ValueError(f"For '{self.cls_name}', the 'NHWC' format are not support when 'pad_mode' is 'pad' "
                                 f"or 'padding' is not 0 or 'ceil_mode' is not False or 'count_include_pad' is not "
                                 f"True or divisor_override is not None, but got pad_mode:{pad_mode}, "
                                 f"padding:{padding}, ceil_mode:{ceil_mode}, count_include_pad:{count_include_pad}, "
                                 f"divisor_override:{divisor_override}.")
            if divisor_override is not None and divisor_override <= 0:
                raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got "
                                 f"{divisor_override}.")
            self._pads = _avg_padding(self.cls_name, padding, 2)
            if self.pad_mode != "PAD" and any(self._pads):
                raise ValueError(f"For '{self.cls_name}', the 'padding' must be zero when 'pad_mode' is not 'pad', "
                                 f"but got padding={padding} and pad_mode={pad_mode}.")
            _check_pad_vs_kernel(self.cls_name, self._pads, _pair(self.kernel_size))
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def _pool(self, v: tf.Tensor, k: tuple, s: tuple) -> tf.Tensor:
        if not self.is_expand:
            if self.pad_mode == "VALID":
                spatial = v.shape[1:3] if self.format == "NHWC" else v.shape[2:4]
                lead = (v.shape[0], v.shape[3]) if self.format == "NHWC" else v.shape[:2]
                check_window(self.cls_name, v, list(spatial), k, s, lead=lead, err=RuntimeError)  # as MindSpore
            return _tf_pool("avg", v, k, s, self.pad_mode, self.format)
        div = self.divisor_override or 0
        if self.pad_mode != "SAME":
            pads = self._pads if len(self._pads) == 2 else (self._pads[0], self._pads[-1])
            outs = [pooled_length(n, kk, ss, pp, ceil_mode=self.ceil_mode) if n is not None else None
                    for n, kk, ss, pp in zip(v.shape[2:4], k, s, pads)]
            if any(o is not None and o <= 0 for o in outs):
                check_window(self.cls_name, v, list(v.shape[2:4]), k, s, pads=[2 * p for p in pads],
                             lead=v.shape[:2], err=RuntimeError)
        if self.pad_mode == "SAME":
            return _avg_pool_same(v, k, s, self.count_include_pad, div)
        return to_tf(avg_pool2d(v, k, s, self._pads, self.ceil_mode, self.count_include_pad, div))

    def construct(self, x: Any) -> Tensor:
        v = self._input(x)
        _check_rank(self.cls_name, v, (3, 4))
        squeeze = v.shape.rank == 3
        if squeeze:
            v = v[None]
        y = self._pool(v, _pair(self.kernel_size), _pair(self.stride))
        check_nonempty(self.cls_name, x, y, _pair(self.kernel_size), _pair(self.stride),
                       first_spatial=1 if self.format == "NHWC" else 2)
        return _wrap(y[0] if squeeze else y)


class AvgPool1d(AvgPool2d):
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)`` input (MindSpore's ``nn.AvgPool1d``).

    Args:
        kernel_size: the window length (an int).
        stride: the stride (an int).
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'``.
        padding: with ``'pad'``, the padding on both sides (an int or a 1-tuple).
        ceil_mode: round the output size up.
        count_include_pad: count the zero padding in the divisor.

    Inputs:
        x: a Tensor of shape ``(N, C, L)`` or ``(C, L)``.

    Raises:
        TypeError: when ``kernel_size`` or ``stride`` is not an int.
        ValueError: for bad sizes or modes.

    Example:
        >>> AvgPool1d(3, 2)
        AvgPool1d(kernel_size=(1, 3), stride=(1, 2), pad_mode=VALID)
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        _PoolNd.__init__(self, kernel_size, stride, pad_mode)
        validator.check_int(self.kernel_size, "kernel_size", self.cls_name)
        validator.check_int(self.stride, "stride", self.cls_name)
        self._k, self._s = int(self.kernel_size), int(self.stride)
        self.is_expand = self.pad_mode == "PAD" or padding != 0 or ceil_mode or not count_include_pad
        self.divisor_override = None
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.format = "NCHW"
        if self.is_expand:
            pads = _avg_padding(self.cls_name, padding, 1)
            if self.pad_mode != "PAD" and any(pads):
                raise ValueError(f"For '{self.cls_name}', the 'padding' must be zero when 'pad_mode' is not 'pad', "
                                 f"but got padding={padding} and pad_mode={pad_mode}.")
            _check_pad_vs_kernel(self.cls_name, pads, (self._k,))
            self._pads = (0, pads[0])
        else:
            self.kernel_size = (1, self._k)
            self.stride = (1, self._s)

    def construct(self, x: Any) -> Tensor:
        v = self._input(x)
        _check_rank(self.cls_name, v, (2, 3))
        squeeze = v.shape.rank == 2
        if squeeze:
            v = v[None]
        if self.pad_mode != "SAME" and v.shape[-1] is not None:
            pad = self._pads[1] if self.is_expand else 0
            ceil_mode = bool(getattr(self, "ceil_mode", False))
            if pooled_length(v.shape[-1], self._k, self._s, pad, ceil_mode=ceil_mode) <= 0:
                check_window(self.cls_name, v, [v.shape[-1]], (self._k,), (self._s,), pads=[2 * pad],
                             lead=v.shape[:-1])
        y = self._pool(v[:, :, None, :], (1, self._k), (1, self._s))[:, :, 0]
        check_nonempty(self.cls_name, x, y, (self._k,), (self._s,))
        return _wrap(y[0] if squeeze else y)



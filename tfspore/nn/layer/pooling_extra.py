"""More pooling layers: ``LPPool1d``, ``LPPool2d`` (power-average pooling), ``AdaptiveAvgPool3d``,
``AdaptiveMaxPool3d`` and ``MaxUnpool1d/2d/3d``.

LP pooling computes ``(sum over the window of x ** p) ** (1 / p)`` as PyTorch does: the average of
``x ** p`` over the in-bounds part of the window, times the full window size, so a partial window
of ``ceil_mode`` is scaled up. Adaptive pooling splits each axis into bins
``[floor(i * L / out), ceil((i + 1) * L / out))``; ``None`` in ``output_size`` keeps that axis.
Unpooling scatters each value to its flat index within its channel's output, zeros elsewhere.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.LPPool1d(2, 2)(Tensor(np.ones((1, 2, 4), np.float32))).asnumpy()[0, 0]
    array([1.4142135, 1.4142135], dtype=float32)
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal.pool_window import adaptive_bins, pooled_length
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.layer._window import check_nonempty, raise_empty

__all__ = ["LPPool1d", "LPPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
           "MaxUnpool3d"]


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _tuple(v: Any, n: int) -> tuple:
    return (int(v),) * n if _is_int(v) else tuple(int(i) for i in v)


def _lp_pool(name: str, x: Any, p: float, kernel: tuple, stride: tuple, ceil_mode: bool) -> tf.Tensor:
    """LP pooling of the last ``len(kernel)`` axes of a channels-first tensor."""
    v = to_tf(x)
    nd = len(kernel)
    if v.shape.rank not in (nd + 1, nd + 2):
        raise ValueError(f"For '{name}', the input must be {nd + 1}-D or {nd + 2}-D, but got rank {v.shape.rank}.")
    unbatched = v.shape.rank == nd + 1
    if unbatched:
        v = v[None]
    dims = v.shape.as_list()[2:]
    outs = [pooled_length(dims[i], kernel[i], stride[i], ceil_mode=ceil_mode) for i in range(nd)]
    if any(o is not None and o <= 0 for o in outs):
        raise_empty(name, x, (*v.shape.as_list()[:2], *(max(o, 0) for o in outs)), kernel, stride)
    backs = [max((outs[i] - 1) * stride[i] + kernel[i] - dims[i], 0) for i in range(nd)]
    powered = tf.pow(v, float(p))
    padded = tf.pad(powered, [[0, 0], [0, 0]] + [[0, b] for b in backs])
    perm = [0] + list(range(2, nd + 2)) + [1]
    sums = tf.nn.avg_pool(tf.transpose(padded, perm), list(kernel), list(stride), "VALID")
    sums = sums * float(np.prod(kernel))
    inv = [0, nd + 1] + list(range(1, nd + 1))
    sums = tf.transpose(sums, inv)
    if any(backs):  # partial windows: average over their in-bounds part, times the full window size
        counts = [np.minimum(np.arange(outs[i]) * stride[i] + kernel[i], dims[i]) - np.arange(outs[i]) * stride[i]
                  for i in range(nd)]
        count = counts[0] if nd == 1 else np.outer(counts[0], counts[1])
        sums = sums * tf.constant(float(np.prod(kernel)) / count, sums.dtype)
    out = tf.sign(sums) * tf.nn.relu(tf.abs(sums))
    out = tf.pow(out, 1.0 / float(p))
    return out[0] if unbatched else out


class _LPPool(Cell):
    _nd = 1

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode
        if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)) or norm_type <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'norm_type' must be a positive number, but got "
                             f"{norm_type!r}.")
        for arg, value in (("kernel_size", kernel_size), ("stride", stride)):
            if value is None and arg == "stride":
                continue
            items = (value,) if _is_int(value) else value
            if not isinstance(items, (tuple, list)) or not all(_is_int(i) and i > 0 for i in items) or \
                    (not _is_int(value) and len(value) != self._nd):
                raise TypeError(f"For '{self.cls_name}', the '{arg}' must be a positive int or a tuple of {self._nd} "
                                f"positive ints, but got {value!r}.")
        self._k = _tuple(kernel_size, self._nd)
        self._s = self._k if stride is None else _tuple(stride, self._nd)

    def construct(self, x: Any) -> Tensor:
        y = _lp_pool(self.cls_name, x, self.norm_type, self._k, self._s, self.ceil_mode)
        check_nonempty(self.cls_name, x, y, self._k, self._s, first_spatial=to_tf(y).shape.rank - self._nd)
        return _wrap(y)


class LPPool1d(_LPPool):
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over the last axis of ``(N, C, L)`` or ``(C, L)``.

    Args:
        norm_type: ``p`` (positive).
        kernel_size: the window length.
        stride: the step (the window length when None).
        ceil_mode: round the output length up.

    Inputs:
        x: a float Tensor.

    Outputs:
        The pooled Tensor.

    Raises:
        ValueError: for a non-positive ``norm_type``.
        TypeError: for a bad ``kernel_size`` or ``stride``.

    Example:
        >>> LPPool1d(2, 3).kernel_size
        3
    """

    _nd = 1


class LPPool2d(_LPPool):
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over the last two axes of ``(N, C, H, W)`` or ``(C, H, W)``.

    Args:
        norm_type: ``p`` (positive).
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)`` (the kernel when None).
        ceil_mode: round the output size up.

    Inputs:
        x: a float Tensor.

    Outputs:
        The pooled Tensor.

    Raises:
        ValueError: for a non-positive ``norm_type``.
        TypeError: for a bad ``kernel_size`` or ``stride``.

    Example:
        >>> LPPool2d(2, (2, 3)).kernel_size
        (2, 3)
    """

    _nd = 2


def _adaptive_sizes(name: str, v: tf.Tensor, output_size: Any) -> tuple[list, list]:
    if v.shape.rank not in (4, 5):
        raise ValueError(f"For '{name}', the input must be 4-D or 5-D, but got rank {v.shape.rank}.")
    dims = v.shape.as_list()[-3:]
    if any(d is None for d in dims):
        raise ValueError(f"For '{name}', the depth, height and width must be static, but got {dims}.")
    outs = [dims[i] if output_size[i] is None else int(output_size[i]) for i in range(3)]
    return dims, outs


def _check_output_size(name: str, output_size: Any) -> tuple:
    size = (output_size,) * 3 if _is_int(output_size) else tuple(output_size) if isinstance(
        output_size, (tuple, list)) else None
    if size is None or len(size) != 3 or not all(s is None or (_is_int(s) and s > 0) for s in size):
        raise ValueError(f"For '{name}', the 'output_size' must be a positive int or a tuple of 3 positive ints (or "
                         f"None), but got {output_size!r}.")
    return size


class AdaptiveAvgPool3d(Cell):
    """Average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input to a fixed output size.

    Args:
        output_size: an int or ``(D, H, W)``; None in the tuple keeps that axis.

    Inputs:
        input: a float Tensor.

    Outputs:
        The pooled Tensor.

    Raises:
        ValueError: for a bad ``output_size`` or input rank.

    Example:
        >>> AdaptiveAvgPool3d(2)(Tensor(np.ones((1, 1, 4, 4, 4), np.float32))).shape
        (1, 1, 2, 2, 2)
    """

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = _check_output_size(self.cls_name, output_size)

    def construct(self, input: Any) -> Tensor:  # noqa: A002
        v = to_tf(input)
        dims, outs = _adaptive_sizes(self.cls_name, v, self.output_size)
        y = v
        letters = "abc"
        for i in range(3):
            mat = np.zeros((outs[i], dims[i]), np.float64)
            for o, (lo, hi) in enumerate(adaptive_bins(dims[i], outs[i])):
                mat[o, lo:hi] = 1.0 / (hi - lo)
            src = "...abc"
            dst = src.replace(letters[i], "z")
            y = tf.einsum(f"{src},z{letters[i]}->{dst}", y, tf.constant(mat, v.dtype))
        return _wrap(y)


class AdaptiveMaxPool3d(Cell):
    """Max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input to a fixed output size.

    Args:
        output_size: an int or ``(D, H, W)``; None in the tuple keeps that axis.
        return_indices: also return the flat ``D * H * W`` index of each maximum.

    Inputs:
        input: a float Tensor.

    Outputs:
        The pooled Tensor (and the int32 indices).

    Raises:
        ValueError: for a bad ``output_size`` or input rank.

    Example:
        >>> AdaptiveMaxPool3d(1)(Tensor(np.ones((1, 1, 2, 2, 2), np.float32))).shape
        (1, 1, 1, 1, 1)
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = _check_output_size(self.cls_name, output_size)
        self.return_indices = return_indices

    def construct(self, input: Any) -> Any:  # noqa: A002
        v = to_tf(input)
        dims, outs = _adaptive_sizes(self.cls_name, v, self.output_size)
        lead = tf.shape(v)[:-3]
        flat = tf.reshape(v, tf.concat([lead, [-1]], 0))
        pos = np.arange(int(np.prod(dims))).reshape(dims)
        values, indices = [], []
        for (d0, d1) in adaptive_bins(dims[0], outs[0]):
            for (h0, h1) in adaptive_bins(dims[1], outs[1]):
                for (w0, w1) in adaptive_bins(dims[2], outs[2]):
                    cells = pos[d0:d1, h0:h1, w0:w1].reshape(-1)
                    window = tf.gather(flat, cells, axis=-1)
                    arg = tf.argmax(window, axis=-1, output_type=tf.int32)
                    values.append(tf.reduce_max(window, axis=-1))
                    indices.append(tf.gather(tf.constant(cells, tf.int32), arg))
        shape = tf.concat([lead, outs], 0)
        out = tf.reshape(tf.stack(values, -1), shape)
        if self.return_indices:
            return _wrap(out), _wrap(tf.reshape(tf.stack(indices, -1), shape))
        return _wrap(out)


class _MaxUnpool(Cell):
    _nd = 1

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding
        self._k, self._s, self._p = (_tuple(a, self._nd) for a in (kernel_size, self.stride, padding))

    def construct(self, x: Any, indices: Any, output_size: Any = None) -> Tensor:
        name = self.cls_name
        if output_size is not None and (not isinstance(output_size, tuple) or not output_size):
            raise ValueError(f"For {name}, output_size must be a non-empty tuple, but got {output_size!r}.")
        v, idx = to_tf(x), tf.cast(to_tf(indices), tf.int64)
        nd = self._nd
        if v.shape.rank not in (nd + 1, nd + 2):
            raise ValueError(f"For '{name}', the input must be {nd + 1}-D or {nd + 2}-D, but got rank {v.shape.rank}.")
        dims = v.shape.as_list()[-nd:]
        if output_size:
            outs = [int(s) for s in output_size[-nd:]]
        else:
            outs = [(dims[i] - 1) * self._s[i] - 2 * self._p[i] + self._k[i] for i in range(nd)]
        lead = tf.shape(v)[:-nd]
        rows = tf.reshape(v, [-1, int(np.prod(dims))])
        cols = tf.reshape(idx, [-1, int(np.prod(dims))])
        n_rows = tf.shape(rows)[0]
        row_ids = tf.broadcast_to(tf.range(tf.cast(n_rows, tf.int64))[:, None], tf.shape(cols))
        scatter_idx = tf.stack([tf.reshape(row_ids, [-1]), tf.reshape(cols, [-1])], 1)
        out = tf.tensor_scatter_nd_update(tf.zeros(tf.stack([tf.cast(n_rows, tf.int64), int(np.prod(outs))]),
                                                   v.dtype), scatter_idx, tf.reshape(rows, [-1]))
        return _wrap(tf.reshape(out, tf.concat([lead, outs], 0)))


class MaxUnpool1d(_MaxUnpool):
    """Undo ``MaxPool1d``: put each value at its index in an ``(N, C, L_out)`` zero tensor.

    Args:
        kernel_size: the pooling window.
        stride: the pooling stride (the window when None).
        padding: the pooling padding.

    Inputs:
        x: the pooled values ``(N, C, L)`` or ``(C, L)``.
        indices: the flat indices from ``MaxPool1d(return_indices=True)``.
        output_size: an optional tuple whose last entry is ``L_out``.

    Outputs:
        The unpooled Tensor.

    Example:
        >>> MaxUnpool1d(2).stride
        2
    """

    _nd = 1


class MaxUnpool2d(_MaxUnpool):
    """Undo ``MaxPool2d``: put each value at its flat ``h * W + w`` index in a zero tensor.

    Args:
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)`` (the kernel when None).
        padding: an int or ``(ph, pw)``.

    Inputs:
        x: the pooled values ``(N, C, H, W)`` or ``(C, H, W)``.
        indices: the flat indices from ``MaxPool2d(return_indices=True)``.
        output_size: an optional tuple whose last two entries are the output height and width.

    Outputs:
        The unpooled Tensor.

    Example:
        >>> MaxUnpool2d(2).kernel_size
        2
    """

    _nd = 2


class MaxUnpool3d(_MaxUnpool):
    """Undo ``MaxPool3d``: put each value at its flat ``(d * H + h) * W + w`` index in a zero tensor.

    Args:
        kernel_size: an int or ``(kd, kh, kw)``.
        stride: an int or a triple (the kernel when None).
        padding: an int or a triple.

    Inputs:
        x: the pooled values ``(N, C, D, H, W)`` or ``(C, D, H, W)``.
        indices: the flat indices from ``MaxPool3d(return_indices=True)``.
        output_size: an optional tuple whose last three entries are the output size.

    Outputs:
        The unpooled Tensor.

    Example:
        >>> MaxUnpool3d(2).kernel_size
        2
    """

    _nd = 3

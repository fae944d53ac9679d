"""Window arithmetic of pooling: output lengths and adaptive bins, shared by ``ops`` and ``nn``.

The functional pooling ops (``ops.max_pool2d``, ``ops.avg_pool2d``, ``ops.adaptive_avg_pool2d``)
and the pooling layers of ``nn`` (2-D, 3-D, LP and adaptive) size their outputs by the same rules
as MindSpore: a window of ``kernel`` elements spread by ``dilation``, moved by ``stride`` over the
padded input, with ``ceil_mode`` keeping a last partial window unless it would start in the right
padding; adaptive pooling splits ``n`` elements into ``out`` bins ``[floor(i*n/out),
ceil((i+1)*n/out))``. Both sides compute them here, so their shape checks cannot drift apart.

Example:
    >>> pooled_length(5, 2, 2, ceil_mode=True), adaptive_bins(5, 2)
    (3, [(0, 3), (2, 5)])
"""
from __future__ import annotations

import numbers
from typing import Any

__all__ = ["pooled_length", "adaptive_bins", "adaptive_output_size2"]


def pooled_length(n: int, kernel: int, stride: int, pad_before: int = 0, pad_after: int | None = None,
                  dilation: int = 1, ceil_mode: bool = False) -> int:
    """The number of windows along an axis of ``n`` elements (may be 0 or negative when none fits).

    Args:
        n: the input length.
        kernel: the window size.
        stride: the step between windows.
        pad_before: the padding before the first element.
        pad_after: the padding after the last element (default: ``pad_before``).
        dilation: the spacing of the window's elements.
        ceil_mode: keep a last partial window, unless it would start in the right padding.
    """
    pad_after = pad_before if pad_after is None else pad_after
    span = n + pad_before + pad_after - dilation * (kernel - 1) - 1
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= n + pad_before:
        out -= 1
    return out


def adaptive_bins(n: int, out: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` input ranges of the ``out`` bins of adaptive pooling over ``n`` elements."""
    return [((i * n) // out, -(-((i + 1) * n) // out)) for i in range(out)]


def adaptive_output_size2(op: str, output_size: Any, h: int, w: int) -> tuple[int, int]:
    """The ``(oh, ow)`` of a 2-D adaptive pooling: ``output_size`` an int or a pair, a None entry keeping
    the input's size.

    Raises:
        ValueError: when ``output_size`` is neither an int nor a pair (the message names ``op``).
    """
    if isinstance(output_size, numbers.Integral):
        return int(output_size), int(output_size)
    if isinstance(output_size, (list, tuple)) and len(output_size) == 2:
        return (h if output_size[0] is None else int(output_size[0]), w if output_size[1] is None else
                int(output_size[1]))
    raise ValueError(f"For '{op}', the 'output_size' must be an int or a tuple of 2 ints, but got {output_size!r}.")

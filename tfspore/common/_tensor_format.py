"""MindSpore's text for ``repr(Tensor)``: the value part after ``value=``.

MindSpore's C++ printer (not numpy's) decides the layout:

- floats: right-aligned scientific notation, width 15 with 8 decimals (Float32, Float64) or
  width 11 with 4 decimals (Float16); ``nan``/``inf`` are padded to the same width;
- ints, bools and BFloat16 (printed like C++ ``ostream`` defaults, 6 significant digits) are
  right-aligned to the widest printed element; bools to width 5;
- scalars print as C++ ``ostream`` does: ``%g`` with 6 significant digits for floats;
- 1-D tensors break the line after every 12 floats or bools, or 24 other elements;
- a 1-D tensor of more than 1000 elements, and any dimension longer than 6 of a tensor of
  rank >= 2, prints its first 3 and last 3 entries around ``...``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

_EDGE = 3
_DIM_THRESHOLD = 6
_SIZE_THRESHOLD = 1000


def _fmt_g(v: float) -> str:
    """C++ ``ostream << double`` with the default precision of 6."""
    return f"{float(v):g}"


def _fmt_complex(v: complex) -> str:
    v = complex(v)
    return f"{_fmt_g(v.real)}{'+' if v.imag >= 0 or np.isnan(v.imag) else '-'}{_fmt_g(abs(v.imag))}j"


def format_scalar(v: Any, kind: str) -> str:
    """Format a 0-d value as MindSpore prints it (``value= <text>``)."""
    if kind == "bool":
        return "True" if bool(v) else "False"
    if kind in ("float", "bfloat"):
        return _fmt_g(v)
    if kind == "complex":
        return _fmt_complex(v)
    return str(int(v))


class _Printer:
    """Format the elements of one array; padding widths are resolved after all elements are seen."""

    def __init__(self, kind: str, is_f16: bool) -> None:
        self.kind = kind
        self.is_f16 = is_f16
        self.width = 0

    def element(self, v: Any) -> str:
        if self.kind == "float":
            width, digits = (11, 4) if self.is_f16 else (15, 8)
            x = float(v)
            text = f"{x:.{digits}e}" if np.isfinite(x) else _fmt_g(x)
            return text.rjust(width)
        if self.kind == "bool":
            return ("True" if bool(v) else "False").rjust(5)
        if self.kind == "complex":
            return _fmt_complex(v)
        text = _fmt_g(v) if self.kind == "bfloat" else str(int(v))
        self.width = max(self.width, len(text))
        return "\x00" + text + "\x00"

    def finish(self, text: str) -> str:
        if self.kind not in ("int", "bfloat"):
            return text
        parts = text.split("\x00")
        # odd positions hold the elements to pad
        for i in range(1, len(parts), 2):
            parts[i] = parts[i].rjust(self.width)
        return "".join(parts)


def format_value(arr: np.ndarray, kind: str, is_f16: bool = False) -> str:
    """Return the text after ``value=`` for an array with ``ndim >= 1``.

    Args:
        arr: the values.
        kind: 'bool', 'int' (signed or unsigned), 'float', 'bfloat' or 'complex'.
        is_f16: whether the dtype is Float16 (4 decimals instead of 8).

    Returns:
        str: the text, starting with a space for 1-D tensors and a newline otherwise.
    """
    ndim = arr.ndim
    if arr.size == 0:
        return "\n" if ndim > 1 else " "
    printer = _Printer(kind, is_f16)
    out: list[str] = []
    if ndim == 1:
        _format_1d(arr, printer, out)
        return " " + printer.finish("".join(out))
    _format_nd(arr, 0, printer, out)
    return "\n" + printer.finish("".join(out))


def _format_1d(arr: np.ndarray, printer: _Printer, out: list[str]) -> None:
    n = arr.shape[0]
    out.append("[")
    if n > _SIZE_THRESHOLD:
        out.append(", ".join(printer.element(v) for v in arr[:_EDGE]))
        out.append(" ... ")
        out.append(", ".join(printer.element(v) for v in arr[n - _EDGE:]))
    else:
        per_line = 12 if printer.kind in ("float", "bool") else 24
        for i in range(n):
            out.append(printer.element(arr[i]))
            if i != n - 1:
                out.append(", ")
            if (i + 1) % per_line == 0:
                out.append("\n ")
    out.append("]")


def _format_nd(arr: np.ndarray, depth: int, printer: _Printer, out: list[str]) -> None:
    """Rows of a rank >= 2 tensor; ``arr`` is the sub-array at ``depth``."""
    out.append("[")
    n = arr.shape[0]
    if arr.ndim == 1:
        if n > _DIM_THRESHOLD:
            out.append(", ".join(printer.element(v) for v in arr[:_EDGE]))
            out.append(" ... ")
            out.append(", ".join(printer.element(v) for v in arr[n - _EDGE:]))
        else:
            out.append(", ".join(printer.element(v) for v in arr))
    else:
        indent = ",\n" + " " * (depth + 1)
        if n > _DIM_THRESHOLD:
            for i in range(_EDGE):
                if i:
                    out.append(indent)
                _format_nd(arr[i], depth + 1, printer, out)
            out.append(indent + "...")
            for i in range(n - _EDGE, n):
                out.append("\n" + " " * (depth + 1) if i == n - _EDGE else indent)
                _format_nd(arr[i], depth + 1, printer, out)
        else:
            for i in range(n):
                if i:
                    out.append(indent)
                _format_nd(arr[i], depth + 1, printer, out)
    out.append("]")

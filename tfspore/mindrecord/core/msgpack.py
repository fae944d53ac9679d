"""The MessagePack subset MindRecord stores raw (scalar) fields in, encoded as MindSpore encodes it.

Rows are maps with sorted keys; integers take the smallest encoding (non-negative ones the
unsigned forms); a float is written as float32 when that is exact, else float64.

Example:
    >>> from tfspore.mindrecord.core.msgpack import packb, unpackb
    >>> packb({"label": 1}).hex()
    '81a56c6162656c01'
    >>> unpackb(packb({"b": 1.5, "a": "x"}))
    {'a': 'x', 'b': 1.5}
"""
from __future__ import annotations

import struct
from typing import Any, Tuple

__all__ = ["packb", "unpackb"]

_F32_MAX = 3.4028234663852886e38


def _pack_int(n: int, out: bytearray) -> None:
    if n >= 0:
        if n < 128:
            out.append(n)
        elif n <= 0xFF:
            out += b"\xcc" + struct.pack(">B", n)
        elif n <= 0xFFFF:
            out += b"\xcd" + struct.pack(">H", n)
        elif n <= 0xFFFFFFFF:
            out += b"\xce" + struct.pack(">I", n)
        else:
            out += b"\xcf" + struct.pack(">Q", n)
    elif n >= -32:
        out += struct.pack(">b", n)
    elif n >= -128:
        out += b"\xd0" + struct.pack(">b", n)
    elif n >= -32768:
        out += b"\xd1" + struct.pack(">h", n)
    elif n >= -2 ** 31:
        out += b"\xd2" + struct.pack(">i", n)
    else:
        out += b"\xd3" + struct.pack(">q", n)


def _pack_float(x: float, out: bytearray) -> None:
    if -_F32_MAX <= x <= _F32_MAX and struct.unpack(">f", struct.pack(">f", x))[0] == x:
        out += b"\xca" + struct.pack(">f", x)
    else:
        out += b"\xcb" + struct.pack(">d", x)


# The length headers of strings, maps and arrays: (first byte of the "fix" form, its largest length,
# and for each longer form its first byte and struct format, shortest first).
_STR_HEADER = (0xA0, 31, ((0xD9, ">B"), (0xDA, ">H"), (0xDB, ">I")))
_MAP_HEADER = (0x80, 15, ((0xDE, ">H"), (0xDF, ">I")))
_ARRAY_HEADER = (0x90, 15, ((0xDC, ">H"), (0xDD, ">I")))


def _pack_header(n: int, header: tuple, out: bytearray) -> None:
    """Write the smallest length header of ``header``'s type for length ``n``."""
    fix, fix_max, sized = header
    if n <= fix_max:
        out.append(fix | n)
        return
    for tag, fmt in sized[:-1]:
        if n < 1 << (8 * struct.calcsize(fmt)):
            out.append(tag)
            out += struct.pack(fmt, n)
            return
    tag, fmt = sized[-1]
    out.append(tag)
    out += struct.pack(fmt, n)


def _read_header(b: int, header: tuple, data: bytes, pos: int) -> Tuple[int, int]:
    """The length in the header starting with byte ``b`` (of ``header``'s type), and the position after it."""
    fix, fix_max, sized = header
    if fix <= b <= fix | fix_max:
        return b & fix_max, pos
    fmt = dict(sized)[b]
    return struct.unpack_from(fmt, data, pos)[0], pos + struct.calcsize(fmt)


def _pack_str(s: str, out: bytearray) -> None:
    data = s.encode("utf-8")
    _pack_header(len(data), _STR_HEADER, out)
    out += data


def _pack(value: Any, out: bytearray) -> None:
    if value is None:
        out.append(0xC0)
    elif isinstance(value, bool):
        out.append(0xC3 if value else 0xC2)
    elif isinstance(value, int):
        _pack_int(int(value), out)
    elif isinstance(value, float):
        _pack_float(float(value), out)
    elif isinstance(value, str):
        _pack_str(value, out)
    elif isinstance(value, dict):
        _pack_header(len(value), _MAP_HEADER, out)
        for key in sorted(value, key=lambda k: k.encode("utf-8")):
            _pack_str(key, out)
            _pack(value[key], out)
    elif isinstance(value, (list, tuple)):
        _pack_header(len(value), _ARRAY_HEADER, out)
        for item in value:
            _pack(item, out)
    else:
        raise TypeError(f"MindRecord cannot store a raw value of type {type(value).__name__}: {value!r}.")


def packb(value: Any) -> bytes:
    """Encode `value` (dict, list, int, float, str, bool, None)."""
    out = bytearray()
    _pack(value, out)
    return bytes(out)


_FIXED = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q",
          0xCA: ">f", 0xCB: ">d"}


def _unpack(data: bytes, pos: int) -> Tuple[Any, int]:
    b = data[pos]
    pos += 1
    if b <= 0x7F:
        return b, pos
    if b >= 0xE0:
        return b - 0x100, pos
    if 0x80 <= b <= 0x8F or b in (0xDE, 0xDF):
        n, pos = _read_header(b, _MAP_HEADER, data, pos)
        out = {}
        for _ in range(n):
            key, pos = _unpack(data, pos)
            out[key], pos = _unpack(data, pos)
        return out, pos
    if 0x90 <= b <= 0x9F or b in (0xDC, 0xDD):
        n, pos = _read_header(b, _ARRAY_HEADER, data, pos)
        items = []
        for _ in range(n):
            item, pos = _unpack(data, pos)
            items.append(item)
        return items, pos
    if 0xA0 <= b <= 0xBF or b in (0xD9, 0xDA, 0xDB):
        n, pos = _read_header(b, _STR_HEADER, data, pos)
        if pos + n > len(data):
            raise ValueError("truncated string")
        return data[pos:pos + n].decode("utf-8"), pos + n
    if b in (0xC4, 0xC5, 0xC6):
        fmt = {0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}[b]
        n = struct.unpack_from(fmt, data, pos)[0]
        pos += struct.calcsize(fmt)
        return bytes(data[pos:pos + n]), pos + n
    if b == 0xC0:
        return None, pos
    if b in (0xC2, 0xC3):
        return b == 0xC3, pos
    fmt = _FIXED.get(b)
    if fmt is None:
        raise ValueError(f"unsupported MessagePack type byte 0x{b:02x}")
    value = struct.unpack_from(fmt, data, pos)[0]
    return value, pos + struct.calcsize(fmt)


def unpackb(data: bytes) -> Any:
    """Decode one value from `data`.

    Raises:
        ValueError: If `data` is not a whole, supported MessagePack value.
    """
    try:
        value, pos = _unpack(data, 0)
    except (IndexError, struct.error, UnicodeDecodeError, ValueError, TypeError, RecursionError) as err:
        raise ValueError(f"corrupt MessagePack data: {err}") from err
    if pos != len(data):
        raise ValueError(f"corrupt MessagePack data: {len(data) - pos} trailing bytes")
    return value

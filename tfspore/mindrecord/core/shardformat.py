"""Byte layouts of a MindRecord shard file: the header, row records, blob fields and the
variable-width compression of integer arrays. docs/mindrecord.md describes the format.

Example:
    >>> import numpy as np
    >>> from tfspore.mindrecord.core.shardformat import compress_ints, decompress_ints
    >>> blob = compress_ints(np.array([1, 300, -2], np.int64))
    >>> blob.hex()
    '0000000310012c01fe'
    >>> decompress_ints(blob, "int64").tolist()
    [1, 300, -2]
"""
from __future__ import annotations

import json
import struct
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["LEN", "VERSION", "compress_ints", "compress_many", "decompress_ints", "decompress_many",
           "decompress_buffer", "encode_blob_field", "merge_blob",
           "split_blob", "record", "header_json", "parse_header", "EMPTY_BLOB"]

LEN = 8  # every row record starts with its length as a little-endian uint64
VERSION = "3.0"
# The blob record of a row when the schema has no blob field.
EMPTY_BLOB = b"\x00\x00\x00\x00"
_INT_LIMITS = (np.iinfo(np.int8), np.iinfo(np.int16), np.iinfo(np.int32))


def record(payload: bytes) -> bytes:
    """A row record: the payload's length (little-endian uint64) and the payload."""
    return struct.pack("<Q", len(payload)) + payload


def compress_ints(values: np.ndarray) -> bytes:
    """Integer-array compression: element count (big-endian uint32), 2-bit width codes
    (4 per byte, first element in the high bits; 0: 1 byte, 1: 2, 2: 4, 3: 8) and each value
    little-endian in its width."""
    v = np.ascontiguousarray(values, dtype="<i8").reshape(-1)
    n = v.size
    codes = np.full(n, 3, np.uint8)
    for code in (2, 1, 0):
        lim = _INT_LIMITS[code]
        codes[(v >= lim.min) & (v <= lim.max)] = code
    padded = np.zeros(-(-n // 4) * 4, np.uint8)
    padded[:n] = codes
    code_bytes = (padded.reshape(-1, 4) << np.array([6, 4, 2, 0], np.uint8)).sum(axis=1).astype(np.uint8)
    widths = np.left_shift(1, codes.astype(np.int64))
    data = v.view(np.uint8).reshape(n, 8)[np.arange(8)[None, :] < widths[:, None]]
    return struct.pack(">I", n) + code_bytes.tobytes() + data.tobytes()


def compress_many(arrays: Sequence[np.ndarray]) -> Tuple[List[bytes], np.ndarray]:
    """:func:`compress_ints` of many arrays at once, vectorised: the compressed bytes of each
    array and the bytes each saves against its int64 form."""
    flat_parts = [np.asarray(a, dtype=np.int64).reshape(-1) for a in arrays]
    nrows = len(flat_parts)
    counts = np.fromiter((a.size for a in flat_parts), np.int64, nrows)
    flat = np.concatenate(flat_parts) if nrows else np.zeros(0, np.int64)
    codes = np.full(flat.size, 3, np.int64)
    for code in (2, 1, 0):
        lim = _INT_LIMITS[code]
        codes[(flat >= lim.min) & (flat <= lim.max)] = code
    widths = np.left_shift(1, codes)
    splits = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    ends = np.concatenate([[0], np.cumsum(widths)])
    ncode = (counts + 3) // 4
    sizes = 4 + ncode + ends[splits[1:]] - ends[splits[:-1]]
    row_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    out = np.zeros(int(row_start[-1]), np.uint8)
    for k in range(4):
        out[row_start[:-1] + k] = (counts >> (8 * (3 - k))) & 255
    row = np.repeat(np.arange(nrows), counts)
    j = np.arange(flat.size, dtype=np.int64) - splits[row]
    code_pos = row_start[row] + 4 + (j >> 2)
    # the 2-bit codes of one byte are disjoint bits, so their sum is their bitwise or
    out += np.bincount(code_pos, weights=codes << (6 - 2 * (j & 3)), minlength=out.size).astype(np.uint8)
    value_start = (row_start[:-1] + 4 + ncode - ends[splits[:-1]])[row] + ends[:-1]
    as_bytes = flat.astype("<i8").view(np.uint8).reshape(-1, 8)
    for code in range(4):
        sel = np.flatnonzero(codes == code)
        if sel.size:
            w = 1 << code
            out[value_start[sel][:, None] + np.arange(w)] = as_bytes[sel, :w]
    data = out.tobytes()
    pieces = [data[row_start[i]:row_start[i + 1]] for i in range(nrows)]
    return pieces, counts * 8 - sizes


def decompress_ints(blob: bytes, dtype: str) -> np.ndarray:
    """Inverse of :func:`compress_ints` (a 1-D array of `dtype`).

    Raises:
        ValueError: If `blob` is shorter than its element count and widths say.
    """
    if len(blob) < 4:
        raise ValueError(f"compressed integer array of {len(blob)} bytes has no element count")
    n = struct.unpack_from(">I", blob, 0)[0]
    ncode = -(-n // 4)
    raw = np.frombuffer(blob, np.uint8)
    if raw.size < 4 + ncode:
        raise ValueError(f"compressed integer array of {len(blob)} bytes is too short for {n} elements")
    code_bytes = raw[4:4 + ncode]
    shifts = np.array([6, 4, 2, 0], np.uint8)
    codes = ((code_bytes[:, None] >> shifts) & 3).reshape(-1)[:n].astype(np.int64)
    widths = np.left_shift(1, codes)
    starts = 4 + ncode + np.concatenate([[0], np.cumsum(widths)[:-1]]) if n else np.zeros(0, np.int64)
    end = 4 + ncode + int(widths.sum())
    if end != raw.size:
        raise ValueError(f"compressed integer array of {len(blob)} bytes does not hold {n} elements "
                         f"({end} bytes expected)")
    k = np.arange(8)
    idx = np.minimum(starts[:, None] + k[None, :], raw.size - 1)
    valid = k[None, :] < widths[:, None]
    sign = raw[np.maximum(starts + widths - 1, 0)] >= 128 if n else np.zeros(0, bool)
    fill = np.where(sign, 255, 0).astype(np.uint8)
    full = np.where(valid, raw[idx] if n else np.zeros((0, 8), np.uint8), fill[:, None])
    return np.ascontiguousarray(full, np.uint8).view("<i8").reshape(-1).astype(dtype)


def decompress_many(blobs: Sequence[bytes], dtype: str) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`decompress_ints` over many rows at once, vectorised: the values of all rows
    (1-D, `dtype`) and the row splits (``values[splits[i]:splits[i + 1]]`` is row i).

    Raises:
        ValueError: If a row is shorter or longer than its element count and widths say.
    """
    lengths = np.fromiter((len(b) for b in blobs), np.int64, len(blobs))
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(blobs) else lengths
    buf = np.frombuffer(b"".join(blobs) + b"\0" * 8, np.uint8)
    return decompress_buffer(buf, starts, lengths, dtype)


def decompress_buffer(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                      dtype: str) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`decompress_many` of rows lying in `buf` (uint8, with 8 spare bytes at the end) at
    `starts`, `lengths` bytes each."""
    nrows = len(starts)
    if (lengths < 4).any():
        raise ValueError(f"compressed integer array of row {int(np.flatnonzero(lengths < 4)[0])} has no element "
                         f"count")
    head = buf[starts[:, None] + np.arange(4)].astype(np.int64) if nrows else np.zeros((0, 4), np.int64)
    counts = (head[:, 0] << 24) | (head[:, 1] << 16) | (head[:, 2] << 8) | head[:, 3]
    ncode = (counts + 3) // 4
    splits = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    total = int(splits[-1])
    if total > (int(lengths.sum()) - 4 * nrows) * 4:
        raise ValueError("compressed integer arrays declare more elements than their bytes can hold")
    row = np.repeat(np.arange(nrows), counts)
    j = np.arange(total, dtype=np.int64) - splits[row]
    codes = (buf[starts[row] + 4 + (j >> 2)] >> (6 - 2 * (j & 3)).astype(np.uint8)) & 3
    widths = np.left_shift(1, codes.astype(np.int64))
    ends = np.concatenate([[0], np.cumsum(widths)])
    row_bytes = ends[splits[1:]] - ends[splits[:-1]]
    wrong = 4 + ncode + row_bytes != lengths
    if wrong.any():
        bad = int(np.flatnonzero(wrong)[0])
        raise ValueError(f"compressed integer array of row {bad} ({int(lengths[bad])} bytes) does not hold "
                         f"{int(counts[bad])} elements")
    value_start = (starts + 4 + ncode - ends[splits[:-1]])[row] + ends[:-1]
    out = np.empty(total, np.int64)
    for code, kind in enumerate(("<i1", "<i2", "<i4", "<i8")):
        sel = np.flatnonzero(codes == code)
        if sel.size:
            idx = value_start[sel][:, None] + np.arange(1 << code)
            out[sel] = np.ascontiguousarray(buf[idx]).view(kind).reshape(-1)
    return out.astype(dtype, copy=False), splits


def encode_blob_field(value: Any, field_schema: Dict[str, Any]) -> bytes:
    """The stored bytes of one blob field (bytes as is; int arrays compressed; float arrays raw)."""
    ftype = field_schema["type"]
    if ftype == "bytes":
        return bytes(value)
    arr = np.asarray(value)
    if ftype in ("int32", "int64"):
        return compress_ints(arr)
    return np.ascontiguousarray(arr, dtype="<" + ("f4" if ftype == "float32" else "f8")).tobytes()


def merge_blob(parts: Sequence[bytes]) -> bytes:
    """One row's blob payload: a single field as is; several as big-endian uint64 length + bytes."""
    if not parts:
        return EMPTY_BLOB
    if len(parts) == 1:
        return parts[0]
    return b"".join(struct.pack(">Q", len(p)) + p for p in parts)


def split_blob(payload: bytes, count: int) -> List[bytes]:
    """Inverse of :func:`merge_blob` for `count` blob fields.

    Raises:
        ValueError: If the lengths run past the payload.
    """
    if count == 1:
        return [payload]
    out, pos = [], 0
    for _ in range(count):
        if pos + 8 > len(payload):
            raise ValueError("blob payload is truncated")
        n = struct.unpack_from(">Q", payload, pos)[0]
        pos += 8
        if pos + n > len(payload):
            raise ValueError("blob payload is truncated")
        out.append(payload[pos:pos + n])
        pos += n
    return out


def header_json(*, header_size: int, page_size: int, index_fields: Sequence[str], pages: Optional[List[dict]],
                compression_size: int, schema: Dict[str, dict], desc: str, blob_fields: Sequence[str],
                shard_addresses: Sequence[str], shard_id: int) -> bytes:
    """The header record of a shard file: length (little-endian uint64) and compact JSON, keys
    in MindSpore's order."""
    header = {
        "header_size": header_size,
        "index_fields": [{"index_field": f, "schema_id": 0} for f in index_fields] or None,
        "page": [{k: p[k] for k in sorted(p)} for p in pages] if pages else None,
        "page_size": page_size,
        "compression_size": compression_size,
        "schema": [{"blob_fields": list(blob_fields), "desc": desc,
                    "schema": {name: {k: schema[name][k] for k in sorted(schema[name])}
                               for name in sorted(schema, key=lambda s: s.encode("utf-8"))}}],
        "shard_addresses": list(shard_addresses),
        "shard_id": shard_id,
        "statistics": None,
        "version": VERSION,
    }
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return record(text)


def parse_header(data: bytes, path: str) -> Dict[str, Any]:
    """Parse the header record at the start of `data` (the first bytes of the file at `path`).

    Raises:
        RuntimeError: If the header is truncated or not MindRecord's JSON header.
    """
    if len(data) < LEN:
        raise RuntimeError(f"Invalid file, the MindRecord header of {path!r} is truncated "
                           f"({len(data)} bytes).")
    n = struct.unpack_from("<Q", data, 0)[0]
    if n > len(data) - LEN:
        raise RuntimeError(f"Invalid file, the MindRecord header of {path!r} is truncated or the file is not "
                           f"a MindRecord file: header length {n}, file has {len(data)} bytes.")
    try:
        header = json.loads(data[LEN:LEN + n].decode("utf-8"))
        _check_header(header)
    except (ValueError, KeyError, IndexError, TypeError, RecursionError) as err:
        raise RuntimeError(f"Invalid file, {path!r} is not a MindRecord file or its header is corrupt: "
                           f"{err}.") from err
    header["page"] = header.get("page") or []
    header["index_fields"] = header.get("index_fields") or []
    return header


_SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string")
_ARRAY_TYPES = ("int32", "int64", "float32", "float64")
_PAGE_KEYS = ("page_id", "page_size", "page_type_id", "start_row_id", "end_row_id")


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0  # pylint: disable=unidiomatic-typecheck


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def _check_schema(meta: Any) -> None:
    _require(isinstance(meta, dict) and isinstance(meta.get("schema"), dict) and meta["schema"],
             "'schema' holds no field")
    for name, spec in meta["schema"].items():
        _require(isinstance(spec, dict) and spec.get("type") in _SCALAR_TYPES + ("bytes",),
                 f"field {name!r} has no valid type: {spec!r}")
        if "shape" in spec:
            shape = spec["shape"]
            _require(spec["type"] in _ARRAY_TYPES and isinstance(shape, list) and shape
                     and all(type(d) is int and (d > 0 or d == -1) for d in shape)  # noqa: E721
                     and shape.count(-1) <= 1, f"field {name!r} has an invalid shape: {spec!r}")
    blob = meta.get("blob_fields") or []
    want = {f for f, spec in meta["schema"].items() if spec["type"] == "bytes" or "shape" in spec}
    _require(isinstance(blob, list) and all(isinstance(f, str) for f in blob) and set(blob) == want
             and len(blob) == len(want), f"'blob_fields' {blob!r} are not the bytes and array fields {sorted(want)}")
    _require(isinstance(meta.get("desc", ""), str), "'desc' is not a string")


def _check_header(header: Any) -> None:
    """Raise ValueError naming the first part of a parsed header that MindRecord's layout rules out."""
    _require(isinstance(header, dict), "the header is not a JSON object")
    for key in ("header_size", "page_size"):
        _require(_is_count(header.get(key)) and header[key] > 0, f"invalid {key!r}: {header.get(key)!r}")
    schemas = header.get("schema")
    _require(isinstance(schemas, list) and len(schemas) == 1, "'schema' is not a list of one schema")
    _check_schema(schemas[0])
    names = header.get("shard_addresses")
    _require(isinstance(names, list) and names and all(
        isinstance(f, str) and f and f not in (".", "..") and "/" not in f and "\\" not in f and "\x00" not in f
        for f in names), f"invalid 'shard_addresses': {names!r} (shard file names without folders)")
    _require(_is_count(header.get("shard_id", 0)), f"invalid 'shard_id': {header.get('shard_id')!r}")
    for page in header.get("page") or []:
        _require(isinstance(page, dict) and all(_is_count(page.get(k)) for k in _PAGE_KEYS)
                 and page.get("page_type") in ("BLOB_DATA", "RAW_DATA")
                 and page["page_size"] <= header["page_size"], f"invalid page entry: {page!r}")
        groups = page.get("row_group_ids") or []
        _require(isinstance(groups, list) and all(
            isinstance(g, dict) and _is_count(g.get("id")) and _is_count(g.get("offset")) for g in groups),
            f"invalid 'row_group_ids' of page {page['page_id']}")
    _require(isinstance(header.get("page") or [], list), "'page' is not a list")
    fields = header.get("index_fields") or []
    _require(isinstance(fields, list) and all(isinstance(f, dict) and isinstance(f.get("index_field"), str)
                                              for f in fields), f"invalid 'index_fields': {fields!r}")

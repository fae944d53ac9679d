"""Byte layouts of MindRecord: MessagePack rows, integer-array compression, blob merging, header."""
import json
import struct

import numpy as np
import pytest

from tfspore.mindrecord.core import shardformat as fmt
from tfspore.mindrecord.core.msgpack import packb, unpackb


@pytest.mark.parametrize("value, encoded", [
    (5, "05"), (200, "ccc8"), (70000, "ce00011170"), (2 ** 40, "cf0000010000000000"), (-3, "fd"),
    (-100, "d09c"), (-40000, "d2ffff63c0"), (0.5, "ca3f000000"), (1.1, "cb3ff199999999999a"),
    ("ab", "a26162"), ({"b": 1, "a": 2}, "82a16102a16201"),
])
def test_msgpack_smallest_encoding(value, encoded):
    assert packb(value).hex() == encoded
    assert unpackb(packb(value)) == value


def test_msgpack_long_strings_and_corrupt_data():
    for n in (31, 32, 255, 256, 70000):
        assert unpackb(packb("x" * n)) == "x" * n
    with pytest.raises(ValueError, match="trailing"):
        unpackb(packb(1) + b"\x00")
    with pytest.raises(ValueError, match="corrupt"):
        unpackb(b"\xa5ab")


def test_int_compression_widths_and_signs():
    values = np.array([1, 300, 70000, 2 ** 40, -1, -200, -40000, -2 ** 40], np.int64)
    blob = fmt.compress_ints(values)
    assert blob[:4] == b"\x00\x00\x00\x08" and blob[4:6] == b"\x1b\x1b"  # widths 1,2,4,8 twice
    assert len(blob) == 4 + 2 + 2 * (1 + 2 + 4 + 8)
    np.testing.assert_array_equal(fmt.decompress_ints(blob, "int64"), values)
    assert fmt.decompress_ints(fmt.compress_ints(np.zeros(0, np.int64)), "int32").shape == (0,)
    edge = np.array([127, 128, -128, -129, 32767, 32768, -32769, 2 ** 31 - 1, -2 ** 31, 2 ** 31], np.int64)
    np.testing.assert_array_equal(fmt.decompress_ints(fmt.compress_ints(edge), "int64"), edge)


def test_int_decompression_rejects_wrong_length():
    blob = fmt.compress_ints(np.array([1, 2, 3], np.int64))
    with pytest.raises(ValueError, match="does not hold 3 elements"):
        fmt.decompress_ints(blob[:-1], "int64")
    with pytest.raises(ValueError, match="no element count"):
        fmt.decompress_ints(b"\x00", "int64")


def test_blob_merge_split():
    assert fmt.merge_blob([b"abc"]) == b"abc"
    merged = fmt.merge_blob([b"ab", b"", b"xyz"])
    assert merged == b"\x00" * 7 + b"\x02ab" + b"\x00" * 8 + b"\x00" * 7 + b"\x03xyz"
    assert fmt.split_blob(merged, 3) == [b"ab", b"", b"xyz"]
    with pytest.raises(ValueError, match="truncated"):
        fmt.split_blob(merged[:-1], 3)
    assert fmt.merge_blob([]) == fmt.EMPTY_BLOB


def test_header_json_key_order_and_round_trip():
    head = fmt.header_json(header_size=1 << 14, page_size=1 << 15, index_fields=["b"], pages=None,
                           compression_size=0, schema={"b": {"type": "int32"}, "a": {"type": "bytes"}},
                           desc="d", blob_fields=["a"], shard_addresses=["x.mindrecord"], shard_id=0)
    n = struct.unpack("<Q", head[:8])[0]
    text = head[8:].decode()
    assert n == len(text)
    assert list(json.loads(text)) == ["header_size", "index_fields", "page", "page_size", "compression_size",
                                      "schema", "shard_addresses", "shard_id", "statistics", "version"]
    assert '"page":null' in text and '"schema":{"a":{"type":"bytes"},"b":{"type":"int32"}}' in text
    parsed = fmt.parse_header(head, "x")
    assert parsed["page"] == [] and parsed["schema"][0]["blob_fields"] == ["a"]
    with pytest.raises(RuntimeError, match="truncated"):
        fmt.parse_header(head[:20], "x.mindrecord")
    with pytest.raises(RuntimeError, match="'x.mindrecord' is not a MindRecord file"):
        fmt.parse_header(struct.pack("<Q", 3) + b"abc", "x.mindrecord")

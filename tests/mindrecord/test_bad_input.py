"""Bad input to the MindRecord readers: non-regular files, corrupt headers, data and indexes.

Every case ends in a clear error naming the file (RuntimeError, or ValueError where MindSpore's
``MindDataset`` raises it), never a hang, a crash or another exception type. A hypothesis test
mutates the bytes of a small data file and its index (bounded here; longer under ``-m slow``).
"""
import functools
import json
import os
import shutil
import struct
import tempfile
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tfspore.dataset as ds
from tfspore.mindrecord import FileReader, FileWriter, MindPage, MRMOpenForAppendError

SCHEMA = {"label": {"type": "int32"}, "name": {"type": "string"}, "img": {"type": "bytes"},
          "v": {"type": "int64", "shape": [-1]}, "f": {"type": "float32", "shape": [2]}}


def _write(folder, name="a.mindrecord", shards=1):
    writer = FileWriter(os.path.join(folder, name), shard_num=shards, overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(SCHEMA, "bad input")
    writer.write_raw_data([{"label": i, "name": "n" * i, "img": bytes([i]) * (i * 300 + 1),
                            "v": np.arange(i + 1) * 999, "f": np.full(2, i, np.float32)} for i in range(12)])
    writer.commit()
    return os.path.join(folder, name)


@pytest.fixture(name="seed_files")
def fixture_seed_files():
    return _seed_bytes()


def _read_all(path, api):
    if api == "FileReader":
        reader = FileReader(path)
        rows = list(reader.get_next())
        reader.close()
        return rows
    if api == "MindPage":
        pages = MindPage(path)
        pages.category_field = "label"
        return pages.read_at_page_by_id(0, 0, 4)
    return list(ds.MindDataset(path, shuffle=False).create_tuple_iterator(output_numpy=True, num_epochs=1))


def _finishes(fn, seconds=60):
    """Run `fn` in a thread; fail if it blocks (a FIFO read would)."""
    outcome = {}

    def target():
        try:
            outcome["value"] = fn()
        except BaseException as err:  # pylint: disable=broad-except
            outcome["error"] = err
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the call blocked"
    return outcome


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "folder"])
def test_non_regular_files_are_refused(tmp_path, kind):
    target = tmp_path / "x.mindrecord"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev_zero":
        target.symlink_to("/dev/zero")
    else:
        target.mkdir()
    for api in ("FileReader", "MindPage"):
        error = _finishes(lambda a=api: _read_all(str(target), a)).get("error")
        assert isinstance(error, RuntimeError) and f"The input: {target} should be a regular file" in str(error)
    error = _finishes(lambda: _read_all(str(target), "MindDataset")).get("error")
    assert isinstance(error, ValueError) and str(target) in str(error)
    error = _finishes(lambda: FileWriter.open_for_append(str(target))).get("error")
    assert isinstance(error, MRMOpenForAppendError) and "not a regular file" in str(error)


def test_index_that_is_a_fifo_is_refused(tmp_path):
    path = _write(str(tmp_path))
    os.remove(path + ".db")
    os.mkfifo(path + ".db")
    for api in ("FileReader", "MindPage", "MindDataset"):
        error = _finishes(lambda a=api: _read_all(path, a)).get("error")
        assert isinstance(error, RuntimeError) and "a.mindrecord.db" in str(error), (api, error)
    error = _finishes(lambda: FileWriter.open_for_append(path)).get("error")
    assert isinstance(error, MRMOpenForAppendError) and "a.mindrecord.db" in str(error)


def _rewrite_header(path, change):
    with open(path, "rb") as handle:
        data = bytearray(handle.read())
    size = struct.unpack_from("<Q", data)[0]
    header = json.loads(data[8:8 + size])
    change(header)
    text = json.dumps(header, separators=(",", ":")).encode()
    assert len(text) <= (1 << 14) - 8
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", len(text)) + text + bytes(data[8 + size:]))


HEADER_CHANGES = {
    "shard outside the folder": lambda h: h.update(shard_addresses=["../../etc/passwd"]),
    "absolute shard path": lambda h: h.update(shard_addresses=["/etc/passwd"]),
    "unknown field type": lambda h: h["schema"][0]["schema"]["label"].update(type="int8"),
    "array field not a blob field": lambda h: h["schema"][0].update(blob_fields=["img"]),
    "scalar listed as blob": lambda h: h["schema"][0].update(blob_fields=["f", "img", "label", "v"]),
    "bad shape": lambda h: h["schema"][0]["schema"]["v"].update(shape=[-1, -1]),
    "page without id": lambda h: h["page"][0].pop("page_id"),
    "page larger than page size": lambda h: h["page"][0].update(page_size=1 << 20),
    "negative page offset": lambda h: h["page"][1]["row_group_ids"][0].update(offset=-4),
    "page_size a string": lambda h: h.update(page_size="32768"),
    "two schemas": lambda h: h["schema"].append(h["schema"][0]),
}


@pytest.mark.parametrize("change", sorted(HEADER_CHANGES))
@pytest.mark.parametrize("api", ["FileReader", "MindDataset", "MindPage"])
def test_corrupt_header(tmp_path, change, api):
    path = _write(str(tmp_path))
    _rewrite_header(path, HEADER_CHANGES[change])
    with pytest.raises(RuntimeError, match=r"a\.mindrecord' is not a MindRecord file or its header is corrupt"):
        _read_all(path, api)


@pytest.mark.parametrize("api", ["FileReader", "MindDataset", "MindPage"])
def test_truncated_and_corrupt_files(tmp_path, api, seed_files):
    data, index = seed_files
    path = str(tmp_path / "a.mindrecord")
    cases = [(data[:len(data) // 2], index), (data[:100], index), (data, index[:2048]), (data, b"\0" * 4096),
             (data, os.urandom(4096))]
    for new_data, new_index in cases:
        with open(path, "wb") as handle:
            handle.write(new_data)
        with open(path + ".db", "wb") as handle:
            handle.write(new_index)
        with pytest.raises(RuntimeError, match=r"a\.mindrecord"):
            _read_all(path, api)


def test_index_rows_must_be_positions(tmp_path):
    import sqlite3  # pylint: disable=import-outside-toplevel
    path = _write(str(tmp_path))
    os.chmod(path + ".db", 0o600)
    with sqlite3.connect(path + ".db") as conn:
        conn.execute("UPDATE INDEXES SET PAGE_OFFSET_RAW = 'x' WHERE ROW_ID = 3")
    with pytest.raises(RuntimeError, match=r"index file .*a\.mindrecord\.db.* is corrupt: row 3"):
        FileReader(path)


def test_missing_column(tmp_path):
    path = _write(str(tmp_path))
    with pytest.raises(RuntimeError, match="nope"):
        ds.MindDataset(path, columns_list=["label", "nope"])


# ------------------------------------------------------------------------------ fuzzing
_mutation = st.lists(st.tuples(st.sampled_from(["flip", "set", "cut"]), st.integers(0, 1 << 16),
                               st.binary(min_size=1, max_size=8)), min_size=1, max_size=4)
_SPOTS = (0, 8, 40, 200, 1 << 14, (1 << 14) + 300, (1 << 14) + (1 << 15), (1 << 14) + (1 << 15) + 60)


def _mutate(data, ops, hot):
    buf = bytearray(data)
    for op, pos, blob in ops:
        # half the mutations land near a header, page or record start
        pos = (hot[pos % len(hot)] + (pos >> 4) % 64) if pos & 1 else pos
        if not buf:
            break
        pos %= len(buf)
        if op == "flip":
            buf[pos] ^= blob[0] or 1
        elif op == "cut":
            del buf[pos:]
        else:
            buf[pos:pos + len(blob)] = blob
    return bytes(buf)


@functools.lru_cache(maxsize=None)
def _seed_bytes():
    folder = tempfile.mkdtemp(prefix="mr_seed_")
    try:
        path = _write(folder)
        with open(path, "rb") as data, open(path + ".db", "rb") as index:
            return data.read(), index.read()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _fuzz_one(folder, target, ops, api):
    data, index = _seed_bytes()
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    path = os.path.join(folder, "a.mindrecord")
    with open(path, "wb") as handle:
        handle.write(_mutate(data, ops, _SPOTS) if target in ("data", "both") else data)
    with open(path + ".db", "wb") as handle:
        handle.write(_mutate(index, ops, tuple(range(0, len(index), 512))) if target in ("index", "both") else index)
    try:
        _read_all(path, api)
    except (RuntimeError, ValueError) as err:
        assert "a.mindrecord" in str(err), str(err)


_SETTINGS = dict(deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@settings(max_examples=60, **_SETTINGS)
@given(target=st.sampled_from(["data", "index", "both"]), ops=_mutation)
def test_fuzzed_files_give_clear_errors(tmp_path_factory, target, ops):
    _fuzz_one(str(tmp_path_factory.getbasetemp() / "fuzz"), target, ops, "FileReader")


@settings(max_examples=8, **_SETTINGS)
@given(target=st.sampled_from(["data", "index", "both"]), ops=_mutation)
def test_fuzzed_files_give_clear_errors_in_mind_dataset(tmp_path_factory, target, ops):
    _fuzz_one(str(tmp_path_factory.getbasetemp() / "fuzz_ds"), target, ops, "MindDataset")


@pytest.mark.slow
@settings(max_examples=3000, **dict(_SETTINGS, derandomize=False))
@given(target=st.sampled_from(["data", "index", "both"]), ops=_mutation,
       api=st.sampled_from(["FileReader", "FileReader", "FileReader", "MindPage", "MindDataset"]))
def test_fuzzed_files_give_clear_errors_long(tmp_path_factory, target, ops, api):
    _fuzz_one(str(tmp_path_factory.getbasetemp() / "fuzz_long"), target, ops, api)

"""Encrypted MindRecord files (``set_enc_key``) cross both ways with real MindSpore 2.10.

* Files tfspore encrypts (multi-shard, several AES-GCM blocks, a custom mode) read in
  MindSpore's FileReader, MindPage, ``open_for_append`` and ``MindDataset`` with the same rows.
* Files MindSpore encrypts (FileWriter, ``Dataset.save``) read in tfspore's readers.
* A wrong key, a missing key and a key for a plain file raise MindSpore's errors.

MindSpore's ``MindDataset`` side runs in ``.venv-msds`` (numpy < 2).
"""
import json
import os
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

import tfspore.dataset as tds
from tfspore import mindrecord as tmr
from tfspore._internal import crypto
from tests.mindrecord._rows import assert_same_rows

ms_mr = pytest.importorskip("mindspore.mindrecord")

REPO_ROOT = Path(__file__).resolve().parents[2]
MS_PYTHON = Path(os.environ.get("TFSPORE_MSDS_PYTHON", REPO_ROOT / ".venv-msds" / "bin" / "python"))
KEY = "0123456789abcdef01234567"
SCHEMA = {"i32": {"type": "int32"}, "i64": {"type": "int64"}, "f32": {"type": "float32"},
          "f64": {"type": "float64"}, "s": {"type": "string"}, "b": {"type": "bytes"},
          "ai": {"type": "int64", "shape": [-1]}, "af": {"type": "float32", "shape": [-1, 2]}}


def _rows(n, start=0):
    return [{"i32": i - 2, "i64": -(2 ** 40) + i * 7919, "f32": i * 0.25, "f64": i / 3, "s": f"n{i}é" * (i % 4),
             "b": bytes(range(i % 7 + 1)) * 300, "ai": np.arange(i % 4 + 1, dtype=np.int64) * 70001,
             "af": np.full((i % 2 + 1, 2), i / 2, np.float32)} for i in range(start, start + n)]


def _set_key(key, enc_mode="AES-GCM", dec_mode=None):
    for module in (ms_mr, tmr):
        module.set_enc_key(key)
        module.set_enc_mode(enc_mode)
        module.set_dec_mode(dec_mode)


@pytest.fixture(autouse=True)
def _reset():
    yield
    _set_key(None)


def _write(module, path, files=3, rows=None):
    """`files` MindRecord files of the rows (with a key, MindSpore writes one shard per file)."""
    rows = rows if rows is not None else _rows(9)
    per = -(-len(rows) // files)
    paths = [str(path)] if files == 1 else [f"{path}{k}" for k in range(files)]
    for k, name in enumerate(paths):
        writer = module.FileWriter(name, overwrite=True)
        writer.set_header_size(1 << 14)  # small files: MindSpore decrypts block by block
        writer.set_page_size(1 << 15)
        writer.add_schema(SCHEMA, "encrypted")
        writer.add_index(["i32", "s"])
        writer.write_raw_data(rows[k * per:(k + 1) * per])
        writer.commit()
    return paths


def _read(module, files):
    reader = module.FileReader(files)
    rows = list(reader.get_next())
    reader.close()
    return rows


def _pages(module, files):
    pages = module.MindPage(files)
    pages.category_field = "s"
    return json.loads(pages.read_category_info()), pages.read_at_page_by_id(1, 0, 3)


def _encrypted(files):
    return all(Path(f + s).read_bytes().endswith(b"AES-GCMENCRYPT") for f in files for s in ("", ".db"))


@pytest.mark.parametrize("blocks", ["one", "many"])
def test_tfspore_files_read_in_mindspore(tmp_path, monkeypatch, blocks):
    if blocks == "many":  # blocks of 16 KiB: the length-prefixed block chain MindSpore walks
        monkeypatch.setattr(crypto, "BLOCK_SIZE", 16384)
    _set_key(KEY)
    files = _write(tmr, tmp_path / "tf.mindrecord", files=3 if blocks == "one" else 1)
    assert blocks == "one" or Path(files[0]).read_bytes().count(struct.pack("<I", 0x7F3A5ED8)) > 1
    assert _encrypted(files)
    want = _read(tmr, files)
    assert [r["i32"] for r in want] == [r["i32"] for r in _rows(9)]
    assert_same_rows(_read(ms_mr, files), want)
    got_info, got_rows = _pages(ms_mr, files)
    want_info, want_rows = _pages(tmr, files)
    assert got_info == want_info
    assert_same_rows(got_rows, want_rows)


def test_mindspore_files_read_in_tfspore(tmp_path):
    _set_key(KEY)
    files = _write(ms_mr, tmp_path / "ms.mindrecord")
    assert _encrypted(files)
    want = _read(ms_mr, files)
    assert_same_rows(_read(tmr, files), want)
    assert_same_rows(_read(tmr, files[1]), _read(ms_mr, files[1]))
    got_info, got_rows = _pages(tmr, files)
    want_info, want_rows = _pages(ms_mr, files)
    assert got_info == want_info
    assert_same_rows(got_rows, want_rows)
    data = tds.MindDataset(files, shuffle=False, columns_list=["i32", "b", "af"])
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert [int(r["i32"]) for r in rows] == [r["i32"] for r in want]
    assert [r["b"].tobytes() for r in rows] == [r["b"] for r in want]


def test_open_for_append_both_ways(tmp_path):
    _set_key(KEY)
    for writer_module, appender in ((tmr, ms_mr), (ms_mr, tmr)):
        folder = tmp_path / writer_module.__name__
        folder.mkdir()
        files = _write(writer_module, folder / "a.mindrecord", files=1, rows=_rows(4))
        writer = appender.FileWriter.open_for_append(files[0])
        writer.write_raw_data(_rows(4, 4))
        writer.commit()
        assert _encrypted(files)
        assert_same_rows(_read(tmr, files), _read(ms_mr, files))
        assert sorted(r["i32"] for r in _read(writer_module, files)) == [i - 2 for i in range(8)]


def test_custom_mode_both_ways(tmp_path):
    def xor(src, size, dst, key):
        dst.write(bytes(b ^ ord(key[0]) for b in src.read(size)))

    def unxor(src, size, dst, key):
        dst.write(bytes(b ^ ord(key[0]) for b in src.read(size - 11)))  # without the final 0 and mode tag

    _set_key(KEY, enc_mode=xor, dec_mode=unxor)
    tf_files = _write(tmr, tmp_path / "tf_udf.mindrecord", files=1)
    ms_files = _write(ms_mr, tmp_path / "ms_udf.mindrecord", files=1)
    for f in tf_files + ms_files:
        assert Path(f).read_bytes()[-14:] == b"UDF-ENCENCRYPT"
    assert_same_rows(_read(ms_mr, tf_files), _read(tmr, ms_files))


def _errors(files, tf_files, api):
    """MindSpore's error for `files`, tfspore's for their copies `tf_files`."""
    out = []
    for module, names in ((ms_mr, files), (tmr, tf_files)):
        with pytest.raises(Exception) as info:
            getattr(module, api)(names)
        out.append(info.value)
    return out


@pytest.mark.parametrize("case", ["wrong_key", "no_key", "key_for_plain_file", "damaged"])
def test_errors_match_mindspore(tmp_path, case):
    _set_key(None if case == "key_for_plain_file" else KEY)
    files = _write(ms_mr, tmp_path / "e.mindrecord", files=2)
    _set_key({"wrong_key": "fedcba9876543210", "no_key": None}.get(case, KEY))
    if case == "damaged":
        data = bytearray(Path(files[1]).read_bytes())
        data[len(data) // 2] ^= 0x10
        Path(files[1]).write_bytes(bytes(data))
    (tmp_path / "tf").mkdir()
    tf_files = [shutil.copy(f, tmp_path / "tf") for f in files]
    for f in files:
        shutil.copy(f + ".db", tmp_path / "tf")
    for api in ("FileReader", "MindPage"):
        want, got = _errors(files, tf_files, api)
        assert type(got) is type(want) is RuntimeError
        assert str(want).strip().splitlines()[0] in str(got), (str(got), str(want))
        assert tf_files[0 if case != "damaged" else 1] in str(got)
    # MindSpore leaves the first file's plaintext copy behind when the second fails; tfspore none
    assert sorted(os.listdir(tmp_path / "tf")) == sorted(os.path.basename(f) + s for f in files for s in ("", ".db"))


def test_writer_refuses_shards_with_a_key(tmp_path):
    _set_key(KEY)
    want, got = [_raised(lambda m=module: m.FileWriter(str(tmp_path / "x.mindrecord"), shard_num=2))
                 for module in (ms_mr, tmr)]
    assert type(got) is type(want) is RuntimeError and str(want).rstrip(".") in str(got)
    assert not os.listdir(tmp_path)


def _raised(call):
    with pytest.raises(Exception) as info:
        call()
    return info.value


MS_SCRIPT = r"""
import json, sys
import numpy as np
import mindspore.dataset as ds
from mindspore.mindrecord import set_enc_key
spec = json.load(open(sys.argv[1]))
set_enc_key(spec["key"])
out = {}
data = ds.MindDataset(spec["files"], shuffle=False)
rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
out["meta"] = json.dumps({"cols": data.get_col_names(), "size": data.get_dataset_size()})
for i, row in enumerate(rows):
    for k, v in row.items():
        out[f"{i}::{k}"] = v
saved = ds.NumpySlicesDataset({"x": np.arange(7, dtype=np.int64), "v": np.arange(14, dtype=np.float32).reshape(7, 2)},
                              shuffle=False)
saved.save(spec["saved"])
np.savez(sys.argv[2], **out)
"""


def test_mind_dataset_both_ways(tmp_path):
    if not MS_PYTHON.exists():
        pytest.fail(f"MindSpore's dataset environment {MS_PYTHON} is missing: run `bash scripts/ms_dataset_env.sh`.")
    _set_key(KEY)
    files = _write(tmr, tmp_path / "md.mindrecord")
    spec = {"key": KEY, "files": files, "saved": str(tmp_path / "ms_saved.mindrecord")}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    (tmp_path / "ms_side.py").write_text(MS_SCRIPT)
    proc = subprocess.run([str(MS_PYTHON), str(tmp_path / "ms_side.py"), str(tmp_path / "spec.json"),
                           str(tmp_path / "out.npz")], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, GLOG_v="3", PYTHONPATH=""), check=False)
    if proc.returncode != 0:
        pytest.fail(f"MindSpore's MindDataset side failed (rc={proc.returncode}):\n{proc.stderr[-4000:]}")
    with np.load(tmp_path / "out.npz", allow_pickle=False) as npz:
        ms_out = {k: npz[k] for k in npz.files}
    meta = json.loads(str(ms_out["meta"]))
    data = tds.MindDataset(files, shuffle=False)
    assert data.get_col_names() == meta["cols"] and data.get_dataset_size() == meta["size"]
    for i, row in enumerate(data.create_dict_iterator(output_numpy=True, num_epochs=1)):
        for col in meta["cols"]:
            want = ms_out[f"{i}::{col}"]
            if want.dtype.kind == "S":
                assert row[col].tobytes() == want.tobytes(), (i, col)
            elif want.dtype.kind == "U":
                assert str(row[col]) == str(want), (i, col)
            else:
                assert row[col].dtype == want.dtype and row[col].shape == want.shape, (i, col)
                np.testing.assert_array_equal(row[col], want)
    saved = spec["saved"]
    assert _encrypted([saved])
    got = list(tds.MindDataset(saved, shuffle=False).create_dict_iterator(output_numpy=True, num_epochs=1))
    assert [int(r["x"]) for r in got] == list(range(7))
    np.testing.assert_array_equal(np.stack([r["v"] for r in got]), np.arange(14, dtype=np.float32).reshape(7, 2))
    assert_same_rows(_read(tmr, saved), _read(ms_mr, saved))

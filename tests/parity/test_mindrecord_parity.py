"""MindRecord parity with real MindSpore 2.10.

* The same writes made by MindSpore's and tfspore's FileWriter give byte-identical data files
  and the same SQLite index (tables, rows and shard names).
* Files MindSpore wrote read in tfspore's FileReader with MindSpore's rows, and the other way.
* ``MindDataset`` over the same files gives MindSpore's columns, dtypes, shapes and rows
  (MindSpore's dataset side runs in ``.venv-msds``, numpy < 2).
"""
import json
import os
import sqlite3
import subprocess
from pathlib import Path

import numpy as np
import pytest

import tfspore.dataset as tds
from tfspore.dataset.engine import datasets_mindrecord
from tfspore import mindrecord as tmr

ms_mr = pytest.importorskip("mindspore.mindrecord")

REPO_ROOT = Path(__file__).resolve().parents[2]
MS_PYTHON = Path(os.environ.get("TFSPORE_MSDS_PYTHON", REPO_ROOT / ".venv-msds" / "bin" / "python"))

ALL_TYPES = {"i32": {"type": "int32"}, "i64": {"type": "int64"}, "f32": {"type": "float32"},
             "f64": {"type": "float64"}, "s": {"type": "string"}, "b": {"type": "bytes"},
             "ai": {"type": "int64", "shape": [-1]}, "aj": {"type": "int32", "shape": [2, -1]},
             "af": {"type": "float32", "shape": [-1, 2]}, "ad": {"type": "float64", "shape": [3]}}


def _rows(n, start=0):
    return [{"i32": i - 2, "i64": -(2 ** 40) + i * 7919, "f32": i * 0.25, "f64": i / 3, "s": f"n{i}é" * (i % 5),
             "b": bytes(range(i % 7 + 1)) * 3, "ai": np.arange(i % 4 + 1, dtype=np.int64) * 70001 - 300,
             "aj": np.arange(2 * (i % 3 + 1), dtype=np.int32).reshape(2, -1) - 5,
             "af": np.full((i % 2 + 1, 2), i / 2, np.float32), "ad": np.array([i, -i, 0.5])}
            for i in range(start, start + n)]


# case -> (shard_num, page_size, schema, index_fields, list of write batches)
CASES = {
    "all_types": (1, None, ALL_TYPES, None, [_rows(5)]),
    "index_fields": (1, None, ALL_TYPES, ["s", "f64", "i32"], [_rows(3), _rows(2, 3)]),
    # MindSpore gives the remainder rows of a call to random shards: calls of multiples of 3 rows
    "shards": (3, None, ALL_TYPES, None, [_rows(6), _rows(3, 6), _rows(9, 9)]),
    "pages": (1, 1 << 15, {"img": {"type": "bytes"}, "label": {"type": "int64"}}, None,
              [[{"img": bytes([i]) * (2000 * i + 1), "label": -i} for i in range(k, k + 5)] for k in (0, 5, 10)]),
    "arrays_only": (2, None, {"v": {"type": "int64", "shape": [-1]}, "u": {"type": "float32", "shape": [-1]}}, None,
                    [[{"v": np.array([i, 1 << 33, -i]), "u": np.ones(i + 1, np.float32)} for i in range(4)]]),
    "raw_only": (1, None, {"label": {"type": "int32"}, "name": {"type": "string"}}, None,
                 [[{"label": i * 1000, "name": "x" * (i * 20)} for i in range(6)]]),
    "empty": (1, None, {"x": {"type": "int64"}}, None, []),
    # integer arrays whose compression grows them: MindSpore records a negative total saving as 0
    "compression_negative": (1, None, {"a": {"type": "int64", "shape": [-1]}, "b": {"type": "int32", "shape": [-1]}},
                             None, [[{"a": np.full(i + 1, 2 ** 62 - i), "b": np.full(4, 2 ** 30, np.int32)}
                                     for i in range(4)]]),
    "compression_mixed": (2, None, {"a": {"type": "int64", "shape": [-1]}, "k": {"type": "string"}}, None,
                          [[{"a": np.array([1, 2, 3, 4]), "k": "s"}, {"a": np.full(4, -2 ** 62), "k": "b"}],
                           [{"a": np.full(9, 2 ** 40), "k": "l"}, {"a": np.arange(3), "k": ""}]]),
}


def _copy_rows(rows):
    return [{k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in r.items()} for r in rows]


def _write(module, folder, case):
    shard_num, page_size, schema, index, batches = CASES[case]
    os.makedirs(folder, exist_ok=True)
    writer = module.FileWriter(os.path.join(folder, f"{case}.mindrecord"), shard_num=shard_num, overwrite=True)
    if page_size:
        writer.set_page_size(page_size)
    writer.add_schema(schema, f"desc of {case}")
    if index:
        writer.add_index(index)
    for batch in batches:
        writer.write_raw_data(_copy_rows(batch))
    writer.commit()
    names = [f"{case}.mindrecord"] if shard_num == 1 else [f"{case}.mindrecord{k}" for k in range(shard_num)]
    return [os.path.join(folder, n) for n in names]


def _db(path):
    with sqlite3.connect(path) as conn:
        return {"sql": conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall(),
                "rows": conn.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall(),
                "name": conn.execute("SELECT * FROM SHARD_NAME").fetchall()}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("mindrecord_parity")
    return {case: (_write(ms_mr, str(root / "ms"), case), _write(tmr, str(root / "tf"), case)) for case in CASES}


def _assert_rows_equal(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert sorted(g) == sorted(w)
        for k in w:
            if isinstance(w[k], np.ndarray):
                assert g[k].dtype == w[k].dtype and g[k].shape == w[k].shape, k
                np.testing.assert_array_equal(g[k], w[k])
            else:
                assert type(g[k]) is type(w[k]) and g[k] == w[k], (k, g[k], w[k])


@pytest.mark.parametrize("case", sorted(CASES))
def test_files_byte_identical(written, case):
    ms_files, tf_files = written[case]
    for ms_file, tf_file in zip(ms_files, tf_files):
        assert Path(tf_file).read_bytes() == Path(ms_file).read_bytes(), tf_file
        assert _db(tf_file + ".db") == _db(ms_file + ".db")
        assert _db_bytes(tf_file + ".db") == _db_bytes(ms_file + ".db"), tf_file + ".db"


def _db_bytes(path):
    """The index file's bytes, the SQLite library version field (bytes 96-99) set to 0.

    SQLite writes there the version of the library that last wrote the file, and MindSpore's
    library resolves to TensorFlow's bundled SQLite when TensorFlow was imported first (as here),
    so MindSpore's in-process files carry another version than its standalone ones
    (``tfspore.mindrecord`` writes MindSpore 2.10's own, 3.46.1, checked below).
    """
    data = bytearray(Path(path).read_bytes())
    assert data[:16] == b"SQLite format 3\x00" and len(data) % 4096 == 0
    data[96:100] = bytes(4)
    return bytes(data)


def test_db_stamped_with_mindspore_sqlite_version(written):
    for _, tf_files in written.values():
        for tf_file in tf_files:
            assert int.from_bytes(Path(tf_file + ".db").read_bytes()[96:100], "big") == 3046001


def test_compression_size_matches_mindspore(written):
    for case in ("compression_negative", "compression_mixed", "all_types"):
        ms_files, tf_files = written[case]
        sizes = [json.loads(_header(f))["compression_size"] for f in ms_files]
        assert [json.loads(_header(f))["compression_size"] for f in tf_files] == sizes
    assert json.loads(_header(written["compression_negative"][0][0]))["compression_size"] == 0


def _header(path):
    with open(path, "rb") as handle:
        size = int.from_bytes(handle.read(8), "little")
        return handle.read(size).decode("utf-8")


@pytest.mark.parametrize("case", sorted(CASES))
def test_read_both_ways(written, case):
    ms_files, tf_files = written[case]
    want = list(ms_mr.FileReader(ms_files[0]).get_next())  # MindSpore reading its own file
    _assert_rows_equal(list(tmr.FileReader(ms_files[0]).get_next()), want)
    _assert_rows_equal(list(ms_mr.FileReader(tf_files[0]).get_next()), want)
    _assert_rows_equal(list(tmr.FileReader(tf_files).get_next()), list(ms_mr.FileReader(ms_files).get_next()))


def test_reader_columns(written):
    ms_files, tf_files = written["all_types"]
    want = list(ms_mr.FileReader(ms_files[0], columns=["s", "ai", "f32"]).get_next())
    _assert_rows_equal(list(tmr.FileReader(tf_files[0], columns=["s", "ai", "f32"]).get_next()), want)


# ---------------------------------------------------------------------------------- MindDataset
# name -> (file key, kwargs); file key: (case, shard index or None for the first file)
DATASET_CASES = {
    "all": (("all_types", None), {"shuffle": False}),
    "columns": (("all_types", None), {"columns_list": ["s", "b", "aj"], "shuffle": False}),
    "all_shards": (("shards", None), {"shuffle": False}),
    "one_shard_file": (("shards", [1]), {"shuffle": False, "columns_list": ["i32", "ai"]}),
    "sharded_0": (("shards", [0, 2]), {"shuffle": False, "num_shards": 3, "shard_id": 0}),
    "sharded_2": (("shards", [0, 2]), {"shuffle": False, "num_shards": 3, "shard_id": 2}),
    "num_samples": (("pages", None), {"shuffle": False, "num_samples": 4}),
    "padded": (("raw_only", None), {"shuffle": False, "num_shards": 4, "shard_id": 3, "num_padded": 2,
                                    "columns_list": ["name", "label"],
                                    "padded_sample": {"label": -1, "name": "pad"}}),
    "arrays_only": (("arrays_only", None), {"shuffle": False}),
}

MS_SCRIPT = r"""
import json, sys
import numpy as np
import mindspore.dataset as ds
spec = json.load(open(sys.argv[1]))
out = {}
for name, (files, kwargs) in spec.items():
    data = ds.MindDataset(files, **kwargs)
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    out[name + "::meta"] = json.dumps({"cols": data.get_col_names(), "size": data.get_dataset_size(),
                                       "rows": len(rows)})
    for i, row in enumerate(rows):
        for k, v in row.items():
            out[f"{name}::{i}::{k}"] = v
np.savez(sys.argv[2], **out)
"""


def _dataset_files(written, key):
    case, which = key
    files = written[case][1]  # tfspore's files (byte-identical to MindSpore's)
    return files[0] if which is None else [files[k] for k in which]


@pytest.fixture(scope="module")
def ms_dataset_rows(written, tmp_path_factory):
    if not MS_PYTHON.exists():
        pytest.fail(f"MindSpore's dataset environment {MS_PYTHON} is missing: run `bash scripts/ms_dataset_env.sh` "
                    f"to build .venv-msds with mindspore==2.10.0 and numpy<2.")
    root = tmp_path_factory.mktemp("mindrecord_dataset_parity")
    spec = {name: (_dataset_files(written, key), kwargs) for name, (key, kwargs) in DATASET_CASES.items()}
    (root / "spec.json").write_text(json.dumps(spec))
    (root / "ms_side.py").write_text(MS_SCRIPT)
    env = dict(os.environ, GLOG_v="3", PYTHONPATH="")
    proc = subprocess.run([str(MS_PYTHON), str(root / "ms_side.py"), str(root / "spec.json"), str(root / "out.npz")],
                          capture_output=True, text=True, timeout=300, env=env, check=False)
    if proc.returncode != 0:
        pytest.fail(f"MindSpore's MindDataset side failed (rc={proc.returncode}):\n{proc.stderr[-4000:]}")
    with np.load(root / "out.npz", allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}, spec


@pytest.mark.parametrize("stream", [False, True], ids=["in_memory", "streamed"])
@pytest.mark.parametrize("name", sorted(DATASET_CASES))
def test_mind_dataset_matches_mindspore(ms_dataset_rows, name, stream, monkeypatch):
    ms_out, spec = ms_dataset_rows
    files, kwargs = spec[name]
    meta = json.loads(str(ms_out[f"{name}::meta"]))
    if stream:  # blob fields read chunk by chunk from the files, as for files over the size limit
        monkeypatch.setattr(datasets_mindrecord, "STREAM_BLOB_BYTES", 0)
    data = tds.MindDataset(files, **kwargs)
    assert data.get_col_names() == meta["cols"]
    assert data.get_dataset_size() == meta["size"]
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert len(rows) == meta["rows"]
    for i, row in enumerate(rows):
        for col in meta["cols"]:
            want = ms_out[f"{name}::{i}::{col}"]
            got = row[col]
            if want.dtype.kind == "S":  # MindSpore: a bytes field is a 1-element bytes array; tfspore: uint8
                assert got.dtype == np.uint8 and got.tobytes() == want.tobytes(), (name, i, col)
                continue
            if want.dtype.kind == "U":  # string fields: the same str (numpy may size '' differently)
                assert got.dtype.kind == "U" and got.shape == want.shape and str(got) == str(want), (name, i, col)
                continue
            assert got.dtype == want.dtype and got.shape == want.shape, (name, i, col, got.dtype, want.dtype)
            np.testing.assert_array_equal(got, want)


def _append_and_parallel(module, folder):
    os.makedirs(folder, exist_ok=True)
    schema = {"label": {"type": "int32"}, "img": {"type": "bytes"}, "v": {"type": "int64", "shape": [-1]}}
    writer = module.FileWriter(os.path.join(folder, "ap.mindrecord"), shard_num=2, overwrite=True)
    writer.set_page_size(1 << 15)
    writer.add_schema(schema, "append")
    writer.add_index(["label"])
    writer.write_raw_data([{"label": i, "img": bytes([i]) * 5000 * i, "v": np.arange(i + 1)} for i in range(4)])
    writer.commit()
    writer = module.FileWriter.open_for_append(os.path.join(folder, "ap.mindrecord0"))
    writer.write_raw_data([{"label": i, "img": bytes([i]) * 2000 * i, "v": np.arange(i + 1)} for i in range(4, 8)])
    writer.commit()
    writer = module.FileWriter(os.path.join(folder, "pw.mindrecord"), shard_num=2, overwrite=True)
    writer.add_schema(schema, "parallel")
    for k in range(3):
        writer.write_raw_data([{"label": i, "img": b"x" * i, "v": np.arange(i + 1) * -99}
                               for i in range(k * 3, k * 3 + 3)], parallel_writer=True)
    writer.commit()
    return [os.path.join(folder, f"{name}.mindrecord{k}") for name in ("ap", "pw") for k in range(2)]


def test_open_for_append_and_parallel_writer_byte_identical(tmp_path):
    ms_files = _append_and_parallel(ms_mr, str(tmp_path / "ms"))
    tf_files = _append_and_parallel(tmr, str(tmp_path / "tf"))
    for ms_file, tf_file in zip(ms_files, tf_files):
        assert Path(tf_file).read_bytes() == Path(ms_file).read_bytes(), tf_file
        assert _db_bytes(tf_file + ".db") == _db_bytes(ms_file + ".db"), tf_file + ".db"
    _assert_rows_equal(list(tmr.FileReader(ms_files[0]).get_next()), list(ms_mr.FileReader(tf_files[0]).get_next()))
    # a parallel writer's shards are standalone files
    assert [r["label"] for r in tmr.FileReader(tf_files[2]).get_next()] == [0, 1, 2, 6, 7, 8]


SAVE_SCRIPT = r"""
import sys
import numpy as np
import mindspore.dataset as ds
data = ds.NumpySlicesDataset({"a": np.arange(5, dtype=np.int32), "u8": np.arange(10, dtype=np.uint8).reshape(5, 2),
                              "f16": np.ones((5, 2, 3), np.float16) / 3, "s": np.array(["x", "yy", "z", "w", "v"]),
                              "flag": np.array([True, False, True, True, False]),
                              "u64": np.arange(5, dtype=np.uint64)}, shuffle=False)
data.save(sys.argv[1])
"""


def test_dataset_save_matches_mindspore(tmp_path):
    if not MS_PYTHON.exists():
        pytest.fail(f"MindSpore's dataset environment {MS_PYTHON} is missing.")
    (tmp_path / "save.py").write_text(SAVE_SCRIPT)
    ms_file = str(tmp_path / "ms_saved.mindrecord")
    proc = subprocess.run([str(MS_PYTHON), str(tmp_path / "save.py"), ms_file], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, GLOG_v="3", PYTHONPATH=""), check=False)
    if proc.returncode != 0:
        pytest.fail(f"MindSpore's save failed (rc={proc.returncode}):\n{proc.stderr[-4000:]}")
    namespace = {}
    exec(SAVE_SCRIPT.replace("import mindspore.dataset as ds", "import tfspore.dataset as ds")  # same pipeline
         .replace("data.save(sys.argv[1])", ""), namespace)  # pylint: disable=exec-used
    tf_file = str(tmp_path / "tf_saved.mindrecord")
    namespace["data"].save(tf_file)
    assert tmr.FileReader(tf_file).schema() == ms_mr.FileReader(ms_file).schema()
    _assert_rows_equal(list(ms_mr.FileReader(tf_file).get_next()), list(ms_mr.FileReader(ms_file).get_next()))


def _page_calls(module, path):
    pages = module.MindPage(path)
    out = [pages.candidate_fields]
    for field, name in (("label", "1"), ("name", "n1"), ("f", "0.5")):
        pages.category_field = field
        out.append(json.loads(pages.read_category_info()))
        out.append(pages.read_at_page_by_id(1, 0, 2) + pages.read_at_page_by_id(1, 1, 2))
        out.append(pages.read_at_page_by_name(name, 0, 5))
    return out


def test_mind_page_matches_mindspore(tmp_path):
    writer = tmr.FileWriter(str(tmp_path / "mp.mindrecord"), shard_num=2)
    writer.add_schema({"label": {"type": "int32"}, "name": {"type": "string"}, "f": {"type": "float32"},
                       "img": {"type": "bytes"}, "v": {"type": "int64", "shape": [-1]}}, "page")
    writer.write_raw_data([{"label": i % 3, "name": f"n{i % 4}", "f": i % 2 * 0.5, "img": bytes([i]) * 2,
                            "v": np.arange(i % 3 + 1)} for i in range(10)])
    writer.commit()
    path = str(tmp_path / "mp.mindrecord0")
    got, want = _page_calls(tmr, path), _page_calls(ms_mr, path)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        if isinstance(w, dict):
            assert g == w
        else:
            _assert_rows_equal(g, w)


@pytest.mark.parametrize("kind", ["missing", "fifo", "dev_zero", "folder", "tiny", "missing_index"])
def test_unreadable_inputs_raise_as_mindspore(tmp_path, kind):
    target = tmp_path / "x.mindrecord"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev_zero":
        target.symlink_to("/dev/zero")
    elif kind == "folder":
        target.mkdir()
    elif kind == "tiny":
        target.write_bytes(b"abc")
        (tmp_path / "x.mindrecord.db").write_bytes(b"abc")
    elif kind == "missing_index":
        target.write_bytes(bytes(64))
    for api in ("FileReader", "MindPage"):
        errors = []
        for module in (ms_mr, tmr):
            with pytest.raises(Exception) as info:
                getattr(module, api)(str(target))
            errors.append(info.value)
        want, got = errors
        assert type(got) is type(want) is RuntimeError
        assert str(want).strip().splitlines()[0] in str(got), (str(got), str(want))

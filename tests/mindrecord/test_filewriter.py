"""FileWriter: schemas, index fields, shards, overwrite rules and errors; read back with FileReader."""
import os
import sqlite3

import numpy as np
import pytest

from tfspore.mindrecord import (SUCCESS, FileReader, FileWriter, MRMDefineIndexError, MRMGetMetaError,
                                MRMInvalidPageSizeError, MRMInvalidSchemaError, ParamTypeError, ParamValueError)

ALL_TYPES = {"i32": {"type": "int32"}, "i64": {"type": "int64"}, "f32": {"type": "float32"},
             "f64": {"type": "float64"}, "s": {"type": "string"}, "b": {"type": "bytes"},
             "ai": {"type": "int64", "shape": [-1]}, "aj": {"type": "int32", "shape": [2, -1]},
             "af": {"type": "float32", "shape": [-1, 2]}, "ad": {"type": "float64", "shape": [3]}}


def _rows(n):
    return [{"i32": i - 2, "i64": -(2 ** 40) + i, "f32": i * 0.25, "f64": i / 3, "s": f"name{i}é",
             "b": bytes(range(i + 1)), "ai": np.arange(i + 1, dtype=np.int64) * 1000 - 300,
             "aj": np.arange(2 * (i + 1), dtype=np.int32).reshape(2, -1),
             "af": np.full((i + 1, 2), i / 2, np.float32), "ad": np.array([i, -i, 0.5])} for i in range(n)]


def _write(path, rows, schema=None, shard_num=1, **kw):
    writer = FileWriter(str(path), shard_num=shard_num, **kw)
    writer.add_schema(schema or ALL_TYPES, "test")
    writer.write_raw_data(rows)
    writer.commit()
    return writer


def _check_same(read, written):
    assert len(read) == len(written)
    for got, want in zip(read, written):
        assert set(got) == set(want)
        for k, value in want.items():
            if isinstance(value, np.ndarray):
                assert got[k].dtype == value.dtype and got[k].shape == value.shape
                np.testing.assert_array_equal(got[k], value)
            elif isinstance(value, float):
                assert got[k] == pytest.approx(value, rel=0, abs=0)
            else:
                assert got[k] == value


def test_round_trip_every_field_type(tmp_path):
    rows = _rows(4)
    _write(tmp_path / "all.mindrecord", rows)
    reader = FileReader(str(tmp_path / "all.mindrecord"))
    assert reader.len() == 4 and reader.schema() == ALL_TYPES
    _check_same(list(reader.get_next()), _rows(4))
    reader.close()
    assert os.path.isfile(tmp_path / "all.mindrecord.db")


def test_columns_and_integral_floats(tmp_path):
    _write(tmp_path / "c.mindrecord", _rows(2))
    rows = list(FileReader(str(tmp_path / "c.mindrecord"), columns=["f32", "b"]).get_next())
    assert rows[0] == {"f32": 0, "b": b"\x00"} and isinstance(rows[0]["f32"], int)  # as MindSpore
    assert rows[1]["f32"] == 0.25


def test_shards_split_each_call_and_read_all(tmp_path):
    path = tmp_path / "s.mindrecord"
    writer = FileWriter(str(path), shard_num=3)
    writer.add_schema({"label": {"type": "int32"}}, "s")
    writer.write_raw_data([{"label": i} for i in range(7)])
    writer.write_raw_data([{"label": i} for i in range(7, 10)])
    writer.commit()
    names = sorted(os.listdir(tmp_path))
    assert names == [f"s.mindrecord{k}{ext}" for k in range(3) for ext in ("", ".db")]
    # 7 rows: 3, 2, 2; 3 rows: 1, 1, 1
    assert [r["label"] for r in FileReader(str(path) + "1").get_next()] == [0, 1, 2, 7, 3, 4, 8, 5, 6, 9]
    assert [r["label"] for r in FileReader([str(path) + "2"]).get_next()] == [5, 6, 9]
    with sqlite3.connect(str(path) + "2.db") as conn:
        assert conn.execute("SELECT NAME FROM SHARD_NAME").fetchall() == [("s.mindrecord2",)]
        assert [r[0] for r in conn.execute("SELECT label_0 FROM INDEXES")] == [5, 6, 9]


def test_pages_overflow_with_small_page_size(tmp_path):
    path = tmp_path / "p.mindrecord"
    writer = FileWriter(str(path))
    writer.set_page_size(1 << 15)
    writer.add_schema({"img": {"type": "bytes"}, "label": {"type": "int64"}}, "p")
    rows = [{"img": bytes([i]) * 9000, "label": i} for i in range(9)]
    for k in range(0, 9, 4):
        writer.write_raw_data(rows[k:k + 4])
    writer.commit()
    got = list(FileReader(str(path)).get_next())
    assert [r["label"] for r in got] == list(range(9)) and all(r["img"] == bytes([i]) * 9000
                                                                for i, r in enumerate(got))
    with pytest.raises(RuntimeError, match="does not fit a page"):
        big = FileWriter(str(tmp_path / "big.mindrecord"))
        big.set_page_size(1 << 15)
        big.add_schema({"img": {"type": "bytes"}}, "p")
        big.write_raw_data([{"img": b"x" * (1 << 15)}])


def test_default_and_chosen_index_fields(tmp_path):
    _write(tmp_path / "d.mindrecord", _rows(1))
    with sqlite3.connect(str(tmp_path / "d.mindrecord.db")) as conn:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name='INDEXES'").fetchone()[0]
    assert "f32_0 REAL,INC_1 INT, f64_0 REAL,INC_2 INT, i32_0 INTEGER" in sql and "s_0 TEXT" in sql
    writer = FileWriter(str(tmp_path / "e.mindrecord"))
    writer.add_schema(ALL_TYPES, "x")
    writer.add_index(["s", "i32"])
    with pytest.raises(MRMDefineIndexError, match="Failed to set field b since it's not primitive type"):
        writer.add_index(["b"])
    with pytest.raises(ParamTypeError, match="'index_fields' expect list type"):
        writer.add_index("s")
    writer.write_raw_data(_rows(1))
    writer.commit()
    with sqlite3.connect(str(tmp_path / "e.mindrecord.db")) as conn:
        assert conn.execute("SELECT s_0, i32_0 FROM INDEXES").fetchall() == [("name0é", -2)]


@pytest.mark.parametrize("schema, message", [
    ({}, "Schema content is empty"),
    ({"a-b": {"type": "int32"}}, "Field 'a-b' should be composed of"),
    ({"a": {"type": "int16"}}, "Field 'a' contain illegal attribute 'int16'"),
    ({"a": {"type": "string", "shape": [2]}}, "Field 'a' contain illegal attribute 'string'"),
    ({"a": {"type": "int32", "shape": 3}}, "Field 'a' contain illegal attribute '3'"),
    ({"a": "int32"}, "Field 'a' should be dict"),
])
def test_invalid_schema(tmp_path, schema, message):
    writer = FileWriter(str(tmp_path / "x.mindrecord"))
    with pytest.raises(MRMInvalidSchemaError, match=message):
        writer.add_schema(schema, "bad")


def test_invalid_rows_are_dropped(tmp_path):
    writer = FileWriter(str(tmp_path / "r.mindrecord"))
    writer.add_schema({"label": {"type": "int32"}, "x": {"type": "float32", "shape": [2]}}, "r")
    writer.write_raw_data([{"label": 1, "x": np.ones(2, np.float32)}, {"label": "no", "x": np.ones(2, np.float32)},
                           {"label": 2, "x": np.ones(2, np.float64)}, {"label": 3},
                           {"label": 4, "x": np.ones(3, np.float32)}])
    with pytest.raises(RuntimeError, match="There is no valid data"):
        writer.write_raw_data([{"label": 1.5, "x": np.ones(2, np.float32)}])
    writer.commit()
    assert [r["label"] for r in FileReader(str(tmp_path / "r.mindrecord")).get_next()] == [1]


def test_argument_errors(tmp_path):
    with pytest.raises(ParamValueError, match="shard_num's value: 0 should between 1 and 1000"):
        FileWriter(str(tmp_path / "a.mindrecord"), shard_num=0)
    with pytest.raises(ParamValueError, match="shard_num's type is not int"):
        FileWriter(str(tmp_path / "a.mindrecord"), shard_num="2")
    with pytest.raises(ParamValueError, match="overwrite's type is not bool"):
        FileWriter(str(tmp_path / "a.mindrecord"), overwrite=1)
    with pytest.raises(ParamValueError, match="File name should not contains"):
        FileWriter(str(tmp_path / "a?.mindrecord"))
    with pytest.raises(ParamValueError, match="can not end with '/'"):
        FileWriter(str(tmp_path) + "/")
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    with pytest.raises(MRMGetMetaError):
        writer.add_index(["x"])
    with pytest.raises(MRMInvalidPageSizeError, match="got 100"):
        writer.set_page_size(100)
    writer.add_schema({"x": {"type": "int32"}}, "a")
    with pytest.raises(ParamTypeError, match="'raw_data' expect list type"):
        writer.write_raw_data({"x": 1})
    with pytest.raises(ParamTypeError, match="'raw_data item' expect dict type"):
        writer.write_raw_data([1])
    with pytest.raises(TypeError, match="parallel_writer"):
        writer.write_raw_data([{"x": 1}], parallel_writer=1)
    writer.write_raw_data([{"x": 1}])
    writer.commit()
    with pytest.raises(RuntimeError, match="flushed MindRecord files"):
        writer.write_raw_data([{"x": 1}])
    assert SUCCESS == 0


def test_overwrite_rules(tmp_path):
    path = tmp_path / "o.mindrecord"
    _write(path, [{"x": 1}], {"x": {"type": "int32"}})
    with pytest.raises(RuntimeError, match="already exist.*o.mindrecord"):
        _write(path, [{"x": 2}], {"x": {"type": "int32"}})
    os.remove(path)  # the .db alone also blocks
    with pytest.raises(RuntimeError, match=r"already exist.*o.mindrecord.db"):
        _write(path, [{"x": 2}], {"x": {"type": "int32"}})
    _write(path, [{"x": 3}], {"x": {"type": "int32"}}, overwrite=True)
    assert [r["x"] for r in FileReader(str(path)).get_next()] == [3]


def test_empty_commit_and_arrays_only(tmp_path):
    writer = FileWriter(str(tmp_path / "empty.mindrecord"))
    writer.add_schema({"x": {"type": "int64"}}, "e")
    writer.commit()
    assert FileReader(str(tmp_path / "empty.mindrecord")).len() == 0
    rows = [{"v": np.array([i, -i]), "u": np.array([0.5 * i])} for i in range(3)]
    _write(tmp_path / "arr.mindrecord", rows, {"v": {"type": "int64", "shape": [-1]},
                                              "u": {"type": "float64", "shape": [-1]}})
    got = list(FileReader(str(tmp_path / "arr.mindrecord")).get_next())
    _check_same(got, [{"v": np.array([i, -i]), "u": np.array([0.5 * i])} for i in range(3)])


def test_open_for_append(tmp_path):
    path = tmp_path / "ap.mindrecord"
    _write(path, _rows(2))
    writer = FileWriter.open_for_append(str(path))
    writer.write_raw_data(_rows(4)[2:])
    writer.commit()
    _check_same(list(FileReader(str(path)).get_next()), _rows(4))
    from tfspore.mindrecord import MRMOpenForAppendError
    with pytest.raises(MRMOpenForAppendError, match="missing.mindrecord"):
        FileWriter.open_for_append(str(tmp_path / "missing.mindrecord"))


def test_parallel_writer_gives_each_call_to_one_shard(tmp_path):
    path = tmp_path / "pw.mindrecord"
    writer = FileWriter(str(path), shard_num=2)
    writer.add_schema({"x": {"type": "int32"}}, "pw")
    for k in range(3):
        writer.write_raw_data([{"x": k * 10 + i} for i in range(2)], parallel_writer=True)
    with pytest.raises(RuntimeError, match="must be consistent"):
        writer.write_raw_data([{"x": 1}])
    writer.commit()
    assert [r["x"] for r in FileReader(str(path) + "0").get_next()] == [0, 1, 20, 21]
    assert [r["x"] for r in FileReader(str(path) + "1").get_next()] == [10, 11]

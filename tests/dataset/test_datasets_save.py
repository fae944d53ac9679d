"""Dataset.save: rows of a pipeline written as MindRecord and read back."""
import numpy as np
import pytest

import tfspore.dataset as ds
from tfspore.mindrecord import FileReader


def _data():
    return ds.NumpySlicesDataset({"a": np.arange(5, dtype=np.int32), "u8": np.arange(10, dtype=np.uint8).reshape(5, 2),
                                  "f16": np.ones((5, 2, 3), np.float16), "s": np.array(["x", "yy", "z", "w", "v"]),
                                  "flag": np.array([True, False, True, True, False]),
                                  "u64": np.arange(5, dtype=np.uint64)}, shuffle=False)


def test_save_types_and_round_trip(tmp_path):
    path = str(tmp_path / "saved.mindrecord")
    _data().map(lambda x: x * 2, input_columns="a").save(path)
    reader = FileReader(path)
    assert reader.schema() == {"a": {"type": "int32"}, "u8": {"type": "int32", "shape": [-1]},
                               "f16": {"type": "float32", "shape": [-1, 3]}, "s": {"type": "string"},
                               "flag": {"type": "int32"}, "u64": {"type": "int64"}}
    rows = list(reader.get_next())
    assert [r["a"] for r in rows] == [0, 2, 4, 6, 8] and [r["s"] for r in rows] == ["x", "yy", "z", "w", "v"]
    assert [r["flag"] for r in rows] == [1, 0, 1, 1, 0]
    np.testing.assert_array_equal(rows[2]["u8"], np.array([4, 5], np.int32))
    back = list(ds.MindDataset(path, shuffle=False).create_dict_iterator(output_numpy=True, num_epochs=1))
    assert back[1]["f16"].dtype == np.float32 and back[1]["f16"].shape == (2, 3)


def test_save_several_files_and_errors(tmp_path):
    path = str(tmp_path / "multi.mindrecord")
    _data().save(path, num_files=2)
    assert sorted(int(r["a"]) for r in ds.MindDataset(path + "0", shuffle=False).create_dict_iterator(
        output_numpy=True, num_epochs=1)) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="file_type only supports 'mindrecord', but got 'tfrecord'"):
        _data().save(str(tmp_path / "x"), file_type="tfrecord")
    with pytest.raises(ValueError, match="num_files should be between"):
        _data().save(str(tmp_path / "x"), num_files=0)
    with pytest.raises(RuntimeError, match="already exist"):
        _data().save(path + "0")


def test_save_without_scalar_columns_stores_nil_records(tmp_path):
    """MindSpore's save stores a nil scalar record (0xc0) when every column is an array."""
    path = str(tmp_path / "arrays.mindrecord")
    ds.NumpySlicesDataset({"v": np.arange(6, dtype=np.int32).reshape(3, 2)}, shuffle=False).save(path)
    with open(path, "rb") as handle:
        data = handle.read()
    header_size = 1 << 24
    raw_page = data[header_size + (1 << 25):]
    assert raw_page == (b"\x01" + bytes(7) + b"\xc0") * 3
    assert [r["v"].tolist() for r in FileReader(path).get_next()] == [[0, 1], [2, 3], [4, 5]]

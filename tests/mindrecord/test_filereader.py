"""FileReader: argument checks and clear errors on missing, truncated or corrupt files."""
import os
import struct

import pytest

from tfspore.mindrecord import FileReader, FileWriter, ParamTypeError, ParamValueError


@pytest.fixture()
def small_file(tmp_path):
    path = tmp_path / "r.mindrecord"
    writer = FileWriter(str(path))
    writer.add_schema({"label": {"type": "int32"}, "img": {"type": "bytes"}}, "r")
    writer.write_raw_data([{"label": i, "img": b"abc" * (i + 1)} for i in range(4)])
    writer.commit()
    return path


def test_reads_rows_in_order(small_file):
    reader = FileReader(str(small_file), num_consumer=1)
    assert [(r["label"], r["img"]) for r in reader.get_next()] == [(i, b"abc" * (i + 1)) for i in range(4)]
    reader.close()
    reader.close()


def test_argument_errors(small_file):
    with pytest.raises(ParamValueError, match="num_consumer: 0 should between 1"):
        FileReader(str(small_file), num_consumer=0)
    with pytest.raises(ParamValueError, match="num_consumer is not int"):
        FileReader(str(small_file), num_consumer="2")
    with pytest.raises(ParamTypeError, match="'columns' expect list type"):
        FileReader(str(small_file), columns="label")
    with pytest.raises(ParamValueError, match=r"columns \['nope'\] are not fields"):
        FileReader(str(small_file), columns=["nope"])
    with pytest.raises(RuntimeError, match="The input: .*missing.mindrecord is not exists"):
        FileReader(str(small_file.parent / "missing.mindrecord"))


def test_missing_index(small_file):
    os.remove(str(small_file) + ".db")
    with pytest.raises(RuntimeError, match=r"The input: .*r.mindrecord.db is not exists"):
        FileReader(str(small_file))


def test_truncated_file(small_file):
    size = os.path.getsize(small_file)
    with open(small_file, "r+b") as f:
        f.truncate(size - 5)
    with pytest.raises(RuntimeError, match="r.mindrecord' is truncated"):
        FileReader(str(small_file))


def test_not_a_mindrecord_file(tmp_path):
    path = tmp_path / "junk.mindrecord"
    path.write_bytes(struct.pack("<Q", 1 << 40) + b"junk")
    (tmp_path / "junk.mindrecord.db").write_bytes(b"not an index")
    with pytest.raises(RuntimeError, match="junk.mindrecord' is not a MindRecord file"):
        FileReader(str(path))
    path.write_bytes(struct.pack("<Q", 4) + b"junk")
    with pytest.raises(RuntimeError, match="junk.mindrecord' is not a MindRecord file"):
        FileReader(str(path))


def test_corrupt_record(small_file):
    with open(small_file, "r+b") as f:  # the first blob record's length
        f.seek(16 * 1024 * 1024)
        f.write(struct.pack("<Q", 999))
    with pytest.raises(RuntimeError, match="r.mindrecord' is corrupt: sample 0 record length 999"):
        FileReader(str(small_file))

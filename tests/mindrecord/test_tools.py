"""The MindRecord converters: JPEG bytes, the restricted CIFAR unpickler, schemas and argument checks."""
import gzip
import os
import pickle

import numpy as np
import pytest
import tensorflow as tf

from tfspore.mindrecord import (Cifar10ToMR, CsvToMR, FileReader, ImageNetToMR, MnistToMR, PathNotExistsError,
                                TFRecordToMR)
from tfspore.mindrecord.tools._convert import encode_jpeg, load_cifar_pickle


def test_jpeg_has_opencv_header_and_decodes_close():
    image = np.random.default_rng(0).integers(0, 256, (16, 16, 3), dtype=np.uint8)
    data = encode_jpeg(image)
    assert data[:4] == b"\xff\xd8\xff\xe0" and data[6:11] == b"JFIF\x00" and data[13:18] == bytes([0, 0, 1, 0, 1])
    assert tf.io.decode_jpeg(data).shape == (16, 16, 3)
    gray = encode_jpeg(np.full((28, 28, 1), 200, np.uint8))
    assert int(np.abs(tf.io.decode_jpeg(gray).numpy().astype(int) - 200).max()) <= 1


class _Evil:
    def __reduce__(self):
        return (os.system, ("true",))


def test_cifar_unpickler_allows_arrays_only(tmp_path):
    good = tmp_path / "data_batch_1"
    good.write_bytes(pickle.dumps({b"data": np.zeros((1, 3072), np.uint8), b"labels": [3]}, protocol=3))
    assert load_cifar_pickle(str(good), "Cifar10")[b"labels"] == [3]
    bad = tmp_path / "evil"
    bad.write_bytes(pickle.dumps({b"data": _Evil()}))
    with pytest.raises(RuntimeError, match=r"Not a valid Cifar10 Dataset: .*evil.*forbidden"):
        load_cifar_pickle(str(bad), "Cifar10")


def test_cifar10_needs_both_batch_kinds(tmp_path):
    with pytest.raises(PathNotExistsError, match="data_batch_"):
        Cifar10ToMR(str(tmp_path), str(tmp_path / "c.mindrecord"))


def test_mnist_rows(tmp_path):
    for prefix, count in (("train", 3), ("t10k", 2)):
        with gzip.open(tmp_path / f"{prefix}-images-idx3-ubyte.gz", "wb") as handle:
            handle.write(bytes(16) + np.full((count, 28, 28), 9, np.uint8).tobytes())
        with gzip.open(tmp_path / f"{prefix}-labels-idx1-ubyte.gz", "wb") as handle:
            handle.write(bytes(8) + bytes(range(count)))
    MnistToMR(str(tmp_path), str(tmp_path / "m")).transform()
    rows = list(FileReader(str(tmp_path / "m_train.mindrecord")).get_next())
    assert [r["label"] for r in rows] == [0, 1, 2]
    assert tf.io.decode_jpeg(rows[0]["data"]).shape == (28, 28, 1)
    with pytest.raises(ValueError, match="partition_number must be int"):
        MnistToMR(str(tmp_path), str(tmp_path / "x"), 1.5)


def test_imagenet_map_file_and_skipped_files(tmp_path):
    (tmp_path / "img" / "n1").mkdir(parents=True)
    (tmp_path / "img" / "n1" / "a.JPEG").write_bytes(b"jpeg-bytes")
    (tmp_path / "img" / "n1" / "b.png").write_bytes(b"skipped")
    (tmp_path / "img" / "n1" / "c.jpg").write_bytes(b"")
    (tmp_path / "map.txt").write_text("n1 7\nn2 8\n")
    ImageNetToMR(str(tmp_path / "map.txt"), str(tmp_path / "img"), str(tmp_path / "i.mindrecord")).transform()
    rows = list(FileReader(str(tmp_path / "i.mindrecord")).get_next())
    assert rows == [{"file_name": str(tmp_path / "img" / "n1" / "a.JPEG"), "label": 7, "image": b"jpeg-bytes"}]


def test_csv_schema_and_missing_column(tmp_path):
    pytest.importorskip("pandas")
    (tmp_path / "d.csv").write_text("name,n,x,flag\nab,1,0.5,True\n")
    CsvToMR(str(tmp_path / "d.csv"), str(tmp_path / "c.mindrecord")).transform()
    reader = FileReader(str(tmp_path / "c.mindrecord"))
    assert {k: v["type"] for k, v in reader.schema().items()} == {"name": "string", "n": "int64", "x": "float64",
                                                                  "flag": "int32"}
    assert list(reader.get_next()) == [{"name": "ab", "n": 1, "x": 0.5, "flag": 1}]
    with pytest.raises(RuntimeError, match="column nope does not exist"):
        CsvToMR(str(tmp_path / "d.csv"), str(tmp_path / "c2.mindrecord"), ["nope"]).transform()


def test_tfrecord_names_and_types(tmp_path):
    path = str(tmp_path / "x.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        feature = {"a-b c": tf.train.Feature(int64_list=tf.train.Int64List(value=[5])),
                   "v": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, 2.5])),
                   "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=["é".encode()]))}
        writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    features = {"a-b c": tf.io.FixedLenFeature([], tf.int64), "v": tf.io.FixedLenFeature([2], tf.float32),
                "s": tf.io.FixedLenFeature([], tf.string)}
    TFRecordToMR(path, str(tmp_path / "t.mindrecord"), features).transform()
    rows = list(FileReader(str(tmp_path / "t.mindrecord")).get_next())
    assert rows[0]["a_b_c"] == 5 and rows[0]["s"] == "é" and rows[0]["v"].tolist() == [1.5, 2.5]
    with pytest.raises(ValueError, match="TFRecord feature_dict parameter error"):
        TFRecordToMR(path, str(tmp_path / "u.mindrecord"), {"zz": tf.io.FixedLenFeature([], tf.int64)}).transform()

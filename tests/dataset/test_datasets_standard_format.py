"""TFRecordDataset on bad files: a clear error naming the file, never a hang or a raw TensorFlow error."""
import os
import threading

import numpy as np
import pytest
import tensorflow as tf

import tfspore.dataset as ds


def _write(path, n=3):
    with tf.io.TFRecordWriter(path) as w:
        for i in range(n):
            feature = {"x": tf.train.Feature(float_list=tf.train.FloatList(value=[float(i)] * 4))}
            w.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    return path


def _rows(data):
    return [r[0] for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_valid_file_reads(tmp_path):
    rows = _rows(ds.TFRecordDataset(_write(str(tmp_path / "ok.tfrecord")), shuffle=False))
    np.testing.assert_array_equal(np.stack(rows), np.repeat(np.arange(3, dtype=np.float32)[:, None], 4, 1))


@pytest.mark.parametrize("as_list", [False, True])
def test_fifo_is_refused_without_blocking(tmp_path, as_list):
    path = str(tmp_path / "pipe.tfrecord")
    os.mkfifo(path)
    result = {}

    def build():
        try:
            ds.TFRecordDataset([path] if as_list else path)
        except ValueError as e:
            result["error"] = str(e)

    worker = threading.Thread(target=build, daemon=True)
    worker.start()
    worker.join(60)
    if worker.is_alive():  # unblock the reader before failing
        with open(path, "wb"):
            pass
        pytest.fail("TFRecordDataset blocked on a FIFO")
    assert "For 'TFRecordDataset', the 'dataset_files' must be regular files" in result["error"]
    assert "pipe.tfrecord" in result["error"] and "a FIFO" in result["error"]


def test_device_and_symlink_to_device_are_refused(tmp_path):
    link = str(tmp_path / "zero.tfrecord")
    os.symlink("/dev/zero", link)
    for path in ("/dev/zero", link):
        with pytest.raises(ValueError, match=rf"regular files, but got '{path}', which is a device"):
            ds.TFRecordDataset(path)


def test_corrupt_first_record_names_the_file(tmp_path):
    path = _write(str(tmp_path / "bad.tfrecord"))
    data = bytearray(open(path, "rb").read())
    data[20] ^= 0xFF
    open(path, "wb").write(bytes(data))
    with pytest.raises(RuntimeError, match=r"failed to read the TFRecord file '.*bad\.tfrecord': corrupted record"):
        ds.TFRecordDataset(path)


def test_not_a_tfrecord_file_names_the_file(tmp_path):
    path = str(tmp_path / "text.tfrecord")
    open(path, "wb").write(b"hello, this is not a record file at all\n" * 4)
    with pytest.raises(RuntimeError, match=r"text\.tfrecord"):
        ds.TFRecordDataset(path)


def test_truncated_last_record_fails_without_tensorflow_internals(tmp_path):
    path = _write(str(tmp_path / "cut.tfrecord"))
    data = open(path, "rb").read()
    open(path, "wb").write(data[:-7])
    with pytest.raises(RuntimeError, match=r"Dataset Pipeline Error Message:\n\[ERROR\] For 'TFRecordDataset', failed "
                                           r"to read the TFRecord file '.*cut\.tfrecord': truncated record") as info:
        _rows(ds.TFRecordDataset(path, shuffle=False))
    assert "{{function_node" not in str(info.value) and "[Op:" not in str(info.value)


def test_corrupt_record_mid_epoch_names_the_file_of_several(tmp_path):
    good = _write(str(tmp_path / "good.tfrecord"))
    bad = _write(str(tmp_path / "late.tfrecord"))
    data = bytearray(open(bad, "rb").read())
    data[-5] ^= 0xFF  # the last record's data: the first record (read when the dataset is built) is fine
    open(bad, "wb").write(bytes(data))
    with pytest.raises(RuntimeError, match=r"failed to read the TFRecord file '.*late\.tfrecord': corrupted record"):
        _rows(ds.TFRecordDataset([good, bad], shuffle=False))

"""MindRecord converters (Cifar10ToMR, Cifar100ToMR, MnistToMR, ImageNetToMR, CsvToMR, TFRecordToMR)
against MindSpore 2.10's on the same small inputs.

MindSpore's CIFAR / MNIST converters need OpenCV and its CSV converter pandas: they run in
``.venv-msds`` (numpy < 2); its TFRecord converter needs TensorFlow and runs in-process. Every
file both sides write reads in both FileReaders with the same rows. The files are byte-identical
(data and ``.db``) except for colour JPEG bytes, which OpenCV's and TensorFlow's encoders round
differently: there the decoded images are compared.
"""
import gzip
import json
import os
import pickle
import subprocess
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf

from tfspore import mindrecord as tmr

ms_mr = pytest.importorskip("mindspore.mindrecord")

REPO_ROOT = Path(__file__).resolve().parents[2]
MS_PYTHON = Path(os.environ.get("TFSPORE_MSDS_PYTHON", REPO_ROOT / ".venv-msds" / "bin" / "python"))

# Runs one converter per case with the given module and records the outcome.
CONVERT = r'''
import json, os, sys
import numpy as np


def convert(mr, src, out):
    """Run every converter of module `mr` on the inputs in `src`, writing under `out`."""
    results = {}
    cases = {
        "cifar10": lambda: mr.Cifar10ToMR(f"{src}/cifar10", f"{out}/cifar10.mindrecord").transform(["label"]),
        "cifar100": lambda: mr.Cifar100ToMR(f"{src}/cifar100", f"{out}/cifar100.mindrecord").transform(),
        "mnist": lambda: mr.MnistToMR(f"{src}/mnist", f"{out}/mnist").transform(),
        "mnist_parts": lambda: mr.MnistToMR(f"{src}/mnist", f"{out}/mnistp", 2).transform(),
        "imagenet": lambda: mr.ImageNetToMR(f"{src}/imagenet/map.txt", f"{src}/imagenet/images",
                                            f"{out}/imagenet.mindrecord").transform(),
        "csv": lambda: mr.CsvToMR(f"{src}/mixed.csv", f"{out}/csv.mindrecord").transform(),
        "csv_columns": lambda: mr.CsvToMR(f"{src}/mixed.csv", f"{out}/csv_columns.mindrecord",
                                          ["name", "score"]).transform(),
        "csv_numbers": lambda: mr.CsvToMR(f"{src}/numbers.csv", f"{out}/csv_numbers.mindrecord").transform(),
        "csv_missing_column": lambda: mr.CsvToMR(f"{src}/mixed.csv", f"{out}/csv_missing.mindrecord",
                                                 ["nope"]).transform(),
    }
    for name, run in cases.items():
        try:
            run()
            results[name] = "ok"
        except Exception as err:  # the error type is compared
            results[name] = type(err).__name__
    return results


if __name__ == "__main__":
    import mindspore.mindrecord as ms_mr
    os.makedirs(sys.argv[2], exist_ok=True)
    print("RESULTS " + json.dumps(convert(ms_mr, sys.argv[1], sys.argv[2])))
'''

OUTPUTS = {"cifar10": ["cifar10.mindrecord", "cifar10.mindrecord_test"],
           "cifar100": ["cifar100.mindrecord", "cifar100.mindrecord_test"],
           "mnist": ["mnist_train.mindrecord", "mnist_test.mindrecord"],
           "mnist_parts": ["mnistp_train.mindrecord0", "mnistp_train.mindrecord1", "mnistp_test.mindrecord0",
                           "mnistp_test.mindrecord1"],
           "imagenet": ["imagenet.mindrecord"], "csv": ["csv.mindrecord"], "csv_columns": ["csv_columns.mindrecord"],
           "tfrecord": ["tfrecord.mindrecord"]}
COLOUR_JPEG = {"cifar10", "cifar100"}


def _cifar_pickle(batch: dict) -> bytes:
    """`batch` pickled as the CIFAR files are (numpy < 2's module name for the array rebuilder)."""
    data = pickle.dumps(batch, protocol=3)
    return data.replace(b"cnumpy._core.multiarray\n", b"cnumpy.core.multiarray\n")


def _make_inputs(root: Path) -> None:
    rng = np.random.default_rng(7)
    (root / "cifar10").mkdir()
    # (MindSpore's reader needs batches of one size, as CIFAR-10's are)
    for name, count in (("data_batch_1", 3), ("data_batch_2", 3), ("test_batch", 2)):
        batch = {b"data": rng.integers(0, 256, (count, 3072), dtype=np.uint8),
                 b"labels": [int(v) for v in rng.integers(0, 10, count)], b"batch_label": name.encode()}
        (root / "cifar10" / name).write_bytes(_cifar_pickle(batch))
    (root / "cifar10" / "readme.html").write_text("not a batch")
    (root / "cifar100").mkdir()
    for name, count in (("train", 3), ("test", 2)):
        batch = {b"data": rng.integers(0, 256, (count, 3072), dtype=np.uint8),
                 b"fine_labels": [int(v) for v in rng.integers(0, 100, count)],
                 b"coarse_labels": [int(v) for v in rng.integers(0, 20, count)]}
        (root / "cifar100" / name).write_bytes(_cifar_pickle(batch))
    (root / "mnist").mkdir()
    for prefix, count in (("train", 5), ("t10k", 3)):
        images = rng.integers(0, 256, (count, 28, 28), dtype=np.uint8)
        images[:, 10:18, 10:18] = 255  # some structure besides noise
        with gzip.open(root / "mnist" / f"{prefix}-images-idx3-ubyte.gz", "wb") as handle:
            handle.write(np.array([2051, count, 28, 28], ">i4").tobytes() + images.tobytes())
        with gzip.open(root / "mnist" / f"{prefix}-labels-idx1-ubyte.gz", "wb") as handle:
            handle.write(np.array([2049, count], ">i4").tobytes() + rng.integers(0, 10, count, dtype=np.uint8).tobytes())
    images = root / "imagenet" / "images"
    for folder, label in (("n01", 0), ("n02", 1)):
        (images / folder).mkdir(parents=True)
        for k in range(2):
            pixels = rng.integers(0, 256, (8 + k, 6, 3), dtype=np.uint8)
            (images / folder / f"img{k}.JPEG").write_bytes(tf.io.encode_jpeg(pixels).numpy())
        (images / folder / "notes.txt").write_text("skipped")
    (images / "n02" / "empty.jpg").write_bytes(b"")
    (root / "imagenet" / "map.txt").write_text("n01 0\nn02 1\nn09 2\n")
    (root / "mixed.csv").write_text("name,count,score,flag\nab,1,0.5,True\ncd,-7,2.25,False\n,3,,True\n")
    (root / "numbers.csv").write_text("a,b\n1,0.5\n2,1.5\n")
    with tf.io.TFRecordWriter(str(root / "x.tfrecord")) as writer:
        for i in range(5):
            feature = {
                "file name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[f"f{i}.jpg".encode()])),
                "image_bytes": tf.train.Feature(bytes_list=tf.train.BytesList(value=[bytes([i]) * (i + 1)])),
                "int64_scalar": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 1000 - 2])),
                "float_scalar": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 4])),
                "int64_list": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i, i + 6)))),
                "float_list": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 3] * 7))}
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())


TF_FEATURES = {"file name": tf.io.FixedLenFeature([], tf.string),
               "image_bytes": tf.io.FixedLenFeature([], tf.string),
               "int64_scalar": tf.io.FixedLenFeature([], tf.int64),
               "float_scalar": tf.io.FixedLenFeature([], tf.float32),
               "int64_list": tf.io.FixedLenFeature([6], tf.int64),
               "float_list": tf.io.FixedLenFeature([7], tf.float32)}


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    if not MS_PYTHON.exists():
        pytest.fail(f"MindSpore's dataset environment {MS_PYTHON} is missing: run `bash scripts/ms_dataset_env.sh`.")
    root = tmp_path_factory.mktemp("mr_tools")
    src, ms_out, tf_out = root / "src", root / "ms", root / "tf"
    src.mkdir()
    tf_out.mkdir()
    _make_inputs(src)
    script = root / "convert.py"
    script.write_text(CONVERT)
    proc = subprocess.run([str(MS_PYTHON), str(script), str(src), str(ms_out)], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, GLOG_v="3", PYTHONPATH=""), check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULTS ")]
    if proc.returncode != 0 or not lines:
        pytest.fail(f"MindSpore's converters failed (rc={proc.returncode}):\n{proc.stderr[-4000:]}")
    ms_results = json.loads(lines[-1][len("RESULTS "):])
    namespace = {}
    exec(CONVERT.split("if __name__")[0], namespace)  # pylint: disable=exec-used
    tf_results = namespace["convert"](tmr, str(src), str(tf_out))
    # TFRecordToMR needs TensorFlow: MindSpore's runs in this process.
    for module, out, results in ((ms_mr, ms_out, ms_results), (tmr, tf_out, tf_results)):
        module.TFRecordToMR(str(src / "x.tfrecord"), str(out / "tfrecord.mindrecord"), TF_FEATURES,
                            ["image_bytes"]).transform()
        results["tfrecord"] = "ok"
    return ms_out, tf_out, ms_results, tf_results


def test_same_outcomes(converted):
    _, _, ms_results, tf_results = converted
    assert tf_results == ms_results
    assert ms_results["csv_missing_column"] == "RuntimeError"
    # pandas gives a row of numbers only as floats: MindSpore's schema check drops every row
    assert ms_results["csv_numbers"] == "RuntimeError"


def _rows(module, path):
    reader = module.FileReader(path)
    try:
        return list(reader.get_next())
    finally:
        reader.close()


def _assert_same_rows(got, want, colour_jpeg):
    assert len(got) == len(want) > 0
    for g, w in zip(got, want):
        assert sorted(g) == sorted(w)
        for key, value in w.items():
            if isinstance(value, np.ndarray):
                assert g[key].dtype == value.dtype
                np.testing.assert_array_equal(g[key], value)
            elif colour_jpeg and key == "data":
                a = tf.io.decode_jpeg(g[key]).numpy().astype(int)
                b = tf.io.decode_jpeg(value).numpy().astype(int)
                assert a.shape == b.shape == (32, 32, 3)
                assert np.abs(a - b).max() <= 4 and np.abs(a - b).mean() < 0.5
            else:
                assert type(g[key]) is type(value) and g[key] == value, (key, g[key], value)


@pytest.mark.parametrize("case", sorted(OUTPUTS))
def test_rows_read_both_ways(converted, case):
    ms_out, tf_out, _, _ = converted
    for name in OUTPUTS[case]:
        ms_file, tf_file = str(ms_out / name), str(tf_out / name)
        want = _rows(ms_mr, ms_file)
        _assert_same_rows(_rows(tmr, tf_file), want, case in COLOUR_JPEG)
        _assert_same_rows(_rows(ms_mr, tf_file), want, case in COLOUR_JPEG)
        _assert_same_rows(_rows(tmr, ms_file), want, False)
        assert tmr.FileReader(tf_file).schema() == ms_mr.FileReader(ms_file).schema()


@pytest.mark.parametrize("case", sorted(set(OUTPUTS) - COLOUR_JPEG - {"mnist_parts"}))
def test_files_byte_identical(converted, case):
    ms_out, tf_out, _, _ = converted
    for name in OUTPUTS[case]:
        assert (tf_out / name).read_bytes() == (ms_out / name).read_bytes(), name
        tf_db, ms_db = (tf_out / f"{name}.db").read_bytes(), (ms_out / f"{name}.db").read_bytes()
        if case == "tfrecord":
            # MindSpore wrote this one in this process, where its SQLite resolves to TensorFlow's,
            # which records its own library version at bytes 96-99 (tfspore writes MindSpore's).
            assert int.from_bytes(tf_db[96:100], "big") == 3046001
            tf_db, ms_db = tf_db[:96] + tf_db[100:], ms_db[:96] + ms_db[100:]
        assert tf_db == ms_db, f"{name}.db"


def test_mnist_gray_jpeg_bytes_match_opencv(converted):
    ms_out, tf_out, _, _ = converted
    for name in ("mnist_train.mindrecord", "mnist_test.mindrecord"):
        assert [r["data"] for r in _rows(tmr, str(tf_out / name))] == [r["data"] for r in _rows(tmr, str(ms_out / name))]


def test_mnist_partitions_hold_every_row(converted):
    ms_out, tf_out, _, _ = converted
    for split in ("train", "test"):
        names = [f"mnistp_{split}.mindrecord0", f"mnistp_{split}.mindrecord1"]
        key = lambda row: (row["label"], row["data"])  # noqa: E731
        got = sorted((r for n in names for r in _rows(tmr, str(tf_out / n))), key=key)
        want = sorted((r for n in names for r in _rows(ms_mr, str(ms_out / n))), key=key)
        _assert_same_rows(got, want, False)


def test_converter_argument_errors(tmp_path):
    for module in (tmr, ms_mr):
        with pytest.raises(ValueError, match="partition_number must be int"):
            module.ImageNetToMR(str(tmp_path / "map.txt"), str(tmp_path), str(tmp_path / "x.mindrecord"), "2")
        with pytest.raises(ValueError, match="only support FixedLenFeature"):
            module.TFRecordToMR(str(tmp_path / "x.tfrecord"), str(tmp_path / "y.mindrecord"),
                                {"a": tf.io.VarLenFeature(tf.int64)})
        with pytest.raises(ValueError, match="should be tf.string"):
            module.TFRecordToMR(str(tmp_path / "x.tfrecord"), str(tmp_path / "y.mindrecord"),
                                {"a": tf.io.FixedLenFeature([], tf.int64)}, ["a"])
    (tmp_path / "test_batch").write_bytes(b"")  # MindSpore's needs OpenCV, missing in this environment
    with pytest.raises(tmr.PathNotExistsError, match="data_batch_"):
        tmr.Cifar10ToMR(str(tmp_path), str(tmp_path / "c.mindrecord"))

"""Tests of tools/zoo_check.py: its data writers, config copies, failure parsing and output."""
from __future__ import annotations

import json
import os
import struct
import sys
import textwrap

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import zoo_check  # noqa: E402


# ---------------------------------------------------------------------------------------------
# Data writers: the files read back in their formats, with tfspore's own sources.
# ---------------------------------------------------------------------------------------------

def test_write_mnist_idx_headers_and_dataset(tmp_path):
    zoo_check.write_mnist(str(tmp_path), n_train=6, n_test=3)
    with open(tmp_path / "train" / "train-images-idx3-ubyte", "rb") as f:
        assert struct.unpack(">IIII", f.read(16)) == (2051, 6, 28, 28)
        assert len(f.read()) == 6 * 28 * 28
    with open(tmp_path / "test" / "t10k-labels-idx1-ubyte", "rb") as f:
        assert struct.unpack(">II", f.read(8)) == (2049, 3)
        assert all(0 <= b < 10 for b in f.read())
    import tfspore.dataset as ds
    rows = list(ds.MnistDataset(str(tmp_path / "train"), shuffle=False).create_tuple_iterator(output_numpy=True))
    assert len(rows) == 6
    assert rows[0][0].shape == (28, 28, 1)


def test_write_cifar10_bin_records_and_dataset(tmp_path):
    zoo_check.write_cifar10_bin(str(tmp_path / "small"), records=3, train_files=5)
    for i in range(1, 6):
        assert os.path.getsize(tmp_path / "small" / "train" / f"data_batch_{i}.bin") == 3 * 3073
    assert os.path.getsize(tmp_path / "small" / "eval" / "test_batch.bin") == 3 * 3073
    assert len((tmp_path / "small" / "train" / "batches.meta.txt").read_text().split()) == 10
    zoo_check.write_cifar10_bin(str(tmp_path / "full"))  # the default: files a CIFAR-10 reader accepts
    import tfspore.dataset as ds
    data = ds.Cifar10Dataset(str(tmp_path / "full" / "train"), shuffle=False)
    assert data.get_dataset_size() == 10000
    image, label = next(data.create_tuple_iterator(output_numpy=True))
    assert image.shape == (32, 32, 3) and 0 <= int(label) < 10


def test_write_image_folder_decodes(tmp_path):
    zoo_check.write_image_folder(str(tmp_path), splits=("train",), num_classes=3, per_class=2, size=20)
    assert sorted(os.listdir(tmp_path / "train")) == ["class_000", "class_001", "class_002"]
    import tfspore.dataset as ds
    import tfspore.dataset.vision as vision
    data = ds.ImageFolderDataset(str(tmp_path / "train"), shuffle=False).map(vision.Decode(), "image")
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert len(rows) == 6
    assert rows[0][0].shape == (20, 20, 3)
    assert sorted({int(r[1]) for r in rows}) == [0, 1, 2]


def test_write_tfrecord_kinds(tmp_path):
    import tensorflow as tf
    path = str(tmp_path / "d" / "x.tfrecord")
    zoo_check.write_tfrecord(path, {"ids": ("int", 5, 7), "mask": ("ones", 5, 2), "w": ("float_ones", 2, 1),
                                    "v": ("float", 3, 2.0), "y": ("int_as_float", 4, 2)}, n=3)
    records = [tf.train.Example.FromString(r.numpy()) for r in tf.data.TFRecordDataset(path)]
    assert len(records) == 3
    f = records[0].features.feature
    assert len(f["ids"].int64_list.value) == 5 and all(0 <= v < 7 for v in f["ids"].int64_list.value)
    assert list(f["mask"].int64_list.value) == [1] * 5
    assert list(f["w"].float_list.value) == [1.0, 1.0]
    assert all(0.0 <= v < 2.0 for v in f["v"].float_list.value)
    assert set(f["y"].float_list.value) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="unknown feature kind 'bytes'"):
        zoo_check.write_tfrecord(path, {"b": ("bytes", 1, 1)}, n=1)


# ---------------------------------------------------------------------------------------------
# Config copies.
# ---------------------------------------------------------------------------------------------

_YAML = textwrap.dedent("""\
    # comment
    device_target: Ascend
    epoch_size: 90   # many
    net_cfg:
        hidden_size: 768
        compute_type: mstype.float16
    other_cfg:
        hidden_size: 1024
    ---
    epoch_size: "help text"
    """)


def test_override_yaml_top_level_nested_and_appended():
    out = zoo_check.override_yaml(_YAML, {
        "device_target": "CPU", "epoch_size": 1, "net_cfg.hidden_size": 32,
        "net_cfg.compute_type": zoo_check.Raw("mstype.float32"), "flag": True, "sizes": [32, 32]})
    lines = out.splitlines()
    assert 'device_target: "CPU"' in lines
    assert "epoch_size: 1" in lines
    assert "    hidden_size: 32" in lines and "    hidden_size: 1024" in lines
    assert "    compute_type: mstype.float32" in lines
    assert lines.index("flag: True") < lines.index("---")
    assert "sizes: [32, 32]" in lines
    assert 'epoch_size: "help text"' in lines  # later documents unchanged
    with pytest.raises(KeyError, match="no key 'net_cfg.missing'"):
        zoo_check.override_yaml(_YAML, {"net_cfg.missing": 1})


# ---------------------------------------------------------------------------------------------
# Failure parsing.
# ---------------------------------------------------------------------------------------------

def test_parse_failure_uses_last_traceback_and_skips_import_machinery(tmp_path):
    zoo = str(tmp_path / "zoo")
    log = textwrap.dedent(f"""\
        some output
        Traceback (most recent call last):
          File "/x/old.py", line 1, in <module>
        ValueError: an earlier one
        Traceback (most recent call last):
          File "<frozen runpy>", line 88, in _run_code
          File "{zoo}/research/cv/net/train.py", line 22, in <module>
            from mindspore.profiler import Profiler
          File "<frozen importlib._bootstrap>", line 1176, in _find_and_load
          File "/repo/tfspore/compat.py", line 107, in find_spec
            raise ModuleNotFoundError(
        ModuleNotFoundError: No module named 'mindspore.profiler'
        """)
    where, error = zoo_check.parse_failure(log, zoo)
    assert where == "research/cv/net/train.py:22"
    assert error == "ModuleNotFoundError: No module named 'mindspore.profiler'"
    assert zoo_check.parse_failure("loading\nKilled\n\n", zoo) == ("", "Killed")


# ---------------------------------------------------------------------------------------------
# End to end on a tiny fake zoo.
# ---------------------------------------------------------------------------------------------

_TRAIN = textwrap.dedent("""\
    import argparse
    import os

    import numpy as np
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore import nn
    from mindspore.train import Model

    parser = argparse.ArgumentParser()
    parser.add_argument("--config_path")
    parser.add_argument("--data_path")
    parser.add_argument("--fail", default="no")
    args = parser.parse_args()
    config = dict(line.split(": ", 1) for line in open(args.config_path).read().split("---")[0].splitlines()
                  if ": " in line and not line.startswith("#"))
    assert config["device_target"] == '"CPU"', config
    assert config["epoch_size"] == "1", config
    if args.fail == "yes":
        raise RuntimeError("For 'Thing', the 'x' is broken.")
    images = np.fromfile(os.path.join(args.data_path, "train", "data_batch_1.bin"), np.uint8).reshape(-1, 3073)
    data = ds.NumpySlicesDataset({"x": images[:, 1:].astype(np.float32) / 255.0,
                                  "y": images[:, 0].astype(np.int32)}, shuffle=False).batch(2)
    net = nn.Dense(3072, 10)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
    model.train(int(config["epoch_size"]), data, dataset_sink_mode=False)
    ms.save_checkpoint(net, "net.ckpt")
    """)

_EVAL = textwrap.dedent("""\
    import os
    import sys
    assert os.path.getsize(sys.argv[1]) > 3072 * 10 * 4
    print("loaded", sys.argv[1])
    """)


def _fake_zoo(tmp_path):
    zoo = tmp_path / "zoo"
    (zoo / "research" / "cv" / "tiny").mkdir(parents=True)
    (zoo / "research" / "cv" / "tiny" / "train.py").write_text(_TRAIN)
    (zoo / "research" / "cv" / "tiny" / "eval.py").write_text(_EVAL)
    (zoo / "research" / "cv" / "tiny" / "config.yaml").write_text(
        "device_target: Ascend\nepoch_size: 50\n---\ndevice_target: 'help'\n")
    data = lambda root: zoo_check.write_cifar10_bin(root, records=4)  # noqa: E731
    overrides = {"device_target": "CPU", "epoch_size": 1}
    entries = [
        zoo_check.Entry("tiny-train", "research/cv/tiny/train.py",
                        ["--config_path", "{config}", "--data_path", "{data}"], data,
                        "research/cv/tiny/config.yaml", overrides),
        zoo_check.Entry("tiny-eval", "research/cv/tiny/eval.py", ["{ckpt}"], after="tiny-train"),
        zoo_check.Entry("tiny-broken", "research/cv/tiny/train.py",
                        ["--config_path", "{config}", "--data_path", "{data}", "--fail", "yes"], data,
                        "research/cv/tiny/config.yaml", overrides, area="nlp"),
        zoo_check.Entry("tiny-eval-broken", "research/cv/tiny/eval.py", ["{ckpt}"], after="tiny-broken"),
    ]
    return zoo, entries


def test_main_runs_a_fake_zoo_and_reports(tmp_path, capsys):
    zoo, entries = _fake_zoo(tmp_path)
    entries = [e for e in entries if e.name != "tiny-eval"]  # the eval hand-over is tested with a fake Python
    out_json = tmp_path / "out.json"
    out_md = tmp_path / "out.md"
    work = tmp_path / "work"
    rc = zoo_check.main(["--zoo", str(zoo), "--workdir", str(work), "--json", str(out_json), "--timeout", "300",
                         "--markdown", str(out_md), "--zoo-commit", "abc123"], entries=entries)
    assert rc == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("tiny-train ") and "ran to the end (" in lines[0]
    assert lines[1].startswith("tiny-broken ")
    assert lines[1].endswith("failed at research/cv/tiny/train.py:20: "
                             "RuntimeError: For 'Thing', the 'x' is broken.")
    assert lines[2] == f"{'tiny-eval-broken':<28} not run: no checkpoint from tiny-broken"
    assert lines[3] == "total: 1 of 3 scripts ran to the end"
    # the training ran in its own working folder and wrote its checkpoint there
    assert (work / "tiny-train" / "net.ckpt").stat().st_size > 3072 * 10 * 4
    # the script's config is a copy with the overrides; the zoo's file is unchanged
    assert "epoch_size: 50" in (zoo / "research" / "cv" / "tiny" / "config.yaml").read_text()
    assert "epoch_size: 1" in (work / "tiny-train" / "config.yaml").read_text()
    report = json.loads(out_json.read_text())
    assert report["ran_to_the_end"] == 1 and report["total"] == 3
    assert report["zoo_commit"] == "abc123" and report["zoo"] == str(zoo)
    assert [r["status"] for r in report["results"]] == ["ok", "failed", "not run"]
    broken = report["results"][1]
    assert broken["where"] == "research/cv/tiny/train.py:20" and broken["returncode"] == 1
    assert broken["area"] == "nlp" and broken["line"] == lines[1]
    assert broken["command"][1:4] == ["-m", "tfspore", "run"]
    table = out_md.read_text().splitlines()
    assert table[:2] == ["| entry | script | area | result |", "|---|---|---|---|"]
    assert table[2].startswith("| tiny-train | `research/cv/tiny/train.py` | cv | ran to the end (")
    assert table[3] == ("| tiny-broken | `research/cv/tiny/train.py` | nlp | failed at research/cv/tiny/train.py:20: "
                        "RuntimeError: For 'Thing', the 'x' is broken. |")
    assert table[-1] == "total: 1 of 3 scripts ran to the end"


def _fake_python(tmp_path, body):
    # Stands in for the Python that runs `-m tfspore run SCRIPT ARGS...` ($4 is SCRIPT).
    path = tmp_path / "fakepy"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_main_only_adds_the_training_run_and_rejects_unknown_names(tmp_path, capsys):
    zoo, entries = _fake_zoo(tmp_path)
    python = _fake_python(tmp_path, 'case "$4" in *train.py) echo x > a.ckpt;; esac\n'
                                    'case "$4" in *eval.py) test -f "$5" && echo "$5";; esac\n')
    work = tmp_path / "w"
    rc = zoo_check.main(["--zoo", str(zoo), "--only", "tiny-eval", "--python", python, "--workdir", str(work)],
                        entries=entries)
    assert rc == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == ["tiny-train", "tiny-eval"]
    assert lines[-1] == "total: 2 of 2 scripts ran to the end"
    # the eval was given the checkpoint its training entry wrote in its own folder
    assert (work / "tiny-eval" / "run.log").read_text().strip() == str(work / "tiny-train" / "a.ckpt")
    with pytest.raises(SystemExit, match="'--only' must name entries of the list, but got 'nope'"):
        zoo_check.main(["--zoo", str(zoo), "--only", "nope"], entries=entries)


def test_reuse_trained_keeps_the_training_run_of_an_earlier_call(tmp_path, capsys):
    zoo, entries = _fake_zoo(tmp_path)
    python = _fake_python(tmp_path, 'case "$4" in *train.py) echo x > a.ckpt;; esac\n'
                                    'case "$4" in *eval.py) echo "$5";; esac\n')
    work = tmp_path / "w"
    args = ["--zoo", str(zoo), "--only", "tiny-eval", "--python", python, "--workdir", str(work)]
    assert zoo_check.main(args, entries=entries) == 0
    capsys.readouterr()
    assert zoo_check.main(args + ["--reuse-trained"], entries=entries) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{'tiny-train':<28} reused: its checkpoint {work / 'tiny-train' / 'a.ckpt'}"
    assert lines[1].startswith("tiny-eval ") and lines[-1] == "total: 2 of 2 scripts ran to the end"
    assert (work / "tiny-eval" / "run.log").read_text().strip() == str(work / "tiny-train" / "a.ckpt")
    # an entry named in --only runs again
    assert zoo_check.main(["--zoo", str(zoo), "--only", "tiny-train", "tiny-eval", "--python", python,
                           "--workdir", str(work), "--reuse-trained"], entries=entries) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("tiny-train ") and "ran to the end (" in first


def test_timeout_is_reported(tmp_path, capsys):
    zoo = tmp_path / "zoo"
    (zoo / "s").mkdir(parents=True)
    (zoo / "s" / "slow.py").write_text("")
    python = _fake_python(tmp_path, "echo starting\nexec sleep 60\n")
    rc = zoo_check.main(["--zoo", str(zoo), "--timeout", "2", "--python", python],
                        entries=[zoo_check.Entry("slow", "s/slow.py")])
    assert rc == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("slow ") and line.endswith("failed: timed out after 2 s (last line: starting)")


def test_real_entries_are_well_formed():
    names = [e.name for e in zoo_check.ENTRIES]
    assert len(names) == len(set(names))
    assert len(names) >= 20
    by_name = {e.name: e for e in zoo_check.ENTRIES}
    for e in zoo_check.ENTRIES:
        if e.after is not None:
            assert names.index(e.after) < names.index(e.name)
            assert any("{ckpt}" in str(a) for a in e.args) or any("{ckpt}" in str(v) for v in e.overrides.values())
        if e.config is not None:
            assert e.config.endswith(".yaml") and e.overrides.get("device_target") == "CPU"
    assert {"lenet-train", "lenet-eval", "resnet18-cifar10-train", "resnet50-cifar10-eval", "mobilenetv2-train",
            "mobilenetv2-eval", "bert-pretrain", "bert-classifier", "transformer-train"} <= set(by_name)
    assert {e.area for e in zoo_check.ENTRIES} == {"cv", "nlp", "audio", "recommendation"}


def test_exit_without_traceback_reports_the_status(tmp_path, capsys):
    zoo = tmp_path / "zoo"
    (zoo / "s").mkdir(parents=True)
    (zoo / "s" / "x.py").write_text("")
    python = _fake_python(tmp_path, "echo working\necho 'out of memory'\nexit 3\n")
    rc = zoo_check.main(["--zoo", str(zoo), "--python", python], entries=[zoo_check.Entry("x", "s/x.py")])
    assert rc == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line == f"{'x':<28} failed: exited with status 3 (last line: out of memory)"


def test_raw_values_stay_unquoted_after_substitution(tmp_path):
    zoo = tmp_path / "zoo"
    (zoo / "s").mkdir(parents=True)
    (zoo / "s" / "c.yaml").write_text("dtype: mstype.float16\npath: ''\n")
    (zoo / "s" / "x.py").write_text("")
    entry = zoo_check.Entry("x", "s/x.py", config="s/c.yaml",
                            overrides={"dtype": zoo_check.Raw("mstype.float32"), "path": "{data}/a"})
    work = tmp_path / "work"
    work.mkdir()
    result = zoo_check.run_entry(entry, str(zoo), str(work), 30, _fake_python(tmp_path, "exit 0\n"))
    assert result.status == "ok"
    text = (work / "c.yaml").read_text().splitlines()
    assert text == ["dtype: mstype.float32", f'path: "{work}/data/a"']

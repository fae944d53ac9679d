"""End-to-end runs of the example training scripts in examples/."""
import functools
import gzip
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
LENET = REPO_ROOT / "examples" / "lenet" / "train.py"
LOSS_LINE = re.compile(r"^epoch: (\d+) step: (\d+), loss is (\S+)$", re.M)
ACCURACY_LINE = re.compile(r"^epoch: (\d+) accuracy: ([0-9.]+)$", re.M)


def _run_lenet(tmp_path, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    cmd = [sys.executable, str(LENET), "--ckpt_dir", str(tmp_path / "ckpt"),
           "--summary_dir", str(tmp_path / "summary"), *args]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-5000:]}"
    return proc.stdout


@functools.lru_cache(maxsize=None)
def _load_example_module():
    """examples/lenet/train.py as a module (once per process: it defines absl flags)."""
    spec = importlib.util.spec_from_file_location("lenet_train_example", LENET)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tensorboard_data(summary_dir: Path):
    """What TensorBoard serves from summary_dir: the tags of each dashboard, and the scalars as (step, value)."""
    from tensorboard.backend.event_processing import plugin_event_multiplexer
    from tensorboard.util import tensor_util

    assert any("tfevents" in p.name for p in summary_dir.iterdir()), sorted(summary_dir.iterdir())
    mux = plugin_event_multiplexer.EventMultiplexer()
    mux.AddRunsFromDirectory(str(summary_dir))
    mux.Reload()
    assert list(mux.Runs()) == ["."], mux.Runs()
    dashboards = {plugin: set(mux.PluginRunToTagToContent(plugin).get(".", {}))
                  for plugin in ("scalars", "histograms", "images", "graphs", "hparams", "text")}
    scalars = {tag: [(e.step, float(tensor_util.make_ndarray(e.tensor_proto))) for e in mux.Tensors(".", tag)]
               for tag in dashboards["scalars"]}
    return dashboards, scalars


@pytest.fixture(scope="module")
def lenet_one_epoch(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("lenet")
    return tmp_path, _run_lenet(tmp_path, "--epochs", "1", "--summary_freq", "16")


def test_lenet_prints_loss_monitor_line_and_accuracy(lenet_one_epoch):
    _, stdout = lenet_one_epoch
    losses = LOSS_LINE.findall(stdout)
    assert len(losses) == 1, stdout
    epoch, step, loss = losses[0]
    # 1437 training digits plus 4 shifted copies, 32 per batch, remainder dropped.
    assert (epoch, step) == ("1", "224")
    assert 0.0 < float(loss) < 2.5
    accuracies = ACCURACY_LINE.findall(stdout)
    assert [a[0] for a in accuracies] == ["1"], stdout
    assert float(accuracies[0][1]) > 0.8, stdout
    assert re.search(r"^============== Accuracy: [0-9.]+ ==============$", stdout, re.M), stdout
    # TimeMonitor(224) prints once per epoch, before the epoch's accuracy line.
    times = re.findall(r"^Train epoch time: ([0-9.]+) ms, per step time: ([0-9.]+) ms$", stdout, re.M)
    assert len(times) == 1, stdout
    assert float(times[0][1]) == pytest.approx(float(times[0][0]) / 224, rel=1e-3, abs=1e-3)
    assert stdout.index("Train epoch time") < stdout.index("epoch: 1 accuracy")


def test_lenet_model_checkpoint_names(lenet_one_epoch):
    """ModelCheckpoint(prefix='lenet') with save_checkpoint_steps = steps per epoch: one file per epoch."""
    tmp_path, stdout = lenet_one_epoch
    names = sorted(p.name for p in (tmp_path / "ckpt").iterdir())
    assert names == ["lenet-1_224.ckpt"], names
    assert re.search(r"^saved .*lenet-1_224\.ckpt$", stdout, re.M), stdout


def test_lenet_checkpoint_loads_and_reproduces_accuracy(lenet_one_epoch):
    import tfspore as ms

    tmp_path, stdout = lenet_one_epoch
    ckpt = tmp_path / "ckpt" / "lenet-1_224.ckpt"
    assert ckpt.is_file(), sorted(p.name for p in (tmp_path / "ckpt").iterdir())
    params = ms.load_checkpoint(str(ckpt))
    assert list(params)[:8] == ["conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias",
                                "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias"]
    assert tuple(params["conv1.weight"].shape) == (6, 1, 5, 5)
    assert tuple(params["fc1.weight"].shape) == (120, 400)
    assert {"global_step", "learning_rate", "momentum", "moments.fc3.bias"} <= set(params)
    assert int(params["global_step"].asnumpy().reshape(-1)[0]) == 224

    example = _load_example_module()
    network = example.LeNet5(10)
    param_not_load, ckpt_not_load = ms.load_param_into_net(network, params)
    assert param_not_load == []
    assert "moments.fc3.bias" in ckpt_not_load  # optimizer state, not in the bare network
    _, (x_test, y_test) = example._load_digits(1)
    accuracy = example.evaluate(network, x_test, y_test)
    printed = float(ACCURACY_LINE.findall(stdout)[0][1])
    assert accuracy == pytest.approx(printed, abs=6e-5)


def test_lenet_summary_reads_back_with_tensorboard(lenet_one_epoch):
    """SummaryCollector's loss, learning rate, histograms, images, graph and hyper-parameters, as TensorBoard
    serves them."""
    tmp_path, stdout = lenet_one_epoch
    dashboards, scalars = _tensorboard_data(tmp_path / "summary")
    assert {"loss/auto", "learning_rate/auto", "accuracy/auto"} <= dashboards["scalars"]
    assert dashboards["histograms"] == {"conv1.weight/auto", "conv2.weight/auto", "fc1.weight/auto", "fc1.bias/auto",
                                        "fc2.weight/auto"}
    assert dashboards["images"] == {"input_data/auto"}
    assert dashboards["graphs"] == {"__run_graph__"}  # GRAPH mode: the compiled training step
    assert dashboards["hparams"] and {"train_lineage", "custom_lineage_data"} <= dashboards["text"]

    # --summary_freq 16: the first step and every 16th; the epoch's end records step 224 once more
    loss = scalars["loss/auto"]
    assert [step for step, _ in loss] == [1] + list(range(16, 225, 16)) + [224]
    last_loss = float(LOSS_LINE.findall(stdout)[0][2])
    assert loss[-1][1] == pytest.approx(last_loss, rel=1e-6)
    assert all(np.isfinite(v) for _, v in loss)
    assert np.mean([v for _, v in loss[-4:]]) < np.mean([v for _, v in loss[:4]])  # the loss goes down
    lr = scalars["learning_rate/auto"]
    assert [s for s, _ in lr] == [s for s, _ in loss] and all(v == pytest.approx(0.01) for _, v in lr)
    printed = float(ACCURACY_LINE.findall(stdout)[0][1])
    assert [s for s, _ in scalars["accuracy/auto"]] == [224]
    assert scalars["accuracy/auto"][0][1] == pytest.approx(printed, abs=6e-5)


def _write_idx(path: Path, array: np.ndarray):
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    data = header + array.astype(np.uint8).tobytes()
    if path.suffix == ".gz":
        with gzip.open(path, "wb") as f:
            f.write(data)
    else:
        path.write_bytes(data)


def test_lenet_reads_mnist_idx_files(tmp_path):
    rng = np.random.RandomState(0)
    data_dir = tmp_path / "mnist"
    (data_dir / "train").mkdir(parents=True)
    # gzipped files in train/, plain ones directly in the data directory
    _write_idx(data_dir / "train" / "train-images-idx3-ubyte.gz", rng.randint(0, 256, (70, 28, 28)))
    _write_idx(data_dir / "train" / "train-labels-idx1-ubyte.gz", rng.randint(0, 10, (70,)))
    _write_idx(data_dir / "t10k-images-idx3-ubyte", rng.randint(0, 256, (20, 28, 28)))
    _write_idx(data_dir / "t10k-labels-idx1-ubyte", rng.randint(0, 10, (20,)))
    stdout = _run_lenet(tmp_path, "--epochs", "1", "--data_dir", str(data_dir), "--mode", "pynative")
    assert "train: 70 images, test: 20 images, 2 steps per epoch" in stdout
    assert LOSS_LINE.findall(stdout)[0][:2] == ("1", "2")
    assert (tmp_path / "ckpt" / "lenet-1_2.ckpt").is_file()


def test_lenet_reads_a_mnist_dataset_directory(tmp_path):
    """Plain idx files directly in --data_dir: the example reads them with ds.MnistDataset."""
    rng = np.random.RandomState(1)
    data_dir = tmp_path / "mnist"
    data_dir.mkdir()
    _write_idx(data_dir / "train-images-idx3-ubyte", rng.randint(0, 256, (40, 28, 28)))
    _write_idx(data_dir / "train-labels-idx1-ubyte", rng.randint(0, 10, (40,)))
    _write_idx(data_dir / "t10k-images-idx3-ubyte", rng.randint(0, 256, (10, 28, 28)))
    _write_idx(data_dir / "t10k-labels-idx1-ubyte", rng.randint(0, 10, (10,)))
    example = _load_example_module()
    assert example._mnist_dataset_layout(str(data_dir))
    stdout = _run_lenet(tmp_path, "--epochs", "1", "--data_dir", str(data_dir), "--batch_size", "16",
                        "--mode", "pynative")
    assert "train: 40 images, test: 10 images, 2 steps per epoch" in stdout
    assert LOSS_LINE.findall(stdout)[0][:2] == ("1", "2")
    assert (tmp_path / "ckpt" / "lenet-1_2.ckpt").is_file()


# ------------------------------------------------------------------ the absl examples and their shared flags
EXAMPLES = REPO_ROOT / "examples"
GLOG_LINE = re.compile(r"^[IWEF]\d{4} [\d:.]+ +\d+ \S+:\d+\] ")
SHARED_FLAGS = ["--strategy", "--amp_level", "--sink_size", "--mode", "--device_target", "--data_dir", "--tfds_name",
                "--ckpt_dir", "--summary_dir", "--epochs", "--batch_size"]


def _run_example(script, tmp_path, *args, check=True):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    cmd = [sys.executable, str(EXAMPLES / script / "train.py"), *args]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    if check:
        assert proc.returncode == 0, f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-5000:]}"
    return proc


def _write_cifar_bin(path: Path, labels: np.ndarray):
    """A CIFAR-10 binary batch: 10000 records of 1 label byte + 3072 pixel bytes (labels first, rest gray)."""
    records = np.full((10000, 3073), 128, np.uint8)
    records[:, 0] = np.resize(labels, 10000)
    records[:len(labels), 1:] = np.random.RandomState(len(labels)).randint(0, 256, (len(labels), 3072))
    path.write_bytes(records.tobytes())


@pytest.mark.parametrize("script", ["resnet_cifar10", "bert_classifier", "custom_loop"])  # lenet: the same module
def test_example_helpfull_documents_the_shared_flags(tmp_path, script):
    proc = _run_example(script, tmp_path, "--helpfull", check=False)
    assert proc.returncode == 1, proc.stderr[-3000:]  # absl's help exits with 1
    for flag in SHARED_FLAGS:
        assert flag in proc.stdout, (flag, proc.stdout[:2000])
    assert "none|mirrored|multiworker|tpu" in proc.stdout and "O0|O1|O2|O3|auto" in proc.stdout


@pytest.mark.parametrize("script,args,message", [
    ("resnet_cifar10", ["--strategy", "ring"], "flag --strategy=ring: value should be one of"),
    ("resnet_cifar10", ["--data_dir", "/nonexistent/cifar"], "--data_dir '/nonexistent/cifar' is not a directory"),
    ("bert_classifier", ["--epochs", "0"], "flag --epochs=0: 0 is not a positive integer"),
    ("custom_loop", ["--data_dir", "."], "--data_dir '.' has no train.npz"),
    ("lenet", ["--data_dir", "/nonexistent/mnist"], "--data_dir '/nonexistent/mnist' is not a directory"),
])
def test_example_errors_are_one_line(tmp_path, script, args, message):
    proc = _run_example(script, tmp_path, *args, "--ckpt_dir", "", "--summary_dir", "", check=False)
    assert proc.returncode == 2, proc.stderr[-3000:]
    # TensorFlow's own C++ log lines (glog format, e.g. a missing CUDA driver) are not the script's
    lines = [line for line in proc.stderr.splitlines() if line.strip() and not GLOG_LINE.match(line)
             and not line.startswith("WARNING: All log messages before absl::InitializeLog()")]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert lines[0].startswith("train.py: error: ")


def test_resnet_cifar10_trains_on_bin_files(tmp_path):
    data = tmp_path / "cifar-10-batches-bin"
    data.mkdir()
    _write_cifar_bin(data / "data_batch_1.bin", np.arange(32) % 10)
    _write_cifar_bin(data / "test_batch.bin", np.arange(16) % 10)
    proc = _run_example("resnet_cifar10", tmp_path, "--data_dir", str(tmp_path), "--num_samples", "32",
                        "--batch_size", "16", "--epochs", "1", "--mode", "pynative", "--ckpt_dir",
                        str(tmp_path / "ckpt"), "--summary_dir", "")
    assert "rank 0 of 1: 2 steps per epoch" in proc.stdout
    assert LOSS_LINE.findall(proc.stdout)[0][:2] == ("1", "2")
    assert re.search(r"^rank 0: test accuracy [0-9.]+$", proc.stdout, re.M), proc.stdout
    assert (tmp_path / "ckpt" / "resnet18-1_2.ckpt").is_file()


def test_bert_classifier_fine_tunes_on_the_embedded_set(tmp_path):
    proc = _run_example("bert_classifier", tmp_path, "--synthetic_size", "64", "--batch_size", "16", "--epochs", "2",
                        "--mode", "pynative", "--ckpt_dir", "", "--summary_dir", str(tmp_path / "summary"))
    assert "64 training and 16 test sentences" in proc.stdout
    losses = LOSS_LINE.findall(proc.stdout)
    assert [(e, s) for e, s, _ in losses] == [("1", "4"), ("2", "4")], proc.stdout
    assert re.search(r"^test accuracy: [0-9.]+$", proc.stdout, re.M)
    assert any("tfevents" in p.name for p in (tmp_path / "summary").iterdir())


@pytest.mark.parametrize("args", [["--loop", "value_and_grad", "--mode", "graph"],
                                  ["--loop", "train_one_step", "--mode", "graph", "--sink_size", "-1"]])
def test_custom_loop_trains(tmp_path, args):
    proc = _run_example("custom_loop", tmp_path, *args, "--epochs", "3", "--batch_size", "50",
                        "--ckpt_dir", str(tmp_path / "ckpt"), "--summary_dir", "")
    losses = [float(x) for _, _, x in LOSS_LINE.findall(proc.stdout)]
    assert len(losses) == 3 and losses[-1] < losses[0], proc.stdout
    accuracy = float(re.search(r"^test accuracy: ([0-9.]+)$", proc.stdout, re.M).group(1))
    assert accuracy > 0.8  # three well-separated blobs
    assert (tmp_path / "ckpt" / "mlp.ckpt").is_file()


def test_lenet_shared_flags_sink_mode_and_no_outputs(tmp_path):
    rng = np.random.RandomState(2)
    data_dir = tmp_path / "mnist"
    data_dir.mkdir()
    _write_idx(data_dir / "train-images-idx3-ubyte", rng.randint(0, 256, (64, 28, 28)))
    _write_idx(data_dir / "train-labels-idx1-ubyte", rng.randint(0, 10, (64,)))
    _write_idx(data_dir / "t10k-images-idx3-ubyte", rng.randint(0, 256, (16, 28, 28)))
    _write_idx(data_dir / "t10k-labels-idx1-ubyte", rng.randint(0, 10, (16,)))
    proc = _run_example("lenet", tmp_path, "--data_dir", str(data_dir), "--epochs", "1", "--batch_size", "16",
                        "--sink_size", "2", "--ckpt_dir", "", "--summary_dir", "")
    # a sink-mode epoch is one sink of --sink_size steps, as in MindSpore
    assert [line[:2] for line in LOSS_LINE.findall(proc.stdout)] == [("1", "2")], proc.stdout
    assert "saved" not in proc.stdout and sorted(p.name for p in tmp_path.iterdir()) == ["mnist"]

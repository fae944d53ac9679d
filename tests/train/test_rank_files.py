"""Files of the ranks of a job that share a directory: ModelCheckpoint, SummaryRecord, SummaryCollector.

The ranks are played in this process one after the other, through the environment a launched rank
sees before ``init()`` (``RANK_ID`` / ``RANK_SIZE``); tests/parallel/test_launch_files.py runs two
real ranks at once.
"""
import os
import sys

import numpy as np
import pytest
from tensorboard.backend.event_processing import plugin_event_multiplexer
from tensorboard.util import tensor_util

import tfspore as ms
from tfspore import nn
from tfspore.train.callback import CheckpointConfig, ModelCheckpoint, SummaryCollector, _checkpoint
from tfspore.train.summary import SummaryRecord

sys.path.insert(0, os.path.dirname(__file__))
from callback_loop import fake_train, tfspore_api  # noqa: E402

API = tfspore_api()
_JOB_VARS = ("TF_CONFIG", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "RANK_ID", "RANK_SIZE")


@pytest.fixture(autouse=True)
def _plain_process(monkeypatch):
    for name in _JOB_VARS:
        monkeypatch.delenv(name, raising=False)


def _as_rank(monkeypatch, rank, size=2):
    monkeypatch.setenv("RANK_ID", str(rank))
    monkeypatch.setenv("RANK_SIZE", str(size))


def _net(value):
    net = nn.Dense(2, 2)
    net.weight.set_data(ms.Tensor(np.full((2, 2), value, np.float32)))
    return net


def _step(cb):
    return ms.Tensor(np.float32(1.0))


def test_ranks_sharing_a_checkpoint_directory_keep_their_own_files(monkeypatch, tmp_path):
    shared = tmp_path / "ckpt"
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2)
    callbacks = {}
    for rank in range(2):  # both ranks start before either saves, as in a launched job
        _as_rank(monkeypatch, rank)
        callbacks[rank] = ModelCheckpoint("net", str(shared), config)
    for rank in range(2):
        _as_rank(monkeypatch, rank)
        fake_train(API, [callbacks[rank]], 2, 3, _step, train_network=_net(rank + 1.0))
    # rank 0 writes where the script says, rank 1 into its own folder there
    assert sorted(os.listdir(shared)) == ["net-2_1.ckpt", "net-2_3.ckpt", "rank_1"]
    for rank in range(2):
        folder = shared / f"rank_{rank}" if rank else shared
        # MindSpore's names and retention, per rank: no prefix de-duplication against the other rank
        assert sorted(f for f in os.listdir(folder) if f.endswith(".ckpt")) == ["net-2_1.ckpt", "net-2_3.ckpt"]
        assert callbacks[rank].latest_ckpt_file_name == os.path.join(os.path.realpath(folder), "net-2_3.ckpt")
        weight = ms.load_checkpoint(str(folder / "net-2_3.ckpt"))["weight"].asnumpy()
        np.testing.assert_array_equal(weight, np.full((2, 2), rank + 1.0, np.float32))


def test_a_directory_that_names_the_rank_is_used_as_the_zoo_wrote_it(monkeypatch, tmp_path):
    for rank in range(2):
        _as_rank(monkeypatch, rank)
        ck = ModelCheckpoint("net", str(tmp_path / f"ckpt_{rank}"), CheckpointConfig(save_checkpoint_steps=3))
        fake_train(API, [ck], 1, 3, _step, train_network=_net(1.0))
    assert sorted(os.listdir(tmp_path)) == ["ckpt_0", "ckpt_1"]
    assert os.listdir(tmp_path / "ckpt_0") == os.listdir(tmp_path / "ckpt_1") == ["net-1_3.ckpt"]


def test_default_and_callable_directories_get_the_rank_folder(monkeypatch, tmp_path):
    _as_rank(monkeypatch, 1)
    monkeypatch.setattr(_checkpoint, "_cur_dir", str(tmp_path))
    fake_train(API, [ModelCheckpoint("cwd", config=CheckpointConfig(save_checkpoint_steps=3))], 1, 3, _step,
               train_network=_net(1.0))
    called = ModelCheckpoint("fn", lambda cb: str(tmp_path / "by_fn"), CheckpointConfig(save_checkpoint_steps=3))
    fake_train(API, [called], 1, 3, _step, train_network=_net(1.0))
    assert os.listdir(tmp_path / "rank_1") == ["cwd-1_3.ckpt"]
    assert os.listdir(tmp_path / "by_fn" / "rank_1") == ["fn-1_3.ckpt"]


def test_a_plain_process_writes_into_the_directory_itself(tmp_path):
    fake_train(API, [ModelCheckpoint("net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=3))], 1, 3,
               _step, train_network=_net(1.0))
    assert os.listdir(tmp_path) == ["net-1_3.ckpt"]


def _runs(log_dir):
    """TensorBoard's runs under ``log_dir`` and their 'loss' scalars as (step, value), read by its multiplexer."""
    mux = plugin_event_multiplexer.EventMultiplexer()
    mux.AddRunsFromDirectory(str(log_dir))
    mux.Reload()
    return {run: [(e.step, float(tensor_util.make_ndarray(e.tensor_proto))) for e in mux.Tensors(run, "loss")]
            for run in mux.Runs()}


def test_each_rank_summary_record_is_its_own_tensorboard_run(monkeypatch, tmp_path):
    shared = tmp_path / "summary"
    names = {}
    for rank in range(2):
        _as_rank(monkeypatch, rank)
        with SummaryRecord(str(shared)) as record:
            for step in (1, 2):
                record.add_value("scalar", "loss", ms.Tensor(np.float32(10 * rank + step)))
                record.record(step)
            names[rank] = record.file_info["file_path"]
    assert _runs(shared) == {".": [(1, 1.0), (2, 2.0)], "rank_1": [(1, 11.0), (2, 12.0)]}
    assert os.path.dirname(names[0]) == os.path.realpath(shared)
    assert os.path.dirname(names[1]) == os.path.join(os.path.realpath(shared), "rank_1")
    for rank in range(2):
        # MindSpore's name: {prefix}.out.(tf)events.summary.{seconds}.{rank}.{host}{suffix}
        assert f".{rank}." in os.path.basename(names[rank])


def test_summary_collector_writes_into_the_rank_run(monkeypatch, tmp_path):
    _as_rank(monkeypatch, 1)
    collector = SummaryCollector(str(tmp_path / "summary"))
    run = os.path.join(os.path.realpath(tmp_path / "summary"), "rank_1")
    with collector:
        assert os.path.dirname(collector._record.file_info["file_path"]) == run
    assert os.listdir(tmp_path / "summary") == ["rank_1"]
    assert os.listdir(run) == ["ckpt_dir"]  # the landscape checkpoints are the rank's own too
    _as_rank(monkeypatch, 1, size=1)
    with SummaryRecord(str(tmp_path / "alone")) as record:
        assert os.path.dirname(record.file_info["file_path"]) == os.path.realpath(tmp_path / "alone")

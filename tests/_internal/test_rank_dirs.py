"""The folder each rank of a job writes into: the script's folder for the rank that owns it, rank_<id> in it
for the others."""
import json
import os

import pytest

from tfspore._internal import rank_dirs

_JOB_VARS = ("TF_CONFIG", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
             "OMPI_COMM_WORLD_LOCAL_RANK", "TFSPORE_MASTER_PORT", "RANK_ID", "RANK_SIZE")


@pytest.fixture(autouse=True)
def _plain_process(monkeypatch):
    for name in _JOB_VARS:
        monkeypatch.delenv(name, raising=False)


def _job(monkeypatch, rank, size):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": [f"127.0.0.1:{9000 + i}" for i in range(size)]},
                                                "task": {"type": "worker", "index": rank}}))


def test_a_plain_process_writes_where_the_script_says(tmp_path):
    assert (rank_dirs.job_size(), rank_dirs.job_rank()) == (1, 0)
    assert rank_dirs.rank_directory(str(tmp_path / "ckpt")) == str(tmp_path / "ckpt")


def test_launched_ranks_sharing_a_folder(monkeypatch, tmp_path):
    base = str(tmp_path / "ckpt")
    seen = []
    for rank in range(3):
        _job(monkeypatch, rank, 3)
        assert (rank_dirs.job_size(), rank_dirs.job_rank()) == (3, rank)
        seen.append(rank_dirs.rank_directory(base))
    # rank 0 keeps MindSpore's path (a script saving on rank 0 only is unchanged), the others get a folder in it
    assert seen == [base, os.path.join(base, "rank_1"), os.path.join(base, "rank_2")]
    # applying the rule again changes nothing (SummaryCollector hands its folder to SummaryRecord)
    assert rank_dirs.rank_directory(seen[2]) == seen[2]


@pytest.mark.parametrize("name, size, owner", [
    ("ckpt_1", 2, 1), ("rank_1", 2, 1), ("device1", 2, 1), ("summary_dir12", 16, 12), ("ckpt_11", 16, 11),
    ("ckpt_11", 2, 0), ("ckpt", 2, 0), ("ckpt_0", 2, 0), ("run2024", 8, 0), ("ckpt_1/", 2, 1),
])
def test_a_folder_belongs_to_the_rank_its_name_ends_with(name, size, owner):
    assert rank_dirs.folder_owner(os.path.join("/data/run", name), size) == owner


def test_the_zoo_per_rank_folders_keep_their_paths(monkeypatch):
    for rank in range(2):
        _job(monkeypatch, rank, 2)
        for path in (f"/out/ckpt_{rank}", f"/out/summary/rank_{rank}", f"/out/device{rank}/"):
            assert rank_dirs.rank_directory(path) == path
        assert rank_dirs.rank_directory("/out/ckpt_1") == ("/out/ckpt_1/rank_0" if rank == 0 else "/out/ckpt_1")


def test_no_two_ranks_share_a_folder_whatever_the_names(monkeypatch):
    names = ["/r/ckpt", "/r/ckpt_0", "/r/ckpt_1", "/r/run1", "/r/run1/rank_0", "/r/ckpt_11", "/r/device_2",
             "/r/ckpt/rank_1", "/r/ckpt_99"]
    size = 12
    chosen = {}
    for rank in range(size):
        _job(monkeypatch, rank, size)
        for name in names:
            folder = rank_dirs.rank_directory(name)
            assert chosen.setdefault(folder, rank) == rank, (folder, chosen[folder], rank)


def test_rank_id_and_rank_size_without_a_cluster(monkeypatch):
    monkeypatch.setenv("RANK_ID", "1")
    monkeypatch.setenv("RANK_SIZE", "2")
    assert (rank_dirs.job_size(), rank_dirs.job_rank()) == (2, 1)
    assert rank_dirs.rank_directory("/d/summary") == "/d/summary/rank_1"
    monkeypatch.setenv("RANK_ID", "0")
    assert rank_dirs.rank_directory("/d/summary") == "/d/summary"
    monkeypatch.setenv("RANK_ID", "1")
    monkeypatch.setenv("RANK_SIZE", "1")
    assert rank_dirs.rank_directory("/d/summary") == "/d/summary"


def test_a_broken_tf_config_falls_back_to_rank_id(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", "{not json")
    monkeypatch.setenv("RANK_ID", "3")
    monkeypatch.setenv("RANK_SIZE", "4")
    assert (rank_dirs.job_size(), rank_dirs.job_rank()) == (4, 3)

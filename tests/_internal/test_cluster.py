"""The cluster a process belongs to, read from TF_CONFIG or OpenMPI's environment."""
import json
import os

import pytest
import tensorflow as tf

from tfspore._internal import cluster


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in ("TF_CONFIG", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
                 "OMPI_COMM_WORLD_LOCAL_RANK", "TFSPORE_MASTER_PORT", "LOCAL_RANK", "LOCAL_RANK_SIZE"):
        monkeypatch.delenv(name, raising=False)


def _tf_config(monkeypatch, cluster_spec, task):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster_spec, "task": task}))


def test_plain_process_is_a_cluster_of_one(monkeypatch):
    assert (cluster.cluster_size(), cluster.cluster_rank(), cluster.local_rank(), cluster.local_size()) == (1, 0, 0, 1)
    assert cluster.create_strategy() is None
    _tf_config(monkeypatch, {"worker": ["a:1"]}, {"type": "worker", "index": 0})
    assert cluster.cluster_size() == 1 and cluster.create_strategy() is None


def test_tf_config_ranks_put_the_chief_first(monkeypatch):
    spec = {"chief": ["c:1"], "worker": ["w:1", "w:2"]}
    _tf_config(monkeypatch, spec, {"type": "worker", "index": 1})
    assert (cluster.cluster_size(), cluster.cluster_rank()) == (3, 2)
    _tf_config(monkeypatch, spec, {"type": "chief", "index": 0})
    assert cluster.cluster_rank() == 0


def test_mpirun_on_one_host_becomes_tf_config(monkeypatch):
    monkeypatch.setenv("OMPI_COMM_WORLD_RANK", "2")
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "4")
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4")
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2")
    monkeypatch.setenv("TFSPORE_MASTER_PORT", "9000")
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert (cluster.cluster_size(), cluster.cluster_rank(), cluster.local_rank(), cluster.local_size()) == (4, 2, 2, 4)
    assert cluster.cluster_config() == {"cluster": {"worker": [f"127.0.0.1:{9000 + i}" for i in range(4)]},
                                        "task": {"type": "worker", "index": 2}}
    # Reading the cluster leaves the environment alone (a TF_CONFIG written here would outlive the
    # test and make this process a rank of a job); it is exported only to configure a strategy.
    assert "TF_CONFIG" not in os.environ


@pytest.mark.parametrize("setup, message", [
    ({"OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_LOCAL_SIZE": "2"},
     "mpirun started 4 ranks on several hosts"),
    ({"TF_CONFIG": "{not json"}, "TF_CONFIG is not valid JSON"),
    ({"TF_CONFIG": json.dumps({"cluster": {"worker": ["a:1", "b:1"]}, "task": {"type": "ps", "index": 0}})},
     "must name a 'worker' or 'chief' task"),
    ({"TF_CONFIG": json.dumps({"cluster": {"worker": ["a:1", "b:1"]}, "task": {"type": "worker", "index": 5}})},
     "is not in its cluster"),
    ({"OMPI_COMM_WORLD_RANK": "x", "OMPI_COMM_WORLD_SIZE": "2"}, "OMPI_COMM_WORLD_RANK must be an int, but got 'x'"),
])
def test_environments_tfspore_cannot_join(setup, message, monkeypatch):
    for name, value in setup.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(cluster.ClusterError, match=message):
        cluster.cluster_size()


def test_cluster_after_tensorflow_started_is_a_clear_error(monkeypatch):
    """This test process ran TensorFlow ops long ago: the collectives can no longer be configured."""
    tf.constant(1.0).numpy()  # whatever ran before in this process, TensorFlow's runtime has started
    _tf_config(monkeypatch, {"worker": ["127.0.0.1:1", "127.0.0.1:2"]}, {"type": "worker", "index": 0})
    assert not cluster.collectives_configured()
    with pytest.raises(cluster.ClusterError, match="TensorFlow's runtime started before tfspore was imported"):
        cluster.create_strategy()


def test_a_plain_process_gets_a_local_strategy_only_for_devices_it_has(monkeypatch):
    """This test process has two logical CPUs (tests/conftest.py): asking for 1 or 3 devices gives none
    (tests/communication/test_local_devices.py trains with 2 in a process of its own)."""
    monkeypatch.delenv("TPU_NAME", raising=False)
    monkeypatch.delenv("COLAB_TPU_ADDR", raising=False)
    assert cluster.local_strategy(1) is None and cluster.local_strategy(3) is None
    assert cluster.create_strategy(3) is None


def test_tpu_is_looked_for_by_name_colab_address_or_tpu_vm_device(monkeypatch):
    monkeypatch.delenv("TPU_NAME", raising=False)
    monkeypatch.delenv("COLAB_TPU_ADDR", raising=False)
    monkeypatch.setattr(cluster.os.path, "exists", lambda path: False)
    assert cluster._tpu_name() is None
    monkeypatch.setattr(cluster.os.path, "exists", lambda path: path == "/dev/accel0")
    assert cluster._tpu_name() == "local"
    monkeypatch.setenv("COLAB_TPU_ADDR", "10.0.0.2:8470")
    assert cluster._tpu_name() == "grpc://10.0.0.2:8470"
    monkeypatch.setenv("TPU_NAME", "my-tpu")
    assert cluster._tpu_name() == "my-tpu"


def test_broadcast_outside_a_job_leaves_variables_alone():
    import tensorflow as tf
    var = tf.Variable([1.0, 2.0])
    cluster.broadcast_from_rank0([var])
    assert var.numpy().tolist() == [1.0, 2.0]

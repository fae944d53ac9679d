"""``tfspore launch`` (msrun's launcher) with two worker processes on CPU, joined by gRPC collectives."""
import json
import os
import socket
import threading
import time

import numpy as np
import pytest

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.__main__ import main as cli_main
from tfspore.parallel.cluster import run as launcher
from tfspore.train import Model

HERE = os.path.dirname(os.path.abspath(__file__))


def _launch(tmp_path, script, *script_args, workers=2):
    return launcher.main(["--worker_num", str(workers), "--local_worker_num", str(workers), "--join", "True",
                          "--log_dir", str(tmp_path / "logs"), "--cluster_time_out", "120", script,
                          *script_args])


def _one_process_weights():
    """One process on the concatenated per-device batches: step k sees rank 0's and rank 1's k-th batches."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = rng.integers(0, 3, 32).astype(np.int32)
    w0 = rng.standard_normal((3, 4)).astype(np.float32) * 0.3
    gx = np.concatenate([np.concatenate([x[r::2][4 * k:4 * k + 4] for r in range(2)]) for k in range(4)])
    gy = np.concatenate([np.concatenate([y[r::2][4 * k:4 * k + 4] for r in range(2)]) for k in range(4)])
    net = nn.Dense(4, 3)
    net.weight.set_data(ms.Tensor(w0))
    net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(2, ds.NumpySlicesDataset((gx, gy), column_names=["x", "y"], shuffle=False).batch(8, True))
    return net.weight.asnumpy()


def test_two_workers_ranks_collectives_and_data_parallel_training(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    rc = _launch(tmp_path, os.path.join(HERE, "_dp_worker.py"), str(out))
    logs = {r: (tmp_path / "logs" / f"worker_{r}.log") for r in range(2)}
    assert rc == 0, "\n".join(p.read_text()[-3000:] for p in logs.values() if p.exists())
    printed = capsys.readouterr().out
    assert "Start worker process with rank id:1" in printed and "worker_1.log" in printed
    seen = {r: json.loads((out / f"rank_{r}.json").read_text()) for r in range(2)}
    for r in range(2):
        s = seen[r]
        assert (s["rank"], s["size"], s["local_rank"], s["local_size"]) == (r, 2, r, 2)
        assert s["before"] == [r, 2]  # before init(): RANK_ID and RANK_SIZE, as MindSpore
        assert s["world"] == "mccl_world_group"
        env = s["env"]
        assert (env["RANK_ID"], env["RANK_SIZE"], env["DEVICE_ID"], env["MS_WORKER_NUM"]) == (str(r), "2", str(r), "2")
        assert (env["MS_ROLE"], env["MS_NODE_ID"], env["MS_TOPO_TIMEOUT"]) == ("MS_WORKER", str(r), "120")
        assert env["RANK_TABLE_FILE"] is None
        tf_config = json.loads(env["TF_CONFIG"])
        assert tf_config["task"] == {"type": "worker", "index": r} and len(tf_config["cluster"]["worker"]) == 2
        assert s["all_reduce_sum"] == [3.0, 30.0]
        assert s["all_reduce_max"] == [2.0, 20.0]
        assert s["all_gather"] == [[1.0, 10.0], [2.0, 20.0]]
        assert s["all_reduce_avg"] == [1.5, 15.0]
        assert s["broadcast"] == [2.0, 20.0]  # rank 1's tensor
        assert s["reduce_scatter"] == [[3.0], [30.0]][r]  # rank r gets slice r of the sum
        # SyncBatchNorm normalizes with the statistics of both ranks' batches: [0, 1] and [2, 3]
        whole = np.arange(4.0)
        expected_bn = (whole - whole.mean()) / np.sqrt(whole.var() + 1e-5)
        np.testing.assert_allclose(s["sync_bn"], expected_bn[2 * r:2 * r + 2], rtol=1e-4)
        assert s["reducer"] == "DistributedGradReducer"
        assert s["overflow"] is True and s["skipped"] is True  # rank 1 overflowed: no rank updates
    # parameter_broadcast: the ranks started from different parameters and trained (lr 0) from rank 0's
    init = [np.load(out / f"init_{r}.npy") for r in range(2)]
    assert not np.allclose(init[0], init[1])
    for r in range(2):
        np.testing.assert_array_equal(np.load(out / f"broadcast_{r}.npy"), init[0])
    expected = _one_process_weights()
    for what in ("model", "loop"):
        w = [np.load(out / f"{what}_{r}.npy") for r in range(2)]
        np.testing.assert_array_equal(w[0], w[1])
        np.testing.assert_allclose(w[0], expected, rtol=1e-5, atol=1e-6)


def test_failed_worker_stops_the_job_with_its_log_tail(tmp_path, capsys):
    script = tmp_path / "fail.py"
    script.write_text("import os, sys, time\n"
                      "if os.environ['RANK_ID'] == '1':\n"
                      "    print('rank 1 gives up', flush=True)\n"
                      "    raise RuntimeError('boom on rank 1')\n"
                      "print('rank 0 waits', flush=True)\n"
                      "time.sleep(600)\n"
                      "print('rank 0 finished', flush=True)\n")
    start = time.monotonic()
    rc = _launch(tmp_path, str(script))
    elapsed = time.monotonic() - start
    err = capsys.readouterr().err
    assert rc == 1
    assert elapsed < 300  # rank 0 sleeps 600 s: it was stopped, not waited for
    assert "worker 1" in err and "exited with code 1" in err
    assert "RuntimeError: boom on rank 1" in err and "rank 1 gives up" in err
    assert "rank 0 finished" not in (tmp_path / "logs" / "worker_0.log").read_text()


@pytest.mark.parametrize("argv, message", [
    (["--worker_num", "0", "x.py"], "worker_num must be greater than 0, but got 0."),
    (["--worker_num", "2", "--local_worker_num", "4", "x.py"],
     "Total worker number is 2, but got exceeded local worker number: 4."),
    (["--worker_num", "4", "--local_worker_num", "2", "x.py"], "node_rank must be in [0, 2)"),
    (["--worker_num", "4", "--local_worker_num", "3", "--node_rank", "0", "x.py"],
     "worker_num (4) must be a multiple of local_worker_num (3)"),
    (["--worker_num", "2", "--local_worker_num", "2", "--master_port", "70000", "x.py"],
     "master_port must be in [1, 65535], but got 70000."),
    (["--worker_num", "2", "--local_worker_num", "2", "--cluster_time_out", "0", "x.py"],
     "cluster_time_out must be greater than 0, but got 0."),
    (["--worker_num", "2", "--local_worker_num", "2", "missing_script.py"],
     "task_script 'missing_script.py' is not a file."),
    (["--worker_num", "2", "--local_worker_num", "2", "python"], "task_script is 'python' but no script follows it."),
])
def test_bad_flags_are_clear_errors(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text("")
    assert launcher.main(argv) == 2
    err = capsys.readouterr().err
    assert f"tfspore launch: error: {message}" in err
    assert not (tmp_path / "worker_0.log").exists()


def test_argparse_errors_and_help(capsys):
    assert launcher.main(["--worker_num", "two", "x.py"]) == 2
    assert "argument --worker_num: invalid int value: 'two'" in capsys.readouterr().err
    assert launcher.main(["--join", "maybe", "x.py"]) == 2
    assert "argument --join: expected True or False, but got 'maybe'" in capsys.readouterr().err
    assert launcher.main(["--worker_num", "2"]) == 2
    assert "the following arguments are required: task_script" in capsys.readouterr().err
    assert cli_main(["launch", "--help"]) == 0
    usage = capsys.readouterr().out
    for flag in ("--worker_num", "--local_worker_num", "--master_addr", "--master_port", "--node_rank",
                 "--log_dir", "--join", "--cluster_time_out"):
        assert flag in usage
    assert cli_main(["--help"]) == 0
    assert "launch [FLAGS] SCRIPT" in capsys.readouterr().out



def test_two_hosts_meet_at_the_master_and_number_their_workers(tmp_path):
    """Two launchers (node_rank 0 and 1, one worker each) exchange addresses through master_addr:master_port."""
    script = tmp_path / "show.py"
    script.write_text("import os\nprint('TF_CONFIG=' + os.environ['TF_CONFIG'])\n"
                      "print('RANK_ID=' + os.environ['RANK_ID'])\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    codes = {}

    def node(rank):
        codes[rank] = launcher.main(["--worker_num", "2", "--local_worker_num", "1", "--node_rank", str(rank),
                                     "--master_addr", "127.0.0.1", "--master_port", str(port), "--join", "True",
                                     "--cluster_time_out", "120", "--log_dir", str(tmp_path / f"node{rank}"),
                                     str(script)])

    threads = [threading.Thread(target=node, args=(r,)) for r in (1, 0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert codes == {0: 0, 1: 0}
    configs = []
    for rank in (0, 1):
        text = (tmp_path / f"node{rank}" / f"worker_{rank}.log").read_text()
        assert f"RANK_ID={rank}" in text
        configs.append(json.loads(text.split("TF_CONFIG=")[1].splitlines()[0]))
    assert configs[0]["cluster"] == configs[1]["cluster"] and len(configs[0]["cluster"]["worker"]) == 2
    assert [c["task"]["index"] for c in configs] == [0, 1]

"""Two ranks started by ``tfspore launch`` writing into one shared directory, and a worker killed mid-run.

The launcher runs in this process through ``python -m tfspore``'s own entry point
(``tfspore.__main__.main(["launch", ...])``), as tests/communication/test_launch.py does; its workers
are separate processes. The first test runs tests/parallel/_files_worker.py on 2 CPU workers (gRPC
collectives): every rank's checkpoints and summaries must be there, complete and its own, with no
temporary left.
"""
import json
import os
import time

import numpy as np
from tensorboard.backend.event_processing import plugin_event_multiplexer
from tensorboard.util import tensor_util

import tfspore as ms
from tfspore.__main__ import main as cli_main

HERE = os.path.dirname(os.path.abspath(__file__))


def _launch(tmp_path, *script):
    """``python -m tfspore launch`` with 2 local workers, joined: the job's exit status."""
    return cli_main(["launch", "--worker_num", "2", "--local_worker_num", "2", "--join", "True", "--log_dir",
                     str(tmp_path / "logs"), "--cluster_time_out", "120", *script])


def _logs(tmp_path):
    return "\n".join(p.read_text()[-3000:] for p in sorted((tmp_path / "logs").glob("worker_*.log")))


def _loss_runs(summary_dir):
    """TensorBoard's runs under ``summary_dir`` with their 'loss/auto' scalars, read by its multiplexer."""
    mux = plugin_event_multiplexer.EventMultiplexer()
    mux.AddRunsFromDirectory(str(summary_dir))
    mux.Reload()
    return {run: [(e.step, float(tensor_util.make_ndarray(e.tensor_proto))) for e in mux.Tensors(run, "loss/auto")]
            for run in mux.Runs()}


def test_two_ranks_write_checkpoints_and_summaries_into_one_directory(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    rc = _launch(tmp_path, os.path.join(HERE, "_files_worker.py"), str(shared))
    assert rc == 0, _logs(tmp_path)
    seen = {r: json.loads((shared / f"rank_{r}.json").read_text()) for r in range(2)}
    # DEVICE_ID (the local rank) is the default device_id, as in MindSpore: OnRequestExit's rank_<device_id>
    assert [seen[r]["device_id"] for r in range(2)] == [0, 1]
    ckpt = shared / "ckpt"
    # rank 0 writes where the script says (as MindSpore), rank 1 into its own folder there
    assert sorted(os.listdir(ckpt)) == ["net-2_2.ckpt", "net-2_4.ckpt", "rank_1"]
    for rank in range(2):
        folder = ckpt / "rank_1" if rank else ckpt
        # 2 epochs of 4 steps, saved every 2 steps, the last 2 kept: MindSpore's names, in the rank's own folder
        assert sorted(f for f in os.listdir(folder) if f.endswith(".ckpt")) == ["net-2_2.ckpt", "net-2_4.ckpt"]
        assert seen[rank]["latest"] == os.path.join(os.path.realpath(folder), "net-2_4.ckpt")
        saved = ms.load_checkpoint(str(folder / "net-2_4.ckpt"))
        np.testing.assert_array_equal(saved["weight"].asnumpy(), np.array(seen[rank]["weight"], np.float32))
    # data parallel: both ranks end with the same weights, and the file both saved to one name is complete
    np.testing.assert_array_equal(seen[0]["weight"], seen[1]["weight"])
    final = ms.load_checkpoint(str(shared / "final.ckpt"))
    np.testing.assert_array_equal(final["weight"].asnumpy(), np.array(seen[0]["weight"], np.float32))
    # each rank's SummaryCollector is its own TensorBoard run holding its own losses
    runs = _loss_runs(shared / "summary")
    assert sorted(runs) == [".", "rank_1"]
    for rank, run in enumerate((".", "rank_1")):
        own = {int(step): loss for step, loss in seen[rank]["losses"].items()}
        recorded = runs[run]
        assert sorted({step for step, _ in recorded}) == list(range(1, 9))
        for step, value in recorded:
            np.testing.assert_allclose(value, own[step], rtol=1e-6)
        names = [n for n in os.listdir(shared / "summary" / run) if "tfevents" in n]
        assert names and all(f".{rank}." in n for n in names), names
    assert seen[0]["losses"] != seen[1]["losses"]  # the runs are not one rank's data twice
    leftovers = [os.path.join(d, f) for d, _, files in os.walk(shared) for f in files if ".tmp" in f]
    assert leftovers == []


def test_a_killed_worker_ends_the_job_with_its_log_tail(tmp_path, capsys):
    """Rank 1 is killed by SIGKILL mid-run; rank 0 ignores SIGTERM and would sleep for 10 minutes."""
    script = tmp_path / "killed.py"
    script.write_text("import os, signal, time\n"
                      "if os.environ['RANK_ID'] == '1':\n"
                      "    for step in range(1, 4):\n"
                      "        print(f'rank 1 step {step}', flush=True)\n"
                      "    os.kill(os.getpid(), signal.SIGKILL)\n"
                      "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                      "print('rank 0 training', flush=True)\n"
                      "time.sleep(600)\n"
                      "print('rank 0 finished', flush=True)\n")
    start = time.monotonic()
    rc = _launch(tmp_path, str(script))
    elapsed = time.monotonic() - start
    out = capsys.readouterr().err
    assert rc == 128 + 9, out
    assert elapsed < 120, elapsed  # stopped (SIGTERM, then SIGKILL after the grace period), not waited for
    assert "worker 1" in out and "was killed by signal 9" in out
    assert "rank 1 step 3" in out  # the end of the killed worker's log
    assert "rank 0 finished" not in (tmp_path / "logs" / "worker_0.log").read_text()

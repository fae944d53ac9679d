"""``kill -9`` of a training process at random points never loses the last complete checkpoint.

Each trial trains a network with ``ModelCheckpoint`` saving every step (``keep_checkpoint_max``
of 1 or 2), waits for the first checkpoint, kills the process with SIGKILL after a random delay
(so kills land in training steps, in writes, between rename and prune), then checks that at
least one checkpoint survives, that every ``.ckpt`` present loads completely, and that the next
save removes the dead writer's temporaries. The default tier runs 3 trials; ``-m slow`` 24.
"""
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from tfspore.train import _atomic
from tfspore.train import serialization as ser

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_WORKER = textwrap.dedent("""
    import sys
    import numpy as np
    import tfspore as ms
    import tfspore.dataset as ds
    from tfspore import nn
    from tfspore.train import Model
    from tfspore.train.callback import CheckpointConfig, ModelCheckpoint
    directory, keep = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 256)).astype(np.float32)
    y = rng.integers(0, 10, 64).astype(np.int32)
    data = ds.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False).batch(8)
    net = nn.SequentialCell([nn.Dense(256, 512), nn.ReLU(), nn.Dense(512, 10)])
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    ck = ModelCheckpoint("net", directory, CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=keep))
    model.train(1000, data, callbacks=[ck], dataset_sink_mode=False)
""")


def _start(directory, keep):
    os.makedirs(directory)
    return subprocess.Popen([sys.executable, "-c", _WORKER, directory, str(keep)], cwd=_REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_first(proc, directory, deadline):
    while time.monotonic() < deadline:
        if any(f.endswith(".ckpt") for f in os.listdir(directory)):
            return
        if proc.poll() is not None:
            raise AssertionError(f"the training process exited early: {proc.stderr.read()[-2000:]!r}")
        time.sleep(0.02)
    proc.kill()
    raise AssertionError("no checkpoint appeared in time")


def _check(directory):
    files = sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))
    assert files, f"no checkpoint survived in {os.listdir(directory)}"
    for f in files:
        params = ser.load_checkpoint(os.path.join(directory, f))
        assert {"0.weight", "0.bias", "2.weight", "2.bias"} <= set(params), (f, sorted(params))
        assert params["0.weight"].shape == (512, 256)
        assert np.isfinite(params["2.weight"].asnumpy()).all()
    # the dead writer's temporaries are removed by the next save in that directory
    ser.save_checkpoint({"x": np.zeros(1, np.float32)}, os.path.join(directory, "next.ckpt"))
    assert not [f for f in os.listdir(directory) if _atomic._TMP_RE.match(f)], os.listdir(directory)


def _trials(tmp_path, count, parallel):
    rnd = random.Random()
    seed = rnd.randrange(1 << 30)
    rnd.seed(seed)
    done = 0
    while done < count:
        batch = []
        for i in range(min(parallel, count - done)):
            directory = str(tmp_path / f"t{done + i}")
            batch.append((_start(directory, 1 + (done + i) % 2), directory))
        deadline = time.monotonic() + 240
        for proc, directory in batch:
            _wait_first(proc, directory, deadline)
            time.sleep(rnd.uniform(0.0, 1.5))
            os.kill(proc.pid, signal.SIGKILL)
        for proc, directory in batch:
            proc.wait(timeout=60)
            proc.stderr.close()
            assert proc.returncode == -signal.SIGKILL, (seed, directory, proc.returncode)
            _check(directory)
        done += len(batch)


def test_kill_during_training_keeps_a_complete_checkpoint(tmp_path):
    _trials(tmp_path, 3, parallel=3)


@pytest.mark.slow
def test_kill_during_training_keeps_a_complete_checkpoint_many_trials(tmp_path):
    _trials(tmp_path, 24, parallel=4)

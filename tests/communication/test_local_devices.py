"""``init()`` in one process that asks for several local devices: a MirroredStrategy over them.

The process is started with two logical CPUs. With ``device_num=2`` each replica takes one batch
as the script wrote it (the per-device batch), so a DATA_PARALLEL ``Model.train`` over the two
replicas must end on the weights of one device trained on the concatenated per-replica batches.
Run in a subprocess: the strategy becomes the process's default strategy.
"""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np

SCRIPT = textwrap.dedent('''
    import json, sys
    import numpy as np
    import tensorflow as tf
    tf.config.set_logical_device_configuration(tf.config.list_physical_devices("CPU")[0],
                                               [tf.config.LogicalDeviceConfiguration()] * 2)
    import tfspore as ms
    import tfspore.dataset as ds
    from tfspore import nn
    from tfspore.communication import get_group_size, get_rank, init, release
    from tfspore.train import Callback, Model

    ms.set_context(mode=ms.GRAPH_MODE if sys.argv[1] == "graph" else ms.PYNATIVE_MODE)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = rng.integers(0, 3, 32).astype(np.int32)
    w0 = rng.standard_normal((3, 4)).astype(np.float32) * 0.3

    class Steps(Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            self.seen.append([cb.cur_step_num, cb.batch_num, float(cb.net_outputs.asnumpy())])

    def train(batch, sink):
        net = nn.Dense(4, 3)
        net.weight.set_data(ms.Tensor(w0))
        net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.1, 0.9))
        steps = Steps()
        data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(batch, True)
        model.train(2, data, callbacks=[steps], dataset_sink_mode=sink)
        return net, steps.seen

    out = {}
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=2)
    init()
    out["strategy"] = type(tf.distribute.get_strategy()).__name__
    out["rank_size"] = [get_rank(), get_group_size()]
    for sink in (False, True):
        net, seen = train(8, sink)  # per-device batches of 8: a step takes two consecutive ones
        out[f"replicas_{sink}"] = [v.numpy().tolist() for v in net.weight.variable.values]
        out[f"dist_{sink}"] = [net.weight.asnumpy().tolist(), seen]
    release()
    out["after_release"] = type(tf.distribute.get_strategy()).__name__
    ms.reset_auto_parallel_context()
    for sink in (False, True):
        net, seen = train(16, sink)  # one device on the concatenated batches
        out[f"one_{sink}"] = [net.weight.asnumpy().tolist(), seen]
    print("RESULT" + json.dumps(out))
''')


def _run(mode):
    env = dict(os.environ)
    for key in ("TF_CONFIG", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "RANK_ID", "RANK_SIZE"):
        env.pop(key, None)
    proc = subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, timeout=300,
                          env=env, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT")][-1]
    return json.loads(line[len("RESULT"):])


def test_data_parallel_over_two_local_devices_equals_one_device_on_the_concatenated_batches():
    out = _run("graph")
    assert out["strategy"] == "MirroredStrategy" and out["rank_size"] == [0, 2]
    assert out["after_release"] == "_DefaultDistributionStrategy"
    for sink in (False, True):
        replicas = out[f"replicas_{sink}"]
        np.testing.assert_array_equal(replicas[0], replicas[1])
        dist_w, dist_steps = out[f"dist_{sink}"]
        one_w, one_steps = out[f"one_{sink}"]
        np.testing.assert_allclose(dist_w, one_w, rtol=1e-5, atol=1e-6)
        # 4 per-device batches an epoch make 2 steps, each the mean loss of the two replicas' batches
        assert [s[:2] for s in dist_steps] == [s[:2] for s in one_steps]
        np.testing.assert_allclose([s[2] for s in dist_steps], [s[2] for s in one_steps], rtol=1e-5)
    assert [s[:2] for s in out["dist_False"][1]] == [[1, 2], [2, 2], [3, 2], [4, 2]]
    assert [s[:2] for s in out["dist_True"][1]] == [[2, 2], [4, 2]]

"""A MindSpore data-parallel script whose ranks all write into one shared directory, run by
tests/parallel/test_launch_files.py under ``tfspore launch``.

Every rank trains on its shard with ``ModelCheckpoint`` and ``SummaryCollector`` pointed at the
same folders (as a script that ignores MindSpore's "one directory per process" note does), then
saves ``final.ckpt`` to one shared name, as a script without a rank guard does. It records its
losses and final weights in ``<shared>/rank_<rank>.json``.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.communication import get_group_size, get_rank, init
from mindspore.train import CheckpointConfig, Model, ModelCheckpoint, SummaryCollector
from mindspore.train.callback import Callback

SHARED = sys.argv[1]


class Losses(Callback):
    """The rank's own loss at each step."""

    def __init__(self):
        super().__init__()
        self.losses = {}

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.losses[cb.cur_step_num] = float(cb.net_outputs.asnumpy())


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    rank, size = get_rank(), get_group_size()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = rng.integers(0, 3, 32).astype(np.int32)
    net = nn.Dense(4, 3)
    net.weight.set_data(ms.Tensor(rng.standard_normal((3, 4)).astype(np.float32) * 0.3))
    net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    shard = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False, num_shards=size,
                                  shard_id=rank).batch(4, True)
    losses = Losses()
    ckpt = ModelCheckpoint("net", os.path.join(SHARED, "ckpt"),
                           CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2))
    summary = SummaryCollector(os.path.join(SHARED, "summary"), collect_freq=1,
                               collect_specified_data={"collect_landscape": None})
    model.train(2, shard, callbacks=[losses, ckpt, summary], dataset_sink_mode=False)
    ms.save_checkpoint(net, os.path.join(SHARED, "final.ckpt"))
    with open(os.path.join(SHARED, f"rank_{rank}.json"), "w", encoding="utf-8") as f:
        json.dump({"losses": losses.losses, "weight": net.weight.asnumpy().tolist(),
                   "latest": ckpt.latest_ckpt_file_name, "device_id": ms.get_context("device_id")}, f)


if __name__ == "__main__":
    main()

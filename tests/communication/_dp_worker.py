"""A MindSpore data-parallel script run by tests/communication/test_launch.py under ``tfspore launch``.

Each rank writes what it saw to ``<out>/rank_<rank>.json`` and its trained weights to
``<out>/<what>_<rank>.npy``: the rank functions and environment before and after ``init()``,
collectives of rank-dependent tensors, ``Model.train`` (GRAPH_MODE, non-sink) and a custom loop with
``TrainOneStepCell`` (whose ``DistributedGradReducer`` averages the gradients) on the rank's shard,
and a ``Model.train`` under ``parameter_broadcast=True`` from differently seeded parameters.
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops
from mindspore.communication import (GlobalComm, get_group_size, get_local_rank, get_local_rank_size, get_rank,
                                     init)
from mindspore.train import Model

OUT = sys.argv[1]
ENV = ("RANK_ID", "RANK_SIZE", "DEVICE_ID", "LOCAL_RANK", "LOCAL_RANK_SIZE", "MS_WORKER_NUM", "MS_ROLE",
       "MS_NODE_ID", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_TOPO_TIMEOUT", "RANK_TABLE_FILE", "TF_CONFIG")


def data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = rng.integers(0, 3, 32).astype(np.int32)
    w0 = rng.standard_normal((3, 4)).astype(np.float32) * 0.3
    return x, y, w0


def network(w0):
    net = nn.Dense(4, 3)
    net.weight.set_data(ms.Tensor(w0))
    net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
    return net


def main():
    seen = {"env": {k: os.environ.get(k) for k in ENV}, "before": [get_rank(), get_group_size()]}
    ms.set_context(mode=ms.GRAPH_MODE)
    init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    rank, size = get_rank(), get_group_size()
    seen.update(rank=rank, size=size, local_rank=get_local_rank(), local_size=get_local_rank_size(),
                world=GlobalComm.WORLD_COMM_GROUP)
    t = ms.Tensor(np.array([rank + 1.0, 10.0 * (rank + 1)], np.float32))
    seen["all_reduce_sum"] = ops.AllReduce()(t).asnumpy().tolist()
    seen["all_reduce_max"] = ops.AllReduce(ops.ReduceOp.MAX)(t).asnumpy().tolist()
    seen["all_gather"] = ops.AllGather()(t.reshape(1, 2)).asnumpy().tolist()
    seen["all_reduce_avg"] = ops.AllReduce(ops.ReduceOp.AVG)(t).asnumpy().tolist()
    seen["broadcast"] = ops.Broadcast(1)((t,))[0].asnumpy().tolist()
    seen["reduce_scatter"] = ops.ReduceScatter()(t).asnumpy().tolist()
    bn = nn.SyncBatchNorm(1)
    bn.set_train(True)
    seen["sync_bn"] = bn(ms.Tensor(np.array([[2.0 * rank], [2.0 * rank + 1]], np.float32))).asnumpy().ravel().tolist()

    x, y, w0 = data()
    net = network(w0)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9))
    shard = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False, num_shards=size,
                                  shard_id=rank).batch(4, True)
    model.train(2, shard)
    np.save(os.path.join(OUT, f"model_{rank}.npy"), net.weight.asnumpy())

    net = network(w0)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                            reduction="mean")), opt)
    seen["reducer"] = type(train_net.grad_reducer).__name__
    xs, ys = x[rank::size], y[rank::size]
    for _ in range(2):
        for k in range(0, len(xs) - 3, 4):
            train_net(ms.Tensor(xs[k:k + 4]), ms.Tensor(ys[k:k + 4]))
    np.save(os.path.join(OUT, f"loop_{rank}.npy"), net.weight.asnumpy())
    # loss scaling: rank 1's gradients overflow, so every rank skips the update (the flag is all-reduced)
    net = network(w0)
    scaled = nn.TrainOneStepWithLossScaleCell(
        nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
        nn.Momentum(net.trainable_params(), 0.1, 0.9), scale_sense=ms.Tensor(1024.0, ms.float32))
    bad = xs[:4].copy()
    if rank == 1:
        bad[0, 0] = np.inf
    _, overflow, _ = scaled(ms.Tensor(bad), ms.Tensor(ys[:4]))
    seen["overflow"] = bool(overflow.asnumpy())
    seen["skipped"] = bool(np.array_equal(net.weight.asnumpy(), w0))
    # parameter_broadcast: ranks seeded differently start from rank 0's parameters after the first step
    ms.set_seed(100 + rank)
    net = nn.Dense(4, 3, weight_init="normal", bias_init="normal")
    np.save(os.path.join(OUT, f"init_{rank}.npy"), net.weight.asnumpy())
    ms.set_auto_parallel_context(parameter_broadcast=True)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.0, 0.9))
    model.train(1, ds.NumpySlicesDataset((xs[:4], ys[:4]), column_names=["x", "y"], shuffle=False).batch(4))
    np.save(os.path.join(OUT, f"broadcast_{rank}.npy"), net.weight.asnumpy())
    with open(os.path.join(OUT, f"rank_{rank}.json"), "w", encoding="utf-8") as f:
        json.dump(seen, f)


if __name__ == "__main__":
    main()

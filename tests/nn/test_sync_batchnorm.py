"""``nn.SyncBatchNorm`` (tfspore/nn/layer/sync_batchnorm.py): BatchNorm on one device, global batch
statistics across the replicas of a ``tf.distribute`` strategy."""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * 2 + 1


@pytest.mark.parametrize("shape", [(4, 3, 5, 5), (6, 3)])
def test_single_device_equals_batchnorm(mode, shape):
    x = Tensor(_x(*shape))
    sync = nn.SyncBatchNorm(3)
    ref = nn.BatchNorm2d(3) if len(shape) == 4 else nn.BatchNorm1d(3)
    assert [p.name for p in sync.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    for train in (True, False):
        sync.set_train(train)
        ref.set_train(train)
        np.testing.assert_allclose(sync(x).asnumpy(), ref(x).asnumpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(sync.moving_variance.asnumpy(), ref.moving_variance.asnumpy(), rtol=1e-6)


def test_input_rank_and_group_errors():
    with pytest.raises(ValueError, match="must have 2 dims or 4 dims, but got 3"):
        nn.SyncBatchNorm(3)(Tensor(_x(2, 3, 4)))
    with pytest.raises(TypeError, match="'process_groups' must be list"):
        nn.SyncBatchNorm(3, process_groups=(0, 1))
    with pytest.raises(TypeError, match="'sub group' must be list"):
        nn.SyncBatchNorm(3, process_groups=[0, 1])
    with pytest.raises(ValueError, match="must not be duplicated"):
        nn.SyncBatchNorm(3, process_groups=[[0, 1], [1]])
    with pytest.raises(ValueError, match="'rank id in process_groups' must be in range"):
        nn.SyncBatchNorm(3, process_groups=[[-1]])


def _run_replicas(strategy, bn, halves, weights):
    """Run ``bn`` on one half of the batch per replica; return its outputs and the input gradients of
    ``sum(y * w)`` summed over the replicas."""
    xs = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(halves[ctx.replica_id_in_sync_group]))
    ws = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(weights[ctx.replica_id_in_sync_group]))

    @tf.function
    def step(x, w):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.convert_to_tensor(bn(Tensor(x)))
            loss = tf.reduce_sum(y * w)
        return y, tape.gradient(loss, x)

    ys, gs = strategy.run(step, args=(xs, ws))
    return ([t.numpy() for t in strategy.experimental_local_results(ys)],
            [t.numpy() for t in strategy.experimental_local_results(gs)])


def test_replicas_share_the_global_batch_statistics(mirrored_strategy):
    full = _x(8, 3, 2, 2, seed=3)
    halves = [full[:4], full[4:]]
    with mirrored_strategy.scope():
        bn = nn.SyncBatchNorm(3)
    bn.set_train()
    w = _x(8, 3, 2, 2, seed=5)
    ys, grads = _run_replicas(mirrored_strategy, bn, halves, [w[:4], w[4:]])
    # the reference: one BatchNorm over the whole batch
    ref = nn.BatchNorm2d(3)
    ref.set_train()
    x = tf.Variable(full)
    with tf.GradientTape() as tape:
        y = tf.convert_to_tensor(ref(Tensor(x)))
        loss = tf.reduce_sum(y * w)
    want_grad = tape.gradient(loss, x).numpy()
    np.testing.assert_allclose(np.concatenate(ys), y.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.concatenate(grads), want_grad, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), ref.moving_mean.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), ref.moving_variance.asnumpy(), rtol=1e-5)


def test_process_groups_of_one_keep_statistics_local(mirrored_strategy):
    full = _x(8, 3, seed=4)
    halves = [full[:4], full[4:]]
    with mirrored_strategy.scope():
        grouped = nn.SyncBatchNorm(3, process_groups=[[0], [1]])
        unsynced = nn.SyncBatchNorm(3, process_groups=0)
    for bn in (grouped, unsynced):
        bn.set_train()
        ys, _ = _run_replicas(mirrored_strategy, bn, halves, halves)
        for y, half in zip(ys, halves):
            want = (half - half.mean(0)) / np.sqrt(half.var(0) + 1e-5)
            np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    with mirrored_strategy.scope():
        both = nn.SyncBatchNorm(3, process_groups=[[0, 1]])
    both.set_train()
    ys, _ = _run_replicas(mirrored_strategy, both, halves, halves)
    want = (full - full.mean(0)) / np.sqrt(full.var(0) + 1e-5)
    np.testing.assert_allclose(np.concatenate(ys), want, rtol=1e-4, atol=1e-5)

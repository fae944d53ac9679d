"""Collective primitives: identity on one device, tf.distribute collectives inside a two-replica strategy."""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import Tensor, ops
from tfspore.ops import operations as P
from tfspore.ops.operations.comm_ops import ReduceOp

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_public_paths():
    from tfspore.communication.management import GlobalComm
    assert ops.ReduceOp is P.ReduceOp is ReduceOp
    assert (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD) == ("sum", "max", "min", "prod")
    op = P.AllReduce(P.ReduceOp.SUM, GlobalComm.WORLD_COMM_GROUP)
    assert op.op == "sum" and op.group == GlobalComm.WORLD_COMM_GROUP
    assert P.AllGather().rank_size == 1


@pytest.mark.parametrize("make", [lambda: ops.AllReduce(), lambda: ops.AllReduce(ReduceOp.MAX),
                                  lambda: ops.AllGather(), lambda: ops.ReduceScatter(ReduceOp.SUM),
                                  lambda: ops.Reduce(0), lambda: ops.AlltoAll(1, 0, 1),
                                  lambda: ops.CollectiveScatter(), lambda: ops.CollectiveGather(0)])
def test_single_device_is_identity(mode, run, make):
    op = make()
    out = run(lambda x: op(x), Tensor(X))
    np.testing.assert_array_equal(out.asnumpy(), X)


def test_broadcast_single_device(mode, run):
    out = run(lambda x, y: ops.Broadcast(0)((x, y)), Tensor(X), Tensor(X[0]))
    assert isinstance(out, tuple) and len(out) == 2
    np.testing.assert_array_equal(out[1].asnumpy(), X[0])


def test_errors():
    with pytest.raises(TypeError, match="For 'AllReduce', the 'op' must be str, but got int"):
        ops.AllReduce(1)
    with pytest.raises(ValueError, match="For 'AllReduce', the 'op' must be one of .*'mean'"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match="For 'AllGather', the 'group' must be str, but got int"):
        ops.AllGather(3)
    with pytest.raises(TypeError, match="For 'Broadcast', the 'root_rank' must be int"):
        ops.Broadcast("0")
    with pytest.raises(TypeError, match="For 'Broadcast', the input must be a tuple of Tensors"):
        ops.Broadcast(0)(Tensor(X))
    with pytest.raises(ValueError, match="'split_count' must equal the group size 1, but got 2"):
        ops.AlltoAll(2, 0, 0)(Tensor(X))


def _per_replica(strategy, fn):
    """Run ``fn(replica_id_as_float)`` in a tf.function on every replica; the local results as numpy."""
    def step():
        rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        out = fn(rid)
        return tf.nest.map_structure(lambda t: t._value() if isinstance(t, Tensor) else t, out)
    res = strategy.run(tf.function(step))
    return [tf.nest.map_structure(lambda t: t.numpy(), r) for r in
            zip(*[strategy.experimental_local_results(r) for r in tf.nest.flatten(res)])]


def test_collectives_across_two_replicas(mirrored_strategy):
    base = tf.constant(X)

    def fn(rid):
        x = Tensor._from_tf(base + 10.0 * rid)        # replica 0: X, replica 1: X + 10
        return (ops.AllReduce()(x), ops.AllReduce(ReduceOp.MAX)(x), ops.AllReduce(ReduceOp.MIN)(x),
                ops.AllReduce(ReduceOp.PROD)(x), ops.AllGather()(x), ops.ReduceScatter()(x),
                ops.Broadcast(1)((x,))[0], ops.AlltoAll(2, 0, 1)(x))
    r0, r1 = _per_replica(mirrored_strategy, fn)
    x0, x1 = X, X + 10
    for r in (r0, r1):
        np.testing.assert_allclose(r[0], x0 + x1)
        np.testing.assert_allclose(r[1], x1)
        np.testing.assert_allclose(r[2], x0)
        np.testing.assert_allclose(r[3], x0 * x1)
        np.testing.assert_allclose(r[4], np.concatenate([x0, x1]))
        np.testing.assert_allclose(r[6], x1)
    np.testing.assert_allclose(r0[5], (x0 + x1)[:1])
    np.testing.assert_allclose(r1[5], (x0 + x1)[1:])
    # AlltoAll: replica r gets row r of every replica, concatenated along axis 1
    np.testing.assert_allclose(r0[7], np.concatenate([x0[:1], x1[:1]], 1))
    np.testing.assert_allclose(r1[7], np.concatenate([x0[1:], x1[1:]], 1))


def test_all_reduce_gradient_across_replicas(mirrored_strategy):
    def fn(rid):
        x = tf.fill([2], rid + 1.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = ops.AllReduce()(Tensor._from_tf(x))._value()
            loss = tf.reduce_sum(y * (rid + 1.0))
        return (tape.gradient(loss, x),)
    r0, r1 = _per_replica(mirrored_strategy, fn)
    # d(sum_r (r+1) * sum_k x_k) / dx_k = 1 + 2 on each replica
    np.testing.assert_allclose(r0[0], [3.0, 3.0])
    np.testing.assert_allclose(r1[0], [3.0, 3.0])

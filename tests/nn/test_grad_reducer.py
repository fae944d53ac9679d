"""DistributedGradReducer and the communication helpers under a real tf.distribute strategy."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore.communication import get_group_size, get_rank, init
from tfspore.nn.wrap.grad_reducer import DistributedGradReducer
from tfspore.parallel._utils import _get_device_num, _get_parallel_mode


def test_reducer_is_identity_outside_a_strategy():
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")
    reducer = DistributedGradReducer([p], mean=True, degree=1)
    g = (ms.Tensor(np.array([1.0, 2.0], np.float32)),)
    out = reducer(g)
    np.testing.assert_allclose(out[0].asnumpy(), [1.0, 2.0])


def test_reducer_sums_and_averages_over_replicas(mirrored_strategy):
    strategy = mirrored_strategy
    with strategy.scope():
        p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")
        mean_r = DistributedGradReducer([p], mean=True)
        sum_r = DistributedGradReducer([p], mean=False)
        assert mean_r.degree == 2 and _get_device_num() == 2
        assert _get_parallel_mode() == "data_parallel" and get_group_size() == 2 and get_rank() == 0

    def step():
        rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        g = (ms.Tensor._from_tf(tf.fill([2], rid + 1.0)),)
        return mean_r(g)[0]._value(), sum_r(g)[0]._value()

    mean_out, sum_out = strategy.run(tf.function(step))
    for v in strategy.experimental_local_results(mean_out):
        np.testing.assert_allclose(v.numpy(), [1.5, 1.5])
    for v in strategy.experimental_local_results(sum_out):
        np.testing.assert_allclose(v.numpy(), [3.0, 3.0])


def test_bad_degree_and_backend():
    with pytest.raises(ValueError, match="'degree' must be a positive int, but got 0"):
        DistributedGradReducer([], degree=0)
    with pytest.raises(RuntimeError, match="'backend_name'.*mpi"):
        init("mpi")

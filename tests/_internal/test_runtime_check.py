"""Index checks of Embedding and Gather: MindSpore's RuntimeError in both modes, negative indices wrap.

TensorFlow's gather raises InvalidArgumentError on CPU and returns zeros on GPU for an index out
of range; MindSpore's CPU Gather takes ``-size <= i < 0`` from the end and raises RuntimeError
outside ``[-size, size)``.
"""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Model, nn, ops
from tfspore import dataset as ds
from tfspore._internal import runtime_check


class _Gather(nn.Cell):
    def construct(self, x, i):
        return ops.gather(x, i, 0)


@pytest.mark.parametrize("bad", [10, 12, -11])
def test_embedding_index_out_of_range(mode, bad):
    with pytest.raises(RuntimeError, match=rf"For 'Embedding', the 'input_indices' should be in the range "
                                           rf"\[-10, 10\), but got {bad}\."):
        nn.Embedding(10, 4)(ms.Tensor(np.array([[1, bad]], np.int32)))


@pytest.mark.parametrize("use_one_hot", [False, True])
def test_embedding_negative_indices_count_from_the_end(mode, use_one_hot):
    emb = nn.Embedding(10, 4, use_one_hot=use_one_hot)
    table = emb.embedding_table.asnumpy()
    out = emb(ms.Tensor(np.array([[-1, -10, 3]], np.int32))).asnumpy()
    np.testing.assert_allclose(out[0], table[[9, 0, 3]], rtol=1e-6)


def test_gather_index_out_of_range_and_negative(mode):
    x = ms.Tensor(np.arange(10, dtype=np.float32).reshape(5, 2))
    with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the range \[-5, 5\), "
                                           r"but got 7\."):
        _Gather()(x, ms.Tensor(np.array([1, 7], np.int32)))
    out = _Gather()(x, ms.Tensor(np.array([-1, 0], np.int64)))
    np.testing.assert_array_equal(out.asnumpy(), [[8, 9], [0, 1]])


def test_graph_check_is_an_assert_op_and_clips():
    """In a graph the check is a tagged Assert; the gathered indices are clipped so gather never fails first."""
    @tf.function
    def f(i):
        return runtime_check.wrap_indices(i, 10, "Embedding")

    graph = f.get_concrete_function(tf.TensorSpec([None], tf.int32)).graph
    assert any(op.type == "Assert" for op in graph.get_operations())
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([3, 12]))
    with pytest.raises(RuntimeError, match=r"\[-10, 10\), but got 12\.$"):
        runtime_check.raise_runtime_error(info.value)
    runtime_check.raise_runtime_error(tf.errors.InvalidArgumentError(None, None, "other"))  # not ours: no raise
    np.testing.assert_array_equal(f(tf.constant([3, -1])).numpy(), [3, 9])


@pytest.mark.parametrize("sink", [False, True])
def test_model_train_raises_runtime_error_in_graph_mode(sink):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)
            self.dense = nn.Dense(4, 2)

        def construct(self, x):
            return self.dense(self.emb(x).mean(1))

    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = np.array([[1, 2], [3, 12]] * 2, np.int32)
        data = ds.NumpySlicesDataset({"x": x, "y": np.zeros(4, np.int32)}, shuffle=False).batch(2)
        net = Net()
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.1, 0.9))
        with pytest.raises(RuntimeError, match=r"For 'Embedding'.*but got 12\."):
            model.train(1, data, dataset_sink_mode=sink)
    finally:
        ms.set_context(mode=old)

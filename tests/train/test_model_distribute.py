"""Model.train under a real two-replica tf.distribute.MirroredStrategy (two logical CPUs)."""
import contextlib

import numpy as np
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.train import Model


def _train(strategy, epochs=2, sink_size=None, callbacks=None):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = rng.integers(0, 3, 32).astype(np.int32)
    w0 = rng.standard_normal((3, 4)).astype(np.float32) * 0.3
    scope = strategy.scope() if strategy is not None else contextlib.nullcontext()
    with scope:
        net = nn.Dense(4, 3)
        net.weight.set_data(ms.Tensor(w0))
        net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.1, 0.9))
        data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(16, True)
        if sink_size is None:
            model.train(epochs, data, callbacks=callbacks)
        else:
            model.train(epochs, data, callbacks=callbacks, dataset_sink_mode=True, sink_size=sink_size)
    return net, model


def test_mirrored_training_equals_single_device_with_gradients_mean(mirrored_strategy):
    ms.set_auto_parallel_context(gradients_mean=True)
    try:
        strategy = mirrored_strategy
        dist_record, single_record = _Record(), _Record()
        dist_net, model = _train(strategy, callbacks=[dist_record])
        assert type(model.train_network.grad_reducer).__name__ == "DistributedGradReducer"
        replicas = [v.numpy() for v in dist_net.weight._var.values]
        np.testing.assert_allclose(replicas[0], replicas[1])
        single_net, _ = _train(None, callbacks=[single_record])
        np.testing.assert_allclose(dist_net.weight.asnumpy(), single_net.weight.asnumpy(), rtol=1e-5, atol=1e-6)
        # the step loss is the replicas' mean, i.e. the global batch's loss
        np.testing.assert_allclose(dist_record.losses, single_record.losses, rtol=1e-5)
        with strategy.scope():
            layout = model.infer_train_layout(
                ds.NumpySlicesDataset(([1.0, 2.0],), shuffle=False).batch(1), dataset_sink_mode=True)
        assert layout["weight"] == [[2], [-1, -1], [3, 4], 0, True, ""]
    finally:
        ms.reset_auto_parallel_context()


def test_infer_train_layout_outside_parallel_mode_raises():
    net, model = _train(None, epochs=1)
    try:
        model.infer_train_layout(ds.NumpySlicesDataset(([1.0],), shuffle=False))
    except RuntimeError as e:
        assert "only supports 'semi_auto_parallel' and 'auto_parallel'" in str(e)
    else:
        raise AssertionError("infer_train_layout must raise outside parallel modes")


class _Record(ms.train.Callback):
    def __init__(self):
        super().__init__()
        self.steps, self.losses = [], []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.steps.append(cb.cur_step_num)
        self.losses.append(float(cb.net_outputs.asnumpy()))


def test_mirrored_sink_equals_single_device(mirrored_strategy, mode):
    """Sink mode under the strategy: sink_size steps per call through strategy.run on the distributed stream.

    Two sinks of 3 steps over a 2-batch dataset run the batches b0 b1 b0 | b1 b0 b1 (the stream
    goes on across epochs), which is 3 epochs without sink on one device. GRAPH_MODE runs a sink
    per call (step_end at steps 3 and 6), PYNATIVE_MODE one step per call.
    """
    graph = mode == ms.GRAPH_MODE
    ends = [3, 6] if graph else [1, 2, 3, 4, 5, 6]
    ms.set_auto_parallel_context(gradients_mean=True)
    try:
        record = _Record()
        dist_net, model = _train(mirrored_strategy, epochs=2, sink_size=3, callbacks=[record])
        assert type(model.train_network.grad_reducer).__name__ == "DistributedGradReducer"
        assert record.steps == ends
        replicas = [v.numpy() for v in dist_net.weight._var.values]
        np.testing.assert_allclose(replicas[0], replicas[1])
        single_record = _Record()
        single_net, _ = _train(None, epochs=3, callbacks=[single_record])
        np.testing.assert_allclose(dist_net.weight.asnumpy(), single_net.weight.asnumpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(dist_net.bias.asnumpy(), single_net.bias.asnumpy(), rtol=1e-5, atol=1e-6)
        # the loss a sink returns is its last step's (averaged over the replicas)
        np.testing.assert_allclose(record.losses, [single_record.losses[i - 1] for i in ends], rtol=1e-5)
        sink_net, _ = _train(None, epochs=2, sink_size=3)
        np.testing.assert_allclose(dist_net.weight.asnumpy(), sink_net.weight.asnumpy(), rtol=1e-5, atol=1e-6)
    finally:
        ms.reset_auto_parallel_context()


def test_connect_network_with_dataset_needs_sink_mode():
    """As in MindSpore 2.10, a helper without data sink can't be connected (the loop calls the network itself)."""
    from tfspore.train.dataset_helper import DatasetHelper, connect_network_with_dataset
    helper = DatasetHelper(ds.NumpySlicesDataset(([1.0, 2.0],), shuffle=False).batch(1), dataset_sink_mode=False)
    try:
        connect_network_with_dataset(nn.Dense(1, 1), helper)
    except RuntimeError as e:
        assert str(e) == "The API 'connect_network_with_dataset' should be called in dataset sink mode."
    else:
        raise AssertionError("connect_network_with_dataset must refuse a non-sink helper")

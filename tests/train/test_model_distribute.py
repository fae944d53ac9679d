"""Model.train under a real two-replica tf.distribute.MirroredStrategy (two logical CPUs)."""
import contextlib

import numpy as np
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.train import Model


def _train(strategy, epochs=2):
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
        model.train(epochs, data)
    return net, model


def test_mirrored_training_equals_single_device_with_gradients_mean(mirrored_strategy):
    ms.set_auto_parallel_context(gradients_mean=True)
    try:
        strategy = mirrored_strategy
        dist_net, model = _train(strategy)
        assert type(model.train_network.grad_reducer).__name__ == "DistributedGradReducer"
        replicas = [v.numpy() for v in dist_net.weight._var.values]
        np.testing.assert_allclose(replicas[0], replicas[1])
        single_net, _ = _train(None)
        np.testing.assert_allclose(dist_net.weight.asnumpy(), single_net.weight.asnumpy(), rtol=1e-5, atol=1e-6)
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

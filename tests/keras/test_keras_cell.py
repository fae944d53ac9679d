"""tfspore.keras.KerasCell / from_keras: a Keras layer or model inside a tfspore Cell."""
import numpy as np
import pytest

keras = pytest.importorskip("keras")

import tfspore as ms  # noqa: E402
import tfspore.dataset as ds  # noqa: E402
from tfspore import nn  # noqa: E402
from tfspore.keras import KerasCell, from_keras  # noqa: E402
from tfspore.train import Model  # noqa: E402

X = np.random.RandomState(0).randn(16, 4).astype(np.float32)
Y = (np.arange(16) % 3).astype(np.int32)


def _keras_mlp():
    keras.utils.set_random_seed(0)
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu", name="hidden"),
                             keras.layers.Dense(3, name="logits")], name="mlp")


def _dataset():
    return ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(8)


def test_keras_weights_are_parameters():
    kmodel = _keras_mlp()
    cell = from_keras(kmodel)
    assert isinstance(cell, KerasCell) and cell.layer is kmodel
    assert [p.name for p in cell.trainable_params()] == ["hidden_kernel", "hidden_bias", "logits_kernel", "logits_bias"]
    assert cell.trainable_params()[0].variable is kmodel.weights[0].value  # one storage
    np.testing.assert_allclose(cell(ms.Tensor(X)).asnumpy(), kmodel.predict(X, verbose=0), rtol=1e-6)
    with pytest.raises(ValueError, match="not built"):
        KerasCell(keras.layers.Dense(2))
    assert len(from_keras(keras.layers.Dense(2), input_shape=(None, 4)).trainable_params()) == 2


def test_model_train_moves_keras_weights_as_keras_fit_does(mode):
    kmodel = _keras_mlp()
    twin = keras.models.clone_model(kmodel)
    twin.set_weights(kmodel.get_weights())
    start = kmodel.get_weights()
    cell = KerasCell(kmodel)
    Model(cell, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
          nn.SGD(cell.trainable_params(), 0.1)).train(2, _dataset())
    twin.compile(optimizer=keras.optimizers.SGD(0.1), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    twin.fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    for before, trained, reference in zip(start, kmodel.get_weights(), twin.get_weights()):
        assert not np.allclose(before, trained)
        np.testing.assert_allclose(trained, reference, rtol=1e-5, atol=1e-6)


def test_keras_layer_inside_a_cell_trains_and_checkpoints(tmp_path):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.features = KerasCell(keras.layers.Dense(6, activation="tanh"), input_shape=(None, 4))
            self.head = nn.Dense(6, 3)

        def construct(self, x):
            return self.head(self.features(x))

    net = Net()
    assert [p.name for p in net.trainable_params()] == ["features.kernel", "features.bias", "head.weight", "head.bias"]
    kernel = net.features.layer.kernel
    before = kernel.numpy().copy()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc"})
    model.train(2, _dataset())
    assert not np.allclose(before, kernel.numpy())
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    other = Net()
    ms.load_param_into_net(other, ms.load_checkpoint(path))
    np.testing.assert_array_equal(other.features.layer.kernel.numpy(), kernel.numpy())
    np.testing.assert_allclose(other(ms.Tensor(X)).asnumpy(), net(ms.Tensor(X)).asnumpy(), rtol=1e-6)


def test_include_optimizer_adds_the_keras_optimizer_state():
    kmodel = _keras_mlp()
    kmodel.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    cell = KerasCell(kmodel, include_optimizer=True)
    params = list(cell.get_parameters())
    assert [p.name for p in params[:4]] == ["hidden_kernel", "hidden_bias", "logits_kernel", "logits_bias"]
    assert [p.name for p in params[4:8]] == ["optimizer_iteration", "optimizer_learning_rate",
                                             "optimizer_hidden_kernel_momentum", "optimizer_hidden_kernel_velocity"]
    assert len(params) == 4 + 1 + 1 + 2 * 4  # iteration, learning rate, Adam's two slots per weight
    assert not any(p.requires_grad for p in params[4:])
    assert params[-1].variable is kmodel.optimizer.variables[-1].value

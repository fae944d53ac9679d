"""tfspore.keras.CellLayer / to_keras: a tfspore Cell inside a keras.Model."""
import numpy as np
import pytest

keras = pytest.importorskip("keras")

import tensorflow as tf  # noqa: E402

import tfspore as ms  # noqa: E402
import tfspore.dataset as ds  # noqa: E402
from tfspore import nn  # noqa: E402
from tfspore.keras import CellLayer, to_keras  # noqa: E402
from tfspore.train import Model  # noqa: E402

X = np.random.RandomState(0).randn(16, 1, 8, 8).astype(np.float32)  # NCHW, as MindSpore's Conv2d takes it
Y = (np.arange(16) % 3).astype(np.int32)


class SmallConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 6 * 6, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.relu(self.conv(x))))


def _twin_nets():
    a, b = SmallConvNet(), SmallConvNet()
    ms.load_param_into_net(b, {p.name: ms.Parameter(p.asnumpy(), p.name) for p in a.get_parameters()})
    return a, b


def _keras_model(cell, lr=0.1):
    model = keras.Sequential([keras.Input((1, 8, 8)), to_keras(cell)])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def test_parameters_are_trainable_keras_weights():
    net = SmallConvNet()
    layer = to_keras(net)
    assert isinstance(layer, CellLayer) and layer.cell is net and layer.name == "small_conv_net"
    assert [w.name for w in layer.trainable_weights] == ["conv.weight", "conv.bias", "fc.weight", "fc.bias"]
    assert [tuple(w.shape) for w in layer.trainable_weights] == [(4, 1, 3, 3), (4,), (3, 144), (3,)]
    assert layer.trainable_weights[0].value is net.conv.weight.variable  # one storage
    with pytest.raises(TypeError, match="CellLayer"):
        CellLayer(keras.layers.Dense(2))


def test_fit_moves_the_weights_as_a_tfspore_run_does(mode):
    """keras fit with SGD(0.1) and tfspore Model.train with nn.SGD(0.1): same data, order and losses."""
    keras_net, ms_net = _twin_nets()
    start = [p.asnumpy().copy() for p in keras_net.get_parameters()]
    _keras_model(keras_net).fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    data = ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(8)
    Model(ms_net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
          nn.SGD(ms_net.trainable_params(), 0.1)).train(2, data)
    for before, trained, reference in zip(start, keras_net.get_parameters(), ms_net.get_parameters()):
        assert not np.allclose(before, trained.asnumpy())
        np.testing.assert_allclose(trained.asnumpy(), reference.asnumpy(), rtol=1e-5, atol=1e-6)


def test_evaluate_predict_and_save_weights_round_trip(tmp_path):
    net = SmallConvNet()
    model = _keras_model(net)
    expected = net(ms.Tensor(X)).asnumpy()
    np.testing.assert_allclose(model.predict(X, verbose=0), expected, rtol=1e-5, atol=1e-6)
    loss = model.evaluate(X, Y, verbose=0)
    reference = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(ms.Tensor(expected), ms.Tensor(Y))
    assert loss == pytest.approx(float(reference.asnumpy()), rel=1e-5)
    path = str(tmp_path / "net.weights.h5")
    model.save_weights(path)
    other = SmallConvNet()
    _keras_model(other).load_weights(path)
    for a, b in zip(net.get_parameters(), other.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_train_and_inference_modes_follow_keras():
    """BatchNorm statistics move in fit (non-trainable weights), and predict runs in inference mode."""
    cell = nn.SequentialCell([nn.Dense(4, 4), nn.BatchNorm1d(4), nn.Dropout(p=0.5), nn.Dense(4, 2)])
    layer = to_keras(cell)
    assert sorted(w.name for w in layer.non_trainable_weights)[0].endswith("moving_mean")
    model = keras.Sequential([keras.Input((4,)), layer])
    model.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.random.RandomState(1).randn(8, 4).astype(np.float32) * 3 + 2
    mean = [w for w in layer.non_trainable_weights if w.name.endswith("moving_mean")][0]
    model.fit(x, Y[:8] % 2, epochs=1, verbose=0)
    assert not np.allclose(mean.numpy(), 0.0)
    first, second = model.predict(x, verbose=0), model.predict(x, verbose=0)
    np.testing.assert_array_equal(first, second)  # no dropout
    assert not cell.training  # the Cell's own mode is left as it was (a new Cell is in inference mode)


def test_functional_model_and_keras_callbacks(tmp_path):
    net = SmallConvNet()
    inputs = keras.Input((1, 8, 8))
    model = keras.Model(inputs, keras.layers.Softmax()(to_keras(net)(inputs)))
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy")
    csv = tmp_path / "log.csv"
    history = model.fit(X, Y, batch_size=8, epochs=3, verbose=0, validation_data=(X, Y),
                        callbacks=[keras.callbacks.CSVLogger(str(csv)),
                                   keras.callbacks.EarlyStopping(monitor="val_loss", patience=5)])
    assert len(history.history["loss"]) == 3 and history.history["loss"][-1] < history.history["loss"][0]
    assert csv.read_text().splitlines()[0] == "epoch,loss,val_loss"


def test_saved_model_export(tmp_path):
    net = SmallConvNet()
    model = _keras_model(net)
    expected = model.predict(X, verbose=0)
    model.export(str(tmp_path / "saved"), format="tf_saved_model", verbose=False)
    reloaded = tf.saved_model.load(str(tmp_path / "saved"))
    np.testing.assert_allclose(reloaded.serve(tf.constant(X)).numpy(), expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(NotImplementedError, match="can't be saved to a .keras file"):
        model.save(str(tmp_path / "model.keras"))

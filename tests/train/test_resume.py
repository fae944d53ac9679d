"""Resuming training from a checkpoint gives the weights of an uninterrupted run.

Training 4 epochs must equal training 2 epochs, saving the train network (weights and
optimizer state) to a ``.ckpt`` file, loading it into a fresh network and optimizer with
``load_checkpoint`` + ``load_param_into_net`` and training 2 more epochs with
``initial_epoch=2``, in GRAPH and PYNATIVE mode, sink and non-sink.
"""
import os

import numpy as np
import pytest

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.train import Model
from tfspore.train.callback import CheckpointConfig, ModelCheckpoint

_STEPS_PER_EPOCH = 3


def _dataset():
    """12 samples of 4 features in batches of 4 (3 steps per epoch), in a fixed order."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((12, 4)).astype(np.float32)
    y = rng.integers(0, 3, 12).astype(np.int32)
    return ds.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False).batch(4)


class _Net(nn.Cell):
    """Two Dense layers with fixed initial weights."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(1)
        self.fc1 = nn.Dense(4, 8)
        self.fc2 = nn.Dense(8, 3)
        self.relu = nn.ReLU()
        for dense in (self.fc1, self.fc2):
            shape = tuple(dense.weight.shape)
            dense.weight.set_data(ms.Tensor((rng.standard_normal(shape) * 0.4).astype(np.float32)))
            dense.bias.set_data(ms.Tensor(np.full(shape[0], 0.05, np.float32)))

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _model(optimizer):
    """A fresh Model, its network and its optimizer."""
    net = _Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if optimizer == "momentum":
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    else:
        opt = nn.Adam(net.trainable_params(), learning_rate=0.01)
    return Model(net, loss, opt), net, opt


def _weights(net):
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}


@pytest.fixture(params=["graph", "pynative"])
def mode(request):
    """The execution mode, restored afterwards."""
    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=old)


@pytest.mark.parametrize("sink", [False, True], ids=["nonsink", "sink"])
@pytest.mark.parametrize("optimizer, saver", [("momentum", "model_checkpoint"), ("adam", "save_checkpoint")])
def test_resume_equals_uninterrupted_training(tmp_path, mode, sink, optimizer, saver):
    """4 epochs == 2 epochs + save + load into fresh network and optimizer + 2 epochs from epoch 2."""
    del mode
    full, full_net, _ = _model(optimizer)
    full.train(4, _dataset(), dataset_sink_mode=sink)

    first, first_net, _ = _model(optimizer)
    if saver == "model_checkpoint":
        config = CheckpointConfig(save_checkpoint_steps=_STEPS_PER_EPOCH, keep_checkpoint_max=2)
        ckpt_cb = ModelCheckpoint(prefix="resume", directory=str(tmp_path), config=config)
        first.train(2, _dataset(), callbacks=[ckpt_cb], dataset_sink_mode=sink)
        path = ckpt_cb.latest_ckpt_file_name
        assert os.path.basename(path) == f"resume-2_{_STEPS_PER_EPOCH}.ckpt"
    else:
        first.train(2, _dataset(), dataset_sink_mode=sink)
        path = str(tmp_path / "resume.ckpt")
        ms.save_checkpoint(first.train_network, path)
    halfway = _weights(first_net)

    params = ms.load_checkpoint(path)
    assert int(params["global_step"].asnumpy().reshape(-1)[0]) == 2 * _STEPS_PER_EPOCH
    resumed, resumed_net, resumed_opt = _model(optimizer)
    param_not_load, _ = ms.load_param_into_net(resumed.train_network, params)
    assert param_not_load == []
    for name, value in _weights(resumed_net).items():
        np.testing.assert_array_equal(value, halfway[name])
    assert int(resumed_opt.global_step.asnumpy().reshape(-1)[0]) == 2 * _STEPS_PER_EPOCH
    resumed.train(4, _dataset(), dataset_sink_mode=sink, initial_epoch=2)

    expected = _weights(full_net)
    got = _weights(resumed_net)
    assert set(got) == set(expected)
    for name in expected:
        np.testing.assert_allclose(got[name], expected[name], rtol=0, atol=1e-6, err_msg=name)
    # the run really trained: the weights moved between epoch 2 and epoch 4
    assert any(np.abs(got[n] - halfway[n]).max() > 1e-4 for n in got)


def test_resume_without_optimizer_state_differs(tmp_path):
    """Loading only the bare network's weights loses the momentum: the result differs."""
    full, full_net, _ = _model("momentum")
    full.train(4, _dataset(), dataset_sink_mode=False)
    first, first_net, _ = _model("momentum")
    first.train(2, _dataset(), dataset_sink_mode=False)
    path = str(tmp_path / "net_only.ckpt")
    ms.save_checkpoint(first_net, path)
    resumed, resumed_net, _ = _model("momentum")
    ms.load_param_into_net(resumed_net, ms.load_checkpoint(path))
    resumed.train(4, _dataset(), dataset_sink_mode=False, initial_epoch=2)
    expected, got = _weights(full_net), _weights(resumed_net)
    assert max(np.abs(got[n] - expected[n]).max() for n in got) > 1e-4

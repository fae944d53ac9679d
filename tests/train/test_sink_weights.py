"""Sink mode (sink_size >= 10) and step-by-step training end on the same weights.

tests/train/test_model.py covers a Dense network; this one trains a small conv + BatchNorm
network with nn.Momentum (the fused momentum update, the fused batch norm and the NHWC
convolution path) and also compares the optimizer state and the BatchNorm moving statistics.
"""
import numpy as np

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.train import Model


class _ConvBN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="same", weight_init="normal")
        self.bn = nn.BatchNorm2d(4, momentum=0.9)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 6 * 6, 3, weight_init="normal", bias_init="zeros")

    def construct(self, x):
        return self.fc(self.flatten(self.relu(self.bn(self.conv(x)))))


def _train(sink: bool, steps: int = 20, sink_size: int = 10) -> dict:
    ms.set_seed(3)
    net = _ConvBN()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((steps * 4, 2, 6, 6)).astype(np.float32)
    y = rng.integers(0, 3, steps * 4).astype(np.int32)
    data = ds.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False).batch(4, True)
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    if sink:
        model.train(2 * steps // sink_size, data, dataset_sink_mode=True, sink_size=sink_size)
    else:
        model.train(2, data)
    state = {p.name: p.asnumpy() for p in net.get_parameters()}
    state.update({p.name: p.asnumpy() for p in opt.moments})
    return state


def test_sink_size_10_and_non_sink_end_on_the_same_weights(mode):
    plain = _train(sink=False)
    sunk = _train(sink=True)
    assert set(plain) == set(sunk) and any(k.startswith("moments.") for k in plain)
    assert any(k.endswith("moving_mean") for k in plain)
    start = _ConvBN()
    for name, value in plain.items():
        np.testing.assert_allclose(sunk[name], value, rtol=1e-5, atol=1e-6, err_msg=name)
    # the runs trained: the weights moved away from a fresh initialisation
    assert not np.allclose(plain["bn.moving_mean"], start.bn.moving_mean.asnumpy())

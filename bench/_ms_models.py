"""The workloads as a MindSpore user writes them, run by tfspore or by real MindSpore.

The same code serves both: ``BENCH_MS_MODULE`` names the module imported as ``ms`` (``tfspore``
or ``mindspore``). Networks are NCHW, trained by ``Model.train`` in GRAPH_MODE with
``nn.Momentum`` on a ``NumpySlicesDataset``; the epoch ends are taken by a callback that reads
the loss (so the work of the epoch is finished) and notes the time.
"""
from __future__ import annotations

import importlib
import os
import time

import numpy as np

from bench._spec import INIT_STDDEV, LR, MOMENTUM, NUM_CLASSES, VOCAB, Workload, make_data

ms = importlib.import_module(os.environ.get("BENCH_MS_MODULE", "tfspore"))
nn = ms.nn
ops = ms.ops
Normal = ms.common.initializer.Normal


def _dense(cin: int, cout: int) -> nn.Cell:
    return nn.Dense(cin, cout, weight_init=Normal(INIT_STDDEV), bias_init="zeros")


def _conv(cin: int, cout: int, k: int, stride: int = 1, pad_mode: str = "same") -> nn.Cell:
    return nn.Conv2d(cin, cout, k, stride=stride, pad_mode=pad_mode, has_bias=False,
                     weight_init=Normal(INIT_STDDEV))


class MLP(nn.Cell):
    """784-128-128-10 with ReLU."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.fc1 = _dense(784, 128)
        self.fc2 = _dense(128, 128)
        self.fc3 = _dense(128, NUM_CLASSES)
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class LeNet5(nn.Cell):
    """MindSpore's LeNet-5 (model zoo layout)."""

    def __init__(self):
        super().__init__()
        self.conv1 = _conv(1, 6, 5, pad_mode="valid")
        self.conv2 = _conv(6, 16, 5, pad_mode="valid")
        self.fc1 = _dense(16 * 5 * 5, 120)
        self.fc2 = _dense(120, 84)
        self.fc3 = _dense(84, NUM_CLASSES)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class BasicBlock(nn.Cell):
    """conv3x3-BN-ReLU-conv3x3-BN plus the (projected) shortcut, then ReLU."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = _conv(cin, cout, 3, stride)
        self.bn1 = nn.BatchNorm2d(cout, momentum=0.9, eps=1e-5)
        self.conv2 = _conv(cout, cout, 3)
        self.bn2 = nn.BatchNorm2d(cout, momentum=0.9, eps=1e-5)
        self.relu = nn.ReLU()
        self.down = stride != 1 or cin != cout
        if self.down:
            self.down_conv = _conv(cin, cout, 1, stride)
            self.down_bn = nn.BatchNorm2d(cout, momentum=0.9, eps=1e-5)

    def construct(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.down:
            x = self.down_bn(self.down_conv(x))
        return self.relu(out + x)


class ResNet(nn.Cell):
    """A small CIFAR-style ResNet: stem, three basic blocks (16, 32, 64), global average pool."""

    def __init__(self):
        super().__init__()
        self.conv = _conv(3, 16, 3)
        self.bn = nn.BatchNorm2d(16, momentum=0.9, eps=1e-5)
        self.relu = nn.ReLU()
        self.layer1 = BasicBlock(16, 16, 1)
        self.layer2 = BasicBlock(16, 32, 2)
        self.layer3 = BasicBlock(32, 64, 2)
        self.mean = ops.ReduceMean(keep_dims=False)
        self.fc = _dense(64, NUM_CLASSES)

    def construct(self, x):
        x = self.relu(self.bn(self.conv(x)))
        x = self.layer3(self.layer2(self.layer1(x)))
        return self.fc(self.mean(x, (2, 3)))


class Transformer(nn.Cell):
    """Embedding, two post-norm encoder layers (batch first, no dropout), mean pool, dense."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 64, embedding_table=Normal(INIT_STDDEV))
        layer = nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.mean = ops.ReduceMean(keep_dims=False)
        self.fc = _dense(64, NUM_CLASSES)

    def construct(self, tokens):
        x = self.encoder(self.embed(tokens))
        return self.fc(self.mean(x, 1))


class ConvNet(nn.Cell):
    """A small VGG-style network: two conv3x3-BN-ReLU stages with max-pooling, then two dense layers."""

    def __init__(self):
        super().__init__()
        layers = []
        cin = 3
        for cout in (32, 32, "M", 64, 64, "M"):
            if cout == "M":
                layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
                continue
            layers += [_conv(cin, cout, 3), nn.BatchNorm2d(cout, momentum=0.9, eps=1e-5), nn.ReLU()]
            cin = cout
        self.features = nn.SequentialCell(layers)
        self.flatten = nn.Flatten()
        self.fc1 = _dense(64 * 8 * 8, 128)
        self.relu = nn.ReLU()
        self.fc2 = _dense(128, NUM_CLASSES)

    def construct(self, x):
        x = self.flatten(self.features(x))
        return self.fc2(self.relu(self.fc1(x)))


NETWORKS = {"mlp": MLP, "lenet": LeNet5, "resnet": ResNet, "transformer": Transformer, "convnet": ConvNet}


class EpochTimer(ms.train.Callback):
    """Notes ``time.perf_counter()`` at each epoch end, after reading the loss."""

    def __init__(self):
        super().__init__()
        self.ends = []

    def on_train_epoch_end(self, run_context):
        out = run_context.original_args().net_outputs
        out = out[0] if isinstance(out, (tuple, list)) else out
        out.asnumpy()
        self.ends.append(time.perf_counter())


def run(workload: Workload, config: str, epochs: int, steps: int, sink_size: int) -> dict:
    """Train ``workload`` for ``epochs`` epochs of ``steps`` steps; return the epoch end times.

    Args:
        workload: the workload.
        config: ``"nonsink"`` or ``"sink"`` (``sink_size`` steps per compiled call), fed by a
            ``NumpySlicesDataset``; with the suffix ``"-tfdata"`` (tfspore only), fed by the
            ``tf.data`` pipeline the Keras runs use (``from_tensor_slices``, ``batch``,
            ``prefetch``), which isolates the training engine from the dataset engine.
        epochs: the number of epochs.
        steps: steps per epoch.
        sink_size: steps per sink.

    Returns:
        ``epoch_ends`` (seconds since the train call, one per epoch) and ``final_loss``.
    """
    ms.set_context(mode=ms.GRAPH_MODE)
    if ms.__name__ == "mindspore":
        ms.set_context(device_target="CPU")
    ms.set_seed(1)
    x, y = make_data(workload, steps)
    if config.endswith("-tfdata"):
        import tensorflow as tf  # pylint: disable=import-outside-toplevel
        data = tf.data.Dataset.from_tensor_slices((x, y)).batch(workload.batch, drop_remainder=True)
        data = data.prefetch(tf.data.AUTOTUNE)
        config = config[:-len("-tfdata")]
    else:
        dataset = importlib.import_module(ms.__name__ + ".dataset")
        data = dataset.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False)
        data = data.batch(workload.batch, drop_remainder=True)
    net = NETWORKS[workload.network or workload.name]()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), LR, MOMENTUM)
    amp = {}
    if workload.amp_level != "O0":  # VGG16's setting: float16 BatchNorm, no loss-scale manager
        amp = dict(amp_level=workload.amp_level, keep_batchnorm_fp32=False, loss_scale_manager=None)
    model = ms.train.Model(net, loss_fn=loss, optimizer=opt, **amp)
    timer = EpochTimer()
    start = time.perf_counter()
    if config == "sink":
        if steps % sink_size:
            raise ValueError(f"steps per epoch ({steps}) must be a multiple of sink_size ({sink_size})")
        per_epoch = steps // sink_size
        model.train(epochs * per_epoch, data, callbacks=[timer], dataset_sink_mode=True, sink_size=sink_size)
        ends = timer.ends[per_epoch - 1::per_epoch]
    else:
        model.train(epochs, data, callbacks=[timer], dataset_sink_mode=False)
        ends = timer.ends
    final = [p.asnumpy() for p in net.trainable_params()]
    return {"epoch_ends": [t - start for t in ends],
            "weights_checksum": float(sum(np.abs(w).sum() for w in final))}

"""Migration guide, MindSpore's training flow: LeNet with Model.train, LossMonitor and ModelCheckpoint.

The guide's MindSpore snippet (from ModelZoo LeNet5's train.py) with its placeholders filled in:
``src.dataset.create_dataset`` and ``src.lenet.LeNet`` are defined here (the ModelZoo's pipeline,
in file order, and its LeNet5, with fixed weights); ``data_path``, ``batch_size``,
``num_classes``, ``lr``, ``momentum`` and ``epoch_size`` take the ModelZoo's values (epoch_size
10) on a small MNIST directory (``MNIST_Data/train``, 64 images: 2 steps per epoch), and
``save_checkpoint_steps`` is 2 (one file per epoch; the ModelZoo's 1875 is one MNIST epoch). The
snippet's unqualified ``SoftmaxCrossEntropyWithLogits`` and ``Momentum`` come from
``mindspore.nn``, the loss takes the ModelZoo's ``sparse=True, reduction="mean"``, the context
has no ``device_target`` (``config`` is the ModelZoo's), and its ``ckpoint_cb`` typo reads
``ckpt_cb``. After training the script prints the checkpoint files that ModelCheckpoint kept
(beyond the page).
"""
# parity: env=msds data=mnist
import os

import numpy as np
import mindspore.dataset as ds
import mindspore.dataset.transforms as CT
import mindspore.dataset.vision as CV
from mindspore import nn, Tensor
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Normal
from mindspore.dataset.vision import Inter
from mindspore.nn import SoftmaxCrossEntropyWithLogits, Momentum

import mindspore as ms
from mindspore.nn import Accuracy


def create_dataset(data_path, batch_size=32):
    """The ModelZoo's src/dataset.py MNIST pipeline, in file order (no shuffle)."""
    mnist_ds = ds.MnistDataset(data_path, shuffle=False)
    mnist_ds = mnist_ds.map(input_columns="label", operations=CT.TypeCast(mstype.int32))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Resize((32, 32), interpolation=Inter.LINEAR))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1.0 / 255.0, 0.0))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.HWC2CHW())
    return mnist_ds.batch(batch_size, drop_remainder=True)


class LeNet5(nn.Cell):
    """The ModelZoo's src/lenet.py (LeNet5; the guide imports it as LeNet)."""

    def __init__(self, num_class=10, num_channel=1, include_top=True):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
            self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
            self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))

    def construct(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def fix_weights(network, seed=0):
    """Fixed weights in place of the random initial ones."""
    rng = np.random.RandomState(seed)
    for param in network.trainable_params():
        shape = tuple(param.shape)
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
        value = np.clip(rng.standard_normal(shape), -2, 2) / np.sqrt(fan_in)
        param.set_data(Tensor(value.astype(np.float32)))


LeNet = LeNet5
data_path = os.path.join("MNIST_Data", "train")
batch_size = 32
num_classes = 10
lr = 0.01
momentum = 0.9
epoch_size = 10
save_checkpoint_steps = 2

if __name__ == "__main__":
    # set context, including device type, device number...
    ms.set_context(mode=ms.GRAPH_MODE)
    # 1. define dataset object
    ds_train = create_dataset(data_path, batch_size)
    # 2. define forward network
    network = LeNet(num_classes)
    fix_weights(network)
    # 3. define loss
    net_loss = SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    # 4. define optimizer
    net_opt = Momentum(network.trainable_params(), lr, momentum)
    # define callbacks
    config_ck = ms.CheckpointConfig(save_checkpoint_steps)
    ckpt_cb = ms.ModelCheckpoint(prefix="lenet", config=config_ck)
    loss_cb = ms.LossMonitor()

    # define model
    model = ms.Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()})
    # 5-7. start training
    model.train(epoch_size, ds_train, callbacks=[loss_cb, ckpt_cb])
    print(sorted(name for name in os.listdir(".") if name.endswith(".ckpt")))  # beyond the page

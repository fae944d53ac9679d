"""mindspore.train.callback.LossMonitor page: LeNet5 trained for 10 epochs with ``LossMonitor()``.

The page's ``LeNet5()`` is the CheckpointConfig page's and ``create_dataset`` the training guide's
(in file order, without its shuffle) on a small MNIST directory (``MNIST_Data/train``; the page's
``'./MNIST_Data'`` holds the train and test folders), 64 images: 2 steps per epoch; the weights
are set from a seeded numpy generator.
"""
# parity: env=msds data=mnist modes=pynative,graph
import argparse

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as CT
import mindspore.dataset.vision as CV
from mindspore import Model, nn, Tensor
from mindspore.common import dtype as mstype
from mindspore.dataset.vision import Inter
from mindspore.train.callback import LossMonitor
from mindspore.common.initializer import Normal


def create_dataset(data_path, batch_size=32):
    """The training guide's MNIST pipeline, in file order."""
    mnist_ds = ds.MnistDataset(data_path, shuffle=False)
    mnist_ds = mnist_ds.map(input_columns="label", operations=CT.TypeCast(mstype.int32))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Resize((32, 32), interpolation=Inter.LINEAR))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1.0 / 255.0, 0.0))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.HWC2CHW())
    return mnist_ds.batch(batch_size, drop_remainder=True)


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    optim = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    model = Model(net, loss_fn=loss, optimizer=optim)
    data_path = './MNIST_Data/train'
    dataset = create_dataset(data_path)
    loss_monitor = LossMonitor()
    model.train(10, dataset, callbacks=loss_monitor)

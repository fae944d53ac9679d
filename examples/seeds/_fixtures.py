"""The placeholders of the seed pages' examples, shared by the seed scripts.

The pages call ``LeNet5()`` and ``create_dataset(...)`` without showing them ("refer to
lenet.py"), and draw random initial weights. The scripts import these definitions with
``from _fixtures import ...`` (a script's directory comes first on ``sys.path`` both under
``python script.py`` and ``python -m tfspore run script.py``). This module is MindSpore code, so
it runs unchanged under MindSpore and under tfspore.

* ``create_dataset``: the MNIST pipeline of the docs' mnist.py (the same as the model zoo's
  ``src/dataset.py``), in file order: the shuffle is left out, because MindSpore and tfspore
  shuffle differently.
* ``LeNet5``: the docs' lenet.py (the same as the model zoo's ``src/lenet.py``).
* ``fix_weights``: fixed weights from a seeded numpy generator in place of the random initial
  ones, so that both frameworks print the same numbers.
* ``set_mode``: the scripts' ``--mode pynative|graph`` option (the test runs a script in each
  mode its ``# parity: modes=`` line names).
"""
import argparse

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as CT
import mindspore.dataset.vision as CV
from mindspore import nn, Tensor
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Normal
from mindspore.dataset.vision import Inter


def create_dataset(data_path="./MNIST_Data/train", batch_size=32):
    """The MNIST pipeline of the docs' mnist.py, in file order (no shuffle).

    Args:
        data_path (str): The MNIST folder (idx files) to read.
        batch_size (int): Images per batch; the last partial batch is dropped.

    Returns:
        The batched dataset of (image float32 [N, 1, 32, 32], label int32 [N]).
    """
    mnist_ds = ds.MnistDataset(data_path, shuffle=False)
    mnist_ds = mnist_ds.map(input_columns="label", operations=CT.TypeCast(mstype.int32))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Resize((32, 32), interpolation=Inter.LINEAR))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1.0 / 255.0, 0.0))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.HWC2CHW())
    return mnist_ds.batch(batch_size, drop_remainder=True)


class LeNet5(nn.Cell):
    """The docs' lenet.py.

    Args:
        num_class (int): Number of classes.
        num_channel (int): Channels of the input images.
        include_top (bool): Whether the dense layers follow the convolutions.
    """

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
    """Sets fixed weights in place of the random initial ones.

    Each trainable parameter, in ``trainable_params()`` order, gets standard normal draws of a
    ``numpy.random.RandomState(seed)``, clipped to [-2, 2] and divided by the square root of
    its fan-in (its first dimension for a vector).

    Args:
        network (nn.Cell): The network whose trainable parameters are set.
        seed (int): The numpy generator's seed.
    """
    rng = np.random.RandomState(seed)
    for param in network.trainable_params():
        shape = tuple(param.shape)
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
        value = np.clip(rng.standard_normal(shape), -2, 2) / np.sqrt(fan_in)
        param.set_data(Tensor(value.astype(np.float32)))


def set_mode():
    """Sets GRAPH_MODE when the script is run with ``--mode graph`` (default: ``pynative``)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

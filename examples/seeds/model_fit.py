"""mindspore.train.Model.fit page: LeNet5 trained for 2 epochs, validated after each.

The page's ``LeNet5()`` and ``create_dataset("train")`` / ``create_dataset("test")`` are the docs'
lenet.py and mnist.py (in file order, no shuffle) on a small MNIST directory
(``MNIST_Data/train``: 64 images, ``MNIST_Data/test``: 32), with fixed weights. A callback prints
the validation results that ``fit`` hands to ``epoch_end`` (``cb_params.eval_results``), and the
script evaluates once more after training (beyond the page).
"""
# parity: env=msds data=mnist modes=pynative,graph
import argparse

import numpy as np
import mindspore.dataset as ds
import mindspore.dataset.transforms as CT
import mindspore.dataset.vision as CV
from mindspore import nn, Tensor
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Normal
from mindspore.dataset.vision import Inter
import mindspore as ms
from mindspore.train import Model, Callback


def create_dataset(data_path="./MNIST_Data/train", batch_size=32):
    """The MNIST pipeline of the docs' mnist.py, in file order (no shuffle)."""
    mnist_ds = ds.MnistDataset(data_path, shuffle=False)
    mnist_ds = mnist_ds.map(input_columns="label", operations=CT.TypeCast(mstype.int32))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Resize((32, 32), interpolation=Inter.LINEAR))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1.0 / 255.0, 0.0))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.HWC2CHW())
    return mnist_ds.batch(batch_size, drop_remainder=True)


class LeNet5(nn.Cell):
    """The docs' lenet.py."""

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


def set_mode():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)


def as_floats(results):
    """The metric values as Python floats (numpy 2 would print np.float64(...))."""
    return {name: float(value) for name, value in results.items()}


class PrintEval(Callback):
    """Prints the validation results of each epoch (beyond the page)."""

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        print("epoch", cb_params.cur_epoch_num, "eval:", as_floats(cb_params.eval_results))


if __name__ == "__main__":
    set_mode()
    train_dataset = create_dataset("./MNIST_Data/train")
    valid_dataset = create_dataset("./MNIST_Data/test")
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=optim, metrics={"accuracy"})
    model.fit(2, train_dataset, valid_dataset, callbacks=[PrintEval()])
    print(as_floats(model.eval(valid_dataset)))  # beyond the page

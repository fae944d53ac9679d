"""mindspore.train.callback.SummaryLandscape page: collect the landscape checkpoints of LeNet5 with
SummaryCollector, then create the landscapes with SummaryLandscape.

The page's ``create_dataset`` and ``LeNet5`` are the model zoo's (the dataset in file order, without
shuffle) on a small MNIST directory (``MNIST_Data/train``, 64 images), with fixed weights; the
training batches hold 8 images instead of the page's 32, so that one epoch has the 5 steps of
``interval_1`` (with 2 steps, SummaryLandscape rejects the metadata: steps 3 to 5 have no
checkpoint). The script runs in GRAPH_MODE as the page does, with ``device_target`` left at its default (the
page sets "GPU"). The page's
``gen_landscapes_with_multi_process`` call creates no landscape (``create_landscape`` is all
False). Beyond the page, the script prints the checkpoints and metadata that SummaryCollector
left, creates the training-process (PCA) landscape of ``interval_1`` (SummaryLandscape prints its
progress with the loss of each checkpoint on the path and of each grid point), and removes the
checkpoints with ``clean_ckpt``.
"""
# parity: env=msds data=mnist
import json
import os

import numpy as np
import mindspore.dataset as ds
import mindspore.dataset.transforms as CT
import mindspore.dataset.vision as CV
import mindspore.nn as nn
from mindspore import context, Tensor
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Normal
from mindspore.dataset.vision import Inter
from mindspore.train.callback import SummaryCollector, SummaryLandscape
from mindspore import Model
from mindspore.nn import Loss, Accuracy


def create_dataset(data_path, batch_size=32):
    """The model zoo's MNIST pipeline, in file order."""
    mnist_ds = ds.MnistDataset(data_path, shuffle=False)
    mnist_ds = mnist_ds.map(input_columns="label", operations=CT.TypeCast(mstype.int32))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Resize((32, 32), interpolation=Inter.LINEAR))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1.0 / 255.0, 0.0))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081))
    mnist_ds = mnist_ds.map(input_columns="image", operations=CV.HWC2CHW())
    return mnist_ds.batch(batch_size, drop_remainder=True)


class LeNet5(nn.Cell):
    """The model zoo's LeNet5."""

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


if __name__ == '__main__':
    context.set_context(mode=context.GRAPH_MODE)
    mnist_dataset_dir = './MNIST_Data/train'
    ds_train = create_dataset(mnist_dataset_dir, 8)
    network = LeNet5(10)
    fix_weights(network)
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_opt = nn.Momentum(network.trainable_params(), 0.01, 0.9)
    model = Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()})
    # Simple usage for collect landscape information:
    interval_1 = [1, 2, 3, 4, 5]
    summary_collector = SummaryCollector(summary_dir='./summary/lenet_interval_1',
                                         collect_specified_data={'collect_landscape': {"landscape_size": 4,
                                                                                       "unit": "step",
                                                                                       "create_landscape": {"train": True,
                                                                                                            "result": False},
                                                                                       "num_samples": 2048,
                                                                                       "intervals": [interval_1]}
                                                                 })
    model.train(1, ds_train, callbacks=[summary_collector], dataset_sink_mode=False)

    # Simple usage for visualization landscape:
    def callback_fn():
        network = LeNet5(10)
        net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        metrics = {"Loss": Loss()}
        model = Model(network, net_loss, metrics=metrics)
        mnist_dataset_dir = './MNIST_Data/train'
        ds_eval = create_dataset(mnist_dataset_dir, 32)
        return model, network, ds_eval, metrics

    summary_landscape = SummaryLandscape('./summary/lenet_interval_1')
    # parameters of collect_landscape can be modified or unchanged
    summary_landscape.gen_landscapes_with_multi_process(callback_fn,
                                                        collect_landscape={"landscape_size": 4,
                                                                           "create_landscape": {"train": False,
                                                                                                "result": False},
                                                                           "num_samples": 2048,
                                                                           "intervals": [interval_1]},
                                                        device_ids=[1])

    # beyond the page
    ckpt_dir = './summary/lenet_interval_1/ckpt_dir'
    print(sorted(os.listdir(ckpt_dir), key=lambda name: (len(name), name)))
    with open(os.path.join(ckpt_dir, 'train_metadata.json'), encoding='utf-8') as file:
        metadata = json.load(file)
    print({key: value for key, value in sorted(metadata.items()) if key != 'model_params_file_map'})
    summary_landscape.gen_landscapes_with_multi_process(callback_fn,
                                                        collect_landscape={"create_landscape": {"train": True,
                                                                                                "result": False}},
                                                        device_ids=[0])
    summary_landscape.clean_ckpt()
    print(os.path.exists(ckpt_dir))

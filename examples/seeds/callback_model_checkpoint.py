"""mindspore.train.callback ModelCheckpoint / CheckpointConfig, LossMonitor and TimeMonitor pages: LeNet5.

The page's code (its own LeNet5) with a fixed run: ``create_dataset`` comes from ``_fixtures.py``
(the MNIST pipeline in file order, without its shuffle) on a small MNIST directory
(``MNIST_Data/train``, 64 images: 2 steps per epoch), the weights are set from a seeded numpy
generator (``fix_weights``), and after training the script prints the losses (``LossMonitor()``, as on the LossMonitor page), the epoch times (``TimeMonitor()``,
as on the TimeMonitor page; the times are masked in the comparison) and the checkpoint files
that ``ModelCheckpoint`` kept (beyond the page).
"""
# parity: env=msds data=mnist
# parity: mask=(time: )[0-9.]+
import os

from mindspore import Model, nn
from mindspore.train.callback import ModelCheckpoint, CheckpointConfig, LossMonitor, TimeMonitor
from mindspore.common.initializer import Normal
from _fixtures import create_dataset, fix_weights


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


if __name__ == "__main__":
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    optim = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    model = Model(net, loss_fn=loss, optimizer=optim)
    data_path = './MNIST_Data/train'
    dataset = create_dataset(data_path)
    config = CheckpointConfig(saved_network=net)
    ckpoint_cb = ModelCheckpoint(prefix='LeNet5', directory='./checkpoint', config=config)
    model.train(10, dataset, callbacks=[ckpoint_cb, LossMonitor(), TimeMonitor()])
    print(sorted(os.listdir('./checkpoint')))  # beyond the page
    print(os.path.basename(ckpoint_cb.latest_ckpt_file_name))  # beyond the page

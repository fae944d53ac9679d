"""mindspore.train.callback.LossMonitor page: LeNet5 trained for 10 epochs with ``LossMonitor()``.

The page's ``LeNet5()`` and ``create_dataset`` come from ``_fixtures.py`` (the docs' lenet.py, the
same network as the CheckpointConfig page's, and the MNIST pipeline in file order, without its
shuffle) on a small MNIST directory (``MNIST_Data/train``; the page's
``'./MNIST_Data'`` holds the train and test folders), 64 images: 2 steps per epoch; the weights
are set from a seeded numpy generator (``fix_weights``).
"""
# parity: env=msds data=mnist modes=pynative,graph
import argparse

import mindspore as ms
from mindspore import Model, nn
from mindspore.train.callback import LossMonitor
from _fixtures import create_dataset, LeNet5, fix_weights


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

"""mindspore.train.callback.TimeMonitor page: LeNet5 trained for 10 epochs with ``TimeMonitor()``.

The page's ``LeNet5()`` and ``create_dataset`` come from ``_fixtures.py`` (the docs' lenet.py, the
same network as the CheckpointConfig page's, and the MNIST pipeline in file order, without its
shuffle) on a small MNIST directory (``MNIST_Data/train``; the page's
``'./MNIST_Data'`` holds the train and test folders), 64 images: 2 steps per epoch; the weights
are set from a seeded numpy generator (``fix_weights``). The comparison masks the times; the lines, their
epochs and step counts must match. After training the script prints the last layer's bias
(beyond the page).
"""
# parity: env=msds data=mnist
# parity: mask=(time: )[0-9.]+
from mindspore import Model, nn
from mindspore.train.callback import TimeMonitor
from _fixtures import create_dataset, LeNet5, fix_weights


if __name__ == "__main__":
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    optim = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    model = Model(net, loss_fn=loss, optimizer=optim)
    data_path = './MNIST_Data/train'
    dataset = create_dataset(data_path)
    time_monitor = TimeMonitor()
    model.train(10, dataset, callbacks=time_monitor)
    print("fc3.bias:", net.fc3.bias.asnumpy())  # beyond the page

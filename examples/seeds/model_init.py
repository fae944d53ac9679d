"""mindspore.train.Model page, class example: a Model of LeNet5, its networks, and ``model.train(2, dataset)``.

The page's ``LeNet5()`` and ``create_dataset()`` are the docs' lenet.py and mnist.py from
``_fixtures.py`` (in file order, no shuffle) on a small MNIST directory (``MNIST_Data/train``,
64 images: 2 steps per epoch), with fixed weights. The page shows ``model.train_network``, ``model.predict_network`` and
``model.eval_network`` as doctest values; the script prints their types, and after training the
last layer's bias (beyond the page).
"""
# parity: env=msds data=mnist modes=pynative,graph
from mindspore import nn
from mindspore.train import Model
from _fixtures import create_dataset, LeNet5, fix_weights, set_mode


if __name__ == "__main__":
    set_mode()
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
    print(type(model.train_network).__name__)
    print(type(model.predict_network).__name__)
    print(model.eval_network)
    dataset = create_dataset()
    model.train(2, dataset)
    print("fc3.bias:", net.fc3.bias.asnumpy())  # beyond the page

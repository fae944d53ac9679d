"""mindspore.train.Model.train page: LeNet5 with ``FixedLossScaleManager(1024., False)``, ``model.train(2, dataset)``.

The page's ``LeNet5()`` and ``create_dataset()`` are the docs' lenet.py and mnist.py from
``_fixtures.py`` (in file order, no shuffle) on a small MNIST directory (``MNIST_Data/train``,
64 images: 2 steps per epoch), with fixed weights. After training the script prints the last layer's bias and the
loss-scale manager's scale (beyond the page).
"""
# parity: env=msds data=mnist modes=pynative,graph
from mindspore import nn
import mindspore as ms
from mindspore.train import Model
from _fixtures import create_dataset, LeNet5, fix_weights, set_mode


if __name__ == "__main__":
    set_mode()
    dataset = create_dataset()
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    loss_scale_manager = ms.FixedLossScaleManager(1024., False)
    optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=optim, metrics=None,
                  loss_scale_manager=loss_scale_manager)
    model.train(2, dataset)
    print("fc3.bias:", net.fc3.bias.asnumpy())  # beyond the page
    print("loss scale:", loss_scale_manager.get_loss_scale())  # beyond the page

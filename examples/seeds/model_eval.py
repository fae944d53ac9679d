"""mindspore.train.Model.eval page: LeNet5 evaluated with ``metrics={'acc'}`` and no optimizer.

The page's ``LeNet5()`` and ``create_dataset()`` are the docs' lenet.py and mnist.py from
``_fixtures.py`` (in file order, no shuffle) on a small MNIST directory (``MNIST_Data/train``,
64 images), with fixed weights. The script prints the result (beyond the page).
"""
# parity: env=msds data=mnist modes=pynative,graph
from mindspore import nn
from mindspore.train import Model
from _fixtures import create_dataset, LeNet5, fix_weights, set_mode


if __name__ == "__main__":
    set_mode()
    dataset = create_dataset()
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    model = Model(net, loss_fn=loss, optimizer=None, metrics={'acc'})
    acc = model.eval(dataset, dataset_sink_mode=False)
    print({name: float(value) for name, value in acc.items()})  # beyond the page (numpy 2 would print
    # a numpy float as np.float64(...))

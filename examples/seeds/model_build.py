"""mindspore.train.Model.build page: ``model.build(dataset, epoch=2)`` then ``model.train(2, dataset)``.

The page's ``LeNet5()`` and ``create_dataset()`` are the docs' lenet.py and mnist.py from
``_fixtures.py`` (in file order, no shuffle) on a small MNIST directory (``MNIST_Data/train``,
64 images: 2 steps per epoch), with fixed weights. The page's loss is ``SoftmaxCrossEntropyWithLogits()`` (dense
labels), so this ``create_dataset`` gives one-hot float32 labels. After training the script
prints the last layer's bias (beyond the page).

MindSpore 2.10 pre-builds on Ascend only ("Pre-init process only supports Ascend target
currently.") and its CPU build refuses ``FixedLossScaleManager()`` (``drop_overflow_update=True``,
Ascend and GPU only), so the expected line is MindSpore 2.10 CPU's output of the same script run
with ``--reference``: no ``build`` (building changes no value) and no loss-scale manager (the
fixed scale 128 is a power of two, so scaling the loss and unscaling the gradients is exact when
nothing overflows).
"""
# parity: env=msds data=mnist modes=pynative,graph
# parity: no-mindspore=MindSpore 2.10 raises 'Pre-init process only supports Ascend target currently.' in Model.build on CPU; and refuses FixedLossScaleManager() on CPU; the expected lines are MindSpore 2.10 CPU's output of this script with --reference (the same training without build and without the loss-scale manager)
# parity: expected-stdout=fc3.bias: [-4.347794   -2.018312    1.3088892   1.6208043  -0.0296514  -0.1514667
# parity: expected-stdout=  1.8716054   0.2038062  -0.21964014  0.27732897]
import argparse

import mindspore.dataset.transforms as CT
from mindspore import nn
from mindspore.common import dtype as mstype
import mindspore as ms
from mindspore.train import Model
from mindspore.amp import FixedLossScaleManager
from _fixtures import create_dataset, LeNet5, fix_weights


def set_mode():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)


def create_one_hot_dataset(data_path="./MNIST_Data/train", batch_size=32):
    """create_dataset with one-hot float32 labels, for SoftmaxCrossEntropyWithLogits(sparse=False)."""
    mnist_ds = create_dataset(data_path, batch_size)
    mnist_ds = mnist_ds.map(input_columns="label", operations=CT.OneHot(10))
    return mnist_ds.map(input_columns="label", operations=CT.TypeCast(mstype.float32))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    parser.add_argument("--reference", action="store_true", help="train without build (MindSpore on CPU)")
    args = parser.parse_args()
    if args.mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    dataset = create_one_hot_dataset()
    net = LeNet5()
    fix_weights(net)
    loss = nn.SoftmaxCrossEntropyWithLogits()
    loss_scale_manager = FixedLossScaleManager()
    optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
    if args.reference:
        model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
    else:
        model = Model(net, loss_fn=loss, optimizer=optim, metrics=None,
                      loss_scale_manager=loss_scale_manager)
        model.build(dataset, epoch=2)
    model.train(2, dataset)
    print("fc3.bias:", net.fc3.bias.asnumpy())  # beyond the page

"""Migration guide, MindSpore's training flow: LeNet with Model.train, LossMonitor and ModelCheckpoint.

The guide's MindSpore snippet (from ModelZoo LeNet5's train.py) with its placeholders filled in:
``src.dataset.create_dataset`` and ``src.lenet.LeNet`` come from ``_fixtures.py`` (the ModelZoo's
pipeline, in file order, and its LeNet5, with fixed weights); ``data_path``, ``batch_size``,
``num_classes``, ``lr``, ``momentum`` and ``epoch_size`` take the ModelZoo's values (epoch_size
10) on a small MNIST directory (``MNIST_Data/train``, 64 images: 2 steps per epoch), and
``save_checkpoint_steps`` is 2 (one file per epoch; the ModelZoo's 1875 is one MNIST epoch). The
snippet's unqualified ``SoftmaxCrossEntropyWithLogits`` and ``Momentum`` come from
``mindspore.nn``, the loss takes the ModelZoo's ``sparse=True, reduction="mean"``, the context
has no ``device_target`` (``config`` is the ModelZoo's), and its ``ckpoint_cb`` typo reads
``ckpt_cb``. After training the script prints the checkpoint files that ModelCheckpoint kept
(beyond the page).
"""
# parity: env=msds data=mnist
import os

from mindspore.nn import SoftmaxCrossEntropyWithLogits, Momentum

import mindspore as ms
from mindspore.nn import Accuracy
from _fixtures import create_dataset, LeNet5, fix_weights


LeNet = LeNet5
data_path = os.path.join("MNIST_Data", "train")
batch_size = 32
num_classes = 10
lr = 0.01
momentum = 0.9
epoch_size = 10
save_checkpoint_steps = 2

if __name__ == "__main__":
    # set context, including device type, device number...
    ms.set_context(mode=ms.GRAPH_MODE)
    # 1. define dataset object
    ds_train = create_dataset(data_path, batch_size)
    # 2. define forward network
    network = LeNet(num_classes)
    fix_weights(network)
    # 3. define loss
    net_loss = SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    # 4. define optimizer
    net_opt = Momentum(network.trainable_params(), lr, momentum)
    # define callbacks
    config_ck = ms.CheckpointConfig(save_checkpoint_steps)
    ckpt_cb = ms.ModelCheckpoint(prefix="lenet", config=config_ck)
    loss_cb = ms.LossMonitor()

    # define model
    model = ms.Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()})
    # 5-7. start training
    model.train(epoch_size, ds_train, callbacks=[loss_cb, ckpt_cb])
    print(sorted(name for name in os.listdir(".") if name.endswith(".ckpt")))  # beyond the page

"""mindspore.train.callback.SummaryLandscape page: collect the landscape checkpoints of LeNet5 with
SummaryCollector, then create the landscapes with SummaryLandscape.

The page's ``create_dataset`` and ``LeNet5`` are the model zoo's, from
``_fixtures.py`` (the dataset in file order, without shuffle) on a small MNIST directory
(``MNIST_Data/train``, 64 images), with fixed weights; the
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

import mindspore.nn as nn
from mindspore import context
from mindspore.train.callback import SummaryCollector, SummaryLandscape
from mindspore import Model
from mindspore.nn import Loss, Accuracy
from _fixtures import create_dataset, LeNet5, fix_weights


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

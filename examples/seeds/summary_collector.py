"""mindspore.train.callback.SummaryCollector page: LeNet5 trained with ``SummaryCollector``, simple usage and
``collect_specified_data``.

The page's ``create_dataset`` and ``LeNet5`` are the model zoo's, from
``_fixtures.py`` (the dataset in file order, without shuffle) on a small MNIST directory
(``MNIST_Data/train``, 64 images: 2 steps per epoch), with fixed weights. ``device_target`` is left at its default (the page sets "Ascend"). MindSpore 2.10 on CPU
refuses the page's ``amp_level="O2"`` (its default loss-scale manager needs Ascend or GPU): the
expected output comes from MindSpore running this script with ``--reference``, which adds
``loss_scale_manager=None``. The page prints nothing; beyond the page, the script prints what the runs left in ``./summary_dir``: the landscape
checkpoints that SummaryCollector saves by default (``ckpt_dir``, steps 1 and 2 of the default
intervals), the landscape metadata, and whether summary and lineage files were written.
"""
# parity: env=msds data=mnist modes=pynative,graph
# parity: no-mindspore=MindSpore 2.10 on CPU rejects amp_level="O2" with its default DynamicLossScaleManager (it needs Ascend or GPU); the expected lines are MindSpore 2.10 CPU's output of this script with --reference (the same runs with loss_scale_manager=None)
# parity: expected-stdout=['LeNet5_1_step.ckpt', 'LeNet5_2_step.ckpt', 'train_metadata.json']
# parity: expected-stdout={'create_landscape': {'train': True, 'result': True}, 'epoch_group': {'0': [1, 2, 3, 4, 5, 6, 7, 8, 9], '1': [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]}, 'landscape_size': 40, 'num_samples': 2048, 'step_per_epoch': 2, 'unit': 'step'}
# parity: expected-stdout=['LeNet5_1_step.ckpt', 'LeNet5_2_step.ckpt']
# parity: expected-stdout=True True
import argparse
import json
import os

import mindspore.nn as nn
from mindspore import context
from mindspore.train.callback import SummaryCollector
from mindspore import Model
from mindspore.nn import Accuracy
from _fixtures import create_dataset, LeNet5, fix_weights


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    parser.add_argument("--reference", action="store_true",
                        help="O2 without a loss-scale manager (what MindSpore accepts on CPU)")
    args = parser.parse_args()
    context.set_context(mode=context.GRAPH_MODE if args.mode == "graph" else context.PYNATIVE_MODE)
    mnist_dataset_dir = './MNIST_Data/train'
    ds_train = create_dataset(mnist_dataset_dir, 32)
    network = LeNet5(10)
    fix_weights(network)
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_opt = nn.Momentum(network.trainable_params(), 0.01, 0.9)
    if args.reference:
        model = Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()}, amp_level="O2",
                      loss_scale_manager=None)
    else:
        model = Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()}, amp_level="O2")

    # Simple usage:
    summary_collector = SummaryCollector(summary_dir='./summary_dir')
    model.train(1, ds_train, callbacks=[summary_collector], dataset_sink_mode=False)

    # Do not collect metric and collect the first layer parameter, others are collected by default
    specified = {'collect_metric': False, 'histogram_regular': '^conv1.*'}
    summary_collector = SummaryCollector(summary_dir='./summary_dir', collect_specified_data=specified)
    model.train(1, ds_train, callbacks=[summary_collector], dataset_sink_mode=False)

    # beyond the page: what the runs left in ./summary_dir
    print(sorted(os.listdir('./summary_dir/ckpt_dir')))
    with open('./summary_dir/ckpt_dir/train_metadata.json', encoding='utf-8') as file:
        metadata = json.load(file)
    print({key: value for key, value in sorted(metadata.items()) if key != 'model_params_file_map'})
    print(sorted(os.path.basename(path) for path in metadata['model_params_file_map'].values()))
    names = os.listdir('./summary_dir')
    print(any('.summary.' in name and name.endswith('_MS') for name in names),
          any('.summary.' in name and name.endswith('_lineage') for name in names))

"""mindspore.train.callback.LearningRateScheduler page: a step-dependent learning rate.

The page's random data get a fixed seed and a fixed order (``shuffle=False``), and the Dense
layer fixed weights. The decay happens every 2 steps instead of every 1000 (the data have 2
steps per epoch), and the script prints the learning rate and weights after training (beyond
the page).
"""
# parity: env=msds modes=pynative,graph
import argparse

import numpy as np
import mindspore as ms
from mindspore import Model
from mindspore.train.callback import LearningRateScheduler
import mindspore.nn as nn
from mindspore import dataset as ds


def learning_rate_function(lr, cur_step_num):
    if cur_step_num%2 == 0:
        lr = lr*0.1
    return lr


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

    lr = 0.1
    momentum = 0.9
    net = nn.Dense(10, 5, weight_init=ms.Tensor(np.cos(np.arange(50)).reshape(5, 10) * 0.3, ms.float32),
                  bias_init='zeros')
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    optim = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=momentum)
    model = Model(net, loss_fn=loss, optimizer=optim)

    np.random.seed(0)
    data = {"x": np.float32(np.random.rand(64, 10)), "y": np.random.randint(0, 5, (64,))}
    dataset = ds.NumpySlicesDataset(data=data, shuffle=False).batch(32)
    model.train(2, dataset, callbacks=[LearningRateScheduler(learning_rate_function)],
                dataset_sink_mode=False)
    print("learning rate:", optim.learning_rate.asnumpy())  # beyond the page
    print("weight:", net.weight.asnumpy()[0])  # beyond the page

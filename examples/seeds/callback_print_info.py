"""mindspore.train.callback.Callback page: a custom ``Print_info`` callback printing ``cur_step_num``.

The page's random data get a fixed seed and a fixed order (``shuffle=False``), and the Dense
layer fixed weights.
"""
# parity: env=msds modes=pynative,graph
import argparse

import numpy as np
import mindspore as ms
from mindspore import Model, nn
from mindspore.train.callback import Callback
from mindspore import dataset as ds


class Print_info(Callback):
    def step_end(self, run_context):
        cb_params = run_context.original_args()
        print("step_num: ", cb_params.cur_step_num)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

    np.random.seed(0)
    print_cb = Print_info()
    data = {"x": np.float32(np.random.rand(64, 10)), "y": np.random.randint(0, 5, (64,))}
    dataset = ds.NumpySlicesDataset(data=data, shuffle=False).batch(32)
    net = nn.Dense(10, 5, weight_init=ms.Tensor(np.cos(np.arange(50)).reshape(5, 10) * 0.3, ms.float32),
                  bias_init='zeros')
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    optim = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    model = Model(net, loss_fn=loss, optimizer=optim)
    model.train(1, dataset, callbacks=print_cb)

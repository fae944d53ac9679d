"""mindspore.train.callback.History page: the epochs and losses recorded over 2 epochs.

The page's random data get a fixed seed and a fixed order (``shuffle=False``), and the Dense
layer fixed weights. Under numpy 2 the recorded numpy scalars print as ``np.float32(...)``:
the comparison unwraps them (MindSpore runs under numpy 1).
"""
# parity: env=msds modes=pynative,graph
# parity: mask=np\.float32\(([^)]*)\)
import argparse

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore.train.callback import History
from mindspore import Model, nn

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

    np.random.seed(0)
    data = {"x": np.float32(np.random.rand(64, 10)), "y": np.random.randint(0, 5, (64,))}
    train_dataset = ds.NumpySlicesDataset(data=data, shuffle=False).batch(32)
    net = nn.Dense(10, 5, weight_init=ms.Tensor(np.cos(np.arange(50)).reshape(5, 10) * 0.3, ms.float32),
                  bias_init='zeros')
    crit = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    history_cb = History()
    model = Model(network=net, optimizer=opt, loss_fn=crit, metrics={"recall"})
    model.train(2, train_dataset, callbacks=[history_cb])
    print(history_cb.epoch)
    print(history_cb.history)

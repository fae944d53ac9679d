"""mindspore.train.callback.LambdaCallback page: print the loss at each epoch end.

The page's random data get a fixed seed and a fixed order (``shuffle=False``), and the Dense
layer fixed weights. The page passes ``epoch_end=``, the name of older MindSpore versions,
which MindSpore 2.10 rejects; tfspore accepts it as ``on_train_epoch_end``.
"""
# parity: modes=pynative,graph
# parity: no-mindspore=MindSpore 2.10's LambdaCallback takes on_train_epoch_end=..., not the page's epoch_end=...; the expected lines are MindSpore 2.10's output with on_train_epoch_end (both modes)
# parity: expected-stdout=loss:  1.587295
# parity: expected-stdout=loss:  1.5851711
import argparse

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore.train.callback import LambdaCallback
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
    lambda_callback = LambdaCallback(epoch_end=
    lambda run_context: print("loss: ", run_context.original_args().net_outputs))
    model = Model(network=net, optimizer=opt, loss_fn=crit, metrics={"recall"})
    model.train(2, train_dataset, callbacks=[lambda_callback])

"""Training guide, "custom training network": ReLUReduceMeanDense with WithLossCell and TrainOneStepCell.

As on the page, plus: a seeded numpy input, a `--mode` flag, and the updated Dense weights printed
after the step (the page prints only the loss, which is zero for all-zero one-hot labels).
"""
# parity: modes=pynative,graph
import argparse

import numpy as np

from mindspore import context
from mindspore.common.tensor import Tensor
from mindspore.nn import Cell, Dense, SoftmaxCrossEntropyWithLogits, Momentum, TrainOneStepCell, WithLossCell
import mindspore.ops as ops


class ReLUReduceMeanDense(Cell):
    def __init__(self, kernel, bias, in_channel, num_class):
        super().__init__()
        self.relu = ops.ReLU()
        self.mean = ops.ReduceMean(keep_dims=False)
        self.dense = Dense(in_channel, num_class, kernel, bias)

    def construct(self, x):
        x = self.relu(x)
        x = self.mean(x, (2, 3))
        x = self.dense(x)
        return x


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    args = parser.parse_args()
    if args.mode == "graph":
        context.set_context(mode=context.GRAPH_MODE)
    np.random.seed(1)

    weight_np = np.ones((1000, 2048)).astype(np.float32)
    weight = Tensor(weight_np.copy())
    bias_np = np.ones((1000,)).astype(np.float32)
    bias = Tensor(bias_np.copy())
    net = ReLUReduceMeanDense(weight, bias, 2048, 1000)
    criterion = SoftmaxCrossEntropyWithLogits(sparse=False)
    optimizer = Momentum(learning_rate=0.1, momentum=0.1,
                         params=filter(lambda x: x.requires_grad, net.get_parameters()))
    net_with_criterion = WithLossCell(net, criterion)
    train_network = TrainOneStepCell(net_with_criterion, optimizer)
    train_network.set_train()
    input_np = np.random.randn(32, 2048, 7, 7).astype(np.float32)
    input = Tensor(input_np.copy())
    label_np_onehot = np.zeros(shape=(32, 1000)).astype(np.float32)
    label = Tensor(label_np_onehot.copy())
    for i in range(1):
        loss = train_network(input, label)
        print("-------loss------", loss)

    # beyond the page: the step moved the weights
    print("weight[:2, :4]", net.dense.weight.asnumpy()[:2, :4])
    print("bias[:4]", net.dense.bias.asnumpy()[:4])
    print([p.name for p in train_network.get_parameters()])
    # a second step with a non-zero label gives a non-zero loss
    label_np_onehot[:, 3] = 1.0
    loss = train_network(input, Tensor(label_np_onehot.copy()))
    print("-------loss------", loss)

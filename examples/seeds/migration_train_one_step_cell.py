"""Migration guide, TrainOneStepCell: the guide's copy of MindSpore's TrainOneStepCell, trained on fixed data.

The class is the guide's, with the imports its source file (nn/wrap/cell_wrapper.py) uses; the
network and data are small and fixed so that the losses compare exactly.
"""
# parity: modes=pynative,graph
import argparse

import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.nn import Cell
from mindspore.nn.wrap.grad_reducer import DistributedGradReducer
from mindspore.parallel._utils import _get_device_num, _get_gradients_mean, _get_parallel_mode


class TrainOneStepCell(Cell):
    def __init__(self, network, optimizer, sens=1.0):
        super(TrainOneStepCell, self).__init__(auto_prefix=False)
        self.network = network
        # set require_grad=True for Parameters in network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        # set init value for back propagation
        self.sens = sens
        # reduce_flag, used in distributed training
        self.reducer_flag = False
        self.grad_reducer = ops.identity
        self.parallel_mode = _get_parallel_mode()
        self.reducer_flag = self.parallel_mode in (ms.ParallelMode.DATA_PARALLEL, ms.ParallelMode.HYBRID_PARALLEL)
        if self.reducer_flag:
            self.mean = _get_gradients_mean()
            # number of devices
            self.degree = _get_device_num()
            self.grad_reducer = DistributedGradReducer(self.weights, self.mean, self.degree)

    def construct(self, *inputs):
        # get the loss of forward
        loss = self.network(*inputs)
        # set init value for backward propagation
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        # perform backward propagation
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        return loss


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Dense(4, 16, weight_init=Tensor(np.linspace(-0.5, 0.5, 64).reshape(16, 4), ms.float32),
                            bias_init='zeros')
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, 3, weight_init=Tensor(np.cos(np.arange(48)).reshape(3, 16) * 0.3, ms.float32),
                            bias_init='zeros')

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    if parser.parse_args().mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

    rng = np.random.RandomState(0)
    data = Tensor(rng.normal(size=(8, 4)).astype(np.float32))
    label = Tensor(rng.randint(0, 3, (8,)).astype(np.int32))

    net = Net()
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    net_opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    train_net = TrainOneStepCell(nn.WithLossCell(net, net_loss), net_opt)
    train_net.set_train()
    for step in range(5):
        loss = train_net(data, label)
        print("step: {}, loss is {}".format(step + 1, loss))
    print(net_opt.parameters)
    print(train_net.parallel_mode, train_net.reducer_flag)

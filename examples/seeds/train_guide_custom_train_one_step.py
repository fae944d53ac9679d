"""Training guide, "custom training loop": LeNet5 with a hand-written TrainOneStepCell.

The TrainOneStepCell is the page's: GradOperation(get_by_list=True, sens_param=True), a sens filled
with ops.Fill/DType/Shape, and ops.depend on the optimizer's update. The MNIST pipeline and
DatasetHelper are replaced by fixed numpy batches, the TruncatedNormal weights by fixed numpy
weights (set_data), and the Ascend target by the mode given with `--mode`.
"""
# parity: modes=pynative,graph
import argparse

import numpy as np

import mindspore.nn as nn
from mindspore import context, Tensor
from mindspore.common import dtype as mstype
from mindspore.common.initializer import TruncatedNormal
from mindspore.common.parameter import ParameterTuple
from mindspore.nn.wrap.cell_wrapper import WithLossCell
import mindspore.ops as ops


def create_dataset(num_batches=3, batch_size=32, seed=0):
    """fixed numpy batches standing in for the MNIST pipeline"""
    rng = np.random.RandomState(seed)
    batches = []
    for _ in range(num_batches):
        image = rng.normal(0.0, 1.0, (batch_size, 1, 32, 32)).astype(np.float32)
        label = rng.randint(0, 10, (batch_size,)).astype(np.int32)
        batches.append((Tensor(image), Tensor(label, mstype.int32)))
    return batches


def conv(in_channels, out_channels, kernel_size, stride=1, padding=0):
    """weight initial for conv layer"""
    weight = weight_variable()
    return nn.Conv2d(in_channels, out_channels,
                     kernel_size=kernel_size, stride=stride, padding=padding,
                     weight_init=weight, has_bias=False, pad_mode="valid")


def fc_with_initialize(input_channels, out_channels):
    """weight initial for fc layer"""
    weight = weight_variable()
    bias = weight_variable()
    return nn.Dense(input_channels, out_channels, weight, bias)


def weight_variable():
    """weight initial"""
    return TruncatedNormal(0.02)


class LeNet5(nn.Cell):
    """
    Lenet network
    Args:
        num_class (int): Num classes. Default: 10.

    Returns:
        Tensor, output tensor

    Examples:
        >>> LeNet(num_class=10)
    """

    def __init__(self, num_class=10):
        super(LeNet5, self).__init__()
        self.num_class = num_class
        self.batch_size = 32
        self.conv1 = conv(1, 6, 5)
        self.conv2 = conv(6, 16, 5)
        self.fc1 = fc_with_initialize(16 * 5 * 5, 120)
        self.fc2 = fc_with_initialize(120, 84)
        self.fc3 = fc_with_initialize(84, self.num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.reshape = ops.Reshape()

    def construct(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.reshape(x, (self.batch_size, -1))
        x = self.fc1(x)
        x = self.relu(x)
        x = self.fc2(x)
        x = self.relu(x)
        x = self.fc3(x)
        return x


class TrainOneStepCell(nn.Cell):
    def __init__(self, network, optimizer, sens=1.0):
        super(TrainOneStepCell, self).__init__(auto_prefix=False)
        self.network = network
        self.weights = ParameterTuple(network.trainable_params())
        self.optimizer = optimizer
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        self.sens = sens

    def set_sens(self, value):
        self.sens = value

    def construct(self, data, label):
        weights = self.weights
        loss = self.network(data, label)
        sens = ops.Fill()(ops.DType()(loss), ops.Shape()(loss), self.sens)
        grads = self.grad(self.network, weights)(data, label, sens)
        return ops.depend(loss, self.optimizer(grads))


def set_fixed_weights(network, seed=1):
    """replaces the TruncatedNormal draws with fixed numpy weights"""
    rng = np.random.RandomState(seed)
    for param in network.trainable_params():
        fan_in = int(np.prod(param.shape[1:])) if len(param.shape) > 1 else param.shape[0]
        value = rng.uniform(-1.0, 1.0, param.shape) / np.sqrt(fan_in)
        param.set_data(Tensor(value.astype(np.float32)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["pynative", "graph"], default="pynative")
    args = parser.parse_args()
    mode = context.GRAPH_MODE if args.mode == "graph" else context.PYNATIVE_MODE
    context.set_context(mode=mode, device_target="CPU")
    ds_train = create_dataset()

    network = LeNet5(10)
    set_fixed_weights(network)
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_opt = nn.Momentum(network.trainable_params(), 0.01, 0.9)
    net = WithLossCell(network, net_loss)
    net = TrainOneStepCell(net, net_opt)
    dataset_helper = ds_train
    network.set_train()
    print("============== Starting Training ==============")
    epoch = 3
    for step in range(epoch):
        for inputs in dataset_helper:
            output = net(*inputs)
            print("epoch: {0}/{1}, losses: {2}".format(step + 1, epoch, output.asnumpy(), flush=True))
    print([p.name for p in net.get_parameters()])
    print("fc3.bias", network.fc3.bias.asnumpy())

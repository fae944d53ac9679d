"""mindspore.train.Model.infer_train_layout / infer_predict_layout pages, the part a single CPU process runs.

Both examples need a multi-device launch (``init()`` and ``AutoParallel``, which start the
communication backend), which a single CPU process can't provide, and MindSpore's CPU build
refuses the first example's ``FixedLossScaleManager()`` (``drop_overflow_update=True`` is for
Ascend and GPU), so the script leaves those out. Without them (stand-alone
mode) both methods raise RuntimeError; the script builds the pages' models (LeNet5 on the docs'
mnist.py pipeline, both from ``_fixtures.py``, and the page's attention-like
``Net``) and prints the error type and the
message up to its first comma (beyond the page).
"""
# parity: env=msds data=mnist modes=pynative,graph
import numpy as np
from mindspore import nn, Tensor
from mindspore.train import Model
from mindspore.ops import operations as P
from _fixtures import create_dataset, LeNet5, set_mode


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Dense(128, 768, activation='relu')
        self.fc2 = nn.Dense(128, 768, activation='relu')
        self.fc3 = nn.Dense(128, 768, activation='relu')
        self.fc4 = nn.Dense(768, 768, activation='relu')
        self.relu4 = nn.ReLU()
        self.relu5 = nn.ReLU()
        self.transpose = P.Transpose()
        self.matmul1 = P.MatMul()
        self.matmul2 = P.MatMul()

    def construct(self, x):
        q = self.fc1(x)
        k = self.fc2(x)
        v = self.fc3(x)
        k = self.transpose(k, (1, 0))
        c = self.relu4(self.matmul1(q, k))
        s = self.relu5(self.matmul2(c, v))
        s = self.fc4(s)
        return s


def report(what, error):
    print(what, type(error).__name__ + ":", str(error).split(",")[0].rstrip("."))


if __name__ == "__main__":
    set_mode()
    dataset = create_dataset()
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits()
    optim = nn.Momentum(params=net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=optim, metrics=None)
    try:
        layout_dict = model.infer_train_layout(dataset)
    except RuntimeError as e:
        report("infer_train_layout", e)

    inputs = Tensor(np.ones([32, 128]).astype(np.float32))
    net = Net()
    model = Model(net)
    try:
        predict_map = model.infer_predict_layout(inputs)
    except RuntimeError as e:
        report("infer_predict_layout", e)

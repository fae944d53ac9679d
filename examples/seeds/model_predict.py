"""mindspore.train.Model.predict page: ``Model(LeNet5()).predict`` on one random 32x32 image.

The page's random image gets a fixed seed and ``LeNet5()`` (the docs' lenet.py) fixed weights, both from
``_fixtures.py``;
the script prints the result (beyond the page).
"""
# parity: env=msds modes=pynative,graph
import numpy as np
from mindspore import Tensor
import mindspore
from mindspore.train import Model
from _fixtures import LeNet5, fix_weights, set_mode


if __name__ == "__main__":
    set_mode()
    np.random.seed(0)
    input_data = Tensor(np.random.randint(0, 255, [1, 1, 32, 32]), mindspore.float32)
    net = LeNet5()
    fix_weights(net)
    model = Model(net)
    result = model.predict(input_data)
    print(result.shape, result.dtype)  # beyond the page
    print(result)  # beyond the page

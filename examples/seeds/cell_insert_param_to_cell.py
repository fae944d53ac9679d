"""nn.Cell page, insert_param_to_cell example."""
# parity: modes=pynative
import mindspore as ms
from mindspore import Tensor, nn, Parameter


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x


net = Net()
net.insert_param_to_cell("bias", Parameter(Tensor([1, 2, 3])))
print(net.bias)
# beyond the page: the parameter is registered
print(net.parameters_dict())

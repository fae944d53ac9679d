"""nn.Cell page, class example: MyCell with auto_prefix=False and trainable_params()."""
# parity: modes=pynative
import mindspore.nn as nn
from mindspore import ops


class MyCell(nn.Cell):
    def __init__(self, forward_net):
        super(MyCell, self).__init__(auto_prefix=False)
        self.net = forward_net
        self.relu = ops.ReLU()

    def construct(self, x):
        y = self.net(x)
        return self.relu(y)


inner_net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
my_net = MyCell(inner_net)
print(my_net.trainable_params())
# If the 'auto_prefix' set to True or not set when call the '__init__' method of the parent class,
# the parameter's name will be 'net.weight'.

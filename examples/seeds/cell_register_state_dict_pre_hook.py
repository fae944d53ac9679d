"""nn.Cell page, register_state_dict_pre_hook example."""
# parity: modes=pynative
import mindspore


class NetA(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([1, 2, 3]))
        self.param_a = mindspore.Parameter(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


def _add_extra_param(cell, prefix, keep_vars):
    cell._params["extra_param"] = mindspore.Parameter(mindspore.tensor([4, 5, 6]))


net = NetA()
handle = net.register_state_dict_pre_hook(_add_extra_param)
net_state_dict = net.state_dict()
handle.remove()
print("extra_param" in net_state_dict)

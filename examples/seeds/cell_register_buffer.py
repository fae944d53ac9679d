"""nn.Cell page, register_buffer example.

The page's last call, ``net.register_buffer(mindspore.tensor("buffer0", [4, 5, 6]))``, is a typo
that fails in MindSpore itself; this script keeps the part of the example that runs and shows the
registered buffer.
"""
# parity: modes=pynative
import mindspore


class Net(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.register_buffer("buffer0", mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.net_buffer


net = Net()
print(net.buffer0)
# beyond the page: a non-persistent buffer is left out of state_dict
net.register_buffer("buffer1", mindspore.tensor([4, 5, 6]), persistent=False)
print(net.buffer1)
print(list(net.state_dict().keys()))
print([name for name, _ in net.named_buffers()])

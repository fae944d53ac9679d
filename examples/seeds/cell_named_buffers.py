"""nn.Cell page, named_buffers example."""
# parity: modes=pynative
import mindspore


class NetB(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_b = mindspore.nn.Buffer(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_b


class NetA(mindspore.nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


net_b = NetB()
net_a = NetA(net_b)

for name, buffer in net_a.named_buffers():
    print(f'buffer name is {name}, buffer is {buffer}')
# beyond the page: prefix and recurse
for name, buffer in net_a.named_buffers(prefix='top', recurse=False):
    print(f'buffer name is {name}, buffer is {buffer}')

"""nn.Cell page, buffers example."""
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

for buffer in net_a.buffers():
    print(f'buffer is {buffer}')
# beyond the page: recurse=False and a forward pass
for buffer in net_a.buffers(recurse=False):
    print(f'own buffer is {buffer}')
print(net_a(mindspore.tensor([10, 20, 30])))

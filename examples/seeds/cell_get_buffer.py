"""nn.Cell page, get_buffer example."""
# parity: modes=pynative
import mindspore


class NetC(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_c = mindspore.nn.Buffer(mindspore.tensor([0, 0, 0]))

    def construct(self, x):
        return x + self.buffer_c


class NetB(mindspore.nn.Cell):
    def __init__(self, net_c):
        super().__init__()
        self.net_c = net_c
        self.buffer_b = mindspore.nn.Buffer(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return self.net_c(x) + self.buffer_b


class NetA(mindspore.nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


net_c = NetC()
net_b = NetB(net_c)
net_a = NetA(net_b)
buffer_c = net_a.get_buffer("net_b.net_c.buffer_c")
print(f'buffer_c is {buffer_c}')

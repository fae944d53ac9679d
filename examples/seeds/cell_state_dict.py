"""nn.Cell page, state_dict example."""
# parity: modes=pynative
import mindspore


class Model(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))
        self.param_a = mindspore.Parameter(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


model = Model()
print(model.state_dict())
# beyond the page: prefix
print(list(model.state_dict(prefix='m.').keys()))

"""nn.Cell page, load_state_dict example (round trip through a checkpoint file)."""
# parity: modes=pynative needs=save_checkpoint
import mindspore
import os


class Model(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = mindspore.nn.Buffer(mindspore.tensor([4, 5, 6]))
        self.param_a = mindspore.Parameter(mindspore.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


model = Model()
print(model.state_dict())
mindspore.save_checkpoint(model.state_dict(), './model_state_dict_ckpt')
new_model = Model()
new_model.load_state_dict(mindspore.load_checkpoint('./model_state_dict_ckpt'))
print(new_model.state_dict())
os.remove('./model_state_dict_ckpt')

"""nn.Cell page, cells_and_names example."""
# parity: modes=pynative
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(3, 64, 3)

    def construct(self, x):
        out = self.conv(x)
        return out


names = []
n = Net()
for m in n.cells_and_names():
    if m[0]:
        names.append(m[0])
# beyond the page: show what was collected
print(names)
print([name for name, _ in n.cells_and_names(name_prefix='top')])

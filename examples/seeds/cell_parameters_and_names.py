"""nn.Cell page, parameters_and_names example."""
# parity: modes=pynative
from mindspore import nn

n = nn.Dense(3, 4)
names = []
for m in n.parameters_and_names():
    if m[0]:
        names.append(m[0])
# beyond the page: show what was collected
print(names)
print([name for name, _ in n.parameters_and_names(name_prefix='fc')])

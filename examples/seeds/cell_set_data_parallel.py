"""nn.Cell page, set_data_parallel example (a no-op outside AUTO_PARALLEL)."""
# parity: modes=pynative
import mindspore.nn as nn

net = nn.Dense(3, 4)
net.set_data_parallel()
# beyond the page: the cell is unchanged
print(net)

"""The micro-batch and dataset wrappers of tfspore/nn/wrap/cell_wrapper.py: ``nn.MicroBatchInterleaved``,
``nn.PipelineCell``, ``nn.GradAccumulationCell``, ``nn.VirtualDatasetCellTriple`` and ``_VirtualDatasetCell``."""
import numpy as np
import pytest

from tfspore import Tensor, nn
from tfspore.nn.wrap.cell_wrapper import _VirtualDatasetCell


class _Loss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 1)

    def construct(self, x, y):
        return ((self.dense(x) - y) ** 2).sum()


def test_micro_batches_add_up_to_the_full_batch(mode):
    x = Tensor(np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32))
    y = Tensor(np.ones((4, 1), np.float32))
    net = _Loss()
    full = net(x, y).asnumpy()
    for wrapper in (nn.MicroBatchInterleaved(net, 2), nn.PipelineCell(net, 4), _VirtualDatasetCell(net),
                    nn.GradAccumulationCell(net, 2)):
        np.testing.assert_allclose(wrapper(x, y).asnumpy(), full, rtol=1e-5)
        assert [p.name for p in wrapper.get_parameters()] == ["dense.weight", "dense.bias"]
    with pytest.raises(ValueError, match="0th dimension shape of input\\(4\\) must be divided by micro size\\(3\\)"):
        nn.PipelineCell(net, 3)(x, y)


def test_arguments():
    net = _Loss()
    with pytest.raises(TypeError, match="'interleave_num' must be integer"):
        nn.MicroBatchInterleaved(net, 2.0)
    with pytest.raises(ValueError, match="'micro_size' must be large than 0, but got 0"):
        nn.PipelineCell(net, 0)
    with pytest.raises(TypeError, match="'network' must cell type"):
        nn.PipelineCell(lambda x: x, 2)
    with pytest.raises(ValueError, match="'micro_size' must be large than 0"):
        nn.GradAccumulationCell(net, -1)
    nn.PipelineCell(net, 2, stage_config={"dense": 1})
    assert net.dense.pipeline_stage == 1
    class Add3(nn.Cell):
        def construct(self, a, b, c):
            return a + b + c

    triple = nn.VirtualDatasetCellTriple(Add3())
    assert float(triple(Tensor(1.0), Tensor(2.0), Tensor(3.0))) == 6.0

"""Shape mismatches at call time raise MindSpore's ValueError (not TensorFlow's InvalidArgumentError)."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import nn


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    old = ms.get_context("mode")
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=old)


@pytest.mark.parametrize("shape", [(2, 5), (2, 3, 5)])
def test_dense_feature_mismatch(mode, shape):
    with pytest.raises(ValueError, match=r"'x1_col': 5 and 'x2_row': 4.*'Dense' got input shape"):
        nn.Dense(4, 3)(ms.Tensor(np.ones(shape, np.float32)))


@pytest.mark.parametrize("layer, shape", [(lambda: nn.BatchNorm2d(3), (2, 4, 2, 2)),
                                          (lambda: nn.BatchNorm1d(3), (2, 4))])
def test_batchnorm_channel_mismatch(mode, layer, shape):
    with pytest.raises(ValueError, match=r"channel dimension: 4, but got scale.shape\[0\]: 3"):
        layer()(ms.Tensor(np.ones(shape, np.float32)))


def test_matching_shapes_still_work(mode):
    assert nn.Dense(4, 3)(ms.Tensor(np.ones((2, 4), np.float32))).shape == (2, 3)
    assert nn.BatchNorm2d(3)(ms.Tensor(np.ones((2, 3, 2, 2), np.float32))).shape == (2, 3, 2, 2)

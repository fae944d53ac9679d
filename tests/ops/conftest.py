"""Fixtures for the ops tests: ``run`` executes a function eagerly or traced inside a Cell."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import nn


@pytest.fixture
def run(mode):
    """``run(fn, *tensors)``: ``fn(*tensors)`` in PYNATIVE_MODE, or inside a compiled Cell in GRAPH_MODE."""
    def _run(fn, *args):
        if mode == ms.GRAPH_MODE:
            class Net(nn.Cell):
                def construct(self, *a):
                    return fn(*a)
            return Net()(*args)
        return fn(*args)
    return _run


def to_np(x):
    """Nested outputs as numpy arrays / python values."""
    if isinstance(x, (tuple, list)):
        return type(x)(to_np(v) for v in x)
    if isinstance(x, ms.Tensor):
        return x.asnumpy()
    return x


@pytest.fixture
def npify():
    return to_np


def pytest_configure(config):
    np.set_printoptions(precision=5)

"""Python control flow on Tensors in construct: tfspore GRAPH_MODE against real MindSpore 2.10 GRAPH_MODE.

The same cell (built from each framework's ``nn``) branches on a Tensor condition, updates a
Parameter in one branch only and loops ``while`` on a Tensor; outputs and the Parameter must match
over inputs that take each branch.
"""
import numpy as np
import pytest

import tfspore

ms = pytest.importorskip("mindspore")

INPUTS = [np.array([1.0, -0.5, 2.0], np.float32), np.array([-3.0, 0.5, -1.0], np.float32),
          np.array([0.25, 0.5, 0.125], np.float32)]


def _build(lib):
    nn, ops = lib.nn, lib.ops

    class Branchy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hits = lib.Parameter(lib.Tensor(np.zeros(3, np.float32)), name="hits")

        def construct(self, x):
            if x.sum() > 0:
                y = x * 2.0
                ops.assign_add(self.hits, x)
            else:
                y = ops.abs(x) - 1.0
            if not y.max() > 3.0:
                y = y + 10.0
            while y.sum() < 40.0:
                y = y * 1.5
            return y

    return Branchy()


def test_if_else_while_match_mindspore_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    tfspore.set_context(mode=tfspore.GRAPH_MODE)
    try:
        ms_net, tf_net = _build(ms), _build(tfspore)
        for x in INPUTS:
            expected = ms_net(ms.Tensor(x)).asnumpy()
            got = tf_net(tfspore.Tensor(x)).asnumpy()
            np.testing.assert_allclose(got, expected, rtol=1e-6)
        np.testing.assert_allclose(tf_net.hits.asnumpy(), ms_net.hits.asnumpy(), rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)

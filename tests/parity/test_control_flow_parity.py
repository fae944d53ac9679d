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


def _build_more(lib):
    """Cells using ``return`` in loops, ``assert``, ``int``/``float``/``bool`` and a MultitypeFuncGraph body."""
    nn, ops = lib.nn, lib.ops
    scale_grad = ops.MultitypeFuncGraph("scale_grad")

    @scale_grad.register("Tensor", "Tensor")
    def _scale_grad(scale, grad):
        if scale > 1:
            return grad / scale
        return grad

    class Loops(nn.Cell):
        def construct(self, x):
            steps = lib.Tensor(0, lib.int32)
            while x.sum() < 100:
                x = x * 2
                steps = steps + 1
                if x.max() > 30:
                    return x - 1, steps
            for _ in range(3):
                if x.sum() < 200:
                    x = x * 2
                else:
                    return x - 100, steps
            return x, steps

    class Scalars(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hyper_map = ops.HyperMap()

        def construct(self, x, scale):
            assert x.min() > -10, "too small"
            y = x * float(x.max()) + int(x.sum())
            if bool(x.min() > 0):
                y = y + 1
            return self.hyper_map(ops.partial(scale_grad, scale), (y, x))

    return Loops(), Scalars()


def test_return_in_loops_match_mindspore_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    tfspore.set_context(mode=tfspore.GRAPH_MODE)
    try:
        (ms_loops, _), (tf_loops, _) = _build_more(ms), _build_more(tfspore)
        for x in ([1.0, 2.0, 3.0], [20.0, 40.0, 60.0], [30.0, 30.0, 30.0], [0.5, -0.5, 0.25]):
            x = np.array(x, np.float32)
            ms_out, ms_steps = ms_loops(ms.Tensor(x))
            tf_out, tf_steps = tf_loops(tfspore.Tensor(x))
            np.testing.assert_allclose(tf_out.asnumpy(), ms_out.asnumpy(), rtol=1e-6)
            assert int(tf_steps) == int(ms_steps)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_assert_scalars_and_multitype_body_match_mindspore_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    tfspore.set_context(mode=tfspore.GRAPH_MODE)
    try:
        (_, ms_net), (_, tf_net) = _build_more(ms), _build_more(tfspore)
        for x, scale in (([1.5, 2.0, 3.0], 2.0), ([-1.0, 2.5, 0.5], 0.5), ([-2.0, 1.0, 1.0], 1.0)):
            x = np.array(x, np.float32)
            expected = ms_net(ms.Tensor(x), ms.Tensor(scale, ms.float32))
            got = tf_net(tfspore.Tensor(x), tfspore.Tensor(scale, tfspore.float32))
            for g, e in zip(got, expected):
                np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-6)
        with pytest.raises(AssertionError, match="too small"):
            ms_net(ms.Tensor(np.array([-20.0, 1.0], np.float32)), ms.Tensor(1.0, ms.float32))
        with pytest.raises(AssertionError, match="^too small$"):
            tf_net(tfspore.Tensor(np.array([-20.0, 1.0], np.float32)), tfspore.Tensor(1.0, tfspore.float32))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)

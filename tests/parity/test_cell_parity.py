"""Cell parity with real MindSpore 2.10: names, iteration order, printing, flags, hooks, outputs, gradients.

The same custom cells are built in both frameworks (through ``_build(lib)``) with parameters from the
same numpy arrays; MindSpore runs in PYNATIVE_MODE, tfspore in both modes.
"""
import types

import numpy as np
import pytest

import tfspore

ms = pytest.importorskip("mindspore")

RNG = np.random.default_rng(0)
W1 = RNG.standard_normal((3, 3)).astype(np.float32)
W2 = RNG.standard_normal((3, 3)).astype(np.float32)
B = RNG.standard_normal(3).astype(np.float32)
X = RNG.standard_normal((2, 3)).astype(np.float32)


def _build(lib):
    """Define the test cells with ``lib`` (mindspore or tfspore)."""
    nn, P, T = lib.nn, lib.Parameter, lib.Tensor

    class Leaf(nn.Cell):
        def __init__(self, w, name="custom"):
            super().__init__()
            self.w = P(T(w), name=name)
            self.b = P(T(B))

        def construct(self, x):
            return x @ self.w + self.b

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.own = P(T(np.float32(0.5)), name="own_custom")
            self.child = Leaf(W1)

        def construct(self, x):
            h = self.child(x)
            return h * h * self.own

    class NoPrefix(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.child = Leaf(W2)

        def construct(self, x):
            return self.child(x)

    class Extra(nn.Cell):
        def __init__(self):
            super().__init__()
            self.register_buffer("offset", T(np.array([0.25], np.float32)))

        def extend_repr(self):
            return "a=1\nb=2"

        def construct(self, x):
            return x + self.offset

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = P(T(np.float32(1.5)), name="scale")
            self.p_noname = P(T(np.zeros(3, np.float32)))
            self.frozen = P(T(np.ones(3, np.float32)), requires_grad=False)
            self.inner = Inner()
            self.np = NoPrefix()
            self.extra = Extra()

        def construct(self, x):
            y = self.np(self.inner(x)) + self.p_noname + self.frozen
            return (self.extra(y) * self.scale).sum()

    class Shared(nn.Cell):
        def __init__(self):
            super().__init__()
            d = Leaf(W1)
            self.a = d
            self.b = d
            self.x = Leaf(W1)
            self.y = Leaf(W2)
            self.y.w = self.x.w

        def construct(self, x):
            return self.y(self.x(self.a(x)))

    class Twins(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.a = Leaf(W1)
            self.b = Leaf(W2)

        def construct(self, x):
            return self.a(x) + self.b(x)

    return types.SimpleNamespace(Net=Net, Shared=Shared, Twins=Twins, Leaf=Leaf, lib=lib)


MSC = _build(ms)
TFC = _build(tfspore)


def _names(net):
    return {
        "parameters_and_names": [(k, p.name) for k, p in net.parameters_and_names()],
        "get_parameters": [p.name for p in net.get_parameters()],
        "get_parameters(expand=False)": [p.name for p in net.get_parameters(expand=False)],
        "trainable_params": [p.name for p in net.trainable_params()],
        "untrainable_params": [p.name for p in net.untrainable_params()],
        "parameters_dict": list(net.parameters_dict()),
        "cells_and_names": [k for k, _ in net.cells_and_names()],
        "name_cells": list(net.name_cells()),
        "state_dict": list(net.state_dict()),
        "named_buffers": [k for k, _ in net.named_buffers()],
        "param_reprs": [repr(p) for p in net.get_parameters()],
    }


@pytest.mark.parametrize("cls", ["Net", "Shared", "Twins"])
def test_structure_and_names_match(cls):
    assert _names(getattr(TFC, cls)()) == _names(getattr(MSC, cls)())


def test_names_after_first_call_match(mode):
    ms_net, tf_net = MSC.Twins(), TFC.Twins()
    ms_net(ms.Tensor(X))
    tf_net(tfspore.Tensor(X))
    assert [p.name for p in tf_net.get_parameters()] == [p.name for p in ms_net.get_parameters()] == [
        "a.w", "a.b", "b.w", "b.b"]


def test_repr_matches():
    assert repr(TFC.Net()) == repr(MSC.Net())
    assert repr(TFC.Shared()) == repr(MSC.Shared())


def test_training_flags_match():
    ms_net, tf_net = MSC.Net(), TFC.Net()

    def flags(net):
        return net.phase, [c.training for _, c in net.cells_and_names()]

    assert flags(tf_net) == flags(ms_net)
    for mode in (True, False, True):
        assert flags(tf_net.set_train(mode)) == flags(ms_net.set_train(mode))
    tf_net.inner.set_train(False)
    ms_net.inner.set_train(False)
    assert flags(tf_net) == flags(ms_net)


def _run_with_hooks(c):
    """Output, gradients and the values seen by hooks on ``inner.child`` and ``np``."""
    lib = c.lib
    net = c.Net()
    log = []

    def record(tag, values):
        log.append((tag, [np.asarray(v.asnumpy()) for v in values]))

    net.inner.child.register_forward_pre_hook(lambda cell, args: record("pre", args))
    net.inner.child.register_forward_hook(lambda cell, args, out: record("fwd", (out,)))
    net.np.register_forward_hook(lambda cell, args, out: out * 2)
    net.inner.child.register_backward_pre_hook(lambda cell, go: record("bpre", go))
    net.inner.child.register_backward_hook(lambda cell, gi, go: record("bwd", gi + go))
    x = lib.Tensor(X)
    out = net(x)
    gx, gw = lib.grad(net, grad_position=0, weights=net.trainable_params())(x)
    return out.asnumpy(), [gx.asnumpy()] + [g.asnumpy() for g in gw], log


def test_outputs_gradients_and_hooks_match(mode):
    ms_out, ms_grads, ms_log = _run_with_hooks(MSC)
    tf_out, tf_grads, tf_log = _run_with_hooks(TFC)
    np.testing.assert_allclose(tf_out, ms_out, rtol=1e-5, atol=1e-5)
    assert len(tf_grads) == len(ms_grads)
    for t, m in zip(tf_grads, ms_grads):
        np.testing.assert_allclose(t, m, rtol=1e-5, atol=1e-5)
    assert [tag for tag, _ in tf_log] == [tag for tag, _ in ms_log]
    for (_, tv), (_, mv) in zip(tf_log, ms_log):
        assert len(tv) == len(mv)
        for t, m in zip(tv, mv):
            np.testing.assert_allclose(t, m, rtol=1e-5, atol=1e-5)


def test_shared_structure_outputs_and_gradients_match(mode):
    results = []
    for c in (MSC, TFC):
        net = c.Shared()
        x = c.lib.Tensor(X)
        gx, gw = c.lib.grad(lambda v: net(v).sum(), grad_position=0, weights=net.trainable_params())(x)
        results.append([net(x).asnumpy(), gx.asnumpy()] + [g.asnumpy() for g in gw])
    for t, m in zip(results[1], results[0]):
        np.testing.assert_allclose(t, m, rtol=1e-5, atol=1e-5)


def test_load_state_dict_results_match():
    outs = []
    for c in (MSC, TFC):
        net = c.Net()
        sd = c.Net().state_dict()
        del sd["inner.own"]
        sd["zz"] = c.lib.Tensor(np.ones(1, np.float32))
        res = net.load_state_dict(sd, strict=False)
        try:
            net.load_state_dict(sd)
        except RuntimeError as e:
            outs.append((repr(res), str(e)))
    assert outs[1] == outs[0]

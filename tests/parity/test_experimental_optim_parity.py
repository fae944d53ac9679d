"""Parity of ``tfspore.experimental.optim`` (AdamW, Adam, SGD) with real MindSpore 2.10.

Each case builds the optimizer on the same numpy weights in both frameworks, with two
parameter groups (their own lr / weight decay), and feeds the same gradients for 6 steps; at
step 3 a group's learning rate is changed (through ``ops.assign`` on ``param_groups[i]['lr']``
or a plain float put into the group dict; MindSpore 2.10 does not always see a ``set_data`` on
that Parameter, so tests/nn/test_experimental_optim.py checks ``set_data`` against the formula).
After every step every Parameter of the optimizer (the weights, ``exp_avg.*``, ``exp_avg_sq.*``, ``max_exp_avg_sq.*``,
``state_step``, ...) must agree by name and value within 1e-5 relative. The documented train step
(``value_and_grad`` over ``optimizer.parameters``, then ``optimizer(grads)``) is compared
eagerly and compiled with ``jit``, and checkpoints written by tfspore are read back by MindSpore.
"""
import numpy as np
import pytest

import tfspore as ts
from tfspore.experimental import optim as toptim

ms = pytest.importorskip("mindspore")
from mindspore.experimental import optim as moptim  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore  # noqa: E402,F401  (autouse fixture)
from tests.parity._ms_helpers import make_params as _params, weights_and_grads  # noqa: E402

RTOL = 1e-5
ATOL = 1e-6
STEPS = 6
CHANGE_AT = 3

_SHAPES = {"fc.weight": (3, 4), "fc.bias": (3,), "bn.gamma": (4,)}


def _data(seed=0):
    return weights_and_grads(_SHAPES, STEPS, seed)


def _two_groups(p, **first):
    """fc.weight alone with its own lr and weight decay; fc.bias and bn.gamma on the defaults."""
    return [dict({"params": [p[0]], "lr": 0.05, "weight_decay": 0.1}, **first), {"params": p[1:]}]


def _assign_lr(fw, opt, group, value):
    fw.ops.assign(opt.param_groups[group]["lr"], fw.Tensor(value, fw.float32))


def _float_lr(fw, opt, group, value):
    opt.param_groups[group]["lr"] = value


_CASES = {
    "adamw": (lambda o, p, fw: o.AdamW(_two_groups(p), lr=0.01), _assign_lr),
    "adamw-amsgrad": (lambda o, p, fw: o.AdamW(_two_groups(p), lr=0.01, amsgrad=True), _assign_lr),
    "adamw-maximize": (lambda o, p, fw: o.AdamW(_two_groups(p), lr=0.01, maximize=True), _assign_lr),
    "adamw-amsgrad-maximize": (lambda o, p, fw: o.AdamW(_two_groups(p), lr=0.02, betas=(0.8, 0.99), eps=1e-6,
                                                    weight_decay=0.05, amsgrad=True, maximize=True), _float_lr),
    "adamw-group-options": (lambda o, p, fw: o.AdamW(_two_groups(p, amsgrad=True, betas=(0.5, 0.9)), lr=0.01),
                            _float_lr),
    "adamw-single-group-tensor-lr": (lambda o, p, fw: o.AdamW(p, lr=fw.Tensor(0.03, fw.float32), weight_decay=0.0),
                                     _assign_lr),
    "adam": (lambda o, p, fw: o.Adam(_two_groups(p), lr=0.01, weight_decay=0.01, maximize=True), _assign_lr),
    "sgd-momentum": (lambda o, p, fw: o.SGD(_two_groups(p), lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
                     _float_lr),
    "sgd-nesterov": (lambda o, p, fw: o.SGD(_two_groups(p), lr=0.1, momentum=0.9, nesterov=True, maximize=True),
                     _assign_lr),
    "sgd-plain": (lambda o, p, fw: o.SGD(p, lr=0.1), _assign_lr),
}


def _run(fw, optmod, factory, change, w0, grads):
    """Per step, the (name, value) of every Parameter of the optimizer."""
    opt = factory(optmod, _params(fw, w0), fw)
    history = []
    for step, g in enumerate(grads):
        if step == CHANGE_AT:
            change(fw, opt, len(opt.param_groups) - 1, 0.004)
        opt(tuple(fw.Tensor(x) for x in g))
        history.append([(name, p.asnumpy().copy()) for name, p in opt.parameters_and_names()])
    return history, opt


def _compare(got, want):
    for step, (g, w) in enumerate(zip(got, want)):
        assert [n for n, _ in g] == [n for n, _ in w], f"step {step}"
        for (name, a), (_, b) in zip(g, w):
            assert a.shape == b.shape and a.dtype == b.dtype, name
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=f"step {step}: {name}")


@pytest.mark.parametrize("case", list(_CASES))
def test_steps_match_mindspore(case):
    factory, change = _CASES[case]
    w0, grads = _data()
    got, topt = _run(ts, toptim, factory, change, w0, grads)
    want, mopt = _run(ms, moptim, factory, change, w0, grads)
    _compare(got, want)
    assert repr(topt) == repr(mopt)
    if change is not _float_lr:  # a float put in the dict is also written into tfspore's lr Parameter
        np.testing.assert_allclose([lr.asnumpy() for lr in topt.lrs], [lr.asnumpy() for lr in mopt.lrs])


@pytest.mark.parametrize("case", ["adamw-amsgrad", "adamw-maximize", "sgd-nesterov"])
def test_graph_mode_steps_match_mindspore(case):
    """GRAPH_MODE on both sides: the optimizer call is compiled; a Parameter lr change is seen."""
    factory, change = _CASES[case]
    w0, grads = _data(1)
    ts.set_context(mode=ts.GRAPH_MODE)
    ms.set_context(mode=ms.GRAPH_MODE)
    got, topt = _run(ts, toptim, factory, change, w0, grads)
    want, _ = _run(ms, moptim, factory, change, w0, grads)
    _compare(got, want)
    assert len(topt._compiled) == 1


def _train(fw, optmod, compiled, w, b, x, y):
    net = fw.nn.Dense(4, 3)
    net.weight.set_data(fw.Tensor(w))
    net.bias.set_data(fw.Tensor(b))
    opt = optmod.AdamW([{"params": [net.weight], "weight_decay": 0.1}, {"params": [net.bias], "lr": 0.05}],
                       lr=0.02, amsgrad=True)
    loss_fn = fw.nn.MSELoss()

    def forward_fn(data, label):
        return loss_fn(net(data), label)

    grad_fn = fw.value_and_grad(forward_fn, None, opt.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        opt(grads)
        return loss

    if compiled:
        train_step = fw.jit(train_step)
    losses = []
    for step in range(STEPS):
        if step == CHANGE_AT:
            fw.ops.assign(opt.param_groups[0]["lr"], fw.Tensor(0.005, fw.float32))
        losses.append(float(train_step(fw.Tensor(x), fw.Tensor(y)).asnumpy()))
    return losses, [(n, p.asnumpy()) for n, p in opt.parameters_and_names()]


@pytest.mark.parametrize("compiled", [False, True], ids=["pynative", "jit"])
def test_documented_train_step_matches_mindspore(compiled):
    rng = np.random.default_rng(2)
    w = (rng.standard_normal((3, 4)) * 0.5).astype(np.float32)
    b = np.zeros(3, np.float32)
    x = rng.standard_normal((8, 4)).astype(np.float32)
    y = rng.standard_normal((8, 3)).astype(np.float32)
    got_loss, got = _train(ts, toptim, compiled, w, b, x, y)
    want_loss, want = _train(ms, moptim, compiled, w, b, x, y)
    np.testing.assert_allclose(got_loss, want_loss, rtol=RTOL)
    _compare([got], [want])


def test_checkpoint_written_by_tfspore_loads_in_mindspore(tmp_path):
    """The optimizer's checkpoint keys and values are MindSpore's; MindSpore reads tfspore's file."""
    factory, change = _CASES["adamw-amsgrad"]
    w0, grads = _data(3)
    _, topt = _run(ts, toptim, factory, change, w0, grads)
    _, mopt = _run(ms, moptim, factory, change, w0, grads)
    path = str(tmp_path / "adamw.ckpt")
    ts.save_checkpoint(topt, path)
    loaded = ms.load_checkpoint(path)
    want = dict(mopt.parameters_and_names())
    assert list(loaded) == list(want)
    for name, value in loaded.items():
        np.testing.assert_allclose(value.asnumpy(), want[name].asnumpy(), rtol=RTOL, atol=ATOL, err_msg=name)
    assert "learning_rate_group_0" not in loaded

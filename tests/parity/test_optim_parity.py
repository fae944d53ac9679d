"""Parity of tfspore's optimizers and learning rates with real MindSpore 2.10.

Each optimizer starts from the same numpy weights in both frameworks and gets the same gradients
for 5 steps; after every step the weights and every state Parameter (by name, in order) must
agree within 1e-5 relative (1e-6 absolute for values near zero). The dynamic-lr lists and the
LearningRateSchedule cells are compared value by value. Lamb and LARS have no MindSpore CPU
kernel: their construction (state names, paths, repr) is compared here and their math in
tests/nn/test_optimizers.py, as are the cases where MindSpore 2.10's CPU kernels depart from
their documentation (FTRL's L1 sign for a negative ``linear``, Adagrad's ``update_slots=False``)
and gradient centralization (no CPU kernel).
"""
import re

import numpy as np
import pytest

import tfspore as ts
from tfspore import nn as tnn

ms = pytest.importorskip("mindspore")
from mindspore import nn as mnn  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore  # noqa: E402,F401  (autouse fixture)
from tests.parity._ms_helpers import make_params as _params, weights_and_grads  # noqa: E402

RTOL = 1e-5
ATOL = 1e-6
STEPS = 5


# Shapes: a conv-like weight, a 'gamma' (no default weight decay) and a bias.
_SHAPES = {"conv.weight": (3, 16), "bn.gamma": (4,), "fc.bias": (4,)}


def _data(seed=0):
    return weights_and_grads(_SHAPES, STEPS, seed)


def _run(nnmod, fw, factory, w0, grads):
    """Per step, the list of (name, value) of every optimizer Parameter."""
    params = _params(fw, w0)
    opt = factory(nnmod, params)
    order = [list(w0).index(p.name) for p in opt.parameters]  # order_params reorders the gradients too
    history = []
    for g in grads:
        opt(tuple(fw.Tensor(g[i]) for i in order))
        history.append([(p.name, p.asnumpy().copy()) for p in opt.get_parameters()])
    paths = [n for n, _ in opt.parameters_and_names()]
    return history, paths, opt


def _compare(factory, mode=None, seed=0):
    w0, grads = _data(seed)
    got, got_paths, _ = _run(tnn, ts, factory, w0, grads)
    want, want_paths, _ = _run(mnn, ms, factory, w0, grads)
    assert got_paths == want_paths
    for step, (g, w) in enumerate(zip(got, want)):
        assert [n for n, _ in g] == [n for n, _ in w]
        for (name, a), (_, b) in zip(g, w):
            assert a.shape == b.shape, name
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=f"step {step}: {name}")


def _groups(p, **extra):
    """conv.weight with its own lr / weight decay, the rest with defaults, in another order.

    Gradient centralization stays off: MindSpore has no CPU kernel for it (its math is checked
    in tests/nn/test_optimizers.py).
    """
    first = {"params": [p[0]], "weight_decay": 0.01, "grad_centralization": False}
    first.update(extra)
    return [first, {"params": [p[1], p[2]]}, {"order_params": [p[2], p[0], p[1]]}]


def _exp_schedule(nn):
    return nn.ExponentialDecayLR(0.05, 0.8, 2)


def _cos_schedule(nn):
    return nn.CosineDecayLR(0.001, 0.05, 4)


CASES = {
    # Adam family
    "adam": lambda nn, p: nn.Adam(p, 0.01),
    "adam_amsgrad": lambda nn, p: nn.Adam(p, 0.01, use_amsgrad=True),
    "adam_nesterov": lambda nn, p: nn.Adam(p, 0.01, use_nesterov=True, beta1=0.8, beta2=0.99, eps=1e-6),
    "adam_wd_loss_scale": lambda nn, p: nn.Adam(p, 0.01, weight_decay=0.1, loss_scale=8.0),
    "adam_lr_list": lambda nn, p: nn.Adam(p, [0.01, 0.02, 0.005, 0.03, 0.001]),
    "adam_schedule": lambda nn, p: nn.Adam(p, _exp_schedule(nn)),
    "adam_groups": lambda nn, p: nn.Adam(_groups(p, lr=0.02), 0.01, weight_decay=0.05),
    "adam_groups_dynamic": lambda nn, p: nn.Adam(_groups(p, lr=[0.02, 0.01, 0.03, 0.02, 0.01]),
                                                 [0.01, 0.02, 0.005, 0.03, 0.001]),
    "adam_lazy": lambda nn, p: nn.Adam(p, 0.01, use_lazy=True),
    "adam_use_offload": lambda nn, p: nn.Adam(p, 0.01, use_offload=True, weight_decay=0.01),
    "adam_offload": lambda nn, p: nn.AdamOffload(p, 0.01, use_nesterov=True, weight_decay=0.01),
    "lazy_adam": lambda nn, p: nn.LazyAdam(_groups(p, lr=0.02), 0.01, weight_decay=0.01, loss_scale=2.0),
    "adam_weight_decay": lambda nn, p: nn.AdamWeightDecay(p, 0.01, weight_decay=0.1),
    "adam_weight_decay_groups": lambda nn, p: nn.AdamWeightDecay(_groups(p, lr=0.02), _cos_schedule(nn)),
    "adam_weight_decay_dynamic_wd": lambda nn, p: nn.AdamWeightDecay(p, 0.01, weight_decay=nn.WarmUpLR(0.2, 3)),
    # others
    "rmsprop": lambda nn, p: nn.RMSProp(p, 0.01),
    "rmsprop_centered": lambda nn, p: nn.RMSProp(p, 0.01, decay=0.8, momentum=0.5, epsilon=1e-6, centered=True,
                                                 weight_decay=0.01, loss_scale=2.0),
    "rmsprop_groups": lambda nn, p: nn.RMSProp(_groups(p, lr=0.005), _exp_schedule(nn), momentum=0.9),
    "adagrad": lambda nn, p: nn.Adagrad(p, accum=0.2, learning_rate=0.05, weight_decay=0.01),
    "adagrad_small_accum": lambda nn, p: nn.Adagrad(p, accum=0.0, learning_rate=0.01),
    "adagrad_groups": lambda nn, p: nn.Adagrad(_groups(p, lr=0.1), learning_rate=[0.05, 0.04, 0.03, 0.02, 0.01]),
    "proximal_adagrad": lambda nn, p: nn.ProximalAdagrad(p, accum=0.2, learning_rate=0.05, l1=0.01, l2=0.02),
    "adadelta": lambda nn, p: nn.Adadelta(p, learning_rate=0.5, rho=0.8, epsilon=1e-4, weight_decay=0.01),
    "adadelta_schedule": lambda nn, p: nn.Adadelta(p, learning_rate=_cos_schedule(nn)),
    "adamax": lambda nn, p: nn.AdaMax(p, 0.01, weight_decay=0.01),
    "adamax_groups": lambda nn, p: nn.AdaMax(_groups(p, lr=0.02), [0.01, 0.02, 0.005, 0.03, 0.001], beta2=0.9),
    "ftrl": lambda nn, p: nn.FTRL(p, learning_rate=0.05, l2=0.01),
    "ftrl_lr_power": lambda nn, p: nn.FTRL(p, initial_accum=0.5, learning_rate=0.05, lr_power=-0.7, l2=0.001,
                                           weight_decay=0.01),
    "momentum_schedule": lambda nn, p: nn.Momentum(p, _cos_schedule(nn), 0.9, use_nesterov=False),
    "momentum_groups_dynamic": lambda nn, p: nn.Momentum(_groups(p, lr=_exp_schedule(nn)), 0.01, 0.9),
    "sgd_groups_list": lambda nn, p: nn.SGD(_groups(p, lr=[0.1, 0.05, 0.02, 0.01, 0.01]),
                                            [0.05, 0.04, 0.03, 0.02, 0.01], momentum=0.8),
}

# The ones also run with tfspore in GRAPH_MODE (each optimizer call then runs a compiled tf.function).
GRAPH_CASES = ["adam_amsgrad", "adam_groups_dynamic", "lazy_adam", "adam_weight_decay_groups", "rmsprop_centered",
               "adagrad_groups", "adadelta_schedule", "adamax_groups", "ftrl", "momentum_groups_dynamic"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_optimizer_steps(name):
    _compare(CASES[name])


@pytest.mark.parametrize("name", GRAPH_CASES)
def test_optimizer_steps_graph_mode(name):
    ts.set_context(mode=ts.GRAPH_MODE)
    _compare(CASES[name], seed=1)


def test_ftrl_with_l1_where_linear_is_positive():
    """MindSpore's CPU FTRL kernel takes sign(linear) as +1 always; where linear > 0 both agree."""
    w0 = {n: np.full(s, -0.3, np.float32) for n, s in _SHAPES.items()}
    grads = [[np.full(s, 0.2 + 0.05 * k, np.float32) for s in _SHAPES.values()] for k in range(STEPS)]
    def l1_factory(nn, p):
        return nn.FTRL(p, learning_rate=0.05, l1=0.01, l2=0.01)

    got, _, _ = _run(tnn, ts, l1_factory, w0, grads)
    want, _, _ = _run(mnn, ms, l1_factory, w0, grads)
    for g, w in zip(got, want):
        for (name, a), (_, b) in zip(g, w):
            if name.startswith("linear."):
                assert (a > 0).all()
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=name)


@pytest.mark.parametrize("name,factory", [
    ("lamb", lambda nn, p: nn.Lamb(p, 0.01, weight_decay=0.01)),
    ("lamb_groups", lambda nn, p: nn.Lamb(_groups(p, lr=[0.1, 0.2]), [0.1, 0.2])),
    ("lars", lambda nn, p: nn.LARS(nn.Momentum(p, 0.1, 0.9, weight_decay=0.01))),
    ("lars_clip_groups", lambda nn, p: nn.LARS(nn.SGD(_groups(p, lr=0.2), 0.1, momentum=0.9), use_clip=True,
                                                coefficient=0.01)),
])
def test_construction_without_cpu_kernel(name, factory):
    w0, _ = _data()
    t_opt = factory(tnn, _params(ts, w0))
    m_opt = factory(mnn, _params(ms, w0))
    assert [(n, p.name, tuple(p.shape)) for n, p in t_opt.parameters_and_names()] == \
        [(n, p.name, tuple(p.shape)) for n, p in m_opt.parameters_and_names()]
    assert repr(t_opt) == repr(m_opt)
    for tp, mp in zip(t_opt.get_parameters(), m_opt.get_parameters()):
        np.testing.assert_allclose(tp.asnumpy(), mp.asnumpy())


def test_state_names_dtypes_and_reprs():
    w0, _ = _data()
    for name, factory in CASES.items():
        t_opt = factory(tnn, _params(ts, w0))
        m_opt = factory(mnn, _params(ms, w0))
        assert [(p.name, tuple(p.shape), str(p.dtype)) for p in t_opt.get_parameters()] == \
            [(p.name, tuple(p.shape), str(p.dtype)) for p in m_opt.get_parameters()], name
        assert repr(t_opt) == repr(m_opt), name


def test_get_lr_and_get_lr_parameter():
    w0, _ = _data()
    for factory in (CASES["adam_groups"], CASES["adam_groups_dynamic"], CASES["adam_schedule"], CASES["adam"]):
        t_params, m_params = _params(ts, w0), _params(ms, w0)
        t_opt, m_opt = factory(tnn, t_params), factory(mnn, m_params)
        t_lr, m_lr = t_opt.get_lr(), m_opt.get_lr()
        if isinstance(m_lr, tuple):
            assert len(t_lr) == len(m_lr)
            for a, b in zip(t_lr, m_lr):
                np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=RTOL)
        else:
            np.testing.assert_allclose(t_lr.asnumpy(), m_lr.asnumpy(), rtol=RTOL)
        t_p = t_opt.get_lr_parameter(t_params)
        m_p = m_opt.get_lr_parameter(m_params)
        assert [type(x).__name__ for x in t_p] == [type(x).__name__ for x in m_p]
        assert [x.name for x in t_p if isinstance(x, ts.Parameter)] == \
            [x.name for x in m_p if isinstance(x, ms.Parameter)]
        np.testing.assert_allclose(np.float32(t_opt.get_weight_decay().asnumpy() if not t_opt.is_group else 0),
                                   np.float32(m_opt.get_weight_decay().asnumpy() if not m_opt.is_group else 0))


# ----------------------------------------------------------------------------- learning rates
LR_FUNCTIONS = [
    ("piecewise_constant_lr", ([2, 5, 10], [0.1, 0.05, 0.01])),
    ("exponential_decay_lr", (0.1, 0.9, 10, 2, 1)),
    ("exponential_decay_lr", (0.1, 0.9, 10, 2, 3, True)),
    ("natural_exp_decay_lr", (0.1, 0.5, 12, 2, 2)),
    ("natural_exp_decay_lr", (0.1, 0.5, 12, 2, 2, True)),
    ("inverse_decay_lr", (0.1, 0.5, 9, 1, 2)),
    ("inverse_decay_lr", (0.1, 0.5, 9, 1, 2, True)),
    ("cosine_decay_lr", (0.01, 0.1, 12, 2, 4)),
    ("cosine_decay_lr", (0.0, 0.1, 6, 1, 3)),
    ("polynomial_decay_lr", (0.1, 0.01, 12, 2, 3, 0.5)),
    ("polynomial_decay_lr", (0.1, 0.01, 12, 1, 3, 2.0, True)),
    ("warmup_lr", (0.1, 10, 2, 3)),
]


@pytest.mark.parametrize("name,args", LR_FUNCTIONS)
def test_dynamic_lr_functions(name, args):
    got = getattr(tnn, name)(*args)
    want = getattr(mnn, name)(*args)
    assert isinstance(got, list)
    assert got == want


LR_SCHEDULES = [
    ("ExponentialDecayLR", (0.1, 0.9, 4)),
    ("ExponentialDecayLR", (0.1, 0.9, 4, True)),
    ("NaturalExpDecayLR", (0.1, 0.3, 3)),
    ("NaturalExpDecayLR", (0.1, 0.3, 3, True)),
    ("InverseDecayLR", (0.1, 0.5, 2)),
    ("InverseDecayLR", (0.1, 0.5, 2, True)),
    ("CosineDecayLR", (0.01, 0.1, 6)),
    ("PolynomialDecayLR", (0.1, 0.01, 6, 0.5)),
    ("PolynomialDecayLR", (0.1, 0.01, 4, 2.0, True)),
    ("WarmUpLR", (0.1, 5)),
]


@pytest.mark.parametrize("name,args", LR_SCHEDULES)
def test_learning_rate_schedules(name, args):
    t_sched, m_sched = getattr(tnn, name)(*args), getattr(mnn, name)(*args)
    for step in range(12):
        got = t_sched(ts.Tensor(np.array([step], np.int32)))
        want = m_sched(ms.Tensor(np.array([step], np.int32)))
        assert got.dtype == ts.float32
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=RTOL, atol=1e-8, err_msg=f"step {step}")


def test_learning_rate_schedule_in_graph_mode():
    ts.set_context(mode=ts.GRAPH_MODE)
    t_sched, m_sched = tnn.PolynomialDecayLR(0.1, 0.01, 4, 2.0, True), mnn.PolynomialDecayLR(0.1, 0.01, 4, 2.0, True)
    for step in (0, 3, 5, 9):
        np.testing.assert_allclose(t_sched(ts.Tensor(step, ts.int32)).asnumpy(),
                                   m_sched(ms.Tensor(step, ms.int32)).asnumpy(), rtol=RTOL)


# ------------------------------------------------------------------------------------ errors
def _p(fw):
    return [fw.Parameter(fw.Tensor(np.ones(2, np.float32)), name="w")]


ERRORS = [
    lambda nn, fw: nn.ExponentialDecayLR(1, 0.9, 2),
    lambda nn, fw: nn.ExponentialDecayLR(0.1, 0.9, 0),
    lambda nn, fw: nn.ExponentialDecayLR(0.1, 0.9, 2, 1),
    lambda nn, fw: nn.CosineDecayLR(0.2, 0.1, 2),
    lambda nn, fw: nn.CosineDecayLR(0, 0.1, 2),
    lambda nn, fw: nn.PolynomialDecayLR(0.1, 0, 2, 1.0),
    lambda nn, fw: nn.WarmUpLR(1, 2),
    lambda nn, fw: nn.piecewise_constant_lr([1, 2], [0.1]),
    lambda nn, fw: nn.piecewise_constant_lr([2, 1], [0.1, 0.2]),
    lambda nn, fw: nn.piecewise_constant_lr([1, 2], [0.1, 1]),
    lambda nn, fw: nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1),
    lambda nn, fw: nn.cosine_decay_lr(0, 0.1, 3, 1, 1),
    lambda nn, fw: nn.Adam(_p(fw), beta1=1.0),
    lambda nn, fw: nn.Adam(_p(fw), beta1=1),
    lambda nn, fw: nn.Adam(_p(fw), eps=0.0),
    lambda nn, fw: nn.Adam(_p(fw), use_nesterov=1),
    lambda nn, fw: nn.Adam(_p(fw), foo=1),
    lambda nn, fw: nn.Adam(_p(fw), use_lazy=True, use_offload=True),
    lambda nn, fw: nn.RMSProp(_p(fw), decay=1),
    lambda nn, fw: nn.RMSProp(_p(fw), epsilon=0.0),
    lambda nn, fw: nn.Adagrad(_p(fw), accum=-0.1),
    lambda nn, fw: nn.Adadelta(_p(fw), rho=1.5),
    lambda nn, fw: nn.AdaMax(_p(fw), beta2=0.0),
    lambda nn, fw: nn.FTRL(_p(fw), lr_power=0.5),
    lambda nn, fw: nn.FTRL(_p(fw), learning_rate=1),
    lambda nn, fw: nn.FTRL(_p(fw), learning_rate=[0.1, 0.2]),
    lambda nn, fw: nn.Lamb(_p(fw)),
    lambda nn, fw: nn.Lamb(_p(fw), 0.1, eps=-1.0),
    lambda nn, fw: nn.AdamWeightDecay(_p(fw), weight_decay=-1.0),
    lambda nn, fw: nn.LazyAdam(_p(fw), weight_decay=1),
    lambda nn, fw: nn.LazyAdam(_p(fw), beta1=2.0, weight_decay=1),
    lambda nn, fw: nn.LazyAdam(_p(fw), beta2=1.0),
    lambda nn, fw: nn.AdamOffload(_p(fw), eps=0.0),
    lambda nn, fw: nn.ProximalAdagrad(_p(fw), l1=-0.1),
    lambda nn, fw: nn.Adam(_p(fw), fw.Tensor(np.ones((2, 2), np.float32))),
    lambda nn, fw: (lambda p: nn.Adam([{"params": p}, {"params": p}]))(_p(fw)),
    lambda nn, fw: nn.Adam([{"params": _p(fw), "lr": [0.1, 0.2]}], learning_rate=[0.1, 0.2, 0.3]),
    lambda nn, fw: nn.Adam([{"params": _p(fw), "grad_centralization": 1}]),
    lambda nn, fw: nn.SGD(_p(fw), weight_decay=nn.ExponentialDecayLR(0.1, 0.9, 2)),
    lambda nn, fw: nn.LARS(nn.Momentum(_p(fw), 0.1, 0.9), epsilon=1),
    lambda nn, fw: nn.LARS(nn.Momentum([{"params": _p(fw), "lr": [0.1, 0.2]}], 0.1, 0.9), use_clip=True),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match(index):
    """Same error type; the same message up to its first comma (API, argument, rule), or, where
    tfspore's one validator template names the API MindSpore's message leaves out, the same argument."""
    make = ERRORS[index]
    with pytest.raises(Exception) as want:
        make(mnn, ms)
    with pytest.raises(want.type) as got:
        make(tnn, ts)
    got_msg, want_msg = str(got.value), str(want.value)
    template = re.match(r"For '([\w.]+)', the '([^']+)' must ", got_msg)
    if template and not want_msg.startswith("For "):
        assert hasattr(tnn, template.group(1)), got_msg
        assert f"'{template.group(2)}'" in want_msg, (want_msg, got_msg)
    else:
        assert got_msg.split(",")[0] == want_msg.split(",")[0]


def test_any_cell_of_global_step_is_a_learning_rate():
    """MindSpore takes only LearningRateSchedule cells; tfspore also takes any Cell of the step."""
    with pytest.raises(TypeError, match="LearningRateSchedule"):
        mnn.Adam(_p(ms), mnn.Dense(1, 1))
    class Halving(tnn.Cell):
        def construct(self, global_step):
            return 0.1 * 0.5 ** global_step.astype(ts.float32)

    w = _p(ts)
    opt = tnn.SGD(w, Halving())
    for _ in range(3):
        opt((ts.Tensor(np.ones(2, np.float32)),))
    np.testing.assert_allclose(w[0].asnumpy(), 1 - 0.175, rtol=1e-6)


def test_learning_rate_list_shorter_than_the_steps():
    for nn, fw in ((tnn, ts), (mnn, ms)):
        w = _p(fw)
        opt = nn.Adam(w, [0.1, 0.2])
        g = (fw.Tensor(np.ones(2, np.float32)),)
        opt(g)
        opt(g)
        with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the range \[0, 2\)"):
            opt(g)

"""Behaviour of the optimizers beyond Momentum/SGD: state, update math against numpy references
(for Lamb and LARS, which MindSpore cannot run on CPU, and for MindSpore's documented FTRL and
gradient-centralization math), compiled train steps, checkpoints and errors."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Parameter, Tensor, nn


def _param(value, name):
    return Parameter(Tensor(np.asarray(value, np.float32)), name=name)


def _grads(*values):
    return tuple(Tensor(np.asarray(v, np.float32)) for v in values)


def _rng_data(steps=4, seed=0):
    rng = np.random.default_rng(seed)
    w0 = [(rng.standard_normal((3, 4)) * 0.5).astype(np.float32), (rng.standard_normal(4) * 0.5).astype(np.float32)]
    grads = [[(rng.standard_normal(w.shape) * 0.3).astype(np.float32) for w in w0] for _ in range(steps)]
    return w0, grads


# ------------------------------------------------------------------------------------- Lamb
def _lamb_reference(w0, grads, lr, wd, beta1=0.9, beta2=0.999, eps=1e-6):
    """MindSpore's Lamb kernel in float32 numpy; ``lr(i, t)`` and ``wd(i)`` per parameter ``i``, step ``t``."""
    f = np.float32
    ws = [w.copy() for w in w0]
    ms_ = [np.zeros_like(w) for w in w0]
    vs = [np.zeros_like(w) for w in w0]
    for t, gs in enumerate(grads, start=1):
        for i, g in enumerate(gs):
            decay = f(wd(i))
            ms_[i] = f(beta1) * ms_[i] + (f(1) - f(beta1)) * g
            vs[i] = f(beta2) * vs[i] + (f(1) - f(beta2)) * g * g
            mm = ms_[i] / (f(1) - f(beta1) ** f(t))
            vv = vs[i] / (f(1) - f(beta2) ** f(t))
            g_hat = mm / np.sqrt(vv + f(eps)) + decay * ws[i]
            update = mm / (np.sqrt(vv) + f(eps)) + decay * ws[i]
            w_norm, g_norm = np.linalg.norm(ws[i]), np.linalg.norm(g_hat)
            ratio = w_norm / g_norm if w_norm > 0 and g_norm > 0 else 1.0
            ratio = min(max(ratio, 0.0), 10.0)
            ws[i] = ws[i] - f(ratio) * f(lr(i, t - 1)) * update
    return ws, ms_, vs


def test_lamb_math_and_state(mode):
    w0, grads = _rng_data()
    w, b = _param(w0[0], "fc.weight"), _param(w0[1], "ln.gamma")
    opt = nn.Lamb([w, b], learning_rate=0.01, weight_decay=0.1)
    assert [p.name for p in opt.get_parameters()] == [
        "global_step", "learning_rate", "fc.weight", "ln.gamma", "lamb_m.fc.weight", "lamb_m.ln.gamma",
        "lamb_v.fc.weight", "lamb_v.ln.gamma"]
    for g in grads:
        opt(_grads(*g))
    ws, ms_, vs = _lamb_reference(w0, grads, lambda i, t: 0.01, lambda i: 0.1 if i == 0 else 0.0)
    for got, want in zip([w, b, *opt.moments1, *opt.moments2], [*ws, *ms_, *vs]):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(opt.global_step.asnumpy(), [4])


def test_lamb_trust_ratio_edge_cases():
    # a zero weight gets ratio 1; a huge weight is clipped to 10
    zero, big = _param(np.zeros(4), "a"), _param(np.full(4, 1e4), "b")
    opt = nn.Lamb([zero, big], learning_rate=0.1)
    opt(_grads(np.ones(4), np.ones(4)))
    ws, _, _ = _lamb_reference([np.zeros(4, np.float32), np.full(4, 1e4, np.float32)],
                               [[np.ones(4, np.float32)] * 2], lambda i, t: 0.1, lambda i: 0.0)
    np.testing.assert_allclose(zero.asnumpy(), ws[0], rtol=1e-5)
    np.testing.assert_allclose(big.asnumpy(), ws[1], rtol=1e-5)
    np.testing.assert_allclose(big.asnumpy(), 1e4 - 10 * 0.1 * np.ones(4) / (1 + 1e-6), rtol=1e-6)


def test_lamb_groups_dynamic_lr_and_gradient_centralization(mode):
    rng = np.random.default_rng(1)
    w0 = [rng.standard_normal((2, 16)).astype(np.float32), rng.standard_normal(4).astype(np.float32)]
    grads = [[rng.standard_normal(w.shape).astype(np.float32) for w in w0] for _ in range(3)]
    conv, b = _param(w0[0], "conv.weight"), _param(w0[1], "bias")
    opt = nn.Lamb([{"params": [conv], "lr": [0.02, 0.01, 0.005], "grad_centralization": True},
                   {"params": [b], "weight_decay": 0.01}], [0.1, 0.05, 0.01])
    for g in grads:
        opt(_grads(*g))
    centered = [[g[0] - g[0].mean(axis=1, keepdims=True), g[1]] for g in grads]
    lrs = [[0.02, 0.01, 0.005], [0.1, 0.05, 0.01]]
    ws, _, _ = _lamb_reference(w0, centered, lambda i, t: lrs[i][t], lambda i: 0.01 if i == 1 else 0.0)
    np.testing.assert_allclose(conv.asnumpy(), ws[0], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(b.asnumpy(), ws[1], rtol=1e-5, atol=1e-7)


# ------------------------------------------------------------------------------------- LARS
def _lars_grad(w, g, wd, lr, eps=1e-5, coef=0.001, clip=False):
    w_norm, g_norm = np.linalg.norm(w), np.linalg.norm(g)
    coeff = coef * w_norm / (g_norm + wd * w_norm + eps)
    if clip:
        coeff = min(max(coeff / lr, 0.0), 1.0)
    return coeff * (g + wd * w)


def test_lars_wraps_momentum(mode):
    w0, grads = _rng_data()
    w, b = _param(w0[0], "fc.weight"), _param(w0[1], "fc.bias")
    inner = nn.Momentum([w, b], 0.1, 0.9, weight_decay=0.01, loss_scale=2.0)
    opt = nn.LARS(inner, coefficient=0.02)
    assert [(n, p.name) for n, p in opt.parameters_and_names()] == [
        ("global_step", "global_step"), ("learning_rate", "fake_lr"), ("fake_param", "fake_param"),
        ("fc.weight", "fc.weight"), ("fc.bias", "fc.bias"), ("opt.learning_rate", "learning_rate"),
        ("opt.momentum", "momentum"), ("opt.moments.fc.weight", "moments.fc.weight"),
        ("opt.moments.fc.bias", "moments.fc.bias")]
    assert not inner.exec_weight_decay and opt.lars_flag == (True, False)
    ref_w, ref_b = w0[0].astype(np.float64), w0[1].astype(np.float64)
    acc_w, acc_b = np.zeros_like(ref_w), np.zeros_like(ref_b)
    for g in grads:
        opt(_grads(*g))
        gw = _lars_grad(ref_w, g[0] / 2.0, 0.01, 0.1, coef=0.02)  # decay 0.01 * 2 / loss scale 2
        gb = g[1] / 2.0  # filtered out: no LARS, no weight decay
        acc_w, acc_b = 0.9 * acc_w + gw, 0.9 * acc_b + gb
        ref_w, ref_b = ref_w - 0.1 * acc_w, ref_b - 0.1 * acc_b
    np.testing.assert_allclose(w.asnumpy(), ref_w, rtol=1e-5)
    np.testing.assert_allclose(b.asnumpy(), ref_b, rtol=1e-5)
    np.testing.assert_array_equal(opt.global_step.asnumpy(), [4])


def test_lars_use_clip_with_group_learning_rates():
    w0, grads = _rng_data(steps=2)
    w, b = _param(w0[0], "fc.weight"), _param(w0[1], "fc.bias")
    inner = nn.SGD([{"params": [w], "lr": 0.05}, {"params": [b]}], 0.1)
    opt = nn.LARS(inner, use_clip=True, lars_filter=lambda p: True, coefficient=0.01)
    ref_w, ref_b = w0[0].astype(np.float64), w0[1].astype(np.float64)
    for g in grads:
        opt(_grads(*g))
        ref_w = ref_w - 0.05 * _lars_grad(ref_w, g[0], 0.0, 0.05, coef=0.01, clip=True)
        ref_b = ref_b - 0.1 * _lars_grad(ref_b, g[1], 0.0, 0.1, coef=0.01, clip=True)
    np.testing.assert_allclose(w.asnumpy(), ref_w, rtol=1e-5)
    np.testing.assert_allclose(b.asnumpy(), ref_b, rtol=1e-5)


def test_lars_validation():
    p = [_param([1.0], "w")]
    with pytest.raises(TypeError, match="For 'LARS', the 'optimizer' must be Optimizer, but got"):
        nn.LARS(1)
    with pytest.raises(TypeError, match="'coefficient'"):
        nn.LARS(nn.Momentum(p, 0.1, 0.9), coefficient=1)
    with pytest.raises(ValueError, match="cannot both be true"):
        nn.LARS(nn.Momentum([{"params": p, "lr": [0.1, 0.2]}], 0.1, 0.9), use_clip=True)


# ------------------------------------------------------------------------------------- FTRL
def _ftrl_reference(w, grads, lr, l1, l2, lr_power, accum0):
    w = w.astype(np.float64)
    accum, linear = np.full_like(w, accum0), np.zeros_like(w)
    p = -lr_power
    for g in grads:
        new_accum = accum + g * g
        linear = linear + g - (new_accum ** p - accum ** p) / lr * w
        quad = new_accum ** p / lr + 2 * l2
        w = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quad, 0.0)
        accum = new_accum
    return w, accum, linear


def test_ftrl_documented_l1_shrinkage(mode):
    """The L1 term uses sign(linear) (MindSpore 2.10's CPU kernel takes +l1 for a negative linear)."""
    w0, grads = _rng_data(steps=5)
    w = _param(w0[0], "w")
    opt = nn.FTRL([w], learning_rate=0.05, l1=0.02, l2=0.01, lr_power=-0.6)
    for g in grads:
        opt(_grads(g[0]))
    ref_w, ref_accum, ref_linear = _ftrl_reference(w0[0], [g[0] for g in grads], 0.05, 0.02, 0.01, -0.6, 0.1)
    assert (ref_linear < 0).any()  # the case where the documented math and the CPU kernel differ
    np.testing.assert_allclose(w.asnumpy(), ref_w, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(opt.moments[0].asnumpy(), ref_accum, rtol=1e-5)
    np.testing.assert_allclose(opt.linear[0].asnumpy(), ref_linear, rtol=1e-5, atol=1e-6)


def test_ftrl_rules():
    p = [_param([1.0], "bn.gamma")]
    opt = nn.FTRL(p, weight_decay=0.1)
    assert opt.decay_flags == (True,)  # every parameter decays, gamma included
    with pytest.raises(ValueError, match="dynamic learning rate and group learning rate"):
        nn.FTRL(p, learning_rate=nn.WarmUpLR(0.1, 2))
    opt.target = "GPU"
    assert opt.target == "GPU"
    with pytest.raises(ValueError, match="'target' must be 'CPU', 'Ascend' or 'GPU'"):
        opt.target = "TPU"


# ------------------------------------------------------------------------- gradient centralization
def test_gradient_centralization_in_groups(mode):
    rng = np.random.default_rng(3)
    conv = _param(rng.standard_normal((2, 16, 1, 1)), "conv.weight")
    fc = _param(rng.standard_normal((2, 3)), "fc.weight")
    opt = nn.SGD([{"params": [conv, fc], "grad_centralization": True}], 0.5)
    g_conv, g_fc = rng.standard_normal((2, 16, 1, 1)), rng.standard_normal((2, 3))
    c0, f0 = conv.asnumpy().copy(), fc.asnumpy().copy()
    opt(_grads(g_conv, g_fc))
    centered = g_conv - g_conv.mean(axis=(1, 2, 3), keepdims=True)
    np.testing.assert_allclose(conv.asnumpy(), c0 - 0.5 * centered, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fc.asnumpy(), f0 - 0.5 * g_fc, rtol=1e-5, atol=1e-6)  # dim 1 not a multiple of 16
    with pytest.raises(TypeError, match="'gradients_centralization' must be bool"):
        nn.SGD([{"params": [conv], "grad_centralization": 1}])


# ------------------------------------------------------------------------------- Adam family
def test_adam_state_and_beta_powers(mode):
    w = _param([1.0, -1.0], "w")
    opt = nn.Adam([w], 0.1, use_amsgrad=True)
    assert [(p.name, p.shape) for p in opt.get_parameters()] == [
        ("global_step", (1,)), ("learning_rate", ()), ("w", (2,)), ("beta1_power", ()), ("beta2_power", ()),
        ("moment1.w", (2,)), ("moment2.w", (2,)), ("vhat.w", (2,))]
    for _ in range(3):
        res = opt(_grads([0.5, -0.5]))
    assert len(res) == 1
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), 0.9 ** 3, rtol=1e-6)
    np.testing.assert_allclose(opt.beta2_power.asnumpy(), 0.999 ** 3, rtol=1e-6)
    # constant gradient: m_hat / sqrt(v_hat) = sign(g), so each step moves lr (minus eps effects)
    np.testing.assert_allclose(w.asnumpy(), [0.7, -0.7], rtol=1e-4)
    assert opt.init_args["use_amsgrad"] is True and opt.init_learning_rate == 0.1
    assert opt.init_params["params"] == [w]


def test_adam_weight_decay_is_decoupled():
    w, gamma = _param([1.0], "w"), _param([1.0], "ln.gamma")
    opt = nn.AdamWeightDecay([w, gamma], learning_rate=0.1, weight_decay=0.5)
    opt(_grads([0.0], [0.0]))
    np.testing.assert_allclose(w.asnumpy(), [1 - 0.1 * 0.5], rtol=1e-6)  # decay only, no gradient step
    np.testing.assert_allclose(gamma.asnumpy(), [1.0])
    assert [p.name for p in opt.get_parameters()][4:] == ["adam_m.w", "adam_m.ln.gamma", "adam_v.w",
                                                          "adam_v.ln.gamma"]
    assert float(opt.get_weight_decay().asnumpy()) == pytest.approx(0.5)


def test_target_property():
    opt = nn.Adam([_param([1.0], "w")])
    assert opt.target == ms.get_context("device_target")
    with pytest.raises(ValueError, match="must be one of"):
        opt.target = "TPU"
    with pytest.raises(NotImplementedError):
        nn.Momentum([_param([1.0], "v")], 0.1, 0.9).target = "CPU"


# --------------------------------------------------------------------- learning-rate handling
def test_learning_rate_list_shorter_than_the_steps(mode):
    w = _param([1.0], "w")
    opt = nn.Adam([w], [0.1, 0.2])
    opt(_grads([1.0]))
    opt(_grads([1.0]))
    error = RuntimeError if mode == ms.PYNATIVE_MODE else tf.errors.InvalidArgumentError
    with pytest.raises(error, match=r"range \[0, 2\)"):
        opt(_grads([1.0]))


def test_dynamic_weight_decay_cell(mode):
    w = _param([1.0], "w")
    opt = nn.Momentum([w], 0.1, 0.0, weight_decay=nn.WarmUpLR(0.5, 2))
    ref = 1.0
    for step in range(3):
        opt(_grads([0.0]))
        ref -= 0.1 * (0.5 * min(step, 2) / 2) * ref
    np.testing.assert_allclose(w.asnumpy(), [ref], rtol=1e-6)


@pytest.mark.parametrize("factory", [
    lambda p: nn.Adam(p, nn.CosineDecayLR(0.001, 0.01, 3), use_nesterov=True),
    lambda p: nn.RMSProp(p, 0.01, momentum=0.9, centered=True),
    lambda p: nn.Lamb(p, [0.01, 0.02, 0.03]),
    lambda p: nn.AdaMax(p, 0.01),
    lambda p: nn.Adadelta(p),
    lambda p: nn.Adagrad(p),
    lambda p: nn.FTRL(p, l1=0.001),
    lambda p: nn.AdamWeightDecay(p, weight_decay=0.01),
    lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9)),
], ids=["adam", "rmsprop", "lamb", "adamax", "adadelta", "adagrad", "ftrl", "adamw", "lars"])
def test_train_one_step_graph_equals_pynative(factory):
    """A compiled TrainOneStepCell gives the same weights and state as eager steps, traced once."""
    x = Tensor(np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32))
    y = Tensor(np.random.default_rng(1).standard_normal((4, 2)).astype(np.float32))
    results = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        ms.set_seed(3)
        net = nn.Dense(3, 2)
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), factory(net.trainable_params()))
        for _ in range(3):
            train(x, y)
        results.append([(p.name, p.asnumpy()) for p in train.get_parameters()])
        if mode == ms.GRAPH_MODE:
            assert len(train._compiled) == 1
    for (n1, a), (n2, b) in zip(*results):
        assert n1 == n2
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7, err_msg=n1)
    assert dict(results[1])["global_step"].tolist() == [3]


def test_checkpoint_holds_optimizer_state(tmp_path):
    net = nn.Dense(3, 2)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Adam(net.trainable_params(), 0.01))
    train(Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 2), np.float32)))
    path = str(tmp_path / "adam.ckpt")
    ms.save_checkpoint(train, path)
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["weight", "bias", "global_step", "learning_rate", "beta1_power", "beta2_power",
                            "moment1.weight", "moment1.bias", "moment2.weight", "moment2.bias"]
    np.testing.assert_allclose(loaded["beta1_power"].asnumpy(), 0.9, rtol=1e-6)


@pytest.mark.parametrize("make,error,match", [
    (lambda p: nn.Adam(p, beta1=1.0), ValueError,
     r"For 'Adam', the 'beta1' must be a float in range \(0.0, 1.0\), but got 1.0"),
    (lambda p: nn.Adam(p, use_lazy=True, use_amsgrad=True), ValueError, "no parameter named 'use_amsgrad'"),
    (lambda p: nn.Adam(p, bad=True), KeyError, "invalid keys"),
    (lambda p: nn.RMSProp(p, momentum=-0.5), ValueError,
     "For 'RMSProp', the 'momentum' must be a non-negative float, but got -0.5"),
    (lambda p: nn.Adagrad(p, accum=1), TypeError, "For 'Adagrad', the 'accum' must be float, but got 1 of type int"),
    (lambda p: nn.Adadelta(p, epsilon=-1.0), ValueError,
     "For 'Adadelta', the 'epsilon' must be a non-negative float, but got -1.0"),
    (lambda p: nn.AdaMax(p, eps=0.0), ValueError, "For 'AdaMax', the 'eps' must be a positive float, but got 0.0"),
    (lambda p: nn.FTRL(p, l1=-1.0), ValueError, "For 'FTRL', the 'l1' must be >= 0.0, but got -1.0"),
    (lambda p: nn.Lamb(p), TypeError, "missing a required argument: 'learning_rate'"),
    (lambda p: nn.Adam([{"params": p}, {"params": p}]), RuntimeError, "the w parameter already exists"),
    (lambda p: nn.Adam(p, Tensor(np.ones((2, 2), np.float32))), ValueError, "should be 0 or 1, but got 2"),
])
def test_errors(make, error, match):
    with pytest.raises(error, match=match):
        make([_param([1.0], "w")])


def test_adagrad_update_slots_false_keeps_the_accumulator(mode):
    """As documented (MindSpore 2.10's CPU kernel updates ``accum`` anyway)."""
    w = _param([1.0, 2.0], "w")
    opt = nn.Adagrad([w], accum=0.25, learning_rate=0.1, update_slots=False)
    for _ in range(2):
        opt(_grads([0.5, -1.0]))
    np.testing.assert_array_equal(opt.accum[0].asnumpy(), [0.25, 0.25])
    np.testing.assert_allclose(w.asnumpy(), [1.0 - 2 * 0.1 * 0.5 / np.sqrt(0.25 + 1e-8),
                                             2.0 + 2 * 0.1 * 1.0 / np.sqrt(0.25 + 1e-8)], rtol=1e-6)


def test_adadelta_needs_a_tuple_of_tensors():
    opt = nn.Adadelta([_param([1.0], "w")])
    with pytest.raises(TypeError, match="must be a tuple of Tensor"):
        opt([Tensor(np.ones(1, np.float32))])

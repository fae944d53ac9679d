"""``tfspore.experimental.optim``: argument errors, compiled use, lr changes, groups added later.

The numbers are checked against MindSpore 2.10 in tests/parity/test_experimental_optim_parity.py;
here AdamW is checked against its formula where MindSpore itself is unreliable (a ``set_data``
on a group's lr), and the compiled paths (GRAPH_MODE Cells, ``jit``, ``tf.distribute``) are
checked against eager steps.
"""
import contextlib
import re

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Parameter, Tensor, nn, ops
from tfspore.experimental import optim


def _p(name="w", shape=(2, 3), seed=0):
    rng = np.random.default_rng(seed)
    return Parameter(Tensor(rng.standard_normal(shape).astype(np.float32)), name=name)


def _pair():
    return [_p("w", (2, 3), 0), _p("b", (3,), 1)]


def _grads(step, shapes=((2, 3), (3,))):
    rng = np.random.default_rng(100 + step)
    return tuple(Tensor(rng.standard_normal(s).astype(np.float32)) for s in shapes)


def _adamw_reference(w, grads, lrs, weight_decay=0.01, betas=(0.9, 0.999), eps=1e-8, amsgrad=False,
                     maximize=False):
    """AdamW in float64: the weights after each step, with ``lrs[t]`` the lr of step ``t`` (and
    ``weight_decay[t]`` its decay when a list)."""
    w = w.astype(np.float64)
    m, v, vmax = np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)
    out = []
    decays = weight_decay if isinstance(weight_decay, list) else [weight_decay] * len(grads)
    for t, (g, lr, wd) in enumerate(zip(grads, lrs, decays), 1):
        g = -g if maximize else g
        w = w * (1 - lr * wd)
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        vmax = np.maximum(vmax, v)
        denom = np.sqrt(vmax if amsgrad else v) / np.sqrt(1 - betas[1] ** t) + eps
        w = w - lr / (1 - betas[0] ** t) * m / denom
        out.append(w.copy())
    return out


# ------------------------------------------------------------------------------------------ errors
_P = _pair


@pytest.mark.parametrize("make,error,match", [
    (lambda: optim.AdamW(_P(), lr=-0.1), ValueError, r"^Invalid learning rate: -0\.1\. For 'AdamW', the 'lr'"),
    (lambda: optim.AdamW(_P(), eps=-1e-8), ValueError, r"^Invalid epsilon value: -1e-08\. For 'AdamW', the 'eps'"),
    (lambda: optim.AdamW(_P(), betas=(1.0, 0.999)), ValueError,
     r"^Invalid beta parameter at index 0: 1\.0\. For 'AdamW', the 'betas\[0\]' must be in \[0\.0, 1\.0\)"),
    (lambda: optim.AdamW(_P(), betas=(-0.1, 0.999)), ValueError, r"Invalid beta parameter at index 0: -0\.1"),
    (lambda: optim.AdamW(_P(), betas=(0.9, 1.5)), ValueError, r"Invalid beta parameter at index 1: 1\.5"),
    (lambda: optim.AdamW(_P(), weight_decay=-0.01), ValueError,
     r"^Invalid weight_decay value: -0\.01\. For 'AdamW', the 'weight_decay'"),
    (lambda: optim.AdamW(_P(), lr="0.1"), TypeError, r"For 'AdamW', the 'lr' must be int, float or Tensor, but got "
                                                     r"str: '0\.1'"),
    (lambda: optim.AdamW(_P(), eps=None), TypeError, r"For 'AdamW', the 'eps' must be int or float, but got NoneType"),
    (lambda: optim.AdamW(_P(), lr=Tensor(np.array([0.1, 0.2], np.float32))), ValueError,
     r"should have only one element, but got 2.*'lr'"),
    (lambda: optim.AdamW(None), ValueError, r"For 'Optimizer', the argument params can not be None"),
    (lambda: optim.AdamW([]), ValueError, r"For 'Optimizer', the argument params must not be empty"),
    (lambda: optim.AdamW(3), TypeError, r"For 'Optimizer', the argument params must be Iterable type, but got "
                                        r"<class 'int'>"),
    (lambda: optim.AdamW([Tensor(np.ones(2, np.float32))]), TypeError,
     r"Optimizer can only optimize Parameters, but one of the params is Tensor \(at index 0\)"),
    (lambda: optim.AdamW([{"params": set(_P())}]), TypeError, r"ordered collections.*Please use a list instead"),
    (lambda: optim.AdamW([{"params": [_P()[0]]}, _P()[1]]), TypeError, r"Param group must be a dict, but got "
                                                                       r"Parameter"),
    (lambda: optim.AdamW([{"lr": 0.1}]), KeyError, r"params"),
    (lambda: optim.AdamW([{"params": _P(), "lr": -0.5}]), ValueError,
     r"For 'AdamW', the learning rate must be a non-negative float, but got -0\.5"),
    (lambda: optim.AdamW([{"params": _P(), "lr": "x"}]), TypeError,
     r"For 'Optimizer', the argument 'learning_rate' must be int, float or Tensor, but got <class 'str'>"),
    (lambda: optim.AdamW([{"params": _P(), "weight_decay": -0.5}]), ValueError,
     r"For 'AdamW', the 'weight_decay' must be a non-negative float, but got -0\.5"),
    (lambda: optim.AdamW([{"params": _P(), "weight_decay": "0.1"}]), TypeError,
     r"For 'Optimizer', the argument 'weight_decay' must be int or float, but got <class 'str'>"),
    (lambda: optim.SGD(_P(), lr=-0.1), ValueError, r"^Invalid learning rate: -0\.1\. For 'SGD', the 'lr'"),
    (lambda: optim.SGD(_P(), lr="0.1"), TypeError,
     r"For 'SGD', the 'lr' must be .*, but got .* of type str"),
    (lambda: optim.SGD(_P(), lr=0.1, momentum=-0.5), ValueError, r"^Invalid momentum value: -0\.5\. For 'SGD'"),
    (lambda: optim.SGD(_P(), lr=0.1, nesterov=True), ValueError,
     r"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0\.0 and 'dampening' must equal to 0\.0, but got "
     r"'momentum' 0\.0, 'dampening' 0"),
    (lambda: optim.SGD(_P(), lr=0.1, dampening="x"), TypeError,
     r"For 'SGD', the 'dampening' must be .*, but got .* of type str"),
    (lambda: optim.Adam(_P(), betas=(0.9, 1.0)), ValueError, r"Invalid beta parameter at index 1: 1\.0\. For 'Adam'"),
], ids=["lr", "eps", "beta0", "beta0-neg", "beta1", "weight-decay", "lr-str", "eps-none", "lr-tensor-1d",
        "params-none", "params-empty", "params-int", "params-tensor", "params-set", "group-not-dict",
        "group-no-params", "group-lr", "group-lr-str", "group-wd", "group-wd-str", "sgd-lr", "sgd-lr-str",
        "sgd-momentum", "sgd-nesterov", "sgd-dampening", "adam-beta1"])
def test_bad_arguments(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_parameter_in_two_groups_is_rejected_with_its_name():
    w, b = _pair()
    with pytest.raises(ValueError, match=re.escape("some parameters appear in more than one parameter group: "
                                                   "['w'].")):
        optim.AdamW([{"params": [w]}, {"params": [w, b]}])
    opt = optim.AdamW([w])
    with pytest.raises(ValueError, match=re.escape("more than one parameter group: ['w']")):
        opt.add_param_group({"params": w})
    with pytest.raises(TypeError, match="Param group must be a dict, but got list"):
        opt.add_param_group([b])


# ------------------------------------------------------------------------------- groups and state
def test_groups_defaults_state_names_and_repr():
    w, b = _pair()
    user_group = {"params": [w], "lr": 0.5, "weight_decay": 0.1}
    opt = optim.AdamW([user_group, {"params": b}], lr=Tensor(0.1, ms.float32), amsgrad=True)
    assert [n for n, _ in opt.parameters_and_names()] == [
        "w", "b", "exp_avg.w", "exp_avg.b", "exp_avg_sq.w", "exp_avg_sq.b", "max_exp_avg_sq.w", "max_exp_avg_sq.b",
        "state_step"]
    assert [g["lr"].name for g in opt.param_groups] == ["learning_rate_group_0", "learning_rate_group_1"]
    assert opt.lrs[0] is opt.param_groups[0]["lr"] and user_group["lr"] is opt.lrs[0]
    assert opt.param_groups[1]["weight_decay"] == 0.01 and opt.param_groups[1]["amsgrad"] is True
    assert opt.defaults["betas"] == (0.9, 0.999) and opt.group_start_id == [0, 1, 2]
    assert opt.state_step.dtype == ms.int32 and opt.state_step.shape == ()
    assert not isinstance(opt, nn.Optimizer) and isinstance(opt, nn.Cell)
    np.testing.assert_allclose(opt.param_groups[1]["lr"].asnumpy(), 0.1)
    assert repr(opt).startswith("AdamW (\nParameter Group 0\n    amsgrad: True\n    betas: (0.9, 0.999)\n"
                                "    eps: 1e-08\n    lr: 0.5\n    maximize: False\n    weight_decay: 0.1\n")


def test_checkpoint_round_trip_continues_training(tmp_path):
    w, b = _pair()
    opt = optim.AdamW([{"params": [w], "lr": 0.05}, {"params": [b]}], lr=0.01, amsgrad=True)
    for step in range(2):
        opt(_grads(step))
    path = str(tmp_path / "opt.ckpt")
    ms.save_checkpoint(opt, path)
    w2, b2 = _pair()
    opt2 = optim.AdamW([{"params": [w2], "lr": 0.05}, {"params": [b2]}], lr=0.01, amsgrad=True)
    assert ms.load_param_into_net(opt2, ms.load_checkpoint(path)) == ([], [])
    for step in range(2, 4):
        opt(_grads(step))
        opt2(_grads(step))
    for (n1, p1), (n2, p2) in zip(opt.parameters_and_names(), opt2.parameters_and_names()):
        assert n1 == n2
        np.testing.assert_array_equal(p1.asnumpy(), p2.asnumpy(), err_msg=n1)


@pytest.mark.parametrize("how", ["assign", "set_data", "float", "tensor"])
def test_changed_group_lr_takes_effect(how, mode):
    """Every way of changing ``param_groups[i]['lr']`` is used by the next step, in both modes."""
    w = _p()
    w0 = w.asnumpy().copy()
    opt = optim.AdamW([w], lr=0.1, amsgrad=True, maximize=True)
    grads = [_grads(s, ((2, 3),)) for s in range(4)]
    for step, g in enumerate(grads):
        if step == 2:
            group = opt.param_groups[0]
            if how == "assign":
                ops.assign(group["lr"], Tensor(0.02, ms.float32))
            elif how == "set_data":
                group["lr"].set_data(Tensor(0.02, ms.float32))
            elif how == "float":
                group["lr"] = 0.02
            else:
                group["lr"] = Tensor(0.02, ms.float32)
        opt(g)
    want = _adamw_reference(w0, [g[0].asnumpy() for g in grads], [0.1, 0.1, 0.02, 0.02], amsgrad=True,
                            maximize=True)
    np.testing.assert_allclose(w.asnumpy(), want[-1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(opt.lrs[0].asnumpy(), 0.02, rtol=1e-7)
    if mode == ms.GRAPH_MODE:
        assert len(opt._compiled) == 1


def test_changed_group_option_retraces_compiled_optimizer():
    """A Python-valued option (weight_decay, amsgrad, ...) changed in a group is used: GRAPH_MODE retraces."""
    ms.set_context(mode=ms.GRAPH_MODE)
    w = _p()
    w0 = w.asnumpy().copy()
    opt = optim.AdamW([w], lr=0.1)
    grads = [_grads(s, ((2, 3),)) for s in range(3)]
    opt(grads[0])
    opt(grads[1])
    opt.param_groups[0]["weight_decay"] = 0.0
    opt(grads[2])
    assert len(opt._compiled) == 2
    want = _adamw_reference(w0, [g[0].asnumpy() for g in grads], [0.1] * 3, weight_decay=[0.01, 0.01, 0.0])
    np.testing.assert_allclose(w.asnumpy(), want[-1], rtol=1e-5, atol=1e-6)
    opt.param_groups[0]["amsgrad"] = True
    opt(grads[0])
    assert len(opt._compiled) == 3
    assert np.any(opt.max_exp_avg_sq[0].asnumpy() > 0)


def test_group_added_after_construction_gets_state_and_updates(mode):
    """add_param_group after construction: the new Parameters get state and follow their own group."""
    w, b = _pair()
    w2, b2 = _pair()
    late = optim.AdamW([w], lr=0.01, amsgrad=True)
    late.add_param_group({"params": b, "lr": 0.05, "weight_decay": 0.0})
    early = optim.AdamW([{"params": [w2]}, {"params": [b2], "lr": 0.05, "weight_decay": 0.0}], lr=0.01, amsgrad=True)
    assert [n for n, _ in late.parameters_and_names()] == [
        "w", "exp_avg.w", "exp_avg_sq.w", "max_exp_avg_sq.w", "state_step", "b", "exp_avg.b", "exp_avg_sq.b",
        "max_exp_avg_sq.b"]
    for step in range(3):
        late(_grads(step))
        early(_grads(step))
    np.testing.assert_array_equal(b.asnumpy(), b2.asnumpy())
    np.testing.assert_array_equal(w.asnumpy(), w2.asnumpy())
    np.testing.assert_array_equal(late.exp_avg_sq[1].asnumpy(), early.exp_avg_sq[1].asnumpy())


def test_custom_optimizer_from_the_base_class(mode):
    """MindSpore's documented subclass: ``group_start_id``, ``group['lr']`` and ``ops.assign``."""
    class MySGD(optim.Optimizer):
        def __init__(self, params, lr):
            super().__init__(params, dict(lr=lr))

        def construct(self, gradients):
            for group_id, group in enumerate(self.param_groups):
                start = self.group_start_id[group_id]
                for i, param in enumerate(group["params"]):
                    ops.assign(param, param + gradients[start + i] * group["lr"])
            return True

    w, b = _pair()
    w0, b0 = w.asnumpy().copy(), b.asnumpy().copy()
    opt = MySGD([w], 0.1)
    opt.add_param_group({"params": b, "lr": 0.5})
    g = _grads(0)
    opt(g)
    np.testing.assert_allclose(w.asnumpy(), w0 + 0.1 * g[0].asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), b0 + 0.5 * g[1].asnumpy(), rtol=1e-6)


# ----------------------------------------------------------------------------------- compiled use
def _train_steps(kind, steps=4):
    ms.set_seed(3)
    net = nn.Dense(3, 2)
    opt = optim.AdamW([{"params": [net.weight], "weight_decay": 0.1}, {"params": [net.bias], "lr": 0.05}],
                      lr=0.02, amsgrad=True)
    loss_fn = nn.MSELoss()
    x = Tensor(np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32))
    y = Tensor(np.random.default_rng(1).standard_normal((4, 2)).astype(np.float32))
    if kind == "cell":
        step_fn = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    else:
        grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, opt.parameters)

        def step_fn(a, b):
            loss, grads = grad_fn(a, b)
            opt(grads)
            return loss
        if kind == "jit":
            step_fn = ms.jit(step_fn)
    losses = []
    for step in range(steps):
        if step == 2:
            opt.param_groups[1]["lr"] = 0.001
            ops.assign(opt.param_groups[0]["lr"], Tensor(0.005, ms.float32))
        losses.append(float(step_fn(x, y).asnumpy()))
    return losses, [(n, p.asnumpy()) for n, p in opt.parameters_and_names()], step_fn


def test_compiled_train_steps_equal_eager_steps():
    """A GRAPH_MODE TrainOneStepCell and a jit train step give the eager numbers, traced once, lr changes seen."""
    want_losses, want, _ = _train_steps("eager")
    for kind in ("cell", "jit"):
        if kind == "cell":
            ms.set_context(mode=ms.GRAPH_MODE)
        losses, got, step_fn = _train_steps(kind)
        np.testing.assert_allclose(losses, want_losses, rtol=1e-6)
        for (n1, a), (n2, b) in zip(got, want):
            assert n1 == n2
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7, err_msg=f"{kind}: {n1}")
        if kind == "cell":
            assert len(step_fn._compiled) == 1
        else:
            assert step_fn.tracing_count() == 1
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert dict(want)["state_step"] == 4


def test_mirrored_strategy_training_equals_single_device(mirrored_strategy):
    """Under a two-replica MirroredStrategy the replicas stay equal and match one device (gradients_mean)."""
    ms.set_auto_parallel_context(gradients_mean=True)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((8, 2)).astype(np.float32)
    w0 = rng.standard_normal((2, 3)).astype(np.float32)

    def train(strategy):
        scope = strategy.scope() if strategy is not None else contextlib.nullcontext()
        with scope:
            net = nn.Dense(3, 2)
            net.weight.set_data(Tensor(w0))
            net.bias.set_data(Tensor(np.zeros(2, np.float32)))
            opt = optim.AdamW(net.trainable_params(), lr=0.05, amsgrad=True)
            step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        if strategy is None:
            for _ in range(3):
                step(Tensor(x), Tensor(y))
            return net, opt
        data = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(8))
        fn = step.compiled_construct()
        with strategy.scope():
            for _ in range(3):
                for a, b in data:
                    strategy.run(fn, args=(a, b))
        return net, opt

    try:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        dist_net, dist_opt = train(mirrored_strategy)
        replicas = [v.numpy() for v in dist_net.weight._var.values]
        np.testing.assert_allclose(replicas[0], replicas[1])
        single_net, single_opt = train(None)
        np.testing.assert_allclose(dist_net.weight.asnumpy(), single_net.weight.asnumpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(dist_opt.exp_avg_sq[0].asnumpy(), single_opt.exp_avg_sq[0].asnumpy(), rtol=1e-5,
                                   atol=1e-9)
        assert int(dist_opt.state_step.asnumpy()) == 3
    finally:
        ms.reset_auto_parallel_context()


def test_mindspore_alias_resolves_the_package():
    from tfspore import compat
    compat.unalias_mindspore()
    compat.alias_mindspore()
    try:
        import mindspore
        from mindspore.experimental import optim as aliased
        assert aliased is optim
        assert mindspore.experimental.optim.AdamW is optim.AdamW
    finally:
        compat.unalias_mindspore()


def test_adam_amsgrad_uses_the_running_maximum():
    """Adam's ``amsgrad=True`` follows its documentation: the update divides by sqrt(max(v)) (MindSpore 2.10
    ignores the flag; see docs/differences.md)."""
    b1, b2, eps, lr = 0.9, 0.5, 1e-8, 0.1
    w_ams, w_plain = _p(), _p()
    w0 = w_ams.asnumpy().astype(np.float64)
    ams = optim.Adam([w_ams], lr=lr, betas=(b1, b2), amsgrad=True)
    plain = optim.Adam([w_plain], lr=lr, betas=(b1, b2))
    # a large first gradient then small ones: max(v) stays above v
    grads = [np.full((2, 3), 3.0 if s == 0 else 0.1, np.float32) for s in range(4)]
    c1, c2 = float(np.float32(1) - np.float32(b1)), float(np.float32(1) - np.float32(b2))  # float32 as the kernel
    w, m, v, vmax = w0.copy(), np.zeros_like(w0), np.zeros_like(w0), np.zeros_like(w0)
    for t, g in enumerate(grads, 1):
        ams((Tensor(g),))
        plain((Tensor(g),))
        m += (g - m) * c1
        v += (g * g - v) * c2
        vmax = np.maximum(vmax, v)
        bc1, bc2 = (float(np.float32(1) - np.float32(b) ** np.float32(t)) for b in (b1, b2))
        w -= lr * np.sqrt(bc2) / bc1 * m / (np.sqrt(vmax) + eps)
    np.testing.assert_allclose(w_ams.asnumpy(), w, rtol=1e-5)
    np.testing.assert_allclose(ams.max_exp_avg_sq[0].asnumpy(), vmax, rtol=1e-5)
    assert not np.allclose(w_plain.asnumpy(), w, rtol=1e-4)
    assert np.all(plain.max_exp_avg_sq[0].asnumpy() == 0)


def test_group_lr_set_to_a_non_scalar_tensor_is_rejected():
    opt = optim.AdamW([_p()], lr=0.1)
    with pytest.raises(ValueError, match=r"a group's 'lr' must be a number or a scalar Tensor, but got a Tensor of "
                                         r"shape \(2,\)"):
        opt.param_groups[0]["lr"] = Tensor(np.array([0.1, 0.2], np.float32))
    np.testing.assert_allclose(opt.lrs[0].asnumpy(), 0.1, rtol=1e-7)
    assert opt.param_groups[0]["lr"] is opt.lrs[0]

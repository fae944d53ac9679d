"""Loss scaling: parity of tfspore with real MindSpore 2.10.

Compared step by step with MindSpore on CPU:

* ``nn.DynamicLossScaleUpdateCell`` called directly (scale, ``current_iterator_step``,
  ``last_overflow_iterator_step``; tfspore in both modes, MindSpore in PYNATIVE_MODE) and
  ``DynamicLossScaleManager.update_loss_scale`` over injected overflow patterns;
  ``FixedLossScaleManager``; the managers' and loss scalers' errors;
* the functional ``amp.DynamicLossScaler`` / ``StaticLossScaler`` and ``amp.all_finite``;
* ``nn.TrainOneStepWithLossScaleCell`` over 5 steps with an inf input at step 3 (losses,
  overflow flag, scale, weights and optimizer state after every step, both frameworks in the
  same mode). MindSpore's CPU build cannot run that cell as shipped: its overflow check falls
  through to Ascend's ``NPUGetFloatStatusV2`` (and GPU's ``FloatStatus`` has no CPU kernel
  either). The reference is therefore a subclass that replaces only ``get_overflow_status`` with
  MindSpore's own inf/NaN path (``_get_distributed_overflow_status_on_infnan_mode`` with
  ``IsFinite``, its Ascend "INFNAN_MODE" check); gradient scaling and unscaling, the update cell
  and the skipped optimizer step are MindSpore's code;
* ``FixedLossScaleManager(drop_overflow_update=False)`` through MindSpore's own
  ``amp.build_train_network`` (a ``TrainOneStepCell`` with ``sens=loss_scale``, which CPU runs);
* the optimizers' ``loss_scale`` argument (gradients divided by it) for every optimizer that has it.
"""
import re

import numpy as np
import pytest

import tfspore as ts
from tfspore import amp as ts_amp
from tfspore import nn as tnn

ms = pytest.importorskip("mindspore")
from mindspore import amp as ms_amp  # noqa: E402
from mindspore import nn as mnn  # noqa: E402
from mindspore.nn.wrap.loss_scale import _ascend_grad_overflow  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore  # noqa: E402,F401  (autouse fixture)

RTOL = 1e-5
ATOL = 1e-6


class _MsLossScaleCell(mnn.TrainOneStepWithLossScaleCell):
    """MindSpore's cell with its IsFinite overflow check (the shipped CPU path needs an Ascend kernel)."""

    def get_overflow_status(self, status, compute_output):
        return self._get_distributed_overflow_status_on_infnan_mode(_ascend_grad_overflow, compute_output)


# ----------------------------------------------------------------- update cell and managers
OVERFLOWS = [False, False, False, True, False, False, True, True, False, False, False, False, False, True, False]


@pytest.mark.parametrize("init, factor, window", [(2.0 ** 10, 2, 3), (4.0, 2, 1), (3.0, 3, 2)])
def test_dynamic_update_cell_sequence(mode, init, factor, window):
    ms_cell = mnn.DynamicLossScaleUpdateCell(init, factor, window)
    ms_scale = ms.Parameter(ms.Tensor(init, ms.float32), name="s")
    ts_cell = tnn.DynamicLossScaleUpdateCell(init, factor, window)
    ts_scale = ts.Parameter(ts.Tensor(init, ts.float32), name="s")
    assert ts_cell.get_loss_scale() == ms_cell.get_loss_scale()
    assert [p.name for p in ts_cell.get_parameters()] == [p.name for p in ms_cell.get_parameters()]
    pattern = OVERFLOWS + [True] * 14  # the last ones push the scale down to its minimum of 1
    for step, overflow in enumerate(pattern):
        want = ms_cell(ms_scale, ms.Tensor(overflow))
        got = ts_cell(ts_scale, ts.Tensor(overflow))
        assert bool(got.asnumpy()) == bool(want.asnumpy()) == overflow
        for a, b in ((ts_scale, ms_scale), (ts_cell.cur_iter, ms_cell.cur_iter),
                     (ts_cell.last_overflow_iter, ms_cell.last_overflow_iter)):
            assert a.asnumpy().dtype == b.asnumpy().dtype
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy(), err_msg=f"step {step}: {b.name}")
    assert float(ts_scale.asnumpy()) == 1.0


@pytest.mark.parametrize("init, factor, window", [(2 ** 24, 2, 2000), (2.0 ** 10, 2, 3), (8, 4, 1), (2, 2, 2)])
def test_dynamic_manager_sequence(init, factor, window):
    want = ms_amp.DynamicLossScaleManager(init, factor, window)
    got = ts.DynamicLossScaleManager(init, factor, window)
    pattern = OVERFLOWS + [False] * 6 + [True] * 3
    for step, overflow in enumerate(pattern):
        got.update_loss_scale(overflow)
        want.update_loss_scale(overflow)
        state = ("loss_scale", "cur_iter", "last_overflow_iter", "bad_step")
        assert [getattr(got, k) for k in state] == [getattr(want, k) for k in state], f"step {step}"
        assert type(got.get_loss_scale()) is type(want.get_loss_scale())
    assert got.get_drop_overflow_update() is want.get_drop_overflow_update() is True
    got_cell, want_cell = got.get_update_cell(), want.get_update_cell()
    assert type(got_cell).__name__ == type(want_cell).__name__ == "DynamicLossScaleUpdateCell"
    assert got_cell.get_loss_scale() == want_cell.get_loss_scale() == want.get_loss_scale()
    assert float(got_cell.scale_factor.asnumpy()) == float(want_cell.scale_factor.asnumpy())
    assert int(got_cell.scale_window.asnumpy()) == int(want_cell.scale_window.asnumpy())
    assert got.get_update_cell() is not got_cell  # a new cell per call


def test_dynamic_manager_continuous_overflow_limit():
    got, want = ts.DynamicLossScaleManager(2.0, 2, 5), ms_amp.DynamicLossScaleManager(2.0, 2, 5)
    for mgr in (got, want):
        for _ in range(1000):
            mgr.update_loss_scale(True)
    with pytest.raises(RuntimeError) as e_got:
        got.update_loss_scale(True)
    with pytest.raises(RuntimeError) as e_want:
        want.update_loss_scale(True)
    assert e_got.value.args == e_want.value.args
    assert (got.loss_scale, got.bad_step, got.cur_iter) == (want.loss_scale, want.bad_step, want.cur_iter)


@pytest.mark.parametrize("loss_scale, drop", [(128.0, True), (1024, False), (1.0, True)])
def test_fixed_manager(loss_scale, drop):
    got, want = ts.FixedLossScaleManager(loss_scale, drop), ms_amp.FixedLossScaleManager(loss_scale, drop)
    for overflow in (True, False, True):
        got.update_loss_scale(overflow)
        want.update_loss_scale(overflow)
    assert got.get_loss_scale() == want.get_loss_scale() == loss_scale
    assert got.get_drop_overflow_update() is want.get_drop_overflow_update() is drop
    got_cell, want_cell = got.get_update_cell(), want.get_update_cell()
    if drop:
        assert type(got_cell).__name__ == type(want_cell).__name__ == "FixedLossScaleUpdateCell"
        assert got_cell.get_loss_scale() == want_cell.get_loss_scale() == loss_scale
        flag = got_cell(ts.Parameter(ts.Tensor(loss_scale, ts.float32), name="s"), ts.Tensor(True))
        assert bool(flag.asnumpy()) is bool(want_cell(ms.Parameter(ms.Tensor(loss_scale, ms.float32), name="s"),
                                                      ms.Tensor(True)).asnumpy()) is True
    else:
        assert got_cell is None and want_cell is None


@pytest.mark.parametrize("build", [
    lambda m: m.DynamicLossScaleManager(init_loss_scale=0.5),
    lambda m: m.DynamicLossScaleManager(scale_window=0),
    lambda m: m.DynamicLossScaleManager(scale_window=-3),
    lambda m: m.DynamicLossScaleManager(scale_window=1.5),
    lambda m: m.DynamicLossScaleManager(scale_window=True),
    lambda m: m.DynamicLossScaleManager(scale_factor=0),
    lambda m: m.FixedLossScaleManager(0.5),
    lambda m: m.amp.DynamicLossScaler(0.5, 2, 2),
    lambda m: m.amp.DynamicLossScaler(4, 2.0, 2),
    lambda m: m.amp.DynamicLossScaler(4, 2, 0),
    lambda m: m.amp.DynamicLossScaler(4, True, 2),
    lambda m: m.amp.StaticLossScaler("8"),
    lambda m: m.amp.StaticLossScaler(True),
], ids=["init<1", "window0", "window<0", "window-float", "window-bool", "factor0", "fixed<1", "scaler<1",
        "scaler-factor-float", "scaler-window0", "scaler-factor-bool", "static-str", "static-bool"])
def test_manager_errors(build):
    """MindSpore's exception type; MindSpore's text, or tfspore's one validator template naming the
    same API and argument as MindSpore's message."""
    with pytest.raises(Exception) as e_want:
        build(ms)
    with pytest.raises(type(e_want.value)) as e_got:
        build(ts)
    want, got = str(e_want.value), str(e_got.value)
    template = re.match(r"For '([\w.]+)', the '(\w+)' must be .+, but got .+\.$", got)
    if template and want.rstrip(".") not in got:
        named = want.startswith(f"For '{template.group(1)}', the '{template.group(2)}' ")
        # MindSpore's generic validator names only the argument ("The 'scale_window' must be int ...")
        assert named or want.startswith(f"The '{template.group(2)}' "), (want, got)
    else:
        assert want.rstrip(".") in got


# ----------------------------------------------------------------- functional loss scalers
@pytest.mark.parametrize("init, factor, window", [(2 ** 10, 2, 3), (2.0 ** 127, 2, 1), (1, 2, 2), (6.0, 3, 2)])
def test_dynamic_loss_scaler_sequence(init, factor, window):
    got, want = ts_amp.DynamicLossScaler(init, factor, window), ms_amp.DynamicLossScaler(init, factor, window)
    assert (got.scale_value.name, got.counter.name) == (want.scale_value.name, want.counter.name)
    pattern = [not o for o in OVERFLOWS] + [True] * 4
    for step, finite in enumerate(pattern):
        assert got.adjust(ts.Tensor(finite)) is want.adjust(ms.Tensor(finite)) is True
        np.testing.assert_array_equal(got.scale_value.asnumpy(), want.scale_value.asnumpy(), err_msg=f"step {step}")
        np.testing.assert_array_equal(got.counter.asnumpy(), want.counter.asnumpy(), err_msg=f"step {step}")
        assert got.counter.asnumpy().dtype == want.counter.asnumpy().dtype


@pytest.mark.parametrize("cls", ["StaticLossScaler", "DynamicLossScaler"])
def test_loss_scaler_scale_unscale(cls):
    args = (2.0 ** 10,) if cls == "StaticLossScaler" else (2 ** 10, 2, 5)
    got, want = getattr(ts_amp, cls)(*args), getattr(ms_amp, cls)(*args)
    x16 = [np.array([1.5, 1.0, -3.25], np.float16), np.array([1.2], np.float16)]
    x32 = np.array([[0.3, -7.0], [1e-3, 2.5]], np.float32)
    ts16, ms16 = tuple(ts.Tensor(a) for a in x16), tuple(ms.Tensor(a) for a in x16)
    for g_out, w_out in ((got.unscale(ts16), want.unscale(ms16)), (got.scale(ts16), want.scale(ms16))):
        assert isinstance(g_out, tuple) and len(g_out) == len(w_out)
        for a, b in zip(g_out, w_out):
            assert a.asnumpy().dtype == b.asnumpy().dtype == np.float16
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    np.testing.assert_allclose(got.scale(ts.Tensor(x32)).asnumpy(), want.scale(ms.Tensor(x32)).asnumpy(), rtol=RTOL)
    np.testing.assert_allclose(got.unscale(ts.Tensor(x32)).asnumpy(), want.unscale(ms.Tensor(x32)).asnumpy(),
                               rtol=RTOL)
    if cls == "StaticLossScaler":
        assert got.adjust(ts.Tensor(False)) is want.adjust(ms.Tensor(False)) is False
        np.testing.assert_array_equal(got.scale_value.asnumpy(), want.scale_value.asnumpy())


@pytest.mark.parametrize("arrays", [
    [np.array([np.nan, 1.0, -np.inf]), np.array([1.0])],
    [np.array([1.0, 2.0], np.float32), np.array([[3.0]], np.float16)],
    [np.array([1.0, np.inf], np.float32)],
    [np.array([65504.0, -1.0], np.float16), np.array([np.nan], np.float16)],
], ids=["nan-and-inf", "finite", "inf", "fp16-nan"])
def test_all_finite(arrays):
    with np.errstate(divide="ignore", invalid="ignore"):
        want = ms_amp.all_finite(tuple(ms.Tensor(a) for a in arrays))
        got = ts_amp.all_finite(tuple(ts.Tensor(a) for a in arrays))
    assert got.asnumpy().dtype == np.bool_ and got.shape == ()
    assert bool(got.asnumpy()) is bool(want.asnumpy())


# ----------------------------------------------------------------- TrainOneStepWithLossScaleCell
_W = np.array([[0.2, -0.1, 0.4], [0.3, 0.05, -0.2]], np.float32)
_B = np.array([0.1, -0.3], np.float32)
STEPS = 5
INF_STEP = 2  # the third step sees an inf input


def _batches():
    rng = np.random.default_rng(3)
    xs = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(STEPS)]
    xs[INF_STEP][1, 2] = np.inf
    ys = [rng.standard_normal((4, 2)).astype(np.float32) for _ in range(STEPS)]
    return xs, ys


_SCALE_SENSES = {
    "tensor_scalar": lambda fw, nn, amp: fw.Tensor(np.float32(1024.0)),
    "tensor_1": lambda fw, nn, amp: fw.Tensor(np.array([64.0], np.float32)),
    "dynamic_cell": lambda fw, nn, amp: nn.DynamicLossScaleUpdateCell(2.0 ** 12, 2, 2),
    "dynamic_manager": lambda fw, nn, amp: amp.DynamicLossScaleManager(2 ** 8, 4, 1).get_update_cell(),
    "fixed_manager": lambda fw, nn, amp: amp.FixedLossScaleManager(128.0, True).get_update_cell(),
}


def _run_loss_scale(fw, nn, amp, cell_cls, kind, steps=None):
    net = nn.Dense(3, 2)
    net.weight.set_data(fw.Tensor(_W.copy()))
    net.bias.set_data(fw.Tensor(_B.copy()))
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    train = cell_cls(nn.WithLossCell(net, nn.MSELoss()), opt, _SCALE_SENSES[kind](fw, nn, amp))
    train.set_train()
    history = []
    xs, ys = _batches()
    for x, y in list(zip(xs, ys))[:steps]:
        loss, overflow, scale = train(fw.Tensor(x), fw.Tensor(y))
        state = {p.name: p.asnumpy().copy() for p in train.get_parameters()}
        history.append((float(loss.asnumpy()), bool(overflow.asnumpy()), np.asarray(scale.asnumpy()).copy(), state))
    return history


@pytest.mark.parametrize("kind", list(_SCALE_SENSES))
def test_train_one_step_with_loss_scale(mode, kind):
    """Both frameworks in the same mode; the returned scale is the value after the step's update in both."""
    ms.set_context(mode=ms.GRAPH_MODE if mode == ts.GRAPH_MODE else ms.PYNATIVE_MODE)
    want = _run_loss_scale(ms, mnn, ms_amp, _MsLossScaleCell, kind)
    got = _run_loss_scale(ts, tnn, ts_amp, tnn.TrainOneStepWithLossScaleCell, kind)
    for step, ((gl, go, gs, gstate), (wl, wo, ws, wstate)) in enumerate(zip(got, want)):
        assert go is wo is (step == INF_STEP), f"step {step}"
        if step == INF_STEP:
            assert np.isinf(gl) and np.isinf(wl)
        else:
            np.testing.assert_allclose(gl, wl, rtol=RTOL, err_msg=f"step {step}")
        assert gs.shape == ws.shape and gs.dtype == ws.dtype
        np.testing.assert_array_equal(gs, ws, err_msg=f"step {step}")
        assert list(gstate) == list(wstate)
        for name in wstate:
            np.testing.assert_allclose(gstate[name], wstate[name], rtol=RTOL, atol=ATOL,
                                       err_msg=f"step {step}: {name}")
    # the inf step changed nothing but the scale: no weight, moment or global_step update
    before, during = want[INF_STEP - 1][3], want[INF_STEP][3]
    assert int(during["global_step"][0]) == int(before["global_step"][0]) == INF_STEP
    np.testing.assert_array_equal(during["weight"], before["weight"])
    if kind.startswith("dynamic"):
        assert float(got[INF_STEP][2]) < float(got[INF_STEP - 1][2])


def test_fixed_manager_without_drop_overflow_update():
    """FixedLossScaleManager(drop_overflow_update=False): a TrainOneStepCell whose sens is the scale, the
    optimizer dividing by its own loss_scale; an inf step is not skipped."""
    mgr_ms, mgr_ts = ms_amp.FixedLossScaleManager(128.0, False), ts.FixedLossScaleManager(128.0, False)
    results = []
    for fw, nn, mgr in ((ms, mnn, mgr_ms), (ts, tnn, mgr_ts)):
        net = nn.Dense(3, 2)
        net.weight.set_data(fw.Tensor(_W.copy()))
        net.bias.set_data(fw.Tensor(_B.copy()))
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=mgr.get_loss_scale())
        if fw is ms:
            train = ms_amp.build_train_network(net, opt, mnn.MSELoss(), level="O0", loss_scale_manager=mgr)
            assert type(train).__name__ == "TrainOneStepCell"
        else:
            assert mgr.get_update_cell() is None
            train = tnn.TrainOneStepCell(tnn.WithLossCell(net, tnn.MSELoss()), opt,
                                         sens=mgr.get_loss_scale()).set_train()
        xs, ys = _batches()
        steps = []
        for x, y in zip(xs[:INF_STEP], ys[:INF_STEP]):
            loss = train(fw.Tensor(x), fw.Tensor(y))
            steps.append((float(loss.asnumpy()), net.weight.asnumpy().copy(), int(opt.global_step.asnumpy()[0])))
        train(fw.Tensor(xs[INF_STEP]), fw.Tensor(ys[INF_STEP]))
        steps.append((None, net.weight.asnumpy().copy(), int(opt.global_step.asnumpy()[0])))
        results.append(steps)
    for (wl, ww, wg), (gl, gw, gg) in zip(*results):
        assert gg == wg
        if wl is not None:
            np.testing.assert_allclose(gl, wl, rtol=RTOL)
        np.testing.assert_allclose(gw, ww, rtol=RTOL, atol=ATOL, equal_nan=True)
    assert results[0][-1][2] == INF_STEP + 1  # the overflowed step ran the optimizer
    assert not np.isfinite(results[1][-1][1]).all()


# ----------------------------------------------------------------- optimizer loss_scale
_OPTIMIZERS = {
    "Momentum": lambda nn, p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.01, loss_scale=8.0),
    "SGD": lambda nn, p: nn.SGD(p, 0.1, momentum=0.5, weight_decay=0.01, loss_scale=8.0),
    "Adam": lambda nn, p: nn.Adam(p, 0.01, weight_decay=0.01, loss_scale=8.0),
    "LazyAdam": lambda nn, p: nn.LazyAdam(p, 0.01, weight_decay=0.01, loss_scale=8.0),
    "Adagrad": lambda nn, p: nn.Adagrad(p, accum=0.1, learning_rate=0.05, weight_decay=0.01, loss_scale=8.0),
    "ProximalAdagrad": lambda nn, p: nn.ProximalAdagrad(p, 0.1, 0.05, 0.01, 0.02, weight_decay=0.01,
                                                        loss_scale=8.0),
    "Adadelta": lambda nn, p: nn.Adadelta(p, 0.5, 0.8, 1e-4, loss_scale=8.0, weight_decay=0.01),
    "AdaMax": lambda nn, p: nn.AdaMax(p, 0.01, weight_decay=0.01, loss_scale=8.0),
    "FTRL": lambda nn, p: nn.FTRL(p, learning_rate=0.05, l2=0.01, loss_scale=8.0, weight_decay=0.01),
    "RMSProp": lambda nn, p: nn.RMSProp(p, 0.01, momentum=0.5, weight_decay=0.01, loss_scale=8.0),
}


@pytest.mark.parametrize("name", list(_OPTIMIZERS))
def test_optimizer_loss_scale_divides_gradients(name):
    rng = np.random.default_rng(5)
    w0 = [(rng.standard_normal(s) * 0.5).astype(np.float32) for s in ((3, 4), (4,))]
    grads = [[(rng.standard_normal(w.shape) * 0.3 * 8.0).astype(np.float32) for w in w0] for _ in range(3)]
    out = []
    for fw, nn in ((ts, tnn), (ms, mnn)):
        params = [fw.Parameter(fw.Tensor(w.copy()), name=n) for w, n in zip(w0, ("fc.weight", "fc.bias"))]
        opt = _OPTIMIZERS[name](nn, params)
        assert opt.loss_scale == 8.0 and opt.need_scale
        hist = []
        for g in grads:
            opt(tuple(fw.Tensor(a) for a in g))
            hist.append([p.asnumpy().copy() for p in opt.get_parameters()])
        out.append(hist)
    for step, (got, want) in enumerate(zip(*out)):
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=f"{name} step {step}")

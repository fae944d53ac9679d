"""Callback parity: the same fake training loop drives real MindSpore 2.10's callbacks and tfspore's.

MindSpore's dataset module does not load under numpy 2, so no MindSpore Model runs here: the loop in
tests/train/callback_loop.py reproduces Model's call order and cb_params with MindSpore's own
RunContext, _InternalCallbackParam and _CallbackManager, and the outputs are compared: printed
lines, checkpoint file names, histories, error messages.
"""
import contextlib
import io
import os
import re
import sys

import numpy as np
import pytest

mindspore = pytest.importorskip("mindspore")
ms_cb = pytest.importorskip("mindspore.train.callback")

import tfspore as ts  # noqa: E402
from tfspore.train import callback as ts_cb  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "train"))
from callback_loop import fake_train, loss_steps, mindspore_api, model_eval, tfspore_api  # noqa: E402

MS, TS = mindspore_api(), tfspore_api()
LOSSES = [1.3855382204055786, 1.5140371322631836, 1.4326097965240479]
TIME = re.compile(r"\d+\.\d{3} ms")
VALIDATOR_MESSAGE = re.compile(r"^For '(\w+)', the '(\w+)' must be .+, but got .+\.$")


def _run(side, make_callbacks, *args, **kwargs):
    """Run the fake loop on one side; return (printed lines with times masked, cb_params)."""
    api, mod = (MS, ms_cb) if side == "ms" else (TS, ts_cb)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cb = fake_train(api, make_callbacks(mod), *args, **kwargs)
    return [TIME.sub("<t> ms", line) for line in out.getvalue().splitlines()], cb


def _both(make_callbacks, epoch, steps, losses=LOSSES, **kwargs):
    ms_lines, _ = _run("ms", make_callbacks, epoch, steps, loss_steps(MS, losses), **kwargs)
    ts_lines, _ = _run("ts", make_callbacks, epoch, steps, loss_steps(TS, losses), **kwargs)
    return ms_lines, ts_lines


@pytest.mark.parametrize("per_print, initial_epoch", [(1, 0), (2, 0), (2, 1), (0, 0), (4, 0)])
def test_loss_monitor_lines(per_print, initial_epoch):
    ms_lines, ts_lines = _both(lambda m: [m.LossMonitor(per_print)], 3, 3, initial_epoch=initial_epoch)
    assert ts_lines == ms_lines


def test_loss_monitor_tuple_output_and_fit_metrics():
    def tuple_step(api):
        return lambda cb: (api.Tensor(np.array(LOSSES[cb.cur_step_num % 3], np.float32)), api.Tensor(False))
    valid = {"steps": 2, "frequency": 2, "metrics": {"acc": 1 / 3, "loss": 1.0457732677459717}}
    ms_lines, _ = _run("ms", lambda m: [m.LossMonitor()], 2, 3, tuple_step(MS), valid=valid)
    ts_lines, _ = _run("ts", lambda m: [m.LossMonitor()], 2, 3, tuple_step(TS), valid=valid)
    assert ts_lines == ms_lines
    assert "Eval result: epoch 2, metrics: {'acc': 0.3333333333333333, 'loss': 1.0457732677459717}" in ts_lines


def test_loss_monitor_nan_message():
    msgs = []
    for api, mod in ((MS, ms_cb), (TS, ts_cb)):
        with pytest.raises(ValueError) as err:
            fake_train(api, [mod.LossMonitor()], 2, 3, loss_steps(api, [1.0, 1.0, 1.0, float("nan")]))
        msgs.append(str(err.value))
    assert msgs[0] == msgs[1] == ("In epoch: 2 step: 1, loss is NAN or INF, training process cannot continue, "
                                  "terminating training.")


def test_loss_monitor_in_eval():
    lines = []
    for api, mod in ((MS, ms_cb), (TS, ts_cb)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            model_eval(api, [mod.LossMonitor(), mod.TimeMonitor()], 2,
                       lambda cb, a=api: a.Tensor(np.float32(0.5)), {"acc": 1.0})
        lines.append([TIME.sub("<t> ms", line) for line in out.getvalue().splitlines()])
    assert lines[1] == lines[0] == ["epoch: 1 step: 1, loss is 0.5", "epoch: 1 step: 2, loss is 0.5",
                                    "Eval epoch time: <t> ms, per step time: <t> ms"]


@pytest.mark.parametrize("data_time", [False, True])
def test_time_monitor_lines_in_fit(data_time):
    valid = {"steps": 2, "metrics": {"acc": 0.5}}
    ms_lines, ts_lines = _both(lambda m: [m.TimeMonitor(data_time=data_time), m.LossMonitor(3)], 2, 3, valid=valid)
    assert ts_lines == ms_lines and len(ts_lines) == 8


def test_history_and_lambda_filtering():
    seen = {"ms": [], "ts": []}
    results = {}
    for side in ("ms", "ts"):
        holder = {}

        def make(m, side=side, holder=holder):
            holder["h"] = m.History()
            return [holder["h"], m.LambdaCallback(on_eval_end=lambda rc: seen[side].append("eval_end"),
                                                  on_train_epoch_end=lambda rc: seen[side].append("epoch_end"))]
        _run(side, make, 2, 3, loss_steps(MS if side == "ms" else TS, LOSSES),
             valid={"steps": 1, "metrics": {"acc": 0.5}})
        results[side] = (holder["h"].epoch, holder["h"].history)
    assert results["ts"][0] == results["ms"][0] == {"epoch": [1, 2]}
    assert results["ts"][1]["acc"] == results["ms"][1]["acc"]
    np.testing.assert_array_equal(results["ts"][1]["net_output"], results["ms"][1]["net_output"])
    assert type(results["ts"][1]["net_output"][0]) is type(results["ms"][1]["net_output"][0])
    assert seen["ts"] == seen["ms"] == ["epoch_end", "epoch_end"]


def test_learning_rate_scheduler_calls():
    calls = {}
    for side, api, mod, nn in (("ms", MS, ms_cb, mindspore.nn), ("ts", TS, ts_cb, ts.nn)):
        net = nn.Dense(4, 3)
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        calls[side] = []

        def fn(lr, step, rec=calls[side]):
            rec.append((lr, step))
            return lr * 0.5 if step % 2 == 0 else lr
        fake_train(api, [mod.LearningRateScheduler(fn)], 1, 5, loss_steps(api, LOSSES), optimizer=opt)
        calls[side].append(float(opt.learning_rate.asnumpy()))
    assert calls["ts"] == calls["ms"]


# ------------------------------------------------------------------------------- checkpoints
def _ckpt_names(side, tmp_path, prefix, config_kwargs, epoch=3, steps=3, initial_epoch=0, directory=None):
    mod, api, nn = (ms_cb, MS, mindspore.nn) if side == "ms" else (ts_cb, TS, ts.nn)
    d = tmp_path / side
    d.mkdir(exist_ok=True)
    names = []

    class Probe(mod.Callback):
        def on_train_step_end(self, run_context):
            names.append(sorted(os.listdir(d)))
    config = mod.CheckpointConfig(**config_kwargs) if config_kwargs is not None else None
    ck = mod.ModelCheckpoint(prefix, str(d) if directory is None else directory(d), config)
    fake_train(api, [ck, Probe()], epoch, steps, loss_steps(api, LOSSES), initial_epoch=initial_epoch,
               train_network=nn.Dense(4, 3))
    names.append(sorted(os.listdir(d)))
    return names, ck


@pytest.mark.parametrize("prefix, config_kwargs, initial_epoch", [
    ("net", {"save_checkpoint_steps": 2, "keep_checkpoint_max": 3}, 0),
    ("CKP", None, 0),
    ("s4", {"save_checkpoint_steps": 4, "keep_checkpoint_max": 10}, 0),
    ("sec", {"save_checkpoint_steps": None, "save_checkpoint_seconds": 100}, 0),
    ("ie", {"save_checkpoint_steps": 3}, 2),
    ("pm", {"keep_checkpoint_max": None, "keep_checkpoint_per_n_minutes": 1}, 0),
])
def test_checkpoint_file_names_per_step(tmp_path, prefix, config_kwargs, initial_epoch):
    epoch = 4 if initial_epoch else 3
    ms_names, ms_ck = _ckpt_names("ms", tmp_path, prefix, config_kwargs, epoch=epoch, initial_epoch=initial_epoch)
    ts_names, ts_ck = _ckpt_names("ts", tmp_path, prefix, config_kwargs, epoch=epoch, initial_epoch=initial_epoch)
    assert ts_names == ms_names
    assert os.path.basename(ts_ck.latest_ckpt_file_name) == os.path.basename(ms_ck.latest_ckpt_file_name)


def test_checkpoint_callable_prefix_and_dedup(tmp_path):
    def prefix(cb):
        return f"cp_e{cb.cur_epoch_num}_s{cb.cur_step_num}"
    ms_names, _ = _ckpt_names("ms", tmp_path, prefix, {"save_checkpoint_steps": 3}, epoch=2)
    ts_names, _ = _ckpt_names("ts", tmp_path, prefix, {"save_checkpoint_steps": 3}, epoch=2)
    assert ts_names == ms_names
    for side, mod in (("ms", ms_cb), ("ts", ts_cb)):
        d = tmp_path / f"dedup_{side}"
        d.mkdir()
        (d / "net-1_3.ckpt").write_bytes(b"")
        first = mod.ModelCheckpoint("net", str(d))._prefix
        (d / "net_1-1_3.ckpt").write_bytes(b"")
        assert (first, mod.ModelCheckpoint("net", str(d))._prefix) == ("net_1", "net_2")


def test_checkpoint_append_info_entries(tmp_path):
    keys = {}
    for side, mod, api, nn, load in (("ms", ms_cb, MS, mindspore.nn, mindspore.load_checkpoint),
                                     ("ts", ts_cb, TS, ts.nn, ts.load_checkpoint)):
        d = tmp_path / side
        cfg = mod.CheckpointConfig(save_checkpoint_steps=3, append_info=["epoch_num", "step_num", {"tag": "hi"}])
        fake_train(api, [mod.ModelCheckpoint("a", str(d), cfg)], 4, 3, loss_steps(api, LOSSES), initial_epoch=2,
                   train_network=nn.Dense(4, 3))
        params = load(str(d / "a-4_3.ckpt"))
        keys[side] = (list(params), int(params["epoch_num"].asnumpy()), int(params["step_num"].asnumpy()),
                      str(params["tag"]))
    assert keys["ts"] == keys["ms"] == (["weight", "bias", "epoch_num", "step_num", "tag"], 4, 6, "hi")


def test_checkpoint_config_policies_and_defaults():
    cases = [{}, {"save_checkpoint_steps": 2, "keep_checkpoint_max": 3},
             {"save_checkpoint_steps": 0, "save_checkpoint_seconds": 10},
             {"keep_checkpoint_max": 0, "keep_checkpoint_per_n_minutes": 0, "save_checkpoint_steps": 5},
             {"save_checkpoint_seconds": 10}]
    for kwargs in cases:
        assert ts_cb.CheckpointConfig(**kwargs).get_checkpoint_policy() == \
            ms_cb.CheckpointConfig(**kwargs).get_checkpoint_policy()
    props = ("integrated_save", "async_save", "enc_key", "enc_mode", "crc_check", "format", "append_dict",
             "exception_save")
    m, t = ms_cb.CheckpointConfig(append_info=["step_num", {"lr": 0.5}]), \
        ts_cb.CheckpointConfig(append_info=["step_num", {"lr": 0.5}])
    assert [getattr(t, p) for p in props] == [getattr(m, p) for p in props]


@pytest.mark.parametrize("make", [
    lambda m: m.CheckpointConfig(save_checkpoint_steps=-1),
    lambda m: m.CheckpointConfig(keep_checkpoint_max=1.5),
    lambda m: m.CheckpointConfig(save_checkpoint_seconds=True),
    lambda m: m.CheckpointConfig(integrated_save=1),
    lambda m: m.CheckpointConfig(async_save=1),
    lambda m: m.CheckpointConfig(async_save="proc"),
    lambda m: m.CheckpointConfig(saved_network="net"),
    lambda m: m.CheckpointConfig(enc_key="str"),
    lambda m: m.CheckpointConfig(enc_mode=1),
    lambda m: m.CheckpointConfig(crc_check=1),
    lambda m: m.CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0),
    lambda m: m.CheckpointConfig(append_info="epoch_num"),
    lambda m: m.CheckpointConfig(append_info=["foo"]),
    lambda m: m.CheckpointConfig(append_info=[1]),
    lambda m: m.CheckpointConfig(append_info=[{}, {}]),
    lambda m: m.CheckpointConfig(append_info=[{"a": [1]}]),
    lambda m: m.CheckpointConfig(format="safetensors", crc_check=True),
    lambda m: m.ModelCheckpoint("a/b"),
    lambda m: m.ModelCheckpoint("p", "/tmp", {}),
    lambda m: m.LossMonitor(-1),
    lambda m: m.LossMonitor(1.5),
    lambda m: m.LossMonitor(True),
    lambda m: m.TimeMonitor(data_time=1),
    lambda m: m.EarlyStopping(mode="best"),
    lambda m: m.EarlyStopping(patience=-1),
    lambda m: m.ReduceLROnPlateau(factor=1.5),
    lambda m: m.RunContext([1]),
    lambda m: m.OnRequestExit(save_ckpt=1),
])
def test_error_types_and_messages(make):
    with pytest.raises(Exception) as ms_err:
        make(ms_cb)
    with pytest.raises(Exception) as ts_err:
        make(ts_cb)
    assert type(ts_err.value) is type(ms_err.value)
    ms_msg, ts_msg = str(ms_err.value), str(ts_err.value)
    ms_msg = ms_msg.replace("{dict_num}", "2")  # MindSpore forgets the f-string prefix there
    # tfspore keeps MindSpore's text and adds the value where MindSpore leaves it out, except where
    # MindSpore's generic validator names neither the API nor the argument ("The input value must be
    # int ..."): there tfspore's validator names both, in its one template.
    template = VALIDATOR_MESSAGE.match(ts_msg)
    if template:
        assert hasattr(ts_cb, template.group(1)), ts_msg
        assert template.group(2) in ms_msg or "input value" in ms_msg, (ms_msg, ts_msg)
    else:
        assert ts_msg == ms_msg or ts_msg.startswith(ms_msg.rstrip(".")), (ms_msg, ts_msg)


def test_old_name_check_message():
    class Spy(ms_cb.Callback):
        def step_end(self, run_context):
            pass

    class TsSpy(ts_cb.Callback):
        def step_end(self, run_context):
            pass
    TsSpy.__name__ = "Spy"
    with pytest.raises(ValueError) as ms_err:
        mindspore.train.Model._check_methods_for_custom_callbacks([Spy()], "fit")
    with pytest.raises(ValueError) as ts_err:
        ts_cb._callback._check_old_style_callbacks([TsSpy()], fit=True)
    assert str(ts_err.value) == str(ms_err.value)


def test_run_context_and_cb_params():
    for mod, param in ((ms_cb, ms_cb._InternalCallbackParam), (ts_cb, ts_cb._InternalCallbackParam)):
        cb = param()
        cb.x = 1
        with pytest.raises(KeyError):
            hasattr(cb, "y")
        rc = mod.RunContext(cb)
        assert rc.original_args() is cb and not rc.get_stop_requested()


# ------------------------------------------------------------------ documented differences
def test_early_stopping_difference_default_patience():
    """MindSpore 2.10 stops after the first epoch even when it improved; tfspore waits for no improvement."""
    losses = [3.0, 2.0, 2.5, 1.0]

    def steps(api):
        return lambda cb: api.Tensor(np.float32(losses[cb.cur_epoch_num - 1]))
    ms_cbp = fake_train(MS, [ms_cb.EarlyStopping(monitor="loss")], 4, 1, steps(MS))
    ts_cbp = fake_train(TS, [ts_cb.EarlyStopping(monitor="loss")], 4, 1, steps(TS))
    assert ms_cbp.cur_epoch_num == 1 and ts_cbp.cur_epoch_num == 3

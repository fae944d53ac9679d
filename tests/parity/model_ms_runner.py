"""``Model.train`` / ``eval`` / ``fit`` / ``predict`` scenarios shared by real MindSpore 2.10 and tfspore.

Run it with MindSpore's dataset environment (``Model.train`` needs ``mindspore.dataset``, which
needs numpy < 2)::

    .venv-msds/bin/python tests/parity/model_ms_runner.py OUT.json WORKDIR [SCENARIO ...]

``test_model_parity.py`` imports this module and runs the same scenario functions with
``tfspore`` as the ``ms`` argument, so both sides build the same network (the same initial
weights, set from numpy), the same ``NumpySlicesDataset`` pipelines (no shuffle) and the same
callbacks. The module imports neither MindSpore nor tfspore at module level.

Every scenario returns a JSON-able dict. A ``Recorder`` callback logs each hook call with a
snapshot of ``cb_params`` (:func:`encode` turns each field into JSON: plain values as they
are, numpy scalars with their type, Tensors as dtype, shape and values, sequences and dicts
item by item, any other object as its class name). Printed lines (LossMonitor, TimeMonitor)
are captured, with times masked as ``<t>``.
"""
from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import sys
import traceback
from typing import Any, Callable, Dict

import numpy as np

TRAIN_HOOKS = ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
               "on_train_epoch_end", "on_train_end")
EVAL_HOOKS = ("on_eval_begin", "on_eval_epoch_begin", "on_eval_step_begin", "on_eval_step_end",
              "on_eval_epoch_end", "on_eval_end")
OLD_HOOKS = ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end")
_TIME = re.compile(r"\d+(\.\d+)?(e[-+]?\d+)? ms")


# ------------------------------------------------------------------------------------ encoding
def encode(value: Any) -> Any:
    """A JSON-able picture of one cb_params value (see the module docstring)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.generic):
        return {"np": type(value).__name__, "v": value.item()}
    if isinstance(value, (int, float)):
        return value
    if hasattr(value, "asnumpy") and callable(value.asnumpy):
        arr = value.asnumpy()
        return {"tensor": str(arr.dtype), "shape": list(arr.shape), "v": arr.tolist()}
    if isinstance(value, np.ndarray):
        return {"ndarray": str(value.dtype), "shape": list(value.shape), "v": value.tolist()}
    if isinstance(value, (list, tuple)):
        return {"seq": type(value).__name__, "items": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[str(k), encode(v)] for k, v in value.items()]}
    return {"obj": type(value).__name__}


def snapshot(cb: Any) -> Dict[str, Any]:
    """Every field of ``cb_params``, encoded."""
    return {str(k): encode(v) for k, v in dict.items(cb)}


# ------------------------------------------------------------------------------------ building
def _sub(ms: Any, name: str) -> Any:
    return importlib.import_module(f"{ms.__name__}.{name}")


def set_mode(ms: Any, mode: str) -> None:
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)


def build_net(ms: Any) -> Any:
    """Dense -> BatchNorm1d -> ReLU -> Dense, with weights (and moving statistics) from numpy."""
    nn = ms.nn
    net = nn.SequentialCell([nn.Dense(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 3)])
    rng = np.random.RandomState(7)
    for p in net.get_parameters():
        shape = tuple(p.shape)
        noise = rng.randn(*shape).astype(np.float32)
        if p.name.endswith("moving_variance") or p.name.endswith("gamma"):
            arr = 1.0 + 0.2 * np.abs(noise)
        elif p.name.endswith("weight"):
            arr = 0.5 * noise
        else:
            arr = 0.1 * noise
        p.set_data(ms.Tensor(arr.astype(np.float32)))
    return net


def data(n: int, seed: int = 0) -> tuple:
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 4).astype(np.float32)
    y = rng.randint(0, 3, n).astype(np.int32)
    return x, y


def dataset(ms: Any, n: int = 10, batch: int = 4, seed: int = 0) -> Any:
    """A NumpySlicesDataset of (data, label), unshuffled, batched (the last batch may be partial)."""
    ds = _sub(ms, "dataset")
    return ds.NumpySlicesDataset(data(n, seed), column_names=["data", "label"], shuffle=False).batch(batch)


def loss_fn(ms: Any) -> Any:
    return ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def build_model(ms: Any, metrics: Any = None, net: Any = None) -> tuple:
    net = build_net(ms) if net is None else net
    opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return ms.train.Model(net, loss_fn(ms), opt, metrics=metrics), net, opt


def params(cell: Any) -> Dict[str, Any]:
    """Parameter name to values, in ``get_parameters`` order."""
    return {p.name: p.asnumpy().tolist() for p in cell.get_parameters()}


def make_recorder(ms: Any, events: list, stop_at: tuple | None = None, old_names: bool = False,
                  name: str = "Recorder") -> Any:
    """A Callback that appends ``[tag, hook, snapshot]`` to ``events`` at every hook.

    ``stop_at=(hook, cur_step_num)`` requests a stop in that hook at that step. With
    ``old_names`` the callback defines the old hook names (``step_end``...) only.
    """
    hooks = OLD_HOOKS if old_names else TRAIN_HOOKS + EVAL_HOOKS

    def method(hook: str) -> Callable:
        def record(self: Any, run_context: Any) -> None:
            cb = run_context.original_args()
            events.append([name, hook, snapshot(cb)])
            if stop_at is not None and hook == stop_at[0] and cb.get("cur_step_num") == stop_at[1]:
                run_context.request_stop()
        return record

    return type(name, (ms.train.Callback,), {h: method(h) for h in hooks})()


@contextlib.contextmanager
def captured(lines: list):
    """Collect printed lines (times masked) into ``lines``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        yield
    lines.extend(_TIME.sub("<t> ms", line) for line in out.getvalue().splitlines())


# ------------------------------------------------------------------------------------ scenarios
def sc_train(ms: Any, workdir: str) -> dict:
    """train(2) non-sink, new- and old-name recorders, LossMonitor, TimeMonitor; then predict."""
    model, net, opt = build_model(ms)
    events, lines = [], []
    cbs = [make_recorder(ms, events), make_recorder(ms, events, old_names=True, name="OldRecorder"),
           ms.train.LossMonitor(), ms.train.TimeMonitor()]
    with captured(lines):
        model.train(2, dataset(ms), callbacks=cbs)
    x, _ = data(5, seed=3)
    pred = model.predict(ms.Tensor(x))
    return {"events": events, "lines": lines, "params": params(model.train_network),
            "predict": encode(pred), "training_after_predict": net.training}


def sc_train16(ms: Any, workdir: str) -> dict:
    """train(2) non-sink on 4 full batches: the reference for the sink scenarios."""
    model, net, _ = build_model(ms)
    events = []
    model.train(2, dataset(ms, n=16), callbacks=[make_recorder(ms, events)])
    return {"events": events, "params": params(net)}


def sc_sink(ms: Any, workdir: str, epoch: int = 2, sink_size: int = 2) -> dict:
    """train(epoch, dataset_sink_mode=True, sink_size) on 4 batches with LossMonitor."""
    model, net, _ = build_model(ms)
    events, lines = [], []
    with captured(lines):
        model.train(epoch, dataset(ms, n=16), callbacks=[make_recorder(ms, events), ms.train.LossMonitor()],
                    dataset_sink_mode=True, sink_size=sink_size)
    return {"events": events, "lines": lines, "params": params(net)}


def sc_initial_epoch(ms: Any, workdir: str) -> dict:
    """train(4, initial_epoch=2) with LossMonitor(2)."""
    model, net, _ = build_model(ms)
    events, lines = [], []
    with captured(lines):
        model.train(4, dataset(ms), callbacks=[make_recorder(ms, events), ms.train.LossMonitor(2)], initial_epoch=2)
    return {"events": events, "lines": lines, "params": params(net)}


def _eval_result(result: dict) -> Any:
    return encode({k: result[k] for k in sorted(result)})


def sc_eval_set(ms: Any, workdir: str) -> dict:
    """eval with metrics={'acc', 'loss'} (a set: compared by key) and a recorder."""
    model, _, _ = build_model(ms, metrics={"acc", "loss"})
    events = []
    result = model.eval(dataset(ms, n=10, seed=5), callbacks=[make_recorder(ms, events)])
    return {"events": events, "result": _eval_result(result), "keys": sorted(result)}


def sc_eval_dict(ms: Any, workdir: str) -> dict:
    """eval with a dict of metrics (order kept) after one epoch of training."""
    tr = ms.train
    metrics = {"accuracy": tr.Accuracy(), "my_loss": tr.Loss(), "top2": tr.TopKCategoricalAccuracy(2),
               "prec": tr.Precision(eval_type="classification")}
    model, _, _ = build_model(ms, metrics=metrics)
    model.train(1, dataset(ms))
    result = model.eval(dataset(ms, n=10, seed=5))
    return {"result": encode(result), "keys": list(result)}


def sc_fit(ms: Any, workdir: str, valid_frequency: Any = 2, epoch: int = 3, initial_epoch: int = 0) -> dict:
    """fit with a validation set (metrics as a dict: a fixed order), a recorder, LossMonitor and TimeMonitor."""
    model, net, _ = build_model(ms, metrics={"acc": ms.train.Accuracy(), "loss": ms.train.Loss()})
    events, lines = [], []
    with captured(lines):
        model.fit(epoch, dataset(ms), valid_dataset=dataset(ms, n=6, seed=5), valid_frequency=valid_frequency,
                  callbacks=[make_recorder(ms, events), ms.train.LossMonitor(), ms.train.TimeMonitor()],
                  initial_epoch=initial_epoch)
    return {"events": events, "lines": lines, "params": params(net)}


def sc_fit_list(ms: Any, workdir: str) -> dict:
    """fit with valid_frequency=[2, 4] from initial_epoch=1 to epoch 4."""
    return sc_fit(ms, workdir, valid_frequency=[2, 4], epoch=4, initial_epoch=1)


def sc_checkpoint(ms: Any, workdir: str) -> dict:
    """ModelCheckpoint in three trainings into one directory: names per step, retention, '_1' / '_2' prefixes,
    ``latest_ckpt_file_name`` and the contents of a checkpoint with ``append_info``."""
    tr = ms.train
    d = os.path.join(workdir, "ckpt")
    listing = []

    class Probe(tr.Callback):
        def on_train_step_end(self, run_context: Any) -> None:
            listing.append(sorted(os.listdir(d)))

    model, net, _ = build_model(ms)
    ck1 = tr.ModelCheckpoint("net", d, tr.CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2))
    model.train(3, dataset(ms), callbacks=[ck1, Probe()])
    ck2 = tr.ModelCheckpoint("net", d, tr.CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=3,
                                                           append_info=["epoch_num", "step_num"]))
    ck3 = tr.ModelCheckpoint("net", d, tr.CheckpointConfig(save_checkpoint_steps=4))
    model.train(2, dataset(ms), callbacks=[ck2, ck3, Probe()])
    ck4 = tr.ModelCheckpoint("net", d, tr.CheckpointConfig(save_checkpoint_steps=5))
    model.train(1, dataset(ms), callbacks=[ck4, Probe()])
    latest = [os.path.basename(c.latest_ckpt_file_name) for c in (ck1, ck2, ck3, ck4)]
    loaded = ms.load_checkpoint(os.path.join(d, latest[1]))
    contents = {k: encode(v) for k, v in loaded.items()}
    return {"listing": listing, "final": sorted(os.listdir(d)), "latest": latest, "contents": contents,
            "content_names": list(loaded), "params": params(model.train_network)}


def sc_loss_fn_none(ms: Any, workdir: str) -> dict:
    """Model(WithLossCell(net, loss), optimizer=opt): the network computes the loss."""
    net = build_net(ms)
    opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = ms.train.Model(ms.nn.WithLossCell(net, loss_fn(ms)), optimizer=opt)
    events = []
    model.train(2, dataset(ms), callbacks=[make_recorder(ms, events)])
    return {"events": events, "params": params(net), "train_network": type(model.train_network).__name__}


def sc_custom_train_cell(ms: Any, workdir: str) -> dict:
    """Model(TrainOneStepCell(...)) with neither loss_fn nor optimizer: the network is used as-is."""
    net = build_net(ms)
    opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, loss_fn(ms)), opt)
    model = ms.train.Model(step)
    events = []
    model.train(1, dataset(ms), callbacks=[make_recorder(ms, events)])
    return {"events": events, "params": params(net), "train_network_is_net": model.train_network is step}


def sc_eval_sink(ms: Any, workdir: str) -> dict:
    """eval(dataset_sink_mode=True) after one epoch of training, with a recorder."""
    model, _, _ = build_model(ms, metrics={"acc": ms.train.Accuracy(), "loss": ms.train.Loss()})
    model.train(1, dataset(ms))
    events = []
    result = model.eval(dataset(ms, n=10, seed=5), callbacks=[make_recorder(ms, events)], dataset_sink_mode=True)
    return {"events": events, "result": encode(result)}


def sc_resume(ms: Any, workdir: str) -> dict:
    """train(2), save_checkpoint, load into a fresh network and optimizer, train(4, initial_epoch=2)."""
    model, net, _ = build_model(ms)
    model.train(2, dataset(ms))
    path = os.path.join(workdir, "half.ckpt")
    ms.save_checkpoint(model.train_network, path)
    net2 = build_net(ms)
    opt2 = ms.nn.Momentum(net2.trainable_params(), 0.1, 0.9)
    not_loaded = ms.load_param_into_net(opt2, ms.load_checkpoint(path))
    not_loaded_net = ms.load_param_into_net(net2, ms.load_checkpoint(path))
    model2 = ms.train.Model(net2, loss_fn(ms), opt2)
    events = []
    model2.train(4, dataset(ms), callbacks=[make_recorder(ms, events)], initial_epoch=2)
    straight, _, _ = build_model(ms)
    straight.train(4, dataset(ms))
    return {"events": events, "params": params(model2.train_network), "straight": params(straight.train_network),
            "not_loaded": [sorted(not_loaded[0]) if isinstance(not_loaded, tuple) else sorted(not_loaded),
                           sorted(not_loaded_net[0]) if isinstance(not_loaded_net, tuple) else sorted(not_loaded_net)]}


def sc_stop(ms: Any, workdir: str) -> dict:
    """RunContext.request_stop in on_train_step_end at global step 2 of train(3)."""
    model, net, _ = build_model(ms)
    events = []
    model.train(3, dataset(ms), callbacks=[make_recorder(ms, events, stop_at=("on_train_step_end", 2))])
    return {"events": events, "params": params(net)}


def sc_stop_fit(ms: Any, workdir: str) -> dict:
    """request_stop at step 5 of fit(3) (the second epoch), validating every epoch."""
    model, net, _ = build_model(ms, metrics={"acc"})
    events = []
    model.fit(3, dataset(ms), valid_dataset=dataset(ms, n=6, seed=5),
              callbacks=[make_recorder(ms, events, stop_at=("on_train_step_end", 5))])
    return {"events": events, "params": params(net)}


def sc_batch_info(ms: Any, workdir: str) -> dict:
    """fit(3) validating every epoch, then train(2) on the same training dataset; the pipelines are
    batched with a per_batch_map that records BatchInfo's (epoch, batch) numbers."""
    ds = _sub(ms, "dataset")
    seen: Dict[str, list] = {"train": [], "valid": [], "again": []}
    into = {"train": "train", "valid": "valid"}

    def recorder(key: str) -> Callable:
        def per_batch_map(col: Any, info: Any) -> tuple:
            seen[into[key]].append([info.get_epoch_num(), info.get_batch_num()])
            return (col,)
        return per_batch_map

    def batched(key: str, n: int, seed: int) -> Any:
        source = ds.NumpySlicesDataset(data(n, seed), column_names=["data", "label"], shuffle=False)
        return source.batch(4, per_batch_map=recorder(key), input_columns=["data"])

    model, net, _ = build_model(ms, metrics={"acc"})
    train = batched("train", 8, 0)
    model.fit(3, train, valid_dataset=batched("valid", 8, 5))
    into["train"] = "again"
    model.train(2, train)  # a second train call on the same dataset
    return {"seen": seen, "params": params(net)}


SCENARIOS: Dict[str, Callable] = {
    "batch_info": sc_batch_info,
    "train": sc_train,
    "train16": sc_train16,
    "sink": sc_sink,
    "initial_epoch": sc_initial_epoch,
    "eval_set": sc_eval_set,
    "eval_dict": sc_eval_dict,
    "fit": sc_fit,
    "fit_list": sc_fit_list,
    "checkpoint": sc_checkpoint,
    "loss_fn_none": sc_loss_fn_none,
    "custom_train_cell": sc_custom_train_cell,
    "eval_sink": sc_eval_sink,
    "resume": sc_resume,
    "stop": sc_stop,
    "stop_fit": sc_stop_fit,
}


def run(ms: Any, name: str, workdir: str, mode: str = "pynative", **kwargs: Any) -> dict:
    """Run one scenario with seed 1 in ``workdir/name``; errors become ``{'error': traceback}``.

    ``mode`` is 'pynative' or 'graph'; ``kwargs`` go to the scenario function.
    """
    set_mode(ms, mode)
    ms.set_seed(1)
    sub = os.path.join(workdir, name)
    os.makedirs(sub, exist_ok=True)
    try:
        return SCENARIOS[name](ms, sub, **kwargs)
    except Exception:  # noqa: BLE001 - reported to the test
        return {"error": traceback.format_exc()}
    finally:
        set_mode(ms, "pynative")


def main(argv: list) -> int:
    out_path, workdir, names = argv[0], argv[1], argv[2:] or list(SCENARIOS)
    import mindspore
    results = {name: run(mindspore, name, workdir) for name in names}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(results, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

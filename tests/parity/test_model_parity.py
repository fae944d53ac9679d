"""``Model.train`` / ``eval`` / ``fit`` / ``predict`` against real MindSpore 2.10's Model.

Real ``Model.train`` needs ``mindspore.dataset``, which needs numpy < 2, so MindSpore's side runs
``model_ms_runner.py`` in ``.venv-msds`` (built by ``scripts/ms_dataset_env.sh``, which
``scripts/test.sh`` sources) once per test module, and its JSON output is cached in pytest's
cache (``TFSPORE_PARITY_NO_CACHE=1`` reruns it). tfspore runs the same scenario functions
in-process. Both sides use the same network (Dense, BatchNorm1d, Dense with weights set from
numpy), the same unshuffled ``NumpySlicesDataset`` batches and Momentum, and a recording
callback snapshots ``cb_params`` at every hook.

What is compared: the hook order (new ``on_train_*`` / ``on_eval_*`` names and the old
``begin`` / ``step_end``... names), at every hook the set of ``cb_params`` keys and every value
(plain values exactly, Tensors to 1e-5 relative, numpy scalars with their type), the per-step
losses, LossMonitor / TimeMonitor lines (times masked), final weights, predict outputs, eval
results, ModelCheckpoint file names and contents.

Fields that cannot compare (objects) are compared by class name, except:

* ``list_callback``: MindSpore prepends its internal ``_StepSync`` (PyNative) and
  ``_FrameworkProfilerCallback`` callbacks; tfspore has no device stream to synchronise and
  no framework profiler hook. The user callbacks are compared by class name, in order.
* ``train_network`` in sink mode: tfspore's sink-connected cell (a tf.function loop over the
  dataset iterator) has its own class; MindSpore on CPU never builds its sink-connected cell.

Sink mode: MindSpore's CPU build silently runs the non-sink loop for ``dataset_sink_mode=True``
(``cb_params.dataset_sink_mode`` False, ``batch_num = sink_size``, the whole dataset each
epoch); tfspore sinks on every device as MindSpore does on GPU/Ascend (spec train-loop.md §6.4,
§7). ``test_mindspore_cpu_sink_falls_back_tfspore_sinks`` records that difference; the sink
tests compare tfspore's weights and the losses at sink boundaries with MindSpore's non-sink
training on the same batch stream, and tfspore's hook sequence with the device semantics.
"""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tfspore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "train"))
from callback_loop import fake_train, mindspore_api  # noqa: E402

_RUNNER_PATH = Path(__file__).resolve().with_name("model_ms_runner.py")
_spec = importlib.util.spec_from_file_location("_model_ms_runner", _RUNNER_PATH)
runner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runner)

REPO_ROOT = Path(__file__).resolve().parents[2]
MS_PYTHON = Path(os.environ.get("TFSPORE_MSDS_PYTHON", REPO_ROOT / ".venv-msds" / "bin" / "python"))
RTOL, ATOL = 1e-5, 1e-6
INTERNAL_CALLBACKS = {"_StepSync", "_FrameworkProfilerCallback"}


# ------------------------------------------------------------------------------------ both sides
@pytest.fixture(scope="module")
def ms_results(tmp_path_factory, request):
    """Every scenario of the runner under real MindSpore, once per module (cached)."""
    if not MS_PYTHON.exists():
        pytest.fail(f"MindSpore's dataset environment {MS_PYTHON} is missing: run `bash scripts/ms_dataset_env.sh` "
                    f"(scripts/test.sh does it) to build .venv-msds with mindspore==2.10.0 and numpy<2.")
    key = hashlib.sha256(inspect.getsource(runner).encode()).hexdigest()[:24]
    cache = getattr(request.config, "cache", None)
    workdir = tmp_path_factory.mktemp("model_parity_ms")
    cache_dir = Path(cache.mkdir("tfspore_model_parity")) if cache is not None else workdir
    cached = cache_dir / f"{key}.json"
    if os.environ.get("TFSPORE_PARITY_NO_CACHE") == "1" or not cached.exists():
        out_path = workdir / "ms_out.json"
        env = dict(os.environ, GLOG_v="3", PYTHONPATH="")
        proc = subprocess.run([str(MS_PYTHON), str(_RUNNER_PATH), str(out_path), str(workdir)],
                              capture_output=True, text=True, timeout=600, env=env, check=False)
        if proc.returncode != 0 or not out_path.exists():
            pytest.fail(f"the MindSpore runner failed (rc={proc.returncode}):\n{proc.stderr[-4000:]}")
        tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        shutil.copyfile(out_path, tmp)
        os.replace(tmp, cached)  # parallel test workers never read a half-written file
    return _MsResults(json.loads(cached.read_text()))


class _MsResults(dict):
    """MindSpore's results by scenario; a scenario that failed there fails the test that reads it."""

    def __getitem__(self, name):
        result = super().__getitem__(name)
        assert "error" not in result, f"MindSpore's side of {name!r} failed:\n{result['error']}"
        return result


def ts_run(name, tmp_path, mode="pynative", **kwargs):
    """One scenario with tfspore."""
    out = runner.run(tfspore, name, str(tmp_path), mode=mode, **kwargs)
    assert "error" not in out, out.get("error")
    return out


# ------------------------------------------------------------------------------------ comparing
def _close(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float)
                      and (math.isnan(a) and math.isnan(b) or math.isclose(a, b, rel_tol=RTOL, abs_tol=ATOL)))


def diff(ms_v, ts_v, path="", out=None):
    """Differences between two encoded values (see ``model_ms_runner.encode``), as strings."""
    out = [] if out is None else out
    if isinstance(ms_v, dict) and isinstance(ts_v, dict):
        kind = next(iter(ms_v))
        if kind != next(iter(ts_v)):
            out.append(f"{path}: {ms_v!r:.200} != {ts_v!r:.200}")
        elif kind in ("tensor", "ndarray"):
            if ms_v[kind] != ts_v[kind] or ms_v["shape"] != ts_v["shape"]:
                out.append(f"{path}: {ms_v[kind]}{ms_v['shape']} != {ts_v[kind]}{ts_v['shape']}")
            elif not np.allclose(np.asarray(ts_v["v"], np.float64), np.asarray(ms_v["v"], np.float64),
                                 rtol=RTOL, atol=ATOL, equal_nan=True):
                out.append(f"{path}: values {ms_v['v']} != {ts_v['v']}")
        elif kind == "np":
            if ms_v["np"] != ts_v["np"] or not _close(float(ms_v["v"]), float(ts_v["v"])):
                out.append(f"{path}: {ms_v} != {ts_v}")
        elif kind == "seq":
            if ms_v["seq"] != ts_v["seq"] or len(ms_v["items"]) != len(ts_v["items"]):
                out.append(f"{path}: {ms_v!r:.200} != {ts_v!r:.200}")
            else:
                for i, (a, b) in enumerate(zip(ms_v["items"], ts_v["items"])):
                    diff(a, b, f"{path}[{i}]", out)
        elif kind == "dict":
            if [k for k, _ in ms_v["dict"]] != [k for k, _ in ts_v["dict"]]:
                out.append(f"{path}: keys {[k for k, _ in ms_v['dict']]} != {[k for k, _ in ts_v['dict']]}")
            else:
                for (k, a), (_, b) in zip(ms_v["dict"], ts_v["dict"]):
                    diff(a, b, f"{path}.{k}", out)
        elif ms_v != ts_v:
            out.append(f"{path}: {ms_v} != {ts_v}")
    elif type(ms_v) is not type(ts_v) or not _close(ms_v, ts_v):
        out.append(f"{path}: {ms_v!r:.200} != {ts_v!r:.200}")
    return out


def _normalize(snap, sort_metrics):
    """``list_callback`` without MindSpore's internal callbacks (see the module docstring), and
    with ``sort_metrics`` ``metrics`` / ``eval_results`` by key: metrics given as a set follow
    Python's set order in each process (string hashes are salted per process)."""
    lc = snap.get("list_callback")
    if isinstance(lc, dict) and "seq" in lc:
        snap = dict(snap, list_callback=dict(lc, items=[i for i in lc["items"]
                                                         if i.get("obj") not in INTERNAL_CALLBACKS]))
    for key in ("metrics", "eval_results") if sort_metrics else ():
        if isinstance(snap.get(key), dict) and "dict" in snap[key]:
            snap = dict(snap, **{key: {"dict": sorted(snap[key]["dict"])}})
    return snap


def event_diff(ms_events, ts_events, skip=(), sort_metrics=False):
    """Hook order, cb_params keys and values at every hook; ``skip``: fields not compared."""
    out = []
    ms_order = [(t, h) for t, h, _ in ms_events]
    ts_order = [(t, h) for t, h, _ in ts_events]
    if ms_order != ts_order:
        return [f"hook order:\n  ms {ms_order}\n  ts {ts_order}"]
    for i, ((tag, hook, ms_s), (_, _, ts_s)) in enumerate(zip(ms_events, ts_events)):
        ms_s, ts_s = _normalize(ms_s, sort_metrics), _normalize(ts_s, sort_metrics)
        if sorted(ms_s) != sorted(ts_s):
            out.append(f"#{i} {tag}.{hook} keys: ms only {sorted(set(ms_s) - set(ts_s))}, "
                       f"ts only {sorted(set(ts_s) - set(ms_s))}")
        for key in sorted(set(ms_s) & set(ts_s) - set(skip)):
            diff(ms_s[key], ts_s[key], f"#{i} {tag}.{hook}.{key}", out)
    return out


def params_diff(ms_params, ts_params):
    out = []
    if list(ms_params) != list(ts_params):
        return [f"parameter names: {list(ms_params)} != {list(ts_params)}"]
    for name in ms_params:
        a, b = np.asarray(ms_params[name], np.float64), np.asarray(ts_params[name], np.float64)
        if a.shape != b.shape or not np.allclose(b, a, rtol=RTOL, atol=ATOL):
            out.append(f"{name}: max abs diff {np.max(np.abs(a - b)) if a.shape == b.shape else 'shape'}")
    return out


def _assert_none(diffs):
    assert not diffs, "\n".join(diffs[:30]) + (f"\n... {len(diffs) - 30} more" if len(diffs) > 30 else "")


_FLOAT = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def lines_diff(ms_lines, ts_lines):
    """Printed lines: the same text, with the numbers in it equal to 1e-5 relative (float32 losses)."""
    if len(ms_lines) != len(ts_lines):
        return [f"{len(ms_lines)} lines != {len(ts_lines)} lines:\n  ms {ms_lines}\n  ts {ts_lines}"]
    out = []
    for a, b in zip(ms_lines, ts_lines):
        if _FLOAT.sub("<f>", a) != _FLOAT.sub("<f>", b) or not all(
                _close(float(x), float(y)) for x, y in zip(_FLOAT.findall(a), _FLOAT.findall(b))):
            out.append(f"ms {a!r} != ts {b!r}")
    return out


def _losses(events, hook="on_train_step_end"):
    return [(s["cur_step_num"], s["net_outputs"]["v"]) for tag, h, s in events if h == hook and tag == "Recorder"]


# ------------------------------------------------------------------------------------ train
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_train_hooks_cb_params_losses_and_lines(ms_results, tmp_path, mode):
    """train(2): new and old hook names, cb_params at every hook, losses, printed lines, weights, predict."""
    ms, ts = ms_results["train"], ts_run("train", tmp_path, mode)
    _assert_none(event_diff(ms["events"], ts["events"]))
    assert len(_losses(ts["events"])) == 6
    _assert_none(lines_diff(ms["lines"], ts["lines"]))
    _assert_none(params_diff(ms["params"], ts["params"]))
    _assert_none(diff(ms["predict"], ts["predict"], "predict"))
    assert ts["training_after_predict"] == ms["training_after_predict"]


def test_train_initial_epoch(ms_results, tmp_path):
    """train(4, initial_epoch=2): epoch numbers from 3, epoch_num 2, cur_step_num from 0, LossMonitor(2)."""
    ms, ts = ms_results["initial_epoch"], ts_run("initial_epoch", tmp_path)
    _assert_none(event_diff(ms["events"], ts["events"]))
    _assert_none(lines_diff(ms["lines"], ts["lines"]))
    _assert_none(params_diff(ms["params"], ts["params"]))


@pytest.mark.parametrize("name", ["loss_fn_none", "custom_train_cell"])
def test_train_without_loss_fn(ms_results, tmp_path, name):
    """loss_fn None: a WithLossCell with an optimizer, and a ready TrainOneStepCell used as-is."""
    ms, ts = ms_results[name], ts_run(name, tmp_path)
    _assert_none(event_diff(ms["events"], ts["events"]))
    _assert_none(params_diff(ms["params"], ts["params"]))
    for key in ("train_network", "train_network_is_net"):
        assert ts.get(key) == ms.get(key)


@pytest.mark.parametrize("name", ["stop", "stop_fit"])
def test_request_stop(ms_results, tmp_path, name):
    """request_stop in on_train_step_end: the epoch still ends (and validates in fit), then training ends."""
    ms, ts = ms_results[name], ts_run(name, tmp_path)
    _assert_none(event_diff(ms["events"], ts["events"]))
    _assert_none(params_diff(ms["params"], ts["params"]))
    hooks = [h for _, h, _ in ts["events"]]
    assert hooks.count("on_train_step_end") == (2 if name == "stop" else 5)
    assert hooks[-2:] == ["on_train_epoch_end", "on_train_end"]
    assert hooks.count("on_eval_end") == (0 if name == "stop" else 2)


def test_pipeline_epochs_in_train_and_fit(ms_results, tmp_path):
    """Each epoch of training and each validation runs the next epoch of its pipeline (BatchInfo's numbers)."""
    ms, ts = ms_results["batch_info"], ts_run("batch_info", tmp_path)
    assert "error" not in ms, ms.get("error")
    assert sorted(ts["seen"]["again"]) == sorted(ms["seen"]["again"])
    for key in ("train", "valid"):
        # tfspore's dataset engine calls a per_batch_map once on the first batch when it builds the
        # pipeline, to learn its output types (docs/differences.md); MindSpore's workers run in
        # parallel, so the calls are compared in sorted order
        assert ts["seen"][key][0] == [0, 0]
        assert sorted(ts["seen"][key][1:]) == sorted(ms["seen"][key]), key
    _assert_none(params_diff(ms["params"], ts["params"]))


# ------------------------------------------------------------------------------------ eval / fit
def test_eval_with_a_set_of_metrics(ms_results, tmp_path):
    """eval with {'acc', 'loss'}: eval hooks and cb_params, numpy.float64 results."""
    ms, ts = ms_results["eval_set"], ts_run("eval_set", tmp_path)
    _assert_none(event_diff(ms["events"], ts["events"], sort_metrics=True))
    assert ts["keys"] == ms["keys"] == ["acc", "loss"]
    _assert_none(diff(ms["result"], ts["result"], "eval"))


def test_eval_with_a_dict_of_metrics(ms_results, tmp_path):
    """eval with a dict (Accuracy, Loss, TopK, Precision) after training: keys in order, values and types."""
    ms, ts = ms_results["eval_dict"], ts_run("eval_dict", tmp_path)
    assert ts["keys"] == ms["keys"]
    _assert_none(diff(ms["result"], ts["result"], "eval"))


@pytest.mark.parametrize("name, mode", [("fit", "pynative"), ("fit", "graph"), ("fit_list", "pynative")])
def test_fit_with_validation(ms_results, tmp_path, name, mode):
    """fit: validation before on_train_epoch_end, metrics / eval_results in cb_params, printed lines,
    and training after validation back in train mode (BatchNorm batch statistics)."""
    ms, ts = ms_results[name], ts_run(name, tmp_path, mode)
    _assert_none(event_diff(ms["events"], ts["events"]))
    _assert_none(lines_diff(ms["lines"], ts["lines"]))
    _assert_none(params_diff(ms["params"], ts["params"]))


def test_eval_in_sink_mode(ms_results, tmp_path):
    """eval(dataset_sink_mode=True): step by step on both sides (MindSpore's CPU build falls back)."""
    ms, ts = ms_results["eval_sink"], ts_run("eval_sink", tmp_path)
    _assert_none(event_diff(ms["events"], ts["events"]))
    _assert_none(diff(ms["result"], ts["result"], "eval"))


# ------------------------------------------------------------------------------------ checkpoints
def test_resume_from_checkpoint(ms_results, tmp_path):
    """train(2), save, load into a fresh network and optimizer, train(4, initial_epoch=2) == train(4)."""
    ms, ts = ms_results["resume"], ts_run("resume", tmp_path)
    assert ts["not_loaded"] == ms["not_loaded"]
    _assert_none(event_diff(ms["events"], ts["events"]))
    _assert_none(params_diff(ms["params"], ts["params"]))
    _assert_none(params_diff(ms["straight"], ts["params"]))
    _assert_none(params_diff(ts["straight"], ts["params"]))


def test_model_checkpoint_names_retention_and_contents(ms_results, tmp_path):
    """Files after every step, keep_checkpoint_max retention, the '_1' prefix, latest names, contents."""
    ms, ts = ms_results["checkpoint"], ts_run("checkpoint", tmp_path)
    assert ts["listing"] == ms["listing"]
    assert ts["final"] == ms["final"]
    assert ts["latest"] == ms["latest"]
    assert ts["content_names"] == ms["content_names"]
    _assert_none(diff({"dict": list(ms["contents"].items())}, {"dict": list(ts["contents"].items())}, "ckpt"))
    _assert_none(params_diff(ms["params"], ts["params"]))


# ------------------------------------------------------------------------------------ sink mode
def test_mindspore_cpu_sink_falls_back_tfspore_sinks(ms_results, tmp_path):
    """Documented difference: on CPU MindSpore runs the non-sink loop for dataset_sink_mode=True.

    MindSpore: dataset_sink_mode False in cb_params, batch_num = sink_size, every batch of the
    dataset each epoch (8 steps for 2 epochs of 4 batches), the weights of non-sink training.
    tfspore: sink_size steps per epoch from the continuous stream (4 steps for 2 epochs).
    """
    ms, ts = ms_results["sink"], ts_run("sink", tmp_path)
    ms_steps = [s for t, h, s in ms["events"] if h == "on_train_step_end"]
    assert [s["dataset_sink_mode"] for s in ms_steps] == [False] * 8
    assert {s["batch_num"] for s in ms_steps} == {2}
    _assert_none(params_diff(ms_results["train16"]["params"], ms["params"]))
    ts_steps = [s for t, h, s in ts["events"] if h == "on_train_step_end"]
    assert [s["cur_step_num"] for s in ts_steps] == [1, 2, 3, 4]
    assert {s["dataset_sink_mode"] for s in ts_steps} == {True}
    assert ts["lines"] == [f"epoch: {e} step: {s}, loss is {v}" for (e, s), v in
                           zip([(1, 1), (1, 2), (2, 1), (2, 2)], [s["net_outputs"]["v"] for s in ts_steps])]


def _expected_sink_events(ms_events, sink_size, epochs, graph):
    """tfspore's expected sink-mode sequence (spec §6.4) from MindSpore's non-sink one on the same stream.

    Per epoch: epoch_begin; per sink (GRAPH) or per step (PYNATIVE): step_begin and step_end with
    ``cur_step_num`` advanced by ``sink_size`` (GRAPH) or 1, ``train_dataset_element == ()`` and
    the last step's loss; epoch_end. ``batch_num`` is ``sink_size``, ``dataset_sink_mode`` True,
    and ``sink_size`` and ``dataset_helper`` are set from the first epoch on.
    """
    ms_by_step = {s["cur_step_num"]: s for t, h, s in ms_events if h == "on_train_step_end"}
    base = next(s for t, h, s in ms_events if h == "on_train_begin")
    state = dict(base, batch_num=sink_size, dataset_sink_mode=True, sink_size=sink_size, epoch_num=epochs,
                 list_callback={"seq": "list", "items": [{"obj": "Recorder"}, {"obj": "LossMonitor"}]})
    out = [["Recorder", "on_train_begin", state]]
    step = 0
    for epoch in range(1, epochs + 1):
        state = dict(state, cur_epoch_num=epoch)
        out.append(["Recorder", "on_train_epoch_begin", state])
        state = dict(state, dataset_helper={"obj": "DatasetHelper"})
        for _ in range(1 if graph else sink_size):
            step += sink_size if graph else 1
            state = dict(state, cur_step_num=step, train_dataset_element={"seq": "tuple", "items": []})
            out.append(["Recorder", "on_train_step_begin", state])
            state = dict(state, net_outputs=ms_by_step[step]["net_outputs"])
            out.append(["Recorder", "on_train_step_end", state])
        out.append(["Recorder", "on_train_epoch_end", state])
    out.append(["Recorder", "on_train_end", state])
    return out


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_sink_matches_non_sink_at_sink_boundaries(ms_results, tmp_path, mode):
    """tfspore sink (4 epochs of sink_size 2 over 4 batches) against MindSpore non-sink train(2).

    Both consume the same 8 batches in the same order: the weights are equal, and the losses
    at sink boundaries (every step in PYNATIVE) equal MindSpore's losses at those steps. The
    hook sequence and cb_params follow the device sink semantics.
    """
    ref = ms_results["train16"]
    ts = ts_run("sink", tmp_path, mode, epoch=4, sink_size=2)
    _assert_none(params_diff(ref["params"], ts["params"]))
    expected = _expected_sink_events(ref["events"], sink_size=2, epochs=4, graph=mode == "graph")
    # train_network: tfspore's sink-connected cell (see the module docstring).
    _assert_none(event_diff(expected, ts["events"], skip=("train_network",)))
    sink_nets = {s["train_network"]["obj"] for t, h, s in ts["events"] if h == "on_train_step_end"}
    assert len(sink_nets) == 1 and sink_nets != {"TrainOneStepCell"}


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_sink_whole_dataset_matches_non_sink(ms_results, tmp_path, mode):
    """sink_size=-1: one sink is the whole dataset; train(2) gives MindSpore's non-sink weights."""
    ref = ms_results["train16"]
    ts = ts_run("sink", tmp_path, mode, epoch=2, sink_size=-1)
    _assert_none(params_diff(ref["params"], ts["params"]))
    expected = _expected_sink_events(ref["events"], sink_size=4, epochs=2, graph=mode == "graph")
    _assert_none(event_diff(expected, ts["events"], skip=("train_network",)))


def test_sink_checkpoint_names_and_loss_monitor_lines(ms_results, tmp_path):
    """GRAPH_MODE sink: ModelCheckpoint files and LossMonitor lines as MindSpore's own callbacks give them
    under the device sink loop (spec §6.4: step_end once per sink, cur_step_num += sink_size).

    MindSpore's CPU build cannot run that loop, so its real ModelCheckpoint and LossMonitor are
    driven by ``callback_loop.fake_train(sink_size=...)`` (MindSpore's RunContext, cb_params and
    callback manager) with MindSpore's non-sink losses at the sink boundaries; tfspore runs
    ``Model.train`` in sink mode.
    """
    import mindspore
    from mindspore.train import callback as ms_cb

    ref = dict(_losses(ms_results["train16"]["events"]))
    config = dict(save_checkpoint_steps=4, keep_checkpoint_max=2)
    sides = {}
    for side in ("ms", "ts"):
        d = tmp_path / side
        d.mkdir()
        listing, lines = [], []
        mod = ms_cb if side == "ms" else tfspore.train

        class Probe(mod.Callback):
            def on_train_step_end(self, run_context):
                listing.append(sorted(os.listdir(d)))

        cbs = [mod.ModelCheckpoint("snk", str(d), mod.CheckpointConfig(**config)), mod.LossMonitor(), Probe()]
        with runner.captured(lines):
            if side == "ms":
                fake_train(mindspore_api(), cbs, 4, 1, lambda cb: mindspore.Tensor(np.float32(ref[cb.cur_step_num])),
                           sink_size=2, train_network=mindspore.nn.Dense(4, 3))
            else:
                runner.set_mode(tfspore, "graph")
                try:
                    model, _, _ = runner.build_model(tfspore)
                    model.train(4, runner.dataset(tfspore, n=16), callbacks=cbs, dataset_sink_mode=True, sink_size=2)
                finally:
                    runner.set_mode(tfspore, "pynative")
        sides[side] = (listing, lines, os.path.basename(cbs[0].latest_ckpt_file_name))
    assert sides["ts"][0] == sides["ms"][0]
    assert sides["ts"][2] == sides["ms"][2]
    _assert_none(lines_diff(sides["ms"][1], sides["ts"][1]))

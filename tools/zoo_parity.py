"""Compare the first training losses of MindSpore model-zoo scripts under real MindSpore and tfspore.

For each entry the tool writes tiny synthetic data in the script's own format (the writers and
config copies of ``tools/zoo_check.py``), then runs the unchanged zoo script three or four times through
``tools/_zoo_parity_launch.py``:

1. under real MindSpore 2.10 (``--ms-python``, a Python whose MindSpore dataset module works,
   ``.venv-msds``) up to ``Model(...)``, saving the network's initial parameters to ``init.ckpt``;
2. under real MindSpore, training ``--steps`` steps from ``init.ckpt``;
3. under tfspore (``--tf-python -m tfspore run``), the same flags, config and data, from the same
   ``init.ckpt``;
4. where the losses differ, under real MindSpore again from ``init.ckpt`` with a random half of
   the float32 weights moved by one ulp: where training amplifies rounding, MindSpore's losses
   move as far from themselves, and tfspore's are judged against that spread (:func:`judge`).

The checkpoint reaches the network through the script's own option where it has one (ResNet's
``pre_trained``), else through the launcher's hook at ``Model(network, ...)``. Both runs read the
records in file order (``shuffle=False`` on the dataset source, the script's flag where it has one),
an epoch of exactly ``--steps`` batches, with random augmentation and dropout off (through the
script's flags, else the launcher's ``no_random_augment`` and ``no_dropout`` hooks, the same in
both frameworks). The per-step losses are read from the ``LossMonitor`` lines
(``epoch: 1 step: 3, loss is 2.30...``) of both runs and compared at float32 tolerance::

    .venv/bin/python tools/zoo_parity.py --zoo /path/to/models
    .venv/bin/python tools/zoo_parity.py --zoo /path/to/models --only lenet resnet18-cifar10 --steps 5
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable, Optional, Sequence

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import _zoo_parity_stepwise as stepwise_mod  # noqa: E402
import zoo_check  # noqa: E402  (the data writers and config copies of the zoo runs)
from zoo_check import ENTRIES, override_yaml, write_cifar10_bin, write_mnist, write_tfrecord  # noqa: E402

__all__ = ["ParityEntry", "PARITY_ENTRIES", "KNOWN_HOOKS", "ParityResult", "Comparison", "parse_losses",
           "compare_losses", "judge", "format_table", "format_markdown", "write_configs", "run_parity", "main"]

_LAUNCHER = os.path.join(_HERE, "_zoo_parity_launch.py")

# MindSpore's LossMonitor line; the loss is a float (tfspore and MindSpore print Python floats), or
# an array/Tensor print for a few scripts: the first number is taken.
_LOSS_LINE = re.compile(r"epoch:\s*(?P<epoch>\d+)\s+step:\s*(?P<step>\d+),\s*loss is\s*\(?\[?\s*"
                        r"(?:Tensor\(shape=\[[^\]]*\],\s*dtype=\w+,\s*value=\s*)?\[?\s*"
                        r"(?P<loss>[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf))",
                        re.IGNORECASE)


def parse_losses(log: str) -> list[tuple[int, int, float]]:
    """Reads the per-step losses that ``LossMonitor`` printed.

    Args:
        log: A run's output (stdout and stderr together).

    Returns:
        ``[(epoch, step, loss), ...]`` in the order printed; a line repeating the position of the
        line before it (two callbacks printing the same step) is left out.
    """
    found = []
    for line in log.splitlines():
        m = _LOSS_LINE.search(line)
        if m:
            row = (int(m.group("epoch")), int(m.group("step")), float(m.group("loss")))
            if found and found[-1][:2] == row[:2]:
                continue  # a second callback printing the same step in the same format
            found.append(row)
    return found


@dataclasses.dataclass
class Comparison:
    """The outcome of comparing two loss sequences.

    Attributes:
        steps: Steps compared (both runs printed them, at the same epoch and step).
        max_abs: Largest absolute difference of the compared losses.
        max_rel: Largest relative difference (``|tf - ms| / |ms|``).
        first_bad: Index (from 1) of the first step outside the tolerance, or ``None``.
        verdict: ``"match"``, ``"differ"`` or ``"not comparable"``.
        note: Why the verdict is what it is, where it needs saying.
    """

    steps: int
    max_abs: float
    max_rel: float
    first_bad: Optional[int]
    verdict: str
    note: str = ""


def compare_losses(ms: Sequence[tuple[int, int, float]], tf: Sequence[tuple[int, int, float]], steps: int,
                   rtol: float = 1e-4, atol: float = 1e-5) -> Comparison:
    """Compares the first ``steps`` losses of the two runs.

    A step matches when ``|tf - ms| <= atol + rtol * |ms|`` (``numpy.isclose``). The runs must have
    printed the same ``(epoch, step)`` positions; a run that printed fewer than ``steps`` losses, or
    other positions, is ``not comparable``.

    Args:
        ms: MindSpore's ``(epoch, step, loss)`` lines.
        tf: tfspore's lines.
        steps: Number of steps to compare.
        rtol: Relative tolerance.
        atol: Absolute tolerance.

    Returns:
        The :class:`Comparison`.
    """
    if steps <= 0:
        raise ValueError(f"For 'compare_losses', the 'steps' must be positive, but got {steps}.")
    ms, tf = list(ms)[:steps], list(tf)[:steps]
    if len(ms) < steps or len(tf) < steps:
        return Comparison(min(len(ms), len(tf)), math.nan, math.nan, None, "not comparable",
                          f"MindSpore printed {len(ms)} losses and tfspore {len(tf)}; {steps} wanted")
    positions_ms = [(e, s) for e, s, _ in ms]
    positions_tf = [(e, s) for e, s, _ in tf]
    if positions_ms != positions_tf:
        return Comparison(steps, math.nan, math.nan, None, "not comparable",
                          f"printed at different steps: MindSpore {positions_ms}, tfspore {positions_tf}")
    max_abs = max_rel = 0.0
    first_bad = None
    for i, ((_, _, a), (_, _, b)) in enumerate(zip(ms, tf), start=1):
        if math.isnan(a) or math.isnan(b):
            diff = 0.0 if math.isnan(a) and math.isnan(b) else math.inf
            scale = 0.0
        else:
            diff, scale = abs(b - a), abs(a)
        rel = diff / scale if scale else (0.0 if diff == 0 else math.inf)
        max_abs, max_rel = max(max_abs, diff), max(max_rel, rel)
        if first_bad is None and not diff <= atol + rtol * scale:
            first_bad = i
    verdict = "match" if first_bad is None else "differ"
    note = "" if first_bad is None else f"first outside rtol={rtol:g}, atol={atol:g} at step {first_bad}"
    return Comparison(steps, max_abs, max_rel, first_bad, verdict, note)


def judge(comparison: Comparison, spread: Optional[Comparison], factor: float = 4.0) -> Comparison:
    """Weighs a ``differ`` verdict against MindSpore's own spread under one-ulp weight changes.

    ``spread`` compares MindSpore's losses from the initial checkpoint with MindSpore's losses from
    that checkpoint with a random half of its float32 values moved by one ulp. Where the training
    itself amplifies rounding (the spread is outside the tolerance too), a tfspore run whose first
    step matches and whose largest difference is at most ``factor`` times the spread's is
    ``within MindSpore's 1-ulp spread``: float32 cannot decide between the two frameworks there.

    Args:
        comparison: tfspore against MindSpore.
        spread: MindSpore against its one-ulp-moved self, or ``None``.
        factor: How far beyond the spread tfspore may be.

    Returns:
        ``comparison``, or a copy with the verdict ``within MindSpore's 1-ulp spread``.
    """
    if (comparison.verdict != "differ" or spread is None or spread.verdict != "differ"
            or comparison.first_bad == 1 or not comparison.max_abs <= factor * spread.max_abs):
        return comparison
    return dataclasses.replace(
        comparison, verdict="within MindSpore's 1-ulp spread",
        note=f"{comparison.note}; MindSpore against itself with one-ulp weight changes: max abs diff "
             f"{spread.max_abs:.2e}, first outside at step {spread.first_bad}")


# --------------------------------------------------------------------------------------------
# Entries.
# --------------------------------------------------------------------------------------------

# The launcher settings an entry's ``hooks`` may name (see tools/_zoo_parity_launch.py).
KNOWN_HOOKS = frozenset({"no_shuffle", "no_sink", "loss_monitor", "force_kwarg", "no_dropout", "no_random_augment",
                         "amp_level", "no_nesterov", "missing_init_empty", "force_attr",
                         "finite_overflow_check"})


@dataclasses.dataclass
class ParityEntry:
    """One zoo training script compared.

    Attributes:
        name: Short unique name.
        check: Name of the ``tools/zoo_check.py`` entry whose script, flags, config and data it uses.
        batch: Batch size set in the config (the epoch reads ``steps * batch`` records).
        overrides: Config values set on top of the zoo_check entry's (``{data}``, ``{work}`` and
            ``{init}``, the initial checkpoint, are replaced in string values).
        data: Data writer replacing the zoo_check entry's, or ``None``.
        hooks: Launcher settings (see ``tools/_zoo_parity_launch.py``), names of :data:`KNOWN_HOOKS`.
        ckpt_option: ``True`` when ``overrides`` hands ``{init}`` to the script's own checkpoint
            option; else the launcher loads it at ``Model(network, ...)``.
        turned_off: What was turned off for the comparison and how (for the report).
        rtol: Relative tolerance of this entry's losses, where it needs its own.
        init_overrides: Config values of the run that writes ``init.ckpt`` instead of those of
            ``overrides`` (a flag that turns the script's checkpoint option on, such as
            GoogLeNet's ``pre_trained: True``); that run also leaves out overrides whose value is
            ``"{init}"``.
        timeout: Time limit of each run of this entry in seconds, where it needs more than
            ``--timeout``.
    """

    name: str
    check: str
    batch: int
    overrides: dict = dataclasses.field(default_factory=dict)
    data: Optional[Callable[[str], None]] = None
    hooks: dict = dataclasses.field(default_factory=dict)
    ckpt_option: bool = False
    turned_off: str = ""
    rtol: Optional[float] = None
    init_overrides: dict = dataclasses.field(default_factory=dict)
    timeout: Optional[float] = None


def _mnist(root: str) -> None:
    write_mnist(root, n_train=64, n_test=8)


def _cifar(root: str) -> None:
    write_cifar10_bin(root)


def _speech(root: str, n: int = 40, length: int = 49, dct: int = 20, classes: int = 12) -> None:
    # dscnn's features: <split>_data.npy (n, length * dct) float32 and <split>_label.npy.
    rng = np.random.default_rng(0)
    for split in ("training", "validation", "testing"):
        np.save(os.path.join(root, f"{split}_data.npy"), rng.standard_normal((n, length * dct)).astype(np.float32))
        np.save(os.path.join(root, f"{split}_label.npy"), rng.integers(0, classes, size=(n,)).astype(np.int64))


def _criteo(root: str, records: int = 8, vocab: int = 1000, line_per_sample: int = 1000) -> None:
    # Criteo as the recommendation scripts store it: each record holds line_per_sample samples.
    spec = {"feat_ids": ("int", 39 * line_per_sample, vocab), "feat_vals": ("float", 39 * line_per_sample, 1.0),
            "label": ("int_as_float", line_per_sample, 2)}
    write_tfrecord(os.path.join(root, "train_part_0.tfrecord"), spec, n=records)
    write_tfrecord(os.path.join(root, "test_part_0.tfrecord"), spec, n=1, seed=1)


_RESNET_TURNED_OFF = ("shuffle (Cifar10Dataset(shuffle=True), no flag: launcher hook); RandomCrop and "
                      "RandomHorizontalFlip (no flag: the script's create_dataset1 called with do_train=False, "
                      "its eval pipeline); per-step LossMonitor(1) added (the script's LossCallBack prints every "
                      "10th step at 6 decimals); init weights through the script's pre_trained option")


PARITY_ENTRIES: list[ParityEntry] = [
    ParityEntry("lenet", "lenet-train", batch=8, data=_mnist,
                overrides={"batch_size": 8, "epoch_size": 1, "save_checkpoint_steps": 1000},
                hooks={"no_shuffle": True, "no_sink": True},
                turned_off="shuffle (MnistDataset(shuffle=True) in src/dataset.py, no flag: launcher hook); "
                           "sink mode (MindSpore's CPU build runs non-sink anyway: launcher hook); "
                           "no dropout or random augmentation in the script; init weights loaded by the "
                           "launcher at Model() (the script has no checkpoint option)"),
    ParityEntry("resnet18-cifar10", "resnet18-cifar10-train", batch=8, data=_cifar,
                overrides={"batch_size": 8, "epoch_size": 1, "train_image_size": 16, "pre_trained": "{init}",
                           "save_checkpoint": False},
                hooks={"no_shuffle": True, "loss_monitor": True,
                       "force_kwarg": ["src.dataset", "create_dataset1", "do_train", False]},
                ckpt_option=True, turned_off=_RESNET_TURNED_OFF),
    # At 16x16 ResNet-50's layer3 and layer4 run on 1x1 maps: each BatchNorm normalises 4 values per
    # channel, and a 1-ulp change of the input changes MindSpore's own layer4 output by 1.3 (of 6).
    # At 64x64 (layer4 on 2x2 maps) the network is well conditioned.
    ParityEntry("resnet50-cifar10", "resnet50-cifar10-train", batch=4, data=_cifar,
                overrides={"batch_size": 4, "epoch_size": 1, "train_image_size": 64, "pre_trained": "{init}",
                           "save_checkpoint": False},
                hooks={"no_shuffle": True, "loss_monitor": True,
                       "force_kwarg": ["src.dataset", "create_dataset1", "do_train", False]},
                ckpt_option=True, turned_off=_RESNET_TURNED_OFF),
    ParityEntry("dscnn", "dscnn-train", batch=4, data=_speech,
                overrides={"per_batch_size": 4, "max_epoch": 1, "drop": 1.0, "pretrained": "{init}",
                           "ckpt_interval": 1000},
                hooks={"no_shuffle": True, "no_sink": True, "loss_monitor": True}, ckpt_option=True,
                turned_off="shuffle (GeneratorDataset(shuffle=True) for the training split, no flag: launcher "
                           "hook); dropout (config drop: 1.0, the keep probability); sink mode (config "
                           "use_graph_mode sets it; MindSpore's CPU build runs non-sink anyway: launcher hook); "
                           "per-step LossMonitor(1) added (the script prints no per-step loss); init weights "
                           "through the script's pretrained option"),
    ParityEntry("deepfm", "deepfm-train", batch=1, data=_criteo,
                overrides={"keep_prob": 1.0, "convert_dtype": False, "save_checkpoint_steps": 1000},
                hooks={"no_shuffle": True, "no_sink": True},
                turned_off="shuffle (TFRecordDataset(shuffle=train_mode), no flag: launcher hook); dropout "
                           "(config keep_prob: 1.0); float16 casts (config convert_dtype: False); sink mode "
                           "(launcher hook, as for lenet); the script's LossCallBack prints LossMonitor's "
                           "line; initial weights (and the "
                           "optimizer's state) loaded by the launcher into the training cell the script hands "
                           "to Model (no checkpoint option); one TFRecord record (1000 samples) per step"),
]


# The other image-classification entries live in tools/_zoo_parity_cv.py, the NLP entries in
# tools/_zoo_parity_nlp.py (``NLP_PARITY_ENTRIES``), both built from this module's ParityEntry;
# run as a script, this module is also ``zoo_parity`` for their imports.
if __name__ == "__main__":
    sys.modules.setdefault("zoo_parity", sys.modules[__name__])
from _zoo_parity_cv import CV_PARITY_ENTRIES  # noqa: E402

PARITY_ENTRIES.extend(CV_PARITY_ENTRIES)
try:
    from _zoo_parity_nlp import NLP_PARITY_ENTRIES  # noqa: E402
except ModuleNotFoundError as _exc:  # only while that module does not exist
    if _exc.name != "_zoo_parity_nlp":
        raise
else:
    PARITY_ENTRIES.extend(NLP_PARITY_ENTRIES)


# --------------------------------------------------------------------------------------------
# Running.
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class ParityResult:
    """One entry's outcome: the comparison, or the run that failed."""

    name: str
    script: str
    steps: int
    comparison: Optional[Comparison] = None
    ms_losses: list = dataclasses.field(default_factory=list)
    tf_losses: list = dataclasses.field(default_factory=list)
    spread_losses: list = dataclasses.field(default_factory=list)
    spread: Optional[Comparison] = None
    error: str = ""
    seconds: dict = dataclasses.field(default_factory=dict)
    turned_off: str = ""
    stepwise: list = dataclasses.field(default_factory=list)

    @property
    def verdict(self) -> str:
        """``match``, ``differ``, ``within MindSpore's 1-ulp spread``, ``not comparable`` or ``failed``."""
        return self.comparison.verdict if self.comparison is not None else "failed"


def _fill(value: object, subst: dict) -> object:
    if isinstance(value, str):
        kind = type(value)
        for key, rep in subst.items():
            value = value.replace("{" + key + "}", rep)
        value = kind(value)
    return value


def _run(command: list, cwd: str, env: dict, log_path: str, timeout: float) -> tuple[Optional[int], str, float]:
    start = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code = None
    with open(log_path, encoding="utf-8", errors="replace") as f:
        return code, f.read(), time.monotonic() - start


def _why(code: Optional[int], log: str, zoo: str, timeout: float) -> str:
    where, error = zoo_check.parse_failure(log, zoo)
    if code is None:
        return f"timed out after {timeout:g} s"
    return f"{where}: {error}" if where else error


def write_configs(entry: ParityEntry, check, zoo: str, workdir: str, subst: dict) -> tuple[list, list]:
    """Writes the entry's config copies into ``workdir`` and returns the script's flags.

    The runs that train get ``check.overrides`` and ``entry.overrides``; the run that writes
    ``init.ckpt`` gets a copy (``init_<config>``) without the overrides whose value is ``"{init}"``
    (a script that loads its checkpoint option without checking the file exists would fail there)
    and with ``entry.init_overrides`` on top.

    Args:
        entry: The parity entry.
        check: Its ``tools/zoo_check.py`` entry (script flags, config, overrides).
        zoo: The zoo folder.
        workdir: The entry's working folder.
        subst: The ``{data}``, ``{work}`` and ``{init}`` replacements; ``config`` is added.

    Returns:
        ``(args, init_args)``: the flags of the training runs and of the run writing ``init.ckpt``.
    """
    init_subst = dict(subst)
    if check.config is not None:
        with open(os.path.join(zoo, check.config), encoding="utf-8") as f:
            text = f.read()
        overrides = {**check.overrides, **entry.overrides}
        init_overrides = {**{k: v for k, v in overrides.items() if v != "{init}"}, **entry.init_overrides}
        for prefix, values, where in (("", overrides, subst), ("init_", init_overrides, init_subst)):
            where["config"] = os.path.join(workdir, prefix + os.path.basename(check.config))
            with open(where["config"], "w", encoding="utf-8") as f:
                f.write(override_yaml(text, {k: _fill(v, subst) for k, v in values.items()}))
    return [str(_fill(a, subst)) for a in check.args], [str(_fill(a, init_subst)) for a in check.args]


def run_parity(entry: ParityEntry, zoo: str, workdir: str, steps: int, ms_python: str, tf_python: str,
               timeout: float, rtol: float, atol: float, tf_env: Optional[dict] = None,
               spread: bool = True, stepwise: bool = False) -> ParityResult:
    """Runs one entry under MindSpore and tfspore in ``workdir`` and compares the losses.

    Args:
        entry: What to run.
        zoo: The zoo folder.
        workdir: An empty working folder (``data/``, the config copy, ``init.ckpt`` and the logs
            ``ms_init.log``, ``ms.log``, ``tf.log`` go there).
        steps: Steps to train and compare.
        ms_python: Python with real MindSpore 2.10.
        tf_python: Python with tfspore.
        timeout: Time limit of each run in seconds.
        rtol: Relative tolerance.
        atol: Absolute tolerance.
        tf_env: Extra environment variables of the tfspore run (``TF_ENABLE_ONEDNN_OPTS=0``).
        spread: Where tfspore's losses differ, also run MindSpore from the initial weights moved
            by one ulp (:func:`judge`).
        stepwise: Also train each step from MindSpore's state after the step before it
            (``tools/_zoo_parity_stepwise.py``).

    Returns:
        The :class:`ParityResult`.
    """
    check = next(e for e in ENTRIES if e.name == entry.check)
    timeout = max(timeout, entry.timeout or 0)
    result = ParityResult(entry.name, check.script, steps, turned_off=entry.turned_off)
    data_dir = os.path.join(workdir, "data")
    init = os.path.join(workdir, "init.ckpt")
    subst = {"data": data_dir, "work": workdir, "init": init}
    os.makedirs(data_dir, exist_ok=True)
    writer = entry.data or check.data
    if writer is not None:
        writer(data_dir)
    args, init_args = write_configs(entry, check, zoo, workdir, subst)
    script = os.path.join(zoo, check.script)
    hooks = dict(entry.hooks, num_samples=steps * entry.batch)
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("CUDA_VISIBLE_DEVICES", "")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.setdefault("GLOG_v", "3")
    load = {} if entry.ckpt_option else {"load_init": init}
    runs = [
        ("ms_init", [ms_python, _LAUNCHER, script, *init_args], dict(hooks, save_init=init, stop_after_save=True)),
        ("ms", [ms_python, _LAUNCHER, script, *args],
         dict(hooks, **load, **({"save_state": os.path.join(workdir, "ms_state")} if stepwise else {}))),
        ("tf", [tf_python, "-m", "tfspore", "run", _LAUNCHER, script, *args], dict(hooks, **load)),
    ]
    extra = {"tf": dict(tf_env or {})}
    logs = {}
    for tag, command, settings in runs:
        if tag != "ms_init" and not os.path.isfile(init):
            result.error = "MindSpore wrote no initial checkpoint"
            return result
        run_dir = os.path.join(workdir, tag)
        os.makedirs(run_dir, exist_ok=True)
        code, log, seconds = _run(command, run_dir, dict(env, ZOO_PARITY=json.dumps(settings), **extra.get(tag, {})),
                                  os.path.join(workdir, f"{tag}.log"), timeout)
        result.seconds[tag] = round(seconds, 1)
        logs[tag] = log
        if code != 0:
            who = "tfspore" if tag == "tf" else "MindSpore"
            result.error = f"{who} run failed: {_why(code, log, zoo, timeout)}"
            result.ms_losses = parse_losses(logs.get("ms", ""))
            result.tf_losses = parse_losses(logs.get("tf", ""))
            return result
    result.ms_losses, result.tf_losses = parse_losses(logs["ms"]), parse_losses(logs["tf"])
    rtol = entry.rtol if entry.rtol is not None else rtol
    result.comparison = compare_losses(result.ms_losses, result.tf_losses, steps, rtol=rtol, atol=atol)
    if spread and result.comparison.verdict == "differ":
        run_dir = os.path.join(workdir, "ms_ulp")
        os.makedirs(run_dir, exist_ok=True)
        settings = dict(hooks, perturb_ulp=1, **load)
        code, log, seconds = _run([ms_python, _LAUNCHER, script, *args], run_dir,
                                  dict(env, ZOO_PARITY=json.dumps(settings)), os.path.join(workdir, "ms_ulp.log"),
                                  timeout)
        result.seconds["ms_ulp"] = round(seconds, 1)
        if code == 0:
            result.spread_losses = parse_losses(log)
            result.spread = compare_losses(result.ms_losses, result.spread_losses, steps, rtol=rtol, atol=atol)
            result.comparison = judge(result.comparison, result.spread)
    if stepwise:
        def runner(command: list, tag: str, extra_env: dict) -> Callable:
            def run(k: int, extra: dict) -> tuple:
                settings = json.dumps(dict(hooks, **load, **extra))
                folder = os.path.join(workdir, f"{tag}_from_{k}")
                os.makedirs(folder, exist_ok=True)
                return _run(command, folder, dict(env, ZOO_PARITY=settings, **extra_env),
                            os.path.join(workdir, f"{tag}_from_{k}.log"), timeout)[:2]
            return run

        result.stepwise = _stepwise(result, steps, entry.batch, workdir, init, rtol, atol,
                                    runner([tf_python, "-m", "tfspore", "run", _LAUNCHER, script, *args], "tf",
                                           dict(tf_env or {})),
                                    runner([ms_python, _LAUNCHER, script, *args], "ms_ulp", {}))
    return result


def _read_ckpt(path: str) -> dict:
    import mindspore  # pylint: disable=import-outside-toplevel  (MindSpore's own reader of both states)
    return {name: p.asnumpy() for name, p in mindspore.load_checkpoint(path).items()}


def _stepwise(result: ParityResult, steps: int, batch: int, workdir: str, init: str, rtol: float, atol: float,
              run_tf: Callable, run_ms: Callable) -> list:
    if len(result.ms_losses) < steps:
        return []
    def first_loss(log: str) -> Optional[float]:
        found = parse_losses(log)
        return found[0][2] if found else None
    return stepwise_mod.run_stepwise(steps, batch, os.path.join(workdir, "ms_state"),
                                     [l for _, _, l in result.ms_losses[:steps]], list(_read_ckpt(init)), run_tf,
                                     first_loss, _read_ckpt, workdir, rtol, atol, run_ms)


# --------------------------------------------------------------------------------------------
# Output.
# --------------------------------------------------------------------------------------------

def _num(x: float) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2e}"


def _row(r: ParityResult) -> tuple[str, str, str, str, str]:
    c = r.comparison
    if c is None:
        return r.name, str(r.steps), "-", "-", f"failed: {r.error}"
    verdict = c.verdict + (f" ({c.note})" if c.note else "")
    if r.stepwise:
        verdict += "; " + stepwise_mod.summarize(r.stepwise)
    return r.name, str(c.steps), _num(c.max_abs), _num(c.max_rel), verdict


def format_table(results: Sequence[ParityResult]) -> str:
    """A plain-text table: script, steps, max abs and rel difference, verdict; then the losses."""
    head = ("script", "steps", "max abs diff", "max rel diff", "verdict")
    rows = [head] + [_row(r) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4] for row in rows]
    for r in results:
        if r.ms_losses or r.tf_losses:
            lines.append(f"{r.name}: MindSpore {[l for _, _, l in r.ms_losses[:r.steps]]}")
            lines.append(f"{' ' * len(r.name)}  tfspore   {[l for _, _, l in r.tf_losses[:r.steps]]}")
        if r.spread_losses:
            lines.append(f"{' ' * len(r.name)}  MS 1-ulp  {[l for _, _, l in r.spread_losses[:r.steps]]}")
    return "\n".join(lines)


def format_markdown(results: Sequence[ParityResult]) -> str:
    """The results as a markdown table (script, steps, max abs/rel diff, verdict)."""
    rows = ["| script | steps | max abs diff | max rel diff | verdict |", "|---|---|---|---|---|"]
    for r in results:
        name, steps, a, b, verdict = _row(r)
        rows.append(f"| {name} (`{r.script}`) | {steps} | {a} | {b} | {verdict.replace('|', chr(92) + '|')} |")
    return "\n".join(rows) + "\n"


def main(argv: Optional[Sequence[str]] = None, entries: Optional[Sequence[ParityEntry]] = None) -> int:
    """Command line entry point; returns 0 when every selected entry matches (or is within
    MindSpore's own 1-ulp spread), else 1."""
    parser = argparse.ArgumentParser(prog="zoo_parity.py", description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", required=True, help="folder of the model zoo (mindspore-ai/models)")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME", help="compare only these entries")
    parser.add_argument("--steps", type=int, default=5, help="training steps compared (default 5)")
    parser.add_argument("--rtol", type=float, default=1e-4, help="relative tolerance (default 1e-4)")
    parser.add_argument("--atol", type=float, default=1e-5, help="absolute tolerance (default 1e-5)")
    parser.add_argument("--timeout", type=float, default=180.0, help="time limit of each run in seconds")
    parser.add_argument("--ms-python", default=os.path.join(_ROOT, ".venv-msds", "bin", "python"),
                        help="Python with real MindSpore 2.10 and a working dataset module")
    parser.add_argument("--tf-python", default=sys.executable, help="Python with tfspore")
    parser.add_argument("--tf-env", nargs="+", default=[], metavar="KEY=VALUE",
                        help="environment of the tfspore runs (TF_ENABLE_ONEDNN_OPTS=0 turns off TensorFlow's "
                             "oneDNN graph rewrites)")
    parser.add_argument("--no-spread", action="store_true",
                        help="where losses differ, do not run MindSpore again from one-ulp-moved weights")
    parser.add_argument("--stepwise", action="store_true",
                        help="also train each step under tfspore from MindSpore's saved state after the step before "
                             "(loss, weights and optimizer state of every single step compared)")
    parser.add_argument("--workdir", default=None, help="folder for the working folders (kept)")
    parser.add_argument("--json", default=None, metavar="OUT", help="write the results to this JSON file")
    parser.add_argument("--markdown", default=None, metavar="OUT", help="write the table as markdown")
    parser.add_argument("--zoo-commit", default="", help="the zoo's commit for the JSON report "
                        "(default: from git, where ZOO_DIR is a git checkout)")
    parser.add_argument("--list", action="store_true", help="list the entries and exit")
    args = parser.parse_args(argv)
    entries = list(PARITY_ENTRIES if entries is None else entries)
    if args.list:
        for e in entries:
            print(f"{e.name:<24} {next(c.script for c in ENTRIES if c.name == e.check)}")
        return 0
    if args.steps <= 0:
        parser.error(f"the argument '--steps' must be positive, but got {args.steps!r}")
    zoo = os.path.abspath(args.zoo)
    if not os.path.isdir(zoo):
        parser.error(f"the argument '--zoo' must be a folder, but got {args.zoo!r}")
    by_name = {e.name: e for e in entries}
    unknown = [n for n in args.only if n not in by_name]
    if unknown:
        parser.error(f"the argument '--only' must name entries of the list, but got {unknown[0]!r} "
                     f"(known: {', '.join(by_name)})")
    selected = [by_name[n] for n in args.only] if args.only else entries
    bad_env = [kv for kv in args.tf_env if "=" not in kv or not kv.split("=", 1)[0]]
    if bad_env:
        parser.error(f"the argument '--tf-env' must be KEY=VALUE, but got {bad_env[0]!r}")
    tf_env = dict(kv.split("=", 1) for kv in args.tf_env)
    base = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="zoo_parity_")
    started = time.time()
    results = []
    try:
        for entry in selected:
            workdir = os.path.join(base, entry.name)
            shutil.rmtree(workdir, ignore_errors=True)
            os.makedirs(workdir)
            result = run_parity(entry, zoo, workdir, args.steps, args.ms_python, args.tf_python, args.timeout,
                                args.rtol, args.atol, tf_env, spread=not args.no_spread, stepwise=args.stepwise)
            results.append(result)
            print(" ".join(_row(result)), flush=True)
        print(format_table(results))
        if args.json:
            date = datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            commit = args.zoo_commit or zoo_check._zoo_commit(zoo)  # pylint: disable=protected-access
            report = {"date": date, "zoo": zoo, "zoo_commit": commit, "steps": args.steps, "rtol": args.rtol,
                      "atol": args.atol, "tf_env": tf_env,
                      "results": [dict(dataclasses.asdict(r), verdict=r.verdict) for r in results]}
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(report, f, indent=2)
                f.write("\n")
        if args.markdown:
            with open(args.markdown, "w", encoding="utf-8") as f:
                f.write(format_markdown(results))
    finally:
        if not args.workdir:
            shutil.rmtree(base, ignore_errors=True)
    return 0 if results and all(r.verdict in ("match", "within MindSpore's 1-ulp spread") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

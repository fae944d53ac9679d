"""Train the same workloads in tfspore, Keras 3, a hand-written TF loop and MindSpore, side by side.

Every framework / configuration runs in its own process (``bench/worker.py``), so each peak
resident memory (``ru_maxrss`` of the child) is its own; the repeats are interleaved
(A B C ... A B C ...) and each figure is the median of the repeats. Per configuration:

* ``first epoch s``: from the train call to the end of the first epoch (trace and compile included);
* ``ms/step``: the median over the later epochs of epoch time / steps per epoch;
* ``peak MB``: the peak resident memory of the process.

The configurations:

* ``keras spe=1`` / ``keras spe=N``: ``model.fit`` as a Keras user writes it (NHWC layers,
  ``SGD(momentum=0.9)``, ``jit_compile`` left at its default), ``steps_per_execution`` 1 and N;
* ``tf loop`` / ``tf loop xN``: the floor, a hand-written ``tf.function`` training step (the same
  Keras layers, ``GradientTape``, the fused ``ResourceApplyMomentum``), called once per step, or
  N steps per call in a ``tf.range`` loop;
* ``tfspore`` / ``tfspore sink=N``: ``Model.train`` in GRAPH_MODE (NCHW, ``nn.Momentum``) on a
  ``NumpySlicesDataset``, without and with ``dataset_sink_mode`` (``sink_size=N``);
* ``tfspore [tf.data]`` / ``tfspore sink=N [tf.data]``: the same, fed the Keras runs'
  ``tf.data`` pipeline (the training engine without the dataset engine);
* ``mindspore``: real MindSpore 2.10 (CPU, GRAPH_MODE, non-sink: MindSpore's CPU backend has no
  dataset sink) run in ``.venv-msds`` (``TFSPORE_MSDS_PYTHON``), when that environment exists;
  by default once per workload and at most 10 steps per epoch (``--mindspore_repeats``,
  ``--mindspore_max_steps``), as its CPU kernels are far slower.

Ratios are to the Keras configuration with the same steps per call (spe=1 for per-step
configurations, spe=N for N-step ones); ``x floor`` is to the hand-written loop with the same steps
per call. The last lines are one JSON record per workload.

Example:
    .venv/bin/python -m bench.run --workloads mlp,lenet --epochs 5 --repeats 3 --sink_size 10
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._spec import WORKLOADS  # noqa: E402

MS_PYTHON = Path(os.environ.get("TFSPORE_MSDS_PYTHON", ROOT / ".venv-msds" / "bin" / "python"))

# label -> (framework, worker config, steps per call is N, baseline keras label, floor label)
CONFIGS = {
    "keras spe=1": ("keras", "spe1", False),
    "keras spe=N": ("keras", "speN", True),
    "tf loop": ("tf", "step", False),
    "tf loop xN": ("tf", "loopN", True),
    "tfspore": ("tfspore", "nonsink", False),
    "tfspore sink=N": ("tfspore", "sink", True),
    "tfspore [tf.data]": ("tfspore", "nonsink-tfdata", False),
    "tfspore sink=N [tf.data]": ("tfspore", "sink-tfdata", True),
    "mindspore": ("mindspore", "nonsink", False),
}
METRICS = ("first_epoch_s", "ms_per_step", "peak_rss_mb")


def _python_for(framework: str) -> str | None:
    if framework == "mindspore":
        return str(MS_PYTHON) if MS_PYTHON.exists() else None
    return sys.executable


def run_one(framework: str, config: str, workload: str, epochs: int, steps: int, sink_size: int,
            timeout: float) -> dict:
    """Run one configuration in a child process; return its result (``error`` on failure)."""
    python = _python_for(framework)
    cmd = [python, "-m", "bench.worker", "--framework", framework, "--config", config, "--workload", workload,
           "--epochs", str(epochs), "--steps", str(steps), "--sink_size", str(sink_size)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", GLOG_v="3")
    if framework == "mindspore":
        env["PYTHONPATH"] = ""
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"error": f"timed out after {timeout:.0f} s"}
    for line in out.splitlines():
        if line.startswith("BENCH_RESULT "):
            return json.loads(line[len("BENCH_RESULT "):])
    tail = "\n".join((err or out).strip().splitlines()[-5:])
    return {"error": f"exit {proc.returncode}: {tail}"}


def _median(runs: list, key: str) -> float | None:
    values = [r[key] for r in runs if "error" not in r]
    return statistics.median(values) if values else None


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}" if a is not None and b else "-"


def _fmt(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(workload: str, summary: dict, sink_size: int) -> str:
    """A Markdown table of one workload's medians with the ratios to Keras and to the floor."""
    lines = [f"### {workload}: {WORKLOADS[workload].description}", "",
             "| config | first epoch s | x keras | ms/step | x keras | x floor | peak MB | x keras |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, s in summary.items():
        if s is None:
            continue
        n_steps = CONFIGS[label][2]
        keras = summary.get("keras spe=N" if n_steps else "keras spe=1") or {}
        floor = summary.get("tf loop xN" if n_steps else "tf loop") or {}
        name = label.replace("=N", f"={sink_size}").replace("xN", f"x{sink_size}")
        if s.get("error"):
            lines.append(f"| {name} | error: {s['error'][:60]} |  |  |  |  |  |  |")
            continue
        lines.append(f"| {name} | {_fmt(s['first_epoch_s'], 2)} | {_ratio(s['first_epoch_s'], keras.get('first_epoch_s'))}"
                     f" | {_fmt(s['ms_per_step'], 2)} | {_ratio(s['ms_per_step'], keras.get('ms_per_step'))}"
                     f" | {_ratio(s['ms_per_step'], floor.get('ms_per_step'))}"
                     f" | {_fmt(s['peak_rss_mb'], 0)} | {_ratio(s['peak_rss_mb'], keras.get('peak_rss_mb'))} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="tfspore vs Keras vs a hand-written TF loop vs MindSpore.")
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated: " + ",".join(WORKLOADS))
    parser.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated labels, from: "
                        + ", ".join(CONFIGS))
    parser.add_argument("--epochs", type=int, default=5, help="epochs per run (the first is the compile epoch)")
    parser.add_argument("--steps", type=int, default=None, help="steps per epoch (default: per workload)")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved runs per configuration")
    parser.add_argument("--sink_size", type=int, default=10, help="N: sink_size and steps_per_execution")
    parser.add_argument("--mindspore_max_steps", type=int, default=10,
                        help="at most this many steps per epoch for MindSpore (its CPU kernels are slow)")
    parser.add_argument("--mindspore_repeats", type=int, default=1, help="runs of MindSpore per workload")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    parser.add_argument("--json", default=None, help="also append the JSON lines to this file")
    args = parser.parse_args(argv)
    workloads = [w for w in args.workloads.split(",") if w]
    labels = [c.strip() for c in args.configs.split(",") if c.strip()]
    for name in workloads:
        if name not in WORKLOADS:
            parser.error(f"unknown workload {name!r}; choose from {', '.join(WORKLOADS)}")
    for label in labels:
        if label not in CONFIGS:
            parser.error(f"unknown config {label!r}; choose from {', '.join(CONFIGS)}")
    if "mindspore" in labels and _python_for("mindspore") is None:
        print(f"note: MindSpore's environment {MS_PYTHON} is missing (bash scripts/ms_dataset_env.sh builds it): "
              "the mindspore rows are skipped.")
        labels.remove("mindspore")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"# tfspore benchmark, {stamp}; load average {os.getloadavg()[0]:.2f}; epochs {args.epochs}, "
          f"repeats {args.repeats} (interleaved, medians), N = {args.sink_size}\n")
    records = []
    for workload in workloads:
        steps = args.steps or WORKLOADS[workload].steps
        steps -= steps % args.sink_size
        runs: dict = {label: [] for label in labels}
        for rep in range(args.repeats):
            for label in labels:
                framework, config, _ = CONFIGS[label]
                n = steps
                if framework == "mindspore":
                    if rep >= args.mindspore_repeats:
                        continue
                    n = min(steps, args.mindspore_max_steps)
                res = run_one(framework, config, workload, args.epochs, n, args.sink_size, args.timeout)
                runs[label].append(res)
                status = res.get("error") or f"{res['ms_per_step']:.2f} ms/step"
                print(f"  [{workload} {rep + 1}/{args.repeats}] {label}: {status}", file=sys.stderr, flush=True)
        summary = {}
        for label in labels:
            ok = [r for r in runs[label] if "error" not in r]
            if not ok:
                summary[label] = {"error": runs[label][0]["error"]}
                continue
            summary[label] = {m: _median(ok, m) for m in METRICS}
            summary[label]["runs"] = len(ok)
            summary[label]["steps_per_epoch"] = ok[0]["steps"]
        print(table(workload, summary, args.sink_size) + "\n", flush=True)
        record = {"workload": workload, "date": stamp, "steps_per_epoch": steps, "epochs": args.epochs,
                  "batch": WORKLOADS[workload].batch, "sink_size": args.sink_size, "repeats": args.repeats,
                  "load_average": os.getloadavg()[0], "results": summary}
        records.append(record)
    for record in records:
        line = json.dumps(record, sort_keys=True)
        print(line)
        if args.json:
            with open(args.json, "a", encoding="utf-8") as f:
                f.write(line + "\n")


if __name__ == "__main__":
    main()

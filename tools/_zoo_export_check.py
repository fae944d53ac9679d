"""Checks a zoo ``export.py`` run from MindSpore's side (the export entries of tools/zoo_check.py).

A zoo ``export.py`` that ends without an error only shows that a file was written. The check
asks what a MindSpore user would: does real MindSpore 2.10 load that ``.mindir``
(``mindspore.load`` + ``nn.GraphCell``), and does the graph compute what the network computes?
It has two halves, in two processes, because tfspore's import alias and real MindSpore cannot
both own the name ``mindspore`` in one process:

``record`` (the export run itself)::

    ZOO_EXPORT_CHECK='{"out": "rec"}' python -m tfspore run tools/_zoo_export_check.py SCRIPT ARGS...

  The script runs unchanged (``runpy``, as ``__main__``, ``sys.argv`` = ``[SCRIPT, ARGS...]``,
  its folder first on ``sys.path``). Every ``mindspore.export(net, *inputs, file_name=...,
  file_format='MINDIR')`` it makes is passed through to the real export; then the same network
  (the script's, holding the checkpoint the script loaded into it) runs on the script's own
  inputs and on a fixed input (seeded: floats uniform in ``float_range``, integers uniform in
  ``[0, int_high)``), and the inputs, the outputs and the written file's path go to
  ``rec_<k>.npz`` (k counts the exports). Without the alias (plain ``python``) the same command
  records real MindSpore's own export of the same script and weights: a reference run.

``compare`` (real MindSpore)::

    python tools/_zoo_export_check.py compare rec_0.npz [--rtol 1e-5] [--reference ms_rec_0.npz]

  loads the file with ``mindspore.load`` + ``nn.GraphCell``, runs it on both recorded inputs and
  prints one JSON line: whether it loads, and per input the largest absolute difference to the
  recorded outputs and that difference relative to the outputs' largest magnitude. An output
  matches when ``|got - want| <= rtol * |want| + rtol * max|want|`` elementwise (float32
  tolerance at the default ``rtol``, as the parity tests of MindIR export), and a non-finite
  value where the recorded output is finite is a mismatch. On an input that does not match, the
  file also runs with one-ulp changes of that input (:func:`ulp_spread`): how far MindSpore's
  own outputs move under rounding-size changes; with ``--spread-ok`` a difference within that
  spread passes (for a network shown to be that sensitive). With ``--reference`` (a record of
  real MindSpore's own export of the same script) the line also gives, on the fixed input (the
  same in both records), MindSpore's own file, tfspore's file and tfspore's network against
  MindSpore's own network: whether a difference is tfspore's or MindSpore's own.
"""
from __future__ import annotations

import dataclasses
import functools
import glob
import json
import os
import runpy
import subprocess
import sys
from typing import Any, Optional, Sequence

import numpy as np

__all__ = ["ExportCheck", "fixed_inputs", "compare_arrays", "record_export", "install_recorder", "record_main",
           "compare_record", "record_command", "record_prefix", "run_check", "check_passed", "describe", "verdict",
           "ulp_spread", "export_table"]

_ENV = "ZOO_EXPORT_CHECK"
_RECORD = "export_record"


@dataclasses.dataclass(frozen=True)
class ExportCheck:
    """How an export entry's MindIR is checked.

    Attributes:
        rtol: Tolerance relative to each element and to the outputs' largest magnitude
            (1e-5: float32; networks that compute in float16 need about 1e-3).
        float_range: Range of the fixed input's float values.
        int_high: The fixed input's integers are drawn from ``[0, int_high)`` (0 and 1 are valid
            token ids, masks and segment ids of the zoo's NLP networks).
        seed: Seed of the fixed input.
        ulp_dtype: The dtype whose one-ulp steps measure MindSpore's own spread
            (:func:`ulp_spread`): the dtype the network computes in.
        spread_ok: Accept an output outside ``rtol`` when the difference lies within
            MindSpore's own one-ulp input spread on that input (for a network shown to be that
            sensitive; ``note`` says why).
        note: Why the settings differ from the defaults (shown in docs/zoo.md).
    """

    rtol: float = 1e-5
    float_range: tuple = (-1.0, 1.0)
    int_high: int = 2
    seed: int = 0
    ulp_dtype: str = "float32"
    spread_ok: bool = False
    note: str = ""

    def settings(self, out: str) -> str:
        """The JSON the recording run reads from ``ZOO_EXPORT_CHECK``."""
        return json.dumps({"out": out, "float_range": list(self.float_range), "int_high": self.int_high,
                           "seed": self.seed})


# --------------------------------------------------------------------------------- record
def _flatten(value: Any) -> list:
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _numpy(value: Any) -> np.ndarray:
    return np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)


def fixed_inputs(arrays: Sequence[np.ndarray], settings: dict) -> list:
    """The fixed input of the same shapes and dtypes as ``arrays``: seeded uniform floats in
    ``settings['float_range']``, integers in ``[0, settings['int_high'])``, booleans."""
    rng = np.random.default_rng(int(settings.get("seed", 0)))
    low, high = settings.get("float_range", (-1.0, 1.0))
    out = []
    for a in arrays:
        if a.dtype.kind == "f":
            out.append(rng.uniform(low, high, a.shape).astype(a.dtype))
        elif a.dtype.kind == "b":
            out.append(rng.integers(0, 2, a.shape).astype(bool))
        else:
            out.append(rng.integers(0, int(settings.get("int_high", 2)), a.shape).astype(a.dtype))
    return out


def _mindir_path(file_name: str) -> str:
    return os.path.abspath(file_name if file_name.endswith(".mindir") else file_name + ".mindir")


def record_export(ms: Any, net: Any, inputs: Sequence[Any], file_name: str, settings: dict, path: str) -> None:
    """Runs ``net`` (exported to ``file_name``) on ``inputs`` and on the fixed input and writes
    the inputs, outputs and the MindIR's path to ``path`` (``.npz``).

    Args:
        ms: The framework's module (``tfspore`` or real ``mindspore``), for its ``Tensor``.
        net: The exported network.
        inputs: The export's inputs.
        file_name: The export's ``file_name``.
        settings: ``float_range``, ``int_high`` and ``seed`` of the fixed input.
        path: The record file.
    """
    script_in = [_numpy(x) for x in inputs]
    fixed_in = fixed_inputs(script_in, settings)
    script_out = [_numpy(y) for y in _flatten(net(*inputs))]
    fixed_out = [_numpy(y) for y in _flatten(net(*[ms.Tensor(a) for a in fixed_in]))]
    arrays = {"mindir": np.array(_mindir_path(file_name)), "framework": np.array(ms.__name__.split(".")[0])}
    for tag, values in (("script_in", script_in), ("script_out", script_out), ("fixed_in", fixed_in),
                        ("fixed_out", fixed_out)):
        arrays.update({f"{tag}_{i}": v for i, v in enumerate(values)})
    np.savez(path, **arrays)


def install_recorder(ms: Any, settings: dict) -> None:
    """Wraps ``ms.export`` (in every loaded module that holds it) so that each MINDIR export is
    recorded after it is written, to ``<settings['out']>_<k>.npz`` (see the module docstring)."""
    original = ms.export
    count = [0]

    @functools.wraps(original)
    def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
        original(net, *inputs, file_name=file_name, file_format=file_format, **kwargs)
        if file_format == "MINDIR":
            path = f"{settings['out']}_{count[0]}.npz"
            count[0] += 1
            record_export(ms, net, inputs, file_name, settings, path)
            print(f"export check: recorded {_mindir_path(file_name)} in {path}", flush=True)

    for module in list(sys.modules.values()):
        if getattr(module, "__dict__", {}).get("export") is original:
            module.export = export


def record_main(argv: Sequence[str]) -> None:
    """Runs ``argv[0]`` (a zoo script, with ``argv[1:]`` as its arguments) as ``__main__`` with
    the recorder installed; the settings come from ``ZOO_EXPORT_CHECK``."""
    settings = json.loads(os.environ.get(_ENV, "{}"))
    if not settings.get("out"):
        raise SystemExit(f"_zoo_export_check: {_ENV} must name the record file prefix ('out')")
    settings["out"] = os.path.abspath(settings["out"])
    script = os.path.abspath(argv[0])
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.path.insert(0, os.path.dirname(script))
    sys.argv = [script] + list(argv[1:])
    import mindspore as ms  # tfspore under `python -m tfspore run`, real MindSpore otherwise

    install_recorder(ms, settings)
    runpy.run_path(script, run_name="__main__")


# -------------------------------------------------------------------------------- compare
def compare_arrays(got: np.ndarray, want: np.ndarray, rtol: float) -> dict:
    """How far MindSpore's output ``got`` is from the recorded ``want``.

    Returns:
        ``max_abs`` (the largest ``|got - want|``, ``inf`` for a non-finite value where ``want``
        is finite), ``max_rel`` (``max_abs`` over ``scale``, the largest finite ``|want|``),
        ``nonfinite`` (``got`` not finite where ``want`` is) and ``ok``: every element within
        ``rtol * |want| + rtol * scale``, and where ``want`` is not finite, ``got`` the same.
    """
    g, w = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(w)
    w0 = np.where(finite, w, 0.0)
    scale = float(np.max(np.abs(w0))) if w.size else 0.0
    nonfinite = bool(np.any(~np.isfinite(g) & finite))
    same_elsewhere = bool(np.all(finite | (np.isnan(g) & np.isnan(w)) | (g == w)))
    err = np.where(finite, np.abs(g - w0), 0.0)
    err = np.where(np.isnan(err), np.inf, err)
    max_abs = float(err.max()) if err.size else 0.0
    ok = not nonfinite and same_elsewhere and bool(np.all(err <= rtol * np.abs(w0) + rtol * scale))
    return {"max_abs": max_abs, "max_rel": max_abs / scale if scale else max_abs, "scale": scale,
            "nonfinite": nonfinite, "want_nonfinite": int(np.sum(~finite)), "ok": ok}


def _merge(diffs: list) -> dict:
    return {"max_abs": max(d["max_abs"] for d in diffs), "max_rel": max(d["max_rel"] for d in diffs),
            "scale": max(d["scale"] for d in diffs), "nonfinite": any(d["nonfinite"] for d in diffs),
            "want_nonfinite": sum(d.get("want_nonfinite", 0) for d in diffs), "ok": all(d["ok"] for d in diffs)}


def _arrays(rec: Any, tag: str) -> list:
    keys = sorted((k for k in rec.files if k.startswith(tag + "_")), key=lambda k: int(k.rsplit("_", 1)[1]))
    return [rec[k] for k in keys]


def _error(exc: BaseException) -> str:
    lines = [x.strip() for x in str(exc).strip().splitlines() if x.strip()]
    return f"{type(exc).__name__}: {lines[0][:300] if lines else ''}"


def _run_graph(ms: Any, cell: Any, inputs: list) -> list:
    return [_numpy(y) for y in _flatten(cell(*[ms.Tensor(a) for a in inputs]))]


def ulp_spread(ms: Any, cell: Any, inputs: list, outputs: list, ulp_dtype: str = "float32", trials: int = 3,
               seed: int = 0) -> Optional[float]:
    """How far MindSpore's own outputs move when the inputs move by one ulp.

    A random half of each float input's elements moves by one ulp of ``ulp_dtype`` up or down
    (``numpy.nextafter``; a float16 network's input is moved by float16's ulp), ``trials``
    times; the result is the largest change of ``cell``'s outputs against ``outputs`` (its
    outputs on ``inputs``), relative to their largest magnitude.
    A network whose outputs move that far under rounding-size changes of its input cannot agree
    with another implementation more closely: the measure of what "within rounding" means for it.

    Returns:
        The relative spread, or ``None`` when no input is a float.
    """
    rng = np.random.default_rng(seed)
    floats = [i for i, a in enumerate(inputs) if a.dtype.kind == "f"]
    finite = [np.abs(np.where(np.isfinite(o), o, 0.0)).max() for o in outputs if o.size]
    scale = float(max(finite)) if finite else 0.0
    if not floats or not scale:
        return None
    worst = 0.0
    for _ in range(trials):
        moved = list(inputs)
        for i in floats:
            a = inputs[i]
            low = a.astype(ulp_dtype)
            toward = np.where(rng.random(a.shape) < 0.5, np.inf, -np.inf).astype(ulp_dtype)
            moved[i] = np.where(rng.random(a.shape) < 0.5, np.nextafter(low, toward).astype(a.dtype), a)
        for g, w in zip(_run_graph(ms, cell, moved), outputs):
            err = np.abs(g.astype(np.float64) - w.astype(np.float64))
            worst = max(worst, float(np.nanmax(np.where(np.isnan(err), np.inf, err))) if err.size else 0.0)
    return worst / scale


def _compare_outputs(got: list, want: list, rtol: float) -> dict:
    if len(got) != len(want) or any(g.shape != w.shape for g, w in zip(got, want)):
        return {"ok": False, "error": f"outputs {[g.shape for g in got]}, expected {[w.shape for w in want]}"}
    return _merge([compare_arrays(g, w, rtol) for g, w in zip(got, want)])


def compare_record(record: str, rtol: float = 1e-5, reference: Optional[str] = None,
                   ulp_dtype: str = "float32", spread_ok: bool = False) -> dict:
    """Runs the recorded MindIR in real MindSpore on the recorded inputs (see the module docstring).

    Args:
        record: A ``.npz`` written by the recording run.
        rtol: The tolerance.
        reference: A record of real MindSpore's own export of the same script and weights.
        ulp_dtype: See :func:`ulp_spread` (measured on an input that does not match).
        spread_ok: Whether a difference within that spread passes (``"passed"``).

    Returns:
        ``{"mindir", "loads", "error", "script", "fixed", "ok", "passed"}`` (``script`` and
        ``fixed``: the differences on each input, see :func:`compare_arrays`; ``ok``: all within
        ``rtol``; ``passed``: ``ok``, or with ``spread_ok`` within the spread), plus
        ``"reference"`` with ``reference``.
    """
    import mindspore as ms  # real MindSpore

    rec = np.load(record, allow_pickle=False)
    result: dict = {"mindir": str(rec["mindir"]), "loads": False, "error": "", "ok": False, "rtol": rtol}
    try:
        cell = ms.nn.GraphCell(ms.load(result["mindir"]))
    except Exception as exc:  # noqa: BLE001 - reported, not raised: the entry's outcome
        result["error"] = f"mindspore.load: {_error(exc)}"
        return result
    result["loads"] = True
    got = {}
    for which in ("script", "fixed"):
        try:
            got[which] = _run_graph(ms, cell, _arrays(rec, f"{which}_in"))
        except Exception as exc:  # noqa: BLE001
            result["error"] = f"GraphCell on the {which} input: {_error(exc)}"
            return result
        result[which] = _compare_outputs(got[which], _arrays(rec, f"{which}_out"), rtol)
        if not result[which]["ok"] and "max_abs" in result[which]:
            result[which]["spread"] = ulp_spread(ms, cell, _arrays(rec, f"{which}_in"), got[which], ulp_dtype)
    result["ok"] = result["script"]["ok"] and result["fixed"]["ok"]
    spread = _spread(result)
    result["passed"] = result["ok"] or (spread_ok and spread is not None
                                        and _merge([result["script"], result["fixed"]])["max_rel"] <= spread)
    if reference:
        result["reference"] = _compare_reference(ms, rec, got["fixed"], np.load(reference, allow_pickle=False),
                                                 rtol)
    return result


def _compare_reference(ms: Any, rec: Any, ts_file_out: list, ref: Any, rtol: float) -> dict:
    """On the fixed input, against MindSpore's own network (same weights): MindSpore's own
    export, tfspore's export and tfspore's network."""
    want_ms = _arrays(ref, "fixed_out")
    out: dict = {"mindir": str(ref["mindir"])}
    if not all(np.array_equal(a, b) for a, b in zip(_arrays(ref, "fixed_in"), _arrays(rec, "fixed_in"))):
        out["error"] = "the two records have different fixed inputs"
        return out
    try:
        got = _run_graph(ms, ms.nn.GraphCell(ms.load(out["mindir"])), _arrays(ref, "fixed_in"))
    except Exception as exc:  # noqa: BLE001
        out["error"] = f"MindSpore's own file: {_error(exc)}"
        return out
    out["ms_file_vs_ms_net"] = _compare_outputs(got, want_ms, rtol)
    out["ts_file_vs_ms_net"] = _compare_outputs(ts_file_out, want_ms, rtol)
    out["ts_net_vs_ms_net"] = _compare_outputs(_arrays(rec, "fixed_out"), want_ms, rtol)
    return out


# ------------------------------------------------------------------------------ tool side
def record_command(python: str, script: str, args: Sequence[str], under_tfspore: bool = True) -> list:
    """The command that runs ``script`` with the recorder: under tfspore (``-m tfspore run``) or,
    for a reference run, under real MindSpore."""
    this = os.path.abspath(__file__)
    return [python, "-m", "tfspore", "run", this, script, *args] if under_tfspore else [python, this, script, *args]


def record_prefix(workdir: str) -> str:
    """Where a run in ``workdir`` records its exports."""
    return os.path.join(workdir, _RECORD)


def run_check(workdir: str, check: ExportCheck, python: str, timeout: float,
              reference_dir: Optional[str] = None) -> list:
    """Compares every export recorded in ``workdir`` in a real-MindSpore subprocess.

    Returns:
        One dict per recorded export (see :func:`compare_record`); ``[]`` when the run recorded none.
    """
    results = []
    for record in sorted(glob.glob(record_prefix(workdir) + "_*.npz")):
        command = [python, os.path.abspath(__file__), "compare", record, "--rtol", repr(check.rtol),
                   "--ulp-dtype", check.ulp_dtype] + (["--spread-ok"] if check.spread_ok else [])
        reference = None
        if reference_dir is not None:
            reference = os.path.join(reference_dir, os.path.basename(record))
            if os.path.exists(reference):
                command += ["--reference", reference]
        env = dict(os.environ, CUDA_VISIBLE_DEVICES=os.environ.get("CUDA_VISIBLE_DEVICES", ""))
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            results.append({"mindir": record, "loads": False, "ok": False,
                            "error": f"MindSpore's check timed out after {timeout:g} s"})
            continue
        line = next((x for x in reversed(proc.stdout.splitlines()) if x.startswith("{")), None)
        if proc.returncode != 0 or line is None:
            last = next((x.strip() for x in reversed((proc.stderr or proc.stdout).splitlines()) if x.strip()), "")
            how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"status {proc.returncode}"
            results.append({"mindir": record, "loads": False, "ok": False,
                            "error": f"MindSpore's check ended with {how}: {last}"})
            continue
        results.append(json.loads(line))
    return results


def check_passed(checks: list) -> bool:
    """Whether an export entry's check found exports and all of them passed."""
    return bool(checks) and all(c.get("passed", c.get("ok")) for c in checks)


def _spread(c: dict) -> Optional[float]:
    spreads = [c[k].get("spread") for k in ("script", "fixed") if not c[k].get("ok")]
    return None if not spreads or any(s is None for s in spreads) else max(spreads)


def verdict(c: dict) -> str:
    """``match``; ``DIFFERS`` (with MindSpore's own one-ulp input spread where measured, and
    whether the difference lies within it); or why MindSpore could not run the file."""
    if not c.get("loads"):
        return f"MindSpore cannot load it: {c.get('error')}"
    if c.get("error"):
        return c["error"]
    if "max_abs" not in c["script"] or "max_abs" not in c["fixed"]:
        return f"outputs differ in shape: {c['script'].get('error') or c['fixed'].get('error')}"
    if c["ok"]:
        return "match"
    worst = _merge([c["script"], c["fixed"]])
    text = "DIFFERS" + (" (non-finite values)" if worst["nonfinite"] else "")
    spread = _spread(c)
    if spread is not None:
        within = "within" if worst["max_rel"] <= spread else "beyond"
        text += f", {within} MindSpore's own one-ulp input spread ({spread:.2g} rel)"
        text += " (accepted)" if c.get("passed") else ""
    return text


def describe(checks: list) -> str:
    """One line for the results table: what MindSpore did with each file."""
    if not checks:
        return "MindSpore check: the script exported no MINDIR file"
    parts = []
    for c in checks:
        name = os.path.basename(c.get("mindir", ""))
        what = verdict(c)
        if not c.get("loads"):
            parts.append(f"MindSpore cannot load {name}: {c.get('error')}")
            continue
        if c.get("error") or "max_abs" not in c["script"] or "max_abs" not in c["fixed"]:
            parts.append(f"MindSpore loads {name}, {what}")
            continue
        worst = _merge([c["script"], c["fixed"]])
        parts.append(f"MindSpore loads {name}, {'matches' if c['ok'] else what}: max diff {worst['max_abs']:.2g} "
                     f"abs, {worst['max_rel']:.2g} rel (tol {c['rtol']:g})")
        if "reference" in c:
            parts.append(_describe_reference(c["reference"]))
    return "; ".join(parts)


def _describe_reference(ref: dict) -> str:
    if ref.get("error"):
        return f"reference: {ref['error']}"
    words = []
    for key, what in (("ms_file_vs_ms_net", "MindSpore's own MindIR vs its network"),
                      ("ts_file_vs_ms_net", "tfspore's MindIR vs MindSpore's network"),
                      ("ts_net_vs_ms_net", "tfspore's network vs MindSpore's")):
        d = ref[key]
        if "max_abs" not in d:
            words.append(f"{what}: {d.get('error')}")
        else:
            extra = "" if d["ok"] else " (differs)"
            extra += ", non-finite" if d["nonfinite"] else ""
            extra += f", MindSpore's network gives {d['want_nonfinite']} non-finite values" if d.get(
                "want_nonfinite") else ""
            words.append(f"{what}: {d['max_abs']:.2g} abs, {d['max_rel']:.2g} rel{extra}")
    return "on the fixed input, " + "; ".join(words)


def export_table(rows: Sequence[tuple]) -> str:
    """The export entries as a markdown table.

    Args:
        rows: ``(entry name, script, status, seconds, checks)`` per export entry.
    """
    lines = ["| export entry | script | ran | MindSpore loads | max abs diff | max rel diff | tol | result |",
             "|---|---|---|---|---|---|---|---|"]
    for name, script, status, seconds, checks in rows:
        ran = f"yes ({seconds:.0f} s)" if status == "ok" else "no"
        if status != "ok" or not checks:
            what = "no MINDIR written" if status == "ok" else status
            lines.append(f"| {name} | `{script}` | {ran} | - | - | - | - | {what} |")
            continue
        for c in checks:
            loads = "yes" if c.get("loads") else "no"
            diffs = [c[k] for k in ("script", "fixed") if "max_abs" in c.get(k, {})]
            worst = _merge(diffs) if len(diffs) == 2 else None
            abs_ = f"{worst['max_abs']:.2g}" if worst else "-"
            rel = f"{worst['max_rel']:.2g}" if worst else "-"
            tol = f"{c['rtol']:g}" if "rtol" in c else "-"
            lines.append(f"| {name} | `{script}` | {ran} | {loads} | {abs_} | {rel} | {tol} | "
                         f"{verdict(c).replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def _compare_main(argv: Sequence[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="_zoo_export_check.py compare")
    parser.add_argument("record")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--reference", default=None)
    parser.add_argument("--ulp-dtype", default="float32")
    parser.add_argument("--spread-ok", action="store_true")
    args = parser.parse_args(argv)
    result = compare_record(args.record, args.rtol, args.reference, args.ulp_dtype, args.spread_ok)
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "compare":
        sys.exit(_compare_main(sys.argv[2:]))
    record_main(sys.argv[1:])

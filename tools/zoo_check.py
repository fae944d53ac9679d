"""Run MindSpore model-zoo training and eval scripts unchanged on tfspore, on tiny synthetic data.

Each entry of ``ENTRIES`` (tools/_zoo_entries.py) names a script of the zoo (github
``mindspore-ai/models``), the data it reads (written by tools/_zoo_data.py in the script's own
format: MNIST idx files, CIFAR-10 ``.bin`` batches, an ImageFolder tree of JPEGs, TFRecord and
MindRecord files, text and ``.npy`` files), a copy of its yaml config with small values (one
epoch, small batches, tiny images, ``device_target: CPU``) and its command-line flags. Every
script runs unchanged as ``python -m tfspore run SCRIPT FLAGS...`` in its own working directory
under a time limit; an eval entry takes the newest checkpoint its training entry wrote. The tool
prints one line per script, ``ran to the end`` or ``failed at <file:line>: <last error line>``,
and a total, and writes the results as JSON with ``--json`` and as a markdown table with
``--markdown``::

    .venv/bin/python tools/zoo_check.py --zoo /path/to/models --json zoo_check.json
    .venv/bin/python tools/zoo_check.py --zoo /path/to/models --only lenet-train lenet-eval

An export entry runs a folder's ``export.py`` on its training entry's checkpoint; then real
MindSpore loads each ``.mindir`` it wrote and runs it on the script's input and on a fixed one,
against the tfspore network's outputs (tools/_zoo_export_check.py). ``--ms-reference`` also
runs the export under real MindSpore, for MindSpore's own file on the same weights;
``--reuse-trained`` (with ``--workdir``) keeps the training runs of an earlier call::

    .venv/bin/python tools/zoo_check.py --zoo /path/to/models --workdir w --reuse-trained --only lenet-export

The zoo's scripts need their own requirements (PyYAML for their configs, and pandas and
easydict for some) in the Python that runs them.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Optional, Sequence

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

__all__ = ["Entry", "ENTRIES", "Raw", "Result", "write_mnist", "write_cifar10_bin", "write_image_folder",
           "write_tfrecord", "write_mindrecord", "write_text_lines", "override_yaml", "parse_failure", "run_entry",
           "format_line", "format_total", "format_markdown", "main"]

if _ROOT not in sys.path:  # the tool runs as a plain script too
    sys.path.insert(0, _ROOT)

from tools._zoo_data import (Raw, override_yaml, write_cifar10_bin, write_image_folder,  # noqa: E402
                             write_mindrecord, write_mnist, write_text_lines, write_tfrecord)
from tools._zoo_entries import ENTRIES, Entry  # noqa: E402
from tools._zoo_export_check import (check_passed, describe, export_table, record_command,  # noqa: E402
                                     record_prefix, run_check)


# --------------------------------------------------------------------------------------------
# Running.
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Result:
    """The outcome of one entry.

    Attributes:
        name: The entry's name.
        script: The script inside the zoo.
        status: ``"ok"`` (ran to the end), ``"failed"``, ``"timeout"`` or ``"not run"``.
        where: ``file:line`` of the innermost frame of the last traceback, or ``""``.
        error: The last error line (or why it did not run).
        seconds: Wall time of the run.
        returncode: The exit status (``None`` when it did not run or timed out).
        command: The command line that ran.
        workdir: The working folder (its ``run.log`` holds the output).
        checks: For an export entry that ran to the end, real MindSpore's check of each MindIR
            it wrote (tools/_zoo_export_check.py); ``None`` for other entries.
    """

    name: str
    script: str
    status: str
    where: str = ""
    error: str = ""
    seconds: float = 0.0
    returncode: Optional[int] = None
    command: list = dataclasses.field(default_factory=list)
    workdir: str = ""
    checks: Optional[list] = None

    @property
    def passed(self) -> bool:
        """Ran to the end, and an export entry's MindIR files match in MindSpore."""
        return self.status == "ok" and (self.checks is None or check_passed(self.checks))


_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')


def _short_path(path: str, zoo: str) -> str:
    path = os.path.abspath(path) if not path.startswith("<") else path
    for base in (zoo, _ROOT):
        base = os.path.abspath(base) + os.sep
        if path.startswith(base):
            return path[len(base):]
    marker = os.sep + "site-packages" + os.sep
    if marker in path:
        return path.split(marker, 1)[1]
    return path


def _is_machinery(path: str) -> bool:
    # Frames of the import system and of the alias hook: an import error is reported at the
    # script line that imported the missing module.
    return path.startswith("<frozen ") or path.replace(os.sep, "/").endswith(
        ("tfspore/compat.py", "tfspore/__main__.py", "/runpy.py"))


def parse_failure(log: str, zoo: str = "") -> tuple[str, str]:
    """Finds where a failed run stopped: ``(file:line, last error line)``.

    The place is the innermost frame of the last Python traceback in ``log``, leaving out the
    import machinery and tfspore's import hook (files under the zoo or the repository shortened
    to their relative paths); the error is the exception line
    that ends that traceback. Without a traceback the place is ``""`` and the error is the last
    non-empty line.

    Args:
        log: The run's output (stdout and stderr together).
        zoo: The zoo folder, for shortening paths.

    Returns:
        ``(where, error)``.
    """
    lines = log.splitlines()
    start = max((i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")),
                default=None)
    if start is None:
        last = next((line.strip() for line in reversed(lines) if line.strip()), "")
        return "", last
    where, error = "", ""
    i = start + 1
    while i < len(lines):
        line = lines[i]
        m = _FRAME.match(line)
        if m and not _is_machinery(m.group("file")):
            where = f"{_short_path(m.group('file'), zoo)}:{m.group('line')}"
        elif line and not line[0].isspace():
            error = line.strip()
            break
        i += 1
    if not error:
        error = next((line.strip() for line in reversed(lines) if line.strip()), "")
    return where, error


def _fill(value: object, subst: dict) -> object:
    if isinstance(value, str):
        kind = type(value)
        for key, rep in subst.items():
            value = value.replace("{" + key + "}", rep)
        value = kind(value)  # a Raw value stays Raw
    return value


def _newest_ckpt(folder: str) -> Optional[str]:
    found = glob.glob(os.path.join(folder, "**", "*.ckpt"), recursive=True)
    return max(found, key=lambda p: (os.path.getmtime(p), p)) if found else None


def run_entry(entry: Entry, zoo: str, workdir: str, timeout: float, python: str,
              ckpt_from: Optional[str] = None, reference_dir: Optional[str] = None,
              under_tfspore: bool = True) -> Result:
    """Writes the entry's data and config into ``workdir`` and runs its script there.

    An export entry (``entry.check`` set) runs its script through the recorder of
    tools/_zoo_export_check.py and, when it ran to the end, real MindSpore's check of the
    MindIR files it wrote follows (``Result.checks``).

    Args:
        entry: What to run.
        zoo: The zoo folder.
        workdir: An empty working folder for this run.
        timeout: Time limit of the run in seconds.
        python: The Python that runs ``-m tfspore run``.
        ckpt_from: Working folder of the ``after`` entry, searched for its newest checkpoint.
        reference_dir: For an export entry, the working folder of the same entry run under
            real MindSpore (its records are compared too).
        under_tfspore: False runs an export entry under real MindSpore (a reference run), with no check.

    Returns:
        The run's :class:`Result`; the output is in ``workdir/run.log``.
    """
    script = os.path.join(zoo, entry.script)
    result = Result(entry.name, entry.script, "not run", workdir=workdir,
                    checks=[] if entry.check is not None and under_tfspore else None)
    data_dir = os.path.join(workdir, "data")
    subst = {"data": data_dir, "work": workdir}
    if entry.after is not None:
        ckpt = _newest_ckpt(ckpt_from) if ckpt_from else None
        if ckpt is None:
            result.error = f"no checkpoint from {entry.after}"
            return result
        subst["ckpt"] = ckpt
    os.makedirs(data_dir, exist_ok=True)
    if entry.data is not None:
        entry.data(data_dir)
    if entry.config is not None:
        with open(os.path.join(zoo, entry.config), encoding="utf-8") as f:
            text = f.read()
        overrides = {k: _fill(v, subst) for k, v in entry.overrides.items()}
        subst["config"] = os.path.join(workdir, os.path.basename(entry.config))
        with open(subst["config"], "w", encoding="utf-8") as f:
            f.write(override_yaml(text, overrides))
    args = [str(_fill(a, subst)) for a in entry.args]
    command = [python, "-m", "tfspore", "run", script, *args]
    env = dict(os.environ)
    if entry.check is not None:
        command = record_command(python, script, args, under_tfspore)
        env["ZOO_EXPORT_CHECK"] = entry.check.settings(record_prefix(workdir))
    result.command = command
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("CUDA_VISIBLE_DEVICES", "")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    log_path = os.path.join(workdir, "run.log")
    start = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            result.returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            result.returncode = None
    result.seconds = time.monotonic() - start
    with open(log_path, encoding="utf-8", errors="replace") as f:
        log_text = f.read()
    if result.returncode == 0:
        result.status = "ok"
        if entry.check is not None and under_tfspore:
            result.checks = run_check(workdir, entry.check, python, timeout, reference_dir)
        return result
    result.where, result.error = parse_failure(log_text, zoo)
    if result.returncode is None:
        result.status = "timeout"
        result.error = f"timed out after {timeout:g} s (last line: {result.error})"
    else:
        result.status = "failed"
        if not result.where:
            how = (f"killed by signal {-result.returncode}" if result.returncode < 0
                   else f"exited with status {result.returncode}")
            result.error = f"{how} (last line: {result.error})"
    return result


def format_line(result: Result, width: int = 28) -> str:
    """One table line: the name, then ``ran to the end`` or where and why it failed."""
    if result.status == "ok":
        what = f"ran to the end ({result.seconds:.0f} s)"
        if result.checks is not None:
            what += "; " + describe(result.checks)
    elif result.status == "reused":
        what = f"reused: {result.error}"
    elif result.status == "not run":
        what = f"not run: {result.error}"
    else:
        where = f" at {result.where}" if result.where else ""
        what = f"failed{where}: {result.error}"
    return f"{result.name:<{width}} {what}"


def format_total(results: Sequence[Result]) -> str:
    """The total line: how many scripts ran to the end (and how many exports real MindSpore
    runs to tfspore's outputs, when export entries ran)."""
    ok = sum(r.status in ("ok", "reused") for r in results)
    line = f"total: {ok} of {len(results)} scripts ran to the end"
    exports = [r for r in results if r.checks is not None]
    if exports:
        line += f"; {sum(r.passed for r in exports)} of {len(exports)} exports match in MindSpore"
    return line


def format_markdown(results: Sequence[Result], areas: dict) -> str:
    """The results as a markdown table (entry, script, area, result) followed by the total, and
    the export entries' table (tools/_zoo_export_check.py) when some ran."""
    rows = ["| entry | script | area | result |", "|---|---|---|---|"]
    for r in results:
        line = format_line(r, 0)[len(r.name):].strip().replace("|", "\\|")
        rows.append(f"| {r.name} | `{r.script}` | {areas.get(r.name, '')} | {line} |")
    text = "\n".join(rows) + "\n\n" + format_total(results) + "\n"
    exports = [r for r in results if r.checks is not None]
    if exports:
        text += "\n" + export_table([(r.name, r.script, r.status, r.seconds, r.checks) for r in exports])
    return text


def _zoo_commit(zoo: str) -> str:
    try:
        out = subprocess.run(["git", "-C", zoo, "rev-parse", "--short=9", "HEAD"], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def _select(entries: Sequence[Entry], only: Sequence[str]) -> list[Entry]:
    by_name = {e.name: e for e in entries}
    unknown = [n for n in only if n not in by_name]
    if unknown:
        raise SystemExit(f"zoo_check: the argument '--only' must name entries of the list, but got "
                         f"{unknown[0]!r} (known: {', '.join(by_name)}).")
    wanted = set(only)
    for name in list(only):
        after = by_name[name].after
        while after is not None and after not in wanted:
            wanted.add(after)
            after = by_name[after].after
    return [e for e in entries if e.name in wanted]


def main(argv: Optional[Sequence[str]] = None, entries: Optional[Sequence[Entry]] = None) -> int:
    """Command line entry point; returns 0 when every selected script ran to the end (and every
    export entry's MindIR matches in MindSpore), else 1."""
    parser = argparse.ArgumentParser(prog="zoo_check.py", description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", required=True, help="folder of the model zoo (mindspore-ai/models)")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME",
                        help="run only these entries (and the training runs their evals need)")
    parser.add_argument("--timeout", type=float, default=240.0, help="time limit of each script in seconds")
    parser.add_argument("--workdir", default=None, help="folder for the working folders (kept); "
                        "default: a temporary folder, removed at the end")
    parser.add_argument("--json", default=None, metavar="OUT", help="write the results to this JSON file")
    parser.add_argument("--zoo-commit", default=None, help="the zoo's commit, recorded in the JSON "
                        "(default: what git says in ZOO_DIR)")
    parser.add_argument("--markdown", default=None, metavar="OUT", help="write the results as a markdown table")
    parser.add_argument("--python", default=sys.executable, help="Python that runs the scripts")
    parser.add_argument("--list", action="store_true", help="list the entries and exit")
    parser.add_argument("--reuse-trained", action="store_true",
                        help="with --workdir: a training entry that runs only because a selected entry needs "
                        "its checkpoint is not run again when its working folder there holds one")
    parser.add_argument("--ms-reference", action="store_true",
                        help="also run each export entry under real MindSpore (no tfspore) on the same "
                        "checkpoint, and report MindSpore's own MindIR against its own network")
    args = parser.parse_args(argv)
    entries = list(ENTRIES if entries is None else entries)
    if args.list:
        for e in entries:
            print(f"{e.name:<28} {e.script}")
        return 0
    zoo = os.path.abspath(args.zoo)
    if not os.path.isdir(zoo):
        parser.error(f"the argument '--zoo' must be a folder, but got {args.zoo!r}")
    if args.timeout <= 0:
        parser.error(f"the argument '--timeout' must be positive, but got {args.timeout!r}")
    selected = _select(entries, args.only) if args.only else entries
    base = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="zoo_check_")
    os.makedirs(base, exist_ok=True)
    width = max([28] + [len(e.name) for e in selected])
    results: list[Result] = []
    workdirs: dict[str, str] = {}
    started = time.time()
    try:
        for entry in selected:
            workdir = os.path.join(base, entry.name)
            workdirs[entry.name] = workdir
            kept = _newest_ckpt(workdir) if args.reuse_trained and os.path.isdir(workdir) else None
            if kept is not None and args.only and entry.name not in args.only:
                result = Result(entry.name, entry.script, "reused", error=f"its checkpoint {kept}", workdir=workdir)
                results.append(result)
                print(format_line(result, width), flush=True)
                continue
            if os.path.exists(workdir):
                shutil.rmtree(workdir)
            os.makedirs(workdir)
            timeout = max(args.timeout, entry.timeout) if entry.timeout else args.timeout
            ckpt_from = workdirs.get(entry.after) if entry.after else None
            reference = None
            if args.ms_reference and entry.check is not None:
                reference = os.path.join(workdir, "ms-reference")
                os.makedirs(reference)
                ref = run_entry(entry, zoo, reference, timeout, args.python, ckpt_from=ckpt_from, under_tfspore=False)
                print(f"{entry.name:<{width}} under MindSpore: {format_line(ref, 0)[len(entry.name):].strip()}",
                      flush=True)
            result = run_entry(entry, zoo, workdir, timeout, args.python, ckpt_from=ckpt_from,
                               reference_dir=reference)
            results.append(result)
            print(format_line(result, width), flush=True)
        print(format_total(results), flush=True)
        if args.json:
            report = {
                "date": datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime(
                    "%Y-%m-%d %H:%M UTC"),
                "zoo": zoo,
                "zoo_commit": args.zoo_commit if args.zoo_commit is not None else _zoo_commit(zoo),
                "command": [os.path.basename(sys.argv[0] or "zoo_check.py")] + list(argv if argv is not None
                                                                                  else sys.argv[1:]),
                "ran_to_the_end": sum(r.status == "ok" for r in results),
                "total": len(results),
                "results": [dict(dataclasses.asdict(r), area=next(e.area for e in selected if e.name == r.name),
                                 line=format_line(r, width)) for r in results],
            }
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(report, f, indent=2)
                f.write("\n")
        if args.markdown:
            with open(args.markdown, "w", encoding="utf-8") as f:
                f.write(format_markdown(results, {e.name: e.area for e in selected}))
    finally:
        if not args.workdir:
            shutil.rmtree(base, ignore_errors=True)
    return 0 if results and all(r.passed or r.status == "reused" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

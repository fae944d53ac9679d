"""Census of the MindSpore API surface a model zoo uses, and whether tfspore provides it.

Usage::

    python tools/zoo_census.py ZOO_DIR [--json OUT] [--markdown OUT] [--missing-tsv OUT]
                              [--doc docs/zoo.md [--zoo-commit C] [--date D]]
                              [--min-folders N] [--mindspore-python PYTHON]

The census statically scans (with :mod:`ast`, nothing is imported or run) every ``.py``
file of the zoo's model folders and lists each fully qualified ``mindspore.*`` name the
files use, the number of distinct model folders that use it, an example file, and whether
tfspore provides it.

Model folders
    A model folder is a folder directly under ``official/<domain>/`` or
    ``research/<domain>/`` of ``ZOO_DIR`` (``official/cv/ResNet``,
    ``research/cv/lenet``). Files outside a model folder are not scanned.

Skipped files (inference on other runtimes and cloud launchers)
    * any file below a folder named ``infer``, ``cpp_infer``, ``sdk``, ``mxbase``,
      a folder whose name contains ``310``, ``modelarts`` or ``onnx``, or starts with
      ``infer`` or ends with ``_infer`` (Ascend-310 / MindX SDK / C++ inference and
      ModelArts start-up code);
    * files whose name contains ``310``, ``modelarts`` or ``onnx`` (``eval310.py``,
      ``train_modelarts.py``, ``eval_onnx.py``);
    * ``preprocess.py`` and ``postprocess.py`` directly in a model folder: by the zoo's
      convention these prepare binary inputs for, and score the outputs of, Ascend-310
      inference.

    Files that do not parse as Python 3 are counted and listed in the JSON output.

Names
    Imports bind names to MindSpore modules or objects: ``import mindspore``,
    ``import mindspore as ms``, ``import mindspore.nn as nn``,
    ``from mindspore import nn, Tensor``, ``from mindspore.ops import operations as P``,
    ``import mindspore.dataset.vision.c_transforms as C``. The same alias may mean
    different modules in different files, or later in one file: bindings follow source
    order; a function or class body sees the bindings around it, and its own imports,
    parameters and assignments stay inside it; an assignment rebinds a name (to a
    MindSpore name where the value spells one, ``P = ops``).

    Each import records the names it imports (``from mindspore.train.callback import
    LossMonitor`` records ``mindspore.train.callback`` and
    ``mindspore.train.callback.LossMonitor``), and each attribute chain on a bound name
    records its full name (``P.ReduceMean`` -> ``mindspore.ops.operations.ReduceMean``,
    ``mstype.float32`` -> ``mindspore.common.dtype.float32``). A chain stops at the first
    object that is not a module (``nn.Cell.construct`` counts as ``mindspore.nn.Cell``);
    calls and subscripts end a chain, so methods of returned objects are out of scope.
    Where a chain stops is decided by importing it in real MindSpore
    (``--mindspore-python``, a Python with MindSpore installed), then in tfspore; a chain
    neither knows is cut after its first capitalised part (a class), else kept whole.

Provided
    A name is provided when it resolves through tfspore's import alias
    (:func:`tfspore.compat.alias_mindspore`): the longest module prefix imports with
    :func:`importlib.import_module` and ``getattr`` succeeds along the rest. Resolution
    runs in subprocesses, so a failing import cannot stop the census. With
    ``--mindspore-python`` the census also records whether that MindSpore has the name
    (a missing name it lacks too is an old 1.x name or a slip in the zoo's code) and the
    platforms its docstring lists under "Supported Platforms" (to spot Ascend-only names).

Output
    A table sorted by folder count (descending, then name) on stdout, or as Markdown
    with ``--markdown OUT``, the full result as JSON with ``--json OUT``, and the names
    tfspore lacks as tab-separated ``name, folders, example`` lines with
    ``--missing-tsv OUT``. ``--doc FILE`` rewrites the block of a Markdown file between
    ``<!-- zoo_census:begin -->`` and ``<!-- zoo_census:end -->`` with the summary, the
    Ascend-only names and the table (names used by ``--min-folders`` folders or more).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from typing import Iterable, Optional

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if __package__ in (None, ""):
    sys.path.insert(0, _ROOT)

from tools._zoo_scan import ScanResult, model_files, model_folders, scan_source, scan_zoo  # noqa: E402,F401

# Resolution, run in a child process -----------------------------------------------------
# For each dotted name read from stdin the child prints [name, resolved, cut, platforms]:
# ``resolved``
# is the number of leading parts that resolve (the longest importable module prefix, then
# getattr along the rest), ``cut`` the length of the chain up to its first resolved object
# that is not a module, or null when the walk reaches none, and ``platforms`` the platforms
# that object's docstring lists under "Supported Platforms:" (MindSpore's convention), or null.
_RESOLVER = r"""
import importlib, json, sys, types, warnings
warnings.simplefilter("ignore")
if sys.argv[1] == "tfspore":
    sys.path.insert(0, sys.argv[2])
    from tfspore.compat import alias_mindspore
    alias_mindspore()
def _platforms(obj):
    # The "Supported Platforms:" line of MindSpore's docstrings, e.g. ["Ascend", "GPU"].
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or "Supported Platforms:" not in doc:
        return None
    rest = doc.split("Supported Platforms:", 1)[1].strip().split("\n\n", 1)[0]
    return [p.strip("`") for p in rest.replace(",", " ").split() if p.startswith("``")]
for line in sys.stdin:
    name = line.strip()
    if not name:
        continue
    parts = name.split(".")
    obj, resolved, cut = None, 0, None
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
            resolved = i
            break
        except BaseException:
            continue
    platforms = None
    if resolved:
        if not isinstance(obj, types.ModuleType):
            cut, platforms = resolved, _platforms(obj)
        for i in range(resolved, len(parts)):
            try:
                obj = getattr(obj, parts[i])
            except BaseException:
                break
            resolved = i + 1
            if cut is None and not isinstance(obj, types.ModuleType):
                cut, platforms = resolved, _platforms(obj)
    print(json.dumps([name, resolved, cut, platforms]), flush=True)
"""


def _resolve(names: list[str], python: str, mode: str, timeout: float = 600.0
             ) -> dict[str, tuple[int, Optional[int], Optional[list]]]:
    """Resolves names in child processes: ``{name: (resolved parts, cut, platforms)}``.

    A child that dies (or hangs) on a name is restarted after that name, which counts
    as not resolved.
    """
    out: dict[str, tuple[int, Optional[int], Optional[list]]] = {}
    pending = list(names)
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env.setdefault("GLOG_v", "3")
    while pending:
        try:
            proc = subprocess.run([python, "-c", _RESOLVER, mode, _ROOT],
                                  input="\n".join(pending) + "\n", capture_output=True,
                                  text=True, timeout=timeout, env=env, cwd=_ROOT)
            stdout = proc.stdout
        except subprocess.TimeoutExpired as exc:
            stdout = exc.stdout or ""
            if isinstance(stdout, bytes):
                stdout = stdout.decode("utf-8", "replace")
        except OSError:
            return {name: (0, None, None) for name in names}
        for line in stdout.splitlines():
            try:
                name, resolved, cut, platforms = json.loads(line)
            except ValueError:
                continue
            out[name] = (int(resolved), cut, platforms)
        rest = [name for name in pending if name not in out]
        if rest:
            out[rest[0]] = (0, None, None)  # the name that stopped the child
            rest = rest[1:]
        pending = rest
    return out


def _heuristic_cut(parts: list[str]) -> int:
    for i, part in enumerate(parts[1:], start=1):
        if part[:1].isupper():
            return i + 1
    return len(parts)


def _cut(parts: list[str], *tables: tuple) -> int:
    for resolved, cut, _ in tables:
        if cut is not None:
            return cut
        if resolved == len(parts):
            return resolved  # the whole chain resolves to modules
    return _heuristic_cut(parts)


def resolve_names(raw: Iterable[str], mindspore_python: Optional[str]
                  ) -> dict[str, tuple[str, bool, Optional[list], Optional[bool]]]:
    """Cuts each raw chain at its first non-module object and tells whether tfspore has it.

    Args:
        raw: Raw dotted names from the scan.
        mindspore_python: A Python with real MindSpore installed, or None.

    Returns:
        ``{raw name: (canonical name, provided by tfspore, platforms, in MindSpore)}``;
        ``platforms`` lists the "Supported Platforms" of MindSpore's docstring of the name
        (None when unknown), ``in MindSpore`` tells whether the MindSpore of
        ``mindspore_python`` has the name (None without one).
    """
    raw = sorted(set(raw))
    real = _resolve(raw, mindspore_python, "mindspore") if mindspore_python else {}
    ours = _resolve(raw, sys.executable, "tfspore")
    result = {}
    for name in raw:
        parts = name.split(".")
        mine = ours.get(name, (0, None, None))
        theirs = real.get(name, (0, None, None))
        cut = _cut(parts, theirs, mine)
        platforms = theirs[2] if theirs[1] == cut else None
        known = theirs[0] >= cut if mindspore_python else None
        result[name] = (".".join(parts[:cut]), mine[0] >= cut, platforms, known)
    return result


def mindspore_version(python: str) -> Optional[str]:
    """Returns the version of MindSpore installed for ``python``, without importing it."""
    try:
        proc = subprocess.run(
            [python, "-c", "import importlib.metadata as m; print(m.version('mindspore'))"],
            capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None if proc.returncode == 0 else None


def census(zoo: str, mindspore_python: Optional[str] = None) -> dict:
    """Runs the census of a zoo.

    Args:
        zoo: The zoo's root folder.
        mindspore_python: A Python with real MindSpore installed, used to tell modules
            from other objects; None to rely on tfspore and the naming heuristic.

    Returns:
        A JSON-ready dict with ``summary``, ``names`` (sorted by folder count, then
        name; each with ``name``, ``folders``, ``provided``, ``platforms`` (MindSpore's
        "Supported Platforms", when known), ``in_mindspore`` (whether the MindSpore of
        ``mindspore_python`` has it; None without one), ``private``, ``example``,
        ``folder_list``) and ``unparsed``.
    """
    scan = scan_zoo(zoo)
    resolved = resolve_names(scan.uses, mindspore_python)
    merged: dict[str, dict[str, str]] = {}
    provided: dict[str, bool] = {}
    platforms: dict[str, Optional[list]] = {}
    known: dict[str, Optional[bool]] = {}
    for raw, folders in scan.uses.items():
        name, has, where, in_ms = resolved[raw]
        provided[name] = provided.get(name, False) or has
        if platforms.get(name) is None:
            platforms[name] = where
        if known.get(name) is not True:
            known[name] = in_ms
        target = merged.setdefault(name, {})
        for folder, rel in folders.items():
            if folder not in target or rel < target[folder]:
                target[folder] = rel
    rows = []
    for name, folders in merged.items():
        folder_list = sorted(folders)
        rows.append({
            "name": name,
            "folders": len(folder_list),
            "provided": provided[name],
            "platforms": platforms[name],
            "in_mindspore": known[name],
            "private": any(part.startswith("_") and not part.startswith("__")
                           for part in name.split(".")),
            "example": folders[folder_list[0]],
            "folder_list": folder_list,
        })
    rows.sort(key=lambda row: (-row["folders"], row["name"]))
    missing = [row for row in rows if not row["provided"]]
    using = {folder for row in rows for folder in row["folder_list"]}
    lacking = {folder for row in missing for folder in row["folder_list"]}
    summary = {
        "model_folders": len(scan.folders),
        "model_folders_using_mindspore": len(using),
        "model_folders_all_provided": len(using - lacking),
        "files_scanned": scan.files,
        "files_unparsed": len(scan.unparsed),
        "names": len(rows),
        "names_provided": len(rows) - len(missing),
        "names_missing": len(missing),
        "names_3plus": sum(row["folders"] >= 3 for row in rows),
        "names_3plus_missing": sum(row["folders"] >= 3 for row in missing),
        "mindspore_version": mindspore_version(mindspore_python) if mindspore_python else None,
    }
    return {"zoo": os.path.abspath(zoo), "summary": summary, "names": rows,
            "unparsed": scan.unparsed}


def format_table(result: dict, min_folders: int = 1) -> str:
    """Formats the census as a plain text table."""
    rows = [row for row in result["names"] if row["folders"] >= min_folders]
    width = max([len(row["name"]) for row in rows] + [4])
    lines = [f"{'name':<{width}}  folders  provided  example"]
    for row in rows:
        lines.append(f"{row['name']:<{width}}  {row['folders']:>7}  "
                     f"{'yes' if row['provided'] else 'NO':>8}  {row['example']}")
    summary = result["summary"]
    lines.append(f"\n{summary['names']} names in {summary['model_folders']} model folders "
                 f"({summary['files_scanned']} files): {summary['names_missing']} missing, "
                 f"{summary['names_3plus_missing']} of them used by 3+ folders.")
    return "\n".join(lines)


def format_markdown(result: dict, min_folders: int = 1) -> str:
    """Formats the census as a Markdown table."""
    rows = [row for row in result["names"] if row["folders"] >= min_folders]
    version = result["summary"].get("mindspore_version") or "the reference"
    lines = ["| name | folders | status | MindSpore platforms | example |",
             "|---|---:|---|---|---|"]
    for row in rows:
        where = ", ".join(row.get("platforms") or [])
        status = "provided" if row["provided"] else "**missing**"
        if not row["provided"] and row.get("in_mindspore") is False:
            status += f" (not in MindSpore {version} either)"
        lines.append(f"| `{row['name']}` | {row['folders']} | {status} | {where} | "
                     f"`{row['example']}` |")
    return "\n".join(lines) + "\n"


DOC_BEGIN = "<!-- zoo_census:begin -->"
DOC_END = "<!-- zoo_census:end -->"


def _ascend_only(row: dict) -> bool:
    return row.get("platforms") == ["Ascend"]


def format_doc_block(result: dict, min_folders: int, date: str, commit: str) -> str:
    """Formats the census summary and tables for the generated block of ``docs/zoo.md``.

    Args:
        result: A :func:`census` result.
        min_folders: List names used by at least this many folders.
        date: The census date (ISO).
        commit: The zoo commit scanned.

    Returns:
        Markdown text, without the markers.
    """
    summary = result["summary"]
    rows = [row for row in result["names"] if row["folders"] >= min_folders]
    missing = [row for row in rows if not row["provided"]]
    version = summary.get("mindspore_version")
    lines = [
        f"Census of {date}, zoo commit `{commit}`"
        + (f", module/object decisions and platforms from MindSpore {version}" if version else "")
        + ".", "",
        f"- model folders: {summary['model_folders']} "
        f"({summary['model_folders_using_mindspore']} use MindSpore), "
        f"files scanned: {summary['files_scanned']} ({summary['files_unparsed']} not parsable)",
        f"- model folders whose every MindSpore name tfspore provides: "
        f"{summary['model_folders_all_provided']} of {summary['model_folders_using_mindspore']}",
        f"- MindSpore names used: {summary['names']}; provided by tfspore: "
        f"{summary['names_provided']}; missing: {summary['names_missing']}",
        f"- names used by {min_folders} or more folders: {len(rows)}; missing: {len(missing)}"
        + (f" ({sum(row.get('in_mindspore') is False for row in missing)} of them not in "
           f"MindSpore {version} either)" if version else ""),
    ]
    if missing:
        lines.append(f"- missing names used by {min_folders} or more folders: "
                     + ", ".join(f"`{row['name']}` ({row['folders']})" for row in missing))
    lines += ["", f"### Ascend-only names used by {min_folders} or more folders", "",
              "Names whose MindSpore docstring lists Ascend as the only supported platform.", ""]
    ascend = [row for row in rows if _ascend_only(row)]
    if ascend:
        lines += ["| name | folders | tfspore |", "|---|---:|---|"]
        lines += [f"| `{row['name']}` | {row['folders']} | "
                  f"{'provided' if row['provided'] else '**missing**'} |" for row in ascend]
    else:
        lines.append("None.")
    lines += ["", f"### Names used by {min_folders} or more folders", "",
              format_markdown(result, min_folders).rstrip("\n")]
    return "\n".join(lines) + "\n"


def update_doc(path: str, block: str) -> None:
    """Replaces the text between the census markers of a Markdown file.

    Args:
        path: The Markdown file; it must hold :data:`DOC_BEGIN` and :data:`DOC_END`.
        block: The new text between them.

    Raises:
        ValueError: If the file lacks the markers.
    """
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    begin, end = text.find(DOC_BEGIN), text.find(DOC_END)
    if begin < 0 or end < begin:
        raise ValueError(f"zoo_census: the argument '--doc' must name a file holding "
                         f"{DOC_BEGIN!r} and {DOC_END!r}, but got {path!r}.")
    _write(path, text[:begin + len(DOC_BEGIN)] + "\n" + block + text[end:])


def _zoo_commit(zoo: str) -> str:
    try:
        proc = subprocess.run(["git", "-C", zoo, "rev-parse", "--short=9", "HEAD"],
                              capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else "unknown"


def _write(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def main(argv: Optional[list[str]] = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("zoo", help="root of the model zoo (holds official/ and research/)")
    parser.add_argument("--json", help="write the full result as JSON to this file")
    parser.add_argument("--markdown", help="write the table as Markdown to this file")
    parser.add_argument("--missing-tsv",
                        help="write the missing names as name<TAB>folders<TAB>example lines")
    parser.add_argument("--min-folders", type=int, default=1,
                        help="list only names used by at least this many folders")
    parser.add_argument("--doc", help="replace the census block of this Markdown file "
                        f"(between {DOC_BEGIN} and {DOC_END})")
    parser.add_argument("--zoo-commit", help="the zoo commit to name in --doc (default: git)")
    parser.add_argument("--date", help="the census date to name in --doc (default: today, UTC)")
    parser.add_argument("--mindspore-python",
                        help="a Python with real MindSpore, to tell modules from objects")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.zoo):
        print(f"zoo_census: the argument 'ZOO_DIR' must be a folder, but got {args.zoo!r}.",
              file=sys.stderr)
        return 2
    if args.doc and not os.path.isfile(args.doc):
        print(f"zoo_census: the argument '--doc' must be a file, but got {args.doc!r}.",
              file=sys.stderr)
        return 2
    result = census(args.zoo, args.mindspore_python)
    if args.doc:
        date = args.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
        block = format_doc_block(result, args.min_folders, date,
                                 args.zoo_commit or _zoo_commit(args.zoo))
        try:
            update_doc(args.doc, block)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
    if args.json:
        _write(args.json, json.dumps(result, indent=1) + "\n")
    if args.markdown:
        _write(args.markdown, format_markdown(result, args.min_folders))
    if args.missing_tsv:
        _write(args.missing_tsv, "".join(
            f"{row['name']}\t{row['folders']}\t{row['example']}\n"
            for row in result["names"] if not row["provided"]))
    if not (args.json or args.markdown or args.missing_tsv or args.doc):
        print(format_table(result, args.min_folders))
    else:
        summary = result["summary"]
        print(f"{summary['names']} names, {summary['names_missing']} missing "
              f"({summary['names_3plus_missing']} used by 3+ folders).")
    return 0


if __name__ == "__main__":
    sys.exit(main())

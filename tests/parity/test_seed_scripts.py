"""The seed documents' examples (examples/seeds/*.py) print the same under tfspore as under MindSpore.

Each script runs twice per execution mode, in its own process and a fresh working directory:

* under real MindSpore 2.10: ``python script.py`` (through a small runner, see ``_MS_RUNNER``);
* under tfspore, unmodified: ``python -m tfspore run script.py``.

Their stdout must match line for line, except that numbers may differ by 1e-5 (relative) and
object addresses (``0x7f...``) are masked. A script states how it runs in ``# parity:`` comment
lines:

* ``# parity: modes=pynative,graph``: the modes to compare; for ``graph`` the script gets
  ``--mode graph`` (default: pynative only).
* ``# parity: no-mindspore=<reason>``: MindSpore 2.10 cannot run the example (on CPU, or at
  all); tfspore's output is compared with the ``# parity: expected-stdout=<line>`` lines instead.
* ``# parity: needs=<attr>``: skipped while ``tfspore.<attr>`` does not exist yet.
* ``# parity: env=msds``: the script needs ``mindspore.dataset``, which needs numpy<2; its MindSpore
  side runs with ``.venv-msds/bin/python`` (made by ``scripts/ms_dataset_env.sh``; skipped without it).
* ``# parity: data=mnist``: the test writes a small MNIST directory (idx files of 64 training and
  32 test images, in ``MNIST_Data/train`` and ``MNIST_Data/test``) into the working directory.
* ``# parity: mask=<regex>``: text matching the regex (e.g. timings) is replaced by ``<masked>``
  (or by the regex's group 1, if it has a group) in both outputs before they are compared.

The scripts import the pages' placeholders (``LeNet5``, ``create_dataset``, ``fix_weights``) from
``examples/seeds/_fixtures.py``; files whose name starts with an underscore are shared modules,
not scripts.

MindSpore's outputs are cached in pytest's cache, keyed by the script, the shared modules it
imports, the runner and the MindSpore and numpy versions (set ``TFSPORE_PARITY_NO_CACHE=1`` to
always rerun them).
``TFSPORE_PARITY_MINDSPORE_PYTHON`` picks the interpreter that runs MindSpore (default: this one).
"""
from __future__ import annotations

import difflib
import hashlib
import importlib.metadata
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SEEDS_DIR = REPO_ROOT / "examples" / "seeds"
TIMEOUT_S = 300

# Runs a script under real MindSpore as `python script.py ARGS` would, after two adjustments:
# 1. MindSpore 2.10's compiled code was built against numpy 1.x. Under numpy 2 (which TensorFlow
#    needs, so the shared .venv has it) the first operator that asks for numpy's C API (a tuple
#    axis, as in ReduceMean(x, (2, 3))) fails once with "SystemError: ... returned a result with an
#    exception set" and later calls succeed. The runner spends that one failure on a throwaway
#    operator. Outputs match those of MindSpore 2.10 under numpy 1.26.
# 2. MindSpore 2.10 implements nn.Buffer (documented on the nn.Cell page) as
#    mindspore.common.parameter._Buffer without exporting it; the runner exports it as nn.Buffer.
_MS_RUNNER = r"""
import os, runpy, sys
import numpy as np
import mindspore
if int(np.__version__.split(".")[0]) >= 2:
    try:
        mindspore.ops.ReduceMean(False)(mindspore.Tensor(np.zeros((1, 1), np.float32)), (0, 1))
    except SystemError:
        pass
if not hasattr(mindspore.nn, "Buffer"):
    from mindspore.common.parameter import _Buffer
    mindspore.nn.Buffer = _Buffer
script = os.path.abspath(sys.argv[1])
sys.argv = [script] + sys.argv[2:]
sys.path[0] = os.path.dirname(script)
runpy.run_path(script, run_name="__main__")
"""


@dataclass
class SeedScript:
    path: Path
    modes: tuple = ("pynative",)
    no_mindspore: str | None = None
    expected_stdout: list = field(default_factory=list)
    needs: list = field(default_factory=list)
    env: str | None = None
    data: str | None = None
    masks: list = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem


def _parse(path: Path) -> SeedScript:
    script = SeedScript(path)
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#\s*parity:\s*(.*)$", line)
        if not match:
            continue
        body = match.group(1)
        if body.startswith("no-mindspore="):
            script.no_mindspore = body.split("=", 1)[1].strip()
        elif body.startswith("expected-stdout="):
            script.expected_stdout.append(body.split("=", 1)[1])
        elif body.startswith("mask="):
            script.masks.append(re.compile(body.split("=", 1)[1].strip()))
        else:
            for item in body.split():
                key, _, value = item.partition("=")
                if key == "modes":
                    script.modes = tuple(value.split(","))
                elif key == "needs":
                    script.needs.extend(value.split(","))
                elif key == "env" and value == "msds":
                    script.env = value
                elif key == "data" and value == "mnist":
                    script.data = value
                else:
                    raise ValueError(f"{path.name}: unknown parity directive {item!r}")
    return script


SCRIPTS = [_parse(p) for p in sorted(SEEDS_DIR.glob("*.py")) if not p.name.startswith("_")]
CASES = [pytest.param(s, mode, id=f"{s.name}-{mode}") for s in SCRIPTS for mode in s.modes]


# ----------------------------------------------------------------------------- comparison

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_NUMBER = re.compile(
    r"(?<![\w.])[-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+|nan|inf)(?![\w])")
REL_TOL = 1e-5
ABS_TOL = 1e-6


def _split(line: str):
    """A line as (address-masked line, its text with numbers replaced by '#', the number tokens)."""
    line = _ADDRESS.sub("0x?", line).rstrip()
    return line, _NUMBER.sub("#", line), _NUMBER.findall(line)


def _unpadded(text: str) -> str:
    """Text without the column padding that numpy adds according to the digits printed."""
    indent = len(text) - len(text.lstrip(" "))
    body = re.sub(r" +", " ", text[indent:])
    body = re.sub(r"\[ ", "[", re.sub(r" \]", "]", body))
    return " " * indent + body


def _numbers_match(a: str, b: str) -> bool:
    is_int = lambda s: re.fullmatch(r"[-+]?\d+", s) is not None  # noqa: E731
    if is_int(a) or is_int(b):
        return a.lstrip("+") == b.lstrip("+")
    if ("e" in a.lower()) != ("e" in b.lower()):
        return False
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def _compare_lines(exp_lines: list, act_lines: list) -> list:
    problems = []
    if len(exp_lines) != len(act_lines):
        problems.append(f"{len(act_lines)} lines printed, {len(exp_lines)} expected")
    for number, (exp, act) in enumerate(zip(exp_lines, act_lines), 1):
        exp_line, exp_text, exp_numbers = _split(exp)
        act_line, act_text, act_numbers = _split(act)
        if exp_numbers == act_numbers:
            # Same digits, so numpy's padding is the same too: the lines must be identical.
            if exp_line != act_line:
                problems.append(f"line {number}: text differs\n  expected: {exp!r}\n  got:      {act!r}")
        elif _unpadded(exp_text) != _unpadded(act_text) or len(exp_numbers) != len(act_numbers):
            problems.append(f"line {number}: text differs\n  expected: {exp!r}\n  got:      {act!r}")
        else:
            bad = [(e, a) for e, a in zip(exp_numbers, act_numbers) if not _numbers_match(e, a)]
            if bad:
                problems.append(f"line {number}: numbers differ {bad[:5]}\n  expected: {exp!r}\n  got:      {act!r}")
    return problems


def _rewrapped_match(expected: str, actual: str) -> bool:
    """Whether two outputs differ only in how numpy wrapped arrays whose digits differ.

    numpy breaks an array's lines at 75 characters, so ``-0.`` against ``0.`` or one digit more
    can move a line break. Accepted only where the printed digits differ; identical digits
    must give identical lines.
    """
    _, exp_text, exp_numbers = _split(expected)
    _, act_text, act_numbers = _split(actual)
    flat = lambda text: _unpadded(re.sub(r"\s+", " ", text).strip())  # noqa: E731
    return (exp_numbers != act_numbers and len(exp_numbers) == len(act_numbers)
            and flat(exp_text) == flat(act_text)
            and all(_numbers_match(e, a) for e, a in zip(exp_numbers, act_numbers)))


def compare_stdout(expected: str, actual: str) -> list:
    """Differences between two outputs, as messages (empty when they match)."""
    problems = _compare_lines(expected.splitlines(), actual.splitlines())
    if problems and _rewrapped_match(expected, actual):
        return []
    return problems


def _assert_same(expected: str, actual: str, what: str, stderr: str = ""):
    problems = compare_stdout(expected, actual)
    if problems:
        diff = "\n".join(difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), what, "tfspore", lineterm="", n=1))
        message = "\n".join(problems[:10]) + "\n\n" + diff
        if stderr.strip():
            message += "\n\ntfspore stderr (tail):\n" + stderr[-3000:]
        pytest.fail(message, pytrace=False)


def test_compare_stdout_rules():
    assert not compare_stdout("loss is 2.3025851\n", "loss is 2.302586\n")
    assert not compare_stdout("[[0.9987531  0.99871963]\n", "[[0.99875313 0.9987196 ]\n")
    assert not compare_stdout("<HeUniform object at 0x7f96a2f6d510>", "<HeUniform object at 0x55d0aa>")
    assert not compare_stdout("[-0. -0.]", "[0. 0.]")
    assert not compare_stdout("conv1.weight (6, 1, 5, 5)", "conv1.weight (6, 1, 5, 5)")
    assert compare_stdout("loss is 2.30", "loss is 2.31")
    assert compare_stdout("shape=(2, 3)", "shape=(2, 4)")
    assert compare_stdout("value= [ 1.00000000e+00]", "value= [1.]")
    assert compare_stdout("Parameter (name=w)", "Parameter(name=w)")
    assert compare_stdout("a\nb", "a")
    assert compare_stdout("  (dense): Dense()", "(dense): Dense()")
    assert compare_stdout("value= [ 1.00000000e+00]", "value= [1.00000000e+00]")
    assert compare_stdout("[1.  2.]", "[1. 2.]")
    # numpy re-wraps an array whose digits differ ...
    assert not compare_stdout("loss [-0. -0.\n -0.]\ndone", "loss [0. 0. 0.]\ndone")
    # ... but identical digits must keep their lines
    assert compare_stdout("loss [0. 0.\n 0.]\ndone", "loss [0. 0. 0.]\ndone")
    assert compare_stdout("loss [-0. -0.\n -0.]\ndone", "loss [0. 0. 0.]\nDone")


# ----------------------------------------------------------------------------- running


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.setdefault("GLOG_v", "3")  # MindSpore: errors only
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _run(cmd: list, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=TIMEOUT_S)


def _mindspore_python(script: SeedScript | None = None) -> str:
    if script is not None and script.env == "msds":
        python = REPO_ROOT / ".venv-msds" / "bin" / "python"
        if not python.exists():
            pytest.skip("needs .venv-msds (bash scripts/ms_dataset_env.sh) for mindspore.dataset")
        return str(python)
    return os.environ.get("TFSPORE_PARITY_MINDSPORE_PYTHON") or sys.executable


def _write_mnist(root: Path) -> None:
    """A small MNIST directory: MNIST_Data/{train,test} with 64 and 32 seeded random images."""
    import numpy as np

    rng = np.random.RandomState(0)
    for split, prefix, count in (("train", "train", 64), ("test", "t10k", 32)):
        folder = root / "MNIST_Data" / split
        folder.mkdir(parents=True)
        images = rng.randint(0, 256, (count, 28, 28)).astype(np.uint8)
        labels = rng.randint(0, 10, (count,)).astype(np.uint8)
        for name, array in ((f"{prefix}-images-idx3-ubyte", images), (f"{prefix}-labels-idx1-ubyte", labels)):
            header = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
            (folder / name).write_bytes(header + array.tobytes())


def _masked(script: SeedScript, text: str) -> str:
    """The text with each mask's matches replaced by ``<masked>``, or by its group 1 if it has one."""
    for mask in script.masks:
        text = mask.sub((lambda m: m.group(1)) if mask.groups else "<masked>", text)
    return text


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def _shared_modules(script: SeedScript) -> list:
    """The shared modules (``examples/seeds/_*.py``) that the script imports, as their texts."""
    text = script.path.read_text(encoding="utf-8")
    return [module.read_text(encoding="utf-8") for module in sorted(SEEDS_DIR.glob("_*.py"))
            if re.search(rf"^\s*(?:from|import)\s+{re.escape(module.stem)}\b", text, re.MULTILINE)]


def _mindspore_output(request, script: SeedScript, args: list, cwd: Path) -> str:
    python = _mindspore_python(script)
    if script.data == "mnist":
        _write_mnist(cwd)
    key_src = "\0".join([script.path.read_text(encoding="utf-8"), *_shared_modules(script), _MS_RUNNER,
                         " ".join(args), python, _version("mindspore"), _version("numpy"), script.env or "",
                         script.data or ""])
    digest = hashlib.sha256(key_src.encode()).hexdigest()
    cache_key = f"tfspore/parity/seed-scripts/{script.name}{'-'.join([''] + [a.strip('-') for a in args])}"
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    use_cache = cache is not None and os.environ.get("TFSPORE_PARITY_NO_CACHE") != "1"
    if use_cache:
        cached = cache.get(cache_key, None)
        if cached and cached.get("digest") == digest:
            return cached["stdout"]
    proc = _run([python, "-c", _MS_RUNNER, str(script.path), *args], cwd)
    if proc.returncode != 0:
        pytest.fail(f"MindSpore itself failed on {script.path.name} {' '.join(args)} (exit {proc.returncode}); "
                    f"mark it '# parity: no-mindspore=<reason>' if MindSpore cannot run it.\n"
                    f"stdout:\n{proc.stdout[-2000:]}\nstderr:\n{proc.stderr[-4000:]}", pytrace=False)
    if use_cache:
        cache.set(cache_key, {"digest": digest, "stdout": proc.stdout})
    return proc.stdout


@pytest.mark.parametrize("script,mode", CASES)
def test_seed_script_matches_mindspore(request, tmp_path, script: SeedScript, mode: str):
    import tfspore

    missing = [name for name in script.needs if not hasattr(tfspore, name)]
    if missing:
        pytest.skip(f"tfspore has no {', '.join(missing)} yet")
    args = ["--mode", "graph"] if mode == "graph" else []

    if script.no_mindspore:
        expected, what = "".join(line + "\n" for line in script.expected_stdout), "documented output"
    else:
        if script.env != "msds":
            pytest.importorskip("mindspore", reason="needs mindspore==2.10.0 (pip install -e '.[parity]')")
        ms_dir = tmp_path / "mindspore"
        ms_dir.mkdir()
        expected, what = _mindspore_output(request, script, args, ms_dir), "mindspore"

    tf_dir = tmp_path / "tfspore"
    tf_dir.mkdir()
    if script.data == "mnist":
        _write_mnist(tf_dir)
    proc = _run([sys.executable, "-m", "tfspore", "run", str(script.path), *args], tf_dir)
    if proc.returncode != 0:
        pytest.fail(f"`python -m tfspore run {script.path.name} {' '.join(args)}` exited {proc.returncode}\n"
                    f"stdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-5000:]}", pytrace=False)
    _assert_same(_masked(script, expected), _masked(script, proc.stdout), what, proc.stderr)


def test_every_seed_script_is_collected():
    assert len(SCRIPTS) >= 30, [s.name for s in SCRIPTS]
    # The MindSpore cache key covers the shared module for the scripts that import it, only.
    importers = {s.name for s in SCRIPTS if _shared_modules(s)}
    assert {"model_init", "callback_loss_monitor", "train_guide_sink"} <= importers, sorted(importers)
    assert "cell_apply" not in importers
    for script in SCRIPTS:
        assert set(script.modes) <= {"pynative", "graph"}, script.name
        assert script.no_mindspore is None or script.no_mindspore.strip(), script.name

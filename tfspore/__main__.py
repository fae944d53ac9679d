"""Command line interface of tfspore.

Runs a MindSpore script unmodified on tfspore::

    python -m tfspore run train.py --epochs 2
    python -m tfspore launch --worker_num 2 --local_worker_num 2 --join True train.py

The script runs as ``python train.py --epochs 2`` would run it, except that
``import mindspore`` and every ``mindspore.*`` import resolve to tfspore
(see :func:`tfspore.compat.alias_mindspore`). ``launch`` starts one such process per device
with msrun's flags (see :mod:`tfspore.parallel.cluster.run`). ``ckpt``, ``export`` and
``convert`` carry checkpoints and models between MindSpore and TensorFlow (see :mod:`tfspore.cli`).
"""

from __future__ import annotations

import importlib.metadata
import os
import runpy
import sys
import zipfile
from typing import Optional, Sequence

from tfspore.compat import alias_mindspore, is_mindspore_aliased, unalias_mindspore
from tfspore.parallel.cluster import run as _launch
from tfspore import cli as _cli

__all__ = ["main", "run_script"]

_COMMANDS = ("run", "launch", *_cli.COMMANDS)

_HELP = """\
usage: {prog} [-h] [-V] COMMAND ...

Run MindSpore training scripts on TensorFlow with tfspore.

commands:
  run SCRIPT [ARGS ...]  run a MindSpore script unmodified, with `mindspore` and
                         every `mindspore.*` module resolved to tfspore
  launch [FLAGS] SCRIPT [ARGS ...]
                         start a distributed job, one process per device, with
                         msrun's flags (--worker_num, --local_worker_num, ...);
                         see `{prog} launch --help`
  ckpt inspect|to-tf|from-tf ...
                         MindSpore checkpoints (.ckpt, .safetensors) to TensorFlow
                         checkpoints and back; see `{prog} ckpt --help`
  export --network FILE.py:NAME --input SHAPE --output OUT [--format FMT]
                         a MindSpore network with its checkpoint to a SavedModel,
                         TFLite, ONNX or MindIR model
  convert MODEL.mindir --to savedmodel|tflite|onnx OUTPUT
                         a MindIR file to a TensorFlow model

options:
  -h, --help             show this help message and exit
  -V, --version          show the tfspore version and exit

example:
  {prog} run train.py --epochs 2
"""

_RUN_HELP = """\
usage: {prog} run [-h] SCRIPT [ARGS ...]

Run SCRIPT as `python SCRIPT ARGS ...` would run it, with `import mindspore` and
every `mindspore.*` import resolved to tfspore: sys.argv is [SCRIPT, ARGS ...],
__name__ is '__main__' and the script's directory comes first on sys.path.
Everything after SCRIPT is passed to the script unchanged.

positional arguments:
  SCRIPT      path of the Python script (or of a directory or zip file with
              a __main__.py) to run
  ARGS        arguments for the script

options:
  -h, --help  show this help message and exit
"""


def _prog() -> str:
    if os.path.basename(sys.argv[0] if sys.argv else "") == "__main__.py":
        return "python -m tfspore"
    return "tfspore"


def _version() -> str:
    tfspore = sys.modules.get("tfspore")
    version = getattr(tfspore, "__version__", None)
    if isinstance(version, str):
        return version
    try:
        return importlib.metadata.version("tfspore")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _error(prog: str, usage: str, message: str) -> int:
    sys.stderr.write(usage.splitlines()[0] + "\n")
    sys.stderr.write(f"{prog}: error: {message}\n")
    return 2


def _exit_code(code: object) -> int:
    """Maps a ``SystemExit`` code to a process exit status as Python does."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def _run(prog: str, argv: list[str], own_process: bool) -> int:
    usage = _RUN_HELP.format(prog=prog)
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(usage)
        return 0
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        return _error(f"{prog} run", usage, "the following arguments are required: SCRIPT")
    if argv[0].startswith("-"):
        return _error(f"{prog} run", usage, f"unrecognized option {argv[0]!r} before SCRIPT")
    script, script_args = argv[0], argv[1:]
    path = os.path.abspath(script)
    if not os.path.exists(path):
        sys.stderr.write(
            f"{prog} run: error: can't open file {path!r}: [Errno 2] No such file or directory\n")
        return 2
    return run_script(path, script_args, own_process=own_process)


def run_script(path: str, args: Sequence[str] = (), own_process: bool = False) -> int:
    """Runs a MindSpore script with ``mindspore`` resolved to tfspore.

    The script runs through :func:`runpy.run_path` with ``__name__`` set to
    ``'__main__'``, ``sys.argv`` set to ``[path, *args]`` and the script's
    directory first on ``sys.path``, as ``python path args...`` would run it.

    Args:
        path: Path of the script, or of a directory or zip file holding a
            ``__main__.py``.
        args: Arguments passed to the script in ``sys.argv[1:]``.
        own_process: True when the script owns the process (the command
            line): the runner's own ``sys.path[0]`` entry is replaced by the
            script's directory and nothing is restored afterwards. False
            restores ``sys.argv``, ``sys.path`` and the alias state on return.

    Returns:
        The script's exit status: 0 when it ends normally, else the code of
        the ``SystemExit`` it raised.

    Raises:
        Exception: Whatever the script raises, other than ``SystemExit``.

    Example:
        >>> from tfspore.__main__ import run_script
        >>> run_script("train.py", ["--epochs", "1"])  # doctest: +SKIP
        0
    """
    path = os.path.abspath(path)
    # runpy itself puts a directory or zip file on sys.path; a plain script
    # needs its directory there.
    is_file_script = os.path.isfile(path) and not zipfile.is_zipfile(path)
    script_dir = os.path.dirname(path) if is_file_script else None

    saved_argv, saved_path = sys.argv[:], sys.path[:]
    was_aliased = is_mindspore_aliased()
    sys.argv[:] = [path, *args]
    if own_process and not getattr(sys.flags, "safe_path", False) and sys.path:
        # sys.path[0] is the runner's entry (the working directory under
        # `python -m`, the launcher's directory for the console script).
        if script_dir is not None:
            sys.path[0] = script_dir
        else:
            del sys.path[0]
    elif script_dir is not None:
        sys.path.insert(0, script_dir)
    alias_mindspore()
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        return _exit_code(exc.code)
    finally:
        if not own_process:
            sys.argv[:] = saved_argv
            sys.path[:] = saved_path
            if not was_aliased:
                unalias_mindspore()
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m tfspore`` and of the ``tfspore`` command.

    Args:
        argv: Command line arguments without the program name. None reads
            ``sys.argv[1:]`` and treats the call as the program itself, so a
            script run with ``run`` then owns the process; with explicit
            arguments the interpreter state is restored after the script.

    Returns:
        The exit status: 0 on success, 2 for a usage error, else the script's
        own exit status.

    Example:
        >>> from tfspore.__main__ import main
        >>> main(["run", "train.py", "--epochs", "1"])  # doctest: +SKIP
        0
    """
    own_process = argv is None
    args = list(sys.argv[1:] if argv is None else argv)
    prog = _prog()
    usage = _HELP.format(prog=prog)
    if not args:
        choices = ", ".join(repr(c) for c in _COMMANDS)
        return _error(prog, usage, f"missing COMMAND (choose from {choices}); see --help")
    first = args[0]
    if first in ("-h", "--help"):
        sys.stdout.write(usage)
        return 0
    if first in ("-V", "--version"):
        sys.stdout.write(f"tfspore {_version()}\n")
        return 0
    if first.startswith("-"):
        return _error(prog, usage, f"unrecognized option {first!r}")
    if first == "run":
        return _run(prog, args[1:], own_process)
    if first == "launch":
        return _launch.main(args[1:], prog=f"{prog} launch")
    if first in _cli.COMMANDS:
        return _cli.run_command(first, args[1:], prog)
    hint = ""
    if first.endswith(".py") or os.path.exists(first):
        hint = f"; to run a script, use: {prog} run {first}"
    choices = ", ".join(repr(c) for c in _COMMANDS)
    return _error(prog, usage, f"unknown command {first!r} (choose from {choices}){hint}")


if __name__ == "__main__":
    sys.exit(main())

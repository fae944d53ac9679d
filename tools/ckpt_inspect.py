"""List the entries of a MindSpore ``.ckpt`` (or ``.safetensors``) file: name, dtype, shape and value statistics.

The same as ``tfspore ckpt inspect`` (:mod:`tfspore.cli.ckpt`), kept for existing command lines.

Example:
    python tools/ckpt_inspect.py lenet-2_56.ckpt
    python tools/ckpt_inspect.py lenet-2_56.ckpt --json
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tfspore.cli import ckpt as _ckpt  # noqa: E402
from tfspore.cli.common import run_tool  # noqa: E402

TOOL = "ckpt_inspect"
printable = _ckpt.printable


def describe(ckpt: str, include: str | None = None, dec_key: bytes | None = None,
             dec_mode: str = "AES-GCM") -> list:
    """One dict per entry: ``name``, ``dtype``, ``shape``, and ``min`` / ``max`` / ``mean`` of numbers."""
    return _ckpt.describe(ckpt, include, dec_key, dec_mode, tool=TOOL)


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    _ckpt.inspect_main(argv, prog=TOOL, tool=TOOL)


if __name__ == "__main__":
    sys.exit(run_tool(main))

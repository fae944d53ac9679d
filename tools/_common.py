"""Shared helpers of the checkpoint tools, now the ones of the installed ``tfspore`` commands.

The logic lives in :mod:`tfspore.cli.common`; the scripts in this folder are thin wrappers
kept for existing command lines.
"""
from __future__ import annotations

import os
import sys

# The tools run as plain scripts too: make the repository importable.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tfspore.cli.common import (ToolError, check_output_dir, from_keras_layout, load_name_map,  # noqa: E402
                                parse_key, select, to_keras_layout)
from tfspore.cli.common import read_checkpoint as read_ckpt  # noqa: E402
from tfspore.cli.common import run_tool as main_wrapper  # noqa: E402

__all__ = ["ToolError", "check_output_dir", "from_keras_layout", "load_name_map", "main_wrapper", "parse_key",
           "read_ckpt", "select", "to_keras_layout"]

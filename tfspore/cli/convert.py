"""``tfspore convert MODEL.mindir --to savedmodel|tflite|onnx OUTPUT``: a MindIR file to a TensorFlow
model, without the network's Python code.

The MindIR graph is read by tfspore's MindIR reader (:mod:`tfspore.train.mindir`, the one behind
``mindspore.load``) into a TensorFlow function, which is then written as a SavedModel directory
(``serving_default``), a ``.tflite`` file or an ``.onnx`` file (needs ``pip install 'tfspore[onnx]'``).
"""
from __future__ import annotations

import os
from typing import Optional, Sequence

from tfspore.cli.common import ENC_MODES, ArgumentParser, ToolError, first_line, parse_key, run_tool
from tfspore.train.mindir import mindir_to_onnx, mindir_to_savedmodel, mindir_to_tflite
from tfspore.train.tf_export import onnx_available

__all__ = ["TARGETS", "convert", "main", "run"]

TOOL = "tfspore convert"
TARGETS = ("savedmodel", "tflite", "onnx")
_CONVERTERS = {"savedmodel": mindir_to_savedmodel, "tflite": mindir_to_tflite, "onnx": mindir_to_onnx}


def convert(model: str, target: str, output: str, dec_key: Optional[bytes] = None, dec_mode: str = "AES-GCM",
            tool: str = TOOL) -> str:
    """Convert the MindIR file ``model`` to ``target`` at ``output``.

    Args:
        model: a ``.mindir`` file (written by MindSpore or by tfspore).
        target: one of :data:`TARGETS`.
        output: the SavedModel directory, or the ``.tflite`` / ``.onnx`` file (the suffix is
            added when missing). An existing output is replaced only once the new one is complete.
        dec_key, dec_mode: decryption of an encrypted MindIR.
        tool: the command named in errors.

    Returns:
        str: the absolute path written.

    Raises:
        ToolError: for a missing or unreadable model, an unknown target or an unwritable output.
    """
    if target not in TARGETS:
        raise ToolError(f"{tool}: the argument 'to' must be one of {list(TARGETS)}, but got {target!r}.")
    if not model.endswith(".mindir") or not os.path.isfile(model):
        raise ToolError(f"{tool}: the argument 'model' must be an existing .mindir file, but got {model!r}.")
    parent = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(parent):
        raise ToolError(f"{tool}: the parent directory of the argument 'output' must exist, but got {output!r}.")
    if target == "onnx" and not onnx_available():
        raise ToolError(f"{tool}: the argument 'to' 'onnx' needs the packages tf2onnx and onnx: "
                        "pip install 'tfspore[onnx]'.")
    try:
        return _CONVERTERS[target](model, output, dec_key=dec_key, dec_mode=dec_mode)
    except (ValueError, TypeError, NotImplementedError, RuntimeError, ImportError, OSError) as e:
        raise ToolError(f"{tool}: cannot convert {model!r} (argument 'model') to {target}: {first_line(e)}") from e


def main(argv: Optional[Sequence[str]] = None, prog: str = TOOL, tool: str = TOOL) -> None:
    """``tfspore convert``: parse the arguments and convert; raises :class:`ToolError` on bad input."""
    p = ArgumentParser(prog=prog, description="Convert a MindIR file (written by MindSpore's or tfspore's "
                       "export) to a TensorFlow SavedModel, a TFLite model or an ONNX model, without the "
                       "network's Python code. The model keeps the MindIR's input shapes.")
    p.add_argument("model", help="the .mindir file")
    p.add_argument("--to", required=True, choices=TARGETS, dest="target",
                   help="savedmodel (a directory with a serving_default signature, inputs input_0, ..., "
                        "outputs output_0, ...), tflite or onnx")
    p.add_argument("output", help="the SavedModel directory, or the .tflite / .onnx file to write")
    p.add_argument("--dec_key", help="hex key of an encrypted MindIR")
    p.add_argument("--dec_mode", default="AES-GCM", choices=ENC_MODES, help="cipher of an encrypted MindIR")
    a = p.parse_args(argv)
    written = convert(a.model, a.target, a.output, parse_key(tool, a.dec_key, "dec_key"), a.dec_mode, tool)
    print(f"wrote {a.target} {written}")


def run(argv: Optional[Sequence[str]] = None, prog: str = TOOL) -> int:
    """``tfspore convert ...`` as a command: the exit status."""
    return run_tool(lambda rest: main(rest, prog=prog, tool=prog), argv)

"""The model and checkpoint commands of ``tfspore``: ``ckpt``, ``export`` and ``convert``.

They are installed with the package (the ``tfspore`` console script, or ``python -m tfspore``):

    tfspore ckpt inspect lenet.ckpt
    tfspore ckpt to-tf lenet.ckpt /tmp/tf/lenet --keras_layout
    tfspore ckpt from-tf /tmp/tf/lenet lenet.safetensors --keras_layout
    tfspore export --network examples/models/lenet.py:LeNet5 --ckpt lenet.ckpt \\
        --input 1,1,32,32 --format onnx --output lenet.onnx
    tfspore convert lenet.mindir --to savedmodel /tmp/lenet_savedmodel

Each command prints ``--help``; a bad argument ends it with exit status 2 and one line naming
the argument and the value, never a traceback.
"""
from __future__ import annotations

from typing import Sequence

from tfspore.cli import ckpt, convert, export

__all__ = ["COMMANDS", "run_command"]

# name -> (one-line summary for `tfspore --help`, runner)
COMMANDS = {
    "ckpt": ("inspect, to-tf, from-tf: MindSpore checkpoints (.ckpt, .safetensors) and TensorFlow "
             "checkpoints", ckpt.main),
    "export": ("a MindSpore network with its checkpoint to a SavedModel, TFLite, ONNX or MindIR model",
               export.run),
    "convert": ("a MindIR file to a SavedModel, TFLite or ONNX model", convert.run),
}


def run_command(name: str, argv: Sequence[str], prog: str = "tfspore") -> int:
    """Run the command ``name`` (a key of :data:`COMMANDS`) on ``argv``; returns the exit status."""
    return COMMANDS[name][1](list(argv), prog=f"{prog} {name}")

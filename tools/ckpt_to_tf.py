"""Convert a MindSpore ``.ckpt`` (or ``.safetensors``) file to a name-based TensorFlow checkpoint.

The same as ``tfspore ckpt to-tf`` (:mod:`tfspore.cli.ckpt`), kept for existing command lines:
each parameter is stored under its MindSpore name (or the name ``--name_map`` gives it), so
TensorFlow code reads it with ``tf.train.load_checkpoint(prefix).get_tensor("conv1.weight")``.
With ``--keras_layout`` the weights are transposed to the layout Keras layers use.

Example:
    python tools/ckpt_to_tf.py lenet-2_56.ckpt /tmp/lenet_tf/ckpt --keras_layout
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tfspore.cli import ckpt as _ckpt  # noqa: E402
from tfspore.cli.common import run_tool  # noqa: E402

TOOL = "ckpt_to_tf"


def convert(ckpt: str, output: str, keras_layout: bool = False, include: str | None = None,
            dec_key: bytes | None = None, dec_mode: str = "AES-GCM", **kwargs) -> list:
    """Write the parameters of ``ckpt`` as a TensorFlow checkpoint with prefix ``output``.

    See :func:`tfspore.cli.ckpt.to_tf` (``name_map``, ``transpose``, ``only_mapped`` go there).
    """
    return _ckpt.to_tf(ckpt, output, keras_layout, include, dec_key, dec_mode, tool=TOOL, **kwargs)


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    _ckpt.to_tf_main(argv, prog=TOOL, tool=TOOL)


if __name__ == "__main__":
    sys.exit(run_tool(main))

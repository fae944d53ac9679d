"""Convert a TensorFlow checkpoint to a MindSpore ``.ckpt`` (or ``.safetensors``) file.

The same as ``tfspore ckpt from-tf`` (:mod:`tfspore.cli.ckpt`), kept for existing command lines.
Reads name-based checkpoints and object-based ones (``tf.train.Checkpoint(net=net, opt=opt)``);
object-based keys such as ``opt/moments..fc..weight/.ATTRIBUTES/VARIABLE_VALUE`` become
``moments.fc.weight``. ``--name_map`` renames further, ``--keras_layout`` transposes
Keras-layout weights back to MindSpore's.

Example:
    python tools/tf_to_ckpt.py /tmp/lenet_tf/ckpt lenet.ckpt --keras_layout
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tfspore.cli import ckpt as _ckpt  # noqa: E402
from tfspore.cli.common import run_tool  # noqa: E402

TOOL = "tf_to_ckpt"
mindspore_name = _ckpt.mindspore_name


def convert(checkpoint: str, output: str, keras_layout: bool = False, include: str | None = None,
            name_map: dict | None = None, keep_root: bool = False, enc_key: bytes | None = None,
            enc_mode: str = "AES-GCM", crc_check: bool = False, **kwargs) -> list:
    """Write the tensors of a TensorFlow checkpoint as a MindSpore ``.ckpt`` file.

    See :func:`tfspore.cli.ckpt.from_tf` (``transpose``, ``only_mapped`` go there).
    """
    return _ckpt.from_tf(checkpoint, output, keras_layout, include, name_map, keep_root, enc_key, enc_mode,
                         crc_check, tool=TOOL, **kwargs)


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    _ckpt.from_tf_main(argv, prog=TOOL, tool=TOOL)


if __name__ == "__main__":
    sys.exit(run_tool(main))

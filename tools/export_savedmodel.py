"""Export a MindSpore network with its ``.ckpt`` weights as a TensorFlow SavedModel.

The same as ``tfspore export --format savedmodel`` (:mod:`tfspore.cli.export`), kept for
existing command lines. The SavedModel serves the network in inference mode under the
``serving_default`` signature, with inputs ``input_0``, ... and outputs ``output_0``, ...; the
batch dimension is left unknown unless ``--fixed_batch`` is given.

Example:
    python tools/export_savedmodel.py --network examples/models/lenet.py:LeNet5 \\
        --ckpt lenet-2_56.ckpt --input 1,1,32,32 --output /tmp/lenet_savedmodel
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tfspore.cli import export as _export  # noqa: E402
from tfspore.cli.common import run_tool  # noqa: E402
from tfspore.train.tf_export import export_savedmodel  # noqa: E402

TOOL = "export_savedmodel"


def load_network_factory(spec: str):
    """``path/to/file.py:Name`` or ``package.module:Name`` to the named callable."""
    return _export.load_network_factory(spec, TOOL)


def parse_input(spec: str, fixed_batch: bool):
    """``1,1,32,32`` or ``1,1,32,32:float32`` to a ``tf.TensorSpec``."""
    return _export.parse_input(spec, fixed_batch, TOOL)


def export(network, input_specs: list, output: str, ckpt: str | None = None) -> dict:
    """Save ``network`` (a tfspore Cell) as a SavedModel at ``output``; returns ``{output name: shape}``."""
    if ckpt is not None:
        _export.load_weights(network, ckpt, TOOL)
    return export_savedmodel(network, input_specs, output)


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    _export.main(argv, prog=TOOL, tool=TOOL, default_format="savedmodel")


if __name__ == "__main__":
    sys.exit(run_tool(main))

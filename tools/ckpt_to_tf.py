"""Convert a MindSpore ``.ckpt`` file to a TensorFlow checkpoint.

The TensorFlow checkpoint is name-based: each parameter is stored under its MindSpore name
(``conv1.weight``, ``moments.fc.bias``, ``global_step``...), so TensorFlow code reads it with
``tf.train.load_checkpoint(prefix).get_tensor("conv1.weight")`` or lists it with
``tf.train.list_variables(prefix)``. With ``--keras_layout`` the weights are transposed to the
layout Keras layers use (Conv ``(O, I, kH, kW)`` to ``(kH, kW, I, O)``, Dense ``(O, I)`` to
``(I, O)``).

Example:
    python tools/ckpt_to_tf.py lenet-2_56.ckpt /tmp/lenet_tf/ckpt --keras_layout
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools._common import (ToolError, check_output_dir, main_wrapper, parse_key, read_ckpt, select,  # noqa: E402
                           to_keras_layout)

TOOL = "ckpt_to_tf"


def convert(ckpt: str, output: str, keras_layout: bool = False, include: str | None = None,
            dec_key: bytes | None = None, dec_mode: str = "AES-GCM") -> list:
    """Write the parameters of ``ckpt`` as a TensorFlow checkpoint with prefix ``output``.

    Args:
        ckpt: the MindSpore ``.ckpt`` file.
        output: the TensorFlow checkpoint prefix (``output.index`` and ``output.data-*`` are
            written, its directory created if needed; existing files of that prefix are replaced
            only once the new ones are complete).
        keras_layout: transpose ``*weight`` entries to Keras's layout.
        include: a regular expression; only matching names are converted.
        dec_key, dec_mode: decryption of an encrypted ``.ckpt``.

    Returns:
        list: the converted names, in file order.
    """
    import tensorflow as tf
    params = read_ckpt(TOOL, ckpt, dec_key, dec_mode)
    check_output_dir(TOOL, output, create=True)
    names = select(params, include)
    if not names:
        raise ToolError(f"{TOOL}: no parameter of {ckpt!r} matches the argument 'include' ({include!r}).")
    tensors = []
    for name in names:
        value = params[name]
        if not isinstance(value, str):
            value = to_keras_layout(name, value) if keras_layout else value
        tensors.append(tf.constant(value))
    directory = os.path.dirname(os.path.abspath(output))
    with tempfile.TemporaryDirectory(dir=directory, prefix=".ckpt_to_tf.") as tmp:
        tmp_prefix = os.path.join(tmp, "ckpt")
        tf.raw_ops.SaveV2(prefix=tmp_prefix, tensor_names=names, shape_and_slices=[""] * len(names),
                          tensors=tensors)
        written = sorted(os.listdir(tmp))
        # The data shards first and the index last: a reader opens the index, so it never sees a
        # half-replaced checkpoint.
        for fname in sorted(written, key=lambda f: f.endswith(".index")):
            os.replace(os.path.join(tmp, fname), os.path.abspath(output) + fname[len("ckpt"):])
    return names


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    p = argparse.ArgumentParser(prog="ckpt_to_tf", description=__doc__.split("\n\n")[0])
    p.add_argument("ckpt", help="the MindSpore .ckpt file")
    p.add_argument("output", help="the TensorFlow checkpoint prefix to write")
    p.add_argument("--keras_layout", action="store_true", help="transpose weights to Keras's layout")
    p.add_argument("--include", help="regular expression: convert only matching names")
    p.add_argument("--dec_key", help="hex key of an encrypted .ckpt")
    p.add_argument("--dec_mode", default="AES-GCM", choices=["AES-GCM", "AES-CBC", "SM4-CBC"])
    a = p.parse_args(argv)
    names = convert(a.ckpt, a.output, a.keras_layout, a.include, parse_key(TOOL, a.dec_key), a.dec_mode)
    print(f"wrote {len(names)} tensors to {a.output}")


if __name__ == "__main__":
    sys.exit(main_wrapper(main))

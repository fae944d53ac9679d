"""Convert a TensorFlow checkpoint to a MindSpore ``.ckpt`` file.

Reads name-based checkpoints (as ``tools/ckpt_to_tf.py`` writes them) and object-based ones
(``tf.train.Checkpoint(net=net, opt=opt).write(...)``, also of tfspore Cells and optimizers).
Object-based keys such as ``opt/moments..fc..weight/.ATTRIBUTES/VARIABLE_VALUE`` become
MindSpore names by dropping the ``.ATTRIBUTES`` suffix and the root attribute (``opt``), then
joining the object path with dots: ``moments.fc.weight``. ``--name_map`` renames further
(a JSON object ``{tf name: mindspore name}``, applied after that), ``--keras_layout``
transposes Keras-layout weights back to MindSpore's.

Example:
    python tools/tf_to_ckpt.py /tmp/lenet_tf/ckpt lenet.ckpt --keras_layout
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools._common import (ToolError, check_output_dir, from_keras_layout, load_name_map,  # noqa: E402
                           main_wrapper, parse_key, select)

TOOL = "tf_to_ckpt"
_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"


def _unescape(component: str) -> str:
    """Undo TensorFlow's escaping of an object-graph edge name (``..`` is ``.``, ``.S`` is ``/``)."""
    out, i = [], 0
    while i < len(component):
        c = component[i]
        if c == "." and i + 1 < len(component):
            nxt = component[i + 1]
            out.append("/" if nxt == "S" else nxt)
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def mindspore_name(key: str, keep_root: bool = False) -> str | None:
    """The MindSpore name of a TensorFlow checkpoint key (None for bookkeeping entries)."""
    if key == "_CHECKPOINTABLE_OBJECT_GRAPH" or "/.OPTIMIZER_SLOT/" in key:
        return None
    if not key.endswith(_SUFFIX):
        return key
    parts = [_unescape(c) for c in key[:-len(_SUFFIX)].split("/")]
    if not keep_root:
        parts = parts[1:]
    return ".".join(parts) if parts else None


def _checkpoint_prefix(path: str) -> str:
    import tensorflow as tf
    if os.path.isdir(path):
        latest = tf.train.latest_checkpoint(path)
        if latest is None:
            raise ToolError(f"{TOOL}: the argument 'checkpoint' is a directory without a TensorFlow "
                            f"checkpoint, got {path!r}.")
        return latest
    if not os.path.exists(path + ".index"):
        raise ToolError(f"{TOOL}: the argument 'checkpoint' must be a TensorFlow checkpoint prefix "
                        f"(with a '.index' file) or a directory, but got {path!r}.")
    return path


def convert(checkpoint: str, output: str, keras_layout: bool = False, include: str | None = None,
            name_map: dict | None = None, keep_root: bool = False, enc_key: bytes | None = None,
            enc_mode: str = "AES-GCM", crc_check: bool = False) -> list:
    """Write the tensors of a TensorFlow checkpoint as a MindSpore ``.ckpt`` file.

    Args:
        checkpoint: the TensorFlow checkpoint prefix or its directory.
        output: the ``.ckpt`` file to write (atomically: an existing file is replaced only by
            a complete one).
        keras_layout: transpose ``*weight`` entries from Keras's layout to MindSpore's.
        include: a regular expression on the MindSpore names; only matching ones are written.
        name_map: ``{name: new name}`` renames, after the key-to-name mapping.
        keep_root: keep the root attribute of object-based keys in the names.
        enc_key, enc_mode, crc_check: as for ``save_checkpoint``.

    Returns:
        list: the written names, in TensorFlow's (sorted) key order.
    """
    import tensorflow as tf
    from tfspore.train.serialization import save_checkpoint
    prefix = _checkpoint_prefix(checkpoint)
    check_output_dir(TOOL, output)
    reader = tf.train.load_checkpoint(prefix)
    name_map = name_map or {}
    entries, origin = {}, {}
    for key in sorted(reader.get_variable_to_shape_map()):
        name = mindspore_name(key, keep_root)
        if name is None:
            continue
        name = name_map.get(name, name)
        if name in entries:
            raise ToolError(f"{TOOL}: the keys {origin[name]!r} and {key!r} of {prefix!r} both map to "
                            f"the name {name!r}; rename one with --name_map.")
        value = reader.get_tensor(key)
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        else:
            value = np.asarray(value)
            if keras_layout:
                value = from_keras_layout(name, value)
        entries[name], origin[name] = value, key
    kept = select(entries, include)
    if not kept:
        raise ToolError(f"{TOOL}: no tensor of {prefix!r} is left to write (argument 'include' is "
                        f"{include!r}).")
    save_checkpoint({n: entries[n] for n in kept}, output, enc_key=enc_key, enc_mode=enc_mode,
                    crc_check=crc_check)
    return kept


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    p = argparse.ArgumentParser(prog="tf_to_ckpt", description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoint", help="TensorFlow checkpoint prefix or directory")
    p.add_argument("output", help="the .ckpt file to write")
    p.add_argument("--keras_layout", action="store_true", help="weights are in Keras's layout")
    p.add_argument("--include", help="regular expression: write only matching names")
    p.add_argument("--name_map", help="JSON file {name: new name}")
    p.add_argument("--keep_root", action="store_true", help="keep the root attribute of object-based keys")
    p.add_argument("--enc_key", help="hex key to encrypt the .ckpt with")
    p.add_argument("--enc_mode", default="AES-GCM", choices=["AES-GCM", "AES-CBC", "SM4-CBC"])
    p.add_argument("--crc_check", action="store_true", help="append a CRC-32 trailer")
    a = p.parse_args(argv)
    names = convert(a.checkpoint, a.output, a.keras_layout, a.include, load_name_map(TOOL, a.name_map),
                    a.keep_root, parse_key(TOOL, a.enc_key), a.enc_mode, a.crc_check)
    print(f"wrote {len(names)} parameters to {a.output}")


if __name__ == "__main__":
    sys.exit(main_wrapper(main))

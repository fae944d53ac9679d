"""``tfspore ckpt inspect|to-tf|from-tf``: MindSpore checkpoints (``.ckpt``, ``.safetensors``) to
TensorFlow checkpoints and back, and a listing of their entries.

The TensorFlow checkpoints are name-based (what ``tf.raw_ops.SaveV2`` and TF1's ``Saver``
write): each tensor is stored under its MindSpore name, or under the name a name map gives it,
so ``tf.train.load_checkpoint(prefix).get_tensor("conv1.weight")`` reads it and a TF1 model
restores it by variable name. A name map is a JSON object ``{TensorFlow name: MindSpore name}``
(the direction of the model zoo's BERT ``ms2tf`` table); ``to-tf`` applies it inverted,
``from-tf`` as it is. A transpose list names the MindSpore entries stored transposed on the
TensorFlow side (a Dense ``(out, in)`` weight is a ``(in, out)`` kernel there).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Optional, Sequence

import numpy as np
import tensorflow as tf

from tfspore.cli.common import (ENC_MODES, ArgumentParser, ToolError, check_output_dir, first_line,
                                from_keras_layout, load_name_list, load_name_map, parse_key, read_checkpoint,
                                run_tool, select, to_keras_layout, write_checkpoint)

__all__ = ["describe", "printable", "to_tf", "from_tf", "mindspore_name", "main", "inspect_main", "to_tf_main",
           "from_tf_main"]

_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
INSPECT, TO_TF, FROM_TF = "tfspore ckpt inspect", "tfspore ckpt to-tf", "tfspore ckpt from-tf"


def printable(text: str) -> str:
    """``text`` with control characters (and backslashes) escaped, safe to print to a terminal."""
    if text.isprintable() and "\\" not in text:
        return text
    return text.encode("unicode_escape").decode("ascii")


def describe(ckpt: str, include: Optional[str] = None, dec_key: Optional[bytes] = None,
             dec_mode: str = "AES-GCM", tool: str = INSPECT) -> list:
    """One dict per entry: ``name``, ``dtype``, ``shape``, and ``min`` / ``max`` / ``mean`` of numbers.

    Args:
        ckpt: a ``.ckpt`` or ``.safetensors`` file.
        include: a regular expression; only matching names are listed.
        dec_key, dec_mode: decryption of an encrypted ``.ckpt``.
        tool: the command named in errors.

    Returns:
        list of dict, in file order (a str entry has ``value`` instead of statistics).
    """
    params = read_checkpoint(tool, ckpt, dec_key, dec_mode)
    rows = []
    for name in select(params, include, tool):
        value = params[name]
        if isinstance(value, str):
            rows.append({"name": name, "dtype": "str", "shape": [], "value": value})
            continue
        row = {"name": name, "dtype": str(value.dtype), "shape": list(value.shape)}
        if value.size and value.dtype.kind in "biuf":
            as_float = value.astype(np.float64)
            row.update(min=float(as_float.min()), max=float(as_float.max()), mean=float(as_float.mean()))
        rows.append(row)
    return rows


def _transposed(tool: str, name: str, value: np.ndarray) -> np.ndarray:
    if value.ndim != 2:
        raise ToolError(f"{tool}: the argument 'transpose' names {name!r}, which has shape {tuple(value.shape)}; "
                        "only 2-D entries are transposed.")
    return np.ascontiguousarray(value.T)


def _check_listed(tool: str, listed: Sequence[str], present: Sequence[str], arg: str) -> None:
    missing = [n for n in listed if n not in set(present)]
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise ToolError(f"{tool}: the argument '{arg}' names entries the checkpoint does not have: "
                        f"{missing[:3]}{more}.")


def _invert(tool: str, name_map: dict) -> dict:
    inverse: dict = {}
    for tf_name, ms_name in name_map.items():
        if ms_name in inverse:
            raise ToolError(f"{tool}: the argument 'name_map' maps both {inverse[ms_name]!r} and {tf_name!r} to "
                            f"{ms_name!r}; a name map must be one to one.")
        inverse[ms_name] = tf_name
    return inverse


def to_tf(ckpt: str, output: str, keras_layout: bool = False, include: Optional[str] = None,
          dec_key: Optional[bytes] = None, dec_mode: str = "AES-GCM", name_map: Optional[dict] = None,
          transpose: Sequence[str] = (), only_mapped: bool = False, tool: str = TO_TF) -> list:
    """Write the entries of a MindSpore checkpoint as a name-based TensorFlow checkpoint ``output``.

    Args:
        ckpt: the ``.ckpt`` or ``.safetensors`` file.
        output: the TensorFlow checkpoint prefix (``output.index`` and ``output.data-*`` are
            written, its directory created if needed; existing files of that prefix are replaced
            only once the new ones are complete).
        keras_layout: transpose ``*weight`` entries to Keras's layout.
        include: a regular expression on the MindSpore names; only matching ones are converted.
        dec_key, dec_mode: decryption of an encrypted ``.ckpt``.
        name_map: ``{TensorFlow name: MindSpore name}``; mapped entries get the TensorFlow name.
        transpose: MindSpore names of 2-D entries to store transposed (instead of ``keras_layout``).
        only_mapped: write only the entries ``name_map`` names.
        tool: the command named in errors.

    Returns:
        list: the TensorFlow names written, in file order.
    """
    params = read_checkpoint(tool, ckpt, dec_key, dec_mode)
    check_output_dir(tool, output, create=True)
    inverse = _invert(tool, name_map or {})
    _check_listed(tool, list(inverse), list(params), "name_map")
    _check_listed(tool, transpose, list(params), "transpose")
    names = select(params, include, tool)
    if only_mapped:
        names = [n for n in names if n in inverse]
    if not names:
        raise ToolError(f"{tool}: no entry of {ckpt!r} is left to write (argument 'include' is {include!r}"
                        f"{', only mapped names' if only_mapped else ''}).")
    transpose = set(transpose)
    tf_names, tensors = [], []
    for name in names:
        value = params[name]
        if not isinstance(value, str):
            if name in transpose:
                value = _transposed(tool, name, value)
            elif keras_layout:
                value = to_keras_layout(name, value)
        tf_names.append(inverse.get(name, name))
        tensors.append(tf.constant(value))
    directory = os.path.dirname(os.path.abspath(output))
    with tempfile.TemporaryDirectory(dir=directory, prefix=".ckpt_to_tf.") as tmp:
        tmp_prefix = os.path.join(tmp, "ckpt")
        tf.raw_ops.SaveV2(prefix=tmp_prefix, tensor_names=tf_names, shape_and_slices=[""] * len(tf_names),
                          tensors=tensors)
        # The data shards first and the index last: a reader opens the index, so it never sees a
        # half-replaced checkpoint.
        for fname in sorted(os.listdir(tmp), key=lambda f: f.endswith(".index")):
            os.replace(os.path.join(tmp, fname), os.path.abspath(output) + fname[len("ckpt"):])
    return tf_names


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


def mindspore_name(key: str, keep_root: bool = False) -> Optional[str]:
    """The MindSpore name of a TensorFlow checkpoint key (None for bookkeeping entries).

    Object-based keys (``opt/moments..fc..weight/.ATTRIBUTES/VARIABLE_VALUE``) lose the suffix and
    the root attribute and are joined with dots (``moments.fc.weight``); other keys stay as they are.
    """
    if key == "_CHECKPOINTABLE_OBJECT_GRAPH" or "/.OPTIMIZER_SLOT/" in key:
        return None
    if not key.endswith(_SUFFIX):
        return key
    parts = [_unescape(c) for c in key[:-len(_SUFFIX)].split("/")]
    if not keep_root:
        parts = parts[1:]
    return ".".join(parts) if parts else None


def _checkpoint_prefix(tool: str, path: str) -> str:
    if os.path.isdir(path):
        latest = tf.train.latest_checkpoint(path)
        if latest is None:
            raise ToolError(f"{tool}: the argument 'checkpoint' is a directory without a TensorFlow "
                            f"checkpoint, got {path!r}.")
        return latest
    if not os.path.exists(path + ".index"):
        raise ToolError(f"{tool}: the argument 'checkpoint' must be a TensorFlow checkpoint prefix "
                        f"(with a '.index' file) or a directory, but got {path!r}.")
    return path


def from_tf(checkpoint: str, output: str, keras_layout: bool = False, include: Optional[str] = None,
            name_map: Optional[dict] = None, keep_root: bool = False, enc_key: Optional[bytes] = None,
            enc_mode: str = "AES-GCM", crc_check: bool = False, transpose: Sequence[str] = (),
            only_mapped: bool = False, tool: str = FROM_TF) -> list:
    """Write the tensors of a TensorFlow checkpoint as a MindSpore ``.ckpt`` or ``.safetensors`` file.

    Args:
        checkpoint: the TensorFlow checkpoint prefix or its directory.
        output: the file to write (``.safetensors`` writes safetensors, anything else a ``.ckpt``),
            atomically: an existing file is replaced only by a complete one.
        keras_layout: transpose ``*weight`` entries from Keras's layout to MindSpore's.
        include: a regular expression on the MindSpore names; only matching ones are written.
        name_map: ``{name: MindSpore name}`` renames, after the key-to-name mapping.
        keep_root: keep the root attribute of object-based keys in the names.
        enc_key, enc_mode, crc_check: as for ``save_checkpoint`` (``.ckpt`` only).
        transpose: MindSpore names (after renaming) of 2-D entries stored transposed in TensorFlow.
        only_mapped: write only the entries ``name_map`` renames.
        tool: the command named in errors.

    Returns:
        list: the written names, in TensorFlow's (sorted) key order.
    """
    prefix = _checkpoint_prefix(tool, checkpoint)
    check_output_dir(tool, output)
    try:
        reader = tf.train.load_checkpoint(prefix)
    except (tf.errors.OpError, ValueError) as e:
        raise ToolError(f"{tool}: cannot read the TensorFlow checkpoint {prefix!r} (argument 'checkpoint'): "
                        f"{first_line(e)}") from e
    name_map = name_map or {}
    keys = sorted(reader.get_variable_to_shape_map())
    raw_names = {k: mindspore_name(k, keep_root) for k in keys}
    _check_listed(tool, list(name_map), [n for n in raw_names.values() if n is not None], "name_map")
    entries, origin = {}, {}
    for key in keys:
        name = raw_names[key]
        if name is None or (only_mapped and name not in name_map):
            continue
        name = name_map.get(name, name)
        if name in entries:
            raise ToolError(f"{tool}: the keys {origin[name]!r} and {key!r} of {prefix!r} both map to "
                            f"the name {name!r}; rename one with --name_map.")
        value = reader.get_tensor(key)
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        else:
            value = np.asarray(value)
        entries[name], origin[name] = value, key
    _check_listed(tool, transpose, list(entries), "transpose")
    transpose = set(transpose)
    for name, value in entries.items():
        if isinstance(value, str):
            continue
        if name in transpose:
            entries[name] = _transposed(tool, name, value)
        elif keras_layout:
            entries[name] = from_keras_layout(name, value)
    kept = select(entries, include, tool)
    if not kept:
        raise ToolError(f"{tool}: no tensor of {prefix!r} is left to write (argument 'include' is "
                        f"{include!r}).")
    write_checkpoint(tool, {n: entries[n] for n in kept}, output, enc_key, enc_mode, crc_check)
    return kept


def _print_rows(rows: list) -> None:
    for r in rows:
        r["name"] = printable(r["name"])
    width = max([len(r["name"]) for r in rows] + [4])
    print(f"{'name':<{width}}  {'dtype':<8} {'shape':<18} {'min':>12} {'max':>12} {'mean':>12}")
    for r in rows:
        stats = "".join(f" {r[k]:>12.5g}" for k in ("min", "max", "mean")) if "min" in r else \
            (f" {printable(repr(r['value']))}" if "value" in r else "")
        print(f"{r['name']:<{width}}  {r['dtype']:<8} {str(tuple(r['shape'])):<18}{stats}")
    print(f"{len(rows)} entries")


def _add_dec_arguments(p: ArgumentParser) -> None:
    p.add_argument("--dec_key", help="hex key of an encrypted .ckpt")
    p.add_argument("--dec_mode", default="AES-GCM", choices=ENC_MODES, help="cipher of an encrypted .ckpt")


def inspect_main(argv: Optional[Sequence[str]] = None, prog: str = INSPECT, tool: str = INSPECT) -> None:
    """``tfspore ckpt inspect``: list a checkpoint's entries."""
    p = ArgumentParser(prog=prog, description="List the entries of a MindSpore checkpoint (.ckpt or "
                       ".safetensors): name, dtype, shape, and min / max / mean of numbers.")
    p.add_argument("ckpt", help="the .ckpt or .safetensors file")
    p.add_argument("--include", help="regular expression: list only matching names")
    p.add_argument("--json", action="store_true", help="print one JSON object per entry and line")
    _add_dec_arguments(p)
    a = p.parse_args(argv)
    rows = describe(a.ckpt, a.include, parse_key(tool, a.dec_key), a.dec_mode, tool=tool)
    if a.json:
        for row in rows:
            print(json.dumps(row))
        return
    _print_rows(rows)


def _add_map_arguments(p: ArgumentParser, direction: str) -> None:
    p.add_argument("--keras_layout", action="store_true",
                   help="weights in Keras's layout on the TensorFlow side: Conv (O, I, kH, kW) <-> "
                        "(kH, kW, I, O), Dense (O, I) <-> (I, O)")
    p.add_argument("--include", help="regular expression on the MindSpore names: convert only matching ones")
    p.add_argument("--name_map", metavar="MAP.json",
                   help="JSON object {TensorFlow name: MindSpore name} (as the model zoo's BERT ms2tf "
                        f"table); {direction}")
    p.add_argument("--only_mapped", action="store_true", help="convert only the names the name map lists")
    p.add_argument("--transpose", metavar="NAMES",
                   help="file of MindSpore names (one a line, or a JSON list) of 2-D entries stored "
                        "transposed on the TensorFlow side")


def to_tf_main(argv: Optional[Sequence[str]] = None, prog: str = TO_TF, tool: str = TO_TF) -> None:
    """``tfspore ckpt to-tf``: a MindSpore checkpoint to a TensorFlow checkpoint."""
    p = ArgumentParser(prog=prog, description="Convert a MindSpore checkpoint (.ckpt or .safetensors) to a "
                       "name-based TensorFlow checkpoint: tf.train.load_checkpoint(OUTPUT).get_tensor(name).")
    p.add_argument("ckpt", help="the .ckpt or .safetensors file")
    p.add_argument("output", help="the TensorFlow checkpoint prefix to write (OUTPUT.index, OUTPUT.data-*)")
    _add_map_arguments(p, "the entries get the TensorFlow names")
    _add_dec_arguments(p)
    a = p.parse_args(argv)
    names = to_tf(a.ckpt, a.output, a.keras_layout, a.include, parse_key(tool, a.dec_key), a.dec_mode,
                  load_name_map(tool, a.name_map), load_name_list(tool, a.transpose), a.only_mapped, tool=tool)
    print(f"wrote {len(names)} tensors to {a.output}")


def from_tf_main(argv: Optional[Sequence[str]] = None, prog: str = FROM_TF, tool: str = FROM_TF) -> None:
    """``tfspore ckpt from-tf``: a TensorFlow checkpoint to a MindSpore checkpoint."""
    p = ArgumentParser(prog=prog, description="Convert a TensorFlow checkpoint (name-based, or object-based as "
                       "tf.train.Checkpoint writes it) to a MindSpore .ckpt or .safetensors file.")
    p.add_argument("checkpoint", help="the TensorFlow checkpoint prefix or its directory")
    p.add_argument("output", help="the file to write: OUT.safetensors writes safetensors, else a .ckpt")
    _add_map_arguments(p, "the entries get the MindSpore names")
    p.add_argument("--keep_root", action="store_true", help="keep the root attribute of object-based keys")
    p.add_argument("--enc_key", help="hex key to encrypt the .ckpt with")
    p.add_argument("--enc_mode", default="AES-GCM", choices=ENC_MODES, help="cipher of the encrypted .ckpt")
    p.add_argument("--crc_check", action="store_true", help="append a CRC-32 trailer to the .ckpt")
    a = p.parse_args(argv)
    names = from_tf(a.checkpoint, a.output, a.keras_layout, a.include, load_name_map(tool, a.name_map),
                    a.keep_root, parse_key(tool, a.enc_key, "enc_key"), a.enc_mode, a.crc_check,
                    load_name_list(tool, a.transpose), a.only_mapped, tool=tool)
    print(f"wrote {len(names)} parameters to {a.output}")


_SUBCOMMANDS = {"inspect": inspect_main, "to-tf": to_tf_main, "from-tf": from_tf_main}

_HELP = """\
usage: {prog} [-h] {{inspect,to-tf,from-tf}} ...

MindSpore checkpoints (.ckpt, .safetensors) and TensorFlow checkpoints.

commands:
  inspect CKPT          list the entries: name, dtype, shape, min / max / mean
  to-tf CKPT OUTPUT     write a name-based TensorFlow checkpoint
  from-tf CHECKPOINT OUTPUT
                        write a .ckpt (or .safetensors) from a TensorFlow checkpoint

options:
  -h, --help            show this help message and exit

Each command takes --help. Name maps (--name_map MAP.json, {{TensorFlow name: MindSpore name}}) and
transpose lists (--transpose NAMES) carry checkpoints between differently named models.
"""


def main(argv: Optional[Sequence[str]] = None, prog: str = "tfspore ckpt") -> int:
    """``tfspore ckpt COMMAND ...``.

    Returns:
        int: the exit status (2 for a bad argument, with a one-line message).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    usage = _HELP.format(prog=prog)
    if not args or args[0] in ("-h", "--help"):
        (sys.stdout if args else sys.stderr).write(usage)
        return 0 if args else 2
    command = _SUBCOMMANDS.get(args[0])
    if command is None:
        sys.stderr.write(f"{prog}: error: unknown command {args[0]!r} (choose from 'inspect', 'to-tf', "
                         "'from-tf')\n")
        return 2
    name = f"{prog} {args[0]}"
    return run_tool(lambda rest: command(rest, prog=name, tool=name), args[1:])

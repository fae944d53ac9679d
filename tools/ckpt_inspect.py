"""List the entries of a MindSpore ``.ckpt`` file: name, dtype, shape and value statistics.

Example:
    python tools/ckpt_inspect.py lenet-2_56.ckpt
    python tools/ckpt_inspect.py lenet-2_56.ckpt --json
"""
from __future__ import annotations

import argparse
import json
import os
import sys

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from tools._common import main_wrapper, parse_key, read_ckpt, select  # noqa: E402

TOOL = "ckpt_inspect"


def printable(text: str) -> str:
    """``text`` with control characters (and backslashes) escaped, safe to print to a terminal."""
    if text.isprintable() and "\\" not in text:
        return text
    return text.encode("unicode_escape").decode("ascii")


def describe(ckpt: str, include: str | None = None, dec_key: bytes | None = None,
             dec_mode: str = "AES-GCM") -> list:
    """One dict per entry: ``name``, ``dtype``, ``shape``, and ``min`` / ``max`` / ``mean`` of numbers."""
    params = read_ckpt(TOOL, ckpt, dec_key, dec_mode)
    rows = []
    for name in select(params, include):
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


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    p = argparse.ArgumentParser(prog="ckpt_inspect", description=__doc__.split("\n\n")[0])
    p.add_argument("ckpt", help="the MindSpore .ckpt file")
    p.add_argument("--include", help="regular expression: list only matching names")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--dec_key", help="hex key of an encrypted .ckpt")
    p.add_argument("--dec_mode", default="AES-GCM", choices=["AES-GCM", "AES-CBC", "SM4-CBC"])
    a = p.parse_args(argv)
    rows = describe(a.ckpt, a.include, parse_key(TOOL, a.dec_key), a.dec_mode)
    if a.json:
        for row in rows:
            print(json.dumps(row))
        return
    for r in rows:
        r["name"] = printable(r["name"])
    width = max([len(r["name"]) for r in rows] + [4])
    print(f"{'name':<{width}}  {'dtype':<8} {'shape':<18} {'min':>12} {'max':>12} {'mean':>12}")
    for r in rows:
        stats = "".join(f" {r[k]:>12.5g}" for k in ("min", "max", "mean")) if "min" in r else \
            (f" {r['value']!r}" if "value" in r else "")
        print(f"{r['name']:<{width}}  {r['dtype']:<8} {str(tuple(r['shape'])):<18}{stats}")
    print(f"{len(rows)} entries")


if __name__ == "__main__":
    sys.exit(main_wrapper(main))

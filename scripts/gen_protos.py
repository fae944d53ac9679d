"""Regenerate tfspore's protobuf modules from the ``.proto`` files checked in beside them.

Every ``tfspore/_internal/proto/*.proto`` is compiled by ``protoc`` into ``*_pb2.py`` in the same
folder. The ``.proto`` files are the source of truth; the ``*_pb2.py`` files are checked in so
that importing tfspore needs no compiler, and ``tests/_internal/test_protos.py`` regenerates them
into a temporary folder and asserts the output is byte for byte what is checked in.

protoc comes from ``grpcio-tools`` at exactly :data:`GRPCIO_TOOLS_VERSION` (protoc's version is
written into each generated module, so another version would give other files). The generated
code needs a protobuf runtime of the same major version as that protoc and at least its minor
version (protobuf 7.x for the version pinned here); it runs under the runtime in ``.venv``.

Where protoc comes from:

- the running interpreter, when it has ``grpc_tools`` at the pinned version (``.venv`` has it:
  ``grpcio-tools`` is in the ``test`` extra of ``pyproject.toml``, where it leaves the installed
  protobuf as it is);
- otherwise a virtual environment of its own, created on first use under
  ``$TFSPORE_PROTOC_VENV`` (default ``${XDG_CACHE_HOME:-~/.cache}/tfspore/protoc-<version>``) with
  ``pip install grpcio-tools==<version>``. That environment is used only to run protoc, so
  whatever protobuf version pip puts there never touches ``.venv``.

Usage:
    python scripts/gen_protos.py              # rewrite tfspore/_internal/proto/*_pb2.py
    python scripts/gen_protos.py --out DIR    # write the modules into DIR instead
    python scripts/gen_protos.py --check      # exit 1 when a checked-in module is not protoc's output
"""
from __future__ import annotations

import argparse
import filecmp
import glob
import os
import subprocess
import sys
import tempfile
import venv

GRPCIO_TOOLS_VERSION = "1.85.1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTO_DIR = os.path.join("tfspore", "_internal", "proto")


def proto_files() -> list[str]:
    """The ``.proto`` files to compile, relative to the repository root (protoc's import root)."""
    return sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, PROTO_DIR, "*.proto")))


def _has_pinned_grpc_tools(python: str) -> bool:
    """Whether ``python`` can import ``grpc_tools`` of version :data:`GRPCIO_TOOLS_VERSION`."""
    probe = ("import importlib.metadata as m, grpc_tools.protoc; "
             "print(m.version('grpcio-tools'))")
    try:
        out = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    return out.strip() == GRPCIO_TOOLS_VERSION


def _cache_venv() -> str:
    """The folder of the protoc-only virtual environment."""
    if os.environ.get("TFSPORE_PROTOC_VENV"):
        return os.environ["TFSPORE_PROTOC_VENV"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "tfspore", f"protoc-{GRPCIO_TOOLS_VERSION}")


def protoc_python() -> str:
    """An interpreter that has ``grpc_tools`` at the pinned version, creating its venv if needed."""
    if _has_pinned_grpc_tools(sys.executable):
        return sys.executable
    env_dir = _cache_venv()
    python = os.path.join(env_dir, "bin", "python")
    if not _has_pinned_grpc_tools(python):
        print(f"gen_protos: installing grpcio-tools=={GRPCIO_TOOLS_VERSION} into {env_dir}", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        f"grpcio-tools=={GRPCIO_TOOLS_VERSION}"], check=True)
    return python


def generate(out_dir: str) -> list[str]:
    """Compile every ``.proto`` into ``out_dir``; return the paths of the modules written.

    The modules land in ``out_dir`` directly (not in ``out_dir/tfspore/_internal/proto``).
    """
    protos = proto_files()
    if not protos:
        raise SystemExit(f"gen_protos: no .proto files in {PROTO_DIR}")
    python = protoc_python()
    with tempfile.TemporaryDirectory() as tmp:
        include = subprocess.run(
            [python, "-c", "import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), '_proto'))"],
            capture_output=True, text=True, check=True).stdout.strip()
        subprocess.run([python, "-m", "grpc_tools.protoc", f"-I{ROOT}", f"-I{include}", f"--python_out={tmp}",
                        *protos], check=True, cwd=ROOT)
        written = []
        os.makedirs(out_dir, exist_ok=True)
        for proto in protos:
            name = os.path.splitext(os.path.basename(proto))[0] + "_pb2.py"
            src = os.path.join(tmp, PROTO_DIR, name)
            dst = os.path.join(out_dir, name)
            with open(src, "rb") as fin:
                data = fin.read()
            with open(dst + ".tmp", "wb") as fout:
                fout.write(data)
            os.replace(dst + ".tmp", dst)
            written.append(dst)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", help="folder to write the modules into (default: beside the .proto files)")
    parser.add_argument("--check", action="store_true",
                        help="generate into a temporary folder and compare with the checked-in modules")
    args = parser.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            stale = [os.path.relpath(os.path.join(ROOT, PROTO_DIR, os.path.basename(p)), ROOT)
                     for p in generate(tmp)
                     if not os.path.exists(os.path.join(ROOT, PROTO_DIR, os.path.basename(p)))
                     or not filecmp.cmp(p, os.path.join(ROOT, PROTO_DIR, os.path.basename(p)), shallow=False)]
        for path in stale:
            print(f"gen_protos: {path} is not protoc's output for its .proto; run scripts/gen_protos.py")
        return 1 if stale else 0
    for path in generate(args.out or os.path.join(ROOT, PROTO_DIR)):
        print(os.path.relpath(path, ROOT) if not args.out else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

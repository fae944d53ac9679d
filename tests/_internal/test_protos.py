"""tfspore/_internal/proto: the checked-in ``*_pb2.py`` modules are protoc's output for the ``.proto`` files.

``scripts/gen_protos.py`` regenerates them with the pinned ``grpcio-tools`` (in the ``test`` extra)
into a temporary folder; every module must come out byte for byte as checked in, and every
``.proto`` must have its module (and no module its ``.proto``).
"""
import filecmp
import glob
import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROTO_DIR = os.path.join(ROOT, "tfspore", "_internal", "proto")


def _gen_protos():
    spec = importlib.util.spec_from_file_location("gen_protos", os.path.join(ROOT, "scripts", "gen_protos.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stems(pattern: str, suffix: str) -> set:
    return {os.path.basename(p)[: -len(suffix)] for p in glob.glob(os.path.join(PROTO_DIR, pattern))}


def test_every_proto_has_its_module_and_every_module_its_proto():
    protos = _stems("*.proto", ".proto")
    assert {"checkpoint", "anf_ir", "summary", "lineage"} <= protos
    assert _stems("*_pb2.py", "_pb2.py") == protos


def test_regenerating_gives_the_checked_in_modules(tmp_path):
    written = _gen_protos().generate(str(tmp_path))
    assert sorted(os.path.basename(p) for p in written) == sorted(
        os.path.basename(p) for p in glob.glob(os.path.join(PROTO_DIR, "*_pb2.py")))
    differ = [os.path.basename(p) for p in written
              if not filecmp.cmp(p, os.path.join(PROTO_DIR, os.path.basename(p)), shallow=False)]
    assert not differ, f"not protoc's output for their .proto (run scripts/gen_protos.py): {differ}"


def test_check_mode_reports_a_stale_module(tmp_path, monkeypatch, capsys):
    gen = _gen_protos()
    stale_root = tmp_path / "repo"
    proto_dir = stale_root / "tfspore" / "_internal" / "proto"
    proto_dir.mkdir(parents=True)
    for name in ("anf_ir.proto", "summary.proto", "anf_ir_pb2.py", "summary_pb2.py"):
        (proto_dir / name).write_bytes(open(os.path.join(PROTO_DIR, name), "rb").read())
    (proto_dir / "summary_pb2.py").write_text("# edited by hand\n")
    monkeypatch.setattr(gen, "ROOT", str(stale_root))
    assert gen.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "summary_pb2.py" in out and "anf_ir_pb2.py" not in out


@pytest.mark.parametrize("module, message", [
    ("checkpoint_pb2", "Checkpoint"), ("anf_ir_pb2", "TensorProto"), ("summary_pb2", "LossLandscape"),
    ("lineage_pb2", "TrainLineage"),
])
def test_modules_register_under_tfspore_packages(module, message):
    """The messages live in packages of their own, so MindSpore's copies can be loaded beside them."""
    mod = importlib.import_module(f"tfspore._internal.proto.{module}")
    descriptor = getattr(mod, message).DESCRIPTOR
    assert descriptor.full_name.startswith("tfspore.")
    assert descriptor.file.name == f"tfspore/_internal/proto/{module[:-4]}.proto"

"""tfspore's ``.proto`` schemas describe MindSpore 2.10's messages field for field.

Each message tfspore defines (checkpoint, anf_ir, summary, lineage) is compared with real
MindSpore's message of the same name: field names, numbers, types, labels, packing, oneofs,
map entries, nested messages and enum values. Only the package differs (``tfspore.*`` instead
of MindSpore's), which is not part of the wire format; the bytes are then checked on messages
filled through both.
"""
import pytest

pytest.importorskip("mindspore")

from mindspore.train import anf_ir_pb2 as ms_anf_ir  # noqa: E402
from mindspore.train import checkpoint_pb2 as ms_checkpoint  # noqa: E402
from mindspore.train import lineage_pb2 as ms_lineage  # noqa: E402
from mindspore.train import summary_pb2 as ms_summary  # noqa: E402

from tfspore._internal.proto import anf_ir_pb2, checkpoint_pb2, lineage_pb2, summary_pb2  # noqa: E402


def _short(type_name: str) -> str:
    """A field's type name without the package (``mindspore.irpb.TensorProto`` -> ``TensorProto``)."""
    for package in ("mindspore.irpb.", "tfspore.irpb.", "tfspore.ckpt."):
        if type_name.startswith(package):
            return type_name[len(package):]
    return type_name


def _label(field) -> str:
    """required, repeated or optional (protobuf 7 spells it with two flags, older runtimes with ``label``)."""
    if hasattr(field, "is_required"):
        return "required" if field.is_required else "repeated" if field.is_repeated else "optional"
    return {1: "optional", 2: "required", 3: "repeated"}[field.label]


def _shape(descriptor) -> dict:
    """Everything about a message that reaches the wire or the generated API, package aside."""
    fields = {}
    for f in descriptor.fields:
        packed = f.is_packed if hasattr(f, "is_packed") else f.GetOptions().packed
        fields[f.name] = (f.number, f.type, _label(f), packed,
                          _short(f.message_type.full_name) if f.message_type else None,
                          _short(f.enum_type.full_name) if f.enum_type else None,
                          f.containing_oneof.name if f.containing_oneof else None)
    nested = {n.name: _shape(n) for n in descriptor.nested_types}
    return {"fields": fields, "nested": nested, "map_entry": descriptor.GetOptions().map_entry}


MESSAGES = [
    (checkpoint_pb2, ms_checkpoint, "Checkpoint"), (checkpoint_pb2, ms_checkpoint, "TensorProto"),
    (checkpoint_pb2, ms_checkpoint, "MapTensorProto"),
    (anf_ir_pb2, ms_anf_ir, "TensorProto"),
    (summary_pb2, ms_summary, "LossLandscape"),
    (lineage_pb2, ms_lineage, "LineageEvent"), (lineage_pb2, ms_lineage, "UserDefinedInfo"),
    (lineage_pb2, ms_lineage, "TrainLineage"), (lineage_pb2, ms_lineage, "EvaluationLineage"),
    (lineage_pb2, ms_lineage, "DatasetGraph"), (lineage_pb2, ms_lineage, "Operation"),
    (lineage_pb2, ms_lineage, "OperationParameter"), (lineage_pb2, ms_lineage, "StrList"),
]


@pytest.mark.parametrize("ours, theirs, name", MESSAGES, ids=[f"{m[0].__name__.split('.')[-1]}.{m[2]}"
                                                              for m in MESSAGES])
def test_message_matches_mindspore(ours, theirs, name):
    assert _shape(getattr(ours, name).DESCRIPTOR) == _shape(getattr(theirs, name).DESCRIPTOR)


def test_data_type_enum_matches_mindspore():
    assert anf_ir_pb2.DataType.items() == ms_anf_ir.DataType.items()


def test_checkpoint_bytes_parse_both_ways():
    ours = checkpoint_pb2.Checkpoint()
    value = ours.value.add()
    value.tag = "conv.weight"
    value.tensor.dims.extend([2, 3])
    value.tensor.tensor_type = "Float32"
    value.tensor.tensor_content = bytes(range(24))
    entry = ours.value.add()
    entry.tag = "table"
    entry.maptensor.tensor.add(dims=[1], tensor_type="Int64", tensor_content=bytes(8))
    data = ours.SerializeToString()
    theirs = ms_checkpoint.Checkpoint.FromString(data)
    assert theirs.SerializeToString() == data
    assert [v.tag for v in theirs.value] == ["conv.weight", "table"]
    assert checkpoint_pb2.Checkpoint.FromString(theirs.SerializeToString()) == ours

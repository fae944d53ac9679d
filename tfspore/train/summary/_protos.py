"""MindSpore's lineage and loss-landscape protobuf messages, built at import time.

The schemas are MindSpore's ``lineage.proto`` and the ``LossLandscape`` part of ``summary.proto``
(package ``mindspore.irpb``, proto2), with the ``TensorProto`` and ``DataType`` of
``anf_ir.proto`` they use. They are written below in a small subset of the proto language
(messages, nested messages, enums, ``optional``/``required``/``repeated`` fields, ``map<,>`` and
``oneof``), parsed into a ``FileDescriptorProto`` and registered in a private
:class:`~google.protobuf.descriptor_pool.DescriptorPool` (no ``protoc`` step, no clash with real
MindSpore's copies in the default pool).

Example:
    >>> from tfspore.train.summary._protos import TrainLineage
    >>> msg = TrainLineage()
    >>> msg.hyper_parameters.optimizer = "Momentum"
    >>> msg.hyper_parameters.learning_rate = 0.01
    >>> TrainLineage.FromString(msg.SerializeToString()).hyper_parameters.optimizer
    'Momentum'
"""
from __future__ import annotations

import re

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal import enum_type_wrapper

__all__ = ["TensorProto", "DataType", "LossLandscape", "LineageEvent", "UserDefinedInfo", "TrainLineage",
           "EvaluationLineage", "DatasetGraph", "Operation", "OperationParameter", "StrList"]

_PACKAGE = "mindspore.irpb"

_DATA_TYPES = ("DT_UNDEFINED DT_BOOL DT_INT8 DT_INT16 DT_INT32 DT_INT64 DT_UINT8 DT_UINT16 DT_UINT32 DT_UINT64 "
               "DT_FLOAT16 DT_FLOAT32 DT_FLOAT64 DT_STRING DT_TENSOR DT_GRAPH DT_BOOLS DT_INTS8 DT_INTS16 "
               "DT_INTS32 DT_INTS64 DT_UINTS8 DT_UINTS16 DT_UINTS32 DT_UINTS64 DT_FLOATS16 DT_FLOATS32 "
               "DT_FLOATS64 DT_STRINGS DT_TENSORS DT_GRAPHS DT_TUPLE DT_LIST DT_DICT DT_NONE DT_SYM_INST "
               "DT_BASE_INT DT_BASE_UINT DT_BASE_FLOAT DT_TYPE DT_ANY DT_REFKEY DT_REF DT_COMPLEX64 "
               "DT_COMPLEX128 DT_BASE_COMPLEX DT_BFLOAT16 DT_BFLOATS16 DT_INT4 DT_SLICE").split()

_SCHEMA = """
enum DataType { %s }

message TensorProto {
  repeated int64 dims = 1;
  optional DataType data_type = 2;
  repeated float float_data = 3 [packed];
  repeated int32 int32_data = 4 [packed];
  repeated int64 int64_data = 5 [packed];
  repeated double double_data = 6 [packed];
  repeated uint64 uint64_data = 7 [packed];
  optional bytes raw_data = 8;
}

message LossLandscape {
  message Point {
    optional TensorProto x = 1;
    optional TensorProto y = 2;
    optional TensorProto z = 3;
  }
  message LossPath {
    repeated int32 intervals = 1;
    optional Point points = 2;
  }
  message Metadata {
    optional string decomposition = 1;
    optional string unit = 2;
    optional int32 step_per_epoch = 3;
  }
  optional Point landscape = 1;
  optional LossPath loss_path = 2;
  optional Metadata metadata = 3;
  optional Point convergence_point = 4;
}

message LineageEvent {
  required double wall_time = 1;
  optional int64 step = 2;
  oneof what {
    string version = 3;
    TrainLineage train_lineage = 6;
    EvaluationLineage evaluation_lineage = 7;
    DatasetGraph dataset_graph = 9;
    UserDefinedInfo user_defined_info = 10;
  }
}

message UserDefinedInfo {
  repeated UserDefinedInfo user_info = 1;
  map<string, UserDefinedInfo> map_dict = 2;
  map<string, int32> map_int32 = 3;
  map<string, string> map_str = 4;
  map<string, double> map_double = 5;
}

message TrainLineage {
  message HyperParameters {
    optional string optimizer = 1;
    optional float learning_rate = 2;
    optional string loss_function = 3;
    optional int32 epoch = 4;
    optional string parallel_mode = 5;
    optional int32 device_num = 6;
    optional int32 batch_size = 8;
  }
  message TrainDataset {
    optional string train_dataset_path = 1;
    optional int32 train_dataset_size = 2;
  }
  message Algorithm {
    optional string network = 1;
    optional float loss = 2;
  }
  message Model {
    optional string path = 3;
    optional int64 size = 4;
  }
  optional HyperParameters hyper_parameters = 1;
  optional TrainDataset train_dataset = 2;
  optional Algorithm algorithm = 3;
  optional Model model = 4;
}

message EvaluationLineage {
  message ValidDataset {
    optional string valid_dataset_path = 1;
    optional int32 valid_dataset_size = 2;
  }
  optional string metric = 2;
  optional ValidDataset valid_dataset = 3;
}

message DatasetGraph {
  repeated DatasetGraph children = 1;
  optional OperationParameter parameter = 2;
  repeated Operation operations = 3;
  optional Operation sampler = 4;
}

message Operation {
  optional OperationParameter operationParam = 1;
  repeated int32 size = 2;
  repeated float weights = 3;
}

message OperationParameter {
  map<string, string> mapStr = 1;
  map<string, StrList> mapStrList = 2;
  map<string, bool> mapBool = 3;
  map<string, int32> mapInt = 4;
  map<string, double> mapDouble = 5;
}

message StrList {
  repeated string strValue = 1;
}
""" % " ".join(f"{name} = {i};" for i, name in enumerate(_DATA_TYPES))

_F = descriptor_pb2.FieldDescriptorProto
_LABELS = {"optional": _F.LABEL_OPTIONAL, "required": _F.LABEL_REQUIRED, "repeated": _F.LABEL_REPEATED}
_SCALARS = {"double": _F.TYPE_DOUBLE, "float": _F.TYPE_FLOAT, "int64": _F.TYPE_INT64, "uint64": _F.TYPE_UINT64,
            "int32": _F.TYPE_INT32, "bool": _F.TYPE_BOOL, "string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES}
_TOKEN = re.compile(r"map<\s*\w+\s*,\s*\w+\s*>|\[packed\]|\w+|[{}=;]")


class _Parser:
    """Turns the schema text above into a ``FileDescriptorProto``."""

    def __init__(self, text: str) -> None:
        self.tokens = _TOKEN.findall(text)
        self.pos = 0
        self.fields: list = []  # (field proto, scope path, type name) resolved after parsing
        self.names: set = set()

    def next(self) -> str:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expect(self, tok: str) -> None:
        got = self.next()
        if got != tok:
            raise SyntaxError(f"schema: expected {tok!r}, got {got!r}")

    def parse(self) -> descriptor_pb2.FileDescriptorProto:
        fdp = descriptor_pb2.FileDescriptorProto(name="tfspore_mindspore_irpb.proto", package=_PACKAGE,
                                                 syntax="proto2")
        while self.pos < len(self.tokens):
            kind = self.next()
            if kind == "enum":
                self.enum(fdp.enum_type.add(), ())
            else:
                self.message(fdp.message_type.add(), ())
        for field, scope, type_name in self.fields:
            self.resolve(field, scope, type_name)
        return fdp

    def enum(self, enum: descriptor_pb2.EnumDescriptorProto, scope: tuple) -> None:
        enum.name = self.next()
        self.names.add(".".join(scope + (enum.name,)))
        self.expect("{")
        while (tok := self.next()) != "}":
            self.expect("=")
            enum.value.add(name=tok, number=int(self.next()))
            self.expect(";")

    def message(self, msg: descriptor_pb2.DescriptorProto, scope: tuple) -> None:
        msg.name = self.next()
        path = scope + (msg.name,)
        self.names.add(".".join(path))
        self.expect("{")
        while (tok := self.next()) != "}":
            if tok == "message":
                self.message(msg.nested_type.add(), path)
            elif tok == "oneof":
                index = len(msg.oneof_decl)
                msg.oneof_decl.add(name=self.next())
                self.expect("{")
                while (ftype := self.next()) != "}":
                    self.field(msg, path, "optional", ftype, oneof=index)
            elif tok.startswith("map<"):
                self.map_field(msg, path, tok)
            else:
                self.field(msg, path, tok, self.next())

    def field(self, msg: descriptor_pb2.DescriptorProto, path: tuple, label: str, ftype: str,
              oneof: int | None = None) -> descriptor_pb2.FieldDescriptorProto:
        name = self.next()
        self.expect("=")
        field = msg.field.add(name=name, number=int(self.next()), label=_LABELS[label])
        if oneof is not None:
            field.oneof_index = oneof
        tok = self.next()
        if tok == "[packed]":
            field.options.packed = True
            tok = self.next()
        if tok != ";":
            raise SyntaxError(f"schema: expected ';' after field {name!r}")
        self.set_type(field, path, ftype)
        return field

    def map_field(self, msg: descriptor_pb2.DescriptorProto, path: tuple, tok: str) -> None:
        key_type, value_type = (t.strip() for t in tok[4:-1].split(","))
        name = self.next()
        entry = msg.nested_type.add(name="".join(p[:1].upper() + p[1:] for p in name.split("_")) + "Entry")
        entry.options.map_entry = True
        entry_path = path + (entry.name,)
        self.names.add(".".join(entry_path))
        self.set_type(entry.field.add(name="key", number=1, label=_F.LABEL_OPTIONAL), entry_path, key_type)
        self.set_type(entry.field.add(name="value", number=2, label=_F.LABEL_OPTIONAL), entry_path, value_type)
        self.expect("=")
        field = msg.field.add(name=name, number=int(self.next()), label=_F.LABEL_REPEATED, type=_F.TYPE_MESSAGE,
                              type_name="." + ".".join((_PACKAGE,) + entry_path))
        del field  # the entry type is already fully qualified
        self.expect(";")

    def set_type(self, field: descriptor_pb2.FieldDescriptorProto, path: tuple, ftype: str) -> None:
        if ftype in _SCALARS:
            field.type = _SCALARS[ftype]
        else:
            self.fields.append((field, path, ftype))

    def resolve(self, field: descriptor_pb2.FieldDescriptorProto, scope: tuple, type_name: str) -> None:
        """Resolve a message or enum type name from the innermost scope outwards, as protoc does."""
        for depth in range(len(scope), -1, -1):
            candidate = ".".join(scope[:depth] + (type_name,))
            if candidate in self.names:
                field.type_name = f".{_PACKAGE}.{candidate}"
                field.type = _F.TYPE_ENUM if candidate == "DataType" else _F.TYPE_MESSAGE
                return
        raise SyntaxError(f"schema: unknown type {type_name!r}")


_POOL = descriptor_pool.DescriptorPool()
DESCRIPTOR = _POOL.Add(_Parser(_SCHEMA).parse())


def _message(name: str) -> type:
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PACKAGE}.{name}"))


DataType = enum_type_wrapper.EnumTypeWrapper(_POOL.FindEnumTypeByName(f"{_PACKAGE}.DataType"))
TensorProto = _message("TensorProto")
LossLandscape = _message("LossLandscape")
LineageEvent = _message("LineageEvent")
UserDefinedInfo = _message("UserDefinedInfo")
TrainLineage = _message("TrainLineage")
EvaluationLineage = _message("EvaluationLineage")
DatasetGraph = _message("DatasetGraph")
Operation = _message("Operation")
OperationParameter = _message("OperationParameter")
StrList = _message("StrList")

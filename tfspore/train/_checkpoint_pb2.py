"""Protobuf messages of MindSpore's ``.ckpt`` format, built at import time.

The schema is MindSpore's ``checkpoint.proto`` (proto2, no package)::

    message Checkpoint {
      repeated Value value = 1;
      message Value {
        required string tag = 1;
        oneof value {
          TensorProto    tensor    = 2;
          MapTensorProto maptensor = 3;
        }
      }
    }
    message TensorProto {
      repeated int64 dims           = 1;
      required string tensor_type   = 2;
      required bytes tensor_content = 3;
    }
    message MapTensorProto {
      repeated TensorProto tensor = 1;
    }

The descriptors are assembled with the protobuf runtime's descriptor APIs (no ``protoc`` step)
and registered in a private :class:`~google.protobuf.descriptor_pool.DescriptorPool`, so they
never clash with another copy of the same schema (real MindSpore registers ``Checkpoint`` in the
default pool under the same names).

Example:
    >>> from tfspore.train._checkpoint_pb2 import Checkpoint
    >>> ckpt = Checkpoint()
    >>> value = ckpt.value.add()
    >>> value.tag = "bias"
    >>> value.tensor.dims.append(2)
    >>> value.tensor.tensor_type = "Float32"
    >>> value.tensor.tensor_content = bytes(8)
    >>> len(ckpt.SerializeToString())
    31
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["Checkpoint", "TensorProto", "MapTensorProto", "DESCRIPTOR"]

_F = descriptor_pb2.FieldDescriptorProto


def _field(msg: descriptor_pb2.DescriptorProto, name: str, number: int, label: int, ftype: int,
           type_name: str | None = None, oneof_index: int | None = None) -> None:
    """Append a field to ``msg``."""
    f = msg.field.add()
    f.name = name
    f.number = number
    f.label = label
    f.type = ftype
    if type_name is not None:
        f.type_name = type_name
    if oneof_index is not None:
        f.oneof_index = oneof_index


def _build_file() -> descriptor_pb2.FileDescriptorProto:
    """Return the FileDescriptorProto of ``checkpoint.proto``."""
    fdp = descriptor_pb2.FileDescriptorProto()
    fdp.name = "checkpoint.proto"
    fdp.syntax = "proto2"

    ckpt = fdp.message_type.add()
    ckpt.name = "Checkpoint"
    _field(ckpt, "value", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".Checkpoint.Value")
    value = ckpt.nested_type.add()
    value.name = "Value"
    value.oneof_decl.add().name = "value"
    _field(value, "tag", 1, _F.LABEL_REQUIRED, _F.TYPE_STRING)
    _field(value, "tensor", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".TensorProto", oneof_index=0)
    _field(value, "maptensor", 3, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, ".MapTensorProto", oneof_index=0)

    tensor = fdp.message_type.add()
    tensor.name = "TensorProto"
    _field(tensor, "dims", 1, _F.LABEL_REPEATED, _F.TYPE_INT64)
    _field(tensor, "tensor_type", 2, _F.LABEL_REQUIRED, _F.TYPE_STRING)
    _field(tensor, "tensor_content", 3, _F.LABEL_REQUIRED, _F.TYPE_BYTES)

    maptensor = fdp.message_type.add()
    maptensor.name = "MapTensorProto"
    _field(maptensor, "tensor", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, ".TensorProto")
    return fdp


_POOL = descriptor_pool.DescriptorPool()
DESCRIPTOR = _POOL.Add(_build_file())

Checkpoint = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("Checkpoint"))
TensorProto = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("TensorProto"))
MapTensorProto = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("MapTensorProto"))

"""The ``TensorProto`` message and ``DataType`` enum of MindSpore's ``anf_ir.proto``
(``mindspore.train.anf_ir_pb2``), as used by loss landscapes.

Example:
    >>> from tfspore.train.anf_ir_pb2 import DataType
    >>> DataType.Value("DT_FLOAT32")
    11
"""
from tfspore.train.summary._protos import DataType, TensorProto  # noqa: F401

__all__ = ["DataType", "TensorProto"]

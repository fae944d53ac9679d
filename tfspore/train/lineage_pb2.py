"""MindSpore's ``lineage.proto`` messages (``mindspore.train.lineage_pb2``).

Example:
    >>> from tfspore.train import lineage_pb2
    >>> info = lineage_pb2.UserDefinedInfo()
    >>> info.map_str["version"] = "v1"
"""
from tfspore.train.summary._protos import (DatasetGraph, EvaluationLineage, LineageEvent, Operation,  # noqa: F401
                                           OperationParameter, StrList, TrainLineage, UserDefinedInfo)

__all__ = ["LineageEvent", "UserDefinedInfo", "TrainLineage", "EvaluationLineage", "DatasetGraph", "Operation",
           "OperationParameter", "StrList"]

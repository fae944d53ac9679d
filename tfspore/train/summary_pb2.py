"""The ``LossLandscape`` message of MindSpore's ``summary.proto`` (``mindspore.train.summary_pb2``).

Example:
    >>> from tfspore.train.summary_pb2 import LossLandscape
    >>> landscape = LossLandscape()
    >>> landscape.metadata.unit = "step"
"""
from tfspore.train.summary._protos import LossLandscape  # noqa: F401

__all__ = ["LossLandscape"]

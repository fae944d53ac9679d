"""The plugin and mode names of the summary API (MindSpore's ``mindspore.train.summary.enums``).

Example:
    >>> from tfspore.train.summary.enums import PluginEnum
    >>> PluginEnum.SCALAR.value
    'scalar'
"""
from __future__ import annotations

from enum import Enum

__all__ = ["BaseEnum", "PluginEnum", "WriterPluginEnum", "ModeEnum"]


class BaseEnum(Enum):
    """An Enum with :meth:`to_list`."""

    @classmethod
    def to_list(cls) -> list:
        """The values of the members, in definition order."""
        return [member.value for member in cls.__members__.values()]


class PluginEnum(BaseEnum):
    """The plugins ``SummaryRecord.add_value`` accepts."""
    GRAPH = 'graph'
    SCALAR = 'scalar'
    IMAGE = 'image'
    TENSOR = 'tensor'
    HISTOGRAM = 'histogram'
    TRAIN_LINEAGE = 'train_lineage'
    EVAL_LINEAGE = 'eval_lineage'
    CUSTOM_LINEAGE_DATA = 'custom_lineage_data'
    DATASET_GRAPH = 'dataset_graph'
    EXPLAINER = 'explainer'
    LANDSCAPE = 'landscape'


class WriterPluginEnum(Enum):
    """The files a SummaryRecord writes: summary events, lineage events and exported tensors."""
    EXPORTER = 'exporter'
    EXPLAINER = 'explainer'
    SUMMARY = 'summary'
    LINEAGE = 'lineage'


class ModeEnum(BaseEnum):
    """The phases of :meth:`SummaryRecord.set_mode`."""
    TRAIN = 'train'
    EVAL = 'eval'

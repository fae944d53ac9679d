"""``tfspore.train.summary``: ``SummaryRecord``, writing TensorBoard event files.

Example:
    >>> from tfspore.train.summary import SummaryRecord
    >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
    ...     pass
"""
from tfspore.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]

"""Event files: TFRecord-framed ``Event`` protos, with a size budget per file and rotation.

File names keep MindSpore's pattern with ``tfevents`` in place of ``events`` (TensorBoard reads
only files whose name contains ``tfevents``)::

    {file_prefix}.out.tfevents.summary.{seconds}.{device_id}.{hostname}{file_suffix}

for example ``events.out.tfevents.summary.1795329628.0.myhost_MS``; the lineage file has the
suffix ``_lineage``. A name that a file already has is never reused (``{seconds}`` is increased
until the name is free). When ``max_file_size`` would be exceeded, the file is closed and the
next one starts with a later ``{seconds}`` (one more than the previous file's at least), so the
files of a run directory sort in the order they were written. Every file starts with an event of
``file_version: "brain.Event:2"``; closed files are made read-only (0o400), as MindSpore does.

Example:
    >>> from tfspore.train.summary._writer import event_file_name
    >>> event_file_name("events", "_MS", 1795329628, 0, "myhost")
    'events.out.tfevents.summary.1795329628.0.myhost_MS'
"""
from __future__ import annotations

import logging
import os
import stat
import time

import tensorflow as tf
from tensorboard.compat.proto import event_pb2

_logger = logging.getLogger("tfspore")

__all__ = ["event_file_name", "EventFile"]

EVENT_FILE_NAME_MARK = ".out.tfevents.summary."
FILE_VERSION = "brain.Event:2"
FILE_MODE = 0o400
# 8 bytes of length, 4 of its CRC, 4 of the data's CRC
RECORD_OVERHEAD = 16


def event_file_name(prefix: str, suffix: str, seconds: int, device_id: int, hostname: str) -> str:
    """The name of an event file (see the module docstring)."""
    return f"{prefix}{EVENT_FILE_NAME_MARK}{seconds}.{device_id}.{hostname}{suffix}"


class EventFile:
    """One stream of events, written to one or more files of at most ``max_file_size`` bytes each.

    The file is created at the first write.

    Args:
        log_dir: the directory.
        name_parts: ``(prefix, suffix, seconds, device_id, hostname)`` of the first file's name.
        max_file_size: the byte budget of each file (None: no limit).
    """

    def __init__(self, log_dir: str, name_parts: tuple, max_file_size: int | None) -> None:
        self._log_dir = log_dir
        self._prefix, self._suffix, self._seconds, self._device_id, self._host = name_parts
        self._max_file_size = max_file_size
        self._writer: tf.io.TFRecordWriter | None = None
        self._remaining: int | None = None
        self._take_free_name(self._seconds)
        self.paths: list[str] = []

    @property
    def seconds(self) -> int:
        """The ``{seconds}`` of the current file's name."""
        return self._seconds

    def _take_free_name(self, seconds: int) -> None:
        """Use the first name from ``seconds`` on that no file has (an earlier record's file is never
        overwritten, and later files sort after earlier ones)."""
        self._seconds = seconds
        while os.path.exists(os.path.join(self._log_dir, self._name())):
            self._seconds += 1
        self.path = os.path.join(self._log_dir, self._name())

    def _name(self) -> str:
        return event_file_name(self._prefix, self._suffix, self._seconds, self._device_id, self._host)

    def _open(self) -> None:
        if self.paths:  # a rotation: a new name, later than the previous one
            self._take_free_name(max(int(time.time()), self._seconds + 1))
        elif os.path.exists(self.path):
            self._take_free_name(self._seconds)
        with open(self.path, "wb"):
            os.chmod(self.path, stat.S_IWUSR | stat.S_IRUSR)
        self._writer = tf.io.TFRecordWriter(self.path)
        self.paths.append(self.path)
        self._remaining = self._max_file_size
        header = event_pb2.Event(wall_time=time.time(), file_version=FILE_VERSION).SerializeToString()
        if not self._fits(len(header)):
            self._writer.close()
            self._writer = None
            raise RuntimeWarning(f"'max_file_size' reached: There are {self._max_file_size} bytes remaining, but "
                                 f"the '{self.path}' requires to write {len(header) + RECORD_OVERHEAD} bytes.")
        self._writer.write(header)

    def _fits(self, length: int) -> bool:
        required = length + RECORD_OVERHEAD
        if self._remaining is None:
            return True
        if self._remaining >= required:
            self._remaining -= required
            return True
        return False

    def write(self, event: event_pb2.Event) -> bool:
        """Write one event; returns False (with a warning) when it is larger than a whole file may be."""
        data = event.SerializeToString()
        if self._writer is None:
            self._open()
        if not self._fits(len(data)):
            _logger.warning("'max_file_size' reached: There are %d bytes remaining, but the '%s' requires to write "
                            "%d bytes.", self._remaining, self.path, len(data) + RECORD_OVERHEAD)
            self._close_file()
            self._open()
            if not self._fits(len(data)):
                _logger.warning("The event of %d bytes is larger than 'max_file_size' (%d bytes); it is not "
                                "written.", len(data) + RECORD_OVERHEAD, self._max_file_size)
                return False
        self._writer.write(data)
        return True

    def flush(self) -> None:
        """Write what is buffered to disk."""
        if self._writer is not None:
            self._writer.flush()

    def _close_file(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
            try:
                os.chmod(self.path, FILE_MODE)
            except FileNotFoundError:
                _logger.debug("The summary file %r has been removed.", self.path)

    def close(self) -> None:
        """Close the current file (read-only from then on)."""
        self._close_file()

"""``mindspore.mindrecord.FileReader``: read the samples of MindRecord files.

Example:
    >>> from tfspore.mindrecord import FileReader
    >>> reader = FileReader("/tmp/doc_example.mindrecord")  # doctest: +SKIP
    >>> [row["label"] for row in reader.get_next()]  # doctest: +SKIP
    >>> reader.close()  # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from tfspore import log as logger
from tfspore.mindrecord.common.exceptions import ParamTypeError, ParamValueError
from tfspore.mindrecord.core import shardcrypt
from tfspore.mindrecord.core import shardutils as su
from tfspore.mindrecord.core.shardreader import load

__all__ = ["FileReader"]


def check_num_consumer(num_consumer: Any) -> None:
    """MindSpore's check of a reader's `num_consumer`."""
    if num_consumer is None:
        raise ParamValueError("Parameter num_consumer is None.")
    if isinstance(num_consumer, bool) or not isinstance(num_consumer, int):
        raise ParamValueError(f"Parameter num_consumer is not int, but got {num_consumer!r}.")
    if not su.MIN_CONSUMER_COUNT <= num_consumer <= su.max_consumer_count():
        raise ParamValueError(f"Parameter num_consumer: {num_consumer} should between {su.MIN_CONSUMER_COUNT} "
                              f"and {su.max_consumer_count()}.")


class FileReader:
    """Read MindRecord files sample by sample.

    Args:
        file_name: One MindRecord file (all shards written with it are read) or a list of files.
        num_consumer: Reader workers, in [1, CPU count]. Default: 4 (capped at the CPU count).
        columns: Fields to read (default all).
        operator: Reserved; ignored.

    Raises:
        ParamValueError: If `file_name` or `num_consumer` is invalid.
        ParamTypeError: If `columns` is not a list.
        RuntimeError: If a file or its ``.db`` index is missing or corrupt, or fails to decrypt
            (see :func:`tfspore.mindrecord.set_enc_key`).
    """

    def __init__(self, file_name: Union[str, List[str]], num_consumer: int = 4, columns: Optional[List[str]] = None,
                 operator: Any = None) -> None:
        for name in (file_name if isinstance(file_name, list) else [file_name]):
            su.check_filename(name)
        if num_consumer == 4:
            num_consumer = min(4, su.max_consumer_count())
        check_num_consumer(num_consumer)
        if operator is not None:
            logger.warning("The parameter 'operator' will be deprecated in a future version.")
        if columns:
            if not isinstance(columns, list):
                raise ParamTypeError("columns", "list")
        self._columns: Sequence[str] = list(columns or [])
        # Encrypted files (set_enc_key) are read from plaintext copies, removed once read.
        plain = shardcrypt.open_plain(file_name, "FileReader")
        try:
            self._table = load(plain.paths, "FileReader")
        finally:
            plain.close()
        unknown = [c for c in self._columns if c not in self._table.schema]
        if unknown:
            raise ParamValueError(f"For 'FileReader', columns {unknown} are not fields of the schema "
                                  f"{sorted(self._table.schema)}.")
        self._closed = False

    def get_next(self) -> Iterator[Dict[str, Any]]:
        """Yield the samples as dicts (scalars as Python values, bytes as bytes, arrays as numpy)."""
        for i in range(len(self._table)):
            yield self._table.row(i, self._columns)

    def schema(self) -> Dict[str, dict]:
        """The schema of the files."""
        return self._table.schema

    def len(self) -> int:
        """The number of samples."""
        return len(self._table)

    def close(self) -> None:
        """Release the reader."""
        self._closed = True

"""``mindspore.mindrecord.MindPage``: group the samples of MindRecord files by an index field
and read the groups page by page.

Example:
    >>> from tfspore.mindrecord import MindPage
    >>> pages = MindPage("/data/train.mindrecord")  # doctest: +SKIP
    >>> pages.category_field = "label"  # doctest: +SKIP
    >>> pages.read_at_page_by_id(0, 0, 10)  # doctest: +SKIP
"""
from __future__ import annotations

import json
import sqlite3
from typing import Any, Dict, List, Optional, Union

from tfspore.mindrecord.common.exceptions import MRMDefineCategoryError, ParamTypeError, ParamValueError
from tfspore.mindrecord.core import shardcrypt
from tfspore.mindrecord.core import shardutils as su
from tfspore.mindrecord.core.shardreader import load
from tfspore.mindrecord.filereader import check_num_consumer

__all__ = ["MindPage"]


class MindPage:
    """Samples grouped by the value of an index field ("category"), read in pages.

    Args:
        file_name: One MindRecord file (all its shards are read) or a list of files.
        num_consumer: Reader workers, in [1, CPU count]. Default: 4 (capped at the CPU count).

    Raises:
        ParamValueError: If `file_name` or `num_consumer` is invalid.
        RuntimeError: If a file or its index is missing or corrupt, or fails to decrypt (see
            :func:`tfspore.mindrecord.set_enc_key`).
    """

    def __init__(self, file_name: Union[str, List[str]], num_consumer: int = 4) -> None:
        for name in (file_name if isinstance(file_name, list) else [file_name]):
            su.check_filename(name)
        if num_consumer == 4:
            num_consumer = min(4, su.max_consumer_count())
        check_num_consumer(num_consumer)
        # Encrypted files (set_enc_key) are read from plaintext copies, kept while the pages are read.
        self._plain = shardcrypt.open_plain(file_name, "MindPage")
        try:
            self._table = load(self._plain.paths, "MindPage")
        except BaseException:
            self._plain.close()
            raise
        self._candidate_fields = [f["index_field"] for f in self._table.header["index_fields"]]
        self._category_field: Optional[str] = None
        self._groups: List[Dict[str, Any]] = []

    @property
    def candidate_fields(self) -> List[str]:
        """The index fields, by which samples can be grouped."""
        return list(self._candidate_fields)

    @property
    def category_field(self) -> Optional[str]:
        """The field samples are grouped by."""
        return self._category_field

    @category_field.setter
    def category_field(self, category_field: str) -> None:
        if not category_field or not isinstance(category_field, str):
            raise ParamTypeError("category_fields", "str")
        if category_field not in self._candidate_fields:
            raise MRMDefineCategoryError(f"Field '{category_field}' is not a candidate category field; candidate "
                                         f"fields: {self._candidate_fields}.")
        self._category_field = category_field
        self._groups = self._group(category_field)

    def _group(self, field: str) -> List[Dict[str, Any]]:
        """Categories in SQLite's order of the values, with their text (SQLite's) and rows."""
        rows: Dict[Any, List[int]] = {}
        names: Dict[Any, str] = {}
        offset = 0
        for path, count in zip(self._table.files, self._shard_counts()):
            conn = sqlite3.connect(f"file:{path}.db?mode=ro", uri=True)
            try:
                query = f"SELECT ROW_ID, {field}_0, CAST({field}_0 AS TEXT) FROM INDEXES ORDER BY ROW_ID"
                for row_id, value, text in conn.execute(query):
                    rows.setdefault(value, []).append(offset + row_id)
                    names[value] = text
            finally:
                conn.close()
            offset += count

        def order(value: Any) -> tuple:
            return (1, value.encode("utf-8")) if isinstance(value, str) else (0, value)

        return [{"name": names[v], "rows": rows[v]} for v in sorted(rows, key=order)]

    def _shard_counts(self) -> List[int]:
        owners = self._table.file_of_row
        return [int((owners == k).sum()) for k in range(len(self._table.files))]

    def _need_field(self) -> None:
        if self._category_field is None:
            raise RuntimeError("For 'MindPage', set category_field before reading categories.")

    def read_category_info(self) -> str:
        """The categories as JSON text: ``{"categories": [{"count", "id", "name"}, ...], "key": "<field>_0"}``."""
        self._need_field()
        cats = [{"count": len(g["rows"]), "id": i, "name": g["name"]} for i, g in enumerate(self._groups)]
        return json.dumps({"categories": cats, "key": f"{self._category_field}_0"}, separators=(",", ":"),
                          ensure_ascii=False)

    def _page(self, group: Dict[str, Any], page: int, num_row: int) -> List[Dict[str, Any]]:
        rows = group["rows"]
        if page * num_row >= len(rows):
            raise RuntimeError(f"For 'MindPage', invalid data, page no: {page} or page size: {num_row} is invalid: "
                               f"category '{group['name']}' has {len(rows)} samples.")
        return [self._table.row(i) for i in rows[page * num_row:(page + 1) * num_row]]

    @staticmethod
    def _check_page(page: Any, num_row: Any) -> None:
        if isinstance(page, bool) or not isinstance(page, int) or page < 0:
            raise ParamValueError(f"Page should be int and greater than or equal to 0, but got {page!r}.")
        if isinstance(num_row, bool) or not isinstance(num_row, int) or num_row <= 0:
            raise ParamValueError(f"num_row should be int and greater than 0, but got {num_row!r}.")

    def read_at_page_by_id(self, category_id: int, page: int, num_row: int) -> List[Dict[str, Any]]:
        """Samples ``[page * num_row, (page + 1) * num_row)`` of category `category_id`.

        Raises:
            ParamValueError: If an argument is not a valid int.
            RuntimeError: If no category field is set, the id does not exist or the page is empty.
        """
        if isinstance(category_id, bool) or not isinstance(category_id, int) or category_id < 0:
            raise ParamValueError(f"Category id should be int and greater than or equal to 0, but got "
                                  f"{category_id!r}.")
        self._check_page(page, num_row)
        self._need_field()
        if category_id >= len(self._groups):
            raise RuntimeError(f"For 'MindPage', invalid data, category_id: {category_id} must be in the range "
                               f"[0, {len(self._groups)}).")
        return self._page(self._groups[category_id], page, num_row)

    def read_at_page_by_name(self, category_name: str, page: int, num_row: int) -> List[Dict[str, Any]]:
        """Samples ``[page * num_row, (page + 1) * num_row)`` of the category named `category_name`.

        Raises:
            ParamValueError: If an argument is invalid.
            RuntimeError: If no category field is set, the name does not exist or the page is empty.
        """
        if not isinstance(category_name, str):
            raise ParamValueError(f"Category name should be str, but got {category_name!r}.")
        self._check_page(page, num_row)
        self._need_field()
        for group in self._groups:
            if group["name"] == category_name:
                return self._page(group, page, num_row)
        raise RuntimeError(f"For 'MindPage', category_name: {category_name} could not found.")

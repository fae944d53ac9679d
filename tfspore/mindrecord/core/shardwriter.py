"""Page layout of one MindRecord shard file being written.

Rows are written call by call: first each row's blob record goes into the current blob page
(a new blob page when it does not fit), then each row's raw record into the current raw page;
a raw page lists, for each blob page whose rows it holds, the offset where they start (its
"row groups"). Pages are numbered in the order they are opened and lie at
``header_size + page_id * page_size``; the file ends at the last page's last record.
"""
from __future__ import annotations

import os
import stat
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tfspore.mindrecord.core import shardformat as fmt
from tfspore.mindrecord.core import shardindex
from tfspore.mindrecord.core.msgpack import packb

__all__ = ["ShardWriter", "PreparedRow"]

# (the scalar record's value: the raw fields' dict, or FileWriter's placeholder when the schema has
# none; blob payload, index values, bytes saved by integer-array compression)
PreparedRow = Tuple[Optional[Dict[str, Any]], bytes, Sequence[Any], int]


class _Page:
    __slots__ = ("page_id", "kind", "type_id", "start_row", "end_row", "groups", "data")

    def __init__(self, page_id: int, kind: str, type_id: int, start_row: int) -> None:
        self.page_id = page_id
        self.kind = kind
        self.type_id = type_id
        self.start_row = start_row
        self.end_row = start_row if kind == "BLOB_DATA" else 0
        self.groups: List[Dict[str, int]] = [{"id": 0, "offset": 0}] if kind == "BLOB_DATA" else []
        self.data = bytearray()

    def meta(self, shard_id: int) -> Dict[str, Any]:
        return {"end_row_id": self.end_row, "page_id": self.page_id, "page_size": len(self.data),
                "page_type": self.kind, "page_type_id": self.type_id, "row_group_ids": list(self.groups),
                "shard_id": shard_id, "start_row_id": self.start_row}


class ShardWriter:
    """Collects the pages and index rows of one shard file.

    Args:
        path: The shard file's path.
        shard_id: Its position among the shards.
        page_size: The page size in bytes.
    """

    def __init__(self, path: str, shard_id: int, page_size: int) -> None:
        self.path = path
        self.shard_id = shard_id
        self.page_size = page_size
        self.pages: List[_Page] = []
        self._blob: Optional[_Page] = None
        self._raw: Optional[_Page] = None
        self._blob_pages = 0
        self._raw_pages = 0
        self.row_count = 0
        self.compression = 0
        self.index_rows: List[Tuple[int, ...]] = []
        self.index_values: List[Sequence[Any]] = []
        self.appending = False

    @classmethod
    def reopen(cls, path: str, shard_id: int, header: Dict[str, Any], pages: Dict[int, bytes],
               index: Sequence[Tuple[Any, ...]]) -> "ShardWriter":
        """A writer that goes on filling an existing shard (its header, page bytes and index rows)."""
        writer = cls(path, shard_id, int(header["page_size"]))
        for meta in sorted(header["page"], key=lambda m: int(m["page_id"])):
            page = _Page(int(meta["page_id"]), meta["page_type"], int(meta["page_type_id"]),
                         int(meta["start_row_id"]))
            page.end_row = int(meta["end_row_id"])
            page.groups = [dict(g) for g in meta.get("row_group_ids") or []]
            page.data = bytearray(pages[page.page_id])
            writer.pages.append(page)
            if page.kind == "BLOB_DATA":
                writer._blob = page
                writer._blob_pages += 1
            else:
                writer._raw = page
                writer._raw_pages += 1
        writer.index_rows = [tuple(row[:8]) for row in index]
        writer.index_values = [list(row[9::2]) for row in index]
        writer.row_count = len(index)
        writer.appending = True
        return writer

    def _new_page(self, kind: str, start_row: int) -> _Page:
        if kind == "BLOB_DATA":
            page = _Page(len(self.pages), kind, self._blob_pages, start_row)
            self._blob_pages += 1
        else:
            page = _Page(len(self.pages), kind, self._raw_pages, 0)
            self._raw_pages += 1
        self.pages.append(page)
        return page

    def _check_fits(self, size: int, what: str) -> None:
        if size > self.page_size:
            raise RuntimeError(f"For 'FileWriter.write_raw_data', a sample's {what} record of {size} bytes "
                               f"does not fit a page of {self.page_size} bytes of {self.path!r}; call "
                               f"set_page_size with a larger size.")

    def write(self, rows: Sequence[PreparedRow]) -> None:
        """Append `rows` (raw dict, blob payload, index values) to the shard."""
        first = self.row_count
        blob_pos = []
        for k, (_, blob, _, saved) in enumerate(rows):
            self.compression += saved
            rec = fmt.record(blob)
            self._check_fits(len(rec), "blob")
            if self._blob is None or len(self._blob.data) + len(rec) > self.page_size:
                self._blob = self._new_page("BLOB_DATA", first + k)
            page = self._blob
            off = len(page.data)
            page.data += rec
            page.end_row = first + k + 1
            blob_pos.append((page.type_id, page.page_id, off, off + len(rec)))
        for k, (raw, _, values, _) in enumerate(rows):
            row_id = first + k
            rec = fmt.record(packb(raw))
            self._check_fits(len(rec), "raw")
            group = blob_pos[k][0]
            if self._raw is None or len(self._raw.data) + len(rec) > self.page_size:
                self._raw = self._new_page("RAW_DATA", row_id)
            page = self._raw
            off = len(page.data)
            if not page.groups or page.groups[-1]["id"] != group:
                page.groups.append({"id": group, "offset": off})
            page.data += rec
            _, blob_page, blob_off, blob_end = blob_pos[k]
            self.index_rows.append((row_id, page.page_id, off, off + len(rec), group, blob_page, blob_off, blob_end))
            self.index_values.append(values)
        self.row_count += len(rows)

    def commit(self, header_size: int, header: Dict[str, Any], index_fields: Sequence[str],
               schema: Dict[str, dict], shard_id: Optional[int] = None) -> None:
        """Write the shard file and its index.

        Args:
            header_size: The header size in bytes.
            header: Keyword arguments of :func:`shardformat.header_json` other than the pages,
                sizes and shard id.
            index_fields: The index fields.
            schema: The schema.
            shard_id: The shard id the header records (default: the shard's position).
        """
        sid = self.shard_id if shard_id is None else shard_id
        head = fmt.header_json(header_size=header_size, page_size=self.page_size, index_fields=index_fields,
                               pages=[p.meta(sid) for p in self.pages], shard_id=sid, **header)
        if len(head) > header_size:
            raise RuntimeError(f"For 'FileWriter.commit', the header of {self.path!r} needs {len(head)} bytes, "
                               f"more than the header size {header_size}; call set_header_size with a larger "
                               f"size.")
        end = len(head)
        with open(self.path, "wb") as out:
            out.write(head)
            for page in self.pages:
                start = header_size + page.page_id * self.page_size
                out.seek(start)
                out.write(page.data)
                end = max(end, start + len(page.data))
            out.truncate(end)
        shardindex.write_index(self.path + ".db", os.path.basename(self.path), index_fields, schema,
                               self.index_rows, self.index_values, append=self.appending)
        for item in (self.path, self.path + ".db"):
            os.chmod(item, stat.S_IRUSR | stat.S_IWUSR)

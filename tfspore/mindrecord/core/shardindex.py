"""The SQLite index (``<shard file>.db``) MindRecord keeps beside each shard file.

Table ``INDEXES`` has one row per sample: its row id, where its raw and blob records lie
(page id, start and end offsets in the page) and its row group, then for each index field an
``INC_k`` column and the field's value (``<field>_0``: TEXT, INTEGER or REAL); table
``SHARD_NAME`` holds the shard file's name.
"""
from __future__ import annotations

import os
import sqlite3
from typing import Any, Dict, List, Sequence, Tuple

__all__ = ["write_index", "read_index", "read_index_rows", "POSITION_COLUMNS"]

POSITION_COLUMNS = ("ROW_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END", "ROW_GROUP_ID",
                    "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")
_SQL_TYPES = {"string": "TEXT", "int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL"}
_BASE = ("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT NULL, "
         "PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL, "
         "ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, "
         "PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL")


# The SQLite library version MindSpore 2.10's index writer links (sqlite 3.46.1). SQLite records
# the version of the library that last wrote a database in its header (bytes 96-99, big-endian)
# and only reports it (no reader checks it), so the index is stamped with MindSpore's: with the
# same statements in the same transactions, the .db is then byte-identical to MindSpore's
# whichever SQLite library Python's sqlite3 links.
MINDSPORE_SQLITE_VERSION_NUMBER = 3046001
_VERSION_OFFSET = 96


def _stamp_sqlite_version(db_path: str) -> None:
    with open(db_path, "r+b") as db:
        head = db.read(100)
        if len(head) == 100 and head.startswith(b"SQLite format 3\x00"):
            db.seek(_VERSION_OFFSET)
            db.write(MINDSPORE_SQLITE_VERSION_NUMBER.to_bytes(4, "big"))


def _create_sql(index_fields: Sequence[str], schema: Dict[str, dict]) -> str:
    parts = [_BASE]
    keys = ["ROW_ID"]
    for k, field in enumerate(index_fields):
        parts.append(f",INC_{k} INT, {field}_0 {_SQL_TYPES[schema[field]['type']]}")
        keys.append(f"INC_{k}")
    parts.append(f", PRIMARY KEY({','.join(keys)}))")
    return "".join(parts)


def write_index(db_path: str, shard_name: str, index_fields: Sequence[str], schema: Dict[str, dict],
                rows: Sequence[Tuple[int, ...]], values: Sequence[Sequence[Any]], append: bool = False) -> None:
    """Write the index of one shard.

    Args:
        db_path: The ``.db`` path (replaced if it exists).
        shard_name: The shard file's base name.
        index_fields: The index fields, in order.
        schema: The schema (field -> {"type": ...}).
        rows: Per sample, the 8 values of :data:`POSITION_COLUMNS`.
        values: Per sample, the index fields' values.
        append: Rewrite the tables of an existing index in place (``open_for_append``) instead
            of making a new file.
    """
    if not append and os.path.exists(db_path):
        os.remove(db_path)
    conn = sqlite3.connect(db_path)
    try:
        # MindSpore's statements, each in its own transaction as it runs them: the file's pages
        # and change counter then come out as in MindSpore's index (the drops matter on append).
        conn.execute("DROP TABLE IF EXISTS INDEXES")
        conn.execute(_create_sql(index_fields, schema))
        conn.execute("DROP TABLE IF EXISTS SHARD_NAME")
        conn.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        conn.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_name,))
        conn.commit()  # MindSpore's own transaction: the file change counter matches
        width = 8 + 2 * len(index_fields)
        sql = f"INSERT INTO INDEXES VALUES ({','.join('?' * width)})"
        batch = []
        for pos, vals in zip(rows, values):
            item = list(pos)
            for val in vals:
                item += [0, val]
            batch.append(item)
        conn.executemany(sql, batch)
        conn.commit()
    finally:
        conn.close()
    _stamp_sqlite_version(db_path)


def read_index(db_path: str, data_path: str) -> List[Tuple[int, ...]]:
    """The position columns of every sample of a shard, by row id.

    Raises:
        RuntimeError: If the index file is missing or is not a MindRecord index.
    """
    if not os.path.isfile(db_path):
        raise RuntimeError(f"Invalid file, the index file of MindRecord file {data_path!r} does not exist: "
                           f"{db_path!r}.")
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise RuntimeError(f"Invalid file, failed to open the index file {db_path!r}: {err}.") from err
    conn.text_factory = bytes  # a corrupt index may hold text that is not UTF-8
    try:
        rows = conn.execute(f"SELECT {', '.join(POSITION_COLUMNS)} FROM INDEXES ORDER BY ROW_ID").fetchall()
    except (sqlite3.Error, ValueError, OverflowError) as err:
        raise RuntimeError(f"Invalid file, {db_path!r} is not a MindRecord index file: {err}.") from err
    finally:
        conn.close()
    for k, row in enumerate(rows):
        if row[0] != k or not all(type(v) is int and 0 <= v < (1 << 62) for v in row):  # noqa: E721
            raise RuntimeError(f"Invalid file, the index file {db_path!r} of {data_path!r} is corrupt: row {k} "
                               f"is {row!r}; row ids must run 0, 1, ... with non-negative integer positions.")
    return rows


def read_index_rows(db_path: str) -> List[Tuple[Any, ...]]:
    """Every column of every row of a shard's index, by row id."""
    if not os.path.isfile(db_path):
        raise RuntimeError(f"Invalid file, the index file {db_path!r} does not exist or is not a regular file.")
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise RuntimeError(f"Invalid file, failed to open the index file {db_path!r}: {err}.") from err
    try:
        return conn.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
    except (sqlite3.Error, ValueError, OverflowError) as err:
        raise RuntimeError(f"Invalid file, {db_path!r} is not a MindRecord index file: {err}.") from err
    finally:
        conn.close()

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


def _create_sql(index_fields: Sequence[str], schema: Dict[str, dict]) -> str:
    parts = [_BASE]
    keys = ["ROW_ID"]
    for k, field in enumerate(index_fields):
        parts.append(f",INC_{k} INT, {field}_0 {_SQL_TYPES[schema[field]['type']]}")
        keys.append(f"INC_{k}")
    parts.append(f", PRIMARY KEY({','.join(keys)}))")
    return "".join(parts)


def write_index(db_path: str, shard_name: str, index_fields: Sequence[str], schema: Dict[str, dict],
                rows: Sequence[Tuple[int, ...]], values: Sequence[Sequence[Any]]) -> None:
    """Write the index of one shard.

    Args:
        db_path: The ``.db`` path (replaced if it exists).
        shard_name: The shard file's base name.
        index_fields: The index fields, in order.
        schema: The schema (field -> {"type": ...}).
        rows: Per sample, the 8 values of :data:`POSITION_COLUMNS`.
        values: Per sample, the index fields' values.
    """
    if os.path.exists(db_path):
        os.remove(db_path)
    conn = sqlite3.connect(db_path)
    try:
        conn.execute(_create_sql(index_fields, schema))
        conn.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        conn.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_name,))
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
    try:
        return conn.execute(f"SELECT {', '.join(POSITION_COLUMNS)} FROM INDEXES ORDER BY ROW_ID").fetchall()
    except sqlite3.Error as err:
        raise RuntimeError(f"Invalid file, {db_path!r} is not a MindRecord index file: {err}.") from err
    finally:
        conn.close()


def read_index_rows(db_path: str) -> List[Tuple[Any, ...]]:
    """Every column of every row of a shard's index, by row id."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
    except sqlite3.Error as err:
        raise RuntimeError(f"Invalid file, {db_path!r} is not a MindRecord index file: {err}.") from err
    finally:
        conn.close()

"""Blob fields of large MindRecord files read chunk by chunk while the pipeline runs.

``MindDataset`` keeps small files' fields in memory; above a size limit it keeps only each
sample's blob position and reads the blob records of a chunk of sampled rows at a time: one
Python call per chunk gathers the chunk's bytes from memory-mapped files and decodes every
field of the chunk with vectorised numpy (:func:`shardformat.decompress_buffer`).
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

import numpy as np

from tfspore.mindrecord.core import shardformat

__all__ = ["BlobChunkReader"]


def _gather(sources: Dict[int, np.ndarray], files: np.ndarray, offsets: np.ndarray,
            lengths: np.ndarray) -> np.ndarray:
    """The byte ranges (file, offset, length) concatenated in order, plus 8 spare bytes."""
    total = int(lengths.sum())
    out = np.zeros(total + 8, np.uint8)
    dest_start = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(lengths) else lengths
    for f in np.unique(files):
        sel = np.flatnonzero(files == f)
        lens = lengths[sel]
        n = int(lens.sum())
        if not n:
            continue
        step = np.arange(n, dtype=np.int64) - np.repeat(np.cumsum(lens) - lens, lens)
        out[np.repeat(dest_start[sel], lens) + step] = sources[int(f)][np.repeat(offsets[sel], lens) + step]
    return out


class BlobChunkReader:
    """Reads and decodes the blob fields of chunks of rows.

    Args:
        files: The shard files.
        positions: Per row (file index, payload offset, payload length).
        schema: The schema.
        blob_fields: All blob fields of the files, in stored order.
        columns: The blob fields to return, in order.
    """

    def __init__(self, files: Sequence[str], positions: np.ndarray, schema: Dict[str, dict],
                 blob_fields: Sequence[str], columns: Sequence[str]) -> None:
        self.files = list(files)
        self.positions = positions
        self.schema = schema
        self.blob_fields = list(blob_fields)
        self.columns = list(columns)
        self._maps: Dict[int, np.ndarray] = {}

    def map_files(self) -> None:
        """Memory-map every file now: a file removed afterwards (a decrypted copy) stays readable."""
        for k, path in enumerate(self.files):
            if k not in self._maps:
                self._maps[k] = np.memmap(path, np.uint8, "r")

    def out_dtypes(self) -> List[np.dtype]:
        """numpy dtypes of :meth:`read`'s outputs (values, splits per column)."""
        out = []
        for name in self.columns:
            ftype = self.schema[name]["type"]
            out += [np.dtype(np.uint8 if ftype == "bytes" else ftype), np.dtype(np.int64)]
        return out

    def _field_ranges(self, buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> List[Tuple]:
        if len(self.blob_fields) == 1:
            return [(starts, lengths)]
        ranges, cur, end = [], starts.copy(), starts + lengths
        weights = np.left_shift(np.int64(1), np.arange(56, -8, -8, dtype=np.int64))
        for name in self.blob_fields:
            if (cur + 8 > end).any():
                raise RuntimeError(f"For 'MindDataset', a blob record of {self.files} is truncated (field '{name}').")
            size = (buf[cur[:, None] + np.arange(8)].astype(np.int64) * weights).sum(axis=1)
            ranges.append((cur + 8, size))
            cur = cur + 8 + size
            if (cur > end).any():
                raise RuntimeError(f"For 'MindDataset', a blob record of {self.files} is truncated (field '{name}').")
        return ranges

    def read(self, index: np.ndarray) -> List[np.ndarray]:
        """Values and row splits of each column for rows `index`."""
        for f in np.unique(self.positions[index, 0]):
            if int(f) not in self._maps:
                self._maps[int(f)] = np.memmap(self.files[int(f)], np.uint8, "r")
        rows = self.positions[index]
        buf = _gather(self._maps, rows[:, 0], rows[:, 1], rows[:, 2])
        starts = np.concatenate([[0], np.cumsum(rows[:, 2])[:-1]]).astype(np.int64) if len(rows) else rows[:, 2]
        ranges = self._field_ranges(buf, starts, rows[:, 2])
        out: List[np.ndarray] = []
        for name in self.columns:
            field_start, field_len = ranges[self.blob_fields.index(name)]
            ftype = self.schema[name]["type"]
            if ftype in ("int32", "int64"):
                try:
                    values, splits = shardformat.decompress_buffer(buf, field_start, field_len, ftype)
                except ValueError as err:
                    raise RuntimeError(f"For 'MindDataset', field '{name}' of {self.files} is corrupt: {err}.") \
                        from err
            else:
                item = 1 if ftype == "bytes" else np.dtype(ftype).itemsize
                data = _gather({0: buf}, np.zeros(len(field_start), np.int64), field_start, field_len)[:-8]
                values = data if ftype == "bytes" else data.view("<" + np.dtype(ftype).str[1:]).astype(ftype)
                splits = np.concatenate([[0], np.cumsum(field_len // item)]).astype(np.int64)
            out += [values, splits]
        return out

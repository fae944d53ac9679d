"""Load MindRecord shard files: their header, schema and every sample's raw and blob records.

:func:`load` reads the files once, in bulk: the header and index of each shard, then each
used page region, and returns a :class:`ShardTable` whose rows are in shard order, by row id
within a shard (MindSpore's reading order). ``FileReader``, ``MindPage`` and ``MindDataset``
read through it.

Example:
    >>> from tfspore.mindrecord.core.shardreader import load
    >>> table = load("/data/train.mindrecord")  # doctest: +SKIP
    >>> table.schema, len(table)  # doctest: +SKIP
"""
from __future__ import annotations

import os
import stat
import struct
from typing import Any, Dict, List, Sequence, Tuple, Union

import numpy as np

from tfspore.mindrecord.core import shardformat as fmt
from tfspore.mindrecord.core import shardindex
from tfspore.mindrecord.core.msgpack import unpackb

__all__ = ["ShardTable", "load", "resolve_files", "read_header", "read_pages", "check_input_file"]


def resolve_files(file_name: Union[str, Sequence[str]], api: str) -> List[str]:
    """The shard files to read: for one path, every shard its header lists (in the same folder);
    for a list, exactly those files.

    Raises:
        ValueError: For ``MindDataset``, if a file does not exist or is not a regular file.
        RuntimeError: For the other readers, if a file or its index does not exist or is not a
            regular file; if a header cannot be read.
    """
    if isinstance(file_name, (list, tuple)):
        files = [os.fspath(f) for f in file_name]
        for f in files:
            check_input_file(f, api)
        return files
    path = os.fspath(file_name)
    check_input_file(path, api)
    header = read_header(path)
    folder = os.path.dirname(path)
    files = [os.path.join(folder, name) for name in header["shard_addresses"]]
    for f in files:
        if not os.path.isfile(f):
            raise RuntimeError(f"For '{api}', MindRecord file {f!r} listed in the header of {path!r} is missing; "
                               f"pass a list of files to read only some shards.")
    return files


def check_input_file(path: str, api: str) -> None:
    """MindSpore's checks of a file to read: ``MindDataset``'s (ValueError) or, for
    ``FileReader`` / ``MindPage``, the data file's and its index's (RuntimeError)."""
    if api == "MindDataset":
        if not os.path.isfile(path) or not os.access(path, os.R_OK):
            raise ValueError(f"For '{api}', the file {path} does not exist or permission denied!")
        return
    for item in (path, path + ".db"):
        check_shard_file(item)


def check_shard_file(path: str) -> None:
    """MindSpore's checks (RuntimeError) of one data or index file: it exists, is regular and not too small."""
    if not os.path.exists(path):
        raise RuntimeError(f"The input: {path} is not exists.")
    if not os.path.isfile(path):
        raise RuntimeError(f"The input: {path} should be a regular file.")
    if os.path.getsize(path) < MIN_FILE_SIZE:
        raise RuntimeError(f"Invalid file, the size of mindrecord file: {os.path.getsize(path)} is smaller than the "
                           f"lower limit: {MIN_FILE_SIZE}.\n Please check file path: {path} and use 'FileWriter' "
                           f"to generate valid mindrecord files.")


# MindSpore's smallest readable data or index file, in bytes.
MIN_FILE_SIZE = 8


def read_header(path: str) -> Dict[str, Any]:
    """The parsed header of a shard file.

    Raises:
        RuntimeError: If the file is not a regular file (a FIFO or a device would block or never
            end), not a MindRecord file, or its header is truncated.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        raise RuntimeError(f"Invalid file, MindRecord file {path!r} cannot be read: {err}.") from err
    if not stat.S_ISREG(mode):
        raise RuntimeError(f"Invalid file, MindRecord file {path!r} is not a regular file.")
    with open(path, "rb") as f:
        head = f.read(fmt.LEN)
        if len(head) < fmt.LEN:
            raise RuntimeError(f"Invalid file, {path!r} is not a MindRecord file: it has {len(head)} bytes.")
        n = struct.unpack("<Q", head)[0]
        size = os.fstat(f.fileno()).st_size
        if n > min(size - fmt.LEN, 1 << 31):
            raise RuntimeError(f"Invalid file, {path!r} is not a MindRecord file or its header is truncated: "
                               f"header length {n}, file size {size}.")
        return fmt.parse_header(head + f.read(n), path)


class ShardTable:
    """All samples of a set of shard files.

    Attributes:
        files: The shard files, in reading order.
        schema: Field name -> ``{"type": ..., "shape": [...]}``.
        blob_fields: The fields stored in blob records (bytes and arrays), sorted.
        raw: Per sample, the dict of its scalar fields.
        blobs: Per sample, one bytes object per blob field (int arrays still compressed).
        file_of_row: Per sample, the index of its file in `files`.
        blob_positions: When the blob records were not read: per sample (file index, file offset
            of the blob payload, payload length).
        header: The first file's header.
    """

    def __init__(self, files: List[str], header: Dict[str, Any], raw: List[dict], blobs: List[List[bytes]],
                 file_of_row: np.ndarray) -> None:
        self.files = files
        self.header = header
        meta = header["schema"][0]
        self.schema: Dict[str, dict] = meta["schema"]
        self.desc: str = meta.get("desc", "")
        self.blob_fields: List[str] = list(meta.get("blob_fields") or [])
        self.raw = raw
        self.blobs = blobs
        self.file_of_row = file_of_row
        self.blob_positions = np.zeros((0, 3), np.int64)

    def __len__(self) -> int:
        return len(self.raw)

    def decode_blob(self, field: str, data: bytes) -> Any:
        """A blob field's value: bytes, or a numpy array of the schema's type and shape."""
        spec = self.schema[field]
        ftype = spec["type"]
        if ftype == "bytes":
            return data
        if ftype in ("int32", "int64"):
            arr = fmt.decompress_ints(data, ftype)
        else:
            arr = np.frombuffer(data, dtype=ftype)
        return arr.reshape(spec["shape"])

    def row(self, i: int, columns: Sequence[str] = ()) -> Dict[str, Any]:
        """Sample `i` as FileReader gives it: scalar fields (integral floats as int) then blob fields."""
        out = {}
        for k, value in self.raw[i].items():
            if k in self.schema and (not columns or k in columns):
                out[k] = int(value) if isinstance(value, float) and value.is_integer() else value
        for field, data in zip(self.blob_fields, self.blobs[i]):
            if not columns or field in columns:
                try:
                    out[field] = self.decode_blob(field, data)
                except ValueError as err:
                    raise RuntimeError(f"Invalid file, MindRecord file {self.files[self.file_of_row[i]]!r} is "
                                       f"corrupt: field {field!r} of sample {i}: {err}.") from err
        return out


def read_pages(path: str, header: Dict[str, Any], kinds: Sequence[str] = ("BLOB_DATA", "RAW_DATA")) -> Dict[int, bytes]:
    """The used bytes of each page of a shard file, by page id.

    Raises:
        RuntimeError: If the file is shorter than its page table says.
    """
    pages = {}
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        for page in header["page"]:
            if page["page_type"] not in kinds:
                continue
            start = header["header_size"] + int(page["page_id"]) * header["page_size"]
            used = int(page["page_size"])
            if start + used > size:
                raise RuntimeError(f"Invalid file, MindRecord file {path!r} is truncated: page {page['page_id']} "
                                   f"ends at byte {start + used}, the file has {size} bytes.")
            f.seek(start)
            pages[int(page["page_id"])] = f.read(used)
    return pages


def _slice(pages: Dict[int, bytes], page_id: int, start: int, end: int, path: str, row_id: int) -> bytes:
    data = pages.get(page_id)
    if data is None or end > len(data) or end - start < fmt.LEN:
        raise RuntimeError(f"Invalid file, MindRecord file {path!r} is corrupt: sample {row_id} points at page "
                           f"{page_id} bytes [{start}, {end}).")
    n = struct.unpack_from("<Q", data, start)[0]
    if n != end - start - fmt.LEN:
        raise RuntimeError(f"Invalid file, MindRecord file {path!r} is corrupt: sample {row_id} record length "
                           f"{n} does not match its index ({end - start - fmt.LEN}).")
    return data[start + fmt.LEN:end]


def load(file_name: Union[str, Sequence[str]], api: str = "FileReader", decode_raw: bool = True,
         read_blobs: bool = True) -> ShardTable:
    """Read every sample of the MindRecord file(s).

    Args:
        file_name: One shard file (all its shards are read) or a list of shard files.
        api: The API name for error messages.
        decode_raw: Decode the scalar fields (False leaves ``raw`` as empty dicts, for readers
            that need only blob fields).
        read_blobs: Read the blob records (False leaves ``blobs`` empty and sets ``blob_positions``:
            per sample its file index, the file offset of its blob payload and the payload length).

    Raises:
        ValueError: If a file does not exist.
        RuntimeError: If a file or its index is missing, truncated or corrupt, or the shards have
            different schemas.
    """
    files = resolve_files(file_name, api)
    raws: List[dict] = []
    blobs: List[List[bytes]] = []
    positions: List[Tuple[int, int, int]] = []
    owners: List[Tuple[int, int]] = []
    first = None
    for k, path in enumerate(files):
        header = read_header(path)
        if first is None:
            first = header
        elif header["schema"] != first["schema"]:
            raise RuntimeError(f"For '{api}', the schema of {path!r} differs from the schema of {files[0]!r}.")
        nblob = len(header["schema"][0].get("blob_fields") or [])
        pages = read_pages(path, header, ("BLOB_DATA", "RAW_DATA") if read_blobs else ("RAW_DATA",))
        index = shardindex.read_index(path + ".db", path)
        size = os.path.getsize(path)
        for row_id, raw_page, raw_start, raw_end, _, blob_page, blob_start, blob_end in index:
            try:
                raw = _slice(pages, raw_page, raw_start, raw_end, path, row_id)
                value = unpackb(raw) if decode_raw else {}
                if value is None:  # Dataset.save's record of a sample without scalar fields
                    value = {}
                if not isinstance(value, dict):
                    raise ValueError(f"the scalar record is {type(value).__name__}, not a map")
                raws.append(value)
                if read_blobs:
                    payload = _slice(pages, blob_page, blob_start, blob_end, path, row_id)
                    blobs.append(fmt.split_blob(payload, nblob) if nblob else [])
                else:
                    offset = header["header_size"] + blob_page * header["page_size"] + blob_start + fmt.LEN
                    if blob_end - blob_start < fmt.LEN or offset - fmt.LEN + blob_end - blob_start > size:
                        raise RuntimeError(f"Invalid file, MindRecord file {path!r} is truncated or corrupt: sample "
                                           f"{row_id} points at page {blob_page} bytes [{blob_start}, {blob_end}).")
                    positions.append((k, offset, blob_end - blob_start - fmt.LEN))
            except ValueError as err:
                raise RuntimeError(f"Invalid file, MindRecord file {path!r} is corrupt at sample {row_id}: "
                                   f"{err}.") from err
        owners.append((k, len(index)))
    file_of_row = np.repeat(np.array([k for k, _ in owners], np.int64), [n for _, n in owners]) \
        if owners else np.zeros(0, np.int64)
    table = ShardTable(files, first, raws, blobs, file_of_row)
    table.blob_positions = np.array(positions, np.int64).reshape(-1, 3)
    return table

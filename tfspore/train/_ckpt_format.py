"""MindSpore's ``.ckpt`` byte format: entries to ``Checkpoint`` protobuf records and back.

A ``.ckpt`` file is a concatenation of serialized ``Checkpoint`` messages (the schema is
``tfspore/_internal/proto/checkpoint.proto``), one ``Value`` (name, dims, dtype string, raw
little-endian bytes) per entry, in save order; a tensor over 512 MiB is split into several
entries with the same name. The file may be encrypted in 64 MiB blocks (:mod:`tfspore.train._crypto`)
and may end with a CRC-32 trailer (``b"crc_num"`` and a 10-byte big-endian integer).

This module holds the format alone (the records a save writes, the parser a load runs, and the
argument checks both share), so that the save and load paths
(:mod:`tfspore.train._ckpt_save`, :mod:`tfspore.train._ckpt_load`) and the safetensors layout
(:mod:`tfspore.train._safetensors`) each read as one concept. An entry is
``(name, dims, tensor_type, payload)`` with a C-contiguous little-endian ndarray payload.
"""
from __future__ import annotations

import binascii
import logging
import os
from typing import Any, Callable, Iterator

import numpy as np
from google.protobuf.message import DecodeError

from tfspore._internal.proto.checkpoint_pb2 import Checkpoint
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.train import _crypto, _safe_read

_logger = logging.getLogger("tfspore")

#: Bytes of tensor content per ``Value`` entry; larger tensors are split into several entries.
_SLICE_BYTES = 512 * 1024 * 1024
CRC_MARK = b"crc_num"
_CRC_TRAILER_LEN = len(CRC_MARK) + 10

#: ``tensor_type`` strings the loader accepts, with their dtypes (``str`` and ``Int4`` are handled apart).
TENSOR_TYPES = {t_str: t for t_str, t in (
    ("Int8", mstype.int8), ("UInt8", mstype.uint8), ("Int16", mstype.int16), ("UInt16", mstype.uint16),
    ("Int32", mstype.int32), ("UInt32", mstype.uint32), ("Int64", mstype.int64), ("UInt64", mstype.uint64),
    ("Float16", mstype.float16), ("Float32", mstype.float32), ("Float64", mstype.float64),
    ("Bool", mstype.bool_), ("BFloat16", mstype.bfloat16))}

#: numpy dtype names a map-tensor entry may use.
_MAP_DTYPES = frozenset(("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
                         "float32", "float64", "bool"))


# ---------------------------------------------------------------------- arguments (save and load)
def file_name(api: str, name: Any) -> str:
    """Return ``name`` as a str (accepting os.PathLike), or raise TypeError."""
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str):
        raise TypeError(f"For '{api}', the argument 'ckpt_file_name' must be string, but got {name!r} of type "
                        f"{type(name).__name__}.")
    return name


def check_format(api: str, fmt: Any) -> str:
    """Return ``fmt`` when it is ``"ckpt"`` or ``"safetensors"``, or raise ValueError."""
    if fmt not in ("ckpt", "safetensors"):
        raise ValueError(f"For '{api}', the format must be 'safetensors' or 'ckpt', but got {fmt}.")
    return fmt


# --------------------------------------------------------------------------------- entries
# An entry is (name, dims, tensor_type, payload); payload is a C-contiguous little-endian ndarray.
def _np_of(data: Any) -> np.ndarray:
    arr = np.asarray(data.asnumpy() if isinstance(data, Tensor) else data, order="C")
    if arr.dtype.byteorder == ">":
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    return arr


def tensor_entry(name: str, data: Any) -> tuple:
    """Build the entry of a Tensor, Parameter or ndarray."""
    if isinstance(data, Tensor):
        type_str = str(data.dtype)
    else:
        try:
            type_str = str(mstype.from_np_dtype(data.dtype))
        except TypeError:
            raise TypeError(f"For 'save_checkpoint', the numpy value of '{name}' has dtype {data.dtype}, which has "
                            "no MindSpore equivalent.") from None
    arr = _np_of(data)
    return name, list(arr.shape), type_str, arr


def str_entry(name: str, value: str) -> tuple:
    """A str is stored with dims [0], tensor_type 'str' and its UTF-32-LE code units."""
    return name, [0], "str", np.array(value, dtype=f"<U{max(len(value), 1)}")


# -------------------------------------------------------------------------------- writing
def records(entries: list, split_rows: bool) -> Iterator[bytes]:
    """Yield one serialized ``Checkpoint`` (with one ``Value``) per entry chunk.

    Contents larger than ``_SLICE_BYTES`` are split: by bytes (``split_rows=False``, as MindSpore
    does for Tensors) or with ``np.array_split`` along axis 0 (as MindSpore does for numpy data in
    asynchronous saves). Every chunk carries the full dims.
    """
    for name, dims, type_str, arr in entries:
        nbytes = arr.nbytes
        if nbytes <= _SLICE_BYTES:
            chunks: Iterator = iter((arr,))
        elif split_rows and arr.ndim > 0:
            chunks = iter(np.array_split(arr, -(-nbytes // _SLICE_BYTES)))
        else:
            flat = arr.reshape(-1).view(np.uint8)
            chunks = (flat[i:i + _SLICE_BYTES] for i in range(0, nbytes, _SLICE_BYTES))
        for chunk in chunks:
            msg = Checkpoint()
            value = msg.value.add()
            value.tag = name
            value.tensor.dims.extend(dims)
            value.tensor.tensor_type = type_str
            value.tensor.tensor_content = chunk.tobytes()
            yield msg.SerializeToString()


# -------------------------------------------------------------------------------- reading
def _corrupted(path: str) -> ValueError:
    return ValueError(f"Failed to read the checkpoint file {path}. The file may be corrupted, and the content cannot "
                      "be parsed.")


def read_content(path: str, dec_key: bytes | None, dec_mode: str, crc_check: bool) -> tuple:
    """Read ``path``, decrypt it and strip (and with ``crc_check`` verify) the CRC trailer."""
    content = _safe_read.read_regular(path)
    if dec_key is None:
        if _crypto.is_cipher_data(content[:4]):
            raise _corrupted(path)
    else:
        if not _crypto.is_cipher_data(content[:4]):
            raise ValueError(f"Failed to read the checkpoint file {path}. The file is not encrypted, so 'dec_key' "
                             "must be None.")
        if content[-_CRC_TRAILER_LEN:-10] == CRC_MARK:  # MindSpore appends a (zero) crc after the ciphertext
            content = content[:-_CRC_TRAILER_LEN]
        try:
            content = _crypto.decrypt(content, dec_key, dec_mode)
        except _crypto.CipherError as e:
            raise ValueError(f"Failed to read the checkpoint file {path}. The file may be encrypted or tempered with, "
                             "please pass in the correct 'dec_key' or check the file integrity.") from e
    has_crc = content[-_CRC_TRAILER_LEN:-10] == CRC_MARK
    if crc_check and not has_crc:
        if dec_key is None:
            # MindSpore only warns; a CRC file cut at a record boundary would then load with entries missing
            raise ValueError(f"For 'load_checkpoint', the 'crc_check' is True, but the ckpt file {path} does not end "
                             f"with a CRC trailer: it is truncated or was saved without crc_check (load it with "
                             f"crc_check=False then).")
        _logger.warning("For 'load_checkpoint', the ckpt file do not contain the crc code, please check the file.")
    full = None
    if has_crc:
        stored = int.from_bytes(content[-10:], byteorder="big")
        full, content = content, content[:-_CRC_TRAILER_LEN]
        if crc_check and binascii.crc32(content) != stored:
            raise ValueError(f"For 'load_checkpoint', the crc check is failed, please check whether the ckpt file "
                             f"{path} is damaged.")
    # unverified, the trailer may be data of a file without CRC that happens to end with b"crc_num"
    return content, (full if not crc_check and dec_key is None else None)


def _decode_str(name: str, content: bytes) -> str:
    if len(content) % 4:
        raise ValueError(f"the str entry '{name}' has {len(content)} bytes, not a multiple of 4")
    if not content:
        return ""
    return str(np.frombuffer(content, f"<U{len(content) // 4}")[0])


def _decode_tensor(name: str, dims: list, type_str: str, content: bytes) -> Parameter:
    ms_type = TENSOR_TYPES[type_str]
    shape = () if dims == [0] else tuple(dims)
    arr = np.frombuffer(content, dtype=ms_type.np_dtype)
    if arr.size != int(np.prod(shape, dtype=np.int64)):
        raise ValueError(f"the entry '{name}' has {len(content)} bytes of {type_str}, which do not fill its shape "
                         f"{shape}")
    return Parameter(arr.reshape(shape), name=name)


def _decode_map(values: list) -> list:
    """A MapParameter entry: [keys, values, status] numpy arrays, concatenated over chunks."""
    parts: list = [[] for _ in values[0].maptensor.tensor]
    dims: list = [list(t.dims) for t in values[-1].maptensor.tensor]
    if len(parts) != 3 or any(len(v.maptensor.tensor) != 3 for v in values):
        raise ValueError("a map-tensor entry must hold 3 tensors (keys, values, status)")
    for v in values:
        for i, t in enumerate(v.maptensor.tensor):
            if t.tensor_type not in _MAP_DTYPES:
                raise ValueError(f"a map-tensor entry has an unsupported tensor_type {t.tensor_type!r}")
            parts[i].append(np.frombuffer(t.tensor_content, np.dtype(t.tensor_type)))
    out = []
    for i, chunks in enumerate(parts):
        arr = np.concatenate(chunks) if len(chunks) > 1 else chunks[0]
        shape = [-1] + dims[i][1:] if dims[i] else [-1]
        out.append(arr.reshape(shape))
    return out


def wanted(name: str, specify_prefix: tuple | None, filter_prefix: tuple | None,
           choice_func: Callable | None) -> bool:
    """Whether the entry ``name`` is kept: by the prefixes when either is given, else by ``choice_func``."""
    if specify_prefix is not None or filter_prefix is not None:
        if specify_prefix and not name.startswith(specify_prefix):
            return False
        return not (filter_prefix and name.startswith(filter_prefix))
    return choice_func is None or bool(choice_func(name))


def parse(path: str, content: bytes, specify_prefix: tuple | None, filter_prefix: tuple | None,
          choice_func: Callable | None) -> dict:
    """Parse the (decrypted, CRC-stripped) records of ``path`` into ``{name: Parameter | str | list}``."""
    ckpt = Checkpoint()
    try:
        ckpt.ParseFromString(content)
    except UnicodeDecodeError as e:  # protobuf's pure-Python runtime decodes string fields while parsing
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {path} has a string field that is not "
                         f"valid UTF-8: {e}.") from e
    except (DecodeError, RecursionError, SystemError, TypeError) as e:
        raise _corrupted(path) from e
    values = ckpt.value
    if content and not len(values):
        raise _corrupted(path)
    try:
        out: dict = {}
        group: list = []
        for i, value in enumerate(values):
            if not isinstance(value.tag, str):  # a name that is not valid UTF-8
                raise ValueError(f"For 'load_checkpoint', the checkpoint file {path} has an entry name that is not "
                                 f"valid UTF-8: {value.tag!r}.")
            if not wanted(value.tag, specify_prefix, filter_prefix, choice_func):
                continue
            group.append(value)
            if i + 1 < len(values) and values[i + 1].tag == value.tag:
                continue
            name = value.tag
            try:
                if value.HasField("maptensor"):
                    out[name] = _decode_map(group)
                elif not value.HasField("tensor") or not value.tensor.HasField("tensor_type"):
                    raise ValueError(f"the entry '{name}' has no tensor")
                else:
                    type_str = value.tensor.tensor_type
                    content_ = b"".join(v.tensor.tensor_content for v in group)
                    if type_str == "str":
                        out[name] = _decode_str(name, content_)
                    elif type_str in TENSOR_TYPES:
                        out[name] = _decode_tensor(name, list(value.tensor.dims), type_str, content_)
                    elif type_str == "Int4":
                        raise ValueError(f"the entry '{name}' has tensor_type 'Int4' (qint4x2), which tfspore does not "
                                         "support")
                    else:
                        raise ValueError(f"the entry '{name}' has an unknown tensor_type {type_str!r}")
            except (ValueError, TypeError, IndexError, KeyError, OverflowError, SystemError, UnicodeError,
                    MemoryError) as e:
                raise ValueError(f"{e}\nFor 'load_checkpoint', failed to load the checkpoint file {path}.") from e
            group = []
    except UnicodeDecodeError as e:  # protobuf's upb runtime decodes string fields when they are read
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {path} has a string field that is not "
                         f"valid UTF-8: {e}.") from e
    return out

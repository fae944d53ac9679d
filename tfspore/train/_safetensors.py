"""The safetensors layout of ``save_checkpoint`` / ``load_checkpoint(format="safetensors")``.

MindSpore 2.10 writes an 8-byte little-endian header length, a JSON header (``__metadata__``
with ``"format": "ms"``, and per tensor its dtype code, shape and ``data_offsets``) padded with
spaces to a multiple of 8 bytes, then the raw little-endian tensor data, ordered by dtype (widest
first) and name. Its optional CRC (``crc_num`` in the metadata) runs over the names in sorted
order, each name's UTF-8 bytes, then its data.

The layout lives apart from the ``.ckpt`` protobuf format (:mod:`tfspore.train._ckpt_format`):
the two share only the entries they are given and the dtype names.
"""
from __future__ import annotations

import binascii
import json
import logging
from typing import Any, Callable, Iterator

import numpy as np

from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.train import _ckpt_format, _safe_read

_logger = logging.getLogger("tfspore")

#: safetensors dtype codes of MindSpore's tensor_type strings, and the numpy dtypes they read as.
_ST_CODES = {"Bool": "BOOL", "UInt8": "U8", "Int8": "I8", "Int16": "I16", "UInt16": "U16", "Float16": "F16",
             "BFloat16": "BF16", "Int32": "I32", "UInt32": "U32", "Float32": "F32", "Float64": "F64",
             "Int64": "I64", "UInt64": "U64"}
_ST_TYPES = {code: _ckpt_format.TENSOR_TYPES[t_str] for t_str, code in _ST_CODES.items()}
#: The order of the safetensors dtype codes; data is laid out widest code first, then by name.
_ST_RANK = {code: i for i, code in enumerate(
    ("BOOL", "U8", "I8", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "F64", "I64", "U64"))}
_ST_MAX_HEADER = 100_000_000


def check_safetensors_defaults(api: str, **values: Any) -> None:
    """MindSpore's refusal of encryption (and incremental/step arguments) with ``format='safetensors'``."""
    defaults = {"enc_key": None, "enc_mode": "AES-GCM", "map_param_inc": False, "global_step_num": None,
                "dec_key": None, "dec_mode": "AES-GCM"}
    for name, value in values.items():
        if value != defaults[name]:
            raise ValueError(f"For '{api}', when format is 'safetensors', the parameter '{name}' must be set to "
                             f"default value '{defaults[name]}', but got '{value}'.")


def _crc_update(arr: np.ndarray, crc: int) -> int:
    """Update ``crc`` with the bytes MindSpore's safetensors CRC covers for ``arr``: ``bytes(arr)``.

    That is the data, except for a 0-d integer array, which ``bytes`` reads as a length
    (``bytes(np.array(3))`` is three zero bytes). Files only interoperate with MindSpore's CRC
    check when both sides count the same bytes, so the rule is kept, but the zero bytes are
    never allocated (their CRC takes O(log n) time).

    Raises:
        ValueError: for a negative 0-d integer (``bytes`` refuses it).
    """
    if arr.ndim == 0 and arr.dtype.kind in "iu":
        count = int(arr)
        if count < 0:
            raise ValueError(f"the 0-d entry holds {count}, which MindSpore's CRC cannot count")
        return _safe_read.crc32_zeros(crc, count)
    return binascii.crc32(np.ascontiguousarray(arr).reshape(-1).view(np.uint8).data if arr.size else b"", crc)


def safetensors_bytes(entries: list, crc_check: bool, remove_redundancy: bool | None) -> Iterator[bytes]:
    """Yield the safetensors file of ``entries`` (header first, then each tensor's bytes).

    Entries with the same name keep the last value at the first position, as MindSpore's
    ordered dict does. The CRC (``crc_num`` in the metadata) runs over the names in sorted
    order: each name's UTF-8 bytes, then its data.
    """
    tensors: dict = {}
    for name, _, type_str, arr in entries:
        if type_str == "str":
            raise TypeError(f"For 'save_checkpoint', format='safetensors' can't store the str value of {name!r} "
                            f"(got {str(arr)!r}); safetensors files hold numeric tensors only.")
        if type_str not in _ST_CODES:
            raise TypeError(f"For 'save_checkpoint', format='safetensors' can't store '{name}' of dtype {type_str}.")
        tensors[name] = (_ST_CODES[type_str], arr)
    metadata: dict = {}
    if tensors:
        metadata["format"] = "ms"
        if isinstance(remove_redundancy, bool):
            metadata["remove_redundancy"] = str(remove_redundancy)
        if crc_check:
            crc = 0
            for name in sorted(tensors):
                crc = binascii.crc32(name.encode("utf-8"), crc)
                crc = _crc_update(tensors[name][1], crc)
            metadata["crc_num"] = str(crc)
    order = sorted(tensors, key=lambda n: (-_ST_RANK[tensors[n][0]], n))
    header: dict = {"__metadata__": metadata} if metadata else {}
    offset = 0
    for name in order:
        code, arr = tensors[name]
        header[name] = {"dtype": code, "shape": list(arr.shape), "data_offsets": [offset, offset + arr.nbytes]}
        offset += arr.nbytes
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    yield len(text).to_bytes(8, "little") + text
    for name in order:
        yield tensors[name][1].tobytes()


class _SafetensorsError(ValueError):
    """A safetensors file whose layout is invalid."""


def _read_safetensors(data: bytes) -> tuple:
    """Parse a safetensors file: ``(metadata or None, {name: ndarray})`` in header order."""
    if len(data) < 8:
        raise _SafetensorsError("the file is shorter than its 8-byte header length")
    n = int.from_bytes(data[:8], "little")
    if n > _ST_MAX_HEADER:
        raise _SafetensorsError(f"the header length {n} is too large")
    if 8 + n > len(data):
        raise _SafetensorsError(f"the header length {n} runs past the end of the file ({len(data)} bytes)")
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except RecursionError:
        raise _SafetensorsError("the header is nested too deeply") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _SafetensorsError(f"the header is not valid JSON ({e})") from None
    if not isinstance(header, dict):
        raise _SafetensorsError("the header is not a JSON object")
    metadata = header.pop("__metadata__", None)
    if metadata is not None and not (isinstance(metadata, dict) and
                                     all(isinstance(v, str) for v in metadata.values())):
        raise _SafetensorsError("'__metadata__' is not a map of strings")
    infos = []
    for name, info in header.items():
        try:
            code, shape, (start, end) = info["dtype"], info["shape"], info["data_offsets"]
        except (TypeError, KeyError, ValueError):
            raise _SafetensorsError(f"the entry of '{name}' lacks dtype, shape or data_offsets") from None
        if not isinstance(code, str) or code not in _ST_TYPES:
            raise _SafetensorsError(f"the entry of '{name}' has an unsupported dtype {code!r}")
        if not (isinstance(shape, list) and all(isinstance(d, int) and d >= 0 for d in shape)):
            raise _SafetensorsError(f"the entry of '{name}' has an invalid shape {shape!r}")
        if not all(isinstance(o, int) and not isinstance(o, bool) for o in (start, end)):
            raise _SafetensorsError(f"the entry of '{name}' has invalid data_offsets {info['data_offsets']!r}")
        infos.append((start, end, name, code, tuple(shape)))
    base, position, spans = 8 + n, 0, []
    for start, end, name, code, shape in sorted(infos, key=lambda i: (i[0], i[1])):
        np_dtype = np.dtype(_ST_TYPES[code].np_dtype)
        if start != position or end < start:
            raise _SafetensorsError(f"the data_offsets [{start}, {end}] of '{name}' are not contiguous")
        if end - start != int(np.prod(shape, dtype=np.int64)) * np_dtype.itemsize:
            raise _SafetensorsError(f"the data_offsets [{start}, {end}] of '{name}' do not fit its shape {shape} "
                                    f"and dtype {code}")
        spans.append((name, np_dtype, base + start, (end - start) // np_dtype.itemsize, shape))
        position = end
    if base + position != len(data):
        raise _SafetensorsError(f"the tensors end at byte {base + position} but the file has {len(data)} bytes")
    arrays = {name: (np.frombuffer(data, np_dtype, count=count, offset=offset) if count
                     else np.empty(0, np_dtype)).reshape(shape)
              for name, np_dtype, offset, count, shape in spans}
    return metadata, {name: arrays[name] for _, _, name, _, _ in infos}


def load_safetensors(path: str, content: bytes, specify_prefix: tuple | None, filter_prefix: tuple | None,
                     choice_func: Callable | None, crc_check: bool, remove_redundancy: bool) -> tuple:
    """Parse a safetensors file as MindSpore does: ``(parameter_dict, remove_redundancy)``.

    The entries come in sorted name order, as unnamed Parameters (MindSpore names them
    ``Parameter#N``). The CRC covers every entry, filtered or not. A ``remove_redundancy`` flag in
    the metadata that disagrees with the argument wins, with a warning.
    """
    try:
        metadata, arrays = _read_safetensors(content)
    except _SafetensorsError as e:
        raise ValueError(f"Fail to parse the input safetensors: '{path}'. Please check the correctness of the file. "
                         f"For 'load_checkpoint', the 'ckpt_file_name' is not a valid safetensors file: {e}.") from e
    metadata = metadata or {}
    crc = 0
    parameter_dict: dict = {}
    for name in sorted(arrays):
        arr = arrays[name]
        if crc_check:
            crc = binascii.crc32(name.encode("utf-8"), crc)
            try:
                crc = _crc_update(arr, crc)
            except ValueError:
                raise ValueError(f"For 'load_checkpoint', the crc check is failed, please check whether the "
                                 f"safetensors file {path} is damaged.") from None
        if not _ckpt_format.wanted(name, specify_prefix, filter_prefix, choice_func):
            continue
        if name in metadata:
            raise ValueError(f"For 'load_checkpoint', the safetensors entry '{name}' has dtype {metadata[name]!r} in "
                             f"the metadata of '{path}' (qint4x2), which tfspore does not support.")
        parameter_dict[name] = Parameter(Tensor(np.array(arr)))
    flag = metadata.get("remove_redundancy")
    if flag == "True" and not remove_redundancy:
        _logger.warning("For 'load_checkpoint', the safetensors file is deduplicated, but remove_redundancy is set "
                        "to False.")
        remove_redundancy = True
    elif flag == "False" and remove_redundancy:
        _logger.warning("For 'load_checkpoint', the safetensors file is non-deduplicated, but remove_redundancy is "
                        "set to True.")
        remove_redundancy = False
    if crc_check:
        if "crc_num" not in metadata:
            _logger.warning("For 'load_checkpoint', the safetensors file do not contain the crc code, please check "
                            "the file.")
        elif str(crc) != metadata["crc_num"]:
            raise ValueError("For 'load_checkpoint', the crc check has failed. Please check whether the ckpt file is "
                             "damaged.")
    return parameter_dict, remove_redundancy


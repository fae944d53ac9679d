"""Save and load MindSpore ``.ckpt`` and ``.safetensors`` checkpoints.

The ``.ckpt`` files are byte-compatible with MindSpore 2.x both ways: a concatenation of
serialized ``Checkpoint`` protobuf messages, one ``Value`` (name, dims, dtype string, raw
little-endian bytes) per entry, in save order; optionally encrypted in 64 MiB AES-GCM / AES-CBC /
SM4-CBC blocks, and optionally followed by a CRC-32 trailer (``b"crc_num"`` and a 10-byte
big-endian integer).

``format="safetensors"`` writes and reads the safetensors layout as MindSpore 2.10 does: an
8-byte little-endian header length, a JSON header (``__metadata__`` with ``"format": "ms"``, and
per tensor its dtype code, shape and ``data_offsets``) padded with spaces to a multiple of 8
bytes, then the raw little-endian tensor data, ordered by dtype (widest first) and name.

Example:
    >>> import numpy as np
    >>> import tfspore as ms
    >>> class Net(ms.nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.weight = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="weight")
    >>> ms.save_checkpoint(Net(), "/tmp/net.ckpt", append_dict={"epoch_num": 3})
    >>> sorted(ms.load_checkpoint("/tmp/net.ckpt"))
    ['epoch_num', 'weight']
"""
from __future__ import annotations

import binascii
import io
import json
import logging
import os
import threading
from typing import Any, Callable, Iterator

import numpy as np
from google.protobuf.message import DecodeError

from tfspore._internal import validator
from tfspore._internal.proto.checkpoint_pb2 import Checkpoint
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.train import _atomic, _crypto, _safe_read

from tfspore.train._export import export, load
from tfspore import context  # noqa: F401,E402  (scripts import it from this path)

__all__ = ["save_checkpoint", "load_checkpoint", "load_checkpoint_async", "load_param_into_net",
           "async_ckpt_thread_status", "export", "load"]

_logger = logging.getLogger("tfspore")

#: Bytes of tensor content per ``Value`` entry; larger tensors are split into several entries.
_SLICE_BYTES = 512 * 1024 * 1024
_CRC_MARK = b"crc_num"
_CRC_TRAILER_LEN = len(_CRC_MARK) + 10

#: ``tensor_type`` strings the loader accepts, with their dtypes (``str`` and ``Int4`` are handled apart).
_TENSOR_TYPES = {t_str: t for t_str, t in (
    ("Int8", mstype.int8), ("UInt8", mstype.uint8), ("Int16", mstype.int16), ("UInt16", mstype.uint16),
    ("Int32", mstype.int32), ("UInt32", mstype.uint32), ("Int64", mstype.int64), ("UInt64", mstype.uint64),
    ("Float16", mstype.float16), ("Float32", mstype.float32), ("Float64", mstype.float64),
    ("Bool", mstype.bool_), ("BFloat16", mstype.bfloat16))}
_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)

#: numpy dtype names a map-tensor entry may use.
_MAP_DTYPES = frozenset(("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
                         "float32", "float64", "bool"))

_save_lock = threading.Lock()
_async_lock = threading.Lock()
_async_thread: threading.Thread | None = None


# ------------------------------------------------------------------------------------ checks
def _file_name(api: str, name: Any) -> str:
    """Return ``name`` as a str (accepting os.PathLike), or raise TypeError."""
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str):
        raise TypeError(f"For '{api}', the argument 'ckpt_file_name' must be string, but got {name!r} of type "
                        f"{type(name).__name__}.")
    return name


def _check_prefix(prefix: Any) -> tuple | None:
    """Normalise ``specify_prefix``/``filter_prefix`` to a tuple of non-empty strs (or None)."""
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                        f"list[string] or tuple[string], but got {type(prefix)}.")
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty when"
                         " 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, "
                            f"the element in it must be string, but got {type(pre)} at index {index}.")
        if pre == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' "
                             "can't include ''.")
    return tuple(prefix)


def _check_format(api: str, fmt: Any) -> str:
    if fmt not in ("ckpt", "safetensors"):
        raise ValueError(f"For '{api}', the format must be 'safetensors' or 'ckpt', but got {fmt}.")
    return fmt


def _check_safetensors_defaults(api: str, **values: Any) -> None:
    """MindSpore's refusal of encryption (and incremental/step arguments) with ``format='safetensors'``."""
    defaults = {"enc_key": None, "enc_mode": "AES-GCM", "map_param_inc": False, "global_step_num": None,
                "dec_key": None, "dec_mode": "AES-GCM"}
    for name, value in values.items():
        if value != defaults[name]:
            raise ValueError(f"For '{api}', when format is 'safetensors', the parameter '{name}' must be set to "
                             f"default value '{defaults[name]}', but got '{value}'.")


def _is_generator(value: Any) -> bool:
    """Whether ``value`` is a random Generator (saved through its ``get_state()``)."""
    return type(value).__name__ == "Generator" and callable(getattr(value, "get_state", None))


# --------------------------------------------------------------------------- save: entries
# An entry is (name, dims, tensor_type, payload); payload is a C-contiguous little-endian ndarray.
def _np_of(data: Any) -> np.ndarray:
    arr = np.asarray(data.asnumpy() if isinstance(data, Tensor) else data, order="C")
    if arr.dtype.byteorder == ">":
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    return arr


def _tensor_entry(name: str, data: Any) -> tuple:
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


def _str_entry(name: str, value: str) -> tuple:
    """A str is stored with dims [0], tensor_type 'str' and its UTF-32-LE code units."""
    return name, [0], "str", np.array(value, dtype=f"<U{max(len(value), 1)}")


def _entries_from_list(save_obj: list, choice_func: Callable | None) -> list:
    out = []
    if not save_obj:
        return out
    if isinstance(save_obj[0], dict):
        for item in save_obj:
            if not (isinstance(item, dict) and "name" in item and "data" in item):
                raise TypeError("For save_checkpoint, save_obj should be a list of dict items, and the dict should "
                                f"have key values 'name' and 'data', but got {type(item)} and {item}.")
            if not isinstance(item["name"], str):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the name in dict should "
                                f"be string, but got {type(item['name'])}.")
            if not isinstance(item["data"], Tensor):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the data in dict should "
                                f"be parameter, but got {type(item['data'])}.")
            if choice_func is None or choice_func(item["name"]):
                out.append(_tensor_entry(item["name"], item["data"]))
        return out
    for param in save_obj:
        if not isinstance(param, Parameter):
            raise TypeError("For save_checkpoint, when save_obj is made up by list of Parameter, the param should be "
                            f"parameter, but got {type(param)}")
        if choice_func is None or choice_func(param.name):
            out.append(_tensor_entry(param.name, param))
    return out


def _entries_from_dict(save_obj: dict, choice_func: Callable | None) -> list:
    out = []
    for key, value in save_obj.items():
        if not isinstance(key, str) or not isinstance(value, (Tensor, str, np.ndarray)):
            raise TypeError("For save_checkpoint, when save_obj is made up by dict, the key should be str and value "
                            f"should be Parameter, Tensor, str or numpy.ndarray, but got the type of key is "
                            f"{type(key)} and the type of value is {type(value)}")
        if choice_func is not None and not choice_func(key):
            continue
        out.append(_str_entry(key, value) if isinstance(value, str) else _tensor_entry(key, value))
    return out


def _entries_from_cell(save_obj: Cell, choice_func: Callable | None) -> list:
    out = []
    for _, param in save_obj.parameters_and_names():
        if choice_func is None or choice_func(param.name):
            out.append(_tensor_entry(param.name, param))
    return out


def _check_append_dict(append_dict: Any) -> dict | None:
    if append_dict is None:
        return None
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got {type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not (isinstance(value, (int, float, bool, str, Tensor)) or _is_generator(value)):
            raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: int, "
                            f"float, bool or Generator, but got key: {type(key)}, value: {type(value)}")
    return append_dict


def _append_entries(append_dict: dict) -> list:
    """Entries for ``append_dict``: int -> Int64, float -> Float32, bool -> Bool scalars; str as str."""
    out = []
    for key, value in append_dict.items():
        if _is_generator(value):
            value = value.get_state()
        if isinstance(value, str):
            out.append(_str_entry(key, value))
        elif isinstance(value, Tensor):
            out.append(_tensor_entry(key, value))
        else:
            out.append(_tensor_entry(key, Tensor(value)))
    return out


# ---------------------------------------------------------------------------- save: writing
def _records(entries: list, split_rows: bool) -> Iterator[bytes]:
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


# ------------------------------------------------------------------------- safetensors
#: safetensors dtype codes of MindSpore's tensor_type strings, and the numpy dtypes they read as.
_ST_CODES = {"Bool": "BOOL", "UInt8": "U8", "Int8": "I8", "Int16": "I16", "UInt16": "U16", "Float16": "F16",
             "BFloat16": "BF16", "Int32": "I32", "UInt32": "U32", "Float32": "F32", "Float64": "F64",
             "Int64": "I64", "UInt64": "U64"}
_ST_TYPES = {code: _TENSOR_TYPES[t_str] for t_str, code in _ST_CODES.items()}
#: The order of the safetensors dtype codes; data is laid out widest code first, then by name.
_ST_RANK = {code: i for i, code in enumerate(
    ("BOOL", "U8", "I8", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "F64", "I64", "U64"))}
_ST_MAX_HEADER = 100_000_000


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


def _safetensors_bytes(entries: list, crc_check: bool, remove_redundancy: bool | None) -> Iterator[bytes]:
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


def _write_file(path: str, entries: list, enc_key: bytes | None, enc_mode: str, crc_check: bool,
                split_rows: bool, fmt: str = "ckpt", remove_redundancy: bool | None = None) -> None:
    """Write ``entries`` to ``path`` atomically (see :mod:`tfspore.train._atomic`).

    The data goes to a unique temporary file in the same directory (created with ``O_EXCL`` and
    ``O_NOFOLLOW``), which is fsynced, made read-only for its owner (0o400, as MindSpore does),
    renamed over ``path``, and the directory is fsynced. A failure leaves the previous file (if
    any) untouched and no temporary behind. ``fmt`` is ``"ckpt"`` or ``"safetensors"``.
    """
    with _save_lock:
        try:
            with _atomic.atomic_write(path) as f:
                if fmt == "safetensors":
                    for chunk in _safetensors_bytes(entries, crc_check, remove_redundancy):
                        f.write(chunk)
                elif enc_key is None:
                    crc = 0
                    for rec in _records(entries, split_rows):
                        if crc_check:
                            crc = binascii.crc32(rec, crc)
                        f.write(rec)
                    if crc_check:
                        f.write(_CRC_MARK + crc.to_bytes(10, byteorder="big"))
                else:
                    block = _crypto.BLOCK_SIZE
                    buf = bytearray()
                    for rec in _records(entries, split_rows):
                        buf += rec
                        while len(buf) >= block:
                            f.write(_crypto.encrypt_block(bytes(buf[:block]), enc_key, enc_mode))
                            del buf[:block]
                    if buf:
                        f.write(_crypto.encrypt_block(bytes(buf), enc_key, enc_mode))
        except BaseException:
            _logger.critical("Failed to save the checkpoint file %s. Maybe don't have the permission to write files, "
                             "or the disk space is insufficient and so on.", path)
            raise


def _async_worker(*args: Any) -> None:
    try:
        _write_file(*args)
    except BaseException:  # noqa: BLE001 (the caller is gone: report in the log)
        _logger.exception("For 'save_checkpoint', the asynchronous save of %s failed.", args[0])


def _wait_async_thread_save_ckpt() -> None:
    """Block until the previous asynchronous save (if any) has finished."""
    global _async_thread
    with _async_lock:
        thr, _async_thread = _async_thread, None
    if thr is not None:
        thr.join()


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous checkpoint save is still running.

    Returns:
        bool: True while the background save thread is alive.

    Example:
        >>> async_ckpt_thread_status()
        False
    """
    thr = _async_thread
    return thr is not None and thr.is_alive()


def save_checkpoint(save_obj: Any, ckpt_file_name: str, integrated_save: bool = True, async_save: bool | str = False,
                    append_dict: dict | None = None, enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False, format: str = "ckpt",
                    **kwargs: Any) -> None:
    """Save parameters to a MindSpore ``.ckpt`` or ``.safetensors`` file.

    Args:
        save_obj: a Cell (its parameters keyed by ``Parameter.name``, in ``parameters_and_names``
            order), a list of Parameters, a list of ``{"name": str, "data": Tensor}`` dicts, or a
            dict ``{name: Parameter | Tensor | numpy.ndarray | str}`` (the key is the name).
        ckpt_file_name: the file path; ``".ckpt"`` (``".safetensors"``) is appended when it does
            not end with ``ckpt`` (``safetensors``). An existing file is replaced.
        integrated_save: whether sliced parameters are merged (stand-alone training has none).
        async_save: False, True / ``"thread"`` / ``"process"``: save in a background thread. The
            values are copied first; the next save waits for the previous one.
        append_dict: extra entries ``{str: int | float | bool | str | Tensor}``: ints are stored
            as Int64 scalars, floats as Float32 scalars, bools as Bool, strs as ``str``.
        enc_key: None, or a 16/24/32-byte key to encrypt the file with.
        enc_mode: ``"AES-GCM"``, ``"AES-CBC"`` or ``"SM4-CBC"`` (16-byte key).
        choice_func: ``f(name) -> bool``; only parameters for which it returns True are saved
            (``append_dict`` is not filtered).
        crc_check: append a CRC-32 trailer (safetensors: store it as ``crc_num`` in the metadata).
        format: ``"ckpt"`` or ``"safetensors"``. Safetensors files take no encryption and no str
            values; their tensors are laid out by dtype and name, as MindSpore does.
        **kwargs: ``incremental``, ``global_step_num`` and ``remove_redundancy`` (None or bool),
            accepted for compatibility (``remove_redundancy`` is recorded in a safetensors
            file's metadata).

    Raises:
        TypeError: for a ``save_obj``, ``ckpt_file_name``, ``append_dict`` or flag of the wrong type.
        ValueError: for a bad ``format``, ``async_save`` string, ``enc_key`` or ``enc_mode``,
            ``crc_check`` combined with ``enc_key``, or encryption, ``incremental`` or
            ``global_step_num`` with ``format="safetensors"``.
        TypeError: for a str value with ``format="safetensors"``.
        IsADirectoryError: when ``ckpt_file_name`` is a directory.

    Example:
        >>> save_checkpoint({"w": Parameter(Tensor(np.ones(2, np.float32)), name="w")}, "/tmp/w.ckpt")
    """
    api = "save_checkpoint"
    _check_format(api, format)
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got "
                        f"{type(save_obj)}.")
    path = os.path.realpath(_file_name(api, ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {path} is a directory, it "
                                "must be a file name.")
    if not path.endswith(format):
        path += f".{format}"
    validator.check_type(integrated_save, bool, "integrated_save", api)
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got "
                        f"{type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(f"For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread', but "
                         f"got {async_save!r}.")
    append_dict = _check_append_dict(append_dict)
    validator.check_isinstance(enc_key, (type(None), bytes), "enc_key", api)
    validator.check_isinstance(enc_mode, str, "enc_mode", api)
    validator.check_isinstance(crc_check, bool, "crc_check", api)
    validator.check_isinstance(kwargs.get("remove_redundancy"), (type(None), bool), "remove_redundancy", api)
    if format == "safetensors":
        _check_safetensors_defaults(api, enc_key=enc_key, enc_mode=enc_mode,
                                    map_param_inc=kwargs.get("incremental", False),
                                    global_step_num=kwargs.get("global_step_num"))
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'save_checkpoint', the 'choice_func' must be callable or None, but got {choice_func!r}.")
    if enc_key is not None:
        _crypto.check_key_and_mode(enc_key, enc_mode, api, "enc_key", "enc_mode")
        if crc_check:
            raise ValueError("For 'save_checkpoint', 'crc_check=True' can't be combined with 'enc_key': MindSpore "
                             "can't load such a file. Use one of them.")

    if isinstance(save_obj, Cell):
        entries = _entries_from_cell(save_obj, choice_func)
    elif isinstance(save_obj, list):
        entries = _entries_from_list(save_obj, choice_func)
    else:
        entries = _entries_from_dict(save_obj, choice_func)
    if append_dict:
        entries.extend(_append_entries(append_dict))
    if format == "safetensors":
        for name, _, type_str, arr in entries:
            if type_str == "str":
                raise TypeError(f"For 'save_checkpoint', format='safetensors' can't store the str value of {name!r} "
                                f"(got {str(arr)!r}); safetensors files hold numeric tensors only.")
    extra = (format, kwargs.get("remove_redundancy"))

    if async_save:
        global _async_thread
        entries = [(n, d, t, np.array(a, copy=True)) for n, d, t, a in entries]
        _wait_async_thread_save_ckpt()
        thr = threading.Thread(target=_async_worker, args=(path, entries, enc_key, enc_mode, crc_check, True, *extra),
                               name="asyn_save_ckpt")
        with _async_lock:
            _async_thread = thr
        thr.start()
    else:
        _write_file(path, entries, enc_key, enc_mode, crc_check, False, *extra)


# ---------------------------------------------------------------------------------- load
def _corrupted(path: str) -> ValueError:
    return ValueError(f"Failed to read the checkpoint file {path}. The file may be corrupted, and the content cannot "
                      "be parsed.")


def _read_content(path: str, dec_key: bytes | None, dec_mode: str, crc_check: bool) -> tuple:
    """Read ``path``, decrypt it and strip (and with ``crc_check`` verify) the CRC trailer."""
    content = _safe_read.read_regular(path)
    if dec_key is None:
        if _crypto.is_cipher_data(content[:4]):
            raise _corrupted(path)
    else:
        if not _crypto.is_cipher_data(content[:4]):
            raise ValueError(f"Failed to read the checkpoint file {path}. The file is not encrypted, so 'dec_key' "
                             "must be None.")
        if content[-_CRC_TRAILER_LEN:-10] == _CRC_MARK:  # MindSpore appends a (zero) crc after the ciphertext
            content = content[:-_CRC_TRAILER_LEN]
        try:
            content = _crypto.decrypt(content, dec_key, dec_mode)
        except _crypto.CipherError as e:
            raise ValueError(f"Failed to read the checkpoint file {path}. The file may be encrypted or tempered with, "
                             "please pass in the correct 'dec_key' or check the file integrity.") from e
    has_crc = content[-_CRC_TRAILER_LEN:-10] == _CRC_MARK
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
    ms_type = _TENSOR_TYPES[type_str]
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


def _wanted(name: str, specify_prefix: tuple | None, filter_prefix: tuple | None,
            choice_func: Callable | None) -> bool:
    if specify_prefix is not None or filter_prefix is not None:
        if specify_prefix and not name.startswith(specify_prefix):
            return False
        return not (filter_prefix and name.startswith(filter_prefix))
    return choice_func is None or bool(choice_func(name))


def _parse(path: str, content: bytes, specify_prefix: tuple | None, filter_prefix: tuple | None,
           choice_func: Callable | None) -> dict:
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
            if not _wanted(value.tag, specify_prefix, filter_prefix, choice_func):
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
                    elif type_str in _TENSOR_TYPES:
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


def load_checkpoint(ckpt_file_name: str, net: Cell | None = None, strict_load: bool = False,
                    filter_prefix: str | list | tuple | None = None, dec_key: bytes | None = None,
                    dec_mode: str = "AES-GCM", specify_prefix: str | list | tuple | None = None,
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    remove_redundancy: bool = False, format: str = "ckpt") -> dict:
    """Load a MindSpore ``.ckpt`` or ``.safetensors`` file.

    Args:
        ckpt_file_name: the file path; it must end with ``format`` (``ckpt`` or
            ``safetensors``). With ``format="safetensors"`` an ``io.BytesIO`` of the file works too.
        net: when given, the parameters are also loaded into it (:func:`load_param_into_net`).
        strict_load: passed to :func:`load_param_into_net`.
        filter_prefix: a str, list or tuple: entries whose names start with one of them are dropped.
        dec_key: the key of an encrypted file (bytes), or None.
        dec_mode: ``"AES-GCM"``, ``"AES-CBC"`` or ``"SM4-CBC"``.
        specify_prefix: a str, list or tuple: only entries whose names start with one are kept.
        choice_func: ``f(name) -> bool`` keeping the entries for which it returns True; ignored
            when ``specify_prefix`` or ``filter_prefix`` is given.
        crc_check: verify the CRC trailer (a file without one loads with a warning).
        remove_redundancy: passed to :func:`load_param_into_net`.
        format: ``"ckpt"`` or ``"safetensors"`` (which takes no ``dec_key`` / ``dec_mode``).

    Returns:
        dict: ``{name: Parameter}`` in file order (safetensors: in name order, the Parameters
        unnamed, as MindSpore gives them); ``str`` entries map to Python strs and MapParameter
        entries to ``[keys, values, status]`` numpy arrays.

    Raises:
        TypeError: for a ``ckpt_file_name`` or prefix of the wrong type, or a BytesIO with
            ``format="ckpt"``.
        ValueError: for a missing, damaged or wrongly decrypted file, a failed CRC check, an
            unsupported tensor_type, bad arguments (a ``dec_key`` or ``dec_mode`` with
            ``format="safetensors"``), or when no entry is left after filtering.

    Example:
        >>> param_dict = load_checkpoint("/tmp/w.ckpt")
    """
    api = "load_checkpoint"
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    validator.check_isinstance(dec_key, (type(None), bytes), "dec_key", api)
    validator.check_isinstance(dec_mode, str, "dec_mode", api)
    validator.check_isinstance(crc_check, bool, "crc_check", api)
    validator.check_isinstance(remove_redundancy, bool, "remove_redundancy", api)
    if format not in ("ckpt", "safetensors"):
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', "
                         f"please input the correct 'format', but got {format!r}.")
    _check_format(api, format)
    if format == "safetensors":
        _check_safetensors_defaults(api, dec_key=dec_key, dec_mode=dec_mode)
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'load_checkpoint', the 'choice_func' must be callable or None, but got {choice_func!r}.")
    if isinstance(ckpt_file_name, io.BytesIO):
        if format == "ckpt":
            raise TypeError("For 'load_checkpoint', ckpt don't support BytesIO as input type, please change to "
                            "safetensors.")
        path, content = "<BytesIO>", ckpt_file_name.getvalue()
    else:
        name = _file_name(api, ckpt_file_name)
        if not name.endswith(format):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file format must same with 'format', but got "
                             f"file_name:'{name}', format:'{format}'")
        path = os.path.realpath(name)
        if not os.path.exists(path):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, please check whether "
                             "the 'ckpt_file_name' is correct.")
        if os.path.isdir(path):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} is a directory, please check whether "
                             "the 'ckpt_file_name' is correct.")
        content = None
    if dec_key is not None:
        _crypto.check_key_and_mode(dec_key, dec_mode, api, "dec_key", "dec_mode")
    if specify_prefix is not None or filter_prefix is not None:
        _logger.warning("For load_checkpoint, the parameters `specify_prefix` and `filter_prefix` will be "
                        "deprecated, please use `choice_func` instead.")
    if format == "safetensors":
        if content is None:
            content = _safe_read.read_regular(path)
        parameter_dict, remove_redundancy = _load_safetensors(path, content, specify_prefix, filter_prefix,
                                                              choice_func, crc_check, remove_redundancy)
    else:
        content, full = _read_content(path, dec_key, dec_mode, crc_check)
        try:
            parameter_dict = _parse(path, content, specify_prefix, filter_prefix, choice_func)
        except ValueError:
            if full is None:
                raise
            parameter_dict = _parse(path, full, specify_prefix, filter_prefix, choice_func)
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


def _load_safetensors(path: str, content: bytes, specify_prefix: tuple | None, filter_prefix: tuple | None,
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
        if not _wanted(name, specify_prefix, filter_prefix, choice_func):
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


class ParamDictFuture:
    """The result of :func:`load_checkpoint_async`: call :meth:`result` for the parameter dict."""

    def __init__(self, executor: Any, future: Any) -> None:
        self.executor = executor
        self.param_dict_future = future

    def result(self) -> dict:
        """Wait for the load and return :func:`load_checkpoint`'s dict (or raise its error)."""
        try:
            return self.param_dict_future.result()
        finally:
            self.executor.shutdown()


def load_checkpoint_async(ckpt_file_name: str, net: Cell | None = None, strict_load: bool = False,
                          filter_prefix: Any = None, dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                          specify_prefix: Any = None, choice_func: Callable | None = None) -> ParamDictFuture:
    """Run :func:`load_checkpoint` in a background thread.

    A name ending with ``.safetensors`` is read with ``format="safetensors"``, any other as ``ckpt``.

    Args:
        ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix,
            choice_func: as for :func:`load_checkpoint`.

    Returns:
        ParamDictFuture: its ``result()`` returns the parameter dict.

    Example:
        >>> param_dict = load_checkpoint_async("/tmp/w.ckpt").result()
    """
    from concurrent.futures import ThreadPoolExecutor
    fmt = "safetensors" if isinstance(ckpt_file_name, str) and ckpt_file_name.endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                             specify_prefix, choice_func, format=fmt)
    return ParamDictFuture(executor, future)


# ------------------------------------------------------------------------ load into a net
def _special_reshape(param: Parameter, new_param: Parameter) -> bool:
    """Load a value whose shape only adds trailing 1s (e.g. (12, 2048, 1, 1) into (12, 2048))."""
    shape, new_shape = param.shape, new_param.shape
    if len(new_shape) <= len(shape) or any(d != 1 for d in new_shape[len(shape):]) or \
            tuple(new_shape[:len(shape)]) != tuple(shape):
        return False
    param.set_data(Tensor(new_param.asnumpy().reshape(shape), param.dtype))
    return True


def _update_param(param: Parameter, new_param: Parameter, strict_load: bool) -> None:
    """Replace ``param``'s value with ``new_param``'s, checking shape and dtype as MindSpore does."""
    if param.shape != new_param.shape:
        if _special_reshape(param, new_param):
            return
        raise RuntimeError(f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape "
                           f"as {param.name} in the argument 'parameter_dict'. But got its shape {param.shape} in the "
                           f"argument 'net' and shape {new_param.shape} in the argument 'parameter_dict'.May you need "
                           "to check whether the checkpoint you loaded is correct or the batch size and so on in the "
                           "'net' and 'parameter_dict' are same.")
    if param.dtype != new_param.dtype:
        pair = (param.dtype, new_param.dtype)
        if not strict_load and (all(t in _FLOAT_TYPES for t in pair) or all(t in _INT_TYPES for t in pair)):
            _logger.warning("The type of %s:%s in 'parameter_dict' is different from the type of it in 'net':%s, then "
                            "the type convert from %s to %s in the network. May consume additional memory and time",
                            new_param.name, new_param.dtype, param.dtype, new_param.dtype, param.dtype)
            param.set_data(Tensor(new_param.asnumpy(), param.dtype))
            return
        raise RuntimeError(f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type "
                           f"as {param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the "
                           f"argument 'net' and type {new_param.dtype} in the argument 'parameter_dict'.May you need "
                           "to check whether the checkpoint you loaded is correct.")
    param.set_data(new_param)


def _load_mismatched_prefix(net: Cell, parameter_dict: dict, param_not_load: list, strict_load: bool) -> None:
    """Retry missing parameters under a prefix taken from a dict key that ends with one of their names."""
    tensors = [k for k, v in parameter_dict.items() if isinstance(v, Tensor)]
    prefix_name = ""
    longest_name = param_not_load[0]
    while prefix_name != longest_name and param_not_load:
        prefix_name = longest_name
        for net_param_name in param_not_load:
            for dict_name in tensors:
                if dict_name.endswith(net_param_name):
                    prefix_name = dict_name[:-len(net_param_name)]
                    break
            if prefix_name != longest_name:
                break
        if prefix_name != longest_name:
            _logger.warning("For 'load_param_into_net', remove parameter prefix name: %s, continue to load.",
                            prefix_name)
            for _, param in net.parameters_and_names():
                new_name = prefix_name + param.name
                if param.name in param_not_load and isinstance(parameter_dict.get(new_name), Tensor):
                    _update_param(param, parameter_dict[new_name], strict_load)
                    param_not_load.remove(param.name)


def load_param_into_net(net: Cell, parameter_dict: dict, strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple[list, list]:
    """Load a parameter dict (as :func:`load_checkpoint` returns) into a network.

    Each net parameter whose ``Parameter.name`` is a key takes the value. With
    ``strict_load=False`` a float value is converted to a float parameter's dtype (int to int), and
    missing parameters are looked up again under a prefix (a key ``net.0.weight`` loads
    ``0.weight``). Missing or unused entries are not errors.

    Args:
        net: the Cell.
        parameter_dict: ``{name: Parameter | str}``; str entries are skipped.
        strict_load: disable the dtype conversion and the prefix fallback.
        remove_redundancy: for checkpoints saved with redundancy removed (parallel training only).

    Returns:
        tuple: ``(param_not_load, ckpt_not_load)``: the net parameter names that got no value
        (except ``accu_grads*``), and the dict keys that were not used (keys used through the
        prefix fallback stay listed, as in MindSpore).

    Raises:
        TypeError: when ``net`` is not a Cell, ``parameter_dict`` not a dict of Parameters,
            ``strict_load`` not a bool, or ``remove_redundancy=True`` in stand-alone mode.
        RuntimeError: when a value's shape or dtype does not fit its parameter.

    Example:
        >>> param_not_load, ckpt_not_load = load_param_into_net(net, load_checkpoint("/tmp/net.ckpt"))
    """
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got "
                        f"{type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' and "
                            f"'Parameter' , but got {type(key)} and {type(value)} (key {key!r}).")
    validator.check_type(strict_load, bool, "strict_load", "load_param_into_net")
    validator.check_isinstance(remove_redundancy, bool, "remove_redundancy", "load_param_into_net")
    if remove_redundancy:
        raise TypeError("The deduplication feature for loading checkpoint can only be used in parallel scenarios, "
                        "but got stand_alone.")
    param_not_load: list = []
    ckpt_not_load = list(parameter_dict.keys())
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new_param = parameter_dict[param.name]
            if not isinstance(new_param, Parameter):
                continue
            _update_param(param, new_param, strict_load)
            ckpt_not_load.remove(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_mismatched_prefix(net, parameter_dict, param_not_load, strict_load)
    if param_not_load:
        _logger.warning("For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not in "
                        "the 'parameter_dict', please check whether the network structure is consistent when training "
                        "and loading checkpoint.", len(param_not_load))
        _logger.warning("%s are not loaded.", param_not_load)
    return param_not_load, ckpt_not_load

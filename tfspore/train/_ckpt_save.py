"""``save_checkpoint``: what a save writes, and the atomic and asynchronous writes.

A save turns its object (a Cell, a list of Parameters or of name/data dicts, a dict) and
``append_dict`` into entries, then writes them in the ``.ckpt`` format
(:mod:`tfspore.train._ckpt_format`, optionally encrypted with a CRC trailer) or the safetensors
layout (:mod:`tfspore.train._safetensors`) through :mod:`tfspore.train._atomic`, so that a
failed or interrupted save leaves the previous file whole. ``async_save`` copies the values and
writes on one background thread; the next save (and ``ModelCheckpoint``) waits for it.
The public path is :mod:`tfspore.train.serialization`.
"""
from __future__ import annotations

import binascii
import logging
import os
import threading
from typing import Any, Callable

import numpy as np

from tfspore._internal import validator
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.train import _atomic, _ckpt_format, _crypto, _safetensors

_logger = logging.getLogger("tfspore")

_save_lock = threading.Lock()
_async_lock = threading.Lock()
_async_thread: threading.Thread | None = None


def _is_generator(value: Any) -> bool:
    """Whether ``value`` is a random Generator (saved through its ``get_state()``)."""
    return type(value).__name__ == "Generator" and callable(getattr(value, "get_state", None))


# --------------------------------------------------------------------------------- entries
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
                out.append(_ckpt_format.tensor_entry(item["name"], item["data"]))
        return out
    for param in save_obj:
        if not isinstance(param, Parameter):
            raise TypeError("For save_checkpoint, when save_obj is made up by list of Parameter, the param should be "
                            f"parameter, but got {type(param)}")
        if choice_func is None or choice_func(param.name):
            out.append(_ckpt_format.tensor_entry(param.name, param))
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
        out.append(_ckpt_format.str_entry(key, value) if isinstance(value, str)
                   else _ckpt_format.tensor_entry(key, value))
    return out


def _entries_from_cell(save_obj: Cell, choice_func: Callable | None) -> list:
    out = []
    for _, param in save_obj.parameters_and_names():
        if choice_func is None or choice_func(param.name):
            out.append(_ckpt_format.tensor_entry(param.name, param))
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
            out.append(_ckpt_format.str_entry(key, value))
        elif isinstance(value, Tensor):
            out.append(_ckpt_format.tensor_entry(key, value))
        else:
            out.append(_ckpt_format.tensor_entry(key, Tensor(value)))
    return out


# -------------------------------------------------------------------------------- writing
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
                    for chunk in _safetensors.safetensors_bytes(entries, crc_check, remove_redundancy):
                        f.write(chunk)
                elif enc_key is None:
                    crc = 0
                    for rec in _ckpt_format.records(entries, split_rows):
                        if crc_check:
                            crc = binascii.crc32(rec, crc)
                        f.write(rec)
                    if crc_check:
                        f.write(_ckpt_format.CRC_MARK + crc.to_bytes(10, byteorder="big"))
                else:
                    block = _crypto.BLOCK_SIZE
                    buf = bytearray()
                    for rec in _ckpt_format.records(entries, split_rows):
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
    _ckpt_format.check_format(api, format)
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got "
                        f"{type(save_obj)}.")
    path = os.path.realpath(_ckpt_format.file_name(api, ckpt_file_name))
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
        _safetensors.check_safetensors_defaults(api, enc_key=enc_key, enc_mode=enc_mode,
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


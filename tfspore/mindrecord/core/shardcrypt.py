"""Encrypted MindRecord files: the settings of ``mindspore.mindrecord.set_enc_key`` /
``set_enc_mode`` / ``set_dec_mode``, the writer's encryption and the readers' decryption.

MindSpore 2.10 encrypts each file it writes (every shard and every ``.db`` index, each on its own)
when a key is set (its ``FileWriter`` then writes one shard per file: ``shard_num`` > 1 is
refused), and its readers decrypt them; this module gives tfspore the same files, so encrypted
files cross both ways. The layout of an encrypted file::

    [ length (4 bytes, big-endian, signed) | AES-GCM block (length bytes) ]   one per 64 MiB of plaintext
    0 (4 bytes) | mode (7 bytes: "AES-GCM", or "UDF-ENC" for a custom function) | "ENCRYPT"

An AES-GCM block is MindSpore's ``Encrypt`` block (:mod:`tfspore._internal.crypto`: magic, 16-byte
tag, lengths, 16-byte IV whose first 12 bytes are the GCM nonce, ciphertext); the AES key is the
first ``len(key)`` UTF-8 bytes of the ``str`` key (16, 24 or 32 characters: AES-128/192/256,
as MindSpore passes it to its C++). A custom ``enc_mode`` function writes everything before the
final ``0`` itself. MindSpore 2.10 has no integrity hash other than GCM's tag.

Readers read plaintext copies: the files are decrypted into a private folder (mode 0o700) under
``.decrypt_mindrecord/`` beside them (in the system's temporary folder when that folder cannot
be created), and :class:`PlainFiles` removes the copies when the reader no longer needs them
(``FileReader`` and ``MindDataset`` right after reading: a streamed ``MindDataset`` reads
through memory maps of the removed copies; ``MindPage`` when released; anything left at exit).
The writer encrypts into a temporary file beside the target and renames it over the plaintext
file, so a failed encryption never leaves a half-encrypted file.

Example:
    >>> from tfspore.mindrecord.core import shardcrypt
    >>> shardcrypt.set_enc_key("0123456789abcdef")
    >>> shardcrypt.get_enc_key(), shardcrypt.get_dec_mode()
    ('0123456789abcdef', 'AES-GCM')
    >>> shardcrypt.set_enc_key(None)
"""
from __future__ import annotations

import os
import shutil
import stat
import struct
import tempfile
import threading
import weakref
from typing import Any, BinaryIO, Callable, Dict, List, Optional, Sequence, Set, Union

from tfspore import log as logger
from tfspore._internal import crypto
from tfspore._internal import validator as v
from tfspore.mindrecord.core.shardreader import MIN_FILE_SIZE, check_input_file, check_shard_file

__all__ = ["END_FLAG", "DECRYPT_DIRECTORY", "DEFAULT_MODE", "set_enc_key", "set_enc_mode", "set_dec_mode",
           "get_enc_key", "get_enc_mode", "get_dec_mode", "mode_tag", "is_encrypted", "encrypt_file",
           "encrypt_files", "decrypt_file", "PlainFiles", "open_plain"]

#: The last 7 bytes of an encrypted MindRecord file.
END_FLAG = b"ENCRYPT"
#: The folder beside the files that holds the readers' plaintext copies (MindSpore's name).
DECRYPT_DIRECTORY = ".decrypt_mindrecord"
#: The one built-in mode.
DEFAULT_MODE = "AES-GCM"
_UDF_TAG = b"UDF-ENC"
_TAG_LEN = 7
_LEN = struct.Struct(">i")
# A block's length field, the final 0 and the mode tag must fit before the end flag.
_MIN_REMAINING = _LEN.size + _LEN.size + _TAG_LEN

_NOT_ENCRYPTED = ("The mindrecord file is not encrypted. You can set "
                  "'mindspore.mindrecord.config.set_enc_key(None)' to disable the decryption.")
_ENCRYPTED = ("The mindrecord file is encrypted. You need to configure "
              "'mindspore.mindrecord.config.set_enc_key(...)' and "
              "'mindspore.mindrecord.config.set_enc_mode(...)' for decryption.")
_FAILED = "Failed to decrypt data, please check if enc_key and enc_mode / dec_mode is valid."
_CUSTOM_NEEDS_DEC = "You use custom encryption, so you must also define custom decryption."

Mode = Union[str, Callable[..., Any]]


class _Settings:
    """The process-wide settings (MindSpore keeps them in module globals too)."""

    def __init__(self) -> None:
        self.key: Optional[str] = None
        self.enc_mode: Mode = DEFAULT_MODE
        self.dec_mode: Optional[Mode] = None


_SETTINGS = _Settings()


class _Shown:
    """Stands for a key in error messages, which must never show it."""

    def __init__(self, text: str) -> None:
        self._text = text

    def __repr__(self) -> str:
        return self._text


def _hidden(value: Any) -> _Shown:
    if isinstance(value, str):
        return _Shown(f"a str of length {len(value)}")
    size = f" (length {len(value)})" if isinstance(value, (bytes, bytearray)) else ""
    return _Shown(f"a value of type {type(value).__name__}{size}")


# ------------------------------------------------------------------------------------ settings
def set_enc_key(enc_key: Optional[str]) -> None:
    """Set the key that MindRecord files are encrypted with when written and decrypted with when read.

    Args:
        enc_key: A str of 16, 24 or 32 characters (AES-128, -192 or -256), or None to write and
            read unencrypted files.

    Raises:
        ValueError: If `enc_key` is not None or such a str (the message never shows the key).
    """
    if enc_key is None:
        _SETTINGS.key = None
        return
    if not isinstance(enc_key, str) or len(enc_key) not in (16, 24, 32):
        raise v.value_error(_hidden(enc_key), "enc_key", "set_enc_key", "a str of length 16, 24 or 32")
    _SETTINGS.key = enc_key


def set_enc_mode(enc_mode: Mode = DEFAULT_MODE) -> None:
    """Set how MindRecord files are encrypted (used only while a key is set).

    Args:
        enc_mode: ``"AES-GCM"`` or a function ``f(src, size, dst, key)`` that reads the plaintext
            file object `src` of `size` bytes and writes the encrypted bytes to `dst`.

    Raises:
        ValueError: If `enc_mode` is neither ``"AES-GCM"`` nor callable.
    """
    _SETTINGS.enc_mode = enc_mode if callable(enc_mode) else \
        v.check_string(enc_mode, (DEFAULT_MODE,), "enc_mode", "set_enc_mode")


def set_dec_mode(dec_mode: Optional[Mode] = DEFAULT_MODE) -> None:
    """Set how MindRecord files are decrypted (used only while a key is set).

    Args:
        dec_mode: ``"AES-GCM"``, a function ``f(src, size, dst, key)`` that reads the first `size`
            bytes of the encrypted file object `src` and writes the plaintext to `dst`, or None
            (decrypt with the encryption mode).

    Raises:
        ValueError: If `dec_mode` is neither None, ``"AES-GCM"`` nor callable.
    """
    if dec_mode is None or callable(dec_mode):
        _SETTINGS.dec_mode = dec_mode
        return
    _SETTINGS.dec_mode = v.check_string(dec_mode, (DEFAULT_MODE,), "dec_mode", "set_dec_mode")


def get_enc_key() -> Optional[str]:
    """The key set by :func:`set_enc_key` (None: files are not encrypted)."""
    return _SETTINGS.key


def get_enc_mode() -> Mode:
    """The encryption mode set by :func:`set_enc_mode` (default ``"AES-GCM"``)."""
    return _SETTINGS.enc_mode


def get_dec_mode() -> Mode:
    """The decryption mode: the one set by :func:`set_dec_mode`, else the encryption mode.

    Raises:
        RuntimeError: If the encryption mode is a custom function and no decryption mode is set.
    """
    if _SETTINGS.dec_mode is None:
        if callable(_SETTINGS.enc_mode):
            raise RuntimeError(_CUSTOM_NEEDS_DEC)
        return _SETTINGS.enc_mode
    return _SETTINGS.dec_mode


def mode_tag(mode: Mode) -> bytes:
    """The 7 bytes an encrypted file records for `mode`: ``b"AES-GCM"`` or ``b"UDF-ENC"``."""
    return _UDF_TAG if callable(mode) else mode.encode("utf-8")


def _key_bytes(key: str) -> bytes:
    # MindSpore hands its C++ the UTF-8 bytes and the length in characters: the AES key is the
    # first len(key) bytes (the whole key when it is ASCII).
    return key.encode("utf-8")[:len(key)]


# ------------------------------------------------------------------------------------ encryption
def is_encrypted(path: str) -> bool:
    """Whether the file ends with the encryption end flag (``b"ENCRYPT"``)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < len(END_FLAG):
            return False
        f.seek(size - len(END_FLAG))
        return f.read(len(END_FLAG)) == END_FLAG


def _write_blocks(src: BinaryIO, dst: BinaryIO, key: bytes) -> None:
    while True:
        chunk = src.read(crypto.BLOCK_SIZE)
        if not chunk:
            return
        block = crypto.encrypt_block(chunk, key, DEFAULT_MODE)
        dst.write(_LEN.pack(len(block)))
        dst.write(block)


def encrypt_file(path: str, key: str, mode: Mode) -> None:
    """Encrypt the file `path` in place (through a temporary file renamed over it).

    Args:
        path: The plaintext file.
        key: The key (a str of 16, 24 or 32 characters).
        mode: ``"AES-GCM"`` or a custom function ``f(src, size, dst, key)``.

    Raises:
        RuntimeError: If `path` is not a regular file.
        Exception: What a custom function raises; `path` is left as it was.
    """
    if not os.path.isfile(path):
        raise RuntimeError(f"The input: {path} should be a regular file." if os.path.exists(path)
                           else f"The input: {path} is not exists.")
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, "rb") as src:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".encrypt", dir=folder)
        try:
            with os.fdopen(fd, "wb") as dst:
                if callable(mode):
                    mode(src, os.fstat(src.fileno()).st_size, dst, key)
                else:
                    _write_blocks(src, dst, _key_bytes(key))
                dst.write(_LEN.pack(0))
                dst.write(mode_tag(mode))
                dst.write(END_FLAG)
                dst.flush()
                os.fsync(dst.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def encrypt_files(paths: Sequence[str]) -> None:
    """Encrypt each written shard file and its ``.db`` index when a key is set (else nothing)."""
    key = get_enc_key()
    if key is None:
        return
    mode = get_enc_mode()
    for path in paths:
        if os.path.exists(path):
            encrypt_file(path, key, mode)
            encrypt_file(path + ".db", key, mode)


def _read_length(src: BinaryIO, path: str, offset: int) -> int:
    raw = src.read(_LEN.size)
    if len(raw) != _LEN.size:
        raise RuntimeError(f"Invalid encrypted block length in file: {path} at offset: {offset}.")
    return _LEN.unpack(raw)[0]


def _read_blocks(src: BinaryIO, dst: BinaryIO, path: str, size: int, key: bytes) -> None:
    """Decrypt the length-prefixed blocks of `src` (whose first `size` bytes precede the end flag)."""
    offset = 0
    length = _read_length(src, path, offset)
    while length != 0:
        limit = size - offset - _MIN_REMAINING
        if length < 0 or limit < 0 or length > limit:
            raise RuntimeError(f"Invalid encrypted block length {length} in file: {path} at offset: {offset}.")
        data = src.read(length)
        if len(data) != length:
            raise RuntimeError(f"Failed to read encrypted block data from file: {path} at offset: "
                               f"{offset + _LEN.size}.")
        try:
            dst.write(crypto.decrypt(data, key, DEFAULT_MODE))
        except crypto.CipherError as err:
            raise RuntimeError(f"{_FAILED} File: {path} (the block at offset {offset}: {err}).") from err
        offset += _LEN.size + length
        length = _read_length(src, path, offset)


def decrypt_file(path: str, dest: str, key: str, mode: Mode) -> None:
    """Decrypt the encrypted file `path` into the new file `dest` (mode 0o600).

    Raises:
        RuntimeError: If the file was encrypted with another mode, its layout is broken, or a
            block fails to decrypt (wrong key, or the file was changed); `dest` is then removed.
        Exception: What a custom function raises.
    """
    with open(path, "rb") as src:
        size = os.fstat(src.fileno()).st_size - len(END_FLAG)
        if size >= _TAG_LEN:
            src.seek(size - _TAG_LEN)
        if size < _TAG_LEN or src.read(_TAG_LEN) != mode_tag(mode):
            raise RuntimeError(f"{_FAILED} File: {path} (it was encrypted with another mode).")
        src.seek(0)
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as dst:
                if callable(mode):
                    mode(src, size, dst, key)
                else:
                    _read_blocks(src, dst, path, size, _key_bytes(key))
        except BaseException:
            os.unlink(dest)
            raise


# ------------------------------------------------------------------------------------ readers
def _regular(path: str, min_size: int = MIN_FILE_SIZE) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size >= min_size


_ANNOUNCED: Set[str] = set()
_ANNOUNCED_LOCK = threading.Lock()


def _private_folder(source_folder: str) -> str:
    """A new folder (mode 0o700) for plaintext copies of files of `source_folder`."""
    root = os.path.join(source_folder, DECRYPT_DIRECTORY)
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        folder = tempfile.mkdtemp(dir=root)
    except OSError:
        root = tempfile.gettempdir()
        folder = tempfile.mkdtemp(prefix="decrypt_mindrecord_")
    with _ANNOUNCED_LOCK:
        first = root not in _ANNOUNCED
        _ANNOUNCED.add(root)
    if first:
        logger.warning(f"Temporary decrypt files will be stored in [{root}] and cleaned up automatically when "
                       f"readers or datasets are released.")
    return folder


def _remove_folders(folders: Dict[str, str]) -> None:
    for folder in list(folders.values()):
        shutil.rmtree(folder, ignore_errors=True)
        parent = os.path.dirname(folder)
        if os.path.basename(parent) == DECRYPT_DIRECTORY:
            try:
                os.rmdir(parent)  # only when no other reader's copies are left in it
            except OSError:
                pass
    folders.clear()


class PlainFiles:
    """The files a reader reads: its input, with every encrypted file replaced by a plaintext copy.

    The copies are removed by :meth:`close`, when the object is collected, or at exit.

    Attributes:
        paths: A path or a list of paths, as the input was given.
    """

    def __init__(self, paths: Union[str, List[str]]) -> None:
        self.paths = paths
        self._folders: Dict[str, str] = {}  # source folder -> folder of the copies
        self._copies: Dict[str, str] = {}  # encrypted file -> copy
        self._finalizer = weakref.finalize(self, _remove_folders, self._folders)

    def copy_of(self, path: str, key: str, mode: Mode) -> str:
        """Decrypt `path` and its ``.db`` index (once) and return the copy's path."""
        real = os.path.realpath(path)
        if real not in self._copies:
            source_folder = os.path.dirname(real)
            if source_folder not in self._folders:
                self._folders[source_folder] = _private_folder(source_folder)
            dest = os.path.join(self._folders[source_folder], os.path.basename(real))
            decrypt_file(path, dest, key, mode)
            decrypt_file(path + ".db", dest + ".db", key, mode)
            self._copies[real] = dest
        return self._copies[real]

    def close(self) -> None:
        """Remove the plaintext copies."""
        self._finalizer()

    def __copy__(self) -> "PlainFiles":
        return self

    def __deepcopy__(self, memo: Dict[int, Any]) -> "PlainFiles":
        return self


def _needs_decryption(path: str, key: Optional[str], api: str) -> bool:
    """Whether `path` (a data file: with its index) must be decrypted, checking that its index and
    the key agree with it (MindSpore's errors otherwise)."""
    if key is None:
        for item in (path, path + ".db"):
            if _regular(item) and is_encrypted(item):
                raise RuntimeError(f"{_ENCRYPTED} File: {item}")
        return False
    check_input_file(path, api)
    check_shard_file(path + ".db")
    for item in (path, path + ".db"):
        if not is_encrypted(item):
            raise RuntimeError(f"{_NOT_ENCRYPTED} File: {item}")
    return True


def open_plain(file_name: Union[str, Sequence[str]], api: str) -> PlainFiles:
    """The files to read for `file_name`: encrypted files (with their indexes) decrypted.

    With no key set, the files are returned as they are (after checking that none is
    encrypted). With a key, every file must be encrypted (an encrypted file is always a set of
    one shard: MindSpore's writer refuses ``shard_num`` > 1 while a key is set).

    Args:
        file_name: One MindRecord file or a list of them.
        api: The API named in errors (``"FileReader"``, ``"MindPage"``, ``"MindDataset"``, ...).

    Raises:
        RuntimeError: If a file is encrypted and no key is set, a key is set and a file is not
            encrypted, or a file fails to decrypt (wrong key or mode, changed file); MindSpore's
            errors for missing or unreadable files when a key is set (``MindDataset``:
            ``ValueError`` for a missing data file).
    """
    single = not isinstance(file_name, (list, tuple))
    names = [os.fspath(file_name)] if single else [os.fspath(f) for f in file_name]
    key = get_enc_key()
    wanted = [_needs_decryption(name, key, api) for name in names]
    if not any(wanted):
        return PlainFiles(names[0] if single else names)
    mode = get_dec_mode()
    plain = PlainFiles(names[0] if single else names)
    try:
        copies = [plain.copy_of(name, key, mode) for name in names]
        plain.paths = copies[0] if single else copies
    except BaseException:
        plain.close()
        raise
    return plain

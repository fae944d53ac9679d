"""Block encryption in MindSpore's encrypted layout (``.ckpt``, MindIR and MindRecord files).

MindSpore's checkpoints, MindIR files and MindRecord files share one block format (its C++
``Encrypt`` / ``Decrypt``), so the train side and :mod:`tfspore.mindrecord` share this module.

The plaintext (for a checkpoint, the unencrypted ``.ckpt`` byte stream) is cut into blocks of
64 MiB; each block is encrypted on its own with a fresh random 16-byte IV, and the blocks are
concatenated. Every integer is a little-endian uint32.

AES-GCM block::

    magic 0x7F3A5ED8 | tag (16 bytes) | block_len | iv_len (=16) | iv (16 bytes) | cipher_len | ciphertext

``block_len = 4 + iv_len + 4 + cipher_len``; the GCM nonce is the first 12 bytes of the IV; there
is no associated data.

AES-CBC (magic 0x7F3A5ED9) and SM4-CBC (magic 0x7F3A5EDA) blocks::

    magic | block_len | iv_len (=16) | iv (16 bytes) | cipher_len | ciphertext (PKCS#7 padded)

Example:
    >>> blob = encrypt_block(b"hello", b"0" * 16, "AES-GCM")
    >>> decrypt(blob, b"0" * 16, "AES-GCM")
    b'hello'
"""
from __future__ import annotations

import os
import struct

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["MODES", "BLOCK_SIZE", "CipherError", "check_key_and_mode", "encrypt_block", "decrypt",
           "is_cipher_data"]

#: Plaintext bytes per encrypted block (64 MiB).
BLOCK_SIZE = 64 * 1024 * 1024

_MAGIC = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}
_MAGIC_BYTES = {struct.pack("<I", m) for m in _MAGIC.values()}
#: The supported encryption modes.
MODES = tuple(_MAGIC)
_IV_LEN = 16
_GCM_NONCE_LEN = 12
_TAG_LEN = 16
_U32 = struct.Struct("<I")


class CipherError(ValueError):
    """Raised when encrypted data cannot be decrypted (wrong key or mode, or damaged data)."""


def check_key_and_mode(key: bytes, mode: str, api: str, key_arg: str, mode_arg: str) -> None:
    """Check that ``key`` and ``mode`` can be used together.

    Args:
        key: the key.
        mode: one of :data:`MODES`.
        api: the public API named in errors, e.g. ``"save_checkpoint"``.
        key_arg: the name of the key argument, e.g. ``"enc_key"``.
        mode_arg: the name of the mode argument, e.g. ``"enc_mode"``.

    Raises:
        ValueError: when the mode is unknown or the key length does not fit it.
    """
    if mode not in _MAGIC:
        raise ValueError(f"For '{api}', the '{mode_arg}' must be one of 'AES-GCM', 'AES-CBC' or 'SM4-CBC', "
                         f"but got {mode!r}.")
    allowed = (16,) if mode == "SM4-CBC" else (16, 24, 32)
    if len(key) not in allowed:
        want = "16" if mode == "SM4-CBC" else "16, 24 or 32"
        raise ValueError(f"For '{api}', the length of '{key_arg}' must be {want} bytes for {mode}, "
                         f"but got key length {len(key)}.")


def _cbc_cipher(key: bytes, mode: str, iv: bytes) -> Cipher:
    algo = algorithms.SM4(key) if mode == "SM4-CBC" else algorithms.AES(key)
    return Cipher(algo, modes.CBC(iv))


def encrypt_block(data: bytes, key: bytes, mode: str) -> bytes:
    """Encrypt one block of plaintext (at most :data:`BLOCK_SIZE` bytes) into MindSpore's layout.

    Args:
        data: the plaintext.
        key: the key (checked by :func:`check_key_and_mode`).
        mode: ``"AES-GCM"``, ``"AES-CBC"`` or ``"SM4-CBC"``.

    Returns:
        bytes: the encrypted block with its header.
    """
    iv = os.urandom(_IV_LEN)
    magic = _U32.pack(_MAGIC[mode])
    if mode == "AES-GCM":
        sealed = AESGCM(key).encrypt(iv[:_GCM_NONCE_LEN], bytes(data), None)
        cipher, tag = sealed[:-_TAG_LEN], sealed[-_TAG_LEN:]
        block_len = 4 + _IV_LEN + 4 + len(cipher)
        return b"".join((magic, tag, _U32.pack(block_len), _U32.pack(_IV_LEN), iv, _U32.pack(len(cipher)), cipher))
    padder = padding.PKCS7(128).padder()
    padded = padder.update(bytes(data)) + padder.finalize()
    enc = _cbc_cipher(key, mode, iv).encryptor()
    cipher = enc.update(padded) + enc.finalize()
    block_len = 4 + _IV_LEN + 4 + len(cipher)
    return b"".join((magic, _U32.pack(block_len), _U32.pack(_IV_LEN), iv, _U32.pack(len(cipher)), cipher))


def _u32(buf: memoryview, pos: int) -> int:
    if pos + 4 > len(buf):
        raise CipherError("truncated block header")
    return _U32.unpack_from(buf, pos)[0]


def decrypt(data: bytes | memoryview, key: bytes, mode: str) -> bytes:
    """Decrypt a sequence of blocks written by :func:`encrypt_block`.

    Args:
        data: the encrypted bytes (the whole file).
        key: the key.
        mode: the mode the data was encrypted with.

    Returns:
        bytes: the concatenated plaintext.

    Raises:
        CipherError: when a block has another mode's magic, is truncated, or fails to decrypt
            (wrong key, or tampered data).
    """
    buf = memoryview(data)
    want_magic = _MAGIC[mode]
    out = []
    pos = 0
    while pos < len(buf):
        magic = _u32(buf, pos)
        if magic != want_magic:
            raise CipherError(f"block at offset {pos} has magic {magic:#x}, not {want_magic:#x} of {mode}")
        pos += 4
        tag = b""
        if mode == "AES-GCM":
            if pos + _TAG_LEN > len(buf):
                raise CipherError("truncated block header")
            tag = bytes(buf[pos:pos + _TAG_LEN])
            pos += _TAG_LEN
        block_len = _u32(buf, pos)
        pos += 4
        end = pos + block_len
        if end > len(buf):
            raise CipherError(f"block at offset {pos} claims {block_len} bytes, past the end of the data")
        iv_len = _u32(buf, pos)
        if iv_len > block_len - 8 or (mode == "AES-GCM" and iv_len < _GCM_NONCE_LEN) or (
                mode != "AES-GCM" and iv_len != _IV_LEN):
            raise CipherError(f"bad IV length {iv_len}")
        iv = bytes(buf[pos + 4:pos + 4 + iv_len])
        cipher_len = _u32(buf, pos + 4 + iv_len)
        if 4 + iv_len + 4 + cipher_len != block_len:
            raise CipherError("inconsistent block lengths")
        cipher = bytes(buf[pos + 8 + iv_len:end])
        try:
            if mode == "AES-GCM":
                out.append(AESGCM(key).decrypt(iv[:_GCM_NONCE_LEN], cipher + tag, None))
            else:
                dec = _cbc_cipher(key, mode, iv).decryptor()
                padded = dec.update(cipher) + dec.finalize()
                unpadder = padding.PKCS7(128).unpadder()
                out.append(unpadder.update(padded) + unpadder.finalize())
        except (InvalidTag, ValueError) as e:
            raise CipherError(f"block at offset {pos} failed to decrypt: {type(e).__name__}") from e
        pos = end
    return b"".join(out)


def is_cipher_data(head: bytes) -> bool:
    """Whether ``head`` (the first bytes of a file) starts with an encrypted block's magic."""
    return bytes(head[:4]) in _MAGIC_BYTES

"""Bounded, non-blocking reads of checkpoint files, and a CRC-32 of zero bytes without allocation.

``read_regular`` opens with ``O_NONBLOCK`` (a FIFO does not block the open), checks with
``fstat`` that the file is a regular file (refusing FIFOs, devices such as ``/dev/zero``,
sockets and directories, also behind symlinks), and reads at most its size, so that no read
hangs and no allocation exceeds the file's size.
"""
from __future__ import annotations

import os
import stat


def read_regular(path: str, api: str = "load_checkpoint") -> bytes:
    """Return the bytes of the regular file ``path``.

    Args:
        path: the file.
        api: the API name for the error message.

    Returns:
        bytes: the file's content (at most its size at open time).

    Raises:
        ValueError: when ``path`` is not a regular file or cannot be read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise ValueError(f"For '{api}', failed to open the checkpoint file {path}: {e.strerror}.") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"For '{api}', the checkpoint file {path} is not a regular file (a FIFO, device, "
                             "socket or directory), please check whether the 'ckpt_file_name' is correct.")
        chunks, left = [], st.st_size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 26))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise ValueError(f"For '{api}', failed to read the checkpoint file {path}: {e.strerror}.") from e
    finally:
        os.close(fd)


_POLY = 0xEDB88320


def _gf2_times(mat: list, vec: int) -> int:
    total, i = 0, 0
    while vec:
        if vec & 1:
            total ^= mat[i]
        vec >>= 1
        i += 1
    return total


def _gf2_square(mat: list) -> list:
    return [_gf2_times(mat, mat[n]) for n in range(32)]


def crc32_zeros(crc: int, count: int) -> int:
    """``binascii.crc32(bytes(count), crc)``, in O(log count) time and without allocating the bytes.

    Args:
        crc: the running CRC.
        count: the number of zero bytes (>= 0).

    Returns:
        int: the updated CRC.
    """
    if count <= 0:
        return crc
    reg = crc ^ 0xFFFFFFFF
    op = [_POLY] + [1 << i for i in range(31)]  # the operator of one zero bit
    for _ in range(3):
        op = _gf2_square(op)  # of 2, 4, then 8 zero bits: one zero byte
    while True:  # op is the operator of 2**k zero bytes for bit k of count
        if count & 1:
            reg = _gf2_times(op, reg)
        count >>= 1
        if not count:
            break
        op = _gf2_square(op)
    return reg ^ 0xFFFFFFFF

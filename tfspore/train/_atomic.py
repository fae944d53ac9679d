"""Crash-safe file replacement for checkpoint writers.

A new file is written under a temporary name in the target's directory, flushed and fsynced,
renamed over the target, and the directory is fsynced, so that after a crash at any point the
target is either the old complete file or the new complete file.

Temporary names are ``<root>.tmp~<host>~<pid>~<rank>~<random>`` (``<root>`` is the target
without its ``.ckpt`` / ``.safetensors`` extension, ``<host>`` an 8-digit hash of the host
name, ``<rank>`` the process's rank in its job, as ``get_rank()`` reports it): unique per host,
process and rank, so the ranks of a job saving into one folder (even to one name: the last
rename wins, and every version is complete) never share a temporary. MindSpore 2.10 writes
``<root>.tmp`` for every writer and warns "it is possible that multiple processes have
simultaneously modified a file" when another rank's rename took it away.

Temporaries are created with ``O_CREAT | O_EXCL | O_NOFOLLOW``, so a file or symlink already at
that name is never followed, truncated, chmod-ed or deleted. Temporaries left by writers that
died (same host, process no longer alive) are removed by the next write to that directory. A
user's own ``<root>.tmp`` file is never touched.
"""
from __future__ import annotations

import binascii
import contextlib
import errno
import os
import re
import secrets
import socket
import stat
from typing import BinaryIO, Iterator

from tfspore._internal import rank_dirs

_TMP_RE = re.compile(r"^(?P<root>.+)\.tmp~(?P<host>[0-9a-f]{8})~(?P<pid>\d+)~(?P<rank>\d+)~[0-9a-f]{8}$")


def _host_tag() -> str:
    return f"{binascii.crc32(socket.gethostname().encode('utf-8', 'replace')):08x}"


def _rank() -> int:
    """This process's rank in its job (:func:`tfspore._internal.rank_dirs.job_rank`), 0 when alone."""
    return rank_dirs.job_rank()


def tmp_root(path: str) -> str:
    """The target ``path`` without a ``.ckpt`` / ``.safetensors`` extension (the temporary's stem)."""
    root, ext = os.path.splitext(path)
    return root if ext in (".ckpt", ".safetensors") else path


def tmp_name(path: str) -> str:
    """A fresh temporary name for ``path``, unique per host, process and rank."""
    return f"{tmp_root(path)}.tmp~{_host_tag()}~{os.getpid()}~{_rank()}~{secrets.token_hex(4)}"


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return True  # never treat a nonsense pid as dead: leave the file alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def clean_stale(directory: str) -> list[str]:
    """Remove temporaries in ``directory`` left by dead writers on this host.

    Only regular files owned by the current user, whose name matches the temporary pattern,
    whose host tag is this host's and whose process id is not alive, are removed.

    Args:
        directory: the folder to scan.

    Returns:
        list[str]: the paths removed.
    """
    removed: list[str] = []
    host = _host_tag()
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return removed
    for name in names:
        match = _TMP_RE.match(name)
        if not match or match.group("host") != host:
            continue
        pid = int(match.group("pid"))
        if pid == os.getpid() or _pid_alive(pid):
            continue
        full = os.path.join(directory, name)
        try:
            st = os.lstat(full)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
                continue
            os.unlink(full)
            removed.append(full)
        except OSError:
            continue
    return removed


def fsync_dir(directory: str) -> None:
    """fsync ``directory`` so that a rename in it is durable (no-op where unsupported)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(directory or ".", flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as e:  # some filesystems cannot fsync a directory
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF, errno.EROFS):
            raise
    finally:
        os.close(fd)


def _open_exclusive(path: str) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(16):
        tmp = tmp_name(path)
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "could not create a unique temporary file", tmp_name(path))


@contextlib.contextmanager
def atomic_write(path: str, final_mode: int | None = stat.S_IRUSR) -> Iterator[BinaryIO]:
    """Write ``path`` atomically: yield a binary file; on success it replaces ``path``.

    Steps: clean stale temporaries of dead writers in the directory, create a unique temporary
    (``O_EXCL | O_NOFOLLOW``, mode 0o600), let the caller write it, flush and fsync it, set
    ``final_mode`` on the open descriptor, rename it over ``path`` and fsync the directory. On
    any failure (including KeyboardInterrupt) the temporary is removed and ``path`` is untouched.

    Args:
        path: the target file.
        final_mode: the permission bits of the finished file (None: keep 0o600).

    Yields:
        BinaryIO: the temporary file, open for writing.
    """
    directory = os.path.dirname(path) or "."
    clean_stale(directory)
    fd, tmp = _open_exclusive(path)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
            if final_mode is not None:
                os.fchmod(f.fileno(), final_mode)
        try:
            os.replace(tmp, path)
        except PermissionError:  # a read-only target blocks the rename on some platforms
            if os.path.lexists(path):
                if not os.path.islink(path):
                    with contextlib.suppress(OSError):
                        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
                os.unlink(path)
            os.replace(tmp, path)
        fsync_dir(directory)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

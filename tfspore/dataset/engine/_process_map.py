"""Python map functions in worker processes (``map(..., python_multiprocessing=True)``).

A :class:`ProcessMap` forks ``workers`` processes, as MindSpore does (its default start method is
``fork``), so the callable does not need to be picklable: each child finds it in a registry
inherited from the parent. The pipeline calls the ``ProcessMap`` like the callable itself, from
``tf.data``'s parallel map threads: each call takes an idle worker, sends it the row's arrays
through a pipe, and waits for the result without holding the GIL, so a GIL-bound function
scales with the workers. ``tf.data``'s order-preserving map keeps the rows in order. An
exception raised in a worker comes back and is raised in the calling thread.
"""
from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import threading
import time
import weakref
from typing import Any, Callable, Dict, List, Optional

__all__ = ["ProcessMap", "available"]

_REGISTRY: Dict[int, Callable] = {}
_ids = itertools.count(1)
_lock = threading.Lock()
# The parent ends of every worker pipe this process holds. A forked worker closes its copies, so
# a worker's pipe reaches EOF when its parent closes it or dies (otherwise later-forked workers
# would keep earlier workers' pipes open, and no worker would ever see its parent go).
_PARENT_ENDS: List[Any] = []
_POLL_S = 1.0


def available() -> bool:
    """Whether worker processes can be forked on this platform."""
    return "fork" in multiprocessing.get_all_start_methods()


def _watch_parent(parent_pid: int) -> None:
    """Ends the worker when its parent is gone, even while the function hangs (a lock a fork copied
    held, a function waiting forever): a worker never outlives the pipeline's process."""
    while True:
        time.sleep(_POLL_S)
        if os.getppid() != parent_pid:
            os._exit(0)


def _serve(conn: Any, key: int, parent_pid: int) -> None:
    for end in _PARENT_ENDS:
        end.close()
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()
    fn = _REGISTRY[key]
    while True:
        try:
            args = conn.recv()
        except (EOFError, OSError):
            return
        if args is None:
            return
        try:
            reply = (True, fn(*args))
        except BaseException as exc:  # pylint: disable=broad-except
            reply = (False, exc)
        try:
            conn.send(reply)
        except Exception as exc:  # pylint: disable=broad-except  # an unpicklable result or exception
            conn.send((False, RuntimeError(f"the worker process could not send its result back: {exc!r}")))


def _shutdown(processes: List[Any], conns: List[Any], key: int) -> None:
    for conn in conns:
        try:
            conn.send(None)
            conn.close()
        except OSError:
            pass
        if conn in _PARENT_ENDS:  # (no lock: a finalizer may run while _start holds it)
            _PARENT_ENDS.remove(conn)
    for proc in processes:
        proc.join(timeout=1)
        if proc.is_alive():
            proc.terminate()
    _REGISTRY.pop(key, None)


class ProcessMap:
    """Call `fn` in `workers` forked processes, one call per row.

    Args:
        fn: The callable (numpy arrays in, numpy arrays or a tuple of them out).
        workers: The number of processes.

    Example:
        >>> from tfspore.dataset.engine._process_map import ProcessMap
        >>> double = ProcessMap(lambda x: x * 2, 2)
        >>> double(21)
        42
    """

    def __init__(self, fn: Callable, workers: int):
        self.fn = fn
        self.__qualname__ = getattr(fn, "__qualname__", None) or type(fn).__name__
        self.workers = int(workers)
        self._idle: Optional["queue.Queue[Any]"] = None
        self._pids: List[int] = []
        self._finalizer: Optional[weakref.finalize] = None
        self._start_lock = threading.Lock()

    def _start(self) -> "queue.Queue[Any]":
        """Fork the workers (on the first call, so pipelines built but never run fork nothing)."""
        with self._start_lock:
            if self._idle is not None:
                return self._idle
            ctx = multiprocessing.get_context("fork")
            with _lock:
                key = next(_ids)
                _REGISTRY[key] = self.fn
                idle: "queue.Queue[Any]" = queue.Queue()
                processes, conns = [], []
                for _ in range(self.workers):
                    parent, child = ctx.Pipe()
                    proc = ctx.Process(target=_serve, args=(child, key, os.getpid()), daemon=True)
                    proc.start()
                    child.close()
                    processes.append(proc)
                    conns.append(parent)
                    _PARENT_ENDS.append(parent)
                    idle.put(parent)
            self._pids = [p.pid for p in processes]
            self._finalizer = weakref.finalize(self, _shutdown, processes, conns, key)
            self._idle = idle
            return idle

    @property
    def pids(self) -> List[int]:
        """The worker processes' ids (empty before the first call)."""
        return list(self._pids)

    def __call__(self, *args: Any) -> Any:
        idle = self._idle if self._idle is not None else self._start()
        conn = idle.get()
        try:
            conn.send(args)
            ok, value = conn.recv()
        except (EOFError, OSError) as exc:
            raise RuntimeError(f"a worker process of the map ended unexpectedly ({exc!r}); python_multiprocessing "
                               f"runs the function in {self.workers} forked processes") from None
        finally:
            idle.put(conn)
        if ok:
            return value
        raise value

    def close(self) -> None:
        """Stop the worker processes."""
        if self._finalizer is not None:
            self._finalizer()

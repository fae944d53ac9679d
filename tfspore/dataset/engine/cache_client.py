"""``mindspore.dataset.DatasetCache``: the client of MindSpore's tensor-caching server.

MindSpore caches the rows of a source or map in a separate server process (started with
``dataset-cache --start``) shared by pipelines. tfspore has no such server: ``DatasetCache``
validates MindSpore's arguments and is accepted by every ``cache=`` argument, and the pipeline
then runs uncached (rows are recomputed each epoch). ``tf.data``'s own caching is available
through :func:`tfspore.dataset.from_tf_data` on a ``tf.data.Dataset.cache()`` pipeline.
"""
from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any, Optional

from tfspore._internal import validator as c

__all__ = ["DatasetCache"]

_UINT32_MAX = 4294967295
_UINT64_MAX = 18446744073709551615


class DatasetCache:
    """A cache session for a pipeline (accepted; caching is not performed, see the module docstring).

    Args:
        session_id: The session id (a positive uint32), as ``dataset-cache -g`` prints.
        size: Memory for the cache in MB; 0 for unlimited.
        spilling: Whether to spill to disk when out of memory.
        hostname: Cache server host; None for ``'127.0.0.1'``.
        port: Cache server port in [1025, 65535]; None for 50052.
        num_connections: Number of TCP connections; None for 12.
        prefetch_size: Size of the cache queue; None for 20.

    Raises:
        TypeError: If an argument has a wrong type.
        ValueError: If an argument is out of range.

    Example:
        >>> import tfspore.dataset as ds
        >>> cache = ds.DatasetCache(session_id=1, size=0)
        >>> cache.get_stat().num_mem_cached
        0
    """

    def __init__(self, session_id: int, size: int = 0, spilling: bool = False, hostname: Optional[str] = None,
                 port: Optional[int] = None, num_connections: Optional[int] = None,
                 prefetch_size: Optional[int] = None) -> None:
        api = "DatasetCache"
        c.check_int_range(session_id, "session_id", api, 1, _UINT32_MAX)
        c.check_type(size, (int,), "size", api)
        if size != 0:
            c.check_range(size, "size", api, 1, _UINT64_MAX)
        c.check_type(spilling, (bool,), "spilling", api)
        if hostname is not None:
            c.check_type(hostname, (str,), "hostname", api)
        if port is not None:
            c.check_int_range(port, "port", api, 1025, 65535)
        if num_connections is not None:
            c.check_int_range(num_connections, "num_connections", api, 1, c.INT32_MAX)
        if prefetch_size is not None:
            c.check_int_range(prefetch_size, "prefetch_size", api, 1, c.INT32_MAX)
        self.session_id = session_id
        self.size = size
        self.spilling = spilling
        self.hostname = hostname
        self.port = port
        self.num_connections = num_connections
        self.prefetch_size = prefetch_size

    def get_stat(self) -> Any:
        """Cache statistics: ``avg_cache_sz``, ``num_mem_cached`` and ``num_disk_cached`` (all 0: nothing is cached).

        Returns:
            An object with the three counters as attributes.
        """
        return SimpleNamespace(avg_cache_sz=0, num_mem_cached=0, num_disk_cached=0)

    def __deepcopy__(self, memodict: dict) -> "DatasetCache":
        if id(self) in memodict:
            return memodict[id(self)]
        new = copy.copy(self)
        memodict[id(self)] = new
        return new

    def __repr__(self) -> str:
        return f"DatasetCache(session_id={self.session_id}, size={self.size}, spilling={self.spilling})"

"""Process-wide state shared by Cells: the trace depth and the configuration epoch.

``depth`` counts the constructs (and ``jit`` functions) running on this thread: a Cell called
while it is above zero runs as plain Python inside its caller (inside the caller's trace in
GRAPH_MODE). ``epoch`` is bumped by anything that changes what a compiled Cell would trace
(training flags, hooks, amp flags, mode, replaced variables); each Cell recomputes its cache key
only when the epoch moved, so the per-call cost is one integer comparison.
"""
from __future__ import annotations

import contextlib
import threading

_local = threading.local()
_EPOCH = [0]


def depth() -> int:
    """The number of constructs running on this thread."""
    return getattr(_local, "depth", 0)


@contextlib.contextmanager
def entered():
    """Mark a construct (or traced function) as running on this thread."""
    _local.depth = getattr(_local, "depth", 0) + 1
    try:
        yield
    finally:
        _local.depth -= 1


def bump() -> None:
    """Invalidate the cache keys of every compiled Cell."""
    _EPOCH[0] += 1


def epoch() -> int:
    """The current configuration epoch."""
    return _EPOCH[0]

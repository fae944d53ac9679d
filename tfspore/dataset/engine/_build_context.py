"""The build context of a dataset pipeline: its seeds and shard, one per ``to_tf_dataset`` call.

Nodes draw their build-time seeds (:func:`next_op_seed`, per-row seed constants) and read the
worker's shard from the context of the build in progress, a thread-local stack; outside a build
a default context follows ``ds.config.set_seed``.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Optional, Tuple

import numpy as np

from tfspore.dataset.core import config

__all__ = ["next_op_seed"]


class _BuildContext:
    """State shared by the nodes while one pipeline is built."""

    def __init__(self, shard: Optional[Tuple[int, int]] = None, probe: bool = False, count: bool = False):
        self.shard = shard
        self.probe = probe      # building only to look at the first rows: skip shuffle buffers
        self.count = count      # building only to count: infinite repeats become one pass
        self.seed = config._pipeline_seed()
        self._counter = 0

    def next_seed(self, deterministic: bool = False) -> int:
        """A 31-bit op seed: derived from the pipeline seed, or fresh entropy when unseeded.

        `deterministic` forces a seed derived from MindSpore's default seed (5489) when none is
        set, so that all shards of a distributed job draw the same permutation.
        """
        self._counter += 1
        seed = self.seed
        if seed is None and (deterministic or self.shard is not None):
            seed = config.DEFAULT_SEED
        if seed is None:
            entropy = np.random.SeedSequence().generate_state(1)[0]
            return int(entropy) & 0x7FFFFFFF
        state = np.random.SeedSequence([seed, self._counter]).generate_state(1)[0]
        return int(state) & 0x7FFFFFFF


_LOCAL = threading.local()


@contextlib.contextmanager
def _building(ctx: _BuildContext):
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    stack.append(ctx)
    try:
        yield ctx
    finally:
        stack.pop()


def _context() -> _BuildContext:
    stack = getattr(_LOCAL, "stack", None)
    if stack:
        return stack[-1]
    # Outside to_tf_dataset (a bare _build() or a size query): a default context, renewed when
    # the seed changes.
    ctx = getattr(_LOCAL, "default", None)
    if ctx is None or ctx.seed != config._pipeline_seed():  # pylint: disable=protected-access
        ctx = _LOCAL.default = _BuildContext()
    return ctx


def next_op_seed() -> int:
    """A build-time op seed for nodes and transforms (reproducible after ``ds.config.set_seed``).

    Returns:
        An int in ``[0, 2**31)``.
    """
    return _context().next_seed()

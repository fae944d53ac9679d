"""``tfspore.communication.management``: ranks and groups on ``tf.distribute``.

MindSpore runs one process per device and asks the collective library for its rank; on
TensorFlow the active ``tf.distribute`` strategy owns the devices. ``get_group_size`` is the
strategy's number of replicas; ``get_rank`` is this process's worker index (0 for a single-process
strategy such as ``MirroredStrategy``, which drives all local devices from one process).

Example:
    >>> from tfspore.communication import init, get_rank, get_group_size
    >>> init()
    >>> get_rank(), get_group_size()
    (0, 1)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "create_group", "destroy_group",
           "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_BACKENDS = (None, "hccl", "nccl", "mccl", "gloo")


class GlobalComm:
    """The world group name and whether :func:`init` was called."""

    BACKEND = "nccl"
    WORLD_COMM_GROUP = NCCL_WORLD_COMM_GROUP
    INITED = False


def init(backend_name: str | None = None) -> None:
    """Initialise communication; on TensorFlow the ``tf.distribute`` strategy does the work.

    Raises:
        ValueError: for an unknown backend name.
    """
    if backend_name not in _BACKENDS:
        raise ValueError(f"For 'init', the 'backend_name' must be one of {list(_BACKENDS)}, but got "
                         f"{backend_name!r}.")
    GlobalComm.INITED = True


def release() -> None:
    """Release communication resources (marks the state uninitialised)."""
    GlobalComm.INITED = False


def _strategy() -> tf.distribute.Strategy:
    return tf.distribute.get_strategy()


def get_group_size(group: str | None = None) -> int:
    """The number of replicas in the active ``tf.distribute`` strategy (1 without one)."""
    return int(_strategy().num_replicas_in_sync)


def get_rank(group: str | None = None) -> int:
    """This process's worker index (0 for single-process strategies)."""
    resolver = getattr(_strategy().extended, "_cluster_resolver", None)
    task_id = getattr(resolver, "task_id", None)
    return int(task_id) if task_id is not None else 0


def get_local_rank(group: str | None = None) -> int:
    """The rank within this machine (0: one process drives all local devices)."""
    return 0


def get_local_rank_size(group: str | None = None) -> int:
    """The number of replicas on this machine."""
    return int(_strategy().extended.worker_devices.__len__())


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """Groups are the world group on TensorFlow: the rank is unchanged."""
    return group_rank_id


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """Groups are the world group on TensorFlow: the rank is unchanged."""
    return world_rank_id


def create_group(group: str, rank_ids: Any, options: Any = None) -> None:
    """Sub-groups are not available on ``tf.distribute``.

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError(f"For 'create_group', tfspore uses tf.distribute, which has no communication "
                              f"sub-groups; got group {group!r} with ranks {rank_ids!r}.")


def destroy_group(group: str) -> None:
    """Sub-groups are not available on ``tf.distribute``; nothing to destroy."""

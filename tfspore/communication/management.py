"""``tfspore.communication.management``: ranks and groups on ``tf.distribute``.

MindSpore runs one process per device, started by ``msrun`` or ``mpirun``, and ``init()`` joins
them. tfspore does the same on TensorFlow: in a process started by ``tfspore launch`` (or with
``TF_CONFIG``, or by ``mpirun`` on one host), :func:`init` creates a
``tf.distribute.MultiWorkerMirroredStrategy`` over the processes (gRPC collectives on CPUs, NCCL
on GPUs). As in MindSpore, each process then stays one rank with one device, its own parameters
and its own input pipeline; only its collectives (``ops.AllReduce`` and the others,
``DistributedGradReducer``, the loss-scale overflow check) reach the other processes, through the
strategy's ``run``. :func:`get_rank` and :func:`get_group_size` return this process's rank and the
number of processes.

In a plain process :func:`init` succeeds and the process is rank 0 of 1 (MindSpore raises there).
Inside a user's own ``tf.distribute`` strategy scope the size is that strategy's replica count.
Before :func:`init` the functions read ``RANK_ID``, ``RANK_SIZE``, ``LOCAL_RANK`` and
``LOCAL_RANK_SIZE`` as MindSpore does.

Example:
    >>> from tfspore.communication import init, get_rank, get_group_size
    >>> init()
    >>> get_rank(), get_group_size()
    (0, 1)
"""
from __future__ import annotations

import os
from typing import Any, Optional

import tensorflow as tf

from tfspore import context
from tfspore._internal import cluster

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "create_group", "destroy_group",
           "get_process_group_ranks", "get_comm_name", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_GROUPS = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
_DEVICE_TO_BACKEND = {"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}


class GlobalComm:
    """The communication backend, the world group's name and whether :func:`init` was called.

    ``init()`` sets ``BACKEND`` (``'hccl'``, ``'nccl'`` or ``'mccl'``) and ``WORLD_COMM_GROUP``
    (``'hccl_world_group'``, ``'nccl_world_group'`` or ``'mccl_world_group'``), as in MindSpore.
    """

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


# user groups: name -> the world ranks in the order given
_GROUPS: dict = {}
# the strategy over the cluster, once created ("strategy": None in a plain process)
_CREATED: dict = {}


def _set_rank_from_mpi() -> None:
    """As MindSpore: under ``mpirun``, export OpenMPI's rank, local rank and size as RANK_ID, DEVICE_ID, RANK_SIZE."""
    for ompi, name in (("OMPI_COMM_WORLD_RANK", "RANK_ID"), ("OMPI_COMM_WORLD_LOCAL_RANK", "DEVICE_ID"),
                       ("OMPI_COMM_WORLD_SIZE", "RANK_SIZE")):
        value = os.getenv(ompi)
        if value:
            os.environ[name] = value


_set_rank_from_mpi()
# TensorFlow takes its collective configuration only before its runtime starts: do it on import.
cluster.configure_at_startup()


def _check_group(api: str, group: Any) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def _check_inited(api: str) -> None:
    if not GlobalComm.INITED:
        raise RuntimeError(f"For '{api}', distributed communication has not been inited. You can't invoke this "
                           "interface yet. Please call `init()` method first.")


def _is_world(group: str) -> bool:
    return group in _WORLD_GROUPS


def _user_group(api: str, group: str) -> list:
    ranks = _GROUPS.get(group)
    if ranks is None:
        raise ValueError(f"For '{api}', the group {group!r} does not exist; create it with 'create_group' first "
                         f"(the world group is {GlobalComm.WORLD_COMM_GROUP!r}).")
    return ranks


def _strategy_in_scope() -> Optional[tf.distribute.Strategy]:
    """A user's own ``tf.distribute`` strategy in scope, or None."""
    return tf.distribute.get_strategy() if tf.distribute.has_strategy() else None


def _world_rank() -> int:
    user = _strategy_in_scope()
    if user is not None:
        task_id = getattr(getattr(user.extended, "_cluster_resolver", None), "task_id", None)
        return int(task_id) if task_id is not None else 0
    if cluster.communication_strategy() is not None:
        return cluster.cluster_rank()
    return 0 if GlobalComm.INITED else int(os.getenv("RANK_ID", "0"))


def _world_size() -> int:
    strategy = _strategy_in_scope() or cluster.communication_strategy()
    if strategy is not None:
        return int(strategy.num_replicas_in_sync)
    return 1 if GlobalComm.INITED else int(os.getenv("RANK_SIZE", "1"))


def init(backend_name: Optional[str] = None) -> None:
    """Join the processes of a distributed job (``'hccl'``, ``'nccl'`` or ``'mccl'`` in MindSpore's terms).

    In a process started by ``tfspore launch`` (or with ``TF_CONFIG``, or by ``mpirun`` on one host)
    this creates a ``tf.distribute.MultiWorkerMirroredStrategy`` over all processes, which the
    collectives then use. In a plain process it creates a ``TPUStrategy`` when a TPU is present,
    or a ``MirroredStrategy`` over ``device_num`` local GPUs (or CPUs) when
    ``set_auto_parallel_context(device_num=N)`` asked for N > 1 devices and the process has them;
    that strategy becomes the process's default strategy (build the network after ``init()``),
    ``get_group_size()`` is its replica count and ``Model`` gives each replica its own batch.
    Otherwise it only marks communication as initialised (rank 0 of 1). Calling it again does
    nothing.

    Args:
        backend_name: ``'hccl'`` (Ascend), ``'nccl'`` (GPU) or ``'mccl'`` (CPU); None picks the one of
            the context's ``device_target``. TensorFlow picks the collective implementation itself
            (NCCL on GPUs, gRPC rings on CPUs).

    Raises:
        TypeError: when ``backend_name`` is not a str.
        RuntimeError: for an unknown backend, a backend that does not match ``device_target``, or an
            environment that describes a cluster tfspore cannot join.

    Example:
        >>> from tfspore.communication import init
        >>> init()
    """
    device_target = context.get_context("device_target")
    if backend_name is None:
        backend_name = _DEVICE_TO_BACKEND.get(device_target, "mccl")
    if not isinstance(backend_name, str):
        raise TypeError("For 'init', the argument 'backend_name' must be a string, but got the type : "
                        f"{type(backend_name)}")
    if backend_name not in ("hccl", "nccl", "mccl"):
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', but "
                           f"got 'backend_name' : {backend_name}")
    if backend_name in ("hccl", "nccl") and _DEVICE_TO_BACKEND.get(device_target) != backend_name:
        raise RuntimeError(f"For 'init', the argument 'backend_name' should be "
                           f"'{_DEVICE_TO_BACKEND.get(device_target, 'mccl')}' to init '{device_target}', but got "
                           f"'{backend_name}'.")
    if GlobalComm.INITED:
        return
    if "strategy" not in _CREATED:  # TensorFlow joins a cluster once per process
        _CREATED["strategy"] = cluster.create_strategy(int(context.get_auto_parallel_context("device_num")))
    cluster.set_communication_strategy(_CREATED["strategy"])
    GlobalComm.BACKEND = backend_name
    GlobalComm.WORLD_COMM_GROUP = f"{backend_name}_world_group"
    GlobalComm.INITED = True


def release() -> None:
    """Release the communication state: collectives act on this process alone again.

    The processes stay connected (TensorFlow keeps its collective runtime for the life of the
    process), so a later :func:`init` joins the same job again. A strategy over the local devices
    stops being the default strategy.

    Example:
        >>> from tfspore.communication import init, release
        >>> init()
        >>> release()
    """
    cluster.set_communication_strategy(None)
    GlobalComm.INITED = False


def get_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank in ``group`` (the world group by default).

    Before :func:`init` it is ``RANK_ID`` (0 when unset), as in MindSpore.

    Args:
        group: the world group's name, or a group made by :func:`create_group`.

    Returns:
        int: the rank.

    Raises:
        TypeError: when ``group`` is not a str.
        ValueError: for a group that was not created, or that does not hold this process.

    Example:
        >>> from tfspore.communication import get_rank
        >>> get_rank()
        0
    """
    _check_group("get_rank", group)
    rank = _world_rank()
    if _is_world(group):
        return rank
    return get_group_rank_from_world_rank(rank, group)


def get_group_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of ranks in ``group`` (the world group by default).

    Before :func:`init` it is ``RANK_SIZE`` (1 when unset), as in MindSpore; inside a user's own
    ``tf.distribute`` strategy scope it is the strategy's replica count.

    Args:
        group: the world group's name, or a group made by :func:`create_group`.

    Returns:
        int: the group size.

    Raises:
        TypeError: when ``group`` is not a str.
        ValueError: for a group that was not created.

    Example:
        >>> from tfspore.communication import get_group_size
        >>> get_group_size()
        1
    """
    _check_group("get_group_size", group)
    if _is_world(group):
        return _world_size()
    return len(_user_group("get_group_size", group))


def _check_known_group(api: str, group: Any) -> None:
    """Check that ``group`` is the world group or one made by :func:`create_group`."""
    _check_group(api, group)
    if not _is_world(group):
        _user_group(api, group)


def get_local_rank(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """This process's rank among the job's processes on this host.

    ``tfspore launch`` exports it as ``LOCAL_RANK`` (``mpirun`` as ``OMPI_COMM_WORLD_LOCAL_RANK``);
    0 otherwise.

    Args:
        group: the world group's name.

    Raises:
        TypeError: when ``group`` is not a str.

    Example:
        >>> from tfspore.communication import get_local_rank
        >>> get_local_rank()
        0
    """
    _check_known_group("get_local_rank", group)
    return cluster.local_rank()


def get_local_rank_size(group: str = GlobalComm.WORLD_COMM_GROUP) -> int:
    """The number of the job's processes on this host (``LOCAL_RANK_SIZE``; 1 otherwise).

    Args:
        group: the world group's name.

    Raises:
        TypeError: when ``group`` is not a str.

    Example:
        >>> from tfspore.communication import get_local_rank_size
        >>> get_local_rank_size()
        1
    """
    _check_known_group("get_local_rank_size", group)
    return cluster.local_size()


def _user_group_ranks(api: str, group: str, arg_name: str, rank_id: Any) -> list:
    """The sorted world ranks of the user group ``group``, after checking it and the int ``rank_id``."""
    _check_group(api, group)
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError(f"For '{api}', the argument '{arg_name}' must be type of int, but got '{arg_name}' "
                        f"type : {type(rank_id)}.")
    _check_inited(api)
    if _is_world(group):
        raise ValueError(f"For '{api}', the argument 'group' must not be the world group {group!r}.")
    return sorted(_user_group(api, group))


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of rank ``group_rank_id`` of a group made by :func:`create_group`.

    Raises:
        TypeError: when ``group`` is not a str or ``group_rank_id`` is not an int.
        ValueError: for the world group, a group that was not created, or a rank outside it.
        RuntimeError: before :func:`init`.
    """
    api = "get_world_rank_from_group_rank"
    ranks = _user_group_ranks(api, group, "group_rank_id", group_rank_id)
    if not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For '{api}', the argument 'group_rank_id' must be in [0, {len(ranks)}), but got "
                         f"{group_rank_id}.")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in a group made by :func:`create_group` of world rank ``world_rank_id``.

    Raises:
        TypeError: when ``world_rank_id`` is not an int or ``group`` is not a str.
        ValueError: for the world group, a group that was not created, or a rank outside it.
        RuntimeError: before :func:`init`.
    """
    api = "get_group_rank_from_world_rank"
    ranks = _user_group_ranks(api, group, "world_rank_id", world_rank_id)
    if world_rank_id not in ranks:
        raise ValueError(f"For '{api}', the world rank {world_rank_id} is not in group {group!r} (ranks {ranks}).")
    return ranks.index(world_rank_id)


def create_group(group: str, rank_ids: list, options: Any = None) -> None:
    """Register a group of world ranks; ranks within it are numbered in ascending world-rank order.

    The rank functions accept the group. Collectives over it run when it holds every rank (it is
    then the world group); collectives over a strict subset raise ``NotImplementedError``
    (``tf.distribute`` has no sub-groups yet in tfspore).

    Args:
        group: the group's name.
        rank_ids: the world ranks in the group (a list without duplicates).
        options: accepted for MindSpore compatibility (HCCL settings).

    Raises:
        TypeError: when ``group`` is not a str or ``rank_ids`` is not a list.
        ValueError: for an empty list, duplicates, ranks outside the world, or a name already used
            with other ranks.
        RuntimeError: before :func:`init`.

    Example:
        >>> from tfspore.communication import init, create_group, get_group_size
        >>> init()
        >>> create_group("all", [0])
        >>> get_group_size("all")
        1
    """
    _check_group("create_group", group)
    _check_inited("create_group")
    if group in _GROUPS:
        if rank_ids != _GROUPS[group]:
            raise ValueError(f"The group {group} has been created, the rank_list is {_GROUPS[group]}, but current "
                             f"rank_list for the group is {rank_ids}")
        return
    if not isinstance(rank_ids, list):
        raise TypeError("For 'create_group', the argument 'rank_ids' must be type of list, but got 'rank_ids' type : "
                        f"{type(rank_ids)}.")
    if len(rank_ids) < 1:
        raise ValueError("For 'create_group', the argument 'rank_ids' size should be greater than 1, but got "
                         f"'rank_ids' size : {len(rank_ids)}.")
    if len(set(rank_ids)) != len(rank_ids):
        raise ValueError(f"List rank_ids in Group {group} has duplicate data!")
    size = _world_size()
    bad = [r for r in rank_ids if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < size]
    if bad:
        raise ValueError(f"For 'create_group', the argument 'rank_ids' must hold world ranks in [0, {size}), but got "
                         f"{rank_ids}.")
    if _is_world(group):
        raise ValueError(f"For 'create_group', the argument 'group' must not be the world group {group!r}.")
    _GROUPS[group] = list(rank_ids)


def destroy_group(group: str) -> None:
    """Forget a group made by :func:`create_group`.

    Raises:
        TypeError: when ``group`` is not a str.
        ValueError: for the world group or a group that was not created.
        RuntimeError: before :func:`init`.
    """
    _check_group("destroy_group", group)
    _check_inited("destroy_group")
    if _is_world(group):
        raise ValueError("The world_group does not support destruction.")
    _user_group("destroy_group", group)
    del _GROUPS[group]


def get_process_group_ranks(group: str = GlobalComm.WORLD_COMM_GROUP) -> list:
    """The world ranks in ``group``, ascending.

    Raises:
        TypeError: when ``group`` is not a str.
        ValueError: for a group that was not created.
    """
    _check_group("get_process_group_ranks", group)
    if _is_world(group):
        return list(range(_world_size()))
    return sorted(_user_group("get_process_group_ranks", group))


def get_comm_name(group: str = GlobalComm.WORLD_COMM_GROUP) -> str:
    """The communicator's name: the group's name on TensorFlow.

    Raises:
        TypeError: when ``group`` is not a str.
        RuntimeError: before :func:`init`.
    """
    _check_group("get_comm_name", group)
    _check_inited("get_comm_name")
    if not _is_world(group):
        _user_group("get_comm_name", group)
    return group


def group_ranks(group: str) -> Optional[list]:
    """The world ranks of a group for the collectives: None for the world group or a group holding every rank.

    Raises:
        ValueError: for a group that was not created.
    """
    if _is_world(group):
        return None
    ranks = sorted(_user_group("collective", group))
    return None if ranks == list(range(_world_size())) else ranks

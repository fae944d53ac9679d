"""``tfspore.ops.operations.comm_ops``: collective-communication primitives on ``tf.distribute``.

MindSpore runs one process per device and its collectives talk between processes. On TensorFlow a
``tf.distribute`` strategy runs one replica per device, and these primitives use the replica
context's collectives (``all_reduce``, ``all_gather``) when they run inside ``strategy.run`` with
more than one replica; in a process of a job joined by ``communication.init()`` (one rank per
process, as in MindSpore) they run through that job's strategy and reach every process. Otherwise
(one device, no strategy) they do what MindSpore does with a group of size 1: ``AllReduce`` and
``ReduceScatter`` return the input, ``AllGather`` concatenates one copy (the input), ``Broadcast``
returns its inputs.

Groups: the world group's names, or a group of ``communication.create_group`` that holds every
rank; a group of only some ranks raises ``NotImplementedError`` (no sub-groups yet).

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.AllReduce(ops.ReduceOp.SUM)(Tensor(np.ones((2,), np.float32))).asnumpy()
    array([1., 1.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore._internal import cluster
from tfspore.communication.management import GlobalComm, group_ranks
from tfspore.ops.function._utils import to_tf
from tfspore.ops.primitive import Primitive, PrimitiveWithInfer, prim_attr_register

__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "AlltoAll", "Barrier",
           "CollectiveGather", "CollectiveScatter"]


class ReduceOp:
    """The reduction a collective applies: ``SUM``, ``MAX``, ``MIN``, ``PROD`` or ``AVG`` (strings, as in MindSpore).

    Example:
        >>> from tfspore.ops import ReduceOp
        >>> ReduceOp.SUM
        'sum'
    """

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD, ReduceOp.AVG)


def _check_group(name: str, group: Any) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{name}', the 'group' must be str, but got {type(group).__name__}.")
    return group


def _check_op(name: str, op: Any) -> str:
    if not isinstance(op, str):
        raise TypeError(f"For '{name}', the 'op' must be str, but got {type(op).__name__}.")
    if op not in _OPS:
        raise ValueError(f"For '{name}', the 'op' must be one of {list(_OPS)}, but got {op!r}.")
    return op


def _replica_context() -> tf.distribute.ReplicaContext | cluster.ProcessReplicaContext | None:
    """The active replica context when it has several replicas, else None (a group of size 1)."""
    ctx = cluster.replica_context()
    if ctx is None or ctx.num_replicas_in_sync == 1:
        return None
    return ctx


def _collective(name: str, group: str, fn: Any, *tensors: tf.Tensor) -> Any:
    """``fn(ctx, *tensors)`` with the replica context of all ranks, or ``fn(None, *tensors)`` for a group of one.

    Raises:
        NotImplementedError: for a group that holds only some of the ranks.
    """
    if group_ranks(group) is not None:
        raise NotImplementedError(f"For '{name}', collectives over a group of only some ranks are not available on "
                                  f"tf.distribute yet, but got group {group!r} with ranks {group_ranks(group)}.")
    return fn(_replica_context(), *tensors)


def _gather_stacked(ctx: tf.distribute.ReplicaContext, t: tf.Tensor) -> tf.Tensor:
    """``[num_replicas, *t.shape]``: every replica's ``t``, in replica order."""
    return ctx.all_gather(tf.expand_dims(t, 0), axis=0)


def _all_reduce(ctx: tf.distribute.ReplicaContext, op: str, t: tf.Tensor) -> tf.Tensor:
    if op == ReduceOp.SUM:
        return ctx.all_reduce(tf.distribute.ReduceOp.SUM, t)
    if op == ReduceOp.AVG:
        return ctx.all_reduce(tf.distribute.ReduceOp.MEAN, t)
    stacked = _gather_stacked(ctx, t)
    reduce = {ReduceOp.MAX: tf.reduce_max, ReduceOp.MIN: tf.reduce_min, ReduceOp.PROD: tf.reduce_prod}[op]
    return reduce(stacked, axis=0)



def _reduced_everywhere(prim: Any, x: Any) -> Any:
    """``x`` reduced with ``prim.op`` over the replicas of ``prim.group``, the result on every replica."""
    t = to_tf(x, prim.name, "x")
    return _wrap(_collective(prim.name, prim.group,
                             lambda ctx, v: tf.identity(v) if ctx is None else _all_reduce(ctx, prim.op, v), t))

class AllReduce(Primitive):
    """Reduce a tensor over all replicas; every replica gets the result.

    Args:
        op: a :class:`ReduceOp` value (``'sum'`` by default).
        group: the communication group (all replicas on TensorFlow).

    Raises:
        TypeError: when ``op`` or ``group`` is not a str.
        ValueError: for an unknown ``op``.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor, ops
        >>> ops.AllReduce()(Tensor(np.ones((2,), np.float32))).asnumpy()
        array([1., 1.], dtype=float32)
    """

    @prim_attr_register
    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        _check_op(self.name, op)
        _check_group(self.name, group)
        self.add_prim_attr("fusion", 0)
        self.add_prim_attr("index", 0)
        self.add_prim_attr("no_eliminate", True)

    def __call__(self, x: Any) -> Any:
        return _reduced_everywhere(self, x)


class AllGather(PrimitiveWithInfer):
    """Concatenate every replica's tensor along axis 0 (one copy with a single device).

    Args:
        group: the communication group (all replicas on TensorFlow).

    Raises:
        TypeError: when ``group`` is not a str.
    """

    @prim_attr_register
    def __init__(self, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        _check_group(self.name, group)
        ctx = tf.distribute.get_replica_context()
        strategy = tf.distribute.get_strategy()
        self.add_prim_attr("rank_size", int(strategy.num_replicas_in_sync if ctx is None else ctx.num_replicas_in_sync))
        self.add_prim_attr("fusion", 0)
        self.add_prim_attr("mean_flag", False)
        self.add_prim_attr("no_eliminate", True)

    def __call__(self, x: Any) -> Any:
        t = to_tf(x, self.name, "x")
        if t.shape.rank == 0:
            raise ValueError(f"For '{self.name}', the 'x shape' rank must be positive, but got shape {t.shape}.")
        return _wrap(_collective(self.name, self.group,
                                 lambda ctx, v: tf.identity(v) if ctx is None else ctx.all_gather(v, axis=0), t))


class ReduceScatter(Primitive):
    """Reduce over all replicas, then give replica ``i`` the ``i``-th of ``n`` equal slices along axis 0.

    Args:
        op: a :class:`ReduceOp` value.
        group: the communication group (all replicas on TensorFlow).

    Raises:
        TypeError: when ``op`` or ``group`` is not a str.
        ValueError: when axis 0 does not divide by the number of replicas.
    """

    @prim_attr_register
    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        _check_op(self.name, op)
        _check_group(self.name, group)
        self.add_prim_attr("fusion", 0)
        self.add_prim_attr("no_eliminate", True)

    def __call__(self, x: Any) -> Any:
        return _wrap(_collective(self.name, self.group, self._scatter, to_tf(x, self.name, "x")))

    def _scatter(self, ctx: tf.distribute.ReplicaContext | None, t: tf.Tensor) -> tf.Tensor:
        if ctx is None:
            return tf.identity(t)
        n = ctx.num_replicas_in_sync
        first = t.shape[0] if t.shape.rank else None
        if first is not None and first % n:
            raise ValueError(f"For '{self.name}', the first dimension of the input must be divisible by the group "
                             f"size {n}, but got shape {t.shape.as_list()}.")
        reduced = _all_reduce(ctx, self.op, t)
        parts = tf.reshape(reduced, tf.concat([[n, -1], tf.shape(t)[1:]], 0))
        return tf.gather(parts, ctx.replica_id_in_sync_group)


class Reduce(PrimitiveWithInfer):
    """Reduce over all replicas towards ``dest_rank`` (every replica gets the result on TensorFlow).

    Args:
        dest_rank: the receiving rank.
        op: a :class:`ReduceOp` value.
        group: the communication group (all replicas on TensorFlow).
    """

    @prim_attr_register
    def __init__(self, dest_rank: int, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        if not isinstance(dest_rank, int) or isinstance(dest_rank, bool):
            raise TypeError(f"For '{self.name}', the 'dest_rank' must be int, but got {type(dest_rank).__name__}.")
        _check_op(self.name, op)
        _check_group(self.name, group)

    def __call__(self, x: Any) -> Any:
        return _reduced_everywhere(self, x)


class Broadcast(PrimitiveWithInfer):
    """Send the tensors of ``root_rank`` to every replica: ``Broadcast(root_rank)((x, ...))`` returns a tuple.

    Args:
        root_rank: the sending rank (replica index).
        group: the communication group (all replicas on TensorFlow).

    Raises:
        TypeError: when ``root_rank`` is not an int, or the input is not a tuple of Tensors.
    """

    @prim_attr_register
    def __init__(self, root_rank: int, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        if not isinstance(root_rank, int) or isinstance(root_rank, bool):
            raise TypeError(f"For '{self.name}', the 'root_rank' must be int, but got {type(root_rank).__name__}.")
        _check_group(self.name, group)
        self.add_prim_attr("no_eliminate", True)

    def __call__(self, x: Any) -> tuple:
        if not isinstance(x, (tuple, list)):
            raise TypeError(f"For '{self.name}', the input must be a tuple of Tensors, but got {type(x).__name__}.")
        ts = [to_tf(v, self.name, "x") for v in x]
        out = _collective(self.name, self.group, self._broadcast, *ts)
        return tuple(_wrap(t) for t in out)

    def _broadcast(self, ctx: tf.distribute.ReplicaContext | None, *ts: tf.Tensor) -> tuple:
        if ctx is None:
            return tuple(tf.identity(t) for t in ts)
        n = ctx.num_replicas_in_sync
        if not 0 <= self.root_rank < n:
            raise ValueError(f"For '{self.name}', the 'root_rank' must be in [0, {n}), but got {self.root_rank}.")
        return tuple(_gather_stacked(ctx, t)[self.root_rank] for t in ts)


class AlltoAll(PrimitiveWithInfer):
    """All-to-all: split along ``split_dim``, send piece ``i`` to replica ``i``, concatenate along ``concat_dim``.

    Args:
        split_count: the number of pieces (the group size).
        split_dim: the axis to split.
        concat_dim: the axis to concatenate the received pieces along.
        group: the communication group (all replicas on TensorFlow).

    Raises:
        TypeError: when an argument is not an int.
        ValueError: when ``split_count`` differs from the group size.
    """

    @prim_attr_register
    def __init__(self, split_count: int, split_dim: int, concat_dim: int,
                 group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        for arg, v in (("split_count", split_count), ("split_dim", split_dim), ("concat_dim", concat_dim)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{self.name}', the '{arg}' must be int, but got {type(v).__name__}.")
        _check_group(self.name, group)

    def __call__(self, x: Any) -> Any:
        t = to_tf(x, self.name, "x")
        ctx = _replica_context()
        n = 1 if ctx is None else ctx.num_replicas_in_sync
        if self.split_count != n:
            raise ValueError(f"For '{self.name}', the 'split_count' must equal the group size {n}, but got "
                             f"{self.split_count}.")
        rank = t.shape.rank
        sd, cd = self.split_dim % rank, self.concat_dim % rank
        if ctx is None:
            return _wrap(tf.identity(t))
        stacked = _gather_stacked(ctx, t)                       # [n, ...] every replica's input
        pieces = tf.stack(tf.split(stacked, n, axis=sd + 1))    # [n pieces, n replicas, ...]
        mine = tf.gather(pieces, ctx.replica_id_in_sync_group)  # [n replicas, ...piece]
        return _wrap(tf.concat(tf.unstack(mine, num=n), axis=cd))


class Barrier(PrimitiveWithInfer):
    """Synchronise the replicas (a no-op on TensorFlow: collectives synchronise by themselves).

    Args:
        group: the communication group.
    """

    @prim_attr_register
    def __init__(self, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        _check_group(self.name, group)

    def __call__(self) -> Any:
        return _wrap(tf.constant(0.0))


class CollectiveGather(Primitive):
    """Gather every replica's tensor along axis 0 at ``dest_rank`` (every replica gets it on TensorFlow).

    Args:
        dest_rank: the receiving rank.
        group: the communication group.
    """

    @prim_attr_register
    def __init__(self, dest_rank: int, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        _check_group(self.name, group)

    def __call__(self, x: Any) -> Any:
        return AllGather(self.group)(x)


class CollectiveScatter(Primitive):
    """Split ``src_rank``'s tensor along axis 0 and give replica ``i`` the ``i``-th slice.

    Args:
        src_rank: the sending rank.
        group: the communication group.
    """

    @prim_attr_register
    def __init__(self, src_rank: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        _check_group(self.name, group)

    def __call__(self, x: Any) -> Any:
        t = to_tf(x, self.name, "x")
        ctx = _replica_context()
        if ctx is None:
            return _wrap(tf.identity(t))
        n = ctx.num_replicas_in_sync
        root = _gather_stacked(ctx, t)[self.src_rank]
        parts = tf.reshape(root, tf.concat([[n, -1], tf.shape(t)[1:]], 0))
        return _wrap(tf.gather(parts, ctx.replica_id_in_sync_group))


class _VirtualDataset(PrimitiveWithInfer):
    """Auto-parallel marker for the dataset inputs: returns its inputs."""

    @prim_attr_register
    def __init__(self) -> None:
        """Initialize."""

    def __call__(self, *args: Any) -> Any:
        return args[0] if len(args) == 1 else args

"""The multi-process cluster a tfspore process belongs to, and the ``tf.distribute`` strategy over it.

MindSpore runs one process per device and finds its peers through the environment ``msrun`` or
``mpirun`` sets. tfspore reads the same environment and builds TensorFlow's description of the
cluster from it:

- ``TF_CONFIG`` (set by ``tfspore launch``, or by hand): used as it is;
- OpenMPI's ``OMPI_COMM_WORLD_RANK`` / ``OMPI_COMM_WORLD_SIZE`` (``mpirun -n N python train.py`` on
  one host): a ``TF_CONFIG`` with one gRPC address per rank on ``127.0.0.1``, from port
  ``TFSPORE_MASTER_PORT`` (default 8118) upwards.

TensorFlow accepts its collective-ops configuration only before its runtime starts (before the
first op runs), while MindSpore scripts call ``init()`` after they have built tensors. So
:func:`configure_at_startup` runs when tfspore is imported: when the environment describes a
cluster of several processes, it sets the collective leader and the coordination service (no
network traffic, nothing started). :func:`create_strategy` builds the
``MultiWorkerMirroredStrategy`` later, when ``init()`` asks for it.

A process that is not part of a cluster can still hold several devices: :func:`create_strategy`
then gives a ``TPUStrategy`` when a TPU is present, and a ``MirroredStrategy`` over the local
GPUs (or CPUs) when the script asked for several devices (``device_num``). Such a strategy
becomes the process's default strategy, so the networks built after ``init()`` hold mirrored
variables and tfspore's step engine runs every step through its ``run``.

This module imports nothing from the other tfspore packages.

Example:
    >>> from tfspore._internal import cluster
    >>> cluster.cluster_size()   # a plain process
    1
"""
from __future__ import annotations

import json
import os
from typing import Any, Optional

import tensorflow as tf

__all__ = ["ClusterError", "cluster_size", "cluster_rank", "local_rank", "local_size", "configure_at_startup",
           "create_strategy", "communication_strategy", "set_communication_strategy", "collectives_configured",
           "bridge_strategy", "ProcessReplicaContext", "replica_context", "local_strategy",
           "broadcast_from_rank0"]

_DEFAULT_MASTER_PORT = 8118
_JOBS = ("chief", "worker")
_state: dict = {"strategy": None, "configured": False, "error": None}


class ClusterError(RuntimeError):
    """The environment describes a cluster that tfspore cannot join."""


def _env_int(name: str) -> Optional[int]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise ClusterError(f"The environment variable {name} must be an int, but got {value!r}.") from None


def _tf_config() -> Optional[dict]:
    raw = os.environ.get("TF_CONFIG")
    if not raw:
        return None
    try:
        config = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ClusterError(f"The environment variable TF_CONFIG is not valid JSON ({exc}): {raw!r}.") from None
    if not isinstance(config, dict) or not isinstance(config.get("cluster", {}), dict):
        raise ClusterError(f"The environment variable TF_CONFIG must be a JSON object with a 'cluster' object, "
                           f"but got {raw!r}.")
    return config


def _workers(config: dict) -> list:
    cluster = config.get("cluster", {})
    return [(job, i) for job in _JOBS for i in range(len(cluster.get(job, [])))]


def _ompi_tf_config() -> Optional[str]:
    """A ``TF_CONFIG`` for the ranks of an ``mpirun`` on one host, or None outside ``mpirun``."""
    rank, size = _env_int("OMPI_COMM_WORLD_RANK"), _env_int("OMPI_COMM_WORLD_SIZE")
    if rank is None or size is None or size <= 1:
        return None
    local_size = _env_int("OMPI_COMM_WORLD_LOCAL_SIZE")
    if local_size is not None and local_size != size:
        raise ClusterError(
            f"mpirun started {size} ranks on several hosts ({local_size} on this one): tfspore needs each rank's "
            "address, which OpenMPI's environment does not give. Launch with 'tfspore launch' (one per host, "
            "with --node_rank), or export TF_CONFIG for each rank.")
    port = _env_int("TFSPORE_MASTER_PORT") or _DEFAULT_MASTER_PORT
    workers = [f"127.0.0.1:{port + i}" for i in range(size)]
    return json.dumps({"cluster": {"worker": workers}, "task": {"type": "worker", "index": rank}})


def _cluster() -> Optional[dict]:
    """The ``TF_CONFIG`` of a cluster of several processes (from the environment), or None."""
    config = _tf_config()
    if config is None:
        raw = _ompi_tf_config()
        if raw is None:
            return None
        config = json.loads(raw)
    if len(_workers(config)) <= 1:
        return None
    task = config.get("task", {})
    if task.get("type") not in _JOBS or not isinstance(task.get("index"), int):
        raise ClusterError(f"The 'task' of TF_CONFIG must name a 'worker' or 'chief' task and its int 'index', but "
                           f"got {task!r}.")
    if (task["type"], task["index"]) not in _workers(config):
        raise ClusterError(f"The 'task' {task!r} of TF_CONFIG is not in its cluster {config['cluster']!r}.")
    return config


def _export_tf_config(config: dict) -> None:
    """Put an ``mpirun`` rank's ``TF_CONFIG`` into the environment, where TensorFlow's cluster
    resolver reads it; only when a strategy is configured or made (reading the cluster's size or
    rank leaves the environment as it is)."""
    if not os.environ.get("TF_CONFIG"):
        os.environ["TF_CONFIG"] = json.dumps(config)


def cluster_config() -> Optional[dict]:
    """The ``TF_CONFIG`` of this process's cluster of several processes (from ``TF_CONFIG``, or made
    for an ``mpirun`` rank), or None for a plain process."""
    return _cluster()


def cluster_size() -> int:
    """The number of processes in the cluster (1 for a plain process)."""
    config = _cluster()
    return 1 if config is None else len(_workers(config))


def cluster_rank() -> int:
    """This process's index in the cluster: chief tasks first, then workers (0 for a plain process)."""
    config = _cluster()
    if config is None:
        return 0
    task = config["task"]
    return _workers(config).index((task["type"], task["index"]))


def local_rank() -> int:
    """This process's index among the cluster's processes on this host (``LOCAL_RANK``, else 0)."""
    value = _env_int("LOCAL_RANK")
    if value is None:
        value = _env_int("OMPI_COMM_WORLD_LOCAL_RANK")
    return 0 if value is None else value


def local_size() -> int:
    """The number of the cluster's processes on this host (``LOCAL_RANK_SIZE``, else 1)."""
    value = _env_int("LOCAL_RANK_SIZE")
    if value is None:
        value = _env_int("OMPI_COMM_WORLD_LOCAL_SIZE")
    return 1 if value is None else value


def collectives_configured() -> bool:
    """Whether :func:`configure_at_startup` configured TensorFlow's collectives for a cluster."""
    return bool(_state["configured"])


def configure_at_startup() -> None:
    """Configure TensorFlow's collectives for the environment's cluster, before TensorFlow's runtime starts.

    Does nothing in a plain process, when TensorFlow's runtime already runs, or a second time. An
    environment that describes a cluster tfspore cannot join is remembered and raised by
    :func:`create_strategy`.
    """
    # pylint: disable=import-outside-toplevel
    from tensorflow.python.distribute import multi_worker_util
    from tensorflow.python.eager import context as tf_context
    if _state["configured"]:
        return
    try:
        config = _cluster()
    except ClusterError as exc:
        _state["error"] = exc
        return
    ctx = tf_context.context()
    if config is None or ctx._context_handle is not None:  # pylint: disable=protected-access
        return
    _export_tf_config(config)
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    spec = multi_worker_util.normalize_cluster_spec(resolver.cluster_spec())
    task_type, task_id = resolver.task_type, resolver.task_id
    # The same settings as MultiWorkerMirroredStrategy's, which then leaves them as they are.
    ctx.configure_collective_ops(
        collective_leader=multi_worker_util.collective_leader(spec, task_type, task_id),
        scoped_allocator_enabled_ops=("CollectiveReduce",),
        device_filters=(f"/job:{task_type}/task:{task_id}",))
    timeout_s = _env_int("MS_TOPO_TIMEOUT")
    jobs = [_coordinated_job(job, spec.num_tasks(job)) for job in _JOBS if job in spec.jobs]
    ctx.configure_coordination_service(
        service_type="standalone", service_leader=multi_worker_util.coordination_leader(spec),
        cluster_register_timeout_in_ms=max(timeout_s or 0, 0) * 1000, coordinated_jobs=jobs)
    _state["configured"] = True


def _coordinated_job(name: str, num_tasks: int) -> Any:
    from tensorflow.compiler.xla.tsl.protobuf import coordination_config_pb2  # pylint: disable=import-outside-toplevel
    return coordination_config_pb2.CoordinatedJob(name=name, num_tasks=num_tasks)


def create_strategy(device_num: int = 1) -> Optional[tf.distribute.Strategy]:
    """The ``MultiWorkerMirroredStrategy`` over the environment's cluster, or for a plain process
    :func:`local_strategy` (None when it holds one device).

    Collectives run over gRPC (ring) on CPUs and through NCCL on GPUs. Its variables take rank 0's
    initial values.

    Args:
        device_num: the number of devices a plain process asks for (the auto-parallel context's
            ``device_num``).

    Raises:
        ClusterError: when the environment describes a cluster tfspore cannot join, or when
            TensorFlow's runtime started before tfspore was imported (the collectives can then no
            longer be configured).
    """
    if _state["error"] is not None:
        raise _state["error"]
    config = _cluster()
    if config is None:
        return local_strategy(device_num)
    if not _state["configured"]:
        configure_at_startup()
    if not _state["configured"]:
        raise ClusterError(
            "For 'init', TensorFlow's runtime started before tfspore was imported, so its collectives can no "
            "longer be configured for the cluster in TF_CONFIG. Import tfspore (or mindspore through "
            "'tfspore run' / 'tfspore launch') before running any TensorFlow op.")
    _export_tf_config(config)
    impl = tf.distribute.experimental.CommunicationImplementation
    gpus = tf.config.list_physical_devices("GPU")
    options = tf.distribute.experimental.CommunicationOptions(implementation=impl.NCCL if gpus else impl.RING)
    return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)


def _tpu_name() -> Optional[str]:
    """The TPU to connect to: ``TPU_NAME``, Colab's ``COLAB_TPU_ADDR``, or 'local' on a TPU VM (its chips
    appear as ``/dev/accel0``...); None without a TPU."""
    name = os.environ.get("TPU_NAME")
    if name:
        return name
    if os.environ.get("COLAB_TPU_ADDR"):
        return f"grpc://{os.environ['COLAB_TPU_ADDR']}"
    return "local" if os.path.exists("/dev/accel0") and not os.path.isdir("/dev/accel0") else None


def _tpu_strategy() -> Optional[tf.distribute.Strategy]:
    """A ``TPUStrategy`` over the TPU present (through ``TPUClusterResolver``), or None without one."""
    name = _tpu_name()
    if name is None:
        return None
    try:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=name)
        if name != "local":
            tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
    except (ValueError, RuntimeError, tf.errors.OpError):  # no TPU behind the name after all
        return None
    return tf.distribute.TPUStrategy(resolver)


def local_strategy(device_num: int = 1) -> Optional[tf.distribute.Strategy]:
    """The strategy over this process's own devices, or None for one device.

    A ``TPUStrategy`` when a TPU is present; otherwise, when ``device_num`` is above 1 and the
    process has at least that many GPUs (or, without GPUs, logical CPUs), a ``MirroredStrategy``
    over the first ``device_num`` of them. With fewer devices the process trains on one device,
    as before ``device_num`` was set.

    Args:
        device_num: the number of devices asked for.
    """
    tpu = _tpu_strategy()
    if tpu is not None:
        return tpu
    if device_num <= 1:
        return None
    devices = tf.config.list_logical_devices("GPU") or tf.config.list_logical_devices("CPU")
    if len(devices) < device_num:
        return None
    return tf.distribute.MirroredStrategy([d.name for d in devices[:device_num]])


def communication_strategy() -> Optional[tf.distribute.Strategy]:
    """The strategy ``init()`` created over the cluster or the local devices, or None."""
    return _state["strategy"]


def _is_local(strategy: Optional[tf.distribute.Strategy]) -> bool:
    return strategy is not None and not isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy)


def set_communication_strategy(strategy: Optional[tf.distribute.Strategy]) -> None:
    """Record (or, with None, forget) the strategy ``init()`` created.

    A strategy over the local devices (:func:`local_strategy`) also becomes (or stops being) the
    process's default ``tf.distribute`` strategy.
    """
    previous = _state["strategy"]
    _state["strategy"] = strategy
    if _is_local(previous) and previous is not strategy and tf.distribute.get_strategy() is previous:
        tf.distribute.experimental_set_strategy(None)
    if _is_local(strategy) and tf.distribute.get_strategy() is not strategy:
        tf.distribute.experimental_set_strategy(strategy)



def bridge_strategy() -> Optional[tf.distribute.Strategy]:
    """``init()``'s strategy when the caller runs outside any ``tf.distribute`` strategy, else None.

    A tfspore process of a launched job is one MindSpore rank: it holds one device, its own
    variables and its own input pipeline, and trains as a single process would. Only its
    collectives reach the other ranks, through this strategy's collective launcher (see
    :class:`ProcessReplicaContext`).
    """
    strategy = _state["strategy"]
    if strategy is None or tf.distribute.has_strategy():
        return None
    return strategy



_LAUNCHERS: dict = {}
_EAGER_FNS: dict = {}


def _launcher(base: Any) -> Any:
    """A collective launcher like the strategy's ``base`` (same group, keys and device) whose instance
    keys are fixed when a function is traced.

    The strategy's own launcher feeds each call's instance key when the outermost ``tf.function``
    is called, which a step called through its concrete function's flat call (tfspore's compiled
    steps) does not do. A fixed key per traced collective is what graph-mode collectives used
    before: every rank traces the same program in the same order, so the keys agree.
    """
    from tensorflow.python.distribute import cross_device_utils  # pylint: disable=import-outside-toplevel

    class _TracedKeyLauncher(cross_device_utils.CollectiveReplicaLauncher):
        def _use_unique_instance_key(self) -> bool:
            return False

    if id(base) not in _LAUNCHERS:
        # pylint: disable=protected-access
        _LAUNCHERS[id(base)] = (base, _TracedKeyLauncher(base._group_key, base._group_size, base._collective_keys,
                                                         base._device, base._options))
    return _LAUNCHERS[id(base)][1]


class ProcessReplicaContext:
    """This process's replica of ``init()``'s strategy, for code that runs outside ``strategy.run``.

    It offers what tfspore's collectives use of ``tf.distribute.ReplicaContext``
    (``num_replicas_in_sync``, ``replica_id_in_sync_group``, ``all_reduce``, ``all_gather``) and
    builds each collective with the strategy's own collective launcher (the one ``strategy.run``
    would use), eagerly or inside ``tf.function``, ``tf.cond`` and ``tf.while_loop``.

    Args:
        strategy: the strategy ``init()`` created (one device per process).
    """

    def __init__(self, strategy: tf.distribute.Strategy) -> None:
        extended = strategy.extended
        # pylint: disable=protected-access
        self._launcher = _launcher(extended._cross_device_ops._launchers[0])
        self._options = extended._communication_options
        self._device = extended.worker_devices[0]
        self._size = int(strategy.num_replicas_in_sync)

    @property
    def num_replicas_in_sync(self) -> int:
        """The number of ranks of the job."""
        return self._size

    @property
    def replica_id_in_sync_group(self) -> int:
        """This process's rank."""
        return cluster_rank()

    def all_reduce(self, reduce_op: Any, value: Any) -> Any:
        """``value`` (a tensor or a nest of tensors) summed (``SUM``) or averaged (``MEAN``) over the ranks."""
        op = tf.distribute.ReduceOp(reduce_op.upper() if isinstance(reduce_op, str) else reduce_op)
        flat = [tf.convert_to_tensor(t) for t in tf.nest.flatten(value)]
        out: list = [None] * len(flat)
        by_dtype: dict = {}
        for i, t in enumerate(flat):
            by_dtype.setdefault(t.dtype, []).append(i)
        with tf.device(self._device):
            # one collective per dtype: the tensors travel packed in one flat buffer
            for dtype, indices in by_dtype.items():
                parts = [tf.reshape(flat[i], [-1]) for i in indices]
                packed = self._launcher.all_reduce(tf.concat(parts, 0) if len(parts) > 1 else tf.identity(parts[0]),
                                                   options=self._options)
                if op == tf.distribute.ReduceOp.MEAN:
                    packed = packed / tf.cast(self._size, dtype)
                static = all(flat[i].shape.is_fully_defined() for i in indices)
                sizes = [flat[i].shape.num_elements() if static else tf.size(flat[i]) for i in indices]
                pieces = tf.split(packed, sizes if static else tf.stack(sizes), num=len(parts)) \
                    if len(parts) > 1 else [packed]
                for i, piece in zip(indices, pieces):
                    shape = flat[i].shape if flat[i].shape.is_fully_defined() else tf.shape(flat[i])
                    out[i] = tf.reshape(piece, shape)
        return tf.nest.pack_sequence_as(value, out)

    def all_gather(self, value: Any, axis: int) -> Any:
        """Every rank's ``value`` concatenated along ``axis``, in rank order."""
        def gather(t: Any) -> tf.Tensor:
            with tf.device(self._device):
                return self._launcher.all_gather(tf.identity(t), axis, options=self._options)
        if tf.executing_eagerly():  # TensorFlow's all-gather exists only inside a function
            key = ("gather", axis)
            if key not in _EAGER_FNS:
                _EAGER_FNS[key] = tf.function(gather, autograph=False)
            gather_fn = _EAGER_FNS[key]
            return tf.nest.map_structure(gather_fn, value)
        return tf.nest.map_structure(gather, value)


def replica_context() -> Any:
    """The replica context collectives should use: :class:`ProcessReplicaContext` in a process of a
    job joined by ``init()`` (outside any strategy), else ``tf.distribute.get_replica_context()``."""
    strategy = bridge_strategy()
    return tf.distribute.get_replica_context() if strategy is None else ProcessReplicaContext(strategy)


_BROADCAST_DTYPES = (tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64)


def broadcast_from_rank0(variables: list) -> None:
    """Give each of ``variables`` rank 0's value, in a process of a job joined by ``init()``.

    Every rank sums rank 0's values with zeros from the others (one all-reduce per dtype, exact),
    so every rank must call it with the same variables in the same order. Variables of other
    dtypes (bool, string) keep their values. Does nothing outside such a job (a strategy's own
    variables already start from its first replica's values).

    Args:
        variables: ``tf.Variable`` objects.
    """
    strategy = bridge_strategy()
    if strategy is None:
        return
    chosen = [v for v in variables if v.dtype in _BROADCAST_DTYPES]
    if not chosen:
        return
    root = cluster_rank() == 0
    values = [tf.convert_to_tensor(v) if root else tf.zeros(v.shape, v.dtype) for v in chosen]
    summed = ProcessReplicaContext(strategy).all_reduce(tf.distribute.ReduceOp.SUM, values)
    for var, value in zip(chosen, summed):
        var.assign(value)

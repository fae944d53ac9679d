"""The flag set every example script shares, the context and distribution set-up, one-line errors.

Every training script of ``examples/`` defines the same flags with :func:`define_flags` (each
picks its own defaults for ``--epochs`` and ``--batch_size``), sets tfspore up with
:func:`setup` as a MindSpore script does (``set_context``, ``set_seed``, and for a distributed
run ``init()`` and ``set_auto_parallel_context(parallel_mode=DATA_PARALLEL)``), and starts with
:func:`run` instead of ``absl.app.run``: a bad flag value, missing data or an unusable strategy
then ends the script with one line on stderr (``<script>: error: ...``, exit status 2) instead of
a traceback. ``--helpfull`` lists every flag with its documentation.

==================  =========================================================================
flag                meaning
==================  =========================================================================
``--strategy``      ``none``; ``mirrored`` (one process, the local GPUs: MirroredStrategy);
                    ``multiworker`` (one process per rank, started by ``python -m tfspore launch``
                    or with ``TF_CONFIG``: MultiWorkerMirroredStrategy, each rank reads its shard
                    of the data); ``tpu`` (TPUStrategy)
``--amp_level``     ``Model``'s mixed precision level: O0, O1, O2, O3 or auto
``--sink_size``     0: one step per call; N > 0: dataset sink mode, N steps per compiled call;
                    -1: sink mode, a whole epoch per call
``--mode``          ``graph`` (GRAPH_MODE, compiled steps) or ``pynative``
``--device_target`` CPU, GPU or Ascend (``set_context(device_target=...)``)
``--data_dir``      the data files (format per script), or with ``--tfds_name`` TFDS's data_dir
``--tfds_name``     read a tensorflow-datasets dataset (``ds.TFDSDataset``) instead of files
``--download``      let TFDS download and prepare ``--tfds_name`` when it is not prepared yet
``--ckpt_dir``      ``ModelCheckpoint``'s directory ('' to save no checkpoints)
``--summary_dir``   ``SummaryCollector``'s directory for TensorBoard ('' to record nothing)
``--epochs``        epochs
``--batch_size``    batch size (per rank)
``--seed``          ``set_seed``: weights, data order and any synthetic data
==================  =========================================================================
"""
from __future__ import annotations

import collections
import os
import sys
from typing import Any, Callable

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TensorFlow's C++ start-up notices (before it loads)

from absl import app, flags  # noqa: E402

FLAGS = flags.FLAGS

STRATEGIES = ["none", "mirrored", "multiworker", "tpu"]
AMP_LEVELS = ["O0", "O1", "O2", "O3", "auto"]

Distribution = collections.namedtuple("Distribution", ["rank", "group_size", "shard"])
Distribution.__doc__ = """This process's rank, the number of ranks, and whether it reads a shard of the data."""


class ExampleError(Exception):
    """A user error of an example script (bad flag combination, missing data): printed as one line."""


def define_flags(epochs: int, batch_size: int, data_help: str) -> None:
    """Define the shared flags.

    Args:
        epochs: the script's default ``--epochs``.
        batch_size: the script's default ``--batch_size``.
        data_help: what ``--data_dir`` holds for this script.
    """
    flags.DEFINE_enum("strategy", "none", STRATEGIES,
                      "Distribution: none; mirrored (the local GPUs of one process); multiworker (one process per "
                      "rank, started by `python -m tfspore launch --worker_num N` or with TF_CONFIG; each rank "
                      "reads its shard of the data); tpu (TPUStrategy).")
    flags.DEFINE_enum("amp_level", "O0", AMP_LEVELS, "Model's automatic mixed precision level.")
    flags.DEFINE_integer("sink_size", 0, "0: one training step per call; N > 0: dataset sink mode with N steps per "
                         "compiled call; -1: sink mode with a whole epoch per call.", lower_bound=-1)
    flags.DEFINE_enum("mode", "graph", ["graph", "pynative"],
                      "Execution mode: graph (GRAPH_MODE, compiled steps) or pynative (eager).")
    flags.DEFINE_enum("device_target", "CPU", ["CPU", "GPU", "Ascend"], "set_context(device_target=...).")
    flags.DEFINE_string("data_dir", None, data_help + " With --tfds_name: TFDS's data_dir.")
    flags.DEFINE_string("tfds_name", None, "A tensorflow-datasets name (e.g. cifar10) to read with "
                        "tfspore.dataset.TFDSDataset instead of files.")
    flags.DEFINE_boolean("download", False, "With --tfds_name: download and prepare the dataset if it is not prepared.")
    flags.DEFINE_string("ckpt_dir", "./checkpoints", "ModelCheckpoint's directory ('' saves no checkpoints).")
    flags.DEFINE_string("summary_dir", "./summary", "SummaryCollector's directory, for TensorBoard ('' records "
                        "nothing).")
    flags.DEFINE_integer("epochs", epochs, "Number of epochs.", lower_bound=1)
    flags.DEFINE_integer("batch_size", batch_size, "Mini-batch size (per rank).", lower_bound=1)
    flags.DEFINE_integer("seed", 1, "set_seed: weights, data order and synthetic data.")


def setup() -> Distribution:
    """``set_context``, ``set_seed`` and the ``--strategy`` set-up, as a MindSpore script does them.

    Returns:
        Distribution: the rank, the number of ranks and whether to shard the data.

    Raises:
        ExampleError: when the strategy cannot be set up here (no TPU, no GPU).
    """
    import tfspore as ms  # pylint: disable=import-outside-toplevel
    from tfspore.communication import get_group_size, get_rank, init  # pylint: disable=import-outside-toplevel

    try:
        ms.set_context(mode=ms.GRAPH_MODE if FLAGS.mode == "graph" else ms.PYNATIVE_MODE,
                       device_target=FLAGS.device_target)
    except (ValueError, RuntimeError) as exc:
        raise ExampleError(f"--device_target {FLAGS.device_target}: {exc}") from exc
    ms.set_seed(FLAGS.seed)
    if FLAGS.strategy == "none":
        return Distribution(0, 1, False)
    if FLAGS.strategy == "multiworker":
        init()
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                     device_num=get_group_size())
        return Distribution(get_rank(), get_group_size(), True)
    if FLAGS.strategy == "mirrored":
        import tensorflow as tf  # pylint: disable=import-outside-toplevel
        gpus = len(tf.config.list_logical_devices("GPU"))
        if FLAGS.device_target != "GPU" or gpus < 1:
            raise ExampleError("--strategy mirrored needs --device_target GPU and local GPUs "
                               f"(found {gpus} GPU(s), --device_target {FLAGS.device_target}).")
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                     device_num=gpus)
        init()
        return Distribution(0, get_group_size(), False)
    # tpu
    init()
    import tensorflow as tf  # pylint: disable=import-outside-toplevel
    if not isinstance(tf.distribute.get_strategy(), tf.distribute.TPUStrategy):
        raise ExampleError("--strategy tpu: no TPU found (TPU_NAME is unset or the TPU cannot be reached).")
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    return Distribution(0, get_group_size(), False)


def sink_args() -> dict:
    """``Model.train``'s ``dataset_sink_mode`` and ``sink_size`` for ``--sink_size``."""
    return {"dataset_sink_mode": FLAGS.sink_size != 0, "sink_size": FLAGS.sink_size if FLAGS.sink_size > 0 else -1}


def tfds_dataset(split: str, shard: Distribution, **kwargs: Any) -> Any:
    """``ds.TFDSDataset(--tfds_name, split)`` from ``--data_dir``, this rank's shard when sharding.

    Raises:
        ExampleError: when the dataset is unknown or not prepared (and ``--download`` is off).
    """
    import tfspore.dataset as ds  # pylint: disable=import-outside-toplevel
    shards = {"num_shards": shard.group_size, "shard_id": shard.rank} if shard.shard else {}
    try:
        return ds.TFDSDataset(FLAGS.tfds_name, split=split, data_dir=FLAGS.data_dir, download=FLAGS.download,
                              as_supervised=True, **shards, **kwargs)
    except ValueError as exc:
        raise ExampleError(str(exc).splitlines()[0]) from exc


def require_dir(path: str | None, what: str) -> str:
    """``path`` when it is a directory, else an :class:`ExampleError` naming the flag."""
    if not path or not os.path.isdir(path):
        raise ExampleError(f"--data_dir {path!r} is not a directory ({what}).")
    return path


def _one_line(message: str) -> None:
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "example"
    print(f"{prog}: error: {' '.join(str(message).split())}", file=sys.stderr, flush=True)
    sys.exit(2)


def _parse(argv: list) -> list:
    try:
        return FLAGS(argv)
    except flags.Error as exc:
        _one_line(str(exc))
    return []


def run(main: Callable[[list], Any]) -> None:
    """``absl.app.run(main)`` with one-line errors for bad flags and :class:`ExampleError`.

    Args:
        main: the script's main function.
    """
    def checked(argv: list) -> Any:
        try:
            return main(argv)
        except ExampleError as exc:
            _one_line(str(exc))
        return None

    app.run(checked, flags_parser=_parse)

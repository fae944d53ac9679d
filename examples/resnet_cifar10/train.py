"""Trains the model zoo's ResNet-18 on CIFAR-10 with tfspore, as a MindSpore script does.

The network is ``examples/models/resnet.py`` (the zoo's ``official/cv/ResNet`` ResNet-18, written
against ``import mindspore``, run here through tfspore's import alias). The data are CIFAR-10's
binary files read with ``ds.Cifar10Dataset`` (``--data_dir`` holding ``data_batch_1.bin`` ...
``test_batch.bin``) or a tensorflow-datasets dataset read with ``ds.TFDSDataset``
(``--tfds_name cifar10 --data_dir <TFDS data_dir>``), with the zoo's CIFAR augmentation (random
crop with 4 pixels of padding, horizontal flip, normalisation, HWC to CHW). Training is
``Model(network, loss, Momentum, metrics={"acc"}, amp_level=...).train`` with LossMonitor,
TimeMonitor, ModelCheckpoint and SummaryCollector; the test split is evaluated at the end.

``--strategy multiworker`` runs one process per rank as MindSpore's ``msrun`` does::

    python -m tfspore launch --worker_num 2 examples/resnet_cifar10/train.py --strategy multiworker ...

Each rank calls ``init()``, sets ``set_auto_parallel_context(parallel_mode=DATA_PARALLEL,
gradients_mean=True, device_num=get_group_size())`` and reads its shard of the data
(``num_shards=get_group_size(), shard_id=get_rank()``); checkpoints go to ``<ckpt_dir>/ckpt_<rank>``
as in the zoo's script.

Example:
    python examples/resnet_cifar10/train.py --data_dir ~/cifar-10-batches-bin --epochs 1 --batch_size 32
"""
import os
import sys
import time

from absl import flags
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import flags as example_flags  # noqa: E402  (examples/common)

FLAGS = flags.FLAGS
example_flags.define_flags(epochs=1, batch_size=32, data_help="Directory of CIFAR-10's binary files "
                           "(data_batch_1.bin ... data_batch_5.bin, test_batch.bin).")
flags.DEFINE_enum("network", "resnet18", ["resnet18", "resnet34"], "The zoo's ResNet variant.")
flags.DEFINE_float("lr", 0.01, "Learning rate of Momentum.", lower_bound=0.0)
flags.DEFINE_float("momentum", 0.9, "Momentum of Momentum.", lower_bound=0.0)
flags.DEFINE_integer("num_samples", 0, "Read only the first N images of each split (0: all).", lower_bound=0)
flags.DEFINE_integer("synthetic_size", 0, "N > 0: train on N random 32x32 images (and evaluate on N/4) instead of "
                     "reading data: a smoke test without CIFAR-10.", lower_bound=0)

_MEAN = [0.4914 * 255, 0.4822 * 255, 0.4465 * 255]
_STD = [0.2023 * 255, 0.1994 * 255, 0.2010 * 255]


def _cifar_bin_dir(data_dir):
    """``data_dir`` or its ``cifar-10-batches-bin`` subfolder, whichever holds the .bin files."""
    example_flags.require_dir(data_dir, "CIFAR-10's data_batch_*.bin and test_batch.bin")
    for folder in (data_dir, os.path.join(data_dir, "cifar-10-batches-bin")):
        if os.path.isdir(folder) and any(n.startswith(("data_batch", "test_batch")) and n.endswith(".bin")
                                         for n in os.listdir(folder)):
            return folder
    raise example_flags.ExampleError(f"--data_dir {data_dir!r} holds no CIFAR-10 .bin file (data_batch_1.bin ..., "
                                     "test_batch.bin); pass --tfds_name cifar10 to read TFDS's copy instead.")


def create_dataset(split, dist, batch_size, training):
    """The zoo's CIFAR-10 pipeline: augmentation when training, normalisation, CHW float32, int32 labels."""
    import tfspore as ms
    import tfspore.dataset as ds
    from tfspore.dataset import transforms, vision

    shard = {"num_shards": dist.group_size, "shard_id": dist.rank} if dist.shard else {}
    samples = FLAGS.num_samples or None
    if FLAGS.synthetic_size:
        n = FLAGS.synthetic_size if training else max(FLAGS.synthetic_size // 4, batch_size)
        rng = np.random.RandomState(FLAGS.seed + (0 if training else 1))
        data = ds.NumpySlicesDataset({"image": rng.randint(0, 256, (n, 32, 32, 3)).astype(np.uint8),
                                      "label": rng.randint(0, 10, n).astype(np.int32)},
                                     shuffle=training, **shard)
    elif FLAGS.tfds_name:
        data = example_flags.tfds_dataset(split, dist, shuffle=training, num_samples=samples)
    else:
        try:
            data = ds.Cifar10Dataset(_cifar_bin_dir(FLAGS.data_dir), usage=split, shuffle=training,
                                     num_samples=samples, **shard)
        except (RuntimeError, ValueError) as exc:
            raise example_flags.ExampleError(str(exc).splitlines()[0]) from exc
    ops = [vision.RandomCrop((32, 32), (4, 4, 4, 4)), vision.RandomHorizontalFlip(prob=0.5)] if training else []
    ops += [vision.Rescale(1.0, 0.0), vision.Normalize(mean=_MEAN, std=_STD), vision.HWC2CHW()]
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    data = data.map(ops, input_columns="image")
    data = data.batch(batch_size, drop_remainder=training)
    if data.get_dataset_size() == 0:
        raise example_flags.ExampleError(f"--batch_size {batch_size} is larger than the {split} split of this rank.")
    return data


def main(argv):
    del argv
    if not (FLAGS.synthetic_size or FLAGS.tfds_name or FLAGS.data_dir):
        raise example_flags.ExampleError("no data: pass --data_dir (CIFAR-10 .bin files), --tfds_name cifar10 or "
                                         "--synthetic_size N.")
    if FLAGS.data_dir and not (FLAGS.synthetic_size or FLAGS.tfds_name):
        _cifar_bin_dir(FLAGS.data_dir)  # before TensorFlow loads: a wrong directory fails at once
    dist = example_flags.setup()

    from tfspore import nn
    from tfspore.compat import alias_mindspore
    from tfspore.train import Model
    from tfspore.train.callback import (CheckpointConfig, LossMonitor, ModelCheckpoint, SummaryCollector,
                                        TimeMonitor)

    alias_mindspore()  # examples/models/resnet.py is written against `import mindspore`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models"))
    import resnet  # pylint: disable=import-outside-toplevel

    train_ds = create_dataset("train", dist, FLAGS.batch_size, training=True)
    test_ds = create_dataset("test", dist, FLAGS.batch_size, training=False)
    steps = train_ds.get_dataset_size()
    print(f"rank {dist.rank} of {dist.group_size}: {steps} steps per epoch", flush=True)

    network = getattr(resnet, FLAGS.network)(class_num=10)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(network.trainable_params(), FLAGS.lr, FLAGS.momentum)
    model = Model(network, loss, optimizer, metrics={"acc"}, amp_level=FLAGS.amp_level)

    callbacks = [TimeMonitor(steps), LossMonitor(steps)]
    if FLAGS.ckpt_dir:
        ckpt_dir = os.path.join(FLAGS.ckpt_dir, f"ckpt_{dist.rank}") if dist.group_size > 1 else FLAGS.ckpt_dir
        callbacks.append(ModelCheckpoint(prefix=FLAGS.network, directory=ckpt_dir,
                                         config=CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=2)))
    if FLAGS.summary_dir:
        callbacks.append(SummaryCollector(FLAGS.summary_dir, collect_freq=max(1, steps // 4),
                                          collect_specified_data={"collect_landscape": None}))
    start = time.time()
    model.train(FLAGS.epochs, train_ds, callbacks=callbacks, **example_flags.sink_args())
    print(f"trained {FLAGS.epochs} epoch(s) in {time.time() - start:.1f} s", flush=True)
    accuracy = model.eval(test_ds)["acc"]
    print(f"rank {dist.rank}: test accuracy {accuracy:.4f}", flush=True)


if __name__ == "__main__":
    example_flags.run(main)

"""Trains MindSpore's model-zoo LeNet5 on tfspore.

The network, loss and optimizer are MindSpore's (``nn.Conv2d``,
``nn.SoftmaxCrossEntropyWithLogits``, ``nn.Momentum``), trained with ``Model.train`` on
TensorFlow through tfspore. By default the data are scikit-learn's bundled 8x8 handwritten
digits, upsampled to 1x32x32 like the MNIST pipeline of the model zoo; ``--data_dir`` reads
MNIST idx files instead. The training data flow through ``tfspore.dataset``
(``NumpySlicesDataset`` shuffled and batched with ``drop_remainder=True``, as the model zoo's
``create_dataset``), which runs on ``tf.data``; a directory laid out as ``MnistDataset``
expects it (plain idx files directly in it) is read with ``MnistDataset`` and the model zoo's
transforms.

The callbacks are MindSpore's ``TimeMonitor`` and ``LossMonitor`` (one line per epoch each:
``epoch: 1 step: 224, loss is 0.20...``), ``ModelCheckpoint`` with a ``CheckpointConfig``
saving ``<ckpt_dir>/lenet-<epoch>_<step>.ckpt`` once per epoch in MindSpore's format,
``SummaryCollector``, which writes the run for TensorBoard to ``--summary_dir`` (the loss and
learning rate every ``--summary_freq`` steps, histograms of the first five parameters, the input
images, the compiled graph in GRAPH mode, the test accuracy per epoch and the hyper-parameters;
``tensorboard --logdir ./summary``), and ``EvalAccuracy``, which evaluates and prints the test
accuracy after each epoch (recorded by the SummaryCollector too).

The flags are the set every example shares (``examples/common/flags.py``: ``--strategy``,
``--amp_level``, ``--sink_size``, ``--mode``, ``--device_target``, ``--data_dir`` or
``--tfds_name mnist``, ``--ckpt_dir``, ``--summary_dir``, ``--epochs``, ``--batch_size``,
``--seed``; ``--helpfull`` lists them) plus ``--lr``, ``--momentum`` and ``--summary_freq``.
With ``--strategy multiworker`` each rank trains on its shard of the training data.

Example:
    python examples/lenet/train.py --epochs 2 --mode pynative
"""
import gzip
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TensorFlow's C++ start-up notices, before it loads

from absl import flags  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import tfspore as ms  # noqa: E402
import tfspore.dataset as ds  # noqa: E402
from tfspore import nn  # noqa: E402
from tfspore.train import Model  # noqa: E402
from tfspore.train.callback import (Callback, CheckpointConfig, LossMonitor, ModelCheckpoint,  # noqa: E402
                                     SummaryCollector, TimeMonitor)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import flags as example_flags  # noqa: E402  (examples/common)

FLAGS = flags.FLAGS
example_flags.define_flags(epochs=2, batch_size=32, data_help=(
    "Directory with the MNIST idx files (train-images-idx3-ubyte, ..., optionally gzipped, directly in it or in "
    "train/ and test/). Default: scikit-learn's digits."))
flags.DEFINE_float("lr", 0.01, "Learning rate of Momentum.")
flags.DEFINE_float("momentum", 0.9, "Momentum of Momentum.")
flags.DEFINE_integer("summary_freq", 10, "SummaryCollector's collect_freq: record every N steps.", lower_bound=1)

# Normalisation of the model zoo's MNIST pipeline.
_MEAN, _STD = 0.1307, 0.3081


class LeNet5(nn.Cell):
    """LeNet5 of MindSpore's model zoo (official/cv/lenet/src/lenet.py).

    Args:
        num_class (int): Number of classes. Default: 10.
        num_channel (int): Number of input channels. Default: 1.
        include_top (bool): Whether to add the classification head. Default: True.

    Returns:
        Tensor, the logits, shape (N, num_class).

    Examples:
        >>> LeNet5(num_class=10)
    """

    def __init__(self, num_class=10, num_channel=1, include_top=True):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)

    def construct(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def _to_nchw32(images, scale):
    """(N, H, W) raw pixels -> (N, 1, 32, 32) float32, bilinear resize, rescale and normalise."""
    images = images.astype(np.float32)[..., np.newaxis] / scale
    images = tf.image.resize(images, (32, 32), method="bilinear").numpy()
    images = (images - _MEAN) / _STD
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), dtype=np.float32)


def _shifted_copies(images, shift=2):
    """The images plus copies moved by ``shift`` pixels up, down, left and right (zero filled)."""
    copies = [images]
    for axis, offset in ((2, shift), (2, -shift), (3, shift), (3, -shift)):
        moved = np.roll(images, offset, axis=axis)
        edge = [slice(None)] * images.ndim
        edge[axis] = slice(0, offset) if offset > 0 else slice(offset, None)
        moved[tuple(edge)] = (0.0 - _MEAN) / _STD
        copies.append(moved)
    return np.concatenate(copies)


def _load_digits(seed):
    """scikit-learn's 1797 8x8 digits (pixels 0..16), split 80/20 stratified.

    The 1437 training images are few for 2 epochs of LeNet, so the training split also holds
    copies shifted by 2 pixels each way (7185 images).
    """
    try:
        from sklearn.datasets import load_digits
        from sklearn.model_selection import train_test_split
    except ImportError as exc:
        raise example_flags.ExampleError("scikit-learn is not installed: install it (pip install -e '.[examples]') "
                                         "for the default digits, or pass --data_dir or --tfds_name mnist.") from exc

    digits = load_digits()
    images = _to_nchw32(digits.images, 16.0)
    labels = digits.target.astype(np.int32)
    x_train, x_test, y_train, y_test = train_test_split(
        images, labels, test_size=0.2, random_state=seed, stratify=labels)
    x_train = _shifted_copies(x_train)
    y_train = np.tile(y_train, len(x_train) // len(y_train))
    return (x_train, y_train), (x_test, y_test)


def _read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    ndim = magic & 0xFF
    if magic >> 8 != 0x08:
        raise ValueError(f"{path} is not an unsigned-byte idx file (magic {magic:#x}).")
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def _find_idx(data_dir, split, stem):
    for folder in (os.path.join(data_dir, split), data_dir):
        for name in (stem, stem + ".gz", stem.replace("-idx", ".idx"), stem.replace("-idx", ".idx") + ".gz"):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                return path
    raise FileNotFoundError(f"No MNIST file {stem}[.gz] in {data_dir!r} or {os.path.join(data_dir, split)!r}.")


def _load_mnist(data_dir):
    splits = []
    for split, prefix in (("train", "train"), ("test", "t10k")):
        images = _read_idx(_find_idx(data_dir, split, f"{prefix}-images-idx3-ubyte"))
        labels = _read_idx(_find_idx(data_dir, split, f"{prefix}-labels-idx1-ubyte"))
        splits.append((_to_nchw32(images, 255.0), labels.astype(np.int32)))
    return splits[0], splits[1]


_MNIST_FILES = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                "t10k-labels-idx1-ubyte")


def _mnist_dataset_layout(data_dir):
    """Whether `data_dir` holds the plain idx files directly, as ``ds.MnistDataset`` reads them."""
    return hasattr(ds, "MnistDataset") and all(os.path.isfile(os.path.join(data_dir, f)) for f in _MNIST_FILES)


def create_mnist_dataset(data_dir, usage, batch_size, shuffle):
    """The model zoo's ``create_dataset`` on ``ds.MnistDataset``: 1x32x32 float32 images, int32 labels."""
    from tfspore.dataset import transforms, vision  # pylint: disable=import-outside-toplevel

    data = ds.MnistDataset(data_dir, usage=usage, shuffle=shuffle)
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    data = data.map([vision.Resize((32, 32), interpolation=vision.Inter.LINEAR), vision.Rescale(1.0 / 255.0, 0.0),
                     vision.Rescale(1 / _STD, -_MEAN / _STD), vision.HWC2CHW()], input_columns="image")
    return data.batch(batch_size, drop_remainder=shuffle)


def create_numpy_dataset(images, labels, batch_size, shuffle, shard=None):
    """In-memory arrays as a shuffled, batched ``NumpySlicesDataset`` (remainder dropped when training).

    ``shard`` (num_shards, shard_id) reads one rank's shard of the rows.
    """
    shards = {"num_shards": shard[0], "shard_id": shard[1]} if shard else {}
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=shuffle, **shards)
    return data.batch(batch_size, drop_remainder=shuffle)


def create_tfds_dataset(split, batch_size, shuffle, dist):
    """TFDS's MNIST (``--tfds_name``) with the model zoo's transforms: 1x32x32 float32 images, int32 labels."""
    from tfspore.dataset import transforms, vision  # pylint: disable=import-outside-toplevel

    data = example_flags.tfds_dataset(split, dist if shuffle else dist._replace(shard=False), shuffle=shuffle)
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    data = data.map([vision.Resize((32, 32), interpolation=vision.Inter.LINEAR), vision.Rescale(1.0 / 255.0, 0.0),
                     vision.Rescale(1 / _STD, -_MEAN / _STD), vision.HWC2CHW()], input_columns="image")
    return data.batch(batch_size, drop_remainder=shuffle)


def evaluate_dataset(network, dataset):
    """Top-1 accuracy of ``network`` over a dataset of (image, label) batches, in inference mode."""
    network.set_train(False)
    correct = total = 0
    for image, label in dataset.create_tuple_iterator(num_epochs=1):
        logits = network(image)
        correct += int((logits.asnumpy().argmax(axis=1) == label.asnumpy()).sum())
        total += label.shape[0]
    network.set_train(True)
    return correct / total


def evaluate(network, images, labels, batch_size=1024):
    """Top-1 accuracy of ``network`` on numpy arrays, in inference mode."""
    network.set_train(False)
    correct = 0
    for start in range(0, len(images), batch_size):
        logits = network(ms.Tensor(images[start:start + batch_size]))
        correct += int((logits.asnumpy().argmax(axis=1) == labels[start:start + batch_size]).sum())
    network.set_train(True)
    return correct / len(images)


class EvalAccuracy(Callback):
    """Evaluates and prints the test accuracy after each epoch.

    At each epoch end it computes the top-1 accuracy of ``network`` on ``test_ds``, prints
    ``epoch: <n> accuracy: <acc>`` and puts ``{"accuracy": acc}`` in ``cb_params.metrics``, where
    ``Model.fit`` leaves its validation metrics, so that a SummaryCollector later in the callback
    list records it (``accuracy/auto``, step = global step).

    Args:
        network (Cell): The bare network (logits), evaluated in inference mode.
        test_ds (Dataset): Batches of (image, label) to evaluate on.
    """

    def __init__(self, network, test_ds):
        super().__init__()
        self._network = network
        self._test_ds = test_ds
        self.accuracy = None

    def on_train_epoch_end(self, run_context):
        """Evaluates and prints the accuracy of the epoch."""
        cb_params = run_context.original_args()
        self.accuracy = evaluate_dataset(self._network, self._test_ds)
        cb_params.metrics = {"accuracy": self.accuracy}
        print(f"epoch: {cb_params.cur_epoch_num} accuracy: {self.accuracy:.4f}", flush=True)


def main(argv):
    del argv
    dist = example_flags.setup()  # set_context, set_seed (also seeds the dataset shuffles), --strategy
    shard = (dist.group_size, dist.rank) if dist.shard else None
    if FLAGS.tfds_name:
        train_ds = create_tfds_dataset("train", FLAGS.batch_size, True, dist)
        test_ds = create_tfds_dataset("test", 1024, False, dist)
        n_train = train_ds.get_dataset_size() * FLAGS.batch_size
        n_test = example_flags.tfds_dataset("test", dist._replace(shard=False), shuffle=False).get_dataset_size()
    elif FLAGS.data_dir and _mnist_dataset_layout(example_flags.require_dir(FLAGS.data_dir, "MNIST idx files")):
        train_ds = create_mnist_dataset(FLAGS.data_dir, "train", FLAGS.batch_size, shuffle=True)
        test_ds = create_mnist_dataset(FLAGS.data_dir, "test", 1024, shuffle=False)
        n_train = ds.MnistDataset(FLAGS.data_dir, usage="train").get_dataset_size()
        n_test = ds.MnistDataset(FLAGS.data_dir, usage="test").get_dataset_size()
    else:
        if FLAGS.data_dir:
            try:
                (x_train, y_train), (x_test, y_test) = _load_mnist(FLAGS.data_dir)
            except (OSError, ValueError) as exc:
                raise example_flags.ExampleError(str(exc)) from exc
        else:
            (x_train, y_train), (x_test, y_test) = _load_digits(FLAGS.seed)
        train_ds = create_numpy_dataset(x_train, y_train, FLAGS.batch_size, shuffle=True, shard=shard)
        test_ds = create_numpy_dataset(x_test, y_test, 1024, shuffle=False)
        n_train, n_test = len(x_train), len(x_test)
    steps = train_ds.get_dataset_size()  # drop_remainder=True, as the model zoo's dataset
    if steps == 0:
        raise example_flags.ExampleError(f"--batch_size {FLAGS.batch_size} is larger than the {n_train} training "
                                         "images.")
    print(f"train: {n_train} images, test: {n_test} images, {steps} steps per epoch", flush=True)

    network = LeNet5(10)
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_opt = nn.Momentum(network.trainable_params(), FLAGS.lr, FLAGS.momentum)
    model = Model(network, net_loss, net_opt, metrics={"accuracy"}, amp_level=FLAGS.amp_level)

    sink = example_flags.sink_args()
    # one LossMonitor line per epoch (in sink mode: per compiled call of --sink_size steps)
    callbacks = [TimeMonitor(steps), LossMonitor(1 if sink["dataset_sink_mode"] else steps)]
    ckpoint = None
    if FLAGS.ckpt_dir:
        ckpt_dir = os.path.join(FLAGS.ckpt_dir, f"ckpt_{dist.rank}") if dist.group_size > 1 else FLAGS.ckpt_dir
        config_ck = CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=FLAGS.epochs)
        ckpoint = ModelCheckpoint(prefix="lenet", directory=ckpt_dir, config=config_ck)
        callbacks.append(ckpoint)
    accuracy = EvalAccuracy(network, test_ds)
    callbacks.append(accuracy)
    if FLAGS.summary_dir:
        # the loss, learning rate, weights, input images, graph and hyper-parameters for TensorBoard
        callbacks.append(SummaryCollector(FLAGS.summary_dir, collect_freq=FLAGS.summary_freq,
                                          collect_specified_data={"collect_landscape": None},
                                          custom_lineage_data={"momentum": FLAGS.momentum, "seed": FLAGS.seed}))
    print("============== Starting Training ==============", flush=True)
    start = time.time()
    model.train(FLAGS.epochs, train_ds, callbacks=callbacks, **sink)
    if ckpoint is not None:
        print(f"saved {ckpoint.latest_ckpt_file_name}", flush=True)
    print(f"============== Accuracy: {accuracy.accuracy:.4f} ==============", flush=True)
    print(f"trained {FLAGS.epochs} epochs in {time.time() - start:.1f} s", flush=True)


if __name__ == "__main__":
    example_flags.run(main)

"""Throughput of the MNIST-style tfspore.dataset pipeline against a hand-written tf.data pipeline.

The tfspore pipeline is the training guide's ``create_dataset``: MnistDataset (on idx files
written to a temporary directory) with Resize((32, 32)), Rescale, Rescale, HWC2CHW on the image,
TypeCast(int32) on the label, shuffle(10000) and batch(32, drop_remainder=True). Until
``ds.MnistDataset`` and ``tfspore.dataset.vision`` exist, it uses a NumpySlicesDataset over the
same arrays and equivalent TF-op transforms. The reference is the same work written directly in
tf.data (from_tensor_slices, one parallel map calling the same TF ops, shuffle, batch,
prefetch), so the ratio measures the engine; a second hand-written pipeline with
``tf.image.resize`` shows what the OpenCV-exact Resize costs.

Each pipeline is timed over full epochs (the batches are pulled from Python, as a training loop
does); the table shows batches per second, median of 3 runs, and the last line is one JSON
record for scripts.

Example:
    python bench/dataset_pipeline.py --images 60000 --batch_size 32
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import tfspore as ms  # noqa: E402
import tfspore.dataset as ds  # noqa: E402

_MEAN, _STD = 0.1307, 0.3081


class _TfOp:
    """A transform written as TF ops (stands in for tfspore.dataset.vision while it is missing)."""

    def __init__(self, fn, name):
        self.fn = fn
        self.name = name

    def _tf_apply(self, *tensors):
        return self.fn(*tensors)

    def __repr__(self):
        return self.name


def _fallback_ops():
    resize = _TfOp(lambda x: tf.image.resize(x, (32, 32), method="bilinear"), "Resize")
    rescale = _TfOp(lambda x: tf.cast(x, tf.float32) * (1.0 / 255.0), "Rescale")
    normalize = _TfOp(lambda x: tf.cast(x, tf.float32) * (1 / _STD) - _MEAN / _STD, "Rescale")
    hwc2chw = _TfOp(lambda x: tf.transpose(x, (2, 0, 1)), "HWC2CHW")
    typecast = _TfOp(lambda x: tf.cast(x, tf.int32), "TypeCast")
    return [resize, rescale, normalize, hwc2chw], typecast


def _write_idx(path, array):
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    with open(path, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())


def tfspore_pipeline(images, labels, data_dir, batch_size):
    """The training guide's create_dataset on tfspore.dataset."""
    image_ops, label_op = transform_ops()
    if hasattr(ds, "MnistDataset"):
        data = ds.MnistDataset(data_dir, usage="train")
        kind = "MnistDataset + vision transforms"
    else:
        data = ds.NumpySlicesDataset({"image": images, "label": labels})
        kind = "NumpySlicesDataset + TF-op transforms"
    data = data.map(label_op, input_columns="label")
    data = data.map(image_ops, input_columns="image")
    data = data.shuffle(buffer_size=10000)
    return data.batch(batch_size, drop_remainder=True), kind


def transform_ops():
    """The training guide's transforms: tfspore.dataset.vision's when present, else TF-op stand-ins."""
    try:
        from tfspore.dataset import transforms, vision  # pylint: disable=import-outside-toplevel
    except ImportError:
        return _fallback_ops()
    image_ops = [vision.Resize((32, 32), interpolation=vision.Inter.LINEAR), vision.Rescale(1.0 / 255.0, 0.0),
                 vision.Rescale(1 / _STD, -_MEAN / _STD), vision.HWC2CHW()]
    return image_ops, transforms.TypeCast(ms.int32)


def handwritten_pipeline(images, labels, batch_size, image_ops=None, label_op=None):
    """The same work written directly in tf.data.

    With `image_ops` / `label_op` (transform objects) the map calls their TF ops directly, so the
    comparison measures the engine alone; without, it uses ``tf.image.resize`` and plain math.
    """

    def prep(image, label):
        if image_ops is not None:
            for op in image_ops:
                image = op._tf_apply(image)  # pylint: disable=protected-access
            return image, label_op._tf_apply(label)  # pylint: disable=protected-access
        image = tf.image.resize(image, (32, 32), method="bilinear")
        image = tf.cast(image, tf.float32) * (1.0 / 255.0)
        image = image * (1 / _STD) - _MEAN / _STD
        return tf.transpose(image, (2, 0, 1)), tf.cast(label, tf.int32)

    data = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(len(images))
    data = data.map(prep, num_parallel_calls=tf.data.AUTOTUNE)
    data = data.shuffle(10000).batch(batch_size, drop_remainder=True)
    return data.prefetch(tf.data.AUTOTUNE)


def _time_epoch(make_iter):
    start = time.perf_counter()
    count = 0
    for _ in make_iter():
        count += 1
    return count, time.perf_counter() - start


def measure(name, make_iter, repeats):
    _time_epoch(make_iter)  # warm-up: traces functions, fills caches
    rates = []
    count = 0
    for _ in range(repeats):
        count, seconds = _time_epoch(make_iter)
        rates.append(count / seconds)
    return {"pipeline": name, "batches": count, "batches_per_s": statistics.median(rates)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=60000)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (args.images, 28, 28, 1), dtype=np.uint8)
    labels = rng.integers(0, 10, (args.images,)).astype(np.uint32)
    ms.set_seed(1)
    with tempfile.TemporaryDirectory() as data_dir:
        _write_idx(os.path.join(data_dir, "train-images-idx3-ubyte"), images[..., 0])
        _write_idx(os.path.join(data_dir, "train-labels-idx1-ubyte"), labels)
        _write_idx(os.path.join(data_dir, "t10k-images-idx3-ubyte"), images[:10, ..., 0])
        _write_idx(os.path.join(data_dir, "t10k-labels-idx1-ubyte"), labels[:10])

        ours, kind = tfspore_pipeline(images, labels, data_dir, args.batch_size)
        ours_tf = ours.to_tf_dataset()
        iterator = ours.create_tuple_iterator()  # one iterator, one pass per timing (as Model uses it)
        image_ops, label_op = transform_ops()
        reference = handwritten_pipeline(images, labels, args.batch_size, image_ops, label_op)
        plain = handwritten_pipeline(images, labels, args.batch_size)
        results = [
            measure("tf.data hand-written, same TF ops", lambda: reference, args.repeats),
            measure("tfspore.dataset to_tf_dataset()", lambda: ours_tf, args.repeats),
            measure("tfspore.dataset create_tuple_iterator()", lambda: iterator, args.repeats),
            measure("tf.data hand-written, tf.image.resize", lambda: plain, args.repeats),
        ]

    base = results[0]["batches_per_s"]
    print(f"MNIST-style pipeline, {args.images} images, batch {args.batch_size}, median of {args.repeats} "
          f"epochs; tfspore side: {kind}")
    print(f"{'pipeline':42s} {'batches':>8s} {'batches/s':>10s} {'vs tf.data':>10s}")
    for r in results:
        print(f"{r['pipeline']:42s} {r['batches']:8d} {r['batches_per_s']:10.1f} {r['batches_per_s'] / base:9.2f}x")
    record = {"bench": "dataset_pipeline", "images": args.images, "batch_size": args.batch_size,
              "tfspore_source": kind, "tf_data_batches_per_s": round(base, 2),
              "tfspore_to_tf_dataset_batches_per_s": round(results[1]["batches_per_s"], 2),
              "tfspore_iterator_batches_per_s": round(results[2]["batches_per_s"], 2),
              "tf_data_tf_image_resize_batches_per_s": round(results[3]["batches_per_s"], 2),
              "ratio": round(results[1]["batches_per_s"] / base, 3)}
    print(json.dumps(record))


if __name__ == "__main__":
    main()

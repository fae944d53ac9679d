"""Synthetic data in the model zoo's formats and copies of yaml configs, for tools/zoo_check.py."""
from __future__ import annotations

import json
import os
import re
import struct
import sys
from typing import Sequence

import numpy as np

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

__all__ = ["Raw", "override_yaml", "write_cifar10_bin", "write_image_folder", "write_mindrecord", "write_mnist",
           "write_text_lines", "write_tfrecord", "words"]


# --------------------------------------------------------------------------------------------
# Synthetic data in the zoo's formats.
# --------------------------------------------------------------------------------------------

def write_mnist(root: str, n_train: int = 64, n_test: int = 32, seed: int = 0) -> None:
    """Writes MNIST idx files: ``root/train/train-*-ubyte`` and ``root/test/t10k-*-ubyte``.

    Args:
        root: Folder to write into (created).
        n_train: Number of training images.
        n_test: Number of test images.
        seed: Seed of the random pixels and labels.
    """
    rng = np.random.default_rng(seed)
    for split, prefix, n in (("train", "train", n_train), ("test", "t10k", n_test)):
        folder = os.path.join(root, split)
        os.makedirs(folder, exist_ok=True)
        images = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
        labels = rng.integers(0, 10, size=(n,), dtype=np.uint8)
        with open(os.path.join(folder, f"{prefix}-images-idx3-ubyte"), "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 28, 28))
            f.write(images.tobytes())
        with open(os.path.join(folder, f"{prefix}-labels-idx1-ubyte"), "wb") as f:
            f.write(struct.pack(">II", 2049, n))
            f.write(labels.tobytes())


def _cifar_records(rng: np.random.Generator, n: int) -> bytes:
    labels = rng.integers(0, 10, size=(n, 1), dtype=np.uint8)
    images = rng.integers(0, 256, size=(n, 3 * 32 * 32), dtype=np.uint8)
    return np.concatenate([labels, images], axis=1).tobytes()


def write_cifar10_bin(root: str, records: int = 10000, train_files: int = 1, seed: int = 0) -> None:
    """Writes CIFAR-10 binary batches: ``root/train/data_batch_<i>.bin``, ``root/eval/test_batch.bin``.

    Each record is one label byte followed by a 3x32x32 image, as in ``cifar-10-batches-bin``;
    both folders also hold ``batches.meta.txt``. MindSpore's ``Cifar10Dataset`` (and tfspore's)
    reads 10000 records from every file and rejects a shorter one, so ``records`` stays 10000
    for data those sources read.

    Args:
        root: Folder to write into (created).
        records: Records in each file.
        train_files: Number of training batches (``data_batch_1.bin`` ...).
        seed: Seed of the random pixels and labels.
    """
    rng = np.random.default_rng(seed)
    names = "airplane automobile bird cat deer dog frog horse ship truck".split()
    for split in ("train", "eval"):
        os.makedirs(os.path.join(root, split), exist_ok=True)
        with open(os.path.join(root, split, "batches.meta.txt"), "w") as f:
            f.write("\n".join(names) + "\n")
    for i in range(1, train_files + 1):
        with open(os.path.join(root, "train", f"data_batch_{i}.bin"), "wb") as f:
            f.write(_cifar_records(rng, records))
    with open(os.path.join(root, "eval", "test_batch.bin"), "wb") as f:
        f.write(_cifar_records(rng, records))


def _encode_jpeg(image: np.ndarray) -> bytes:
    try:
        import io

        from PIL import Image
    except ImportError:  # pragma: no cover - PIL ships with the test environment
        import tensorflow as tf
        return tf.io.encode_jpeg(image).numpy()
    buf = io.BytesIO()
    Image.fromarray(image).save(buf, format="JPEG")
    return buf.getvalue()


def write_image_folder(root: str, splits: Sequence[str] = ("train", "val"), num_classes: int = 2,
                       per_class: int = 4, size: int = 40, seed: int = 0) -> None:
    """Writes an ImageFolder tree of JPEGs: ``root/<split>/class_<k>/img_<i>.JPEG``.

    Args:
        root: Folder to write into (created).
        splits: Sub-folders, each a full tree.
        num_classes: Class folders in each split.
        per_class: Images in each class folder.
        size: Height and width of the images.
        seed: Seed of the random pixels.
    """
    rng = np.random.default_rng(seed)
    for split in splits:
        for k in range(num_classes):
            folder = os.path.join(root, split, f"class_{k:03d}")
            os.makedirs(folder, exist_ok=True)
            for i in range(per_class):
                image = rng.integers(0, 256, size=(size, size, 3), dtype=np.uint8)
                with open(os.path.join(folder, f"img_{i}.JPEG"), "wb") as f:
                    f.write(_encode_jpeg(image))


def write_tfrecord(path: str, features: dict, n: int, seed: int = 0) -> None:
    """Writes ``n`` ``tf.train.Example`` records of int64 or float features.

    Args:
        path: File to write (its folder is created).
        features: ``{name: (kind, length, high)}`` with kind ``"int"`` (values in
            ``[0, high)``), ``"ones"`` (int 1s), ``"float"`` (uniform in ``[0, high)``) or
            ``"float_ones"``, or ``"int_as_float"`` (floats of integers in ``[0, high)``).
        n: Number of records.
        seed: Seed of the random values.
    """
    import tensorflow as tf

    rng = np.random.default_rng(seed)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with tf.io.TFRecordWriter(path) as writer:
        for _ in range(n):
            feature = {}
            for name, (kind, length, high) in features.items():
                if kind == "int":
                    values = rng.integers(0, high, size=(length,)).tolist()
                    feature[name] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
                elif kind == "ones":
                    feature[name] = tf.train.Feature(int64_list=tf.train.Int64List(value=[1] * length))
                elif kind == "int_as_float":
                    values = rng.integers(0, high, size=(length,)).astype(np.float32).tolist()
                    feature[name] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
                elif kind == "float":
                    values = (rng.random(length) * high).astype(np.float32).tolist()
                    feature[name] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
                elif kind == "float_ones":
                    feature[name] = tf.train.Feature(float_list=tf.train.FloatList(value=[1.0] * length))
                else:
                    raise ValueError(f"write_tfrecord: unknown feature kind {kind!r} of {name!r}.")
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())


def write_mindrecord(path: str, schema: dict, rows: Sequence[dict]) -> None:
    """Writes ``rows`` to the MindRecord file ``path`` (one shard, named exactly ``path``).

    Uses tfspore's ``mindrecord.FileWriter``, which writes MindSpore's MindRecord format.

    Args:
        path: File to write (its folder is created; an old file is replaced).
        schema: MindRecord schema, ``{name: {"type": "int64", "shape": [-1]}, ...}``.
        rows: Records, ``{name: value}``.
    """
    if _ROOT not in sys.path:
        sys.path.insert(0, _ROOT)
    from tfspore.mindrecord import FileWriter

    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    writer = FileWriter(path, shard_num=1, overwrite=True)
    writer.add_schema(schema, "zoo_check")
    writer.write_raw_data(list(rows))
    writer.commit()


def write_text_lines(path: str, lines: Sequence[str]) -> None:
    """Writes ``lines`` to ``path`` (its folder is created), one a line."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def words(rng: np.random.Generator, n_lines: int, n_words: int = 12) -> list[str]:
    vocab = ("good bad movie film plot actor story great boring fun slow fast music scene "
             "love hate best worst nice dull").split()
    return [" ".join(rng.choice(vocab, size=n_words)) for _ in range(n_lines)]


# --------------------------------------------------------------------------------------------
# Copies of yaml configs with overrides.
# --------------------------------------------------------------------------------------------

class Raw(str):
    """A yaml value written as it is, unquoted (``Raw("mstype.float32")``)."""


def _yaml_scalar(value: object) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_scalar(v) for v in value) + "]"
    return json.dumps(str(value))


_KEY = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z_][\w\-]*)\s*:(?P<rest>.*)$")


def override_yaml(text: str, overrides: dict) -> str:
    """Sets keys of the first document of a yaml config, keeping everything else.

    A key is a top-level name (``epoch_size``) or a dotted path into nested mappings
    (``bert_net_cfg.num_hidden_layers``). Its line ``key: value`` (a value on that one line) is
    replaced by the new value; a top-level key the first document lacks is appended to it. Later
    documents (the zoo's help texts and choices after ``---``) stay as they are.

    Args:
        text: The yaml text.
        overrides: ``{key: value}``; values are bools, numbers, strings, :class:`Raw` text or
            lists of them.

    Returns:
        The new yaml text.

    Raises:
        KeyError: A dotted key whose path the document lacks.
    """
    lines = text.splitlines()
    end = next((i for i, line in enumerate(lines) if line.strip() == "---" and i > 0), len(lines))
    head, tail = lines[:end], lines[end:]
    done = set()
    stack: list[tuple[int, str]] = []  # (indent, key) of the enclosing mappings
    for i, line in enumerate(head):
        m = _KEY.match(line)
        if not m or line.lstrip().startswith("#"):
            continue
        indent = len(m.group("indent").expandtabs())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = ".".join([k for _, k in stack] + [m.group("key")])
        if path in overrides:
            head[i] = f"{m.group('indent')}{m.group('key')}: {_yaml_scalar(overrides[path])}"
            done.add(path)
        rest = m.group("rest").split("#", 1)[0].strip()
        if not rest:
            stack.append((indent, m.group("key")))
    for key, value in overrides.items():
        if key in done:
            continue
        if "." in key:
            raise KeyError(f"override_yaml: the config has no key {key!r}.")
        head.append(f"{key}: {_yaml_scalar(value)}")
    return "\n".join(head + tail) + "\n"

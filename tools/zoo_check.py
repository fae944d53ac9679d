"""Run MindSpore model-zoo training and eval scripts unchanged on tfspore, on tiny synthetic data.

Each entry of :data:`ENTRIES` names a script of the zoo (github ``mindspore-ai/models``), the
data it reads (written here in the script's own format: MNIST idx files, CIFAR-10 ``.bin``
batches, an ImageFolder tree of JPEGs, TFRecord files, text and ``.npy`` files), a copy of its
yaml config with small values (one epoch, small batches, tiny images, ``device_target: CPU``)
and its command-line flags. Every script runs unchanged as
``python -m tfspore run SCRIPT FLAGS...`` in its own working directory under a time limit;
an eval entry takes the newest checkpoint its training entry wrote. The tool prints one line
per script, ``ran to the end`` or ``failed at <file:line>: <last error line>``, and a total,
and writes the results as JSON with ``--json``::

    .venv/bin/python tools/zoo_check.py --zoo /path/to/models --json zoo_check.json
    .venv/bin/python tools/zoo_check.py --zoo /path/to/models --only lenet-train lenet-eval

The zoo's scripts need their own requirements (PyYAML for their configs, and pandas and
easydict for some) in the Python that runs them.
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import glob
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from typing import Callable, Optional, Sequence

import numpy as np

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

__all__ = ["Entry", "ENTRIES", "Raw", "Result", "write_mnist", "write_cifar10_bin", "write_image_folder",
           "write_tfrecord", "write_text_lines", "override_yaml", "parse_failure", "run_entry", "format_line",
           "format_total", "format_markdown", "main"]


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


def write_text_lines(path: str, lines: Sequence[str]) -> None:
    """Writes ``lines`` to ``path`` (its folder is created), one a line."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def _words(rng: np.random.Generator, n_lines: int, n_words: int = 12) -> list[str]:
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


# --------------------------------------------------------------------------------------------
# Entries.
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Entry:
    """One zoo script run.

    Attributes:
        name: Short unique name (``lenet-train``).
        script: Path of the script inside the zoo.
        args: Flags; ``{data}``, ``{work}``, ``{config}`` and ``{ckpt}`` are replaced by the data
            folder, the working folder, the copied config and the newest ``.ckpt`` of the
            ``after`` entry.
        data: Function ``data(folder)`` that writes the script's input data.
        config: Config yaml inside the zoo, copied to ``{config}`` with ``overrides`` applied.
        overrides: Values set in the copied config (``{data}`` and ``{work}`` are replaced in
            string values).
        after: Name of the entry whose checkpoint this one reads; it runs first.
        area: What the script is (cv, nlp, audio, recommendation).
        timeout: Time limit of this entry in seconds, when it needs more than ``--timeout``.
    """

    name: str
    script: str
    args: list = dataclasses.field(default_factory=list)
    data: Optional[Callable[[str], None]] = None
    config: Optional[str] = None
    overrides: dict = dataclasses.field(default_factory=dict)
    after: Optional[str] = None
    area: str = "cv"
    timeout: Optional[float] = None


def _mnist(root: str) -> None:
    write_mnist(root)


def _cifar(train_dir: str = "train", eval_dir: str = "eval") -> Callable[[str], None]:
    def make(root: str) -> None:
        write_cifar10_bin(root)
        for old, new in (("train", train_dir), ("eval", eval_dir)):
            if old != new:
                os.rename(os.path.join(root, old), os.path.join(root, new))
    return make


def _images(splits: Sequence[str] = ("train", "val"), num_classes: int = 2, per_class: int = 4,
            size: int = 40) -> Callable[[str], None]:
    return lambda root: write_image_folder(root, splits, num_classes=num_classes, per_class=per_class, size=size)


def _bert_pretrain(root: str, seq: int = 16, preds: int = 4, vocab: int = 100) -> None:
    write_tfrecord(os.path.join(root, "pretrain", "part-0.tfrecord"), {
        "input_ids": ("int", seq, vocab), "input_mask": ("ones", seq, 2), "segment_ids": ("int", seq, 2),
        "next_sentence_labels": ("int", 1, 2), "masked_lm_positions": ("int", preds, seq),
        "masked_lm_ids": ("int", preds, vocab), "masked_lm_weights": ("float_ones", preds, 1)}, n=8)


def _bert_classifier(root: str, seq: int = 16, vocab: int = 100) -> None:
    spec = {"input_ids": ("int", seq, vocab), "input_mask": ("ones", seq, 2), "segment_ids": ("int", seq, 2),
            "label_ids": ("int", 1, 2)}
    write_tfrecord(os.path.join(root, "train.tfrecord"), spec, n=8)
    write_tfrecord(os.path.join(root, "eval.tfrecord"), spec, n=4, seed=1)


def _ctr_tfrecord(root: str, vocab: int = 1000, line_per_sample: int = 1000) -> None:
    # Criteo as the recommendation scripts store it: each record holds line_per_sample samples
    # of 39 fields.
    spec = {"feat_ids": ("int", 39 * line_per_sample, vocab), "feat_vals": ("float", 39 * line_per_sample, 1.0),
            "label": ("int_as_float", line_per_sample, 2)}
    write_tfrecord(os.path.join(root, "train_part_0.tfrecord"), spec, n=2)
    write_tfrecord(os.path.join(root, "test_part_0.tfrecord"), spec, n=1, seed=1)


def _movie_review(root: str) -> None:
    rng = np.random.default_rng(0)
    write_text_lines(os.path.join(root, "rt-polarity.pos"), _words(rng, 40))
    write_text_lines(os.path.join(root, "rt-polarity.neg"), _words(rng, 40))


def _speech_feats(root: str, length: int = 49, dct: int = 20, classes: int = 12) -> None:
    rng = np.random.default_rng(0)
    for split, n in (("training", 8), ("validation", 4), ("testing", 4)):
        np.save(os.path.join(root, f"{split}_data.npy"), rng.standard_normal((n, length * dct)).astype(np.float32))
        np.save(os.path.join(root, f"{split}_label.npy"), rng.integers(0, classes, size=(n,)).astype(np.int64))


_CPU = {"device_target": "CPU", "enable_modelarts": False, "enable_profiling": False}

# CIFAR-10 files hold 10000 records each: large batches of small images keep an epoch short.
_RESNET_CIFAR = dict(_CPU, epoch_size=1, batch_size=500, warmup_epochs=0, save_checkpoint_epochs=1,
                     train_image_size=16, eval_image_size=16, run_eval=False,
                     data_path="{data}/train", output_dir="{work}/outputs", checkpoint_path="{work}/checkpoint")

# ResNet's eval.py resizes CIFAR-10 images to 224 whatever the config says (its CIFAR dataset
# function takes the training size, which eval.py leaves at 224), over the 10000 records of the
# test file: hours on a small CPU. The eval entries therefore evaluate the CIFAR-10 checkpoint
# through the script's ImageFolder path (`dataset: imagenet2012`), which crops to eval_image_size.
_RESNET_EVAL = dict(_RESNET_CIFAR, dataset="imagenet2012", data_path="{data}/val", batch_size=2,
                    use_label_smooth=False, label_smooth_factor=0.0)

_MOBILENETV2 = dict(_CPU, platform="CPU", dataset_path="{data}", batch_size=4, epoch_size=1, num_workers=1,
                    image_height=32, image_width=32, save_checkpoint_path="{work}/", save_checkpoint_epochs=1)

_MOBILENETV1 = dict(_CPU, dataset_path="{data}", batch_size=4, epoch_size=1, class_num=10, width=32, height=32,
                    save_checkpoint_epochs=1, save_checkpoint_path="{work}/ckpt/")

_VGG16 = dict(_CPU, image_size=[32, 32], num_classes=2, per_batch_size=4, batch_size=4, max_epoch=1,
              warmup_epochs=0, ckpt_interval=2, ckpt_path="{work}/outputs/", log_path="{work}/outputs/",
              output_path="{work}")

_BERT_TINY = {"seq_length": 16, "vocab_size": 100, "hidden_size": 32, "num_hidden_layers": 2,
              "num_attention_heads": 2, "intermediate_size": 64, "max_position_embeddings": 32}

ENTRIES: list[Entry] = [
    # --- cv -----------------------------------------------------------------------------------
    Entry("lenet-train", "research/cv/lenet/train.py", ["--config_path", "{config}"], _mnist,
          "research/cv/lenet/default_config.yaml",
          dict(_CPU, data_path="{data}", ckpt_path="{work}/ckpt", epoch_size=1, batch_size=16,
               save_checkpoint_steps=4)),
    Entry("lenet-eval", "research/cv/lenet/eval.py", ["--config_path", "{config}", "--ckpt_path", "{ckpt}"],
          _mnist, "research/cv/lenet/default_config.yaml", dict(_CPU, data_path="{data}", batch_size=16),
          after="lenet-train"),
    Entry("resnet18-cifar10-train", "official/cv/ResNet/train.py", ["--config_path", "{config}"], _cifar(),
          "official/cv/ResNet/config/resnet18_cifar10_config_gpu.yaml", _RESNET_CIFAR),
    Entry("resnet18-cifar10-eval", "official/cv/ResNet/eval.py",
          ["--config_path", "{config}", "--checkpoint_file_path", "{ckpt}"], _images(("val",), num_classes=10, per_class=1),
          "official/cv/ResNet/config/resnet18_cifar10_config_gpu.yaml",
          _RESNET_EVAL, after="resnet18-cifar10-train"),
    Entry("resnet50-cifar10-train", "official/cv/ResNet/train.py", ["--config_path", "{config}"], _cifar(),
          "official/cv/ResNet/config/resnet50_cifar10_config.yaml", _RESNET_CIFAR),
    Entry("resnet50-cifar10-eval", "official/cv/ResNet/eval.py",
          ["--config_path", "{config}", "--checkpoint_file_path", "{ckpt}"], _images(("val",), num_classes=10, per_class=1),
          "official/cv/ResNet/config/resnet50_cifar10_config.yaml",
          _RESNET_EVAL, after="resnet50-cifar10-train"),
    Entry("mobilenetv2-train", "official/cv/MobileNet/mobilenetv2/train.py", ["--config_path", "{config}"],
          _images(("train", "validation_preprocess")),
          "official/cv/MobileNet/mobilenetv2/default_config_cpu.yaml", _MOBILENETV2),
    Entry("mobilenetv2-eval", "official/cv/MobileNet/mobilenetv2/eval.py",
          ["--config_path", "{config}", "--pretrain_ckpt", "{ckpt}"], _images(("train", "validation_preprocess")),
          "official/cv/MobileNet/mobilenetv2/default_config_cpu.yaml", _MOBILENETV2, after="mobilenetv2-train"),
    Entry("vgg16-imagenet-train", "official/cv/VGG/vgg16/train.py", ["--config_path", "{config}"], _images(),
          "official/cv/VGG/vgg16/imagenet2012_config.yaml", dict(_VGG16, data_dir="{data}/train")),
    Entry("vgg16-imagenet-eval", "official/cv/VGG/vgg16/eval.py", ["--config_path", "{config}", "--pre_trained", "{ckpt}"],
          _images(), "official/cv/VGG/vgg16/imagenet2012_config.yaml", dict(_VGG16, data_dir="{data}/val"),
          after="vgg16-imagenet-train"),
    Entry("mobilenetv1-imagenet-train", "official/cv/MobileNet/mobilenetv1/train.py", ["--config_path", "{config}"],
          _images(("train", "validation_preprocess")), "official/cv/MobileNet/mobilenetv1/default_config_imagenet.yaml",
          _MOBILENETV1),
    Entry("mobilenetv1-imagenet-eval", "official/cv/MobileNet/mobilenetv1/eval.py",
          ["--config_path", "{config}", "--checkpoint_path", "{ckpt}"], _images(("train", "validation_preprocess")),
          "official/cv/MobileNet/mobilenetv1/default_config_imagenet.yaml", _MOBILENETV1,
          after="mobilenetv1-imagenet-train"),
    Entry("googlenet-imagenet-train", "research/cv/googlenet/train.py", ["--config_path", "{config}"], _images(),
          "research/cv/googlenet/imagenet_config.yaml",
          dict(_CPU, train_data_path="{data}/train/", val_data_path="{data}/val/", data_path="{data}", batch_size=4,
               epoch_size=1, num_classes=2, image_height=64, image_width=64, ckpt_save_dir="{work}/ckpt/")),
    Entry("squeezenet-imagenet-train", "research/cv/squeezenet/train.py", ["--config_path", "{config}"],
          _images(), "research/cv/squeezenet/squeezenet_cpu_config.yaml",
          dict(_CPU, data_path="{data}/train", batch_size=4, epoch_size=1, class_num=2,
               checkpoint_path="{work}/checkpoint/", output_path="{work}", width=64, height=64)),
    Entry("densenet121-imagenet-train", "research/cv/densenet/train.py", ["--config_path", "{config}"], _images(),
          "research/cv/densenet/densenet121_config.yaml",
          dict(_CPU, train_data_dir="{data}/train", image_size="64, 64", num_classes=2, per_batch_size=4,
               batch_size=4, max_epoch=1, ckpt_interval=2, save_ckpt_path="{work}/", log_path="{work}/")),
    Entry("inceptionv3-imagenet-train", "official/cv/Inception/inceptionv3/train.py", ["--config_path", "{config}"],
          _images(size=300), "official/cv/Inception/inceptionv3/default_config_cpu.yaml",
          dict(_CPU, ds_type="imagenet", data_path="{data}", dataset_path="{data}/train", output_path="{work}",
               ckpt_path="{work}", batch_size=4, epoch_size=1, num_classes=2, warmup_epochs=0, work_nums=1,
               width=299, height=299)),
    # --- nlp ----------------------------------------------------------------------------------
    Entry("bert-pretrain", "official/nlp/Bert/run_pretrain.py", ["--config_path", "{config}"], _bert_pretrain,
          "official/nlp/Bert/pretrain_config.yaml",
          dict(_CPU, data_dir="{data}/pretrain", dataset_format="tfrecord", epoch_size=1, batch_size=2,
               enable_data_sink="false", enable_lossscale="false", do_shuffle="false", save_checkpoint_steps=2,
               output_path="{work}", save_checkpoint_path="ckpt", bert_network="base", base_batch_size=2,
               **{f"base_net_cfg.{k}": v for k, v in _BERT_TINY.items()},
               **{"base_net_cfg.compute_type": Raw("mstype.float32"), "Lamb.warmup_steps": 1}),
          area="nlp"),
    Entry("bert-classifier", "official/nlp/Bert/run_classifier.py", ["--config_path", "{config}"], _bert_classifier,
          "official/nlp/Bert/task_classifier_cpu_config.yaml",
          dict(_CPU, load_pretrain_checkpoint_path="{ckpt}", do_train="true", do_eval="true", epoch_num=1, num_class=2, train_batch_size=2,
               eval_batch_size=1, dataset_format="tfrecord", train_data_file_path="{data}/train.tfrecord",
               eval_data_file_path="{data}/eval.tfrecord", data_path="{data}",
               save_finetune_checkpoint_path="{work}/ckpt/", output_path="{work}",
               **{f"bert_net_cfg.{k}": v for k, v in _BERT_TINY.items()},
               **{"bert_net_cfg.compute_type": Raw("mstype.float32")}),
          after="bert-pretrain", area="nlp"),
    Entry("transformer-train", "official/nlp/Transformer/train.py", ["--config_path", "{config}"], None,
          "official/nlp/Transformer/default_config.yaml",
          dict(_CPU, data_path="{data}", epoch_size=1, batch_size=2, seq_length=16, vocab_size=100, hidden_size=32,
               num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, max_position_embeddings=32,
               compute_type=Raw("mstype.float32"), enable_lossscale="false", save_checkpoint_steps=2,
               save_checkpoint_path="{work}", bucket_boundaries=[16]),
          area="nlp"),
    Entry("textcnn-mr-train", "research/nlp/textcnn/train.py", ["--config_path", "{config}"], _movie_review,
          "research/nlp/textcnn/mr_config_cpu.yaml",
          dict(_CPU, data_path="{data}", batch_size=8, epoch_size=1, output_path="{work}",
               checkpoint_path="{work}/checkpoint/"),
          area="nlp"),
    # --- audio --------------------------------------------------------------------------------
    Entry("dscnn-train", "research/audio/dscnn/train.py", ["--config_path", "{config}"], _speech_feats,
          "research/audio/dscnn/default_config.yaml",
          dict(_CPU, train_feat_dir="{data}", per_batch_size=4, max_epoch=1, lr_epochs="1",
               save_ckpt_path="{work}/checkpoint", ckpt_interval=1),
          area="audio"),
    # --- recommendation -----------------------------------------------------------------------
    Entry("wide_and_deep-train", "official/recommend/Wide_and_Deep/train.py", ["--config_path", "{config}"],
          _ctr_tfrecord, "official/recommend/Wide_and_Deep/default_config.yaml",
          dict(_CPU, data_path="{data}", dataset_type="tfrecord", epochs=1, batch_size=1000, eval_batch_size=1000,
               vocab_size=1000, emb_dim=8, deep_layer_dim=[32, 16, 16, 8], ckpt_path="{work}/ckpt",
               eval_file_name="{work}/eval.log", loss_file_name="{work}/loss.log"),
          area="recommendation"),
    Entry("deepfm-train", "official/recommend/DeepFM/train.py", ["--config_path", "{config}"], _ctr_tfrecord,
          "official/recommend/DeepFM/default_config.yaml",
          dict(_CPU, dataset_path="{data}", data_format=2, train_epochs=1, batch_size=1000, data_vocab_size=1000,
               data_emb_dim=8, deep_layer_args=Raw('[[32, 16, 16, 8], "relu"]'), ckpt_path="{work}/ckpt",
               eval_file_name="{work}/auc.log", loss_file_name="{work}/loss.log", save_checkpoint_steps=1),
          area="recommendation"),
]


# --------------------------------------------------------------------------------------------
# Running.
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Result:
    """The outcome of one entry.

    Attributes:
        name: The entry's name.
        script: The script inside the zoo.
        status: ``"ok"`` (ran to the end), ``"failed"``, ``"timeout"`` or ``"not run"``.
        where: ``file:line`` of the innermost frame of the last traceback, or ``""``.
        error: The last error line (or why it did not run).
        seconds: Wall time of the run.
        returncode: The exit status (``None`` when it did not run or timed out).
        command: The command line that ran.
        workdir: The working folder (its ``run.log`` holds the output).
    """

    name: str
    script: str
    status: str
    where: str = ""
    error: str = ""
    seconds: float = 0.0
    returncode: Optional[int] = None
    command: list = dataclasses.field(default_factory=list)
    workdir: str = ""


_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')


def _short_path(path: str, zoo: str) -> str:
    path = os.path.abspath(path) if not path.startswith("<") else path
    for base in (zoo, _ROOT):
        base = os.path.abspath(base) + os.sep
        if path.startswith(base):
            return path[len(base):]
    marker = os.sep + "site-packages" + os.sep
    if marker in path:
        return path.split(marker, 1)[1]
    return path


def _is_machinery(path: str) -> bool:
    # Frames of the import system and of the alias hook: an import error is reported at the
    # script line that imported the missing module.
    return path.startswith("<frozen ") or path.replace(os.sep, "/").endswith(
        ("tfspore/compat.py", "tfspore/__main__.py", "/runpy.py"))


def parse_failure(log: str, zoo: str = "") -> tuple[str, str]:
    """Finds where a failed run stopped: ``(file:line, last error line)``.

    The place is the innermost frame of the last Python traceback in ``log``, leaving out the
    import machinery and tfspore's import hook (files under the zoo or the repository shortened
    to their relative paths); the error is the exception line
    that ends that traceback. Without a traceback the place is ``""`` and the error is the last
    non-empty line.

    Args:
        log: The run's output (stdout and stderr together).
        zoo: The zoo folder, for shortening paths.

    Returns:
        ``(where, error)``.
    """
    lines = log.splitlines()
    start = max((i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")),
                default=None)
    if start is None:
        last = next((line.strip() for line in reversed(lines) if line.strip()), "")
        return "", last
    where, error = "", ""
    i = start + 1
    while i < len(lines):
        line = lines[i]
        m = _FRAME.match(line)
        if m and not _is_machinery(m.group("file")):
            where = f"{_short_path(m.group('file'), zoo)}:{m.group('line')}"
        elif line and not line[0].isspace():
            error = line.strip()
            break
        i += 1
    if not error:
        error = next((line.strip() for line in reversed(lines) if line.strip()), "")
    return where, error


def _fill(value: object, subst: dict) -> object:
    if isinstance(value, str):
        kind = type(value)
        for key, rep in subst.items():
            value = value.replace("{" + key + "}", rep)
        value = kind(value)  # a Raw value stays Raw
    return value


def _newest_ckpt(folder: str) -> Optional[str]:
    found = glob.glob(os.path.join(folder, "**", "*.ckpt"), recursive=True)
    return max(found, key=lambda p: (os.path.getmtime(p), p)) if found else None


def run_entry(entry: Entry, zoo: str, workdir: str, timeout: float, python: str,
              ckpt_from: Optional[str] = None) -> Result:
    """Writes the entry's data and config into ``workdir`` and runs its script there.

    Args:
        entry: What to run.
        zoo: The zoo folder.
        workdir: An empty working folder for this run.
        timeout: Time limit of the run in seconds.
        python: The Python that runs ``-m tfspore run``.
        ckpt_from: Working folder of the ``after`` entry, searched for its newest checkpoint.

    Returns:
        The run's :class:`Result`; the output is in ``workdir/run.log``.
    """
    script = os.path.join(zoo, entry.script)
    result = Result(entry.name, entry.script, "not run", workdir=workdir)
    data_dir = os.path.join(workdir, "data")
    subst = {"data": data_dir, "work": workdir}
    if entry.after is not None:
        ckpt = _newest_ckpt(ckpt_from) if ckpt_from else None
        if ckpt is None:
            result.error = f"no checkpoint from {entry.after}"
            return result
        subst["ckpt"] = ckpt
    os.makedirs(data_dir, exist_ok=True)
    if entry.data is not None:
        entry.data(data_dir)
    if entry.config is not None:
        with open(os.path.join(zoo, entry.config), encoding="utf-8") as f:
            text = f.read()
        overrides = {k: _fill(v, subst) for k, v in entry.overrides.items()}
        subst["config"] = os.path.join(workdir, os.path.basename(entry.config))
        with open(subst["config"], "w", encoding="utf-8") as f:
            f.write(override_yaml(text, overrides))
    args = [str(_fill(a, subst)) for a in entry.args]
    command = [python, "-m", "tfspore", "run", script, *args]
    result.command = command
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("CUDA_VISIBLE_DEVICES", "")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    log_path = os.path.join(workdir, "run.log")
    start = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            result.returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            result.returncode = None
    result.seconds = time.monotonic() - start
    with open(log_path, encoding="utf-8", errors="replace") as f:
        log_text = f.read()
    if result.returncode == 0:
        result.status = "ok"
        return result
    result.where, result.error = parse_failure(log_text, zoo)
    if result.returncode is None:
        result.status = "timeout"
        result.error = f"timed out after {timeout:g} s (last line: {result.error})"
    else:
        result.status = "failed"
        if not result.where:
            how = (f"killed by signal {-result.returncode}" if result.returncode < 0
                   else f"exited with status {result.returncode}")
            result.error = f"{how} (last line: {result.error})"
    return result


def format_line(result: Result, width: int = 28) -> str:
    """One table line: the name, then ``ran to the end`` or where and why it failed."""
    if result.status == "ok":
        what = f"ran to the end ({result.seconds:.0f} s)"
    elif result.status == "not run":
        what = f"not run: {result.error}"
    else:
        where = f" at {result.where}" if result.where else ""
        what = f"failed{where}: {result.error}"
    return f"{result.name:<{width}} {what}"


def format_total(results: Sequence[Result]) -> str:
    """The total line: how many scripts ran to the end."""
    ok = sum(r.status == "ok" for r in results)
    return f"total: {ok} of {len(results)} scripts ran to the end"


def format_markdown(results: Sequence[Result], areas: dict) -> str:
    """The results as a markdown table (entry, script, area, result) followed by the total."""
    rows = ["| entry | script | area | result |", "|---|---|---|---|"]
    for r in results:
        line = format_line(r, 0)[len(r.name):].strip().replace("|", "\\|")
        rows.append(f"| {r.name} | `{r.script}` | {areas.get(r.name, '')} | {line} |")
    return "\n".join(rows) + "\n\n" + format_total(results) + "\n"


def _zoo_commit(zoo: str) -> str:
    try:
        out = subprocess.run(["git", "-C", zoo, "rev-parse", "--short=9", "HEAD"], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def _select(entries: Sequence[Entry], only: Sequence[str]) -> list[Entry]:
    by_name = {e.name: e for e in entries}
    unknown = [n for n in only if n not in by_name]
    if unknown:
        raise SystemExit(f"zoo_check: the argument '--only' must name entries of the list, but got "
                         f"{unknown[0]!r} (known: {', '.join(by_name)}).")
    wanted = set(only)
    for name in list(only):
        after = by_name[name].after
        while after is not None and after not in wanted:
            wanted.add(after)
            after = by_name[after].after
    return [e for e in entries if e.name in wanted]


def main(argv: Optional[Sequence[str]] = None, entries: Optional[Sequence[Entry]] = None) -> int:
    """Command line entry point; returns 0 when every selected script ran to the end, else 1."""
    parser = argparse.ArgumentParser(prog="zoo_check.py", description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", required=True, help="folder of the model zoo (mindspore-ai/models)")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME",
                        help="run only these entries (and the training runs their evals need)")
    parser.add_argument("--timeout", type=float, default=240.0, help="time limit of each script in seconds")
    parser.add_argument("--workdir", default=None, help="folder for the working folders (kept); "
                        "default: a temporary folder, removed at the end")
    parser.add_argument("--json", default=None, metavar="OUT", help="write the results to this JSON file")
    parser.add_argument("--markdown", default=None, metavar="OUT", help="write the results as a markdown table")
    parser.add_argument("--python", default=sys.executable, help="Python that runs the scripts")
    parser.add_argument("--list", action="store_true", help="list the entries and exit")
    args = parser.parse_args(argv)
    entries = list(ENTRIES if entries is None else entries)
    if args.list:
        for e in entries:
            print(f"{e.name:<28} {e.script}")
        return 0
    zoo = os.path.abspath(args.zoo)
    if not os.path.isdir(zoo):
        parser.error(f"the argument '--zoo' must be a folder, but got {args.zoo!r}")
    if args.timeout <= 0:
        parser.error(f"the argument '--timeout' must be positive, but got {args.timeout!r}")
    selected = _select(entries, args.only) if args.only else entries
    base = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="zoo_check_")
    os.makedirs(base, exist_ok=True)
    width = max([28] + [len(e.name) for e in selected])
    results: list[Result] = []
    workdirs: dict[str, str] = {}
    started = time.time()
    try:
        for entry in selected:
            workdir = os.path.join(base, entry.name)
            if os.path.exists(workdir):
                shutil.rmtree(workdir)
            os.makedirs(workdir)
            workdirs[entry.name] = workdir
            timeout = max(args.timeout, entry.timeout) if entry.timeout else args.timeout
            result = run_entry(entry, zoo, workdir, timeout, args.python,
                               ckpt_from=workdirs.get(entry.after) if entry.after else None)
            results.append(result)
            print(format_line(result, width), flush=True)
        print(format_total(results), flush=True)
        if args.json:
            report = {
                "date": datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime(
                    "%Y-%m-%d %H:%M UTC"),
                "zoo": zoo,
                "zoo_commit": _zoo_commit(zoo),
                "command": [os.path.basename(sys.argv[0] or "zoo_check.py")] + list(argv if argv is not None
                                                                                  else sys.argv[1:]),
                "ran_to_the_end": sum(r.status == "ok" for r in results),
                "total": len(results),
                "results": [dict(dataclasses.asdict(r), area=next(e.area for e in selected if e.name == r.name),
                                 line=format_line(r, width)) for r in results],
            }
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(report, f, indent=2)
                f.write("\n")
        if args.markdown:
            with open(args.markdown, "w", encoding="utf-8") as f:
                f.write(format_markdown(results, {e.name: e.area for e in selected}))
    finally:
        if not args.workdir:
            shutil.rmtree(base, ignore_errors=True)
    return 0 if results and all(r.status == "ok" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

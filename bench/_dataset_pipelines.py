"""The dataset runner's pipelines, written once against MindSpore's dataset API, and their data.

``bench/dataset_runner.py`` builds every pipeline here twice from the same code: with
``tfspore.dataset`` in its own process and with real MindSpore's ``mindspore.dataset`` in a
child process (MindSpore 2.10's dataset module needs numpy < 2). This module imports numpy only;
the framework's modules come in as an :class:`Api` namespace.

The data is synthetic, written once by :func:`write_data` into one folder:

* ``mnist/``: MNIST idx files (``train-*``), 28x28 grey images;
* ``cifar/``: one CIFAR-10 binary batch (``data_batch_1.bin``, 10,000 records);
* ``folder/``: an image folder of 1,024 JPEGs of 96x128 in 4 classes;
* ``text.mindrecord``: a MindRecord file of English-like sentences and labels, and ``vocab.txt``.
"""
from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any, Dict, List

import numpy as np

Api = SimpleNamespace  # ds, vision, transforms, text, mstype

BATCH = 32
CIFAR_MEAN = [125.307, 122.961, 113.8575]
CIFAR_STD = [51.5865, 50.847, 51.255]
IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]
TEXT_LEN = 64
GENERATOR_ROWS = 2048
FOLDER_IMAGES = 1024

# name: (description, rows per epoch is found from the pipeline)
DESCRIPTIONS = {
    "mnist": "MnistDataset (idx) + Rescale, Normalize, HWC2CHW; TypeCast label; batch 32",
    "cifar10": "Cifar10Dataset (.bin) + RandomCrop(32, padding=4), RandomHorizontalFlip, Normalize, HWC2CHW; batch 32",
    "imagefolder": "ImageFolderDataset 1,024 JPEG 96x128 + Decode, RandomCrop(80, padding=4), RandomHorizontalFlip, "
                   "Resize(64), Rescale, Normalize, HWC2CHW; batch 32, num_parallel_workers=2",
    "generator": "GeneratorDataset (random access) + Python map (GIL-bound), num_parallel_workers=2, "
                 "python_multiprocessing=True; batch 32",
    "mindrecord_text": "MindDataset (text, label) + BertTokenizer, Lookup, PadEnd(64); batch 32",
}


# ------------------------------------------------------------------------------------- data
def _write_idx(path: str, array: np.ndarray) -> None:
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    with open(path, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())


def _words(rng: np.random.Generator, count: int) -> List[str]:
    syllables = ["ka", "to", "ri", "mon", "sel", "va", "pre", "dun", "lo", "est", "qui", "ber", "nal", "ti", "gor"]
    words = set()
    while len(words) < count:
        n = int(rng.integers(1, 4))
        words.add("".join(syllables[int(i)] for i in rng.integers(0, len(syllables), n)))
    return sorted(words)


def vocab_list(data_dir: str) -> List[str]:
    with open(os.path.join(data_dir, "vocab.txt"), encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.rstrip("\n")]


def write_data(data_dir: str, mnist_rows: int = 30000, text_rows: int = 4096, seed: int = 0) -> Dict[str, Any]:
    """Write every data set of the runner under `data_dir` (MindRecord through `file_writer`)."""
    rng = np.random.default_rng(seed)
    mnist = os.path.join(data_dir, "mnist")
    os.makedirs(mnist, exist_ok=True)
    _write_idx(os.path.join(mnist, "train-images-idx3-ubyte"), rng.integers(0, 256, (mnist_rows, 28, 28), np.uint8))
    _write_idx(os.path.join(mnist, "train-labels-idx1-ubyte"), rng.integers(0, 10, (mnist_rows,), np.uint8))

    cifar = os.path.join(data_dir, "cifar")
    os.makedirs(cifar, exist_ok=True)
    records = rng.integers(0, 256, (10000, 3073), np.uint8)
    records[:, 0] %= 10
    records.tofile(os.path.join(cifar, "data_batch_1.bin"))

    from PIL import Image  # pylint: disable=import-outside-toplevel
    folder = os.path.join(data_dir, "folder")
    smooth = np.linspace(0, 1, 128)[None, :, None] * np.linspace(0, 1, 96)[:, None, None]
    for i in range(FOLDER_IMAGES):
        cls = os.path.join(folder, f"class{i % 4}")
        os.makedirs(cls, exist_ok=True)
        noise = rng.integers(0, 60, (96, 128, 3))
        pixels = np.clip(smooth * rng.integers(100, 200, (1, 1, 3)) + noise, 0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(os.path.join(cls, f"img{i:04d}.jpg"), quality=90)

    words = _words(rng, 3000)
    known = words[:2400]  # the rest reach the tokenizer as word pieces or [UNK]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", ".", ","] + known + ["##" + s for s in
                                                                    ("ka", "to", "ri", "mon", "sel", "s", "ed")]
    with open(os.path.join(data_dir, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(vocab) + "\n")
    texts = []
    for _ in range(text_rows):
        n = int(rng.integers(20, 48))
        picked = [words[int(i)] for i in rng.integers(0, len(words), n)]
        picked[0] = picked[0].capitalize()
        texts.append(" ".join(picked[: n // 2]) + ", " + " ".join(picked[n // 2:]) + ".")
    labels = rng.integers(0, 3, (text_rows,)).astype(np.int32)
    return {"texts": texts, "labels": labels}


def write_mindrecord(file_writer: Any, data_dir: str, texts: List[str], labels: np.ndarray) -> str:
    """Write the text rows with a MindSpore-API ``FileWriter`` class; returns the file path."""
    path = os.path.join(data_dir, "text.mindrecord")
    writer = file_writer(path, shard_num=1, overwrite=True)
    writer.add_schema({"text": {"type": "string"}, "label": {"type": "int32"}}, "text rows")
    writer.write_raw_data([{"text": t, "label": int(l)} for t, l in zip(texts, labels)])
    writer.commit()
    return path


# ------------------------------------------------------------------------------------- GIL-bound map
def gil_augment(image: np.ndarray) -> np.ndarray:
    """A Python augmentation that holds the GIL: a pure-Python checksum over the pixels, then a shift."""
    acc = 0
    for value in image.reshape(-1).tolist():
        acc = (acc * 31 + value) % 65521
    return image.astype(np.float32) * np.float32(1 / 255) + np.float32((acc % 7) * 0.01)


class GeneratorSource:
    """A random-access source of small images (built from the index, no I/O)."""

    def __init__(self, rows: int = GENERATOR_ROWS):
        self.rows = rows
        base = np.random.default_rng(1).integers(0, 256, (64, 32, 32, 3), np.uint8)
        self.base = base

    def __getitem__(self, index):
        i = int(index)
        return self.base[i % 64], np.int32(i % 10)

    def __len__(self):
        return self.rows


# ------------------------------------------------------------------------------------- pipelines
def build(api: Api, name: str, data_dir: str) -> Any:
    """The pipeline `name` written with MindSpore's dataset API on `api`'s modules."""
    ds, vision, transforms = api.ds, api.vision, api.transforms
    type_cast = transforms.TypeCast(api.mstype.int32)
    if name == "mnist":
        data = ds.MnistDataset(os.path.join(data_dir, "mnist"), usage="train", num_parallel_workers=2)
        data = data.map([vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize([0.1307], [0.3081]), vision.HWC2CHW()],
                        input_columns="image", num_parallel_workers=2)
        data = data.map(type_cast, input_columns="label", num_parallel_workers=2)
        return data.batch(BATCH, drop_remainder=True)
    if name == "cifar10":
        data = ds.Cifar10Dataset(os.path.join(data_dir, "cifar"), usage="train", num_parallel_workers=2)
        ops = [vision.RandomCrop((32, 32), (4, 4, 4, 4)), vision.RandomHorizontalFlip(prob=0.5),
               vision.Normalize(CIFAR_MEAN, CIFAR_STD), vision.HWC2CHW()]
        data = data.map(ops, input_columns="image", num_parallel_workers=2)
        data = data.map(type_cast, input_columns="label", num_parallel_workers=2)
        return data.batch(BATCH, drop_remainder=True)
    if name == "imagefolder":
        data = ds.ImageFolderDataset(os.path.join(data_dir, "folder"), num_parallel_workers=2, shuffle=True)
        ops = [vision.Decode(), vision.RandomCrop(80, padding=4), vision.RandomHorizontalFlip(), vision.Resize(64),
               vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize(IMAGENET_MEAN, IMAGENET_STD), vision.HWC2CHW()]
        data = data.map(ops, input_columns="image", num_parallel_workers=2)
        return data.batch(BATCH, drop_remainder=True)
    if name == "generator":
        data = ds.GeneratorDataset(GeneratorSource(), ["image", "label"], shuffle=True)
        data = data.map(gil_augment, input_columns="image", num_parallel_workers=2, python_multiprocessing=True)
        return data.batch(BATCH, drop_remainder=True)
    if name == "mindrecord_text":
        text = api.text
        vocab = text.Vocab.from_list(vocab_list(data_dir))
        data = ds.MindDataset(os.path.join(data_dir, "text.mindrecord"), columns_list=["text", "label"],
                              num_parallel_workers=2, shuffle=True)
        ops = [text.BertTokenizer(vocab, lower_case=True), text.Lookup(vocab, "[UNK]", api.mstype.int32),
               transforms.PadEnd([TEXT_LEN], 0)]
        data = data.map(ops, input_columns="text", num_parallel_workers=2)
        return data.batch(BATCH, drop_remainder=True)
    raise ValueError(f"unknown pipeline {name!r}")

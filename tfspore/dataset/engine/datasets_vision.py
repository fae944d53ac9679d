"""Vision dataset sources: MNIST, CIFAR-10, CIFAR-100 and image folders.

The binary formats (MNIST's idx files, CIFAR's fixed-length records) are parsed with numpy when
the dataset is created, so header and length errors surface at once, naming the dataset, the
argument and the file. Rows are then gathers from in-memory tensors inside ``tf.data``.
:class:`ImageFolderDataset` keeps a table of file paths and reads (and optionally decodes)
each file with TF ops.

Example:
    >>> import tfspore.dataset as ds
    >>> mnist = ds.MnistDataset("/data/MNIST", usage="train", shuffle=False)  # doctest: +SKIP
    >>> mnist.get_col_names()  # doctest: +SKIP
    ['image', 'label']
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.engine._sources import MappableSource
from tfspore.dataset.vision._image_ops import decode_image

__all__ = ["MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset"]

_MNIST_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
                "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
_IMAGE_MAGIC = 2051
_LABEL_MAGIC = 2049
_CIFAR_RECORDS = 10000
_CIFAR100_RECORDS = {"train": 50000, "test": 10000}
_CIFAR_IMAGE_BYTES = 3072


def _check_dataset_dir(dataset_dir: Any, api: str) -> str:
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"For '{api}', the argument 'dataset_dir' must be of type str, but got {dataset_dir!r} "
                        f"with type {type(dataset_dir).__name__}.")
    path = os.fspath(dataset_dir)
    if not os.path.isdir(path) or not os.access(path, os.R_OK):
        raise ValueError(f"For '{api}', the folder in 'dataset_dir' does not exist or is not a directory or "
                         f"permission denied, but got dataset_dir='{path}'.")
    return path


def _check_usage(usage: Any, api: str, valid: Sequence[str] = ("train", "test", "all")) -> str:
    if usage is None:
        return "all"
    if not isinstance(usage, str):
        raise TypeError(f"For '{api}', the argument 'usage' must be of type str, but got {usage!r} "
                        f"with type {type(usage).__name__}.")
    if usage not in valid:
        raise ValueError(f"For '{api}', input usage is not within the valid set of {list(valid)}, "
                         f"but got usage='{usage}'.")
    return usage


def _constant(array: np.ndarray, dtype: Optional[tf.DType] = None) -> tf.Tensor:
    """An eager constant, created outside any function being traced (so it can be cached)."""
    with tf.init_scope(), tf.device("/CPU:0"):
        return tf.constant(array, dtype)


class _InMemorySource(MappableSource):
    """A random-access source over in-memory arrays, one per column."""

    _gathers_batches = True  # _row also gathers a vector of indices (see MappableSource._build_batched)

    def _set_arrays(self, names: Sequence[str], arrays: Sequence[np.ndarray]) -> None:
        self.column_names = list(names)
        self._arrays = list(arrays)
        self._rows = int(arrays[0].shape[0]) if arrays else 0
        self._tensors: Optional[List[tf.Tensor]] = None

    def _num_rows(self) -> int:
        return self._rows

    def _row(self, index: tf.Tensor) -> Tuple[tf.Tensor, ...]:
        if self._tensors is None:
            self._tensors = [_constant(a) for a in self._arrays]
        return tuple(tf.gather(t, index) for t in self._tensors)


# ------------------------------------------------------------------------------------ MNIST
def _read_idx(path: str, magic: int, api: str, kind: str) -> Tuple[np.ndarray, Tuple[int, ...]]:
    """Read an idx file; returns (payload bytes, dims)."""
    with open(path, "rb") as f:
        data = f.read()
    ndim = 3 if magic == _IMAGE_MAGIC else 1
    header = 4 + 4 * ndim
    if len(data) < header:
        raise RuntimeError(f"For '{api}', invalid mnist file, the {kind} file '{path}' in dataset_dir is too short "
                           f"for an idx header: {len(data)} bytes.")
    got = int.from_bytes(data[:4], "big")
    if got != magic:
        raise RuntimeError(f"For '{api}', invalid mnist file, the magic number of the {kind} file '{path}' in "
                           f"dataset_dir should be {magic}, but got {got}.")
    dims = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    payload = np.frombuffer(data, dtype=np.uint8, offset=header)
    return payload, dims


class MnistDataset(_InMemorySource):
    """The MNIST dataset from its uncompressed idx files.

    ``dataset_dir`` holds ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
    ``t10k-images-idx3-ubyte`` and ``t10k-labels-idx1-ubyte``. Columns: ``image`` uint8 of
    shape (28, 28, 1) and ``label`` uint32. Rows are shuffled unless ``shuffle=False``.

    Args:
        dataset_dir: The directory of the idx files.
        usage: ``"train"`` (60000 rows), ``"test"`` (10000) or ``"all"`` (test then train, as MindSpore 2.10
            reads them); None is ``"all"``.
        num_samples: Rows to read; None reads all.
        num_parallel_workers: A parallelism hint.
        shuffle: Shuffle the rows (None: yes).
        sampler: A sampler (exclusive with `shuffle` and sharding).
        num_shards: Number of shards.
        shard_id: This shard.
        cache: Accepted for compatibility.

    Raises:
        ValueError: If `dataset_dir` is not a readable directory or `usage` is invalid.
        RuntimeError: If an idx header is corrupt (magic number, image shape), the data is
            truncated, image and label counts differ, a file of a pair is missing, or no file of
            `usage` exists.

    Example:
        >>> import tfspore.dataset as ds
        >>> data = ds.MnistDataset("/data/MNIST", usage="test", shuffle=False)  # doctest: +SKIP
        >>> data.get_dataset_size()  # doctest: +SKIP
        10000
    """

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        api = type(self).__name__
        self.dataset_dir = _check_dataset_dir(dataset_dir, api)
        self.usage = _check_usage(usage, api)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        images, labels = self._load()
        self._set_arrays(["image", "label"], [images, labels])

    def _load(self) -> Tuple[np.ndarray, np.ndarray]:
        api = type(self).__name__
        # MindSpore 2.10 reads "all" as the test files, then the train files.
        parts = ["test", "train"] if self.usage == "all" else [self.usage]
        images, labels = [], []
        found = []
        for part in parts:
            img_name, lbl_name = _MNIST_FILES[part]
            img_path = os.path.join(self.dataset_dir, img_name)
            lbl_path = os.path.join(self.dataset_dir, lbl_name)
            have_img, have_lbl = os.path.isfile(img_path), os.path.isfile(lbl_path)
            if not have_img and not have_lbl:
                continue
            if have_img != have_lbl:
                missing = img_path if not have_img else lbl_path
                raise RuntimeError(f"For '{api}', the file '{missing}' is missing from dataset_dir "
                                   f"'{self.dataset_dir}' (needed for usage='{self.usage}').")
            found.append(part)
            pixels, (n, rows, cols) = _read_idx(img_path, _IMAGE_MAGIC, api, "image")
            if (rows, cols) != (28, 28):
                raise RuntimeError(f"For '{api}', invalid mnist file, shape of image in '{img_path}' should be "
                                   f"(28, 28), but got ({rows}, {cols}).")
            if pixels.size < n * rows * cols:
                raise RuntimeError(f"For '{api}', invalid mnist file, truncated data: '{img_path}' declares {n} "
                                   f"images ({n * rows * cols} bytes), but holds {pixels.size} bytes.")
            raw_labels, (n_labels,) = _read_idx(lbl_path, _LABEL_MAGIC, api, "label")
            if raw_labels.size < n_labels:
                raise RuntimeError(f"For '{api}', invalid mnist file, truncated data: '{lbl_path}' declares "
                                   f"{n_labels} labels, but holds {raw_labels.size} bytes.")
            if n != n_labels:
                raise RuntimeError(f"For '{api}', invalid mnist file, the images number of '{img_path}' should be "
                                   f"equal to the labels number of '{lbl_path}', but got images number: {n}, "
                                   f"labels number: {n_labels}.")
            images.append(pixels[:n * rows * cols].reshape(n, rows, cols, 1))
            labels.append(raw_labels[:n].astype(np.uint32))
        if not found:
            wanted = [name for part in parts for name in _MNIST_FILES[part]]
            raise RuntimeError(f"For '{api}', no MNIST idx files for usage='{self.usage}' were found in "
                               f"dataset_dir '{self.dataset_dir}'; expected {wanted}.")
        return np.concatenate(images), np.concatenate(labels)


# ------------------------------------------------------------------------------------ CIFAR
def _read_records(path: str, record_bytes: int, count: int, api: str, kind: str) -> np.ndarray:
    """The first `count` fixed-length records of a file; error if it holds fewer."""
    size = os.path.getsize(path)
    if size < count * record_bytes:
        raise RuntimeError(f"For '{api}', invalid {kind} file, failed to read data from: '{path}': it holds "
                           f"{size // record_bytes} records of {record_bytes} bytes, but {count} are required "
                           f"(make sure it is the {kind.upper()} binary version).")
    data = np.fromfile(path, dtype=np.uint8, count=count * record_bytes)
    return data.reshape(count, record_bytes)


def _cifar_images(records: np.ndarray, offset: int) -> np.ndarray:
    """CHW planes (R, G, B of 32x32) to HWC uint8."""
    planes = records[:, offset:offset + _CIFAR_IMAGE_BYTES].reshape(-1, 3, 32, 32)
    return np.ascontiguousarray(planes.transpose(0, 2, 3, 1))


class Cifar10Dataset(_InMemorySource):
    """The CIFAR-10 dataset from its binary version.

    ``dataset_dir`` holds ``data_batch_1.bin`` ... ``data_batch_5.bin`` (train) and
    ``test_batch.bin`` (test); missing batches are skipped, but every file present must hold
    10000 records (1 label byte + 3072 image bytes, R then G then B planes). Columns:
    ``image`` uint8 (32, 32, 3) HWC and ``label`` uint32.

    Args:
        dataset_dir: The directory of the .bin files.
        usage: ``"train"``, ``"test"`` or ``"all"`` (None).
        num_samples: Rows to read; None reads all.
        num_parallel_workers: A parallelism hint.
        shuffle: Shuffle the rows (None: yes).
        sampler: A sampler.
        num_shards: Number of shards.
        shard_id: This shard.
        cache: Accepted for compatibility.

    Raises:
        ValueError: If `dataset_dir` is not a readable directory or `usage` is invalid.
        RuntimeError: If no .bin file of `usage` exists or a file is shorter than 10000 records.

    Example:
        >>> import tfspore.dataset as ds
        >>> data = ds.Cifar10Dataset("/data/cifar-10-batches-bin", usage="test")  # doctest: +SKIP
    """

    _kind = "cifar10"
    _record_labels = 1

    def __init__(self, dataset_dir: str, usage: Optional[str] = None, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 num_shards: Optional[int] = None, shard_id: Optional[int] = None, cache: Any = None) -> None:
        api = type(self).__name__
        self.dataset_dir = _check_dataset_dir(dataset_dir, api)
        self.usage = _check_usage(usage, api)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        files = self._files()
        if not files:
            raise RuntimeError(f"For '{api}', invalid cifar folder, no {self._kind} .bin file for "
                               f"usage='{self.usage}' was found in dataset_dir '{self.dataset_dir}'.")
        record_bytes = self._record_labels + _CIFAR_IMAGE_BYTES
        records = np.concatenate([_read_records(path, record_bytes, count, api, self._kind) for path, count in files])
        self._set_columns(records)

    def _files(self) -> List[Tuple[str, int]]:
        names = sorted(os.listdir(self.dataset_dir))
        parts = ["train", "test"] if self.usage == "all" else [self.usage]
        out = []
        for part in parts:
            key = "data_batch" if part == "train" else "test_batch"
            for name in names:
                path = os.path.join(self.dataset_dir, name)
                if key in name and name.endswith(".bin") and os.path.isfile(path):
                    out.append((path, _CIFAR_RECORDS))
        return out

    def _set_columns(self, records: np.ndarray) -> None:
        self._set_arrays(["image", "label"], [_cifar_images(records, 1), records[:, 0].astype(np.uint32)])


class Cifar100Dataset(Cifar10Dataset):
    """The CIFAR-100 dataset from its binary version.

    ``dataset_dir`` holds ``train.bin`` (50000 records) and ``test.bin`` (10000 records; ``"all"``
    reads test, then train, as MindSpore 2.10 does); each
    record is a coarse label byte, a fine label byte and 3072 image bytes. Columns: ``image``
    uint8 (32, 32, 3), ``coarse_label`` and ``fine_label`` uint32.

    Args:
        dataset_dir: The directory of the .bin files.
        usage: ``"train"``, ``"test"`` or ``"all"`` (None).
        num_samples: Rows to read; None reads all.
        num_parallel_workers: A parallelism hint.
        shuffle: Shuffle the rows (None: yes).
        sampler: A sampler.
        num_shards: Number of shards.
        shard_id: This shard.
        cache: Accepted for compatibility.

    Raises:
        ValueError: If `dataset_dir` is not a readable directory or `usage` is invalid.
        RuntimeError: If no .bin file of `usage` exists or a file is shorter than required.

    Example:
        >>> import tfspore.dataset as ds
        >>> data = ds.Cifar100Dataset("/data/cifar-100-binary", usage="test")  # doctest: +SKIP
    """

    _kind = "cifar100"
    _record_labels = 2

    def _files(self) -> List[Tuple[str, int]]:
        # MindSpore 2.10 reads "all" as test.bin, then train.bin.
        parts = ["test", "train"] if self.usage == "all" else [self.usage]
        out = []
        for part in parts:
            path = os.path.join(self.dataset_dir, f"{part}.bin")
            if os.path.isfile(path):
                out.append((path, _CIFAR100_RECORDS[part]))
        return out

    def _set_columns(self, records: np.ndarray) -> None:
        self._set_arrays(["image", "coarse_label", "fine_label"],
                         [_cifar_images(records, 2), records[:, 0].astype(np.uint32), records[:, 1].astype(np.uint32)])


# ------------------------------------------------------------------------------------ folders
class ImageFolderDataset(MappableSource):
    """Images in class folders: ``dataset_dir/<class>/<file>``.

    Classes are the sub-folders in sorted order (labels 0, 1, ...) unless `class_indexing`
    names them (then only those folders are read). Files are read in sorted order within each
    class. Columns: ``image`` (the raw file bytes, 1-D uint8, or with ``decode=True`` an HWC
    uint8 RGB image) and ``label`` int32.

    Args:
        dataset_dir: The root directory.
        num_samples: Rows to read; None reads all.
        num_parallel_workers: A parallelism hint.
        shuffle: Shuffle the rows (None: yes).
        sampler: A sampler.
        extensions: Keep only files ending with one of these (e.g. ``[".png"]``); None keeps all.
        class_indexing: ``{folder: label}``; None uses the sorted folder order.
        decode: Decode the images (JPEG, PNG, BMP, GIF) to RGB.
        num_shards: Number of shards.
        shard_id: This shard.
        cache: Accepted for compatibility.
        decrypt: Not supported (must be None).

    Raises:
        ValueError: If `dataset_dir` is not a readable directory.
        TypeError: If `extensions` or `class_indexing` has a wrong type.

    Example:
        >>> import tfspore.dataset as ds
        >>> data = ds.ImageFolderDataset("/data/images", decode=True, extensions=[".jpg"])  # doctest: +SKIP
    """

    def __init__(self, dataset_dir: str, num_samples: Optional[int] = None,
                 num_parallel_workers: Optional[int] = None, shuffle: Optional[bool] = None, sampler: Any = None,
                 extensions: Optional[List[str]] = None, class_indexing: Optional[Dict[str, int]] = None,
                 decode: bool = False, num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                 cache: Any = None, decrypt: Any = None) -> None:
        api = type(self).__name__
        self.dataset_dir = _check_dataset_dir(dataset_dir, api)
        if extensions is not None:
            v.check_type(extensions, (list, tuple), "extensions", api)
            for i, ext in enumerate(extensions):
                v.check_type(ext, (str,), f"extensions[{i}]", api)
        if class_indexing is not None:
            v.check_type(class_indexing, (dict,), "class_indexing", api)
            for key, value in class_indexing.items():
                v.check_type(key, (str,), "class_indexing key", api)
                if not v.is_int(value) or value < 0:
                    raise ValueError(f"For '{api}', the values of class_indexing must be non-negative ints, "
                                     f"but got {key!r}: {value!r}.")
        v.check_bool(decode, "decode", api)
        if decrypt is not None:
            raise NotImplementedError(f"For '{api}', 'decrypt' is not supported by tfspore.dataset, "
                                      f"but got decrypt={decrypt!r}.")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
        self.extensions = list(extensions) if extensions else None
        self.class_indexing = dict(class_indexing) if class_indexing else None
        self.decode = decode
        self.column_names = ["image", "label"]
        self._paths, self._labels, self._classes = self._scan()
        self._tables: Optional[Tuple[tf.Tensor, tf.Tensor]] = None

    def _scan(self) -> Tuple[List[str], List[int], Dict[str, int]]:
        folders = sorted(d for d in os.listdir(self.dataset_dir)
                         if os.path.isdir(os.path.join(self.dataset_dir, d)))
        if self.class_indexing is not None:
            classes = dict(self.class_indexing)
            folders = [d for d in folders if d in classes]
        else:
            classes = {name: i for i, name in enumerate(folders)}
        paths, labels = [], []
        for folder in folders:
            root = os.path.join(self.dataset_dir, folder)
            for name in sorted(os.listdir(root)):
                path = os.path.join(root, name)
                if not os.path.isfile(path):
                    continue
                if self.extensions is not None and not any(name.endswith(ext) for ext in self.extensions):
                    continue
                paths.append(path)
                labels.append(classes[folder])
        return paths, labels, classes

    def num_classes(self) -> int:
        """The number of classes."""
        return len(self._classes)

    def get_class_indexing(self) -> Dict[str, int]:
        """The class-name to label mapping."""
        return dict(self._classes)

    def _num_rows(self) -> int:
        return len(self._paths)

    def _row(self, index: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
        if self._tables is None:
            self._tables = (_constant(self._paths, tf.string), _constant(self._labels, tf.int32))
        paths, labels = self._tables
        path = tf.gather(paths, index)
        content = tf.io.read_file(path)
        if self.decode:
            image = decode_image(content)
        else:
            image = tf.io.decode_raw(content, tf.uint8)
        return image, tf.gather(labels, index)

"""Text sources: ``CLUEDataset`` (the CLUE benchmark's JSON-lines files).

Example:
    >>> import tfspore.dataset as ds
    >>> data = ds.CLUEDataset("/data/afqmc/train.json", task="AFQMC", usage="train")  # doctest: +SKIP
    >>> data.get_col_names()  # doctest: +SKIP
    ['label', 'sentence1', 'sentence2']
"""
from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore.dataset.engine._sources import SourceDataset
from tfspore.dataset.engine.datasets import next_op_seed
from tfspore.dataset.engine.datasets_standard_format import _expand_files
from tfspore.dataset.engine.samplers import Shuffle, check_num_samples, check_shard_options

__all__ = ["CLUEDataset"]

_U32 = "u32"
_STR = "str"
_LIST = "list"
_TARGET = "target"
# task -> usage -> [(column, json key path, kind)], columns in MindSpore's (sorted) order.
_LABELLED = {
    "AFQMC": [("label", ("label",), _STR), ("sentence1", ("sentence1",), _STR), ("sentence2", ("sentence2",), _STR)],
    "TNEWS": [("keywords", ("keywords",), _STR), ("label", ("label",), _STR),
              ("label_desc", ("label_desc",), _STR), ("sentence", ("sentence",), _STR)],
    "IFLYTEK": [("label", ("label",), _STR), ("label_des", ("label_des",), _STR), ("sentence", ("sentence",), _STR)],
    "CMNLI": [("label", ("label",), _STR), ("sentence1", ("sentence1",), _STR), ("sentence2", ("sentence2",), _STR)],
    "WSC": [("idx", ("idx",), _U32), ("label", ("label",), _STR),
            ("span1_index", (_TARGET, "span1_index"), _U32), ("span1_text", (_TARGET, "span1_text"), _STR),
            ("span2_index", (_TARGET, "span2_index"), _U32), ("span2_text", (_TARGET, "span2_text"), _STR),
            ("text", ("text",), _STR)],
    "CSL": [("abst", ("abst",), _STR), ("id", ("id",), _U32), ("keyword", ("keyword",), _LIST),
            ("label", ("label",), _STR)],
}
_TEST = {
    "AFQMC": [("id", ("id",), _U32), ("sentence1", ("sentence1",), _STR), ("sentence2", ("sentence2",), _STR)],
    "TNEWS": [("id", ("id",), _U32), ("keywords", ("keywords",), _STR), ("sentence", ("sentence",), _STR)],
    "IFLYTEK": [("id", ("id",), _U32), ("sentence", ("sentence",), _STR)],
    "CMNLI": [("id", ("id",), _U32), ("sentence1", ("sentence1",), _STR), ("sentence2", ("sentence2",), _STR)],
    "WSC": [c for c in _LABELLED["WSC"] if c[0] != "label"],
    "CSL": [c for c in _LABELLED["CSL"] if c[0] != "label"],
}


def _columns(task: str, usage: str) -> List[Tuple[str, Tuple[str, ...], str]]:
    return _TEST[task] if usage == "test" else _LABELLED[task]


class CLUEDataset(SourceDataset):
    """Rows of CLUE classification tasks read from JSON-lines files.

    Columns depend on `task` and `usage` as in MindSpore (sorted by name): for example AFQMC
    train/eval gives ``label, sentence1, sentence2`` (strings) and test gives ``id`` (uint32),
    ``sentence1, sentence2``. A key missing from a line is an error naming the key and the file.
    The files are parsed when the dataset is first used.

    Args:
        dataset_files: A file path or glob pattern, or a list of file paths (sorted).
        task: ``'AFQMC'``, ``'TNEWS'``, ``'IFLYTEK'``, ``'CMNLI'``, ``'WSC'`` or ``'CSL'``.
        usage: ``'train'``, ``'test'`` or ``'eval'``.
        num_samples: Rows to read (per shard); None reads all.
        num_parallel_workers: Accepted for compatibility.
        shuffle: True / ``Shuffle.GLOBAL`` shuffles rows and files, ``Shuffle.FILES`` only the
            file order, False keeps the file order.
        num_shards: Number of shards; each shard gets ``ceil(rows / num_shards)`` rows (wrapping).
        shard_id: This shard's index.
        cache: Accepted for compatibility.

    Raises:
        ValueError: If `task` or `usage` is not valid, or a file does not exist.
    """

    def __init__(self, dataset_files: Union[str, Sequence[str]], task: str = "AFQMC", usage: str = "train",
                 num_samples: Optional[int] = None, num_parallel_workers: Optional[int] = None,
                 shuffle: Union[bool, Shuffle, None] = Shuffle.GLOBAL, num_shards: Optional[int] = None,
                 shard_id: Optional[int] = None, cache: Any = None) -> None:
        api = type(self).__name__
        self.dataset_files = _expand_files(dataset_files, api)
        if task not in _LABELLED:
            raise ValueError(f"For '{api}', the argument 'task' must be one of {list(_LABELLED)}, but got {task!r}.")
        if usage not in ("train", "test", "eval"):
            raise ValueError(f"For '{api}', input usage is not within the valid set of ['train', 'test', 'eval'], "
                             f"but got {usage!r}.")
        check_shard_options(api, num_samples, shuffle, None, num_shards, shard_id)
        super().__init__(num_parallel_workers=num_parallel_workers, num_shards=num_shards, shard_id=shard_id)
        del cache
        self.task, self.usage = task, usage
        self.num_samples = check_num_samples(num_samples, api) or None
        if shuffle is None or shuffle is True:
            self.shuffle_mode = Shuffle.GLOBAL
        elif shuffle is False:
            self.shuffle_mode = Shuffle.FALSE
        else:
            self.shuffle_mode = Shuffle(shuffle)
        self._specs = _columns(task, usage)
        self.column_names = [name for name, _, _ in self._specs]
        self._data: Optional[List[Dict[str, np.ndarray]]] = None

    # ---- reading -----------------------------------------------------------------------------
    def _read_file(self, path: str) -> Dict[str, np.ndarray]:
        cols: Dict[str, list] = {name: [] for name, _, _ in self._specs}
        with open(path, "r", encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RuntimeError(f"Invalid json file {path!r}, line {lineno}: {exc}.") from None
                for name, keys, _ in self._specs:
                    value: Any = obj
                    for key in keys:
                        if not isinstance(value, dict) or key not in value:
                            raise RuntimeError(f"Invalid json file, in given JSON file {path!r} (line {lineno}), "
                                               f"failed to find key: {key}")
                        value = value[key]
                    cols[name].append(value)
        out = {}
        for name, _, kind in self._specs:
            vals = cols[name]
            if kind == _U32:
                out[name] = np.array(vals, dtype=np.uint32).reshape(-1)
            elif kind == _LIST:
                out[name] = [np.array([str(x).encode("utf-8") for x in val], dtype=object) for val in vals]
            elif vals and all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
                out[name] = np.array(vals, dtype=np.int64)
            else:
                out[name] = np.array([str(x).encode("utf-8") for x in vals], dtype=object).reshape(-1)
        return out

    def _load(self) -> List[Dict[str, np.ndarray]]:
        if self._data is None:
            self._data = [self._read_file(p) for p in self.dataset_files]
        return self._data

    def _total_rows(self) -> int:
        first = self.column_names[0]
        return sum(len(d[first]) for d in self._load())

    def _source_size(self) -> Optional[int]:
        n = self._total_rows()
        if self.num_shards is not None:
            n = math.ceil(n / self.num_shards)
        return n if self.num_samples is None else min(n, self.num_samples)

    def _tables(self) -> List[Any]:
        files = self._load()
        tables = []
        for name, _, kind in self._specs:
            if kind == _LIST:
                rows = [list(x) for d in files for x in d[name]]
                tables.append(tf.ragged.constant(rows, dtype=tf.string, ragged_rank=1) if rows else
                              tf.RaggedTensor.from_row_lengths(tf.constant([], tf.string), tf.constant([], tf.int64)))
            else:
                tables.append(tf.constant(np.concatenate([d[name] for d in files])))
        return tables

    def _build_source(self) -> tf.data.Dataset:
        files = self._load()
        first = self.column_names[0]
        counts = np.array([len(d[first]) for d in files], np.int64)
        ends = np.cumsum(counts)
        starts = tf.constant(ends - counts)
        ends_t = tf.constant(ends)
        mode = self.shuffle_mode
        file_ds = tf.data.Dataset.range(len(files))
        if mode in (Shuffle.GLOBAL, Shuffle.FILES) and len(files) > 1:
            file_ds = file_ds.shuffle(len(files), seed=next_op_seed(), reshuffle_each_iteration=True)
        index = file_ds.flat_map(lambda i: tf.data.Dataset.range(starts[i], ends_t[i]))
        total = int(ends[-1]) if len(ends) else 0
        if self.num_shards is not None:
            per = math.ceil(total / self.num_shards)
            index = index.repeat().skip(per * self.shard_id).take(per)
        if mode == Shuffle.GLOBAL:
            index = index.shuffle(max(1, min(total, 100000)), seed=next_op_seed(), reshuffle_each_iteration=True)
        if self.num_samples is not None:
            index = index.take(self.num_samples)
        tables = self._tables()
        return index.map(lambda i: tuple(tf.gather(t, i) for t in tables), num_parallel_calls=tf.data.AUTOTUNE,
                         deterministic=True)

    def is_shuffled(self) -> bool:
        return self.shuffle_mode != Shuffle.FALSE

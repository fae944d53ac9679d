"""Save and load MindSpore ``.ckpt`` and ``.safetensors`` checkpoints.

The ``.ckpt`` files are byte-compatible with MindSpore 2.x both ways: a concatenation of
serialized ``Checkpoint`` protobuf messages, one ``Value`` (name, dims, dtype string, raw
little-endian bytes) per entry, in save order; optionally encrypted in 64 MiB AES-GCM / AES-CBC /
SM4-CBC blocks, and optionally followed by a CRC-32 trailer (``b"crc_num"`` and a 10-byte
big-endian integer).

``format="safetensors"`` writes and reads the safetensors layout as MindSpore 2.10 does: an
8-byte little-endian header length, a JSON header (``__metadata__`` with ``"format": "ms"``, and
per tensor its dtype code, shape and ``data_offsets``) padded with spaces to a multiple of 8
bytes, then the raw little-endian tensor data, ordered by dtype (widest first) and name.

This module is MindSpore's public path (``mindspore.train.serialization``) over the modules that
hold the code: the ``.ckpt`` byte format in :mod:`tfspore.train._ckpt_format`, the safetensors
layout in :mod:`tfspore.train._safetensors`, saving (atomic and asynchronous writes) in
:mod:`tfspore.train._ckpt_save`, loading in :mod:`tfspore.train._ckpt_load`, and ``export`` /
``load`` (MindIR and the other export formats) in :mod:`tfspore.train._export`.

Example:
    >>> import numpy as np
    >>> import tfspore as ms
    >>> class Net(ms.nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.weight = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="weight")
    >>> ms.save_checkpoint(Net(), "/tmp/net.ckpt", append_dict={"epoch_num": 3})
    >>> sorted(ms.load_checkpoint("/tmp/net.ckpt"))
    ['epoch_num', 'weight']
"""
from __future__ import annotations

from tfspore.common.tensor import Tensor  # noqa: F401  (zoo export scripts import it from this path)
from tfspore.train._ckpt_load import (ParamDictFuture, load_checkpoint, load_checkpoint_async,  # noqa: F401
                                      load_param_into_net)
from tfspore.train._ckpt_load import _update_param  # noqa: F401  (MindSpore's name, imported by zoo scripts)
from tfspore.train._ckpt_save import (_wait_async_thread_save_ckpt, async_ckpt_thread_status,  # noqa: F401
                                      save_checkpoint)
from tfspore.train._export import export, load
from tfspore import context  # noqa: F401,E402  (scripts import it from this path)

__all__ = ["save_checkpoint", "load_checkpoint", "load_checkpoint_async", "load_param_into_net",
           "async_ckpt_thread_status", "export", "load"]

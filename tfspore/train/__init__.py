"""``tfspore.train``: training utilities, including MindSpore ``.ckpt`` checkpoint I/O.

Example:
    >>> from tfspore.train import save_checkpoint, load_checkpoint, load_param_into_net
"""
from tfspore.train.serialization import (save_checkpoint, load_checkpoint, load_checkpoint_async,
                                         load_param_into_net, async_ckpt_thread_status)

__all__ = ["save_checkpoint", "load_checkpoint", "load_checkpoint_async", "load_param_into_net",
           "async_ckpt_thread_status"]

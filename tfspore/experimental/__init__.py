"""``tfspore.experimental``: MindSpore's experimental APIs (``mindspore.experimental``).

Example:
    >>> from tfspore.experimental import optim
    >>> optim.AdamW
    <class 'tfspore.experimental.optim.adamw.AdamW'>
"""
from tfspore.experimental import optim

__all__ = ["optim"]

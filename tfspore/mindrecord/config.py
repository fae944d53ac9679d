"""``mindspore.mindrecord.config``: the key and modes of encrypted MindRecord files.

While a key is set, ``FileWriter`` (and ``Dataset.save``) encrypt every file they write, and
``FileReader``, ``MindPage``, ``MindDataset`` and ``FileWriter.open_for_append`` decrypt the files
they read; the files are MindSpore 2.10's (see :mod:`tfspore.mindrecord.core.shardcrypt`).

Example:
    >>> from tfspore.mindrecord import set_enc_key, set_enc_mode, set_dec_mode
    >>> set_enc_key("0123456789012345")
    >>> set_enc_mode("AES-GCM")
    >>> set_dec_mode("AES-GCM")
    >>> set_enc_key(None)
"""
from tfspore.mindrecord.core.shardcrypt import (get_dec_mode, get_enc_key, get_enc_mode, set_dec_mode,
                                                set_enc_key, set_enc_mode)

__all__ = ["set_enc_key", "set_enc_mode", "set_dec_mode"]

# MindSpore's names of the getters (private there too).
_get_enc_key = get_enc_key
_get_enc_mode = get_enc_mode
_get_dec_mode = get_dec_mode

"""``mindspore.mindrecord``: write and read MindRecord files in MindSpore's on-disk format.

A MindRecord file is a header (JSON schema and page table), pages of raw (scalar) and blob
(bytes and array) records, and a SQLite index beside it (``<file>.db``); files written here read
in MindSpore and the other way round. See docs/mindrecord.md for the layout. With
``set_enc_key`` the files are written and read encrypted, as MindSpore's (AES-GCM).

Example:
    >>> import numpy as np
    >>> from tfspore.mindrecord import FileWriter, FileReader
    >>> writer = FileWriter("/tmp/doc_init.mindrecord", overwrite=True)
    >>> writer.add_schema({"label": {"type": "int32"}, "x": {"type": "float32", "shape": [2]}}, "demo")
    >>> writer.write_raw_data([{"label": 1, "x": np.array([0.5, 1.5], np.float32)}])
    >>> writer.commit()
    >>> reader = FileReader("/tmp/doc_init.mindrecord")
    >>> [(row["label"], row["x"].tolist()) for row in reader.get_next()]
    [(1, [0.5, 1.5])]
    >>> reader.close()
"""
from tfspore.mindrecord.common.exceptions import *  # noqa: F401,F403
from tfspore.mindrecord.common.exceptions import __all__ as _exceptions_all
from tfspore.mindrecord.config import set_dec_mode, set_enc_key, set_enc_mode
from tfspore.mindrecord.core.shardutils import FAILED, SUCCESS
from tfspore.mindrecord.filereader import FileReader
from tfspore.mindrecord.filewriter import FileWriter
from tfspore.mindrecord.mindpage import MindPage
from tfspore.mindrecord.tools import (Cifar10ToMR, Cifar100ToMR, CsvToMR, ImageNetToMR, MnistToMR,
                                      TFRecordToMR)

__all__ = ["FileWriter", "FileReader", "MindPage", "Cifar10ToMR", "Cifar100ToMR", "CsvToMR", "ImageNetToMR",
           "MnistToMR", "TFRecordToMR", "set_enc_key", "set_enc_mode", "set_dec_mode", "SUCCESS",
           "FAILED"] + list(_exceptions_all)

# Keep last: missing MindSpore names on the modules imported above raise a clear error.
from tfspore._missing import install_missing_name_hooks as _install_missing_name_hooks  # noqa: E402
_install_missing_name_hooks(__name__)

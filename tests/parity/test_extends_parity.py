"""cell_attr_register against MindSpore 2.10: the same recorded ``cell_init_args``."""
import pytest

import tfspore as tfs
from tfspore._extends import cell_attr_register as ours

ms = pytest.importorskip("mindspore")
theirs = pytest.importorskip("mindspore._extends").cell_attr_register


def _cells(fw, register):
    class Block(fw.nn.Cell):
        @register
        def __init__(self, width, depth=2, act="relu"):
            super().__init__()
            self.width = width

    class Named(fw.nn.Cell):
        @register(attrs=["width", "missing"])
        def __init__(self, width):
            super().__init__()
            self.width = width

    return Block, Named


def test_recorded_arguments_match_mindspore():
    (ms_block, ms_named), (tfs_block, tfs_named) = _cells(ms, theirs), _cells(tfs, ours)
    for args, kwargs in (((8,), {}), ((8, 3), {}), ((8,), {"act": "gelu"})):
        assert tfs_block(*args, **kwargs).cell_init_args == ms_block(*args, **kwargs).cell_init_args
    assert tfs_named(4).cell_init_args == ms_named(4).cell_init_args

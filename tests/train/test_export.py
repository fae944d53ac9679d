"""mindspore.export / mindspore.load: MindSpore's signatures, clear errors until export is implemented."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train import serialization


def _net_and_input():
    return nn.Dense(4, 2), ms.Tensor(np.ones((1, 4), np.float32))


def test_export_default_format_is_mindir(tmp_path):
    net, x = _net_and_input()
    serialization.export(net, x, file_name=str(tmp_path / "lenet"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lenet.mindir"]


def test_export_air_is_ascend_only():
    net, x = _net_and_input()
    with pytest.raises(RuntimeError, match="'AIR'.*only supported on Ascend"):
        ms.export(net, x, file_name="lenet", file_format="AIR")


def test_export_bad_format_and_file_name_is_keyword_only():
    net, x = _net_and_input()
    with pytest.raises(ValueError, match=r"'file_format' must be one of \['AIR', 'ONNX', 'MINDIR'\], but got PB"):
        ms.export(net, x, file_name="lenet", file_format="PB")
    with pytest.raises(TypeError):
        ms.export(net, x, "lenet", "MINDIR")  # noqa  (file_name is keyword-only, as in MindSpore)


def test_load_checks_its_arguments_and_the_file(tmp_path):
    with pytest.raises(ValueError, match="must be string"):
        ms.load(3)
    with pytest.raises(ValueError, match="should end with '.mindir'.*'net.onnx'"):
        ms.load("net.onnx")
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "net.mindir"))
    with pytest.raises(NotImplementedError, match="obfuscation"):
        ms.load(str(tmp_path / "net.mindir"), obf_func=None)
    path = tmp_path / "net.mindir"
    path.write_bytes(b"\x00")
    with pytest.raises(RuntimeError, match="Load MindIR failed.*net.mindir"):
        ms.load(str(path))


def test_import_paths():
    ms.alias_mindspore()
    try:
        from mindspore import export, load
        from mindspore.train.serialization import export as export2, context
        import mindspore.nn as mnn
    finally:
        ms.unalias_mindspore()
    assert export is export2 is serialization.export and load is serialization.load
    assert context is ms.context and mnn.GraphCell is nn.GraphCell

"""export(file_format='MINDIR'): file naming, atomic replacement, the refused ops, the written model."""
import os

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn, ops
from tfspore._internal.proto import mind_ir_pb2 as pb
from tfspore.train.mindir import _save


class _Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)

    def construct(self, x):
        return ops.softmax(self.fc(x), -1)


class _Cumprod(nn.Cell):
    def construct(self, x):
        return ops.cumprod(x, 1)


def _x():
    return ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) / 8)


def _read(path):
    model = pb.ModelProto()
    with open(path, "rb") as f:
        model.ParseFromString(f.read())
    return model


@pytest.mark.parametrize("given, written", [("net", "net.mindir"), ("net.mindir", "net.mindir"),
                                             ("sub/dir/net", "sub/dir/net.mindir")])
def test_file_is_named_as_mindspore_names_it(tmp_path, given, written):
    ms.export(_Small(), _x(), file_name=str(tmp_path / given), file_format="MINDIR")
    assert (tmp_path / written).is_file()
    assert not (tmp_path / (written + ".mindir")).exists()


def test_default_format_is_mindir(tmp_path):
    ms.export(_Small(), _x(), file_name=str(tmp_path / "net"))
    assert (tmp_path / "net.mindir").is_file()


def test_model_holds_the_graph_and_the_named_weights(tmp_path):
    net = _Small()
    ms.export(net, _x(), file_name=str(tmp_path / "net"))
    model = _read(tmp_path / "net.mindir")
    assert model.producer_name == "MindSpore" and model.little_endian
    names = {p.name.split(":", 1)[1]: p for p in model.graph.parameter}
    assert sorted(names) == ["fc.bias", "fc.weight"]
    weight = np.frombuffer(names["fc.weight"].raw_data, np.float32).reshape(tuple(names["fc.weight"].dims))
    np.testing.assert_array_equal(weight, net.fc.weight.asnumpy())
    [inp] = model.graph.input
    assert list(inp.tensor[0].dims) == [2, 4] and inp.tensor[0].data_type == pb.TensorProto.FLOAT
    ops_used = {p.op_type for p in model.primitives}
    assert {"MatMul", "Softmax"} <= ops_used


def test_unsupported_op_is_named_and_nothing_is_written(tmp_path):
    with pytest.raises(NotImplementedError, match="For 'export', the network uses the operation 'Cumprod'"):
        ms.export(_Cumprod(), _x(), file_name=str(tmp_path / "net"), file_format="MINDIR")
    assert os.listdir(tmp_path) == []


def test_failed_write_keeps_the_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "net.mindir"
    ms.export(_Small(), _x(), file_name=str(tmp_path / "net"))
    before = path.read_bytes()

    def crash(src, dst):
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", crash)
    net = _Small()  # other weights: a different file
    with pytest.raises(OSError, match="disk gone"):
        ms.export(net, _x(), file_name=str(tmp_path / "net"))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["net.mindir"]


def test_custom_func_edits_the_model_before_writing(tmp_path):
    def mark(model):
        model.user_info["origin"] = "tfspore"

    ms.export(_Small(), _x(), file_name=str(tmp_path / "net"), custom_func=mark)
    assert dict(_read(tmp_path / "net.mindir").user_info) == {"origin": "tfspore"}


def test_encryption_is_refused(tmp_path):
    with pytest.raises(NotImplementedError, match="'enc_key'"):
        ms.export(_Small(), _x(), file_name=str(tmp_path / "net"), enc_key=b"0" * 16)
    assert os.listdir(tmp_path) == []


def test_mindir_path():
    assert _save.mindir_path("a/b") == os.path.realpath("a/b.mindir")
    assert _save.mindir_path("a/b.mindir") == os.path.realpath("a/b.mindir")


def test_a_function_is_refused(tmp_path):
    with pytest.raises(TypeError, match="For 'export', tfspore writes MindIR for a Cell, but got function"):
        ms.export(lambda x: x, _x(), file_name=str(tmp_path / "net"))
    assert os.listdir(tmp_path) == []

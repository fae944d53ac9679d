"""``load``: MindSpore's checks of the file name, decryption key and mode; files tfspore exports."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train import _crypto
from tfspore.train.mindir import load_graph_cell, load_mindir
from tests.train.mindir import _mindir_files as files


def test_decryption_arguments(tmp_path):
    key = b"0123456789abcdef"
    path = tmp_path / "enc.mindir"
    path.write_bytes(_crypto.encrypt_block(files.dense_model().SerializeToString(), key, "SM4-CBC"))
    assert load_mindir(str(path), key, "SM4-CBC").parameter_names == ["fc.weight", "fc.bias"]
    with pytest.raises(ValueError, match="For 'load', the 'dec_key' must be bytes, but got 'abc'"):
        load_mindir(str(path), "abc")
    with pytest.raises(ValueError, match="'dec_mode' must be one of 'AES-GCM', 'AES-CBC' or 'SM4-CBC'"):
        load_mindir(str(path), key, "DES")
    with pytest.raises(ValueError, match="length of 'dec_key' must be 16 bytes for SM4-CBC"):
        load_mindir(str(path), b"short", "SM4-CBC")


def test_file_name_checks(tmp_path):
    with pytest.raises(ValueError, match="must be string"):
        load_mindir(None)
    folder = tmp_path / "dir.mindir"
    folder.mkdir()
    with pytest.raises(RuntimeError, match="is a directory"):
        load_mindir(str(folder))


def test_graph_cell_is_in_inference_mode(tmp_path):
    cell = load_graph_cell(files.write(tmp_path / "net.mindir", files.dense_model()))
    assert cell.training is False


def test_loads_what_tfspore_exports(tmp_path):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 4, 3, pad_mode="pad", padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.dense = nn.Dense(4, 3)

        def construct(self, x):
            y = ms.ops.relu(self.bn(self.conv(x)))
            return self.dense(y.mean(axis=(2, 3)))

    ms.set_seed(3)
    net = Net()
    net.set_train(False)
    x = ms.Tensor(np.random.RandomState(0).standard_normal((2, 2, 5, 5)).astype(np.float32))
    ms.export(net, x, file_name=str(tmp_path / "net"), file_format="MINDIR")
    got = nn.GraphCell(ms.load(str(tmp_path / "net.mindir")))(x).asnumpy()
    np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_loads_top_k_and_gather_nd_as_tfspore_exports_them(tmp_path):
    """The Transformer's beam search exports TopK and GatherNd; its MindIR loads back here too."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 6)
            self.top_k = ms.ops.TopK(sorted=True)
            self.gather_nd = ms.ops.GatherNd()

        def construct(self, x, ids):
            h = self.dense(x)
            values, indices = self.top_k(h, 3)
            return values, indices, self.gather_nd(h, ids)

    ms.set_seed(4)
    net = Net()
    net.set_train(False)
    x = ms.Tensor(np.random.RandomState(1).standard_normal((2, 4)).astype(np.float32))
    ids = ms.Tensor(np.array([[1, 5], [0, 2]], np.int32))
    ms.export(net, x, ids, file_name=str(tmp_path / "topk"), file_format="MINDIR")
    got = nn.GraphCell(ms.load(str(tmp_path / "topk.mindir")))(x, ids)
    want = net(x, ids)
    assert len(got) == 3
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)
    assert got[1].dtype == ms.int32

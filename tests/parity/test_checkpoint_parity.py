"""Checkpoint parity: .ckpt files written by real MindSpore 2.10 load in tfspore, and the reverse."""
import os

import numpy as np
import pytest

mindspore = pytest.importorskip("mindspore")
ms_ser = pytest.importorskip("mindspore.train.serialization")

import tfspore as ts  # noqa: E402
from tfspore.train import _ckpt_format  # noqa: E402
from tests.parity._ms_helpers import DTYPE_VALUES  # noqa: E402

KEY16 = b"0123456789abcdef"
KEY32 = b"abcdefghijklmnopqrstuvwxyz012345"

VALUES = DTYPE_VALUES  # name -> (numpy values, dtype attribute name), exact in every dtype
APPEND = {"epoch_num": 3, "step_num": 12, "lr": 0.01, "flag_a": True, "note": "abc ✓"}


def _np_dtype(attr):
    return getattr(ts, attr).np_dtype


def _expected(name):
    vals, attr = VALUES[name]
    return vals.astype(_np_dtype(attr))


def _ms_param(name):
    """A MindSpore Parameter (bfloat16 through set_dtype: MindSpore can't take numpy bfloat16 under numpy 2)."""
    vals, attr = VALUES[name]
    if attr == "bfloat16":
        p = mindspore.Parameter(mindspore.Tensor(vals.astype(np.float32)), name=name)
        p.set_dtype(mindspore.bfloat16)
        return p
    return mindspore.Parameter(mindspore.Tensor(vals.astype(_np_dtype(attr))), name=name,
                               requires_grad=attr.startswith("float") or attr == "bfloat16")


def _ts_param(name):
    vals, attr = VALUES[name]
    return ts.Parameter(ts.Tensor(vals.astype(_np_dtype(attr))), name=name)


class MsNet(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        for name in VALUES:
            setattr(self, "p_" + name, _ms_param(name))


class TsNet(ts.nn.Cell):
    def __init__(self):
        super().__init__()
        for name in VALUES:
            setattr(self, "p_" + name, _ts_param(name))


def _ms_numpy(param):
    if param.dtype == mindspore.bfloat16:
        return param.astype(mindspore.float32).asnumpy()
    return param.asnumpy()


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _check_ts_dict(d):
    assert list(d) == list(VALUES) + list(APPEND)
    for name, (_, attr) in VALUES.items():
        p = d[name]
        assert isinstance(p, ts.Parameter) and p.name == name
        assert p.dtype == getattr(ts, attr), name
        assert p.shape == VALUES[name][0].shape
        np.testing.assert_array_equal(p.asnumpy(), _expected(name), err_msg=name)
    assert d["epoch_num"].dtype == ts.int64 and d["epoch_num"].shape == () and d["epoch_num"].asnumpy() == 3
    assert d["step_num"].asnumpy() == 12
    assert d["lr"].dtype == ts.float32 and d["lr"].asnumpy() == np.float32(0.01)
    assert d["flag_a"].dtype == ts.bool_ and bool(d["flag_a"].asnumpy())
    assert d["note"] == "abc ✓"


def _check_ms_dict(d):
    assert list(d) == list(VALUES) + list(APPEND)
    for name, (_, attr) in VALUES.items():
        p = d[name]
        assert str(p.dtype) == str(getattr(ts, attr)), name
        assert tuple(p.shape) == VALUES[name][0].shape
        np.testing.assert_array_equal(_ms_numpy(p), _expected(name).astype(np.float32) if attr == "bfloat16"
                                      else _expected(name), err_msg=name)
    assert str(d["epoch_num"].dtype) == "Int64" and d["epoch_num"].asnumpy() == 3
    assert str(d["lr"].dtype) == "Float32" and d["lr"].asnumpy() == np.float32(0.01)
    assert str(d["flag_a"].dtype) == "Bool"
    assert d["note"] == "abc ✓"


@pytest.fixture(scope="module")
def ms_net():
    return MsNet()


@pytest.fixture(scope="module")
def ts_net():
    return TsNet()


def test_same_bytes_both_ways(tmp_path, ms_net, ts_net):
    ms_path, ts_path = str(tmp_path / "ms.ckpt"), str(tmp_path / "ts.ckpt")
    mindspore.save_checkpoint(ms_net, ms_path, append_dict=dict(APPEND))
    ts.save_checkpoint(ts_net, ts_path, append_dict=dict(APPEND))
    assert _read(ms_path) == _read(ts_path)
    assert os.stat(ms_path).st_mode == os.stat(ts_path).st_mode


def test_mindspore_writes_tfspore_reads(tmp_path, ms_net):
    path = str(tmp_path / "ms.ckpt")
    mindspore.save_checkpoint(ms_net, path, append_dict=dict(APPEND))
    _check_ts_dict(ts.load_checkpoint(path))
    net = TsNet()
    for p in net.get_parameters():
        p.set_data(ts.Tensor(np.zeros(p.shape), p.dtype))
    assert ts.load_param_into_net(net, ts.load_checkpoint(path)) == ([], list(APPEND))
    for name in VALUES:
        np.testing.assert_array_equal(getattr(net, "p_" + name).asnumpy(), _expected(name))


def test_tfspore_writes_mindspore_reads(tmp_path, ts_net):
    path = str(tmp_path / "ts.ckpt")
    ts.save_checkpoint(ts_net, path, append_dict=dict(APPEND))
    d = mindspore.load_checkpoint(path)
    _check_ms_dict(d)
    net = MsNet()
    param_not_load, ckpt_not_load = mindspore.load_param_into_net(net, d)
    assert param_not_load == [] and ckpt_not_load == list(APPEND)


@pytest.mark.parametrize("key,mode", [(KEY16, "AES-GCM"), (KEY32, "AES-GCM"), (KEY16, "AES-CBC"),
                                      (KEY32[:24], "AES-CBC"), (KEY16, "SM4-CBC")])
def test_encrypted_both_ways(tmp_path, ms_net, ts_net, key, mode):
    ms_path, ts_path = str(tmp_path / "ms.ckpt"), str(tmp_path / "ts.ckpt")
    mindspore.save_checkpoint(ms_net, ms_path, append_dict=dict(APPEND), enc_key=key, enc_mode=mode)
    ts.save_checkpoint(ts_net, ts_path, append_dict=dict(APPEND), enc_key=key, enc_mode=mode)
    assert len(_read(ms_path)) == len(_read(ts_path))
    _check_ts_dict(ts.load_checkpoint(ms_path, dec_key=key, dec_mode=mode))
    _check_ms_dict(mindspore.load_checkpoint(ts_path, dec_key=key, dec_mode=mode))
    # A wrong key fails GCM's tag check every time. In the CBC modes it fails the PKCS7 padding check,
    # except when the garbage happens to end in valid padding (about 1 in 256 with the random IV):
    # then, in MindSpore as in tfspore, the protobuf parse fails and the message says "corrupted".
    wrong_key = "may be encrypted or tempered with" + ("" if mode == "AES-GCM" else "|The file may be corrupted")
    with pytest.raises(ValueError, match=wrong_key):
        ts.load_checkpoint(ms_path, dec_key=b"x" * len(key), dec_mode=mode)
    # MindSpore's cipher-file check knows only the AES magics, so its SM4 message differs
    with pytest.raises(ValueError, match=wrong_key + "|May not have permission"):
        mindspore.load_checkpoint(ts_path, dec_key=b"x" * len(key), dec_mode=mode)
    with pytest.raises(ValueError, match="The file may be corrupted"):
        ts.load_checkpoint(ms_path)


def test_encrypted_dense_sizes(tmp_path):
    dense = mindspore.nn.Dense(3, 2)
    dense.weight.set_data(mindspore.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
    dense.bias.set_data(mindspore.Tensor(np.array([0.5, -1], np.float32)))
    plain = str(tmp_path / "dense.ckpt")
    mindspore.save_checkpoint(dense, plain)
    ts_dict = ts.load_checkpoint(plain)
    ts.save_checkpoint(ts_dict, str(tmp_path / "dense_ts.ckpt"))
    assert _read(plain) == _read(str(tmp_path / "dense_ts.ckpt")) == bytes.fromhex(
        "0a310a067765696768741227080208031207466c6f617433321a18000000000000803f0000004000004040"
        "000080400000a0400a1d0a0462696173121508021207466c6f617433321a080000003f000080bf")
    for mode, size in (("AES-GCM", 130), ("AES-CBC", 128)):
        path = str(tmp_path / f"{mode}.ckpt")
        mindspore.save_checkpoint(dense, path, enc_key=KEY16, enc_mode=mode)
        assert len(_read(path)) == size
        d = ts.load_checkpoint(path, dec_key=KEY16, dec_mode=mode)
        np.testing.assert_array_equal(d["bias"].asnumpy(), [0.5, -1])


def test_crc_both_ways(tmp_path, ms_net, ts_net):
    ms_path, ts_path = str(tmp_path / "ms.ckpt"), str(tmp_path / "ts.ckpt")
    mindspore.save_checkpoint(ms_net, ms_path, append_dict=dict(APPEND), crc_check=True)
    ts.save_checkpoint(ts_net, ts_path, append_dict=dict(APPEND), crc_check=True)
    assert _read(ms_path) == _read(ts_path)
    _check_ts_dict(ts.load_checkpoint(ms_path, crc_check=True))
    _check_ms_dict(mindspore.load_checkpoint(ts_path, crc_check=True))
    for path in (ms_path, ts_path):
        data = bytearray(_read(path))
        data[30] ^= 0x10
        os.chmod(path, 0o600)
        with open(path, "wb") as f:
            f.write(data)
    with pytest.raises(ValueError, match="the crc check is failed"):
        ts.load_checkpoint(ms_path, crc_check=True)
    with pytest.raises(ValueError) as info:  # MindSpore re-raises it as "Failed to read ..."
        mindspore.load_checkpoint(ts_path, crc_check=True)
    assert "the crc check is failed" in str(info.value.__cause__)


def test_split_entries_both_ways(tmp_path, monkeypatch):
    arr = np.arange(2000, dtype=np.float32).reshape(500, 4)  # 8000 bytes
    ms_path, ts_path = str(tmp_path / "ms.ckpt"), str(tmp_path / "ts.ckpt")
    monkeypatch.setattr(ms_ser, "SLICE_SIZE", 1)  # MindSpore's unit is KiB: 1024-byte entries
    monkeypatch.setattr(_ckpt_format, "_SLICE_BYTES", 1024)
    mindspore.save_checkpoint([mindspore.Parameter(mindspore.Tensor(arr), name="big")], ms_path)
    ts.save_checkpoint([ts.Parameter(ts.Tensor(arr), name="big")], ts_path)
    assert _read(ms_path) == _read(ts_path)
    assert _read(ms_path).count(b"big") == 8
    np.testing.assert_array_equal(ts.load_checkpoint(ms_path)["big"].asnumpy(), arr)
    np.testing.assert_array_equal(mindspore.load_checkpoint(ts_path)["big"].asnumpy(), arr)


def test_str_and_dict_save_both_ways(tmp_path):
    ms_path, ts_path = str(tmp_path / "ms.ckpt"), str(tmp_path / "ts.ckpt")
    arr = np.arange(6, dtype=np.int32).reshape(3, 2)
    mindspore.save_checkpoint({"a": mindspore.Parameter(mindspore.Tensor(arr), name="x"), "s": "text", "n": arr},
                              ms_path)
    ts.save_checkpoint({"a": ts.Parameter(ts.Tensor(arr), name="x"), "s": "text", "n": arr}, ts_path)
    assert _read(ms_path) == _read(ts_path)
    assert ts.load_checkpoint(ms_path)["s"] == mindspore.load_checkpoint(ts_path)["s"] == "text"


class MsBlock(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = mindspore.Parameter(mindspore.Tensor(np.ones((2, 2), np.float32)), name="weight")
        self.bias = mindspore.Parameter(mindspore.Tensor(np.zeros(2, np.float32)), name="bias")


class MsTop(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = mindspore.Parameter(mindspore.Tensor(np.ones(1, np.float32)), name="scale")
        self.body = MsBlock()
        self.head = MsBlock()
        self.alias = self.body


class TsBlock(ts.nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ts.Parameter(ts.Tensor(np.ones((2, 2), np.float32)), name="weight")
        self.bias = ts.Parameter(ts.Tensor(np.zeros(2, np.float32)), name="bias")


class TsTop(ts.nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = ts.Parameter(ts.Tensor(np.ones(1, np.float32)), name="scale")
        self.body = TsBlock()
        self.head = TsBlock()
        self.alias = self.body


def test_nested_cell_names_and_load_param_into_net_quirks(tmp_path):
    ms_path, ts_path = str(tmp_path / "ms.ckpt"), str(tmp_path / "ts.ckpt")
    mindspore.save_checkpoint(MsTop(), ms_path)
    ts.save_checkpoint(TsTop(), ts_path)
    assert _read(ms_path) == _read(ts_path)
    # the prefix fallback and its return values
    names = ["body.weight", "body.bias"]
    ms_dict = {"net." + n: mindspore.Parameter(mindspore.Tensor(np.full((2, 2) if n.endswith("weight") else (2,), 5,
                                                                        np.float32)), name="net." + n) for n in names}
    ts_dict = {k: ts.Parameter(ts.Tensor(v.asnumpy()), name=k) for k, v in ms_dict.items()}
    for strict in (False, True):
        ms_net, ts_net = MsTop(), TsTop()
        ms_ret = mindspore.load_param_into_net(ms_net, ms_dict, strict_load=strict)
        ts_ret = ts.load_param_into_net(ts_net, ts_dict, strict_load=strict)
        assert ts_ret == tuple(ms_ret)
        np.testing.assert_array_equal(ts_net.body.weight.asnumpy(), ms_net.body.weight.asnumpy())


def test_dtype_conversion_matches(tmp_path):
    ms_net, ts_net = MsBlock(), TsBlock()
    w = np.array([[1.5, -2], [3, 4]])
    ms_ret = mindspore.load_param_into_net(
        ms_net, {"weight": mindspore.Parameter(mindspore.Tensor(w.astype(np.float16)), name="weight")})
    ts_ret = ts.load_param_into_net(ts_net, {"weight": ts.Parameter(ts.Tensor(w.astype(np.float16)), name="weight")})
    assert ts_ret == tuple(ms_ret)
    assert str(ms_net.weight.dtype) == str(ts_net.weight.dtype) == "Float32"
    np.testing.assert_array_equal(ts_net.weight.asnumpy(), ms_net.weight.asnumpy())
    with pytest.raises(RuntimeError, match="should have the same type"):
        mindspore.load_param_into_net(
            MsBlock(), {"weight": mindspore.Parameter(mindspore.Tensor(w.astype(np.float16)), name="weight")},
            strict_load=True)
    with pytest.raises(RuntimeError, match="should have the same type"):
        ts.load_param_into_net(TsBlock(), {"weight": ts.Parameter(ts.Tensor(w.astype(np.float16)), name="weight")},
                               strict_load=True)

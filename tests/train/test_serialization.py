"""Tests of tfspore.train.serialization: the .ckpt byte format and the save/load contracts."""
import binascii
import logging
import os
import stat
import struct

import numpy as np
import pytest
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

import tfspore as ms
from tfspore import Parameter, Tensor, nn
from tfspore.train import _ckpt_format, _crypto
from tfspore.train import serialization as ser
from tfspore.train import load_checkpoint, load_checkpoint_async, load_param_into_net, save_checkpoint
from tfspore._internal.proto.checkpoint_pb2 import Checkpoint

KEY16 = b"0123456789abcdef"
KEY32 = b"0123456789abcdef0123456789abcdef"

# spec §7: nn.Dense(3, 2) with weight [[0,1,2],[3,4,5]] and bias [0.5,-1], saved by MindSpore (82 bytes)
DENSE_HEX = ("0a310a067765696768741227080208031207466c6f617433321a18000000000000803f0000004000004040"
             "000080400000a0400a1d0a0462696173121508021207466c6f617433321a080000003f000080bf")
# the append_dict {"epoch_num":3,"step_num":12,"lr":0.01,"flag":True,"name":"abc"} part
APPEND_HEX = ("0a1e0a0965706f63685f6e756d12111205496e7436341a080300000000000000"
              "0a1d0a08737465705f6e756d12111205496e7436341a080c00000000000000"
              "0a150a026c72120f1207466c6f617433321a040ad7233c"
              "0a110a04666c616712091204426f6f6c1a0101"
              "0a1d0a046e616d651215080012037374721a0c610000006200000063000000")
APPEND = {"epoch_num": 3, "step_num": 12, "lr": 0.01, "flag": True, "name": "abc"}


class Dense(nn.Cell):
    """A Dense(3, 2)-like cell with the spec's weights."""

    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="weight")
        self.bias = Parameter(Tensor(np.array([0.5, -1.0], np.float32)), name="bias")


class Seq(nn.Cell):
    """Two Dense cells named '0' and '1', as a SequentialCell names them."""

    def __init__(self):
        super().__init__()
        self.l0 = Dense()
        self.l1 = Dense()
        for prefix, cell in (("0", self.l0), ("1", self.l1)):
            cell.update_parameters_name(prefix + ".")


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


# ------------------------------------------------------------------------------ byte format
def test_dense_hex_walkthrough(tmp_path):
    path = tmp_path / "dense.ckpt"
    save_checkpoint(Dense(), str(path))
    assert _bytes(path) == bytes.fromhex(DENSE_HEX)


def test_append_dict_bytes_and_values(tmp_path):
    path = str(tmp_path / "dense.ckpt")
    save_checkpoint(Dense(), path, append_dict=dict(APPEND))
    data = _bytes(path)
    assert len(data) == 218
    assert data == bytes.fromhex(DENSE_HEX + APPEND_HEX)
    d = load_checkpoint(path)
    assert list(d) == ["weight", "bias", "epoch_num", "step_num", "lr", "flag", "name"]
    assert d["epoch_num"].dtype == ms.int64 and d["epoch_num"].shape == () and d["epoch_num"].asnumpy() == 3
    assert d["step_num"].asnumpy() == 12
    assert d["lr"].dtype == ms.float32 and d["lr"].asnumpy() == np.float32(0.01)
    assert d["flag"].dtype == ms.bool_ and bool(d["flag"].asnumpy()) is True
    assert d["name"] == "abc" and isinstance(d["name"], str)
    np.testing.assert_array_equal(d["weight"].asnumpy(), np.arange(6, dtype=np.float32).reshape(2, 3))
    assert d["weight"].name == "weight" and d["weight"].requires_grad


def test_crc_trailer_bytes(tmp_path):
    path = str(tmp_path / "dense.ckpt")
    save_checkpoint(Dense(), path, crc_check=True)
    data = _bytes(path)
    assert data[:-17] == bytes.fromhex(DENSE_HEX)
    assert data[-17:] == bytes.fromhex("6372635f6e756d000000000000e36f949a")
    assert int.from_bytes(data[-10:], "big") == binascii.crc32(data[:-17]) == 3815740570


def test_dense_parses_with_protobuf_schema(tmp_path):
    ckpt = Checkpoint()
    ckpt.ParseFromString(bytes.fromhex(DENSE_HEX))
    assert [v.tag for v in ckpt.value] == ["weight", "bias"]
    assert list(ckpt.value[0].tensor.dims) == [2, 3] and ckpt.value[0].tensor.tensor_type == "Float32"


SPEC_TABLE = [
    (ms.float16, "Float16", "003c0040"),
    (ms.float32, "Float32", "0000803f00000040"),
    (ms.float64, "Float64", "000000000000f03f0000000000000040"),
    (ms.bfloat16, "BFloat16", "803f0040"),
    (ms.int8, "Int8", "0102"), (ms.uint8, "UInt8", "0102"),
    (ms.int16, "Int16", "01000200"), (ms.uint16, "UInt16", "01000200"),
    (ms.int32, "Int32", "0100000002000000"), (ms.uint32, "UInt32", "0100000002000000"),
    (ms.int64, "Int64", "01000000000000000200000000000000"),
    (ms.uint64, "UInt64", "01000000000000000200000000000000"),
    (ms.bool_, "Bool", "0101"),
]


@pytest.mark.parametrize("dtype,type_str,content", SPEC_TABLE, ids=[t[1] for t in SPEC_TABLE])
def test_dtype_table_bytes_and_round_trip(tmp_path, dtype, type_str, content):
    path = str(tmp_path / "t.ckpt")
    param = Parameter(Tensor(np.array([1, 2]), dtype), name="p")
    save_checkpoint([param], path)
    ckpt = Checkpoint()
    ckpt.ParseFromString(_bytes(path))
    (value,) = ckpt.value
    assert value.tag == "p" and list(value.tensor.dims) == [2]
    assert value.tensor.tensor_type == type_str
    assert value.tensor.tensor_content == bytes.fromhex(content)
    loaded = load_checkpoint(path)["p"]
    assert loaded.dtype == dtype and loaded.shape == (2,)
    np.testing.assert_array_equal(loaded.asnumpy(), np.array([1, 2]).astype(dtype.np_dtype))


def test_scalar_has_no_dims(tmp_path):
    path = str(tmp_path / "s.ckpt")
    save_checkpoint({"scalar0d": Tensor(np.array(3.5, np.float32))}, path)
    ckpt = Checkpoint()
    ckpt.ParseFromString(_bytes(path))
    assert list(ckpt.value[0].tensor.dims) == []
    assert ckpt.value[0].tensor.tensor_content == bytes.fromhex("00006040")
    d = load_checkpoint(path)
    assert d["scalar0d"].shape == () and d["scalar0d"].asnumpy() == 3.5


def test_dims_zero_loads_as_scalar(tmp_path):
    ckpt = Checkpoint()
    value = ckpt.value.add()
    value.tag = "x"
    value.tensor.dims.append(0)
    value.tensor.tensor_type = "Int32"
    value.tensor.tensor_content = struct.pack("<i", 7)
    path = tmp_path / "z.ckpt"
    path.write_bytes(ckpt.SerializeToString())
    x = load_checkpoint(str(path))["x"]
    assert x.shape == () and x.asnumpy() == 7


def test_str_values(tmp_path):
    path = str(tmp_path / "s.ckpt")
    save_checkpoint({"a": "héllo ✓", "e": ""}, path)
    d = load_checkpoint(path)
    assert d == {"a": "héllo ✓", "e": ""}
    ckpt = Checkpoint()
    ckpt.ParseFromString(_bytes(path))
    assert list(ckpt.value[0].tensor.dims) == [0] and ckpt.value[0].tensor.tensor_type == "str"
    assert ckpt.value[0].tensor.tensor_content == "héllo ✓".encode("utf-32-le")


# ------------------------------------------------------------------------------ save_obj kinds
def test_cell_order_dedup_and_names(tmp_path):
    class Shared(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Dense()
            self.b = self.a  # the same cell twice: saved once
            self.scale = Parameter(Tensor(np.ones(1, np.float32)), name="scale", requires_grad=False)

    net = Shared()
    path = str(tmp_path / "n.ckpt")
    save_checkpoint(net, path)
    names = [p.name for _, p in net.parameters_and_names()]
    assert list(load_checkpoint(path)) == names
    assert len(names) == len(set(names))


def test_sequential_names_and_choice_func(tmp_path):
    path = str(tmp_path / "seq.ckpt")
    save_checkpoint(Seq(), path, choice_func=lambda n: n.startswith("0."), append_dict={"epoch_num": 1})
    assert list(load_checkpoint(path)) == ["0.weight", "0.bias", "epoch_num"]


def test_list_of_parameters_and_dicts(tmp_path):
    w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
    b = Parameter(Tensor(np.zeros(2, np.float16)), name="b")
    p1, p2 = str(tmp_path / "l1.ckpt"), str(tmp_path / "l2.ckpt")
    save_checkpoint([w, b], p1, choice_func=lambda n: n != "b")
    assert list(load_checkpoint(p1)) == ["w"]
    save_checkpoint([{"name": "renamed", "data": w}, {"name": "t", "data": Tensor(np.arange(3))}], p2)
    d = load_checkpoint(p2)
    assert list(d) == ["renamed", "t"] and d["renamed"].name == "renamed"
    assert d["t"].dtype == ms.int64
    assert save_checkpoint([], str(tmp_path / "empty.ckpt")) is None
    assert _bytes(tmp_path / "empty.ckpt") == b""


def test_dict_save_and_resave_loaded(tmp_path):
    src = {"p": Parameter(Tensor(np.ones(3, np.float32)), name="other_name"),
           "t": Tensor(np.arange(4, dtype=np.int32)),
           "n": np.arange(6, dtype=np.float64).reshape(2, 3),
           "s": "text"}
    p1, p2 = str(tmp_path / "d1.ckpt"), str(tmp_path / "d2.ckpt")
    save_checkpoint(src, p1)
    d = load_checkpoint(p1)
    assert list(d) == ["p", "t", "n", "s"]
    assert d["n"].dtype == ms.float64 and d["t"].dtype == ms.int32 and d["s"] == "text"
    save_checkpoint(d, p2)
    assert _bytes(p1) == _bytes(p2)


def test_append_dict_tensor_and_not_filtered(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(Dense(), path, choice_func=lambda n: False,
                    append_dict={"t": Tensor(np.ones((2,), np.float16)), "i": -5})
    d = load_checkpoint(path)
    assert list(d) == ["t", "i"] and d["t"].dtype == ms.float16 and d["i"].asnumpy() == -5


# ------------------------------------------------------------------------------ file handling
def test_suffix_permissions_and_overwrite(tmp_path):
    save_checkpoint(Dense(), str(tmp_path / "dense_noext"))
    save_checkpoint(Dense(), str(tmp_path / "name.other"))
    assert (tmp_path / "dense_noext.ckpt").exists() and (tmp_path / "name.other.ckpt").exists()
    target = tmp_path / "dense_noext.ckpt"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o400
    save_checkpoint({"only": Tensor(np.ones(1, np.float32))}, str(target))  # overwrites a read-only file
    assert list(load_checkpoint(str(target))) == ["only"]
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o400
    assert sorted(os.listdir(tmp_path)) == ["dense_noext.ckpt", "name.other.ckpt"]


def test_pathlike_accepted(tmp_path):
    save_checkpoint(Dense(), tmp_path / "p.ckpt")
    assert list(load_checkpoint(tmp_path / "p.ckpt")) == ["weight", "bias"]


def test_failed_save_leaves_old_file_and_no_tmp(tmp_path, monkeypatch):
    path = str(tmp_path / "keep.ckpt")
    save_checkpoint(Dense(), path)
    before = _bytes(path)

    def broken(entries, split_rows):
        yield b"\x0a\x00"
        raise OSError("disk full")

    monkeypatch.setattr(_ckpt_format, "records", broken)
    with pytest.raises(OSError, match="disk full"):
        save_checkpoint({"x": Tensor(np.ones(1, np.float32))}, path)
    assert _bytes(path) == before
    assert os.listdir(tmp_path) == ["keep.ckpt"]


def test_large_tensor_split_into_entries(tmp_path, monkeypatch):
    monkeypatch.setattr(_ckpt_format, "_SLICE_BYTES", 64)
    arr = np.arange(100, dtype=np.float32).reshape(25, 4)  # 400 bytes -> 7 chunks
    for async_save, count in ((False, 7), (True, 7)):
        path = str(tmp_path / f"big{async_save}.ckpt")
        save_checkpoint({"big": Tensor(arr), "small": Tensor(np.ones(2, np.int8))}, path, async_save=async_save)
        ser._wait_async_thread_save_ckpt()
        ckpt = Checkpoint()
        ckpt.ParseFromString(_bytes(path))
        tags = [v.tag for v in ckpt.value]
        assert tags == ["big"] * count + ["small"]
        assert all(list(v.tensor.dims) == [25, 4] for v in ckpt.value[:count])
        if async_save:  # np.array_split along axis 0: whole rows per entry
            assert all(len(v.tensor.tensor_content) % 16 == 0 for v in ckpt.value[:count])
        d = load_checkpoint(path)
        np.testing.assert_array_equal(d["big"].asnumpy(), arr)


def test_async_save_snapshots_values(tmp_path):
    net = Dense()
    path = str(tmp_path / "async.ckpt")
    save_checkpoint(net, path, async_save=True, append_dict={"epoch_num": 2})
    net.weight.set_data(Tensor(np.zeros((2, 3), np.float32)))
    save_checkpoint(net, str(tmp_path / "async2.ckpt"), async_save="thread")  # waits for the first
    ser._wait_async_thread_save_ckpt()
    assert not ser.async_ckpt_thread_status()
    np.testing.assert_array_equal(load_checkpoint(path)["weight"].asnumpy(), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(load_checkpoint(str(tmp_path / "async2.ckpt"))["weight"].asnumpy(), 0)


# ------------------------------------------------------------------------------ save errors
@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(save_obj="x"), TypeError, r"'save_obj' must be nn.Cell, list or dict, but got <class 'str'>"),
    (dict(save_obj=[1]), TypeError, r"list of Parameter.*but got <class 'int'>"),
    (dict(save_obj=[{"name": 1, "data": Tensor(1.0)}]), TypeError, "the name in dict should be string"),
    (dict(save_obj=[{"name": "a", "data": 1}]), TypeError,
     "the data in dict should be parameter, but got <class 'int'>"),
    (dict(save_obj={1: Tensor(1.0)}), TypeError, "the key should be str"),
    (dict(save_obj={"a": 3}), TypeError, "the type of value is <class 'int'>"),
    (dict(ckpt_file_name=3), TypeError, r"'ckpt_file_name' must be string, but got 3"),
    (dict(format="h5"), ValueError, "the format must be 'safetensors' or 'ckpt', but got h5"),
    (dict(append_dict={"a": [1]}), TypeError, "but got key: <class 'str'>, value: <class 'list'>"),
    (dict(append_dict=[1]), TypeError, "'append_dict' must be dict"),
    (dict(async_save="proc"), ValueError, "'async_save' can only be 'process' or 'thread', but got 'proc'"),
    (dict(async_save=1), TypeError, "'async_save' must be bool or str"),
    (dict(integrated_save=1), TypeError, "'integrated_save' must be bool, but got 1"),
    (dict(enc_key="k" * 16), ValueError, "'enc_key' must be None or bytes, but got 'kkkk"),
    (dict(enc_key=b"12345"), ValueError, "length of 'enc_key' must be 16, 24 or 32 bytes for AES-GCM, but got key "
                                         "length 5"),
    (dict(enc_key=KEY32, enc_mode="SM4-CBC"), ValueError, "must be 16 bytes for SM4-CBC"),
    (dict(enc_key=KEY16, enc_mode="DES"), ValueError, "'enc_mode' must be one of .*but got 'DES'"),
    (dict(enc_key=KEY16, crc_check=True), ValueError, "'crc_check=True' can't be combined with 'enc_key'"),
    (dict(crc_check=1), ValueError, "'crc_check' must be bool, but got 1"),
])
def test_save_errors(tmp_path, kwargs, exc, match):
    args = dict(save_obj=Dense(), ckpt_file_name=str(tmp_path / "e.ckpt"))
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        save_checkpoint(**args)
    assert not os.listdir(tmp_path)


def test_save_to_directory(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a directory"):
        save_checkpoint(Dense(), str(tmp_path))


# ------------------------------------------------------------------------------ load options and errors
def test_prefix_and_choice_func(tmp_path):
    path = str(tmp_path / "seq.ckpt")
    save_checkpoint(Seq(), path)
    assert list(load_checkpoint(path, specify_prefix="0.")) == ["0.weight", "0.bias"]
    assert list(load_checkpoint(path, filter_prefix=["0.", "1.b"])) == ["1.weight"]
    assert list(load_checkpoint(path, specify_prefix=("0.", "1."), filter_prefix="1.w")) == ["0.weight", "0.bias",
                                                                                            "1.bias"]
    assert list(load_checkpoint(path, choice_func=lambda n: n.endswith("bias"))) == ["0.bias", "1.bias"]
    # a prefix disables choice_func
    assert list(load_checkpoint(path, specify_prefix="1.", choice_func=lambda n: False)) == ["1.weight", "1.bias"]
    with pytest.raises(ValueError, match="The loaded parameter dict is empty after filter or specify"):
        load_checkpoint(path, specify_prefix="nothing")
    with pytest.raises(TypeError, match="must be string, list\\[string\\] or tuple\\[string\\], but got <class 'int'>"):
        load_checkpoint(path, filter_prefix=1)
    with pytest.raises(ValueError, match="can't be empty"):
        load_checkpoint(path, specify_prefix=[])
    with pytest.raises(ValueError, match="can't include ''"):
        load_checkpoint(path, specify_prefix="")
    with pytest.raises(TypeError, match="must be string, but got <class 'int'> at index 1"):
        load_checkpoint(path, specify_prefix=["a", 1])


def test_load_file_errors(tmp_path):
    missing = tmp_path / "missing.ckpt"
    with pytest.raises(ValueError, match=f"the checkpoint file: {missing} does not exist"):
        load_checkpoint(str(missing))
    with pytest.raises(ValueError, match="format must same with 'format'.*seq.safetensors"):
        load_checkpoint(str(tmp_path / "seq.safetensors"))
    with pytest.raises(TypeError, match="'ckpt_file_name' must be string, but got 1"):
        load_checkpoint(1)
    with pytest.raises(ValueError, match="format must be 'safetensors' or 'ckpt'|should end with"):
        load_checkpoint(str(missing), format="h5")
    with pytest.raises(ValueError, match="'dec_key' must be None or bytes"):
        load_checkpoint(str(missing), dec_key="abc")
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"\x0a\xff\xff\xff\x0f garbage")
    with pytest.raises(ValueError, match=f"Failed to read the checkpoint file {bad}. The file may be corrupted"):
        load_checkpoint(str(bad))
    text = tmp_path / "text.ckpt"
    text.write_bytes(b"hello world, not a checkpoint")
    with pytest.raises(ValueError, match="The file may be corrupted|failed to load the checkpoint"):
        load_checkpoint(str(text))


def _raw_ckpt(tmp_path, tag, dims, type_str, content):
    ckpt = Checkpoint()
    value = ckpt.value.add()
    value.tag = tag
    value.tensor.dims.extend(dims)
    value.tensor.tensor_type = type_str
    value.tensor.tensor_content = content
    path = tmp_path / "raw.ckpt"
    if path.exists():
        os.chmod(path, 0o600)
    path.write_bytes(ckpt.SerializeToString())
    return str(path)


def test_unknown_type_and_bad_size(tmp_path):
    with pytest.raises(ValueError, match="unknown tensor_type 'Complex64'.*\nFor 'load_checkpoint', failed to load"):
        load_checkpoint(_raw_ckpt(tmp_path, "c", [1], "Complex64", bytes(8)))
    with pytest.raises(ValueError, match="'Int4'"):
        load_checkpoint(_raw_ckpt(tmp_path, "q", [2], "Int4", bytes(1)))
    with pytest.raises(ValueError, match="do not fill its shape"):
        load_checkpoint(_raw_ckpt(tmp_path, "w", [2, 3], "Float32", bytes(20)))


def test_crc_load_checks(tmp_path, caplog):
    path = str(tmp_path / "c.ckpt")
    save_checkpoint(Dense(), path, crc_check=True)
    assert list(load_checkpoint(path, crc_check=True)) == ["weight", "bias"]
    assert list(load_checkpoint(path)) == ["weight", "bias"]  # the trailer is stripped anyway
    data = bytearray(_bytes(path))
    data[40] ^= 0x01  # flip a bit inside the weight's content
    os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(ValueError, match="the crc check is failed"):
        load_checkpoint(path, crc_check=True)
    damaged = load_checkpoint(path)["weight"].asnumpy()  # without crc_check, damaged data loads
    assert not np.array_equal(damaged, np.arange(6).reshape(2, 3))
    plain = str(tmp_path / "plain.ckpt")
    save_checkpoint(Dense(), plain)
    # MindSpore warns and loads; tfspore refuses (a CRC file cut at a record boundary looks the same)
    with pytest.raises(ValueError, match=r"'crc_check' is True, but the ckpt file .*plain\.ckpt does not end with a "
                                         r"CRC trailer"):
        load_checkpoint(plain, crc_check=True)
    assert list(load_checkpoint(plain)) == ["weight", "bias"]



def test_crc_file_cut_at_a_record_boundary(tmp_path):
    """A CRC file cut after its first record parses as a valid smaller checkpoint; crc_check=True refuses it."""
    path = str(tmp_path / "cut.ckpt")
    save_checkpoint(Dense(), path, crc_check=True)
    data = _bytes(path)
    full = Checkpoint()
    full.ParseFromString(data[:-17])
    first = Checkpoint()
    first.value.append(full.value[0])
    cut = first.SerializeToString()
    assert data.startswith(cut) and len(cut) < len(data) - 17
    os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(cut)
    with pytest.raises(ValueError, match=r"cut\.ckpt does not end with a CRC trailer"):
        load_checkpoint(path, crc_check=True)
    assert list(load_checkpoint(path)) == ["weight"]  # without crc_check it loads what is there, as MindSpore
    with open(path, "wb") as f:  # cut inside the trailer: not a trailer, and not a valid protobuf either
        f.write(data[:-5])
    with pytest.raises(ValueError, match="cut.ckpt"):
        load_checkpoint(path, crc_check=True)


# ------------------------------------------------------------------------------ encryption
def _decrypt_independently(data, key, mode):
    """Decrypt by the spec's layout with cryptography (no tfspore code)."""
    out, pos = b"", 0
    while pos < len(data):
        magic = struct.unpack_from("<I", data, pos)[0]
        pos += 4
        if mode == "AES-GCM":
            assert magic == 0x7F3A5ED8
            tag = data[pos:pos + 16]
            pos += 16
        else:
            assert magic == 0x7F3A5ED9
        block_len, iv_len = struct.unpack_from("<II", data, pos)
        iv = data[pos + 8:pos + 8 + iv_len]
        cipher_len = struct.unpack_from("<I", data, pos + 8 + iv_len)[0]
        assert iv_len == 16 and block_len == 4 + iv_len + 4 + cipher_len
        cipher = data[pos + 12 + iv_len:pos + 12 + iv_len + cipher_len]
        pos += 4 + block_len
        if mode == "AES-GCM":
            out += AESGCM(key).decrypt(iv[:12], cipher + tag, None)
        else:
            dec = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
            unpad = padding.PKCS7(128).unpadder()
            out += unpad.update(dec.update(cipher) + dec.finalize()) + unpad.finalize()
    return out


@pytest.mark.parametrize("mode,size", [("AES-GCM", 130), ("AES-CBC", 128)])
def test_encrypted_layout_and_round_trip(tmp_path, mode, size):
    path = str(tmp_path / "enc.ckpt")
    save_checkpoint(Dense(), path, enc_key=KEY16, enc_mode=mode)
    data = _bytes(path)
    assert len(data) == size
    assert _decrypt_independently(data, KEY16, mode) == bytes.fromhex(DENSE_HEX)
    d = load_checkpoint(path, dec_key=KEY16, dec_mode=mode)
    np.testing.assert_array_equal(d["bias"].asnumpy(), [0.5, -1.0])


@pytest.mark.parametrize("key,mode", [(KEY32, "AES-GCM"), (KEY32[:24], "AES-CBC"), (KEY16, "SM4-CBC")])
def test_encrypted_key_sizes_and_sm4(tmp_path, key, mode):
    path = str(tmp_path / "enc.ckpt")
    save_checkpoint(Dense(), path, enc_key=key, enc_mode=mode, append_dict={"s": "x"})
    assert load_checkpoint(path, dec_key=key, dec_mode=mode)["s"] == "x"


def test_encrypted_errors(tmp_path):
    path = str(tmp_path / "enc.ckpt")
    save_checkpoint(Dense(), path, enc_key=KEY16)
    with pytest.raises(ValueError, match=f"Failed to read the checkpoint file {path}. The file may be corrupted"):
        load_checkpoint(path)
    for key, mode in ((b"f" * 16, "AES-GCM"), (KEY16, "AES-CBC")):
        with pytest.raises(ValueError, match="may be encrypted or tempered with, please pass in the correct 'dec_key'"):
            load_checkpoint(path, dec_key=key, dec_mode=mode)
    data = bytearray(_bytes(path))
    data[-1] ^= 1
    os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(ValueError, match="may be encrypted or tempered with"):
        load_checkpoint(path, dec_key=KEY16)
    plain = str(tmp_path / "plain.ckpt")
    save_checkpoint(Dense(), plain)
    with pytest.raises(ValueError, match="The file is not encrypted, so 'dec_key' must be None"):
        load_checkpoint(plain, dec_key=KEY16)
    with pytest.raises(ValueError, match="length of 'dec_key' must be 16, 24 or 32"):
        load_checkpoint(plain, dec_key=b"short")


def test_encrypted_multiple_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(_crypto, "BLOCK_SIZE", 50)
    path = str(tmp_path / "blocks.ckpt")
    save_checkpoint(Dense(), path, enc_key=KEY16, enc_mode="AES-GCM")  # 82 bytes of plaintext -> 50 + 32
    data = _bytes(path)
    assert struct.unpack_from("<I", data, 4 + 16 + 4 + 4 + 16)[0] == 50
    assert len(data) == 2 * 48 + 82
    assert _decrypt_independently(data, KEY16, "AES-GCM") == bytes.fromhex(DENSE_HEX)
    assert list(load_checkpoint(path, dec_key=KEY16)) == ["weight", "bias"]


def test_encrypted_with_trailing_crc_marker_loads(tmp_path):
    # MindSpore appends an unencrypted zero crc after the ciphertext when both are requested
    path = tmp_path / "enc_crc.ckpt"
    blob = _crypto.encrypt_block(bytes.fromhex(DENSE_HEX), KEY16, "AES-CBC") + b"crc_num" + bytes(10)
    path.write_bytes(blob)
    assert list(load_checkpoint(str(path), dec_key=KEY16, dec_mode="AES-CBC")) == ["weight", "bias"]


# ------------------------------------------------------------------------------ load_param_into_net
def test_load_param_into_net_basic(tmp_path):
    path = str(tmp_path / "d.ckpt")
    save_checkpoint(Dense(), path, append_dict={"epoch_num": 1, "name": "s"})
    net = Dense()
    net.weight.set_data(Tensor(np.zeros((2, 3), np.float32)))
    d = load_checkpoint(path, net=net)
    assert isinstance(d, dict) and "weight" in d
    np.testing.assert_array_equal(net.weight.asnumpy(), np.arange(6).reshape(2, 3))
    net2 = Dense()
    assert load_param_into_net(net2, d) == ([], ["epoch_num", "name"])


def test_prefix_fallback_quirk():
    src = Seq()
    d = {"net." + p.name: Parameter(Tensor(p.asnumpy() + 1), name="net." + p.name) for p in src.get_parameters()
         if p.name.startswith("0.")}
    net = Seq()
    assert load_param_into_net(net, d) == (["1.weight", "1.bias"], ["net.0.weight", "net.0.bias"])
    np.testing.assert_array_equal(net.l0.bias.asnumpy(), [1.5, 0.0])
    net = Seq()
    assert load_param_into_net(net, d, strict_load=True) == (["0.weight", "0.bias", "1.weight", "1.bias"],
                                                            ["net.0.weight", "net.0.bias"])
    np.testing.assert_array_equal(net.l0.bias.asnumpy(), [0.5, -1.0])


def test_dtype_conversion_and_strict():
    net = Dense()
    d = {"weight": Parameter(Tensor(np.ones((2, 3)), ms.float16), name="weight"),
         "bias": Parameter(Tensor(np.array([1, 2]), ms.bfloat16), name="bias")}
    assert load_param_into_net(net, d) == ([], [])
    assert net.weight.dtype == ms.float32 and net.bias.dtype == ms.float32
    np.testing.assert_array_equal(net.bias.asnumpy(), [1, 2])
    with pytest.raises(RuntimeError, match="weight in the argument 'net' should have the same type as weight.*"
                                           "Float32.*Float16"):
        load_param_into_net(Dense(), d, strict_load=True)

    class Ints(nn.Cell):
        def __init__(self):
            super().__init__()
            self.i = Parameter(Tensor(np.zeros(2, np.int32)), name="i")
            self.u = Parameter(Tensor(np.zeros(2, np.uint8)), name="u")

    net = Ints()
    load_param_into_net(net, {"i": Parameter(Tensor(np.array([3, 4], np.int64)), name="i")})
    assert net.i.dtype == ms.int32 and list(net.i.asnumpy()) == [3, 4]
    with pytest.raises(RuntimeError, match="should have the same type"):  # uint is not in the int family
        load_param_into_net(net, {"u": Parameter(Tensor(np.array([3, 4], np.int8)), name="u")})
    with pytest.raises(RuntimeError, match="should have the same type"):  # float into int
        load_param_into_net(net, {"i": Parameter(Tensor(np.array([3, 4], np.float32)), name="i")})


def test_shape_checks():
    net = Dense()
    with pytest.raises(RuntimeError, match=r"For 'load_param_into_net', weight in the argument 'net' should have the "
                                           r"same shape as weight in the argument 'parameter_dict'. But got its shape "
                                           r"\(2, 3\) in the argument 'net' and shape \(3, 3\)"):
        load_param_into_net(net, {"weight": Parameter(Tensor(np.ones((3, 3), np.float32)), name="weight")})
    load_param_into_net(net, {"weight": Parameter(Tensor(np.full((2, 3, 1, 1), 7, np.float32)), name="weight")})
    assert net.weight.shape == (2, 3) and np.all(net.weight.asnumpy() == 7)


def test_accu_grads_str_and_type_errors():
    class Accu(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
            self.a = Parameter(Tensor(np.ones(2, np.float32)), name="accu_grads.w")

    assert load_param_into_net(Accu(), {"w": "text", "x": [np.ones(1)]}) == ([], ["w", "x"])
    with pytest.raises(TypeError, match="the argument 'net' should be a Cell"):
        load_param_into_net({}, {})
    with pytest.raises(TypeError, match="'parameter_dict' should be a dict"):
        load_param_into_net(Dense(), [])
    with pytest.raises(TypeError, match="should be a 'str' and 'Parameter'"):
        load_param_into_net(Dense(), {"weight": Tensor(np.ones((2, 3), np.float32))})
    with pytest.raises(TypeError, match="'strict_load' must be bool, but got 1"):
        load_param_into_net(Dense(), {}, strict_load=1)
    with pytest.raises(TypeError, match="only be used in parallel scenarios"):
        load_param_into_net(Dense(), {}, remove_redundancy=True)


def test_load_checkpoint_async(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(Dense(), path)
    assert list(load_checkpoint_async(path).result()) == ["weight", "bias"]
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint_async(str(tmp_path / "nope.ckpt")).result()


def test_top_level_exports():
    import tfspore.train as train
    assert ms.save_checkpoint is train.save_checkpoint is save_checkpoint
    assert ms.load_checkpoint is load_checkpoint and ms.load_param_into_net is load_param_into_net


def test_loaded_values_reach_compiled_cells(tmp_path, mode):
    class Lin(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = Parameter(Tensor(np.ones((2, 3), np.float32)), name="weight")

        def construct(self, x):
            return x @ self.weight

    net = Lin()
    x = Tensor(np.ones((1, 2), np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), [[2, 2, 2]])
    path = str(tmp_path / "lin.ckpt")
    save_checkpoint({"weight": Tensor(np.full((2, 3), 3, np.float32))}, path)
    load_checkpoint(path, net=net)
    np.testing.assert_allclose(net(x).asnumpy(), [[6, 6, 6]])

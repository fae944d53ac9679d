"""format='safetensors' parity: files written by real MindSpore 2.10 load in tfspore, and the reverse."""
import io
import json
import os

import numpy as np
import pytest

mindspore = pytest.importorskip("mindspore")

import tfspore as ts  # noqa: E402
from tfspore.train import _safetensors  # noqa: E402
from tfspore.train import serialization as ts_ser  # noqa: E402
from tests.parity._ms_helpers import DTYPE_VALUES  # noqa: E402

# name -> (numpy values, dtype attribute name); exact in every dtype. MindSpore 2.10 can't turn a
# bfloat16 tensor into numpy under numpy 2, so bfloat16 is checked on the tfspore side only.
VALUES = {**{k: v for k, v in DTYPE_VALUES.items() if k != "bf16"}, "empty": (np.zeros((0, 3)), "float32")}
APPEND = {"epoch_num": 3, "step_num": 12, "lr": 0.01, "flag_a": True}


def _expected(name):
    vals, attr = VALUES[name]
    return vals.astype(getattr(ts, attr).np_dtype)


class MsNet(mindspore.nn.Cell):
    def __init__(self):
        super().__init__()
        for name, (_, attr) in VALUES.items():
            setattr(self, "p_" + name, mindspore.Parameter(mindspore.Tensor(_expected(name)), name=name,
                                                           requires_grad=attr.startswith("float")))


class TsNet(ts.nn.Cell):
    def __init__(self):
        super().__init__()
        for name in VALUES:
            setattr(self, "p_" + name, ts.Parameter(ts.Tensor(_expected(name)), name=name))


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _header(path):
    data = _read(path)
    return json.loads(data[8:8 + int.from_bytes(data[:8], "little")])


def _check_dict(d, dtype_name, to_numpy):
    """Both sides load a safetensors file in sorted name order, values exact."""
    assert list(d) == sorted(list(VALUES) + list(APPEND))
    for name, (_, attr) in VALUES.items():
        assert dtype_name(d[name]) == str(getattr(ts, attr)), name
        assert tuple(d[name].shape) == VALUES[name][0].shape, name
        np.testing.assert_array_equal(to_numpy(d[name]), _expected(name), err_msg=name)
    assert dtype_name(d["epoch_num"]) == "Int64" and to_numpy(d["epoch_num"]) == 3
    assert to_numpy(d["step_num"]) == 12
    assert dtype_name(d["lr"]) == "Float32" and to_numpy(d["lr"]) == np.float32(0.01)
    assert dtype_name(d["flag_a"]) == "Bool" and bool(to_numpy(d["flag_a"]))


def _check_ts_dict(d):
    for value in d.values():
        assert isinstance(value, ts.Parameter) and value.name.startswith("Parameter#")  # unnamed, as MindSpore's
    _check_dict(d, lambda p: str(p.dtype), lambda p: p.asnumpy())


def _check_ms_dict(d):
    _check_dict(d, lambda p: str(p.dtype), lambda p: p.asnumpy())


def test_same_bytes_both_ways(tmp_path):
    ms_path, ts_path = str(tmp_path / "ms.safetensors"), str(tmp_path / "ts.safetensors")
    mindspore.save_checkpoint(MsNet(), ms_path, append_dict=dict(APPEND), format="safetensors")
    ts.save_checkpoint(TsNet(), ts_path, append_dict=dict(APPEND), format="safetensors")
    assert _read(ms_path) == _read(ts_path)
    assert os.stat(ms_path).st_mode == os.stat(ts_path).st_mode
    header = _header(ts_path)
    assert header.pop("__metadata__") == {"format": "ms"}
    # laid out widest dtype first, then by name
    assert [header[n]["dtype"] for n in header][:4] == ["U64", "I64", "I64", "I64"]
    assert list(header)[-2:] == ["flag", "flag_a"]
    # without the extension, ".safetensors" is appended
    ts.save_checkpoint(TsNet(), str(tmp_path / "plain"), format="safetensors")
    assert os.path.exists(str(tmp_path / "plain.safetensors"))


def _dense_pair():
    weight = np.arange(6, dtype=np.float32).reshape(2, 3) / 10
    ms_dense, ts_dense = mindspore.nn.Dense(3, 2), ts.nn.Dense(3, 2)
    for dense, mod in ((ms_dense, mindspore), (ts_dense, ts)):
        dense.weight.set_data(mod.Tensor(weight))
        dense.bias.set_data(mod.Tensor(np.array([0.5, -1], np.float32)))
    return ms_dense, ts_dense


def test_optimizer_state_same_bytes_and_values(tmp_path):
    """A trained TrainOneStepCell (weights, momenta, learning rate, global step) gives the same file."""
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
    y = np.array([0, 1, 1, 0], np.int32)
    files = {}
    for mod, dense in zip((mindspore, ts), _dense_pair()):
        loss = mod.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = mod.nn.Momentum(dense.trainable_params(), 0.1, 0.9)
        step = mod.nn.TrainOneStepCell(mod.nn.WithLossCell(dense, loss), opt)
        step.set_train()
        for _ in range(2):
            step(mod.Tensor(x), mod.Tensor(y))
        files[mod] = str(tmp_path / f"{mod.__name__}.safetensors")
        mod.save_checkpoint(step, files[mod], format="safetensors")
    assert sorted(_header(files[ts])) == sorted(_header(files[mindspore]))
    ms_dict = mindspore.load_checkpoint(files[mindspore], format="safetensors")
    ts_dict = ts.load_checkpoint(files[ts], format="safetensors")
    assert list(ts_dict) == list(ms_dict)
    assert "moments.weight" in ts_dict and "global_step" in ts_dict
    for name in ms_dict:
        np.testing.assert_allclose(ts_dict[name].asnumpy(), ms_dict[name].asnumpy(), rtol=1e-5, atol=1e-7, err_msg=name)
    # a fresh network and optimizer resume from either file
    for path in files.values():
        dense = ts.nn.Dense(3, 2)
        opt = ts.nn.Momentum(dense.trainable_params(), 0.1, 0.9)
        step = ts.nn.TrainOneStepCell(ts.nn.WithLossCell(dense, ts.nn.SoftmaxCrossEntropyWithLogits(sparse=True)), opt)
        assert ts.load_param_into_net(step, ts.load_checkpoint(path, format="safetensors")) == ([], [])
        np.testing.assert_allclose(opt.moments[0].asnumpy(), ms_dict["moments.weight"].asnumpy(), rtol=1e-5, atol=1e-7)


def test_mindspore_writes_tfspore_reads(tmp_path):
    path = str(tmp_path / "ms.safetensors")
    mindspore.save_checkpoint(MsNet(), path, append_dict=dict(APPEND), format="safetensors")
    _check_ts_dict(ts.load_checkpoint(path, format="safetensors"))
    _check_ts_dict(ts.load_checkpoint(io.BytesIO(_read(path)), format="safetensors"))
    _check_ts_dict(ts.train.load_checkpoint_async(path).result())
    net = TsNet()
    for p in net.get_parameters():
        p.set_data(ts.Tensor(np.zeros(p.shape), p.dtype))
    param_not_load, ckpt_not_load = ts.load_param_into_net(net, ts.load_checkpoint(path, format="safetensors"))
    assert param_not_load == [] and ckpt_not_load == sorted(APPEND)
    for name in VALUES:
        np.testing.assert_array_equal(getattr(net, "p_" + name).asnumpy(), _expected(name))
    net = TsNet()
    ts.load_checkpoint(path, net=net, format="safetensors", choice_func=lambda n: n == "f32")
    np.testing.assert_array_equal(net.p_f32.asnumpy(), _expected("f32"))


def test_tfspore_writes_mindspore_reads(tmp_path):
    path = str(tmp_path / "ts.safetensors")
    ts.save_checkpoint(TsNet(), path, append_dict=dict(APPEND), format="safetensors")
    d = mindspore.load_checkpoint(path, format="safetensors")
    _check_ms_dict(d)
    _check_ms_dict(mindspore.load_checkpoint(io.BytesIO(_read(path)), format="safetensors"))
    param_not_load, ckpt_not_load = mindspore.load_param_into_net(MsNet(), d)
    assert param_not_load == [] and ckpt_not_load == sorted(APPEND)


def test_choice_func_both_ways(tmp_path):
    keep = lambda name: name.startswith("i")  # noqa: E731
    ms_path, ts_path = str(tmp_path / "ms.safetensors"), str(tmp_path / "ts.safetensors")
    mindspore.save_checkpoint(MsNet(), ms_path, choice_func=keep, format="safetensors")
    ts.save_checkpoint(TsNet(), ts_path, choice_func=keep, format="safetensors")
    assert _read(ms_path) == _read(ts_path)
    assert list(ts.load_checkpoint(ms_path, format="safetensors", choice_func=lambda n: n.endswith("8"))) == ["i8"]
    assert list(mindspore.load_checkpoint(ts_path, format="safetensors", choice_func=lambda n: n.endswith("8"))) \
        == ["i8"]


def test_crc_counts_integer_scalars_as_mindspore_does(tmp_path):
    """MindSpore's CRC reads a 0-d integer array through bytes(), as a length: tfspore counts the same."""
    ms_path, ts_path = str(tmp_path / "ms.safetensors"), str(tmp_path / "ts.safetensors")
    for mod, path in ((mindspore, ms_path), (ts, ts_path)):
        mod.save_checkpoint({"w": mod.Parameter(mod.Tensor(np.ones(2, np.float32)), name="w")}, path,
                            append_dict={"epoch_num": 3, "lr": 0.5}, crc_check=True, format="safetensors")
    # the metadata's key order is a hash map's in MindSpore's writer: compare it parsed
    assert _header(ms_path) == _header(ts_path)
    assert len(_read(ms_path)) == len(_read(ts_path)) and _read(ms_path)[-20:] == _read(ts_path)[-20:]
    ts.load_checkpoint(ms_path, crc_check=True, format="safetensors")
    mindspore.load_checkpoint(ts_path, crc_check=True, format="safetensors")


def test_crc_both_ways(tmp_path):
    ms_path, ts_path = str(tmp_path / "ms.safetensors"), str(tmp_path / "ts.safetensors")
    mindspore.save_checkpoint(MsNet(), ms_path, append_dict=dict(APPEND), crc_check=True, format="safetensors")
    ts.save_checkpoint(TsNet(), ts_path, append_dict=dict(APPEND), crc_check=True, format="safetensors")
    ms_meta, ts_meta = _header(ms_path)["__metadata__"], _header(ts_path)["__metadata__"]
    assert ms_meta == ts_meta and set(ts_meta) == {"format", "crc_num"}
    assert len(_read(ms_path)) == len(_read(ts_path))
    _check_ts_dict(ts.load_checkpoint(ms_path, crc_check=True, format="safetensors"))
    _check_ms_dict(mindspore.load_checkpoint(ts_path, crc_check=True, format="safetensors"))
    for path in (ms_path, ts_path):  # flip a bit of the last tensor's data
        data = bytearray(_read(path))
        data[-1] ^= 0x01
        os.chmod(path, 0o600)
        with open(path, "wb") as f:
            f.write(data)
    with pytest.raises(ValueError, match="the crc check has failed"):
        ts.load_checkpoint(ms_path, crc_check=True, format="safetensors")
    with pytest.raises(ValueError, match="the crc check has failed"):
        mindspore.load_checkpoint(ts_path, crc_check=True, format="safetensors")
    assert ts.load_checkpoint(ms_path, format="safetensors")  # without crc_check the damage goes unseen


@pytest.mark.parametrize("kwargs", [dict(enc_key=b"0123456789abcdef"), dict(enc_mode="AES-CBC"),
                                    dict(global_step_num=3), dict(incremental=True)])
def test_save_refuses_what_mindspore_refuses(tmp_path, kwargs):
    with pytest.raises(ValueError) as ms_info:
        mindspore.save_checkpoint(MsNet(), str(tmp_path / "ms.safetensors"), format="safetensors", **kwargs)
    with pytest.raises(ValueError) as ts_info:
        ts.save_checkpoint(TsNet(), str(tmp_path / "ts.safetensors"), format="safetensors", **kwargs)
    assert str(ts_info.value) == str(ms_info.value)
    assert "when format is 'safetensors', the parameter" in str(ts_info.value)


@pytest.mark.parametrize("kwargs", [dict(dec_key=b"0123456789abcdef"), dict(dec_mode="AES-CBC")])
def test_load_refuses_what_mindspore_refuses(tmp_path, kwargs):
    path = str(tmp_path / "ts.safetensors")
    ts.save_checkpoint(TsNet(), path, format="safetensors")
    with pytest.raises(ValueError) as ms_info:
        mindspore.load_checkpoint(path, format="safetensors", **kwargs)
    with pytest.raises(ValueError) as ts_info:
        ts.load_checkpoint(path, format="safetensors", **kwargs)
    assert str(ts_info.value) == str(ms_info.value)


def test_str_values_are_refused_and_the_old_file_kept(tmp_path):
    path = str(tmp_path / "ts.safetensors")
    ts.save_checkpoint(TsNet(), path, format="safetensors")
    before = _read(path)
    with pytest.raises(Exception, match="str"):  # MindSpore: safetensors' SafetensorError, after deleting the file
        mindspore.save_checkpoint(MsNet(), str(tmp_path / "ms.safetensors"), append_dict={"note": "abc"},
                                  format="safetensors")
    with pytest.raises(TypeError, match=r"For 'save_checkpoint', format='safetensors' can't store the str value of "
                                        r"'note' \(got 'abc'\)"):
        ts.save_checkpoint(TsNet(), path, append_dict={"note": "abc"}, format="safetensors")
    with pytest.raises(TypeError, match="can't store the str value of 's'"):
        ts.save_checkpoint({"s": "text"}, path, format="safetensors", async_save=True)
    assert _read(path) == before


def test_atomic_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = str(tmp_path / "net.safetensors")
    ts.save_checkpoint(TsNet(), path, format="safetensors")
    before = _read(path)

    def crashing(entries, crc_check, remove_redundancy):
        yield b"\x10" + b"\x00" * 7
        raise OSError("disk full")

    monkeypatch.setattr(_safetensors, "safetensors_bytes", crashing)
    with pytest.raises(OSError, match="disk full"):
        ts.save_checkpoint(TsNet(), path, format="safetensors")
    assert _read(path) == before
    assert sorted(os.listdir(tmp_path)) == ["net.safetensors"]  # no net.tmp left behind


def _corruptions(data):
    n = int.from_bytes(data[:8], "little")
    return {
        "truncated": data[:-3],
        "too short": data[:5],
        "header past the end": (len(data) * 2).to_bytes(8, "little") + data[8:],
        "not json": data[:8] + b"x" * n + data[8 + n:],
        "extra bytes": data + b"\x00",
        "empty": b"",
    }


@pytest.mark.parametrize("kind", ["truncated", "too short", "header past the end", "not json", "extra bytes",
                                  "empty"])
def test_corrupt_files_are_refused_by_both(tmp_path, kind):
    good = str(tmp_path / "good.safetensors")
    ts.save_checkpoint(TsNet(), good, format="safetensors")
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(_corruptions(_read(good))[kind])
    with pytest.raises(ValueError):
        mindspore.load_checkpoint(str(bad), format="safetensors")
    with pytest.raises(ValueError, match=f"Fail to parse the input safetensors: '{bad}'.*not a valid safetensors"):
        ts.load_checkpoint(str(bad), format="safetensors")


def test_argument_errors(tmp_path):
    path = str(tmp_path / "ts.safetensors")
    ts.save_checkpoint(TsNet(), path, format="safetensors")
    with pytest.raises(ValueError, match="format must same with 'format'"):
        ts.load_checkpoint(path)  # format defaults to ckpt
    with pytest.raises(TypeError, match="ckpt don't support BytesIO"):
        ts.load_checkpoint(io.BytesIO(_read(path)))
    with pytest.raises(ValueError, match="does not exist"):
        ts.load_checkpoint(str(tmp_path / "missing.safetensors"), format="safetensors")
    with pytest.raises(ValueError, match="the format must be 'safetensors' or 'ckpt', but got npz"):
        ts.save_checkpoint(TsNet(), path, format="npz")


def test_bfloat16_and_model_checkpoint_files(tmp_path):
    """bfloat16 is stored as BF16; ModelCheckpoint with format='safetensors' writes files MindSpore reads."""
    path = str(tmp_path / "bf.safetensors")
    values = np.array([[1.0, 2.5, -3.0, 0.15625]], np.float32)
    ts.save_checkpoint({"w": ts.Parameter(ts.Tensor(values, ts.bfloat16), name="w"),
                        "b": ts.Parameter(ts.Tensor(values[0]), name="b")}, path, format="safetensors")
    header = _header(path)
    assert header["w"] == {"dtype": "BF16", "shape": [1, 4], "data_offsets": [16, 24]}
    loaded = ts.load_checkpoint(path, format="safetensors")
    assert loaded["w"].dtype == ts.bfloat16
    np.testing.assert_array_equal(loaded["w"].asnumpy().astype(np.float32), values)

    ms_dense, ts_dense = _dense_pair()
    data = ts.dataset.NumpySlicesDataset(
        {"x": np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3), "y": np.arange(8, dtype=np.int32) % 2},
        shuffle=False).batch(4)
    model = ts.Model(ts_dense, ts.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     ts.nn.Momentum(ts_dense.trainable_params(), 0.1, 0.9))
    config = ts.train.CheckpointConfig(save_checkpoint_steps=2, format="safetensors", append_info=["epoch_num"])
    ckpt_cb = ts.train.ModelCheckpoint(prefix="dense", directory=str(tmp_path / "ckpt"), config=config)
    model.train(2, data, callbacks=[ckpt_cb])
    assert sorted(f for f in os.listdir(tmp_path / "ckpt") if not f.endswith(".meta")) == [
        "dense-1_2.safetensors", "dense-2_2.safetensors"]
    assert ckpt_cb.latest_ckpt_file_name.endswith("dense-2_2.safetensors")
    d = mindspore.load_checkpoint(ckpt_cb.latest_ckpt_file_name, format="safetensors")
    assert int(d["epoch_num"].asnumpy()) == 2
    mindspore.load_param_into_net(ms_dense, d)
    np.testing.assert_allclose(ms_dense.weight.asnumpy(), ts_dense.weight.asnumpy(), rtol=1e-6)


def test_async_save_and_prefixes(tmp_path):
    path = str(tmp_path / "async.safetensors")
    ts.save_checkpoint(TsNet(), path, format="safetensors", async_save=True, append_dict={"epoch_num": 1})
    ts_ser._wait_async_thread_save_ckpt()
    assert mindspore.load_checkpoint(path, format="safetensors")["epoch_num"].asnumpy() == 1
    # tfspore applies specify_prefix / filter_prefix to safetensors files too (MindSpore 2.10 ignores them there)
    assert list(ts.load_checkpoint(path, format="safetensors", specify_prefix="u")) == ["u16", "u32", "u64", "u8"]
    assert "u8" not in ts.load_checkpoint(path, format="safetensors", filter_prefix=["u", "i"])
    assert len(mindspore.load_checkpoint(path, format="safetensors", specify_prefix="u")) == len(VALUES) + 1

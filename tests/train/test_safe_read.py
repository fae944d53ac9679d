"""load_checkpoint on hostile files: FIFOs, devices, size bombs, deep headers, crafted entries, fuzzing."""
import binascii
import json
import os
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tfspore as ms
from tfspore.train import serialization as ser
from tfspore._internal.proto.checkpoint_pb2 import Checkpoint
from tfspore.train._safe_read import crc32_zeros, read_regular


def _params():
    return {"w": ms.Parameter(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="w"),
            "b": ms.Parameter(ms.Tensor(np.ones(3, np.int32)), name="b")}


def _load_in_thread(*args, **kwargs):
    out = {}

    def run():
        try:
            out["value"] = ser.load_checkpoint(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001
            out["error"] = e
    thr = threading.Thread(target=run, daemon=True)
    thr.start()
    thr.join(20)
    assert not thr.is_alive(), "load_checkpoint hung"
    return out


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = str(tmp_path / "pipe.ckpt")
    os.mkfifo(fifo)
    out = _load_in_thread(fifo)
    assert isinstance(out.get("error"), ValueError) and "not a regular file" in str(out["error"])
    assert fifo in str(out["error"])


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_symlink_to_dev_zero_is_refused(tmp_path, fmt):
    link = str(tmp_path / f"zero.{fmt}")
    os.symlink("/dev/zero", link)
    out = _load_in_thread(link, format=fmt)
    assert isinstance(out.get("error"), ValueError) and "not a regular file" in str(out["error"])


def test_read_regular_reads_the_file(tmp_path):
    (tmp_path / "a").write_bytes(b"abc" * 1000)
    assert read_regular(str(tmp_path / "a")) == b"abc" * 1000


@pytest.mark.parametrize("n", [0, 1, 3, 8, 1000, 65537])
def test_crc32_zeros_matches_binascii(n):
    for crc in (0, 7, 0xFFFFFFFF):
        assert crc32_zeros(crc, n) == binascii.crc32(bytes(n), crc)


def _safetensors(tmp_path, header, data=b""):
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path = tmp_path / "x.safetensors"
    path.write_bytes(len(text).to_bytes(8, "little") + text + data)
    return str(path)


@pytest.mark.parametrize("value", [2 ** 40, 2 ** 62])
def test_safetensors_crc_of_a_huge_0d_int_allocates_nothing(tmp_path, value):
    data = np.array(value, np.int64).tobytes()
    crc = crc32_zeros(binascii.crc32(b"step"), value)
    header = {"__metadata__": {"format": "ms", "crc_num": str(crc)},
              "step": {"dtype": "I64", "shape": [], "data_offsets": [0, 8]}}
    loaded = ser.load_checkpoint(_safetensors(tmp_path, header, data), format="safetensors", crc_check=True)
    assert int(loaded["step"].asnumpy()) == value


def test_safetensors_crc_of_a_negative_0d_int_is_a_crc_failure(tmp_path):
    header = {"__metadata__": {"format": "ms", "crc_num": "0"},
              "step": {"dtype": "I64", "shape": [], "data_offsets": [0, 8]}}
    path = _safetensors(tmp_path, header, np.array(-1, np.int64).tobytes())
    with pytest.raises(ValueError, match="crc check is failed"):
        ser.load_checkpoint(path, format="safetensors", crc_check=True)


def test_saving_a_large_step_with_crc_is_fast_and_loads(tmp_path):
    path = str(tmp_path / "s.safetensors")
    ser.save_checkpoint({"step": ms.Tensor(np.array(2 ** 30, np.int64))}, path, crc_check=True, format="safetensors")
    assert int(ser.load_checkpoint(path, format="safetensors", crc_check=True)["step"].asnumpy()) == 2 ** 30


def test_deeply_nested_safetensors_header_is_a_clear_error(tmp_path):
    path = tmp_path / "deep.safetensors"
    text = b"[" * 100000 + b"]" * 100000
    path.write_bytes(len(text).to_bytes(8, "little") + text)
    with pytest.raises(ValueError, match="deep.safetensors"):
        ser.load_checkpoint(str(path), format="safetensors")


def _raw_ckpt(tmp_path, fill):
    msg = Checkpoint()
    fill(msg.value.add())
    path = tmp_path / "c.ckpt"
    path.write_bytes(msg.SerializeToString())
    return str(path)


def _bad_str(v):
    v.tag = "s"
    v.tensor.tensor_type = "str"
    v.tensor.tensor_content = b"\xff\xff\xff\xff"


def _bad_map_dtype(v):
    v.tag = "m"
    for _ in range(3):
        t = v.maptensor.tensor.add()
        t.tensor_type = "<U3"
        t.tensor_content = b"abcdefghijkl"


def _short_map(v):
    v.tag = "m"
    t = v.maptensor.tensor.add()
    t.tensor_type = "int64"
    t.tensor_content = b"\0" * 8


def _bad_name(v):
    v.tag = "ok"
    v.tensor.tensor_type = "Float32"
    v.tensor.dims.append(1)
    v.tensor.tensor_content = b"\0" * 4


@pytest.mark.parametrize("fill", [_bad_str, _bad_map_dtype, _short_map])
def test_crafted_entries_raise_value_error_naming_the_file(tmp_path, fill):
    path = _raw_ckpt(tmp_path, fill)
    with pytest.raises(ValueError, match="c.ckpt"):
        ser.load_checkpoint(path)


def test_non_utf8_name_raises_value_error(tmp_path):
    path = tmp_path / "n.ckpt"
    data = _raw_ckpt(tmp_path, _bad_name)
    raw = open(data, "rb").read().replace(b"ok", b"\xff\xfe")
    path.write_bytes(raw)
    with pytest.raises(ValueError, match="n.ckpt"):
        ser.load_checkpoint(str(path))


def test_non_utf8_name_raises_value_error_under_pure_python_protobuf(tmp_path):
    """protobuf's pure-Python runtime raises UnicodeDecodeError while parsing (upb: when a field is read)."""
    import subprocess
    import sys
    path = tmp_path / "n.ckpt"
    data = _raw_ckpt(tmp_path, _bad_name)
    path.write_bytes(open(data, "rb").read().replace(b"ok", b"\xff\xfe"))
    code = ("import tfspore.train.serialization as s\n"
            "try:\n    s.load_checkpoint(%r)\nexcept ValueError as e:\n    print(type(e).__name__, e)\n" % str(path))
    env = dict(os.environ, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION="python", TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("ValueError ") and "n.ckpt" in out.stdout, out.stdout


def test_valid_file_ending_with_crc_num_bytes_loads(tmp_path):
    path = str(tmp_path / "t.ckpt")
    tail = np.frombuffer(b"crc_num" + b"\0" * 10, np.uint8)
    ser.save_checkpoint({"t": ms.Tensor(tail)}, path)
    assert open(path, "rb").read()[-17:-10] == b"crc_num"
    assert ser.load_checkpoint(path)["t"].asnumpy().tobytes() == tail.tobytes()


# ---------------------------------------------------------------------------------- fuzzing
_ALLOWED = (ValueError,)
_SEEDS = {}


def _seed(kind, tmp_dir):
    if kind not in _SEEDS:
        path = os.path.join(tmp_dir, f"seed.{kind}")
        ser.save_checkpoint(_params(), path, format=kind, crc_check=True)
        _SEEDS[kind] = open(path, "rb").read()
    return _SEEDS[kind]


_mutation = st.lists(st.tuples(st.sampled_from(["flip", "cut", "insert", "set"]), st.integers(0, 10 ** 6),
                               st.binary(min_size=1, max_size=8)), min_size=1, max_size=4)


def _mutate(data, ops):
    buf = bytearray(data)
    for op, pos, blob in ops:
        pos = pos % (len(buf) + 1)
        if op == "flip" and buf:
            buf[pos % len(buf)] ^= blob[0] or 1
        elif op == "cut":
            del buf[pos:pos + blob[0]]
        elif op == "insert":
            buf[pos:pos] = blob
        else:
            buf[pos:pos + len(blob)] = blob
    return bytes(buf)


def _fuzz_one(tmp_path_factory, kind, ops, crc):
    directory = str(tmp_path_factory.getbasetemp())
    path = os.path.join(directory, f"fuzz.{kind}")
    if os.path.exists(path):
        os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(_mutate(_seed(kind, directory), ops))
    try:
        ser.load_checkpoint(path, format=kind, crc_check=crc)
    except _ALLOWED as e:
        assert "fuzz." in str(e) or "crc" in str(e) or "parameter dict is empty" in str(e), str(e)


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kind=st.sampled_from(["ckpt", "safetensors"]), ops=_mutation, crc=st.booleans())
def test_fuzzed_checkpoints_raise_only_value_error(tmp_path_factory, kind, ops, crc):
    _fuzz_one(tmp_path_factory, kind, ops, crc)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kind=st.sampled_from(["ckpt", "safetensors"]), ops=_mutation, crc=st.booleans())
def test_fuzzed_checkpoints_raise_only_value_error_long(tmp_path_factory, kind, ops, crc):
    _fuzz_one(tmp_path_factory, kind, ops, crc)

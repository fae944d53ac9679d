"""Encrypted MindRecord files: the on-disk layout, every reader, appends, custom modes and bad files.

The layout is checked by decrypting a written file with ``cryptography`` directly (not through
tfspore), against the same rows written without a key.
"""
import gc
import os
import shutil
import struct
import tempfile
from pathlib import Path

import numpy as np
import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tfspore.dataset as ds
from tfspore._internal import crypto
from tfspore.dataset.engine import datasets_mindrecord
from tfspore.mindrecord import FileReader, FileWriter, MindPage, set_dec_mode, set_enc_key, set_enc_mode
from tfspore.mindrecord.core import shardcrypt
from tests.mindrecord._rows import assert_same_rows

KEY = "0123456789abcdef0123456789abcdef"
SCHEMA = {"label": {"type": "int32"}, "name": {"type": "string"}, "img": {"type": "bytes"},
          "v": {"type": "int64", "shape": [-1]}, "f": {"type": "float32", "shape": [2]}}


def _rows(n=9):
    return [{"label": i % 3, "name": f"n{i}", "img": bytes([i]) * (i * 50 + 1), "v": np.arange(i + 1) * 7,
             "f": np.full(2, i / 4, np.float32)} for i in range(n)]


def _write(path, rows=None):
    writer = FileWriter(str(path), overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(SCHEMA, "crypt")
    writer.add_index(["label", "name"])
    writer.write_raw_data(rows if rows is not None else _rows())
    writer.commit()
    return [str(path)]


def _write_files(folder, count):
    """`count` files of 3 rows each: with a key, MindSpore writes one shard per file."""
    rows = _rows(3 * count)
    return [_write(folder / f"s{k}.mindrecord", rows[3 * k:3 * k + 3])[0] for k in range(count)]


def test_writer_refuses_shards_while_a_key_is_set(tmp_path):
    set_enc_key(KEY)
    with pytest.raises(RuntimeError, match="automatic sharding function is unavailable, but got shard_num=2"):
        FileWriter(str(tmp_path / "x.mindrecord"), shard_num=2)
    assert not os.listdir(tmp_path)


def _no_copies(folder):
    return not (Path(folder) / shardcrypt.DECRYPT_DIRECTORY).exists()


@pytest.fixture(autouse=True)
def _reset():
    yield
    set_enc_key(None)
    set_enc_mode("AES-GCM")
    set_dec_mode(None)


def _decrypt_by_hand(data, key):
    """MindSpore's layout, read without tfspore: length-prefixed blocks, 0, mode, end flag."""
    assert data[-7:] == b"ENCRYPT" and data[-14:-7] == b"AES-GCM"
    out, pos = b"", 0
    while True:
        (length,) = struct.unpack_from(">i", data, pos)
        if length == 0:
            assert pos + 4 == len(data) - 14
            return out
        block = data[pos + 4:pos + 4 + length]
        magic, tag, block_len, iv_len = struct.unpack_from("<I16sII", block)
        assert magic == 0x7F3A5ED8 and iv_len == 16 and block_len == len(block) - 24
        iv = block[28:44]
        (cipher_len,) = struct.unpack_from("<I", block, 44)
        assert cipher_len == len(block) - 48
        out += AESGCM(key).decrypt(iv[:12], block[48:] + tag, None)
        pos += 4 + length


@pytest.mark.parametrize("block_size", [None, 4096], ids=["one_block", "many_blocks"])
def test_layout_decrypts_to_the_plain_files(tmp_path, monkeypatch, block_size):
    if block_size:
        monkeypatch.setattr(crypto, "BLOCK_SIZE", block_size)
    (tmp_path / "plain").mkdir()
    (tmp_path / "enc").mkdir()
    plain = _write(tmp_path / "plain" / "x.mindrecord")[0]
    set_enc_key(KEY)
    enc = _write(tmp_path / "enc" / "x.mindrecord")[0]
    for suffix in ("", ".db"):
        data = Path(enc + suffix).read_bytes()
        want = Path(plain + suffix).read_bytes()
        assert _decrypt_by_hand(data, KEY.encode()) == want
        blocks = -(-len(want) // (block_size or crypto.BLOCK_SIZE))
        assert blocks > (1 if block_size else 0)
        # per block: its length (4) and head (magic 4, tag 16, lengths 4 + 4, iv 16, length 4); then 0, mode, flag
        assert len(data) == len(want) + blocks * 52 + 18
        assert oct(os.stat(enc + suffix).st_mode & 0o777) == "0o600"
    assert sorted(os.listdir(tmp_path / "enc")) == ["x.mindrecord", "x.mindrecord.db"]


def test_every_reader_reads_encrypted_shards(tmp_path, monkeypatch):
    set_enc_key(KEY)
    files = _write_files(tmp_path, 3)
    want = list(FileReader(files).get_next())
    assert_same_rows(want[3:6], list(FileReader(files[1]).get_next()))
    assert [r["name"] for r in want] == [r["name"] for r in _rows()]
    assert _no_copies(tmp_path)
    pages = MindPage(files)
    pages.category_field = "label"
    assert_same_rows(pages.read_at_page_by_name("1", 0, 5), [r for r in want if r["label"] == 1])
    del pages
    gc.collect()
    assert _no_copies(tmp_path)
    for stream in (False, True):
        if stream:
            monkeypatch.setattr(datasets_mindrecord, "STREAM_BLOB_BYTES", 0)
        data = ds.MindDataset(files, shuffle=False)
        assert _no_copies(tmp_path)
        got = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
        assert [int(r["label"]) for r in got] == [r["label"] for r in want]
        assert [r["img"].tobytes() for r in got] == [r["img"] for r in want]
        assert _no_copies(tmp_path)  # streamed: read through maps of the removed copies


def test_open_for_append_keeps_files_encrypted(tmp_path):
    set_enc_key(KEY)
    path = _write(tmp_path / "a.mindrecord")[0]
    writer = FileWriter.open_for_append(path)
    assert shardcrypt.is_encrypted(path) and _no_copies(tmp_path)  # the originals stay encrypted
    writer.write_raw_data(_rows(4))
    writer.commit()
    assert shardcrypt.is_encrypted(path) and shardcrypt.is_encrypted(path + ".db")
    assert [r["name"] for r in FileReader(path).get_next()] == [r["name"] for r in _rows() + _rows(4)]
    assert _no_copies(tmp_path)


def test_custom_modes(tmp_path):
    def xor(src, size, dst, key):
        dst.write(bytes(b ^ 0x5A for b in src.read(size)))

    set_enc_key(KEY)
    set_enc_mode(xor)
    path = _write(tmp_path / "c.mindrecord")[0]
    assert Path(path).read_bytes()[-18:] == b"\x00\x00\x00\x00UDF-ENCENCRYPT"
    with pytest.raises(RuntimeError, match="must also define custom decryption"):
        FileReader(path)

    def unxor(src, size, dst, key):
        dst.write(bytes(b ^ 0x5A for b in src.read(size - 11)))  # size counts the 0 and the mode tag

    set_dec_mode(unxor)
    assert_same_rows(list(FileReader(path).get_next()), list(FileReader(path).get_next()))
    assert FileReader(path).len() == 9
    set_dec_mode("AES-GCM")
    with pytest.raises(RuntimeError, match=f"Failed to decrypt data.*{path}"):
        FileReader(path)


def test_failed_custom_encryption_leaves_the_plain_file(tmp_path):
    def broken(src, size, dst, key):
        dst.write(src.read(10))
        raise OSError("disk full")

    set_enc_key(KEY)
    set_enc_mode(broken)
    with pytest.raises(OSError, match="disk full"):
        _write(tmp_path / "b.mindrecord")
    assert sorted(os.listdir(tmp_path)) == ["b.mindrecord", "b.mindrecord.db"]
    set_enc_key(None)
    assert FileReader(str(tmp_path / "b.mindrecord")).len() == 9


def _mutate(path, offset, value=None):
    data = bytearray(Path(path).read_bytes())
    data[offset] = value if value is not None else data[offset] ^ 0x01
    Path(path).write_bytes(bytes(data))


# (what to change, the error's text); offsets from the start or, when negative, the end
DAMAGE = {
    "length": (0, 0x7F, "Invalid encrypted block length"),
    "magic": (4, None, "Failed to decrypt data"),
    "tag": (10, None, "Failed to decrypt data"),
    "iv": (36, None, "Failed to decrypt data"),
    "cipher": (60, None, "Failed to decrypt data"),
    "terminator": (-15, 1, "Invalid encrypted block length|Failed to read"),
    "mode": (-10, None, "Failed to decrypt data"),
    "end_flag": (-1, None, "is not encrypted"),
}


@pytest.mark.parametrize("index", [False, True], ids=["data", "index"])
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_damaged_files_raise_naming_the_file(tmp_path, damage, index):
    set_enc_key(KEY)
    path = _write(tmp_path / "d.mindrecord")[0]
    target = path + (".db" if index else "")
    offset, value, pattern = DAMAGE[damage]
    _mutate(target, offset if offset >= 0 else os.path.getsize(target) + offset, value)
    for reader in (FileReader, MindPage, ds.MindDataset):
        with pytest.raises(RuntimeError, match=pattern) as info:
            reader(path)
        assert target in str(info.value)
    assert _no_copies(tmp_path)


def test_truncated_and_wrong_key_and_key_mismatches(tmp_path):
    plain = _write(tmp_path / "p.mindrecord")[0]
    set_enc_key(KEY)
    enc = _write(tmp_path / "e.mindrecord")[0]
    with pytest.raises(RuntimeError, match=f"is not encrypted. You can set .*set_enc_key\\(None\\).*{plain}"):
        FileReader(plain)
    set_enc_key("fedcba9876543210")
    with pytest.raises(RuntimeError, match=f"Failed to decrypt data, please check if enc_key.*{enc}"):
        FileReader(enc)
    set_enc_key(None)
    for reader in (FileReader, MindPage, ds.MindDataset):
        with pytest.raises(RuntimeError, match=f"is encrypted. You need to configure.*{enc}"):
            reader(enc)
    set_enc_key(KEY)
    Path(enc).write_bytes(Path(enc).read_bytes()[:-100])
    with pytest.raises(RuntimeError, match=f"is not encrypted.*{enc}"):
        FileReader(enc)
    assert _no_copies(tmp_path)


def test_missing_or_unreadable_files_with_a_key(tmp_path):
    set_enc_key(KEY)
    path = _write(tmp_path / "m.mindrecord")[0]
    os.remove(path + ".db")
    with pytest.raises(RuntimeError, match=f"The input: {path}.db is not exists."):
        FileReader(path)
    with pytest.raises(RuntimeError, match=f"The input: {path}.db is not exists."):
        ds.MindDataset([path])
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        ds.MindDataset([str(tmp_path / "none.mindrecord")])
    fifo = tmp_path / "fifo.mindrecord"
    os.mkfifo(fifo)
    with pytest.raises(RuntimeError, match="should be a regular file"):
        FileReader(str(fifo))


def test_dataset_save_encrypts_one_file(tmp_path):
    set_enc_key(KEY)
    data = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.int32)}, shuffle=False)
    with pytest.raises(RuntimeError, match="automatic sharding function is unavailable, but got num_files=2"):
        data.save(str(tmp_path / "two.mindrecord"), num_files=2)
    assert not os.listdir(tmp_path)
    data.save(str(tmp_path / "one.mindrecord"))
    assert shardcrypt.is_encrypted(str(tmp_path / "one.mindrecord"))
    got = ds.MindDataset(str(tmp_path / "one.mindrecord"), shuffle=False)
    assert [int(r["x"]) for r in got.create_dict_iterator(output_numpy=True, num_epochs=1)] == list(range(6))


def test_copies_go_to_the_temporary_folder_when_the_folder_is_unusable(tmp_path):
    set_enc_key(KEY)
    path = _write(tmp_path / "r.mindrecord")[0]
    (tmp_path / shardcrypt.DECRYPT_DIRECTORY).write_bytes(b"")  # a file where the folder would go
    before = set(os.listdir(tempfile.gettempdir()))
    pages = MindPage(path)
    made = [n for n in set(os.listdir(tempfile.gettempdir())) - before if n.startswith("decrypt_mindrecord_")]
    assert len(made) == 1
    assert oct(os.stat(os.path.join(tempfile.gettempdir(), made[0])).st_mode & 0o777) == "0o700"
    pages.category_field = "label"
    assert len(pages.read_at_page_by_id(0, 0, 9)) == 3
    del pages
    gc.collect()
    assert not os.path.exists(os.path.join(tempfile.gettempdir(), made[0]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)), min_size=1, max_size=3),
       index=st.booleans())
def test_random_damage_raises_runtime_error(tmp_path, changes, index):
    set_enc_key(KEY)
    base = tmp_path / "h.mindrecord"
    if not base.exists():  # written once, copied for each example
        _write(base)
    folder = tempfile.mkdtemp(dir=tmp_path)
    path = shutil.copy(base, folder)
    shutil.copy(f"{base}.db", folder)
    target = path + (".db" if index else "")
    original = Path(target).read_bytes()
    data = bytearray(original)
    for where, flip in changes:
        data[int(where * len(data))] ^= flip
    assume(bytes(data) != original)
    Path(target).write_bytes(bytes(data))
    with pytest.raises(RuntimeError) as info:
        FileReader(path)
    assert target in str(info.value) or path in str(info.value)
    assert _no_copies(folder)

"""Crash-safe checkpoint writes: temp names, O_EXCL/O_NOFOLLOW, fsync order, prune after save, disk full."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train import _atomic, _ckpt_format
from tfspore.train import serialization as ser
from tfspore.train.callback import CheckpointConfig, ModelCheckpoint

sys.path.insert(0, os.path.dirname(__file__))
from callback_loop import fake_train, tfspore_api  # noqa: E402

API = tfspore_api()
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _const(cb):
    return ms.Tensor(np.float32(1.0))


def _params(value=1.0):
    return {"w": ms.Parameter(ms.Tensor(np.full((3, 4), value, np.float32)), name="w")}


def _ckpts(path):
    return sorted(f for f in os.listdir(path) if f.endswith(".ckpt"))


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# ----------------------------------------------------------------------------- temporary names
def test_tmp_names_are_unique_and_carry_host_pid_rank(tmp_path, monkeypatch):
    monkeypatch.setenv("RANK_ID", "3")
    target = str(tmp_path / "net.ckpt")
    a, b = _atomic.tmp_name(target), _atomic.tmp_name(target)
    assert a != b
    match = _atomic._TMP_RE.match(os.path.basename(a))
    assert match and match.group("root") == "net" and match.group("pid") == str(os.getpid())
    assert match.group("rank") == "3" and match.group("host") == _atomic._host_tag()


def test_tmp_names_carry_the_rank_of_a_launched_job(tmp_path, monkeypatch):
    """A worker of ``tfspore launch`` knows its rank from TF_CONFIG (as get_rank() after init())."""
    monkeypatch.delenv("RANK_ID", raising=False)
    monkeypatch.setenv("TF_CONFIG", '{"cluster": {"worker": ["127.0.0.1:1", "127.0.0.1:2"]}, '
                                    '"task": {"type": "worker", "index": 1}}')
    match = _atomic._TMP_RE.match(os.path.basename(_atomic.tmp_name(str(tmp_path / "net.ckpt"))))
    assert match and match.group("rank") == "1"


def test_save_leaves_only_the_checkpoint(tmp_path):
    ser.save_checkpoint(_params(), str(tmp_path / "net.ckpt"))
    ser.save_checkpoint(_params(2.0), str(tmp_path / "net.safetensors"), format="safetensors")
    assert sorted(os.listdir(tmp_path)) == ["net.ckpt", "net.safetensors"]
    assert (os.stat(tmp_path / "net.ckpt").st_mode & 0o777) == 0o400


def test_fsync_file_then_rename_then_fsync_dir(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace, real_fsync_dir = os.fsync, os.replace, _atomic.fsync_dir
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    monkeypatch.setattr(_atomic, "fsync_dir", lambda d: (events.append(("dir", d)), real_fsync_dir(d))[1])
    ser.save_checkpoint(_params(), str(tmp_path / "net.ckpt"))
    assert events[:3] == ["fsync", "replace", ("dir", str(tmp_path))]


# ------------------------------------------------------------------------------------- symlinks
def test_symlink_at_the_old_tmp_name_is_not_followed_or_removed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    os.chmod(victim, 0o644)
    os.symlink(victim, tmp_path / "net.tmp")  # MindSpore's fixed temporary name
    ser.save_checkpoint(_params(), str(tmp_path / "net.ckpt"))
    assert victim.read_bytes() == b"precious" and (os.stat(victim).st_mode & 0o777) == 0o644
    assert os.path.islink(tmp_path / "net.tmp")
    assert list(ser.load_checkpoint(str(tmp_path / "net.ckpt"))) == ["w"]


def test_users_tmp_file_is_kept(tmp_path):
    (tmp_path / "net.tmp").write_bytes(b"mine")
    ser.save_checkpoint(_params(), str(tmp_path / "net.ckpt"))
    assert (tmp_path / "net.tmp").read_bytes() == b"mine"


def test_symlink_at_the_chosen_tmp_name_is_never_opened(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    os.chmod(victim, 0o644)
    target = str(tmp_path / "net.ckpt")
    taken = _atomic.tmp_name(target)
    os.symlink(victim, taken)
    names = iter([taken, taken + "x"])
    monkeypatch.setattr(_atomic, "tmp_name", lambda path: next(names))
    ser.save_checkpoint(_params(), target)
    assert victim.read_bytes() == b"precious" and (os.stat(victim).st_mode & 0o777) == 0o644
    assert os.path.islink(taken)
    assert list(ser.load_checkpoint(target)) == ["w"]


# ---------------------------------------------------------------------------- stale temporaries
def test_stale_temporaries_of_dead_writers_are_cleaned(tmp_path):
    host, dead = _atomic._host_tag(), _dead_pid()
    stale = tmp_path / f"net.tmp~{host}~{dead}~0~0123abcd"
    alive = tmp_path / f"net.tmp~{host}~1~0~0123abcd"  # pid 1 is alive
    other_host = tmp_path / f"net.tmp~{'0' * 8 if host != '0' * 8 else '1' * 8}~{dead}~0~0123abcd"
    for f in (stale, alive, other_host):
        f.write_bytes(b"partial")
    ser.save_checkpoint(_params(), str(tmp_path / "other.ckpt"))
    assert not stale.exists() and alive.exists() and other_host.exists()


def test_stale_cleanup_never_follows_or_removes_a_symlink(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    link = tmp_path / f"net.tmp~{_atomic._host_tag()}~{_dead_pid()}~0~0123abcd"
    os.symlink(victim, link)
    assert _atomic.clean_stale(str(tmp_path)) == []
    assert os.path.islink(link) and victim.read_bytes() == b"precious"


# ------------------------------------------------------------------------- retention after save
def _failing_records(monkeypatch, fail_on):
    real, calls = _ckpt_format.records, []

    def records(entries, split_rows):
        calls.append(1)
        for i, rec in enumerate(real(entries, split_rows)):
            if len(calls) == fail_on and i == 1:
                raise KeyboardInterrupt("crash in the middle of the write")
            yield rec
    monkeypatch.setattr(_ckpt_format, "records", records)


@pytest.mark.parametrize("keep", [1, 3])
def test_a_crash_during_a_save_keeps_every_previous_checkpoint(tmp_path, monkeypatch, keep):
    ck = ModelCheckpoint("k", str(tmp_path), CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=keep))
    _failing_records(monkeypatch, fail_on=keep + 1)
    with pytest.raises(KeyboardInterrupt):
        fake_train(API, [ck], 1, keep + 2, _const, train_network=nn.Dense(2, 2))
    files = _ckpts(tmp_path)
    assert files == [f"k-1_{i}.ckpt" for i in range(1, keep + 1)]
    assert sorted(os.listdir(tmp_path)) == files  # no temporary left
    for f in files:
        assert sorted(ser.load_checkpoint(str(tmp_path / f))) == ["bias", "weight"]


def test_prune_happens_after_the_new_file_is_complete(tmp_path, monkeypatch):
    events = []
    real_replace, real_remove = os.replace, os.remove
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append(("replace", os.path.basename(b))),
                                                     real_replace(a, b))[1])
    monkeypatch.setattr(os, "remove", lambda p: (events.append(("remove", os.path.basename(p))), real_remove(p))[1])
    ck = ModelCheckpoint("p", str(tmp_path), CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1))
    fake_train(API, [ck], 1, 3, _const, train_network=nn.Dense(2, 2))
    assert events == [("replace", "p-1_1.ckpt"), ("replace", "p-1_2.ckpt"), ("remove", "p-1_1.ckpt"),
                      ("replace", "p-1_3.ckpt"), ("remove", "p-1_2.ckpt")]
    assert _ckpts(tmp_path) == ["p-1_3.ckpt"]


def test_async_save_prunes_only_after_the_write_finished(tmp_path):
    ck = ModelCheckpoint("a", str(tmp_path), CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2,
                                                              async_save=True))
    fake_train(API, [ck], 1, 5, _const, train_network=nn.Dense(2, 2))
    assert _ckpts(tmp_path) == ["a-1_4.ckpt", "a-1_5.ckpt"]
    for f in _ckpts(tmp_path):
        assert sorted(ser.load_checkpoint(str(tmp_path / f))) == ["bias", "weight"]


_DISK_FULL = textwrap.dedent("""
    import os, resource, signal, sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import tfspore as ms
    from tfspore import nn
    from tfspore.train.callback import CheckpointConfig, ModelCheckpoint
    from callback_loop import fake_train, tfspore_api
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    def step(cb):
        if cb.cur_step_num == 2:  # the disk is full from the second save on
            resource.setrlimit(resource.RLIMIT_FSIZE, (64, hard))
        return ms.Tensor(np.float32(1.0))
    for fmt in ("ckpt", "safetensors"):
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        directory = os.path.join({directory!r}, fmt)
        ck = ModelCheckpoint("d", directory, CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1,
                                                              format=fmt))
        try:
            fake_train(tfspore_api(), [ck], 1, 3, step, train_network=nn.Dense(8, 8))
        except OSError as e:
            print("SAVE-FAILED", fmt, e.errno)
""")


def test_full_disk_keeps_the_previous_checkpoint_and_no_temporary(tmp_path):
    script = _DISK_FULL.format(tests=os.path.dirname(os.path.abspath(__file__)), directory=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=_REPO)
    assert out.returncode == 0, out.stderr[-2000:]
    for fmt in ("ckpt", "safetensors"):
        assert f"SAVE-FAILED {fmt}" in out.stdout
        assert sorted(os.listdir(tmp_path / fmt)) == [f"d-1_1.{fmt}"]
        loaded = ser.load_checkpoint(str(tmp_path / fmt / f"d-1_1.{fmt}"), format=fmt)
        assert sorted(loaded) == ["bias", "weight"]

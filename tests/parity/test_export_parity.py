"""export / load argument errors: the exception types of MindSpore 2.10."""
import numpy as np
import pytest

import tfspore as tfs

ms = pytest.importorskip("mindspore")


def _type_of(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001  (the type is compared)
        return type(exc)
    return None


def test_bad_export_format_raises_like_mindspore():
    ms_net, tfs_net = ms.nn.Dense(4, 2), tfs.nn.Dense(4, 2)
    x = np.ones((1, 4), np.float32)
    for fmt in ("PB", "mindir"):
        want = _type_of(ms.export, ms_net, ms.Tensor(x), file_name="n", file_format=fmt)
        got = _type_of(tfs.export, tfs_net, tfs.Tensor(x), file_name="n", file_format=fmt)
        assert want is ValueError and got is want


@pytest.mark.parametrize("name", [3, "net.onnx", "missing.mindir"])
def test_load_argument_errors_like_mindspore(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    want, got = _type_of(ms.load, name), _type_of(tfs.load, name)
    assert want is ValueError and got is want

"""Tests of tools/_zoo_export_check.py: the recorder, real MindSpore's comparison and the report.

The comparison tests run a MindIR that tfspore wrote in real MindSpore 2.10 in this process (as
the parity tests do); the end-to-end runs of zoo_check's export entries start the recording
process (``python -m tfspore run``) and MindSpore's check process, and sit in the slow tier.
"""
from __future__ import annotations

import os
import sys
import textwrap

import numpy as np
import pytest

_ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(_ROOT, "tools"))
sys.path.insert(0, _ROOT)
import zoo_check  # noqa: E402
from tools import _zoo_export_check as check  # noqa: E402

_SETTINGS = {"float_range": [-1.0, 1.0], "int_high": 2, "seed": 0}


def test_fixed_inputs_keep_shapes_and_dtypes_and_are_seeded():
    arrays = [np.zeros((2, 3), np.float32), np.zeros((4,), np.int32), np.zeros((1,), bool), np.ones(2, np.float16)]
    a = check.fixed_inputs(arrays, dict(_SETTINGS, int_high=5, float_range=[0.5, 0.75]))
    b = check.fixed_inputs(arrays, dict(_SETTINGS, int_high=5, float_range=[0.5, 0.75]))
    assert [x.dtype for x in a] == [np.float32, np.int32, np.bool_, np.float16]
    assert [x.shape for x in a] == [(2, 3), (4,), (1,), (2,)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert np.all((a[0] >= 0.5) & (a[0] < 0.75)) and np.all((a[1] >= 0) & (a[1] < 5))
    c = check.fixed_inputs(arrays, dict(_SETTINGS, seed=1))
    assert not np.array_equal(a[0], c[0])


def test_compare_arrays_tolerance_and_non_finite_values():
    want = np.array([1.0, -2.0, 0.0], np.float32)
    near = check.compare_arrays(want + np.float32(1e-5), want, 1e-5)  # within rtol * (|want| + scale)
    assert near["ok"] and near["scale"] == 2.0 and near["max_abs"] == pytest.approx(1e-5, rel=1e-2)
    assert near["max_rel"] == pytest.approx(0.5e-5, rel=1e-2)
    far = check.compare_arrays(want + np.float32(1e-3), want, 1e-5)
    assert not far["ok"] and far["max_rel"] == pytest.approx(0.5e-3, rel=1e-2)
    nan = check.compare_arrays(np.array([1.0, np.nan, 0.0], np.float32), want, 1e-5)
    assert not nan["ok"] and nan["nonfinite"] and nan["max_abs"] == np.inf
    # where the recorded output itself is not finite, the same value is a match
    inf_want = np.array([np.inf, 1.0], np.float32)
    assert check.compare_arrays(inf_want.copy(), inf_want, 1e-5)["ok"]
    assert not check.compare_arrays(np.array([1.0, 1.0], np.float32), inf_want, 1e-5)["ok"]
    ints = check.compare_arrays(np.array([3, 4]), np.array([3, 5]), 1e-5)
    assert not ints["ok"] and ints["max_abs"] == 1.0


def _tiny_net(ts):
    class Tiny(ts.nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = ts.nn.Conv2d(3, 4, 3, has_bias=True)
            self.bn = ts.nn.BatchNorm2d(4)
            self.relu = ts.nn.ReLU()
            self.flatten = ts.nn.Flatten()
            self.dense = ts.nn.Dense(4 * 8 * 8, 5)

        def construct(self, x):
            return self.dense(self.flatten(self.relu(self.bn(self.conv(x)))))

    net = Tiny()
    rng = np.random.default_rng(3)
    for p in net.get_parameters():  # statistics and biases that are not 0 and 1
        p.set_data(ts.Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
    net.set_train(False)
    return net


@pytest.mark.parity
def test_compare_record_runs_tfspores_mindir_in_mindspore(tmp_path):
    pytest.importorskip("mindspore", reason="the check runs real mindspore==2.10.0 (the parity extra)")
    import tfspore as ts

    net = _tiny_net(ts)
    x = ts.Tensor(np.zeros((2, 3, 8, 8), np.float32))
    ts.export(net, x, file_name=str(tmp_path / "tiny"), file_format="MINDIR")
    record = str(tmp_path / "rec_0.npz")
    check.record_export(ts, net, [x], str(tmp_path / "tiny"), _SETTINGS, record)
    result = check.compare_record(record)
    assert result["loads"] and result["ok"], result
    assert result["mindir"] == os.path.abspath(str(tmp_path / "tiny.mindir"))
    assert result["fixed"]["scale"] > 0 and result["fixed"]["max_rel"] <= 1e-5
    assert "matches: max diff" in check.describe([result])

    # a recorded output moved by 1e-3 of its scale is reported as a difference of that size
    arrays = dict(np.load(record))
    arrays["fixed_out_0"] = arrays["fixed_out_0"] + np.float32(1e-3 * result["fixed"]["scale"])
    np.savez(tmp_path / "bad_0.npz", **arrays)
    bad = check.compare_record(str(tmp_path / "bad_0.npz"))
    assert bad["loads"] and bad["script"]["ok"] and not bad["fixed"]["ok"] and not bad["ok"]
    assert bad["fixed"]["max_rel"] == pytest.approx(1e-3, rel=0.05)
    assert 0 <= bad["fixed"]["spread"] < 1e-5  # MindSpore's own outputs under one-ulp input changes
    assert "DIFFERS, beyond MindSpore's own one-ulp input spread" in check.describe([bad])
    assert not bad["passed"] and not check.compare_record(str(tmp_path / "bad_0.npz"), spread_ok=True)["passed"]
    assert not check.check_passed([result, bad]) and check.check_passed([result]) and not check.check_passed([])

    # MindSpore's own reading of a missing file is reported, not raised
    arrays["mindir"] = np.array(str(tmp_path / "gone.mindir"))
    np.savez(tmp_path / "gone_0.npz", **arrays)
    gone = check.compare_record(str(tmp_path / "gone_0.npz"))
    assert not gone["loads"] and not gone["ok"] and gone["error"].startswith("mindspore.load: ValueError")
    assert check.describe([gone]).startswith("MindSpore cannot load gone.mindir: mindspore.load: ValueError")


def test_describe_and_table_report_each_file():
    diff = {"max_abs": 2e-7, "max_rel": 3e-8, "scale": 7.0, "nonfinite": False, "ok": True}
    bad = {"max_abs": float("inf"), "max_rel": float("inf"), "scale": 1.0, "nonfinite": True, "ok": False}
    ok = {"mindir": "/w/net.mindir", "loads": True, "error": "", "ok": True, "rtol": 1e-5, "script": diff,
          "fixed": diff}
    nan = dict(ok, mindir="/w/half.mindir", ok=False, fixed=bad, rtol=1e-3)
    assert check.describe([ok]) == "MindSpore loads net.mindir, matches: max diff 2e-07 abs, 3e-08 rel (tol 1e-05)"
    assert check.describe([nan]) == ("MindSpore loads half.mindir, DIFFERS (non-finite values): max diff inf abs, "
                                     "inf rel (tol 0.001)")
    near = dict(ok, ok=False, fixed=dict(diff, max_rel=2e-5, ok=False, spread=5e-5))
    assert check.verdict(near) == "DIFFERS, within MindSpore's own one-ulp input spread (5e-05 rel)"
    assert check.verdict(dict(near, fixed=dict(near["fixed"], spread=1e-5))).endswith(
        "beyond MindSpore's own one-ulp input spread (1e-05 rel)")
    accepted = dict(near, passed=True)  # an entry with spread_ok
    assert check.verdict(accepted).endswith("within MindSpore's own one-ulp input spread (5e-05 rel) (accepted)")
    assert check.check_passed([ok, accepted]) and not check.check_passed([ok, near])
    assert check.describe([]) == "MindSpore check: the script exported no MINDIR file"
    table = check.export_table([("a-export", "x/export.py", "ok", 12.4, [ok]),
                                ("b-export", "y/export.py", "failed", 3.0, [])]).splitlines()
    assert table[0].startswith("| export entry | script | ran | MindSpore loads | max abs diff | max rel diff |")
    assert table[2] == "| a-export | `x/export.py` | yes (12 s) | yes | 2e-07 | 3e-08 | 1e-05 | match |"
    assert table[3] == "| b-export | `y/export.py` | no | - | - | - | - | failed |"


def test_export_entries_follow_their_training_entries():
    by_name = {e.name: e for e in zoo_check.ENTRIES}
    exports = [e for e in zoo_check.ENTRIES if e.check is not None]
    assert {"lenet-export", "resnet18-cifar10-export", "mobilenetv2-export"} <= {e.name for e in exports}
    for e in exports:
        assert e.script.endswith("/export.py") and e.after in by_name
        assert os.path.dirname(e.script) == os.path.dirname(by_name[e.after].script)
        assert e.overrides["file_format"] == "MINDIR" and e.overrides["device_target"] == "CPU"
        assert "{ckpt}" in e.overrides.values()


# ---------------------------------------------------------------------------------------------
# End to end: zoo_check runs an export entry under tfspore and checks its file in MindSpore.
# ---------------------------------------------------------------------------------------------

_NET = textwrap.dedent("""\
    from mindspore import nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, has_bias=True)
            self.relu = nn.ReLU()
            self.flatten = nn.Flatten()
            self.dense = nn.Dense(4 * 8 * 8, 5)

        def construct(self, x):
            return self.dense(self.flatten(self.relu(self.conv(x))))
    """)

_TRAIN = textwrap.dedent("""\
    import mindspore as ms
    from net import Net
    ms.save_checkpoint(Net(), "net.ckpt")
    """)

_EXPORT = textwrap.dedent("""\
    import sys
    import numpy as np
    import mindspore as ms
    from mindspore import Tensor, export
    from net import Net

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    ms.load_param_into_net(net, ms.load_checkpoint(sys.argv[1]))
    export(net, Tensor(np.ones((2, 3, 8, 8), np.float32)), file_name=sys.argv[2], file_format="MINDIR")
    """)


@pytest.mark.slow
@pytest.mark.parity
def test_zoo_check_runs_an_export_entry_and_checks_it_in_mindspore(tmp_path, capsys):
    pytest.importorskip("mindspore", reason="the check runs real mindspore==2.10.0 (the parity extra)")
    zoo = tmp_path / "zoo"
    (zoo / "m").mkdir(parents=True)
    for name, text in (("net.py", _NET), ("train.py", _TRAIN), ("export.py", _EXPORT)):
        (zoo / "m" / name).write_text(text)
    entries = [zoo_check.Entry("m-train", "m/train.py"),
               zoo_check.Entry("m-export", "m/export.py", ["{ckpt}", "{work}/net"], after="m-train",
                               check=check.ExportCheck())]
    md = tmp_path / "out.md"
    rc = zoo_check.main(["--zoo", str(zoo), "--workdir", str(tmp_path / "w"), "--markdown", str(md)],
                        entries=entries)
    lines = capsys.readouterr().out.splitlines()
    assert rc == 0, lines
    assert lines[1].startswith("m-export ") and "MindSpore loads net.mindir, matches: max diff" in lines[1]
    assert lines[-1] == "total: 2 of 2 scripts ran to the end; 1 of 1 exports match in MindSpore"
    assert "| m-export | `m/export.py` | yes (" in md.read_text()
    assert (tmp_path / "w" / "m-export" / "export_record_0.npz").is_file()


@pytest.mark.slow
@pytest.mark.parity
def test_lenet_export_entry_on_the_zoo(tmp_path, capsys):
    pytest.importorskip("mindspore", reason="the check runs real mindspore==2.10.0 (the parity extra)")
    zoo = os.environ.get("TFSPORE_ZOO", "/work/zoo")
    if not os.path.isfile(os.path.join(zoo, "research", "cv", "lenet", "export.py")):
        pytest.skip("needs the MindSpore model zoo checkout (TFSPORE_ZOO)")
    rc = zoo_check.main(["--zoo", zoo, "--workdir", str(tmp_path), "--only", "lenet-export", "--ms-reference"])
    lines = capsys.readouterr().out.splitlines()
    assert rc == 0, lines
    assert lines[1].startswith("lenet-export ") and "under MindSpore: ran to the end" in lines[1]
    assert "MindSpore loads lenet.mindir, matches" in lines[2]
    assert "MindSpore's own MindIR vs its network: 0 abs" in lines[2]  # the reference run's own file

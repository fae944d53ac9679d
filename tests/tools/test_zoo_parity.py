"""Tests of tools/zoo_parity.py: reading LossMonitor lines, comparing losses, the tables, the entries."""
from __future__ import annotations

import math
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import zoo_check  # noqa: E402
import zoo_parity  # noqa: E402


# ---------------------------------------------------------------------------------------------
# parse_losses
# ---------------------------------------------------------------------------------------------

def test_parse_losses_reads_loss_monitor_lines_in_order():
    log = "\n".join([
        "============== Starting Training ==============",
        "epoch: 1 step: 1, loss is 2.3085198402404785",
        "[WARNING] ME(1:2,MainProcess): something with step: 9",
        "epoch: 1 step: 2, loss is 2.2959084510803223",
        "Train epoch time: 818.015 ms, per step time: 163.603 ms",
        "epoch: 2 step: 1, loss is 1.5e-03",
    ])
    assert zoo_parity.parse_losses(log) == [(1, 1, 2.3085198402404785), (1, 2, 2.2959084510803223),
                                            (2, 1, 1.5e-3)]


def test_parse_losses_keeps_one_line_per_step_when_two_callbacks_print_it():
    log = "\n".join(["epoch: 1 step: 1, loss is 0.69", "epoch: 1 step: 1, loss is 0.69",
                     "epoch: 1 step: 2, loss is 0.68", "epoch: 2 step: 1, loss is 0.67"])
    assert zoo_parity.parse_losses(log) == [(1, 1, 0.69), (1, 2, 0.68), (2, 1, 0.67)]


def test_parse_losses_reads_array_and_tensor_prints_and_nan():
    log = "\n".join([
        "epoch: 3 step: 10, loss is [0.25 0.5]",
        "epoch: 3 step: 11, loss is Tensor(shape=[], dtype=Float32, value= 0.125)",
        "epoch: 3 step: 12, loss is nan",
        "2026-11-26 INFO epoch: [1/1] step: [10/20], lr: 0.100000, loss: 2.302585",  # not LossMonitor's
    ])
    found = zoo_parity.parse_losses(log)
    assert found[:2] == [(3, 10, 0.25), (3, 11, 0.125)]
    assert found[2][:2] == (3, 12) and math.isnan(found[2][2])
    assert len(found) == 3


# ---------------------------------------------------------------------------------------------
# compare_losses
# ---------------------------------------------------------------------------------------------

def _seq(values, epoch=1):
    return [(epoch, i, v) for i, v in enumerate(values, start=1)]


def test_compare_losses_match_within_float32_tolerance():
    ms = _seq([2.3085198402404785, 2.2959084510803223, 2.325200319290161])
    tf = _seq([2.3085198402404785, 2.2959084510803223, 2.3252005577087402])
    c = zoo_parity.compare_losses(ms, tf, 3)
    assert c.verdict == "match" and c.steps == 3 and c.first_bad is None
    assert c.max_abs == pytest.approx(2.3252005577087402 - 2.325200319290161)
    assert c.max_rel == pytest.approx(c.max_abs / 2.325200319290161)


def test_compare_losses_reports_the_first_step_outside_tolerance():
    ms = _seq([1.0, 1.0, 1.0, 1.0])
    tf = _seq([1.0, 1.00001, 1.01, 1.5])
    c = zoo_parity.compare_losses(ms, tf, 4, rtol=1e-4, atol=1e-5)
    assert c.verdict == "differ" and c.first_bad == 3
    assert c.max_abs == pytest.approx(0.5) and c.max_rel == pytest.approx(0.5)
    assert "step 3" in c.note
    # Only the first steps count.
    assert zoo_parity.compare_losses(ms, tf, 2).verdict == "match"


def test_compare_losses_nan_on_one_side_differs():
    c = zoo_parity.compare_losses(_seq([1.0, 2.0]), _seq([1.0, float("nan")]), 2)
    assert c.verdict == "differ" and c.first_bad == 2 and math.isinf(c.max_abs)


def test_compare_losses_not_comparable_when_too_few_or_other_positions():
    short = zoo_parity.compare_losses(_seq([1.0, 2.0, 3.0]), _seq([1.0]), 3)
    assert short.verdict == "not comparable" and "tfspore 1" in short.note
    # tfspore in sink mode prints one line per sink: other (epoch, step) positions.
    other = zoo_parity.compare_losses(_seq([1.0, 2.0]), [(1, 5, 1.0), (2, 5, 2.0)], 2)
    assert other.verdict == "not comparable" and "different steps" in other.note
    with pytest.raises(ValueError, match="'steps' must be positive, but got 0"):
        zoo_parity.compare_losses([], [], 0)


# ---------------------------------------------------------------------------------------------
# Output and entries
# ---------------------------------------------------------------------------------------------

def test_format_table_and_markdown():
    ok = zoo_parity.ParityResult("lenet", "research/cv/lenet/train.py", 2,
                                 comparison=zoo_parity.compare_losses(_seq([2.0, 1.0]), _seq([2.0, 1.0000001]), 2),
                                 ms_losses=_seq([2.0, 1.0]), tf_losses=_seq([2.0, 1.0000001]))
    bad = zoo_parity.ParityResult("x", "a/train.py", 2, error="tfspore run failed: a.py:3: ValueError: no | bar")
    assert ok.verdict == "match" and bad.verdict == "failed"
    table = zoo_parity.format_table([ok, bad])
    lines = table.splitlines()
    assert lines[0].split()[:2] == ["script", "steps"]
    assert lines[1].split() == ["lenet", "2", "1.00e-07", "1.00e-07", "match"]
    assert "failed: tfspore run failed" in lines[2]
    assert "MindSpore [2.0, 1.0]" in table and "tfspore   [2.0, 1.0000001]" in table
    md = zoo_parity.format_markdown([ok, bad]).splitlines()
    assert md[0] == "| script | steps | max abs diff | max rel diff | verdict |"
    assert md[2] == "| lenet (`research/cv/lenet/train.py`) | 2 | 1.00e-07 | 1.00e-07 | match |"
    assert "no \\| bar" in md[3]


def test_entries_name_zoo_check_entries_and_say_what_was_turned_off():
    checks = {e.name: e for e in zoo_check.ENTRIES}
    names = [e.name for e in zoo_parity.PARITY_ENTRIES]
    assert len(names) == len(set(names)) and {"lenet", "resnet18-cifar10"} <= set(names)
    for e in zoo_parity.PARITY_ENTRIES:
        assert e.check in checks and e.batch > 0 and e.turned_off
        assert set(e.hooks) <= {"no_shuffle", "no_sink", "loss_monitor", "force_kwarg"}
        # The initial checkpoint reaches the script through its own option or the launcher.
        assert e.ckpt_option == any(v == "{init}" for v in e.overrides.values())


def test_main_rejects_bad_arguments(tmp_path, capsys):
    with pytest.raises(SystemExit):
        zoo_parity.main(["--zoo", str(tmp_path), "--only", "nope"])
    assert "'--only' must name entries of the list, but got 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        zoo_parity.main(["--zoo", str(tmp_path), "--steps", "0"])
    assert zoo_parity.main(["--zoo", str(tmp_path), "--list"]) == 0
    assert "research/cv/lenet/train.py" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# judge: a difference weighed against MindSpore's own one-ulp spread
# ---------------------------------------------------------------------------------------------

def test_judge_accepts_a_difference_within_mindspores_own_spread():
    ms = _seq([2.7387, 2.8599, 2.5940])
    tf = _seq([2.7387, 2.8756, 2.6200])
    ulp = _seq([2.7387, 2.8482, 2.5804])
    c, spread = zoo_parity.compare_losses(ms, tf, 3), zoo_parity.compare_losses(ms, ulp, 3)
    assert c.verdict == "differ" and spread.verdict == "differ"
    judged = zoo_parity.judge(c, spread)
    assert judged.verdict == "within MindSpore's 1-ulp spread"
    assert judged.max_abs == c.max_abs and "one-ulp" in judged.note
    # Too far beyond the spread, or already different at the first step, stays "differ".
    assert zoo_parity.judge(c, spread, factor=1.5).verdict == "differ"
    first = zoo_parity.compare_losses(ms, _seq([2.8, 2.8599, 2.5940]), 3)
    assert zoo_parity.judge(first, spread).verdict == "differ"


def test_judge_keeps_differ_when_mindspore_is_stable_or_unmeasured():
    ms = _seq([1.0, 0.9])
    c = zoo_parity.compare_losses(ms, _seq([1.0, 0.95]), 2)
    stable = zoo_parity.compare_losses(ms, _seq([1.0, 0.9000001]), 2)
    assert zoo_parity.judge(c, stable).verdict == "differ"
    assert zoo_parity.judge(c, None).verdict == "differ"
    ok = zoo_parity.compare_losses(ms, ms, 2)
    assert zoo_parity.judge(ok, stable) is ok

"""The parsing and arithmetic of bench/zoo_speed.py (no zoo script and no Keras run)."""
import pytest

from bench import zoo_speed


def test_parse_step_times_reads_every_format_and_skips_eval():
    lines = [
        "Train epoch time: 198.863 ms, per step time: 66.288 ms",
        "epoch: 1 step: 40, loss is 2.30",
        "epoch time: 1234.500, per step time: 30.862, avg loss: 2.301",
        "2026-11-26 23:31:02,123:INFO:epoch: [1/1] step: [10/312], lr: 0.100000, loss: 2.31, per step time: 310.5 ms",
        "Eval epoch time: 50.0 ms, per step time: 5.0 ms",
        "2026-11-27 01:00:00,000:INFO:epoch[0], iter[4], loss:2.3, epoch_time:61.70 ms, per_step_time:12.34 ms, "
        "mean_fps:324.15 imgs/sec",
        "no figure here",
    ]
    assert zoo_speed.parse_step_times(lines) == [66.288, 30.862, 310.5, 12.34]


def test_parse_step_times_with_a_throughput_pattern():
    # DS-CNN: batch 32 at 640 wavs/sec is 50 ms a step; its TimeMonitor line is not read.
    lines = ["INFO:epoch[0], iter[9], loss:2.4, mean_wps:640.00 wavs/sec",
             "Train epoch time: 500.0 ms, per step time: 15.625 ms",
             "INFO:epoch[1], iter[19], loss:2.3, mean_wps:320.00 wavs/sec"]
    got = zoo_speed.parse_step_times(lines, r"mean_wps:([0-9.]+) wavs/sec", per_second=32)
    assert got == [pytest.approx(50.0), pytest.approx(100.0)]
    assert zoo_speed.parse_step_times(lines, r"mean_wps:([0-9.]+) wavs/sec") == [640.0, 320.0]


def test_steady_ms_drops_the_first_windows_and_takes_the_median():
    assert zoo_speed.steady_ms([500.0, 10.0, 30.0, 20.0]) == 20.0
    assert zoo_speed.steady_ms([500.0, 10.0, 30.0], skip=2) == 30.0
    assert zoo_speed.steady_ms([500.0]) is None


def test_keras_steady_ms_from_epoch_end_times():
    # Epochs of 10 steps: 2.0 s (first, dropped), then 0.1 s, 0.3 s, 0.2 s.
    ends = [2.0, 2.1, 2.4, 2.6]
    assert zoo_speed.keras_steady_ms(ends, 10) == pytest.approx(20.0)
    assert zoo_speed.keras_steady_ms([2.0], 10) is None
    with pytest.raises(ValueError, match="'steps' must be positive, but got 0"):
        zoo_speed.keras_steady_ms(ends, 0)


def test_ratio_and_table():
    assert zoo_speed.ratio(30.0, 20.0) == pytest.approx(1.5)
    assert zoo_speed.ratio(None, 20.0) is None
    assert zoo_speed.ratio(30.0, 0.0) is None
    rows = [
        {"name": "lenet", "batch": 32, "image": 32, "policy": "float32", "tfspore_ms": 11.0, "keras_ms": 10.0},
        {"name": "vgg16", "batch": 4, "image": 224, "policy": "mixed_float16", "tfspore_ms": 3000.0,
         "keras_ms": 90000.0, "keras_lower_bound": True, "keras_fp32_ms": 2000.0},
    ]
    table = zoo_speed.format_table(rows).splitlines()
    assert table[0].startswith("| script |")
    lenet = [c.strip() for c in table[2].split("|")[1:-1]]
    assert lenet[4:7] == ["11.00", "10.00", "1.10"] and lenet[-1] == "yes"
    vgg = [c.strip() for c in table[3].split("|")[1:-1]]
    # Keras's figure is a lower bound, so the ratio is an upper bound; the float32 twin fails 1.2x.
    assert vgg[5:9] == [">90000.00", "<0.03", "2000.00", "1.50"] and vgg[-1] == "**no**"


def test_subst_fills_placeholders_and_makes_integers():
    subst = {"data": "/d", "batch": 32}
    assert zoo_speed._subst("{data}/train", subst) == "/d/train"  # pylint: disable=protected-access
    assert zoo_speed._subst("{batch}", subst) == 32  # pylint: disable=protected-access
    assert zoo_speed._subst([224, 224], subst) == [224, 224]  # pylint: disable=protected-access
    assert zoo_speed._subst(["{batch}", "x"], subst) == [32, "x"]  # pylint: disable=protected-access
    raw = zoo_speed.Raw('[[32, 16], "relu"]')
    assert zoo_speed._subst(raw, subst) is raw  # pylint: disable=protected-access


def test_specs_cover_every_training_script_of_zoo_check():
    from tools._zoo_entries import ENTRIES
    scripts = {s.script for s in zoo_speed.SPECS}
    trained = {e.script for e in ENTRIES if e.after is None and not e.script.endswith("eval.py")}
    # Wide&Deep (FTRL + LazyAdam) has no Keras twin yet.
    assert trained - scripts == {"official/recommend/Wide_and_Deep/train.py"}
    vgg = next(s for s in zoo_speed.SPECS if s.name == "vgg16")
    assert vgg.policy == "mixed_float16" and "{image}" in vgg.overrides["image_size"]
    assert len({s.name for s in zoo_speed.SPECS}) == len(zoo_speed.SPECS)


def test_partial_step_ms_from_single_steps_or_a_lower_bound():
    assert zoo_speed.partial_step_ms([50.0, 60.0, 80.0], 100.0) == (pytest.approx(15000.0), False)
    # One step ended at 50 s, stopped at 170 s: the second step took more than 120 s.
    assert zoo_speed.partial_step_ms([50.0], 170.0) == (pytest.approx(120000.0), True)
    assert zoo_speed.partial_step_ms([], 170.0) == (None, False)


def test_stream_stops_the_process_once_it_printed_enough(tmp_path):
    import sys
    code = "import time\nfor i in range(100):\n    print(f'per step time: {i}.5 ms', flush=True)\n    time.sleep(0.05)\n"
    lines, rc, timed_out, _ = zoo_speed._stream(  # pylint: disable=protected-access
        [sys.executable, "-c", code], str(tmp_path), zoo_speed._env(), str(tmp_path / "log"), 60.0,  # pylint: disable=protected-access
        lambda ls: len(zoo_speed.parse_step_times(ls)) >= 3)
    assert zoo_speed.parse_step_times(lines)[:3] == [0.5, 1.5, 2.5]
    # Stopped, not run to its end: it had 100 lines to print.
    assert rc is None and not timed_out and len(lines) < 100
    assert (tmp_path / "log").read_text().startswith("per step time: 0.5 ms")

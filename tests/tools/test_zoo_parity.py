"""Tests of tools/zoo_parity.py: reading LossMonitor lines, comparing losses, the tables, the entries."""
from __future__ import annotations

import math
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import _zoo_parity_launch as launch  # noqa: E402
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
        assert set(e.hooks) <= zoo_parity.KNOWN_HOOKS
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


# ---------------------------------------------------------------------------------------------
# The image-classification entries and the configs of their runs
# ---------------------------------------------------------------------------------------------

def test_cv_entries_say_how_each_hook_they_use_turned_something_off():
    by_name = {e.name: e for e in zoo_parity.PARITY_ENTRIES}
    cv = ["mobilenetv2", "mobilenetv1", "vgg16", "vgg16-o2", "googlenet", "squeezenet", "densenet121", "inceptionv3"]
    assert set(cv) <= set(by_name)
    for name in cv:
        e = by_name[name]
        assert e.hooks.get("no_random_augment") and "RandomCropDecodeResize" in e.turned_off
        assert e.hooks.get("no_shuffle") and "shuffle" in e.turned_off
        if e.hooks.get("no_dropout"):
            assert "no_dropout" in e.turned_off
        if e.hooks.get("amp_level"):
            assert "amp_level='O0'" in e.turned_off
        if e.hooks.get("no_nesterov"):
            assert "no_nesterov" in e.turned_off
    # VGG16 is compared with its float16 casts off, and as the script trains it at a stated looser tolerance.
    assert by_name["vgg16"].hooks["amp_level"] == "O0" and by_name["vgg16"].rtol is None
    assert "amp_level" not in by_name["vgg16-o2"].hooks and by_name["vgg16-o2"].rtol == pytest.approx(1e-2)


def _check(config="m/cfg.yaml", overrides=None):
    return zoo_check.Entry("x-train", "m/train.py", ["--config_path", "{config}", "--data", "{data}"],
                           config=config, overrides=overrides or {"epoch_size": 1})


def test_write_configs_leaves_the_init_checkpoint_out_of_the_run_that_writes_it(tmp_path):
    zoo, work = tmp_path / "zoo", tmp_path / "work"
    (zoo / "m").mkdir(parents=True)
    work.mkdir()
    (zoo / "m" / "cfg.yaml").write_text("epoch_size: 90\nbatch_size: 32\npre_trained: False\n"
                                        "checkpoint_path: ''\nresume: ''\n")
    entry = zoo_parity.ParityEntry("x", "x-train", batch=4, ckpt_option=True,
                                   overrides={"batch_size": 4, "pre_trained": True, "checkpoint_path": "{init}",
                                              "resume": "{work}/r.ckpt"},
                                   init_overrides={"pre_trained": False})
    subst = {"data": str(tmp_path / "d"), "work": str(work), "init": str(work / "init.ckpt")}
    args, init_args = zoo_parity.write_configs(entry, _check(), str(zoo), str(work), subst)
    assert args == ["--config_path", str(work / "cfg.yaml"), "--data", str(tmp_path / "d")]
    assert init_args == ["--config_path", str(work / "init_cfg.yaml"), "--data", str(tmp_path / "d")]
    train = (work / "cfg.yaml").read_text()
    init = (work / "init_cfg.yaml").read_text()
    assert "epoch_size: 1" in train and "batch_size: 4" in train and "pre_trained: True" in train
    assert f"checkpoint_path: {work / 'init.ckpt'}" in train.replace("'", "").replace('"', "")
    # The init run: same sizes, the option naming init.ckpt at the zoo's value, init_overrides on top;
    # other substituted values stay.
    assert "epoch_size: 1" in init and "batch_size: 4" in init and "pre_trained: False" in init
    assert "init.ckpt" not in init and f"{work}/r.ckpt" in init


def test_write_configs_without_a_config_fills_the_flags(tmp_path):
    check = zoo_check.Entry("x-train", "m/train.py", ["--out", "{work}/o"], config=None)
    entry = zoo_parity.ParityEntry("x", "x-train", batch=1)
    args, init_args = zoo_parity.write_configs(entry, check, str(tmp_path), str(tmp_path),
                                               {"data": "d", "work": "w", "init": "i"})
    assert args == init_args == ["--out", "w/o"]
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# The launcher's no_random_augment, no_shuffle and no_dropout hooks (on stand-in classes: the
# real ones are patched only inside the launched script's process)
# ---------------------------------------------------------------------------------------------

class _Op:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    def __eq__(self, other):
        return type(self) is type(other) and (self.args, self.kwargs) == (other.args, other.kwargs)

    __hash__ = None


class _Vision:
    class Decode(_Op):
        pass

    class Resize(_Op):
        pass

    class Pad(_Op):
        pass

    class CenterCrop(_Op):
        pass

    class RandomCropDecodeResize(_Op):
        pass

    class RandomResizedCrop(_Op):
        pass

    class RandomCrop(_Op):
        pass

    class RandomHorizontalFlip(_Op):
        pass

    class RandomColorAdjust(_Op):
        pass

    class Normalize(_Op):
        pass


def test_deterministic_transforms_stand_in_for_the_random_ones():
    v = _Vision
    f = launch.deterministic_transforms(v)
    # Only the names the module has; RandomVerticalFlip, CutOut are absent here.
    assert set(f) == {"RandomCropDecodeResize", "RandomResizedCrop", "RandomCrop", "RandomHorizontalFlip",
                      "RandomColorAdjust"}
    rcdr = f["RandomCropDecodeResize"](32, scale=(0.08, 1.0), ratio=(0.75, 1.333))
    assert rcdr.operations == [v.Decode(), v.Resize((32, 32))]
    assert f["RandomCropDecodeResize"]([24, 40], interpolation="area").operations == \
        [v.Decode(), v.Resize((24, 40), "area")]
    assert f["RandomResizedCrop"](16).operations == [v.Resize((16, 16))]
    assert f["RandomCrop"]((32, 32), (4, 4, 4, 4)).operations == [v.Pad((4, 4, 4, 4), 0), v.CenterCrop((32, 32))]
    assert f["RandomCrop"](32).operations == [v.CenterCrop(32)]
    assert f["RandomHorizontalFlip"](prob=0.5).operations == []
    assert f["RandomColorAdjust"](0.4, 0.4, 0.4, 0.1).operations == []
    assert "RandomCropDecodeResize -> ['Decode', 'Resize']" in repr(rcdr)


def test_expand_operations_flattens_the_stand_ins_and_keeps_other_lists():
    v = _Vision
    f = launch.deterministic_transforms(v)
    norm = v.Normalize(mean=[0.5], std=[0.5])
    ops = [f["RandomCropDecodeResize"](8), f["RandomHorizontalFlip"](), norm]
    assert launch.expand_operations(ops) == [v.Decode(), v.Resize((8, 8)), norm]
    assert launch.expand_operations(f["RandomHorizontalFlip"]()) == []
    plain = [norm]
    assert launch.expand_operations(plain) is plain
    assert launch.expand_operations(norm) is norm


def _fake_ds():
    calls = []

    class Dataset:
        def map(self, operations=None, input_columns=None, num_parallel_workers=None):
            calls.append(("map", operations, input_columns, num_parallel_workers))
            return "mapped"

        def batch(self, batch_size, num_parallel_workers=None):
            calls.append(("batch", batch_size, num_parallel_workers))
            return "batched"

        def shuffle(self, buffer_size):
            calls.append(("shuffle", buffer_size))
            return "shuffled"

    class MnistDataset(Dataset):
        def __init__(self, root, shuffle=None, num_samples=None, num_parallel_workers=None):
            calls.append(("source", shuffle, num_samples))

    class ImageFolderDataset(MnistDataset):
        pass

    class Module:
        pass

    ds = Module()
    ds.MnistDataset, ds.ImageFolderDataset = MnistDataset, ImageFolderDataset
    return ds, calls


def test_patched_dataset_reads_in_order_and_maps_the_stand_ins():
    ds, calls = _fake_ds()
    launch._patch_sources(ds, True, 20)  # pylint: disable=protected-access
    f = launch.deterministic_transforms(_Vision)
    data = ds.ImageFolderDataset("root", shuffle=True)
    assert calls[-1] == ("source", False, 20)
    assert data.shuffle(buffer_size=1000) is data  # no_shuffle: Dataset.shuffle is the identity
    assert data.map([f["RandomCropDecodeResize"](8), f["RandomColorAdjust"](0.4)], "image") == "mapped"
    assert calls[-1] == ("map", [_Vision.Decode(), _Vision.Resize((8, 8))], "image", None)
    # A map left with no operation is skipped.
    before = len(calls)
    assert data.map(operations=[f["RandomHorizontalFlip"]()], input_columns="image") is data
    assert len(calls) == before
    assert data.map(operations="op", input_columns="label", num_parallel_workers=10 ** 6) == "mapped"
    assert calls[-1] == ("map", "op", "label", os.cpu_count() or 1)


def test_patched_dataset_keeps_shuffle_without_no_shuffle():
    ds, calls = _fake_ds()
    launch._patch_sources(ds, False, None)  # pylint: disable=protected-access
    data = ds.MnistDataset("root", shuffle=True)
    assert calls[-1] == ("source", True, None)
    assert data.shuffle(10) == "shuffled"


def test_patch_dropout_builds_dropout_with_p_zero_and_makes_the_function_the_identity():
    built = []

    class Dropout:
        def __init__(self, keep_prob=0.5, p=None, dtype="float32"):
            built.append((keep_prob, p, dtype))

    class Nn:
        pass

    class Functions:
        @staticmethod
        def dropout(x, p=0.5, training=True, seed=None):
            return None

    nn, funcs = Nn(), Functions()
    nn.Dropout = Dropout
    launch.patch_dropout(nn, [funcs, object()])
    nn.Dropout(p=0.2)
    nn.Dropout(0.8)
    nn.Dropout(0.5, None, "float16")
    nn.Dropout(keep_prob=0.9, dtype="float16")
    assert built == [(0.5, 0.0, "float32"), (0.5, 0.0, "float32"), (0.5, 0.0, "float16"), (0.5, 0.0, "float16")]
    assert funcs.dropout("x", p=0.9) == "x"


def test_patch_no_nesterov_turns_the_flag_off_by_keyword_or_position():
    built = []

    class Momentum:
        def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
            built.append((params, weight_decay, loss_scale, use_nesterov))

    class Nn:
        pass

    nn = Nn()
    nn.Momentum = Momentum
    launch.patch_no_nesterov(nn)
    nn.Momentum("p", 0.1, 0.9, 1e-4, use_nesterov=True)
    nn.Momentum("p", 0.1, 0.9, 1e-4, 1024.0, True)
    nn.Momentum("p", 0.1, 0.9)
    assert built == [("p", 1e-4, 1.0, False), ("p", 1e-4, 1024.0, False), ("p", 0.0, 1.0, False)]

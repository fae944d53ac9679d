"""Tests of tools/_zoo_parity_stepwise.py and the launcher hooks it uses (sample_order, save/load_state)."""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import _zoo_parity_launch as launch  # noqa: E402
import _zoo_parity_stepwise as stepwise  # noqa: E402


def test_rotated_order_starts_at_the_batch_and_keeps_the_epoch_length():
    assert stepwise.rotated_order(6, 2) == [2, 3, 4, 5, 0, 1]
    assert stepwise.rotated_order(4, 0) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match=r"'start' must be in \[0, 4\), but got 4"):
        stepwise.rotated_order(4, 4)


def test_compare_states_scales_each_parameter_by_its_largest_element():
    ms = {"w": np.array([1.0, 1e-6], np.float32), "moments.w": np.array([0.5, 0.0], np.float32),
          "global_step": np.array([3], np.int32)}
    # w: 1e-6 off on the small element is far below 1e-4 * max|w| = 1e-4 although it is 100% of that element.
    tf = {"w": np.array([1.0, 2e-6], np.float32), "moments.w": np.array([0.5, 0.01], np.float32),
          "global_step": np.array([3], np.int32)}
    weights, state = stepwise.compare_states(ms, tf, ["w"], rtol=1e-4, atol=1e-5)
    assert weights.ok and weights.name == "w" and weights.count == 1
    assert weights.ratio == pytest.approx(1e-6 / (1e-5 + 1e-4 * 1.0), rel=1e-3)
    assert not state.ok and state.name == "moments.w"  # 0.01 against 1e-5 + 1e-4 * 0.5
    assert state.max_abs == pytest.approx(0.01)


def test_compare_states_reports_a_name_in_one_state_only():
    weights, state = stepwise.compare_states({"w": np.ones(2), "m": np.ones(2)}, {"w": np.ones(2)}, ["w"])
    assert weights.ok and not state.ok and "m (in one state only)" == state.name


def test_within_spread_needs_mindspores_own_one_step_spread():
    far = stepwise.ParamDiff("w", 1e-3, 5.0, 1)
    check = stepwise.StepCheck(2, 1.0, tf_loss=1.0 + 2e-4, weights=far, state=stepwise.ParamDiff("m", 0, 0.5, 1))
    assert not check.ok and not check.within_spread  # no spread measured
    check.spread_loss, check.spread_weights, check.spread_state = 1.0 + 1e-4, stepwise.ParamDiff("w", 0, 2.0, 1), \
        stepwise.ParamDiff("m", 0, 0.1, 1)
    assert check.within_spread  # 5.0 <= 4 * 2.0; loss 2e-4 <= 4 * 1e-4
    check.spread_weights = stepwise.ParamDiff("w", 0, 1.0, 1)
    assert not check.within_spread  # 5.0 > 4 * 1.0


def test_run_stepwise_starts_each_step_from_mindspores_state(tmp_path):
    steps, batch = 3, 2
    ms_dir = tmp_path / "ms"
    ms_dir.mkdir()
    states = {k: {"w": np.array([float(k)], np.float32)} for k in range(1, steps + 1)}
    for k in states:
        (ms_dir / f"state_{k}.ckpt").write_text(str(k))
    calls = []

    def run_tf(k, settings):
        calls.append((k, settings))
        os.makedirs(settings["save_state"])
        with open(os.path.join(settings["save_state"], "state_1.ckpt"), "w") as f:
            f.write(str(k + 1) if k == 1 else "off")
        return 0, f"loss {k}"

    def read(path):
        text = open(path).read()
        return {"w": np.array([9.0 if text == "off" else float(text)], np.float32)}

    checks = stepwise.run_stepwise(steps, batch, str(ms_dir), [5.0, 4.0, 3.0], ["w"], run_tf,
                                   lambda log: 4.0 if log == "loss 1" else 3.5, read, str(tmp_path))
    assert [c.step for c in checks] == [2, 3]
    assert [k for k, _ in calls] == [1, 2]
    assert calls[1][1]["load_state"] == str(ms_dir / "state_2.ckpt")
    assert calls[1][1]["sample_order"] == [4, 5, 0, 1, 2, 3] and calls[1][1]["stop_after"] == 1
    assert checks[0].ok and not checks[1].ok
    assert "1 of 2 steps (2-3) match" in stepwise.summarize(checks)


def _fake_ds_with_sampler():
    calls = []

    class SubsetSampler:
        def __init__(self, indices):
            self.indices = indices

    class MnistDataset:
        def __init__(self, root, shuffle=None, num_samples=None, num_shards=None, shard_id=None, sampler=None):
            calls.append((shuffle, num_samples, num_shards, shard_id, sampler))

    class Module:
        pass

    ds = Module()
    ds.MnistDataset, ds.SubsetSampler = MnistDataset, SubsetSampler
    return ds, calls


def test_sample_order_replaces_shuffle_samples_and_sharding_by_a_subset_sampler():
    ds, calls = _fake_ds_with_sampler()
    launch._patch_sources(ds, True, 8, [2, 3, 0, 1])  # pylint: disable=protected-access
    ds.MnistDataset("root", shuffle=True, num_shards=1, shard_id=0)
    shuffle, num_samples, num_shards, shard_id, sampler = calls[-1]
    assert (shuffle, num_samples, num_shards, shard_id) == (None, None, None, None)
    assert sampler.indices == [2, 3, 0, 1]

"""Tests of tools/_zoo_parity_nlp.py (the NLP loss-parity entries and their data) and of the launcher
hooks those entries added to tools/_zoo_parity_launch.py (missing_init_empty, force_attr,
finite_overflow_check), on stand-in modules and classes."""
from __future__ import annotations

import os
import sys
import types

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import _zoo_parity_launch as launch  # noqa: E402
import zoo_check  # noqa: E402
import zoo_parity  # noqa: E402  (first: it imports _zoo_parity_nlp at its end)
import _zoo_parity_nlp as nlp  # noqa: E402

_BY_NAME = {e.name: e for e in nlp.NLP_PARITY_ENTRIES}


# ---------------------------------------------------------------------------------------------
# The entries
# ---------------------------------------------------------------------------------------------

def test_nlp_entries_are_registered_once_and_name_zoo_check_entries():
    assert set(_BY_NAME) == {"bert-pretrain", "bert-classifier", "transformer", "textcnn"}
    names = [e.name for e in zoo_parity.PARITY_ENTRIES]
    assert len(names) == len(set(names))
    assert all(e in zoo_parity.PARITY_ENTRIES for e in nlp.NLP_PARITY_ENTRIES)
    checks = {c.name: c for c in zoo_check.ENTRIES}
    for e in nlp.NLP_PARITY_ENTRIES:
        assert checks[e.check].area == "nlp"
        assert "dropout" in e.turned_off and "init weights" in e.turned_off


def test_nlp_entries_turn_dropout_off_and_compute_in_float32():
    for name in ("bert-pretrain", "bert-classifier", "transformer"):
        e = _BY_NAME[name]
        assert all(v == 0.0 for k, v in e.overrides.items() if k.endswith("dropout_prob"))
        assert sum(k.endswith("dropout_prob") for k in e.overrides) == 2
        assert "float16" in e.turned_off
    # Where the script fixes float16 in code, the launcher pins float32.
    for name in ("bert-classifier", "transformer"):
        forced = {path: value for _, path, value in _BY_NAME[name].hooks["force_attr"]}
        assert forced[next(p for p in forced if p.endswith("compute_type"))] == "mstype.float32"
    # Hard-coded nn.Dropout layers: the launcher's hook.
    assert _BY_NAME["bert-classifier"].hooks["no_dropout"] and _BY_NAME["textcnn"].hooks["no_dropout"]


def test_nlp_entries_hand_the_checkpoint_to_the_script_or_the_launcher():
    for e in nlp.NLP_PARITY_ENTRIES:
        assert e.ckpt_option == any(v == "{init}" for v in e.overrides.values())
        assert set(e.hooks) <= zoo_parity.KNOWN_HOOKS
    # run_classifier requires its option in the run that writes init.ckpt too.
    e = _BY_NAME["bert-classifier"]
    assert e.ckpt_option and e.hooks["missing_init_empty"]
    assert e.init_overrides == {"load_pretrain_checkpoint_path": "{init}"}
    assert not _BY_NAME["textcnn"].ckpt_option  # its option names its checkpoint save folder


def test_nlp_entries_use_only_hooks_the_launcher_reads():
    with open(launch.__file__, encoding="utf-8") as f:
        source = f.read()
    for e in nlp.NLP_PARITY_ENTRIES:
        for hook in e.hooks:
            assert f'settings.get("{hook}")' in source, (e.name, hook)


def test_bert_init_config_keeps_the_required_checkpoint_option(tmp_path):
    zoo, work = tmp_path / "zoo", tmp_path / "work"
    (zoo / "m").mkdir(parents=True)
    work.mkdir()
    (zoo / "m" / "cfg.yaml").write_text(
        "load_pretrain_checkpoint_path: ''\ntrain_batch_size: 32\ndo_eval: 'false'\ntrain_data_shuffle: 'true'\n"
        "optimizer_cfg:\n    AdamWeightDecay:\n        learning_rate: 0.00002\n"
        "bert_net_cfg:\n    hidden_dropout_prob: 0.1\n    attention_probs_dropout_prob: 0.1\n")
    check = zoo_check.Entry("x-train", "m/train.py", ["--config_path", "{config}"], config="m/cfg.yaml")
    subst = {"data": str(tmp_path / "d"), "work": str(work), "init": str(work / "init.ckpt")}
    zoo_parity.write_configs(_BY_NAME["bert-classifier"], check, str(zoo), str(work), subst)
    for name in ("cfg.yaml", "init_cfg.yaml"):
        text = (work / name).read_text()
        assert f'load_pretrain_checkpoint_path: "{work / "init.ckpt"}"' in text
        assert "    hidden_dropout_prob: 0.0" in text and "    attention_probs_dropout_prob: 0.0" in text


# ---------------------------------------------------------------------------------------------
# The data writers (read back with tfspore's dataset sources)
# ---------------------------------------------------------------------------------------------

def _rows(dataset):
    return list(dataset.create_dict_iterator(output_numpy=True, num_epochs=1))


def test_bert_data_has_twenty_steps_of_batch_two(tmp_path):
    import tfspore.dataset as ds

    nlp._bert_pretrain(str(tmp_path))  # pylint: disable=protected-access
    columns = ["input_ids", "input_mask", "segment_ids", "next_sentence_labels", "masked_lm_positions",
               "masked_lm_ids", "masked_lm_weights"]
    rows = _rows(ds.TFRecordDataset([str(tmp_path / "pretrain" / "part-0.tfrecord")], columns_list=columns,
                                    shuffle=False))
    assert len(rows) == 40
    assert rows[0]["input_ids"].shape == (16,) and rows[0]["masked_lm_positions"].max() < 16
    assert not np.array_equal(rows[0]["input_ids"], rows[1]["input_ids"])
    nlp._bert_classifier(str(tmp_path))  # pylint: disable=protected-access
    rows = _rows(ds.TFRecordDataset([str(tmp_path / "train.tfrecord")], shuffle=False))
    assert len(rows) == 40 and set(rows[0]) == {"input_ids", "input_mask", "segment_ids", "label_ids"}


def test_transformer_data_is_the_bucket_file_of_length_16(tmp_path):
    import tfspore.dataset as ds

    nlp._transformer(str(tmp_path))  # pylint: disable=protected-access
    rows = _rows(ds.MindDataset(str(tmp_path / "ende-mindrecord_16_00"), shuffle=False,
                                columns_list=["source_eos_ids", "source_eos_mask", "target_eos_ids"]))
    assert len(rows) == 40
    assert rows[0]["source_eos_ids"].shape == (16,) and (rows[0]["source_eos_mask"] == 1).all()
    assert 1 <= rows[0]["target_eos_ids"].min() and rows[0]["target_eos_ids"].max() < 100


# ---------------------------------------------------------------------------------------------
# Launcher hooks
# ---------------------------------------------------------------------------------------------

def test_load_nothing_from_returns_no_parameters_only_for_the_missing_target(tmp_path, capsys):
    calls = []

    def load_checkpoint(name, **kwargs):
        calls.append(name)
        return {"w": 1}

    first, second, other = (types.ModuleType(n) for n in ("a", "b", "c"))
    first.load_checkpoint = second.load_checkpoint = load_checkpoint
    other.load_checkpoint = len
    target = tmp_path / "init.ckpt"
    launch.load_nothing_from(str(target), [first, second, other])
    assert first.load_checkpoint is second.load_checkpoint is not load_checkpoint
    assert other.load_checkpoint is len  # another function stays
    assert first.load_checkpoint(str(target)) == {} and calls == []
    assert "not written yet" in capsys.readouterr().out
    assert second.load_checkpoint(str(tmp_path / "other.ckpt")) == {"w": 1}
    target.write_bytes(b"")
    assert first.load_checkpoint(str(target), strict=True) == {"w": 1}
    assert calls == [str(tmp_path / "other.ckpt"), str(target)]


def test_forced_value_converts_dtype_names_and_dicts():
    dtype_of = {"float32": "F32"}.__getitem__
    assert launch.forced_value("mstype.float32", dtype_of) == "F32"
    assert launch.forced_value("float32", dtype_of) == "float32"
    value = launch.forced_value({"warmup_steps": 100, "dtype": "mstype.float32"}, dtype_of)
    assert value.warmup_steps == 100 and value.dtype == "F32"


class _Config:
    def __init__(self):
        self.compute_type = "float16"
        self.batch_size = 8


def test_pin_ignores_later_assignments_of_that_attribute_only(capsys):
    config = _Config()
    config.compute_type = "float32"
    launch.pin(config, "compute_type")
    config.compute_type = "float16"
    config.batch_size = 2
    assert config.compute_type == "float32" and config.batch_size == 2
    assert isinstance(config, _Config)
    assert "kept the forced compute_type" in capsys.readouterr().out
    launch.pin(config, "batch_size")
    config.batch_size = 4
    assert config.batch_size == 2
    assert _Config().compute_type == "float16"  # the class itself is unchanged
    other = _Config()
    other.compute_type = "x"
    assert other.compute_type == "x"


def test_force_attributes_sets_and_pins_in_the_named_module(monkeypatch):
    module = types.ModuleType("fake_zoo_config")
    module.config = _Config()
    module.level = 1
    monkeypatch.setitem(sys.modules, "fake_zoo_config", module)
    launch.force_attributes([["fake_zoo_config", "config.compute_type", "mstype.float32"],
                             ["fake_zoo_config", "config.lr_schedule", {"warmup_steps": 100}],
                             ["fake_zoo_config", "level", 3]], lambda name: name.upper())
    module.config.compute_type = "float16"  # what train.py does at import
    module.config.lr_schedule = {"warmup_steps": 8000}
    assert module.config.compute_type == "FLOAT32" and module.config.lr_schedule.warmup_steps == 100
    assert module.level == 3


def test_check_overflow_by_finiteness_selects_the_infnan_path():
    class Cell:
        def __init__(self, network, optimizer, scale_sense):
            self.args = (network, optimizer, scale_sense)
            self.gpu_target, self.ascend_910a_target, self.ascend_910b_target = False, True, False
            self.enable_allfinite = True
            self._ascend_check_overflow_mode = None

    launch.check_overflow_by_finiteness(Cell)
    cell = Cell("net", "opt", scale_sense=1024)
    assert cell.args == ("net", "opt", 1024)
    assert (cell.gpu_target, cell.ascend_910a_target, cell.ascend_910b_target, cell.enable_allfinite) == \
        (False, False, True, False)
    assert cell._ascend_check_overflow_mode == "INFNAN_MODE"  # pylint: disable=protected-access


@pytest.mark.parametrize("settings", [{}, {"missing_init_empty": True}])
def test_missing_init_empty_needs_both_settings(settings):
    # Without save_init (the training runs) or without the flag, nothing is patched.
    module = types.ModuleType("m")
    launch._missing_init_empty(module, dict(settings))  # pylint: disable=protected-access
    assert not hasattr(module, "load_checkpoint")

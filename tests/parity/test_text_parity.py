"""Parity of ``dataset.text`` and ``CLUEDataset`` with MindSpore 2.10.

MindSpore's dataset module needs numpy < 2, so its side runs ``text_ms_runner.py`` in
``.venv-msds``; tfspore runs the same cases (the same module) in-process. Tokens, ids, dtypes
and shapes must match exactly. Offsets must match too, except where MindSpore 2.10 outputs
more offsets than tokens (for a word WordPiece cannot split it also emits the offsets of the
pieces matched before the failure): there tfspore's offsets (one per token) must be
MindSpore's with those extra entries left out.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
MS_PYTHON = Path(os.environ.get("TFSPORE_MSDS_PYTHON", REPO_ROOT / ".venv-msds" / "bin" / "python"))
_RUNNER_PATH = Path(__file__).resolve().with_name("text_ms_runner.py")
_spec = importlib.util.spec_from_file_location("_text_ms_runner", _RUNNER_PATH)
runner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runner)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    if not MS_PYTHON.exists():
        pytest.fail(f"MindSpore's dataset environment {MS_PYTHON} is missing: run `bash scripts/ms_dataset_env.sh` "
                    f"to build .venv-msds with mindspore==2.10.0 and numpy<2.")
    root = tmp_path_factory.mktemp("text_parity")
    runner.write_data(str(root))
    out_path = root / "ms.json"
    env = dict(os.environ, GLOG_v="3", PYTHONPATH="")
    # MindSpore's side runs in a subprocess while tfspore's side runs here.
    with subprocess.Popen([str(MS_PYTHON), str(_RUNNER_PATH), str(root), str(out_path)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=env) as proc:
        import tfspore
        import tfspore.dataset as ds
        import tfspore.dataset.text as text
        ours = json.loads(json.dumps(runner.run_cases(ds, text, tfspore, str(root)), ensure_ascii=False))
        _, stderr = proc.communicate(timeout=300)
    if proc.returncode != 0 or not out_path.exists():
        pytest.fail(f"the MindSpore runner failed (rc={proc.returncode}):\n{stderr[-4000:]}")
    ms = json.loads(out_path.read_text(encoding="utf-8"))
    return ms, ours


def _is_subsequence(small, big):
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def _check(ms, ours):
    if isinstance(ms, list) and len(ms) == 3 and all(isinstance(x, dict) and "value" in x for x in ms) \
            and ms[1]["dtype"] == "u4" and len(ms[1]["value"]) != len(ms[0]["value"]):
        assert ours[0] == ms[0]
        pairs_ms = list(zip(ms[1]["value"], ms[2]["value"]))
        pairs_ours = list(zip(ours[1]["value"], ours[2]["value"]))
        assert len(pairs_ours) == len(ours[0]["value"])
        assert _is_subsequence(pairs_ours, pairs_ms), (pairs_ours, pairs_ms)
        return
    assert ours == ms


GROUPS = ["vocab", "basic_", "bert_", "wordpiece", "lookup", "ngram", "sliding", "truncate", "tonumber", "casefold",
          "normalize_", "regex_", "whitespace", "unicode_char", "unicode_script", "afqmc", "tnews"]


@pytest.mark.parametrize("prefix", GROUPS)
def test_text_parity(results, prefix):
    ms, ours = results
    keys = [k for k in ms if k.startswith(prefix)]
    assert keys, prefix
    for key in keys:
        assert key in ours, key
        try:
            _check(ms[key], ours[key])
        except AssertionError as exc:
            raise AssertionError(f"case {key}:\n MindSpore: {ms[key]}\n tfspore:   {ours[key]}") from exc


def test_every_case_is_grouped(results):
    ms, _ = results
    assert all(any(k.startswith(p) for p in GROUPS) for k in ms), [k for k in ms if
                                                                   not any(k.startswith(p) for p in GROUPS)]

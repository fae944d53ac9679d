"""BERT's CMNLI preprocessing from the official model zoo, end to end, against MindSpore 2.10.

``official/nlp/Bert/src/finetune_data_preprocess.py`` runs unchanged (its
``process_cmnli_clue_dataset``: CLUEDataset, BertTokenizer, TruncateSequencePair, Concatenate,
Duplicate / project, Lookup, Fill, PadEnd, Mask, batch) on a small CLUE-format CMNLI sample,
once under ``python -m tfspore run`` and once under real MindSpore (``.venv-msds``), and each
side saves the pipeline with ``Dataset.save``. The two MindRecord files and their indexes must be
byte-identical. The zoo checkout is found at ``$TFSPORE_ZOO`` (default ``/work/zoo``).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
MS_PYTHON = Path(os.environ.get("TFSPORE_MSDS_PYTHON", REPO_ROOT / ".venv-msds" / "bin" / "python"))
ZOO = Path(os.environ.get("TFSPORE_ZOO", "/work/zoo"))
SCRIPT_DIR = ZOO / "official" / "nlp" / "Bert" / "src"

# Two interpreter starts and a traced pipeline (about 40 s): in the slow tier (`pytest -m slow`).
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (SCRIPT_DIR / "finetune_data_preprocess.py").is_file(),
                                 reason="the official model zoo checkout is not on this machine (set TFSPORE_ZOO)")]

SAMPLE = [
    ("他说他会来参加会议。", "他不会来。", "contradiction"),
    ("The quick brown fox jumps over the lazy dog.", "A fox jumps.", "entailment"),
    ("我们明天去北京旅游，天气很好。", "天气预报说明天下雨。", "neutral"),
    ("Unbelievably, running shoes are cheaper today!", "Shoes cost less today.", "entailment"),
    ("这家餐厅的菜很好吃，价格也便宜。", "这家餐厅很贵。", "contradiction"),
    ("She plays the piano beautifully.", "She is a musician who plays piano very well and often performs at "
     "concerts in the city hall every weekend.", "neutral"),
    ("中国的首都是北京。", "北京是中国的首都。", "entailment"),
    ("他在学习机器学习和深度学习的知识，每天都花很多时间阅读论文和写代码。", "他不学习。", "contradiction"),
    ("Tokyo is a large city.", "东京是一个大城市。", "entailment"),
    ("Mixed 中英文 text with numbers 12345 and symbols #!", "Numbers appear.", "neutral"),
]
WORDPIECES = ["the", "quick", "brown", "fox", "jump", "##s", "over", "lazy", "dog", "a", "she", "play", "piano",
              "beautiful", "##ly", "is", "musician", "who", "very", "well", "and", "often", "perform", "at", "concert",
              "in", "city", "hall", "every", "week", "##end", "tokyo", "large", "shoe", "cost", "less", "today", "un",
              "##bel", "##iev", "##ably", "running", "cheap", "##er", "are", "mixed", "text", "with", "number", "12",
              "##34", "##5", "symbol", "appear", ".", ",", "!", "#"]

DRIVER = """
import sys
sys.path.insert(0, {script_dir!r})
from finetune_data_preprocess import process_cmnli_clue_dataset

data = process_cmnli_clue_dataset({data_dir!r}, ["contradiction", "entailment", "neutral"], {vocab!r},
                                  data_usage="train", shuffle_dataset=False, max_seq_len=32, batch_size=3,
                                  drop_remainder=True)
data.save(sys.argv[1])
"""


def _write_inputs(root: Path) -> Path:
    with open(root / "train.json", "w", encoding="utf-8") as handle:
        for first, second, label in SAMPLE:
            handle.write(json.dumps({"sentence1": first, "sentence2": second, "label": label}, ensure_ascii=False)
                         + "\n")
    chars = sorted({ch for first, second, _ in SAMPLE for ch in first + second if ch.strip()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDPIECES
    vocab += [ch for ch in chars if ch.lower() not in vocab]
    (root / "vocab.txt").write_text("\n".join(dict.fromkeys(vocab)) + "\n", encoding="utf-8")
    driver = root / "driver.py"
    driver.write_text(DRIVER.format(script_dir=str(SCRIPT_DIR), data_dir=str(root), vocab=str(root / "vocab.txt")))
    return driver


def test_cmnli_preprocessing_writes_mindspore_identical_mindrecord(tmp_path):
    if not MS_PYTHON.exists():
        pytest.fail(f"MindSpore's dataset environment {MS_PYTHON} is missing: run `bash scripts/ms_dataset_env.sh`.")
    driver = _write_inputs(tmp_path)
    (tmp_path / "ms").mkdir()
    (tmp_path / "tf").mkdir()
    runs = {"ms": [str(MS_PYTHON), str(driver)], "tf": [sys.executable, "-m", "tfspore", "run", str(driver)]}
    for side, command in runs.items():
        env = dict(os.environ, GLOG_v="3", PYTHONPATH="" if side == "ms" else str(REPO_ROOT))
        proc = subprocess.run(command + [str(tmp_path / side / "cmnli.mindrecord")], capture_output=True, text=True,
                              timeout=600, env=env, cwd=str(REPO_ROOT if side == "tf" else tmp_path), check=False)
        assert proc.returncode == 0, f"{side}: {proc.stderr[-4000:]}"
    for name in ("cmnli.mindrecord", "cmnli.mindrecord.db"):
        ms_bytes = (tmp_path / "ms" / name).read_bytes()
        assert (tmp_path / "tf" / name).read_bytes() == ms_bytes, name
    from tfspore.mindrecord import FileReader  # pylint: disable=import-outside-toplevel
    rows = list(FileReader(str(tmp_path / "tf" / "cmnli.mindrecord")).get_next())
    assert len(rows) == 3 and rows[0]["text_ids"].shape == (3, 32)  # three batches of three pairs
    assert rows[0]["label_id"].tolist() == [0, 1, 2]

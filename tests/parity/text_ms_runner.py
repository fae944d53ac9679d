"""Runs the same ``dataset.text`` and ``CLUEDataset`` cases on MindSpore or tfspore; writes JSON.

MindSpore's side runs in ``.venv-msds`` (its dataset module needs numpy < 2)::

    .venv-msds/bin/python tests/parity/text_ms_runner.py DATA_DIR OUT.json

``tests/parity/test_text_parity.py`` imports this module and calls :func:`run_cases` with
tfspore's modules, so both sides build every case with the same code.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Dict

import numpy as np

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "how", "are", "you", ",", "!", "?", ".",
         "中", "文", "分", "词", "好", "的", "，", "。", "un", "##aff", "##able", "run", "##ning", "jump", "##ed",
         "super", "##cal", "##i", "a", "b", "c", "d", "cafe", "naive", "hel", "##lo", "e", "##m", "##gre",
         "123", "4", "##.", "##56", "$", "7", "(", ")", "-", "_", "'", "x", "##y", "##z"]
SENTENCES = ["Hello, World! How are you?", "Héllo Wörld naïve café", "中文分词，好的。",
             "unaffable running jumped", "xyzzy unknownword", "supercalifragilisticexpialidocious",
             "a\tb\nc  d", "ABC-def_ghi (jkl) 'mno'", "émigré ÀÉÎÕÜ ß", "mixed中English混合", "numbers 123 4.56 $7",
             "Straße\u00adkey ﬁne Ａ", "", "   "]
WORDS = ["unaffable", "running", "jumped", "xyz", "hello", "helo", "a", "supercali", "##ed", "日本"]

AFQMC = [{"sentence1": "蚂蚁借呗等额还款", "sentence2": "借呗能分期吗", "label": "0"},
         {"sentence1": "花呗收款", "sentence2": "花呗怎么收款", "label": "1"},
         {"sentence1": "Hello there", "sentence2": "hi", "label": "1"}]
AFQMC_TEST = [{"id": 0, "sentence1": "一", "sentence2": "二"}, {"id": 1, "sentence1": "三", "sentence2": "四"}]
TNEWS = [{"label": "102", "label_desc": "news_entertainment", "sentence": "江疏影甜甜圈自拍，迷之角度竟这么好看",
          "keywords": "江疏影,美少女"},
         {"label": "110", "label_desc": "news_military", "sentence": "以色列大规模空袭开始！", "keywords": ""},
         {"label": "104", "label_desc": "news_finance", "sentence": "Hello, World 你好", "keywords": "a,b"}]


def write_data(root: str) -> None:
    """Write the CLUE JSON-lines files and the vocab file under `root`."""
    for name, rows in (("afqmc.json", AFQMC), ("afqmc_test.json", AFQMC_TEST), ("tnews.json", TNEWS)):
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(os.path.join(root, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(VOCAB) + "\n")


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    arr = np.asarray(value)
    if arr.dtype.kind == "S":
        arr = np.char.decode(arr, "utf-8")
    return {"dtype": arr.dtype.kind + str(arr.dtype.itemsize if arr.dtype.kind not in "US" else 0),
            "shape": list(arr.shape), "value": arr.tolist()}


def _safe(fn: Callable[[], Any]) -> Any:
    try:
        return _plain(fn())
    except Exception as exc:  # pylint: disable=broad-except
        return {"error": type(exc).__name__}


def _rows(data: Any) -> Any:
    return [[_plain(c) for c in row] for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def run_cases(ds: Any, text: Any, mstype: Any, root: str) -> Dict[str, Any]:
    """Every case's output, keyed by case name."""
    out: Dict[str, Any] = {}
    vocab = text.Vocab.from_file(os.path.join(root, "vocab.txt"))
    out["vocab"] = sorted(vocab.vocab().items(), key=lambda kv: kv[1])
    out["vocab_ids"] = vocab.tokens_to_ids(["hello", "nope", "[UNK]"])
    out["vocab_tokens"] = vocab.ids_to_tokens([5, 0, 9999])
    lv = text.Vocab.from_list(["b", "a"], special_tokens=["<pad>"], special_first=False)
    out["vocab_list"] = sorted(lv.vocab().items(), key=lambda kv: kv[1])
    basic = {
        "basic_default": dict(),
        "basic_lower": dict(lower_case=True),
        "basic_ws": dict(keep_whitespace=True),
        "basic_nfkc": dict(normalization_form=text.NormalizeForm.NFKC),
        "basic_nfd": dict(normalization_form=text.NormalizeForm.NFD),
        "basic_lower_nounused": dict(lower_case=True, preserve_unused_token=False),
    }
    for name, kw in basic.items():
        op = text.BasicTokenizer(with_offsets=True, **kw)
        for i, s in enumerate(SENTENCES):
            out[f"{name}_{i}"] = _safe(lambda: op(s))  # noqa: B023
    bert = {
        "bert_lower": dict(lower_case=True),
        "bert_cased": dict(),
        "bert_short": dict(lower_case=True, max_bytes_per_token=8),
        "bert_nounk": dict(lower_case=True, unknown_token=""),
        "bert_suffix": dict(lower_case=True, suffix_indicator="##", keep_whitespace=True),
    }
    for name, kw in bert.items():
        op = text.BertTokenizer(vocab, with_offsets=True, **kw)
        for i, s in enumerate(SENTENCES):
            out[f"{name}_{i}"] = _safe(lambda: op(s))  # noqa: B023
    out["bert_unused"] = _safe(lambda: text.BertTokenizer(vocab)("[CLS] hello [SEP] [MASK] [unused3] x"))
    out["bert_plain"] = _safe(lambda: text.BertTokenizer(vocab, lower_case=True)("Hello, World!"))
    words = np.array(WORDS)
    out["wordpiece"] = _safe(lambda: text.WordpieceTokenizer(vocab, with_offsets=True)(words))
    out["wordpiece_nounk"] = _safe(lambda: text.WordpieceTokenizer(vocab, unknown_token="")(words))
    out["wordpiece_short"] = _safe(lambda: text.WordpieceTokenizer(vocab, max_bytes_per_token=5)(words))
    out["lookup"] = _safe(lambda: text.Lookup(vocab, "[UNK]")(np.array(["hello", "zzz", "中"])))
    out["lookup_i64"] = _safe(lambda: text.Lookup(vocab, "[UNK]", mstype.int64)(np.array(["world"])))
    out["lookup_missing"] = _safe(lambda: text.Lookup(vocab)(np.array(["zzz"])))
    toks = np.array(["a", "b", "c", "d"])
    out["ngram2"] = _safe(lambda: text.Ngram(2)(toks))
    out["ngram_multi"] = _safe(lambda: text.Ngram([1, 3], ("<s>", 2), ("</s>", 1), "_")(toks))
    out["ngram_long"] = _safe(lambda: text.Ngram(6)(toks))
    out["sliding"] = _safe(lambda: text.SlidingWindow(3)(np.array([1, 2, 3, 4, 5])))
    out["sliding_str"] = _safe(lambda: text.SlidingWindow(2)(toks))
    for m in (0, 3, 4, 5, 7, 20):
        out[f"truncate_{m}"] = _safe(lambda: text.TruncateSequencePair(m)(np.array([1, 2, 3, 4]),  # noqa: B023
                                                                           np.array([5, 6, 7])))
    out["tonumber_f"] = _safe(lambda: text.ToNumber(mstype.float32)(np.array(["1.5", "-2", "3e2"])))
    out["tonumber_i"] = _safe(lambda: text.ToNumber(mstype.int64)(np.array(["12", "-7"])))
    out["tonumber_bad"] = _safe(lambda: text.ToNumber(mstype.int32)(np.array(["abc"])))
    out["tonumber_range"] = _safe(lambda: text.ToNumber(mstype.uint8)(np.array(["300"])))
    out["casefold"] = _safe(lambda: text.CaseFold()(np.array(["ABC ß ÀÉ", "ΣΑΣ ς"])))
    for form in ("NFC", "NFKC", "NFD", "NFKD"):
        out[f"normalize_{form}"] = _safe(lambda: text.NormalizeUTF8(  # noqa: B023
            getattr(text.NormalizeForm, form))(np.array(["e\u0301 ﬁ Ａ é", "한"])))
    out["regex_replace"] = _safe(lambda: text.RegexReplace(r"\s+", "_")(np.array("a  b\tc")))
    out["regex_replace_one"] = _safe(lambda: text.RegexReplace("a", "X", False)(np.array("aaa")))
    out["whitespace"] = _safe(lambda: text.WhitespaceTokenizer(True)("  a\u3000b\tc "))
    out["unicode_char"] = _safe(lambda: text.UnicodeCharTokenizer(True)("aé中文"))
    script = text.UnicodeScriptTokenizer(True, True)
    for i, s in enumerate(["abc中文 12", "Hello, world! 123abc", "αβγ abc", "日本語テキストです", "x-y_z", "café1.5"]):
        out[f"unicode_script_{i}"] = _safe(lambda: script(s))  # noqa: B023
    out["regex_tok"] = _safe(lambda: text.RegexTokenizer(r"[,;]", r"[;]", True)("a,b;c"))
    # CLUE
    out["afqmc_train"] = _rows(ds.CLUEDataset(os.path.join(root, "afqmc.json"), task="AFQMC", usage="train",
                                              shuffle=False))
    out["afqmc_test"] = _rows(ds.CLUEDataset(os.path.join(root, "afqmc_test.json"), task="AFQMC", usage="test",
                                             shuffle=False))
    tnews = ds.CLUEDataset(os.path.join(root, "tnews.json"), task="TNEWS", usage="eval", shuffle=False)
    out["tnews_cols"] = tnews.get_col_names()
    out["tnews_size"] = tnews.get_dataset_size()
    out["tnews"] = _rows(tnews)
    out["afqmc_samples"] = ds.CLUEDataset(os.path.join(root, "afqmc.json"), num_samples=2).get_dataset_size()
    shard = ds.CLUEDataset(os.path.join(root, "afqmc.json"), shuffle=False, num_shards=2, shard_id=1)
    out["afqmc_shard_size"] = shard.get_dataset_size()
    out["afqmc_shard_rows"] = sorted(r[1]["value"] for r in _rows(shard))
    pipe = ds.CLUEDataset(os.path.join(root, "tnews.json"), task="TNEWS", usage="train", shuffle=False)
    pipe = pipe.map(text.BertTokenizer(vocab, lower_case=True), input_columns=["sentence"])
    pipe = pipe.map(text.Lookup(vocab, unknown_token="[UNK]"), input_columns=["sentence"])
    pipe = pipe.map(text.Lookup(text.Vocab.from_list(["102", "104", "110"])), input_columns=["label"])
    out["tnews_pipeline"] = _rows(pipe)
    return out


def main() -> None:
    import mindspore  # pylint: disable=import-outside-toplevel
    import mindspore.dataset as ds  # pylint: disable=import-outside-toplevel
    import mindspore.dataset.text as text  # pylint: disable=import-outside-toplevel
    root, out_path = sys.argv[1], sys.argv[2]
    result = run_cases(ds, text, mindspore, root)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False)


if __name__ == "__main__":
    main()

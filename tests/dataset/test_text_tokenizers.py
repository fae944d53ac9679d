"""Tokenizers of ``tfspore.dataset.text`` (eager and inside pipelines)."""
import sys

import numpy as np
import pytest

import tfspore.dataset as ds
from tfspore.dataset import text


@pytest.fixture(scope="module")
def vocab():
    return text.Vocab.from_list(["[UNK]", "[CLS]", "hello", "##s", ",", "!", "un", "##aff", "##able", "world",
                                 "中", "cafe", "hel", "##lo"])


def test_whitespace_tokenizer_unicode_spaces_and_offsets():
    tokens, starts, limits = text.WhitespaceTokenizer(with_offsets=True)(" ab\u3000c\td ")
    assert tokens.tolist() == ["ab", "c", "d"]
    assert starts.tolist() == [1, 6, 8] and limits.tolist() == [3, 7, 9]
    assert starts.dtype == np.uint32
    assert text.WhitespaceTokenizer()("").tolist() == [""]


def test_unicode_script_tokenizer_splits_scripts():
    assert text.UnicodeScriptTokenizer()("abc中文 12").tolist() == ["abc", "中文", "12"]
    assert text.UnicodeScriptTokenizer(keep_whitespace=True)("a b").tolist() == ["a", " ", "b"]


def test_unicode_char_tokenizer_offsets_are_bytes():
    tokens, starts, limits = text.UnicodeCharTokenizer(True)("aé中")
    assert tokens.tolist() == ["a", "é", "中"]
    assert starts.tolist() == [0, 1, 3] and limits.tolist() == [1, 3, 6]


def test_regex_tokenizer_keeps_matching_delimiters():
    assert text.RegexTokenizer(r"[,;]", r";")("a,b;c").tolist() == ["a", "b", ";", "c"]


def test_basic_tokenizer_splits_punctuation_and_cjk():
    out = text.BasicTokenizer()("Hello, World!! 中文x")
    assert out.tolist() == ["Hello", ",", "World", "!", "!", "中", "文", "x"]


def test_basic_tokenizer_lower_case_folds_strips_accents_and_normalizes():
    out, starts, limits = text.BasicTokenizer(lower_case=True, with_offsets=True)("Héllo ß Ａ，ﬁ")
    assert out.tolist() == ["hello", "ss", "a", ",", "fi"]
    # offsets refer to the normalized text "hello ss a,fi"
    assert starts.tolist() == [0, 6, 9, 10, 11] and limits.tolist() == [5, 8, 10, 11, 13]


def test_basic_tokenizer_control_chars_become_spaces():
    assert text.BasicTokenizer()("a\u200bb\tc").tolist() == ["a", "b", "c"]


def test_basic_tokenizer_preserve_unused_token():
    s = "[CLS] Hi [unused7] [SEP]"
    assert text.BasicTokenizer(lower_case=True)(s).tolist() == ["[CLS]", "hi", "[unused7]", "[SEP]"]
    assert text.BasicTokenizer(preserve_unused_token=False)("[CLS]").tolist() == ["[", "CLS", "]"]


def test_basic_tokenizer_keep_whitespace_and_nfd():
    assert text.BasicTokenizer(keep_whitespace=True)("a  b").tolist() == ["a", "  ", "b"]
    out = text.BasicTokenizer(normalization_form=text.NormalizeForm.NFD)("é")
    assert out.tolist() == ["e\u0301"]


def test_basic_tokenizer_rejects_bad_arguments():
    with pytest.raises(TypeError, match="lower_case"):
        text.BasicTokenizer(lower_case=1)
    with pytest.raises(TypeError, match="normalization_form"):
        text.BasicTokenizer(normalization_form="NFC")


def test_wordpiece_greedy_longest_match(vocab):
    out, starts, limits = text.WordpieceTokenizer(vocab, with_offsets=True)(
        np.array(["unaffable", "hellos", "helo", "", "xyz"]))
    assert out.tolist() == ["un", "##aff", "##able", "hello", "##s", "[UNK]", "[UNK]"]
    assert starts.tolist() == [0, 2, 5, 0, 5, 0, 0]
    assert limits.tolist() == [2, 5, 9, 5, 6, 4, 3]


def test_wordpiece_unknown_token_and_max_bytes(vocab):
    assert text.WordpieceTokenizer(vocab, unknown_token="")(np.array(["xyz"])).tolist() == ["xyz"]
    out = text.WordpieceTokenizer(vocab, max_bytes_per_token=5)(np.array(["unaffable", "hello"]))
    assert out.tolist() == ["[UNK]", "hello"]
    out = text.WordpieceTokenizer(vocab, suffix_indicator="@@")(np.array(["unaffable"]))
    assert out.tolist() == ["[UNK]"]


def test_bert_tokenizer_offsets_in_normalized_text(vocab):
    tokens, starts, limits = text.BertTokenizer(vocab, lower_case=True, with_offsets=True)("Hellos, café xyz")
    assert tokens.tolist() == ["hello", "##s", ",", "cafe", "[UNK]"]
    assert starts.tolist() == [0, 5, 6, 8, 13]
    assert limits.tolist() == [5, 6, 7, 12, 16]
    assert text.BertTokenizer(vocab)("").tolist() == [""]


def test_bert_tokenizer_in_pipeline(vocab):
    data = ds.NumpySlicesDataset({"s": np.array(["Hellos world!", "unaffable 中"])}, shuffle=False)
    data = data.map(text.BertTokenizer(vocab, lower_case=True), input_columns=["s"])
    data = data.map(text.Lookup(vocab, "[UNK]"), input_columns=["s"])
    rows = [r["s"].tolist() for r in data.create_dict_iterator(output_numpy=True)]
    assert rows == [[2, 3, 9, 5], [6, 7, 8, 10]]


def test_tokenizer_with_offsets_in_pipeline():
    data = ds.NumpySlicesDataset({"s": np.array(["a b", "cc"])}, shuffle=False)
    data = data.map(text.WhitespaceTokenizer(True), input_columns=["s"], output_columns=["t", "b", "e"])
    rows = [(r["t"].tolist(), r["b"].tolist(), r["e"].tolist()) for r in data.create_dict_iterator(output_numpy=True)]
    assert rows == [(["a", "b"], [0, 2], [1, 3]), (["cc"], [0], [2])]


@pytest.mark.parametrize("name,package", [("JiebaTokenizer", "jieba"), ("SentencePieceTokenizer", "sentencepiece")])
def test_optional_dependency_tokenizers(name, package, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, package, None)  # the package as if not installed
    with pytest.raises(ImportError, match=package):
        if name == "JiebaTokenizer":
            text.JiebaTokenizer(str(tmp_path / "hmm"), str(tmp_path / "mp"))
        else:
            text.SentencePieceTokenizer(str(tmp_path / "m.model"), text.SPieceTokenizerOutType.STRING)


def test_jieba_tokenizer_when_installed(tmp_path):
    mp = tmp_path / "dict.txt"
    mp.write_text("南京市 100 ns\n长江大桥 100 ns\n南京 50 ns\n市长 50 n\n江大桥 10 n\n长江 50 ns\n大桥 50 n\n",
                  encoding="utf-8")
    hmm = tmp_path / "hmm.utf8"
    hmm.write_text("", encoding="utf-8")
    tokens, starts, limits = text.JiebaTokenizer(str(hmm), str(mp), text.JiebaMode.MP, with_offsets=True)("南京市长江大桥")
    assert tokens.tolist() == ["南京市", "长江大桥"]
    assert starts.tolist() == [0, 9] and limits.tolist() == [9, 21]
    with pytest.raises(ValueError, match="mp_path"):
        text.JiebaTokenizer(str(hmm), str(tmp_path / "missing.txt"))


def test_sentencepiece_when_installed(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(["hello world this is a test"] * 30 + ["more text with other words"] * 30),
                      encoding="utf-8")
    vocab = text.SentencePieceVocab.from_file([str(corpus)], 20, 0.9995, text.SentencePieceModel.UNIGRAM, {})
    pieces = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.STRING)("hello world")
    ids = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.INT)("hello world")
    assert "".join(pieces.tolist()).replace("\u2581", " ").strip() == "hello world"
    assert ids.dtype == np.int32 and len(ids) == len(pieces)


def test_python_tokenizer_in_pipeline():
    data = ds.NumpySlicesDataset({"s": np.array(["a-b", "c"])}, shuffle=False)
    data = data.map(text.PythonTokenizer(lambda s: s.split("-")), input_columns=["s"])
    assert [r["s"].tolist() for r in data.create_dict_iterator(output_numpy=True)] == [["a", "b"], ["c"]]

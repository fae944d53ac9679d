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


# ---- the vectorised WordPiece and the ASCII lower-case path --------------------------------------------------
def _reference_wordpiece(word, tokens, suffix, max_bytes, unknown):
    """Greedy longest-match-first WordPiece, one word, in plain Python: [(piece, start byte, limit byte)]."""
    data = word.encode("utf-8")
    if not data:
        return []
    unk = unknown or word
    if len(data) > max_bytes:
        return [(unk, 0, len(unk.encode("utf-8")))]
    out, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start and ((suffix if start else "") + word[start:end]) not in tokens:
            end -= 1
        if end == start:
            return [(unk, 0, len(data))]
        out.append(((suffix if start else "") + word[start:end], len(word[:start].encode("utf-8")),
                    len(word[:end].encode("utf-8"))))
        start = end
    return out


@pytest.mark.parametrize("suffix,max_bytes,unknown", [("##", 100, "[UNK]"), ("", 7, ""), ("@@", 12, "<unk>")])
def test_wordpiece_matches_a_greedy_reference_on_random_words(suffix, max_bytes, unknown):
    rng = np.random.default_rng(len(suffix) + max_bytes)
    alphabet = ["a", "b", "c", "é", "中", "ß"]
    tokens = {"".join(rng.choice(alphabet, int(rng.integers(1, 4)))) for _ in range(12)}
    tokens |= {suffix + "".join(rng.choice(alphabet, int(rng.integers(1, 3)))) for _ in range(12)}
    tokens |= {"a", suffix + "b", "[UNK]"}
    vocab = text.Vocab.from_list(sorted(tokens))
    words = ["".join(rng.choice(alphabet, int(rng.integers(0, 9)))) for _ in range(60)] + ["a" * 10, ""]
    pieces, starts, limits = text.WordpieceTokenizer(vocab, suffix, max_bytes, unknown, with_offsets=True)(
        np.array(words))
    expected = [p for w in words for p in _reference_wordpiece(w, tokens, suffix, max_bytes, unknown)] or [("", 0, 0)]
    assert list(zip(pieces.tolist(), starts.tolist(), limits.tolist())) == expected


def test_wordpiece_long_chains_of_pieces():
    # 300 one-character pieces: the greedy chain is followed to its end (max_bytes_per_token bounds its length).
    vocab = text.Vocab.from_list(["x", "##x", "[UNK]"])
    out, starts, limits = text.WordpieceTokenizer(vocab, max_bytes_per_token=1000, with_offsets=True)(
        np.array(["x" * 300, "x" * 1001, "y"]))
    assert out.tolist() == ["x"] + ["##x"] * 299 + ["[UNK]", "[UNK]"]
    assert starts.tolist() == list(range(300)) + [0, 0]
    assert limits.tolist() == list(range(1, 301)) + [5, 1]
    assert text.WordpieceTokenizer(vocab)(np.array(["", ""])).tolist() == [""]


def test_basic_tokenizer_lower_case_ascii_and_table_paths_agree():
    tok = text.BasicTokenizer(lower_case=True, with_offsets=True)
    ascii_text = "The QUICK, brown Fox\x01jumps\tover [CLS] the [MASK] dog!! [UNUSED1] [unused12]"
    tokens, starts, limits = tok(ascii_text)
    assert tokens.tolist() == ["the", "quick", ",", "brown", "fox", "jumps", "over", "[CLS]", "the", "[MASK]",
                               "dog", "!", "!", "[unused1]", "[unused12]"]  # folded, then kept whole
    # The same text with an accented letter appended goes through the character table.
    tokens2, starts2, limits2 = tok(ascii_text + " É")
    assert tokens2.tolist() == tokens.tolist() + ["e"]
    assert starts2.tolist()[:-1] == starts.tolist() and limits2.tolist()[:-1] == limits.tolist()
    no_unused = text.BasicTokenizer(lower_case=True, preserve_unused_token=False)
    assert no_unused("[CLS] Hi").tolist() == ["[", "cls", "]", "hi"]
    assert text.BasicTokenizer(lower_case=True)("  \t ").tolist() == [""]


@pytest.mark.parametrize("with_offsets", [False, True])
def test_bert_tokenizer_in_pipeline_equals_eager(vocab, with_offsets):
    sentences = ["Hellos, World!", "unaffable CAFÉ 中 xyz", "   ", "[CLS] hello [SEP]", "hel" + "lo" * 3]
    tok = text.BertTokenizer(vocab, lower_case=True, with_offsets=with_offsets)
    columns = ["t", "b", "e"] if with_offsets else ["t"]
    data = ds.NumpySlicesDataset({"s": np.array(sentences)}, shuffle=False)
    data = data.map(tok, input_columns=["s"], output_columns=columns)
    rows = [[r[c].tolist() for c in columns] for r in data.create_dict_iterator(output_numpy=True)]
    eager = [[x.tolist() for x in (tok(s) if with_offsets else (tok(s),))] for s in sentences]
    assert rows == eager
    assert eager[0][0] == ["hello", "##s", ",", "world", "!"]
    assert eager[2][0] == [""]
    assert eager[4][0] == ["hello", "##lo", "##lo"]  # longest match first


_BATCH_TEXTS = ["Hello, World!", "", "   ", "Héllo naïve CAFÉ", "中文字 abc", "[CLS] Hellos [SEP] un[MASK]affable",
                "a\x00b\u200bc\td", "unaffable hellos!!", "ÀÉÎ 12,5 [unused3]", "x" * 130]


@pytest.mark.parametrize("make", [
    lambda v: text.WhitespaceTokenizer(),
    lambda v: text.RegexTokenizer(r"[,\s]", r","),
    lambda v: text.UnicodeScriptTokenizer(keep_whitespace=True),
    lambda v: text.BasicTokenizer(lower_case=True),
    lambda v: text.BasicTokenizer(lower_case=True, preserve_unused_token=False, keep_whitespace=True),
    lambda v: text.BasicTokenizer(normalization_form=text.NormalizeForm.NFKC),
    lambda v: text.BertTokenizer(v, lower_case=True),
    lambda v: text.BertTokenizer(v, lower_case=False, unknown_token="", max_bytes_per_token=8),
], ids=["whitespace", "regex", "script", "basic_lower", "basic_lower_nounused", "basic_nfkc", "bert_lower",
        "bert_cased"])
def test_batch_form_of_tokenizers_gives_every_row_its_own_tokens(make, vocab):
    """The batch-level form (a ragged batch of tokens) equals the per-sentence tokens, row by row,
    on batches that mix ASCII and other text, empty strings and special tokens."""
    op = make(vocab)
    import tensorflow as tf  # pylint: disable=import-outside-toplevel
    assert op._batch_ok([tf.TensorShape([])], [tf.string])  # pylint: disable=protected-access
    for texts in (_BATCH_TEXTS, _BATCH_TEXTS[:1], ["plain ascii only", "more words, here"]):
        got = op._apply_batch(tf.constant(texts)).to_list()  # pylint: disable=protected-access
        want = [op._tf_apply(tf.constant(s)).numpy().tolist() for s in texts]  # pylint: disable=protected-access
        assert got == want


def test_tokenizers_with_offsets_or_without_a_batch_form_stay_per_row(vocab):
    import tensorflow as tf  # pylint: disable=import-outside-toplevel
    scalar = [tf.TensorShape([])]
    assert not text.BertTokenizer(vocab, with_offsets=True)._batch_ok(scalar, [tf.string])  # pylint: disable=W0212
    assert not text.UnicodeCharTokenizer()._batch_ok(scalar, [tf.string])  # pylint: disable=protected-access
    assert not text.WhitespaceTokenizer()._batch_ok([tf.TensorShape([2])], [tf.string])  # pylint: disable=W0212

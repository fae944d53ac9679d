"""Text transforms of ``tfspore.dataset.text`` (Lookup, ToNumber, Ngram, ...)."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.dataset as ds
from tfspore.dataset import text


def test_lookup_unknown_token_and_dtype():
    vocab = text.Vocab.from_list(["[UNK]", "a", "b"])
    out = text.Lookup(vocab, "[UNK]")(np.array(["b", "zz", "a"]))
    assert out.tolist() == [2, 0, 1] and out.dtype == np.int32
    assert text.Lookup(vocab, "[UNK]", ms.int64)(np.array(["a"])).dtype == np.int64
    assert text.Lookup(vocab)(np.array("b")).tolist() == 2


def test_lookup_errors():
    vocab = text.Vocab.from_list(["a"])
    with pytest.raises(RuntimeError, match="zz"):
        text.Lookup(vocab)(np.array(["zz"]))
    with pytest.raises(ValueError, match="unknown_token"):
        text.Lookup(vocab, "[UNK]")
    with pytest.raises(TypeError, match="vocab"):
        text.Lookup(["a"])


def test_to_number():
    out = text.ToNumber(ms.float32)(np.array(["1.5", "-2"]))
    assert out.dtype == np.float32 and out.tolist() == [1.5, -2.0]
    assert text.ToNumber(ms.int16)(np.array(["-300"])).tolist() == [-300]
    with pytest.raises(RuntimeError, match="out of bounds"):
        text.ToNumber(ms.int8)(np.array(["300"]))
    with pytest.raises(RuntimeError):
        text.ToNumber(ms.int32)(np.array(["abc"]))
    with pytest.raises(TypeError, match="data_type"):
        text.ToNumber(np.float32)


@pytest.mark.parametrize("la,lb,m,ea,eb", [(3, 3, 4, 2, 2), (3, 3, 5, 3, 2), (1, 10, 5, 1, 4), (10, 1, 5, 4, 1),
                                           (4, 3, 5, 3, 2), (2, 2, 9, 2, 2)])
def test_truncate_sequence_pair(la, lb, m, ea, eb):
    a, b = text.TruncateSequencePair(m)(np.arange(la), np.arange(100, 100 + lb))
    assert a.tolist() == list(range(ea)) and b.tolist() == list(range(100, 100 + eb))


def test_ngram():
    toks = np.array(["a", "b", "c"])
    assert text.Ngram([2, 3])(toks).tolist() == ["a b", "b c", "a b c"]
    assert text.Ngram(2, ("_", 1), ("+", 2), "-")(np.array(["a", "b"])).tolist() == ["_-a", "a-b", "b-+"]
    assert text.Ngram(4)(toks).tolist() == [""]
    with pytest.raises(ValueError, match="n"):
        text.Ngram(0)


def test_sliding_window():
    out = text.SlidingWindow(2)(np.array([1, 2, 3, 4]))
    assert out.tolist() == [[1, 2], [2, 3], [3, 4]]
    assert text.SlidingWindow(5)(np.array([1, 2])).size == 0
    with pytest.raises(ValueError, match="width"):
        text.SlidingWindow(0)


def test_case_fold_normalize_regex_replace():
    assert str(text.CaseFold()("ABß")) == "abss"
    assert str(text.NormalizeUTF8(text.NormalizeForm.NFC)("e\u0301")) == "é"
    assert str(text.NormalizeUTF8(text.NormalizeForm.NFKD)("ﬁé")) == "fie\u0301"
    assert str(text.RegexReplace(r"(\d+)", "<$1>")("a12b3")) == "a<12>b<3>"
    assert str(text.RegexReplace("a", "X", replace_all=False)("aaa")) == "Xaa"


def test_transforms_in_pipeline_graph_mode():
    data = ds.NumpySlicesDataset({"a": [["1", "2", "3"]], "b": [["x", "y", "z"]]}, shuffle=False)
    data = data.map(text.TruncateSequencePair(4), input_columns=["a", "b"])
    data = data.map(text.ToNumber(ms.int32), input_columns=["a"])
    data = data.map(text.Ngram(2, separator="+"), input_columns=["b"])
    data = data.map(text.CaseFold(), input_columns=["b"])
    row = next(data.create_dict_iterator(output_numpy=True))
    assert row["a"].tolist() == [1, 2] and row["b"].tolist() == ["x+y"]

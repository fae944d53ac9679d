"""``tfspore.dataset.text.utils``: Vocab and helpers."""
import numpy as np
import pytest

import tfspore.dataset as ds
from tfspore.dataset import text


def test_vocab_from_list_special_tokens():
    v = text.Vocab.from_list(["a", "b"], ["<pad>", "<unk>"], special_first=True)
    assert v.vocab() == {"<pad>": 0, "<unk>": 1, "a": 2, "b": 3}
    v = text.Vocab.from_list(["a", "b"], ["<pad>"], special_first=False)
    assert v.vocab() == {"a": 0, "b": 1, "<pad>": 2}
    with pytest.raises(ValueError, match="duplicate word: a"):
        text.Vocab.from_list(["a", "a"])


def test_vocab_queries():
    v = text.Vocab.from_list(["x", "y"])
    assert v.tokens_to_ids(["y", "zz"]) == [1, -1] and v.tokens_to_ids("x") == 0
    assert v.ids_to_tokens([1, 7]) == ["y", ""] and v.ids_to_tokens(0) == "x"


def test_vocab_from_file(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("x 3\n  z\n[UNK]\n", encoding="utf-8")
    assert text.Vocab.from_file(str(path)).vocab() == {"x 3": 0, "  z": 1, "[UNK]": 2}
    v = text.Vocab.from_file(str(path), " ", 2, ["<s>"], False)
    assert v.vocab() == {"x": 0, "": 1, "<s>": 2}
    path.write_text("a\na\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="duplicate"):
        text.Vocab.from_file(str(path))
    with pytest.raises(ValueError, match="does not exist"):
        text.Vocab.from_file(str(tmp_path / "missing.txt"))


def test_vocab_from_dict_and_dataset():
    assert text.Vocab.from_dict({"a": 5, "b": 1}).ids_to_tokens([5, 1]) == ["a", "b"]
    with pytest.raises(ValueError, match="non-negative"):
        text.Vocab.from_dict({"a": -1})
    data = ds.NumpySlicesDataset({"t": np.array([["b", "a"], ["b", "c"], ["b", "a"]])}, shuffle=False)
    v = text.Vocab.from_dataset(data, "t", special_tokens=["<pad>"])
    assert v.vocab() == {"<pad>": 0, "b": 1, "a": 2, "c": 3}
    v = text.Vocab.from_dataset(data, "t", freq_range=(2, None), top_k=1)
    assert v.vocab() == {"b": 0}


def test_to_str_to_bytes():
    assert text.to_str(np.array([b"a", b"\xc3\xa9"])).tolist() == ["a", "é"]
    assert text.to_bytes(np.array(["é"])).tolist() == [b"\xc3\xa9"]
    with pytest.raises(TypeError, match="array"):
        text.to_str([b"a"])

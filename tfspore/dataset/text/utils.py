"""``mindspore.dataset.text.utils``: vocabularies, enums and string helpers.

Example:
    >>> from tfspore.dataset import text
    >>> vocab = text.Vocab.from_list(["a", "b"], special_tokens=["<pad>"])
    >>> vocab.vocab()["a"], vocab.tokens_to_ids("zz")
    (1, -1)
"""
from __future__ import annotations

import collections
import os
from enum import IntEnum
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
import tensorflow as tf

__all__ = ["Vocab", "SentencePieceVocab", "NormalizeForm", "JiebaMode", "SPieceTokenizerOutType",
           "SPieceTokenizerLoadType", "SentencePieceModel", "to_str", "to_bytes"]


class NormalizeForm(IntEnum):
    """Unicode normalization forms of :class:`NormalizeUTF8` and the BERT tokenizers."""
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class JiebaMode(IntEnum):
    """Segmentation modes of :class:`JiebaTokenizer`."""
    MIX = 0
    MP = 1
    HMM = 2


class SPieceTokenizerOutType(IntEnum):
    """Output type of :class:`SentencePieceTokenizer`."""
    STRING = 0
    INT = 1


class SPieceTokenizerLoadType(IntEnum):
    """How :class:`SentencePieceTokenizer` receives its model."""
    FILE = 0
    MODEL = 1


class SentencePieceModel(IntEnum):
    """SentencePiece model types."""
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


def _type_error(api: str, name: str, value: Any, expected: str) -> TypeError:
    return TypeError(f"For '{api}', the argument '{name}' must be {expected}, but got {value!r} "
                     f"with type {type(value).__name__}.")


def _check_special_tokens(api: str, special_tokens: Any, special_first: Any) -> List[str]:
    if special_tokens is None:
        special_tokens = []
    if not isinstance(special_tokens, (list, tuple)) or not all(isinstance(t, str) for t in special_tokens):
        raise _type_error(api, "special_tokens", special_tokens, "a list of str")
    if not isinstance(special_first, bool):
        raise _type_error(api, "special_first", special_first, "bool")
    if len(set(special_tokens)) != len(special_tokens):
        dup = [t for t, n in collections.Counter(special_tokens).items() if n > 1][0]
        raise ValueError(f"special_tokens contains duplicate token: {dup}.")
    return list(special_tokens)


class Vocab:
    """A token -> id table, used by :class:`Lookup` and the WordPiece/BERT tokenizers.

    Build it with :meth:`from_list`, :meth:`from_file`, :meth:`from_dict` or :meth:`from_dataset`.

    Example:
        >>> from tfspore.dataset import text
        >>> v = text.Vocab.from_dict({"a": 5, "b": 1})
        >>> v.ids_to_tokens([5, 0])
        ['a', '']
    """

    def __init__(self) -> None:
        self._vocab: Dict[str, int] = {}
        self._table = None

    # ---- builders ----------------------------------------------------------------------------
    @classmethod
    def _from_words(cls, words: Sequence[str], special_tokens: List[str], special_first: bool) -> "Vocab":
        vocab = cls()
        ordered = (special_tokens + [w for w in words if w not in special_tokens]) if special_first else \
            ([w for w in words if w not in special_tokens] + special_tokens)
        for i, w in enumerate(ordered):
            vocab._vocab[w] = i
        return vocab

    @classmethod
    def from_list(cls, word_list: Sequence[str], special_tokens: Optional[Sequence[str]] = None,
                  special_first: bool = True) -> "Vocab":
        """A vocabulary of `word_list` in order; `special_tokens` go first or last.

        Raises:
            TypeError: If `word_list` is not a list of str.
            ValueError: If `word_list` or `special_tokens` holds a duplicate word.
        """
        api = "Vocab.from_list"
        if not isinstance(word_list, (list, tuple)) or not all(isinstance(w, str) for w in word_list):
            raise _type_error(api, "word_list", word_list, "a list of str")
        special = _check_special_tokens(api, special_tokens, special_first)
        seen = set()
        for w in word_list:
            if w in seen:
                raise ValueError(f"word_list contains duplicate word: {w}.")
            seen.add(w)
        for t in special:
            if t in seen:
                raise ValueError(f"special_tokens and word_list contain duplicate word: {t}.")
        return cls._from_words(list(word_list), special, special_first)

    @classmethod
    def from_file(cls, file_path: str, delimiter: str = "", vocab_size: Optional[int] = None,
                  special_tokens: Optional[Sequence[str]] = None, special_first: bool = True) -> "Vocab":
        """A vocabulary with one word per line of a text file (the part before `delimiter` when set).

        Raises:
            ValueError: If the file does not exist or holds a duplicate word.
        """
        api = "Vocab.from_file"
        if not isinstance(file_path, (str, os.PathLike)):
            raise _type_error(api, "file_path", file_path, "str")
        if not isinstance(delimiter, str):
            raise _type_error(api, "delimiter", delimiter, "str")
        if vocab_size is not None and (isinstance(vocab_size, bool) or not isinstance(vocab_size, int)
                                       or vocab_size <= 0):
            raise ValueError(f"For '{api}', the argument 'vocab_size' must be a positive int, but got "
                             f"{vocab_size!r}.")
        special = _check_special_tokens(api, special_tokens, special_first)
        path = os.fspath(file_path)
        if not os.path.isfile(path):
            raise ValueError(f"For '{api}', the file {path!r} does not exist or is not a file.")
        words: List[str] = []
        seen = set()
        with open(path, "r", encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n").rstrip("\r")
                word = line.split(delimiter, 1)[0] if delimiter else line
                if word in seen:
                    raise RuntimeError(f"For '{api}', duplicate word {word!r} in vocab file {path!r}.")
                seen.add(word)
                words.append(word)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        for t in special:
            if t in seen:
                raise RuntimeError(f"For '{api}', special token {t!r} is already in vocab file {path!r}.")
        return cls._from_words(words, special, special_first)

    @classmethod
    def from_dict(cls, word_dict: Dict[str, int]) -> "Vocab":
        """A vocabulary from a ``{word: id}`` dict (ids must be non-negative ints).

        Raises:
            TypeError: If `word_dict` is not a dict of str to int.
            ValueError: If an id is negative.
        """
        api = "Vocab.from_dict"
        if not isinstance(word_dict, dict):
            raise _type_error(api, "word_dict", word_dict, "dict")
        vocab = cls()
        for w, i in word_dict.items():
            if not isinstance(w, str) or isinstance(i, bool) or not isinstance(i, int):
                raise _type_error(api, "word_dict", word_dict, "a dict of str to int")
            if i < 0:
                raise ValueError(f"For '{api}', the id of word {w!r} must be non-negative, but got {i}.")
            vocab._vocab[w] = i
        return vocab

    @classmethod
    def from_dataset(cls, dataset: Any, columns: Union[str, Sequence[str], None] = None,
                     freq_range: Optional[Sequence[Optional[int]]] = None, top_k: Optional[int] = None,
                     special_tokens: Optional[Sequence[str]] = None, special_first: bool = True) -> "Vocab":
        """A vocabulary of the words of string columns of a dataset, by frequency (ties by word).

        Args:
            dataset: A dataset whose columns hold tokens.
            columns: The columns to count; None counts all.
            freq_range: ``(min_frequency, max_frequency)``; None bounds are open.
            top_k: Keep the `top_k` most frequent words.
            special_tokens: Tokens added first or last.
            special_first: Whether special tokens go first.
        """
        api = "Vocab.from_dataset"
        special = _check_special_tokens(api, special_tokens, special_first)
        if isinstance(columns, str):
            columns = [columns]
        lo, hi = (None, None) if freq_range is None else tuple(freq_range)
        counter: collections.Counter = collections.Counter()
        names = dataset.get_col_names()
        cols = names if not columns else list(columns)
        for c in cols:
            if c not in names:
                raise ValueError(f"For '{api}', column {c!r} does not exist in the dataset columns {names}.")
        index = [names.index(c) for c in cols]
        for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            for i in index:
                for tok in np.asarray(row[i]).reshape(-1):
                    counter[tok.decode("utf-8") if isinstance(tok, bytes) else str(tok)] += 1
        items = [(w, n) for w, n in counter.items()
                 if (lo is None or n >= lo) and (hi is None or n <= hi) and w not in special]
        items.sort(key=lambda x: (-x[1], x[0]))
        if top_k is not None:
            items = items[:top_k]
        return cls._from_words([w for w, _ in items], special, special_first)

    # ---- queries -----------------------------------------------------------------------------
    def vocab(self) -> Dict[str, int]:
        """The ``{word: id}`` dict."""
        return dict(self._vocab)

    def tokens_to_ids(self, tokens: Union[str, Sequence[str], np.ndarray]) -> Union[int, List[int]]:
        """The ids of tokens (-1 for a token not in the vocabulary)."""
        if isinstance(tokens, np.ndarray):
            tokens = tokens.tolist()
        if isinstance(tokens, str):
            return self._vocab.get(tokens, -1)
        if not isinstance(tokens, (list, tuple)) or not all(isinstance(t, str) for t in tokens):
            raise _type_error("Vocab.tokens_to_ids", "tokens", tokens, "str or a list of str")
        return [self._vocab.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids: Union[int, Sequence[int], np.ndarray]) -> Union[str, List[str]]:
        """The tokens of ids (an empty string for an id not in the vocabulary)."""
        inverse = {i: w for w, i in self._vocab.items()}
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        if isinstance(ids, int) and not isinstance(ids, bool):
            return inverse.get(ids, "")
        if not isinstance(ids, (list, tuple)) or not all(isinstance(i, int) for i in ids):
            raise _type_error("Vocab.ids_to_tokens", "ids", ids, "int or a list of int")
        return [inverse.get(i, "") for i in ids]

    def _lookup_table(self) -> tf.lookup.StaticHashTable:
        """The vocabulary as a TF hash table (string -> int64, default -1), built once."""
        if self._table is None:
            words = list(self._vocab)
            keys = np.array([w.encode("utf-8") for w in words], dtype=object)
            vals = np.array([self._vocab[w] for w in words], dtype=np.int64)
            with tf.init_scope():
                if not words:
                    keys, vals = np.array([b"\xff"], dtype=object), np.array([-1], np.int64)
                self._table = tf.lookup.StaticHashTable(
                    tf.lookup.KeyValueTensorInitializer(tf.constant(keys, tf.string), tf.constant(vals)), -1)
        return self._table

    def _piece_table(self, suffix: str) -> tf.lookup.StaticHashTable:
        """WordPiece's table (string -> int64, default 0): bit 1 when the string is a token, bit 2
        when `suffix` + the string is one, bit 4 for the single UTF-8 continuation bytes (never
        a token: not valid UTF-8); built once per suffix."""
        tables = self.__dict__.setdefault("_piece_tables", {})
        if suffix not in tables:
            bits: Dict[str, int] = {}
            for w in self._vocab:
                bits[w] = bits.get(w, 0) | (3 if not suffix else 1)
                if suffix and w.startswith(suffix):
                    rest = w[len(suffix):]
                    bits[rest] = bits.get(rest, 0) | 2
            keys = [w.encode("utf-8") for w in bits] + [bytes([b]) for b in range(0x80, 0xC0)]
            vals = list(bits.values()) + [4] * 0x40
            keys, vals = np.array(keys, dtype=object), np.array(vals, dtype=np.int64)
            with tf.init_scope():
                tables[suffix] = tf.lookup.StaticHashTable(
                    tf.lookup.KeyValueTensorInitializer(tf.constant(keys, tf.string), tf.constant(vals)), 0)
        return tables[suffix]

    def _max_token_bytes(self) -> int:
        """The length in UTF-8 bytes of the longest token (at least 1): WordPiece's longest candidate."""
        return max([len(w.encode("utf-8")) for w in self._vocab] + [1])

    def __len__(self) -> int:
        return len(self._vocab)

    def __repr__(self) -> str:
        return f"Vocab(size={len(self._vocab)})"


class SentencePieceVocab:
    """A SentencePiece model, built or loaded with the ``sentencepiece`` package (optional)."""

    def __init__(self, model_proto: bytes = b"") -> None:
        self._proto = model_proto

    @classmethod
    def from_file(cls, file_path: Sequence[str], vocab_size: int, character_coverage: float,
                  model_type: SentencePieceModel, params: Dict[str, Any]) -> "SentencePieceVocab":
        """Train a SentencePiece model on text files (needs the ``sentencepiece`` package)."""
        spm = _import_sentencepiece("SentencePieceVocab.from_file")
        import io  # pylint: disable=import-outside-toplevel
        buf = io.BytesIO()
        kinds = {0: "unigram", 1: "bpe", 2: "char", 3: "word"}
        spm.SentencePieceTrainer.train(input=",".join(file_path), model_writer=buf, vocab_size=vocab_size,
                                       character_coverage=character_coverage,
                                       model_type=kinds[int(model_type)], **dict(params or {}))
        return cls(buf.getvalue())

    @classmethod
    def from_dataset(cls, dataset: Any, col_names: Sequence[str], vocab_size: int, character_coverage: float,
                     model_type: SentencePieceModel, params: Dict[str, Any]) -> "SentencePieceVocab":
        """Train a SentencePiece model on a dataset's string columns (needs ``sentencepiece``)."""
        import tempfile  # pylint: disable=import-outside-toplevel
        _import_sentencepiece("SentencePieceVocab.from_dataset")
        names = dataset.get_col_names()
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
            for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
                for c in col_names:
                    f.write(str(to_str(np.asarray(row[names.index(c)]))) + "\n")
            path = f.name
        try:
            return cls.from_file([path], vocab_size, character_coverage, model_type, params)
        finally:
            os.remove(path)

    @classmethod
    def save_model(cls, vocab: "SentencePieceVocab", path: str, filename: str) -> None:
        """Write the model to ``path/filename``."""
        with open(os.path.join(path, filename), "wb") as f:
            f.write(vocab._proto)  # pylint: disable=protected-access


def _import_sentencepiece(api: str) -> Any:
    try:
        import sentencepiece  # pylint: disable=import-outside-toplevel
    except ImportError:
        raise ImportError(f"For '{api}', the optional package 'sentencepiece' is required but not installed; "
                          f"install it with 'pip install sentencepiece'.") from None
    return sentencepiece


def to_str(array: Any, encoding: str = "utf8") -> np.ndarray:
    """Decode a numpy array of bytes to str.

    Raises:
        TypeError: If `array` is not a numpy array.
    """
    return _recode("to_str", array, np.str_, lambda a: np.char.decode(a.astype(np.bytes_), encoding))


def to_bytes(array: Any, encoding: str = "utf8") -> np.ndarray:
    """Encode a numpy array of str to bytes.

    Raises:
        TypeError: If `array` is not a numpy array.
    """
    return _recode("to_bytes", array, np.bytes_, lambda a: np.char.encode(a.astype(np.str_), encoding))


def _recode(api: str, array: Any, target: type, convert: Any) -> np.ndarray:
    """``array`` when its items are already of the ``target`` kind, else ``convert(array)``."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"For '{api}', the argument 'array' must be a numpy.ndarray, but got {type(array)}.")
    if array.dtype.kind == np.dtype(target).kind:
        return array
    return convert(array)


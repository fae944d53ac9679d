"""Tokenizers of ``mindspore.dataset.text`` on TensorFlow string ops.

The splitting rules are RE2 regular expressions with Unicode classes (``\\p{P}``, ``\\p{Z}``,
CJK ranges) applied by ``tf.strings.regex_replace``; case folding and accent stripping use the
character tables of :mod:`._unicode`; WordPiece's greedy longest match is a vectorised lookup of
every candidate piece in the vocabulary's hash table followed by a short ``tf.while_loop``. All
of it runs inside the ``tf.data`` map, without Python per row.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple, Union

import tensorflow as tf

from tfspore.dataset.transforms import TensorOperation
from tfspore.dataset.text import _unicode
from tfspore.dataset.text.utils import JiebaMode, NormalizeForm, SPieceTokenizerLoadType, SPieceTokenizerOutType, \
    Vocab

__all__ = ["BasicTokenizer", "BertTokenizer", "WordpieceTokenizer", "WhitespaceTokenizer", "UnicodeCharTokenizer",
           "RegexTokenizer", "UnicodeScriptTokenizer", "JiebaTokenizer", "SentencePieceTokenizer"]

_WS = r"[\t\n\f\r\p{Z}]+"
_COMMON = (r"[!-/]|[:-@]|[\[-`]|[{-~]|[\p{P}]|[\x{4E00}-\x{9FFF}]|[\x{3400}-\x{4DBF}]|[\x{20000}-\x{2A6DF}]"
           r"|[\x{2A700}-\x{2B73F}]|[\x{2B740}-\x{2B81F}]|[\x{2B820}-\x{2CEAF}]|[\x{F900}-\x{FAFF}]"
           r"|[\x{2F800}-\x{2FA1F}]")
_UNUSED = r"\[CLS\]|\[SEP\]|\[UNK\]|\[PAD\]|\[MASK\]|\[unused\d+\]"

Outputs = Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor, tf.Tensor]]


def _check(api: str, name: str, value: Any, types: Any, expected: str) -> None:
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise TypeError(f"For '{api}', the argument '{name}' must be {expected}, but got {value!r} "
                        f"with type bool.")
    if not isinstance(value, types):
        raise TypeError(f"For '{api}', the argument '{name}' must be {expected}, but got {value!r} "
                        f"with type {type(value).__name__}.")


def _scalar_string(api: str, t: tf.Tensor) -> tf.Tensor:
    if t.dtype != tf.string:
        raise TypeError(f"For '{api}', the input should be a string tensor, but got dtype {t.dtype.name}.")
    if t.shape.rank is not None and t.shape.rank != 0:
        if t.shape.num_elements() == 1:
            return tf.reshape(t, [])
        raise ValueError(f"For '{api}', the input should be a scalar string tensor, but got shape "
                         f"{t.shape.as_list()}.")
    return t


def _result(tokens: tf.Tensor, starts: tf.Tensor, limits: tf.Tensor, with_offsets: bool) -> Outputs:
    return (tokens, starts, limits) if with_offsets else tokens


class _Tokenizer(TensorOperation):
    """Common base: scalar string in, 1-D tokens (and uint32 byte offsets) out."""

    def __init__(self, with_offsets: bool = False) -> None:
        super().__init__()
        _check(type(self).__name__, "with_offsets", with_offsets, bool, "bool")
        self.with_offsets = with_offsets

    def _apply(self, *tensors: tf.Tensor) -> Outputs:
        api = type(self).__name__
        if len(tensors) != 1:
            raise ValueError(f"For '{api}', exactly one input column is expected, but got {len(tensors)}.")
        text = _scalar_string(api, tensors[0])
        if tf.executing_eagerly():
            # Eager calls reuse one traced graph per tokenizer instead of running op by op.
            if getattr(self, "_eager_fn", None) is None:
                self._eager_fn = tf.function(self._tokenize, input_signature=[tf.TensorSpec([], tf.string)],
                                              autograph=False)
            tokens, starts, limits = self._eager_fn(text)
        else:
            tokens, starts, limits = self._tokenize(text)
        return _result(tokens, starts, limits, self.with_offsets)

    def _tokenize(self, text: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
        raise NotImplementedError


class WhitespaceTokenizer(_Tokenizer):
    """Split a UTF-8 string on Unicode whitespace (``[\\t\\n\\f\\r\\p{Z}]``).

    Args:
        with_offsets: Also output the byte offsets (start, limit) of every token.

    Example:
        >>> from tfspore.dataset import text
        >>> text.WhitespaceTokenizer()("a b\\tc").tolist()
        ['a', 'b', 'c']
    """

    def _tokenize(self, text):
        return _unicode.regex_split(text, _WS, "")


class RegexTokenizer(_Tokenizer):
    """Split a UTF-8 string at the matches of `delim_pattern` (RE2 syntax).

    Args:
        delim_pattern: The delimiter pattern.
        keep_delim_pattern: Delimiters that fully match this pattern are kept as tokens.
        with_offsets: Also output the byte offsets of every token.
    """

    def __init__(self, delim_pattern: str, keep_delim_pattern: str = "", with_offsets: bool = False) -> None:
        super().__init__(with_offsets)
        _check("RegexTokenizer", "delim_pattern", delim_pattern, str, "str")
        _check("RegexTokenizer", "keep_delim_pattern", keep_delim_pattern, str, "str")
        self.delim_pattern = delim_pattern
        self.keep_delim_pattern = keep_delim_pattern

    def _tokenize(self, text):
        return _unicode.regex_split(text, self.delim_pattern, self.keep_delim_pattern)


class UnicodeCharTokenizer(_Tokenizer):
    """Split a UTF-8 string into its characters.

    Example:
        >>> from tfspore.dataset import text
        >>> text.UnicodeCharTokenizer()("ab").tolist()
        ['a', 'b']
    """

    def _tokenize(self, text):
        tokens = tf.strings.unicode_split(text, "UTF-8", errors="replace")
        _, starts = tf.strings.unicode_decode_with_offsets(text, "UTF-8", errors="replace")
        limits = tf.concat([starts[1:], tf.reshape(tf.cast(tf.strings.length(text), starts.dtype), [1])], 0)
        empty = tf.equal(tf.size(tokens), 0)
        tokens = tf.cond(empty, lambda: tf.constant([""]), lambda: tokens)
        starts = tf.cond(empty, lambda: tf.zeros([1], tf.uint32), lambda: tf.cast(starts, tf.uint32))
        limits = tf.cond(empty, lambda: tf.zeros([1], tf.uint32), lambda: tf.cast(limits, tf.uint32))
        return tokens, starts, limits


class UnicodeScriptTokenizer(_Tokenizer):
    """Split a UTF-8 string where the Unicode script changes (and on whitespace).

    Args:
        keep_whitespace: Keep whitespace runs as tokens.
        with_offsets: Also output the byte offsets of every token.
    """

    # One run per script (combining marks join the run before them); Common characters (digits,
    # punctuation, symbols) form their own runs; whitespace separates.
    _SCRIPT_NAMES = ("Latin", "Han", "Hiragana", "Katakana", "Hangul", "Cyrillic", "Greek", "Arabic", "Hebrew",
                     "Thai", "Devanagari", "Bengali", "Tamil", "Telugu", "Armenian", "Georgian", "Ethiopic", "Khmer",
                     "Lao", "Myanmar", "Tibetan", "Mongolian", "Gujarati", "Gurmukhi", "Kannada", "Malayalam",
                     "Sinhala")
    _COMMON_RUN = r"[^\P{Common}\t\n\f\r\p{Z}][^\P{Common}\t\n\f\r\p{Z}\p{Inherited}]*"
    _SCRIPTS = "|".join([r"\p{" + n + r"}[\p{" + n + r"}\p{Inherited}]*" for n in _SCRIPT_NAMES] + [_COMMON_RUN])

    def __init__(self, keep_whitespace: bool = False, with_offsets: bool = False) -> None:
        super().__init__(with_offsets)
        _check("UnicodeScriptTokenizer", "keep_whitespace", keep_whitespace, bool, "bool")
        self.keep_whitespace = keep_whitespace

    def _tokenize(self, text):
        keep = _WS + "|" + self._SCRIPTS if self.keep_whitespace else self._SCRIPTS
        return _unicode.regex_split(text, _WS + "|" + self._SCRIPTS, keep)


def _check_normalization(api: str, form: Any) -> NormalizeForm:
    if not isinstance(form, NormalizeForm):
        raise TypeError(f"For '{api}', the argument 'normalization_form' must be NormalizeForm, but got "
                        f"{form!r} with type {type(form).__name__}.")
    return form


def normalize(text: tf.Tensor, form: NormalizeForm) -> tf.Tensor:
    """Unicode normalization of strings (NFD/NFKD as TF ops, NFC/NFKC through numpy)."""
    if form == NormalizeForm.NONE:
        return text
    if form in (NormalizeForm.NFD, NormalizeForm.NFKD):
        return _unicode.char_map(text, form.name)
    return _unicode.py_normalize(text, form.name)


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenization: normalize, then split on whitespace, punctuation and CJK characters.

    With `lower_case`, the text is case folded, decomposed (NFD) and stripped of accents
    (``\\p{Mn}``); otherwise `normalization_form` applies. Control and format characters
    (``\\p{Cc}``, ``\\p{Cf}``) become spaces. Offsets refer to the normalized text.

    Args:
        lower_case: Case fold and strip accents.
        keep_whitespace: Keep whitespace runs as tokens.
        normalization_form: Unicode normalization when `lower_case` is False.
        preserve_unused_token: Keep ``[CLS]``, ``[SEP]``, ``[UNK]``, ``[PAD]``, ``[MASK]`` and
            ``[unusedN]`` whole (and not case folded).
        with_offsets: Also output the byte offsets of every token.

    Example:
        >>> from tfspore.dataset import text
        >>> text.BasicTokenizer(lower_case=True)("Héllo, World!").tolist()
        ['hello', ',', 'world', '!']
    """

    def __init__(self, lower_case: bool = False, keep_whitespace: bool = False,
                 normalization_form: NormalizeForm = NormalizeForm.NONE, preserve_unused_token: bool = True,
                 with_offsets: bool = False) -> None:
        super().__init__(with_offsets)
        api = type(self).__name__
        _check(api, "lower_case", lower_case, bool, "bool")
        _check(api, "keep_whitespace", keep_whitespace, bool, "bool")
        _check(api, "preserve_unused_token", preserve_unused_token, bool, "bool")
        self.lower_case = lower_case
        self.keep_whitespace = keep_whitespace
        self.normalization_form = _check_normalization(api, normalization_form)
        self.preserve_unused_token = preserve_unused_token

    def _normalize(self, text: tf.Tensor) -> tf.Tensor:
        if self.lower_case:
            if not self.preserve_unused_token:
                text = _unicode.char_map(text, "bert_lower")
            else:
                marked = tf.strings.regex_replace(text, _UNUSED, _unicode._MARK + "\\0" + _unicode._MARK)  # noqa
                segments = tf.strings.split(marked, sep=_unicode._MARK)  # pylint: disable=protected-access
                is_match = tf.math.floormod(tf.range(tf.size(segments)), 2) == 1
                segments = tf.where(is_match, segments, _unicode.char_map(segments, "bert_lower"))
                text = tf.strings.reduce_join(segments)
        else:
            text = normalize(text, self.normalization_form)
        return tf.strings.regex_replace(text, r"[\p{Cc}\p{Cf}]", " ")

    def _tokenize(self, text):
        text = self._normalize(text)
        unused = _UNUSED + "|" if self.preserve_unused_token else ""
        delim = unused + _WS + "|" + _COMMON
        keep = unused + (_WS + "|" if self.keep_whitespace else "") + _COMMON
        return _unicode.regex_split(text, delim, keep)


def _check_vocab(api: str, vocab: Any) -> Vocab:
    if not isinstance(vocab, Vocab):
        raise TypeError(f"For '{api}', the argument 'vocab' must be Vocab, but got {vocab!r} "
                        f"with type {type(vocab).__name__}.")
    return vocab


def _wordpiece(words: tf.Tensor, vocab: Vocab, suffix: str, max_bytes: int,
               unknown_token: str) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """Greedy longest-match-first WordPiece on a 1-D tensor of words.

    Returns:
        ``(pieces, starts, limits)``, flat over the words, offsets relative to each word.
    """
    table = vocab._lookup_table()  # pylint: disable=protected-access
    max_piece = max([len(w) for w in vocab.vocab()] + [1])
    words = tf.reshape(words, [-1])
    nbytes = tf.strings.length(words)
    _, char_starts = tf.strings.unicode_decode_with_offsets(words, "UTF-8", errors="replace")
    n = tf.cast(char_starts.row_lengths(), tf.int32)
    too_long = nbytes > max_bytes
    n_eff = tf.where(too_long, 0, n)
    num = tf.shape(words)[0]
    width = tf.maximum(tf.reduce_max(tf.concat([n, [1]], 0)), 1)
    bounds_rt = tf.concat([tf.cast(char_starts, tf.int32), tf.RaggedTensor.from_tensor(nbytes[:, None])], axis=1)
    bounds = bounds_rt.to_tensor(default_value=0, shape=tf.cast(tf.stack([num, width + 1]), bounds_rt.row_splits.dtype))
    col = tf.range(width + 1)[None, :]
    bounds = tf.where(col <= n[:, None], bounds, nbytes[:, None])  # [W, width + 1]
    k = tf.minimum(width, max_piece)
    i_idx = tf.range(width)[None, :, None]                          # start char
    e_idx = i_idx + tf.range(1, k + 1)[None, None, :]               # end char, [1, width, k]
    valid = e_idx <= n_eff[:, None, None]                           # [W, width, k]
    e_clip = tf.minimum(e_idx, width)
    start_b = tf.broadcast_to(bounds[:, :width, None], tf.shape(valid))
    end_b = tf.gather(bounds, tf.broadcast_to(e_clip, tf.shape(valid)), batch_dims=1)
    lengths = tf.where(valid, end_b - start_b, 0)
    starts_ = tf.where(valid, start_b, 0)
    pieces = tf.strings.substr(tf.broadcast_to(words[:, None, None], tf.shape(valid)), starts_, lengths)
    pieces = tf.where(tf.broadcast_to(i_idx > 0, tf.shape(valid)), suffix + pieces, pieces)
    member = valid & (table.lookup(pieces) >= 0)
    longest = tf.reduce_max(tf.where(member, tf.broadcast_to(e_idx, tf.shape(valid)), 0), axis=2)  # [W, width]

    def body(t, pos, active, failed, s_arr, e_arr, m_arr):
        step = active & (pos < n_eff)
        nxt = tf.gather(longest, tf.minimum(pos, width - 1), batch_dims=1)
        fail = step & (nxt == 0)
        ok = step & tf.logical_not(fail)
        s_arr = s_arr.write(t, pos)
        e_arr = e_arr.write(t, nxt)
        m_arr = m_arr.write(t, ok)
        return (t + 1, tf.where(ok, nxt, pos), active & tf.logical_not(fail), failed | fail, s_arr, e_arr, m_arr)

    zeros = tf.zeros([num], tf.int32)
    loop = tf.while_loop(
        lambda t, *_: t < width, body,
        (tf.constant(0), zeros, n_eff > 0, too_long, tf.TensorArray(tf.int32, size=width),
         tf.TensorArray(tf.int32, size=width), tf.TensorArray(tf.bool, size=width)))
    failed = loop[3]
    s_idx = tf.transpose(loop[4].stack())                    # [W, width]
    e_idx2 = tf.transpose(loop[5].stack())
    mask = tf.transpose(loop[6].stack())
    p_start = tf.gather(bounds, s_idx, batch_dims=1)
    p_end = tf.gather(bounds, tf.minimum(e_idx2, width), batch_dims=1)
    text = tf.strings.substr(tf.broadcast_to(words[:, None], tf.shape(s_idx)), p_start,
                             tf.maximum(p_end - p_start, 0))
    text = tf.where(s_idx > 0, suffix + text, text)
    first = tf.range(width)[None, :] == 0
    unk = words[:, None] if unknown_token == "" else tf.fill(tf.shape(words[:, None]), unknown_token)
    failed_b = failed[:, None]
    text = tf.where(failed_b, tf.broadcast_to(unk, tf.shape(text)), text)
    # An unknown word spans the whole word; one over max_bytes spans the unknown token's length (as MindSpore).
    unk_end = tf.where(too_long, tf.strings.length(unk[:, 0]), nbytes)
    p_start = tf.where(failed_b, 0, p_start)
    p_end = tf.where(failed_b, tf.broadcast_to(unk_end[:, None], tf.shape(p_end)), p_end)
    mask = tf.where(failed_b, first, mask & tf.logical_not(failed_b))
    return (tf.boolean_mask(text, mask), tf.cast(tf.boolean_mask(p_start, mask), tf.uint32),
            tf.cast(tf.boolean_mask(p_end, mask), tf.uint32))


def _nonempty(tokens: tf.Tensor, starts: tf.Tensor, limits: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """``[""], [0], [0]`` in place of an empty result (MindSpore never outputs an empty token list)."""
    empty = tf.equal(tf.size(tokens), 0)
    return (tf.cond(empty, lambda: tf.constant([""]), lambda: tokens),
            tf.cond(empty, lambda: tf.zeros([1], tf.uint32), lambda: starts),
            tf.cond(empty, lambda: tf.zeros([1], tf.uint32), lambda: limits))


class _WordpieceArgs:
    def _init_wordpiece(self, api: str, vocab: Any, suffix_indicator: Any, max_bytes_per_token: Any,
                        unknown_token: Any) -> None:
        self.vocab = _check_vocab(api, vocab)
        _check(api, "suffix_indicator", suffix_indicator, str, "str")
        _check(api, "max_bytes_per_token", max_bytes_per_token, int, "int")
        if max_bytes_per_token < 0:
            raise ValueError(f"For '{api}', the argument 'max_bytes_per_token' must be non-negative, but got "
                             f"{max_bytes_per_token}.")
        _check(api, "unknown_token", unknown_token, str, "str")
        self.suffix_indicator = suffix_indicator
        self.max_bytes_per_token = max_bytes_per_token
        self.unknown_token = unknown_token


class WordpieceTokenizer(_WordpieceArgs, TensorOperation):
    """Split words (a 1-D string tensor) into WordPiece sub-words of a vocabulary.

    Greedy longest match first; non-initial pieces carry `suffix_indicator`. A word with no
    split, or longer than `max_bytes_per_token` bytes, becomes `unknown_token` (the word itself
    when `unknown_token` is empty). Empty words give no piece. Offsets are byte offsets within
    each word.

    Args:
        vocab: The vocabulary.
        suffix_indicator: Prefix of non-initial pieces.
        max_bytes_per_token: Longer words are unknown.
        unknown_token: Output for unknown words.
        with_offsets: Also output the byte offsets of every piece.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import text
        >>> vocab = text.Vocab.from_list(["un", "##aff", "##able"])
        >>> text.WordpieceTokenizer(vocab)(np.array(["unaffable"])).tolist()
        ['un', '##aff', '##able']
    """

    def __init__(self, vocab: Vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", with_offsets: bool = False) -> None:
        TensorOperation.__init__(self)
        self._init_wordpiece("WordpieceTokenizer", vocab, suffix_indicator, max_bytes_per_token, unknown_token)
        _check("WordpieceTokenizer", "with_offsets", with_offsets, bool, "bool")
        self.with_offsets = with_offsets

    def _apply(self, *tensors: tf.Tensor) -> Outputs:
        if len(tensors) != 1 or tensors[0].dtype != tf.string:
            raise TypeError("For 'WordpieceTokenizer', the input should be one string tensor.")
        def run(words):
            return _nonempty(*_wordpiece(words, self.vocab, self.suffix_indicator, self.max_bytes_per_token,
                                         self.unknown_token))

        if tf.executing_eagerly():
            if getattr(self, "_eager_fn", None) is None:
                self._eager_fn = tf.function(run, reduce_retracing=True, autograph=False)
            pieces, starts, limits = self._eager_fn(tensors[0])
        else:
            pieces, starts, limits = run(tensors[0])
        return _result(pieces, starts, limits, self.with_offsets)


class BertTokenizer(_WordpieceArgs, BasicTokenizer):
    """BERT tokenization: :class:`BasicTokenizer` followed by :class:`WordpieceTokenizer`.

    Offsets are byte offsets in the normalized text.

    Args:
        vocab: The vocabulary.
        suffix_indicator: Prefix of non-initial pieces.
        max_bytes_per_token: Longer words are unknown.
        unknown_token: Output for unknown words (the word itself when empty).
        lower_case: Case fold and strip accents.
        keep_whitespace: Keep whitespace runs as tokens.
        normalization_form: Unicode normalization when `lower_case` is False.
        preserve_unused_token: Keep BERT's special tokens whole.
        with_offsets: Also output the byte offsets of every piece.

    Example:
        >>> from tfspore.dataset import text
        >>> vocab = text.Vocab.from_list(["[UNK]", "hello", "##s", ","])
        >>> text.BertTokenizer(vocab, lower_case=True)("Hellos, you").tolist()
        ['hello', '##s', ',', '[UNK]']
    """

    def __init__(self, vocab: Vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", lower_case: bool = False, keep_whitespace: bool = False,
                 normalization_form: NormalizeForm = NormalizeForm.NONE, preserve_unused_token: bool = True,
                 with_offsets: bool = False) -> None:
        BasicTokenizer.__init__(self, lower_case, keep_whitespace, normalization_form, preserve_unused_token,
                                with_offsets)
        self._init_wordpiece("BertTokenizer", vocab, suffix_indicator, max_bytes_per_token, unknown_token)

    def _tokenize(self, text):
        words, w_starts, _ = BasicTokenizer._tokenize(self, text)
        pieces, starts, limits = _wordpiece(words, self.vocab, self.suffix_indicator, self.max_bytes_per_token,
                                            self.unknown_token)
        # Each piece's word: pieces come in word order, so repeat the word starts by piece counts.
        base = self._piece_word_starts(words, w_starts, pieces, starts)
        return _nonempty(pieces, starts + base, limits + base)

    @staticmethod
    def _piece_word_starts(words, w_starts, pieces, starts):
        # A piece starting at byte 0 of its word opens a new word (unknown words are one piece at 0).
        nonempty = tf.boolean_mask(w_starts, tf.strings.length(words) > 0)
        word_index = tf.cumsum(tf.cast(tf.equal(starts, 0), tf.int32)) - 1
        return tf.gather(nonempty, tf.maximum(word_index, 0))


def _py_str(value: Any) -> str:
    """A Python str from what ``tf.numpy_function`` passes for a scalar string (bytes or a 0-d array)."""
    if hasattr(value, "item"):
        value = value.item()
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _missing(api: str, package: str) -> ImportError:
    return ImportError(f"For '{api}', the optional package '{package}' is required but not installed; "
                       f"install it with 'pip install {package}'.")


class JiebaTokenizer(_Tokenizer):
    """Chinese word segmentation with the ``jieba`` package (an optional dependency).

    Args:
        hmm_path: Path of the HMM model file (used to check the argument).
        mp_path: Path of the dictionary used by jieba.
        mode: :class:`JiebaMode` (MP, HMM or MIX).
        with_offsets: Also output the byte offsets of every token.

    Raises:
        ImportError: If ``jieba`` is not installed.
    """

    def __init__(self, hmm_path: str, mp_path: str, mode: JiebaMode = JiebaMode.MIX,
                 with_offsets: bool = False) -> None:
        super().__init__(with_offsets)
        try:
            import jieba  # pylint: disable=import-outside-toplevel
        except ImportError:
            raise _missing("JiebaTokenizer", "jieba") from None
        if not isinstance(mode, JiebaMode):
            raise TypeError(f"For 'JiebaTokenizer', the argument 'mode' must be JiebaMode, but got {mode!r}.")
        import os  # pylint: disable=import-outside-toplevel
        for name, path in (("hmm_path", hmm_path), ("mp_path", mp_path)):
            if not isinstance(path, str) or not os.path.isfile(path):
                raise ValueError(f"For 'JiebaTokenizer', the file of '{name}' does not exist: {path!r}.")
        self._jieba = jieba.Tokenizer(dictionary=mp_path)
        self.hmm_path, self.mp_path, self.mode = hmm_path, mp_path, mode
        self.words = []

    def add_word(self, word: str, freq: Optional[int] = None) -> None:
        """Add a word to the dictionary."""
        self._jieba.add_word(word, freq)

    def add_dict(self, user_dict: Any) -> None:
        """Add words from a dict ``{word: freq}`` or a dictionary file path."""
        if isinstance(user_dict, dict):
            for w, f in user_dict.items():
                self.add_word(w, f)
        else:
            self._jieba.load_userdict(user_dict)

    def _tokenize(self, text):
        hmm = self.mode != JiebaMode.MP
        jb = self._jieba

        def _run(s):
            s = _py_str(s)
            toks, starts, limits, pos = [], [], [], 0
            for w in jb.cut(s, HMM=hmm):
                b = len(w.encode("utf-8"))
                toks.append(w.encode("utf-8"))
                starts.append(pos)
                limits.append(pos + b)
                pos += b
            import numpy as np  # pylint: disable=import-outside-toplevel
            if not toks:
                toks, starts, limits = [b""], [0], [0]
            return (np.array(toks, dtype=object), np.array(starts, np.uint32), np.array(limits, np.uint32))

        tokens, starts, limits = tf.numpy_function(_run, [text], [tf.string, tf.uint32, tf.uint32], stateful=False)
        for t in (tokens, starts, limits):
            t.set_shape([None])
        return tokens, starts, limits


class SentencePieceTokenizer(TensorOperation):
    """SentencePiece tokenization with the ``sentencepiece`` package (an optional dependency).

    Args:
        mode: A :class:`~tfspore.dataset.text.SentencePieceVocab` or a model file path.
        out_type: :class:`SPieceTokenizerOutType` (STRING or INT).

    Raises:
        ImportError: If ``sentencepiece`` is not installed.
    """

    def __init__(self, mode: Any, out_type: SPieceTokenizerOutType) -> None:
        super().__init__()
        try:
            import sentencepiece as spm  # pylint: disable=import-outside-toplevel
        except ImportError:
            raise _missing("SentencePieceTokenizer", "sentencepiece") from None
        if not isinstance(out_type, SPieceTokenizerOutType):
            raise TypeError(f"For 'SentencePieceTokenizer', the argument 'out_type' must be SPieceTokenizerOutType, "
                            f"but got {out_type!r}.")
        if isinstance(mode, str):
            self._sp = spm.SentencePieceProcessor(model_file=mode)
            self.load_type = SPieceTokenizerLoadType.FILE
        else:
            self._sp = spm.SentencePieceProcessor(model_proto=mode._proto)  # pylint: disable=protected-access
            self.load_type = SPieceTokenizerLoadType.MODEL
        self.out_type = out_type

    def _apply(self, *tensors):
        sp = self._sp
        as_int = self.out_type == SPieceTokenizerOutType.INT

        def _run(s):
            import numpy as np  # pylint: disable=import-outside-toplevel
            s = _py_str(s)
            if as_int:
                return np.array(sp.encode(s, out_type=int), np.int32)
            return np.array([p.encode("utf-8") for p in sp.encode(s, out_type=str)], dtype=object)

        out = tf.numpy_function(_run, [tensors[0]], tf.int32 if as_int else tf.string, stateful=False)
        out.set_shape([None])
        return out

"""Tokenizers of ``mindspore.dataset.text`` on TensorFlow string ops.

The splitting rules are RE2 regular expressions with Unicode classes (``\\p{P}``, ``\\p{Z}``,
CJK ranges) applied by ``tf.strings.regex_replace``; case folding and accent stripping use the
character tables of :mod:`._unicode`; WordPiece's greedy longest match is a vectorised lookup of
every candidate piece in the vocabulary's hash table followed by a short ``tf.while_loop``. All
of it runs inside the ``tf.data`` map, without Python per row.
"""
from __future__ import annotations

from typing import Any, Sequence, Tuple, Union

import tensorflow as tf

from tfspore.dataset.transforms import TensorOperation
from tfspore.dataset.text import _unicode
from tfspore.dataset.text.utils import NormalizeForm, Vocab

__all__ = ["BasicTokenizer", "BertTokenizer", "WordpieceTokenizer", "WhitespaceTokenizer", "UnicodeCharTokenizer",
           "RegexTokenizer", "UnicodeScriptTokenizer"]

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

    # -- batch level: a batch of sentences tokenized at once, a ragged batch of tokens out --
    _tokenize_rows = None  # (texts [B]) -> (tokens, starts, limits, rows), flat; set by tokenizers that have it

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return (self._tokenize_rows is not None and not self.with_offsets and len(shapes) == 1
                and dtypes[0] == tf.string and shapes[0].rank == 0)

    def _apply_batch(self, texts: tf.Tensor) -> tf.RaggedTensor:
        tokens, _, _, rows = self._tokenize_rows(texts)  # pylint: disable=not-callable
        return tf.RaggedTensor.from_value_rowids(tokens, rows, nrows=tf.shape(texts, out_type=tf.int64)[0])


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

    def _tokenize_rows(self, texts):
        return _unicode.regex_split_rows(texts, _WS, "")


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

    def _tokenize_rows(self, texts):
        return _unicode.regex_split_rows(texts, self.delim_pattern, self.keep_delim_pattern)


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

    def _tokenize_rows(self, texts):
        keep = _WS + "|" + self._SCRIPTS if self.keep_whitespace else self._SCRIPTS
        return _unicode.regex_split_rows(texts, _WS + "|" + self._SCRIPTS, keep)


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
        if self.lower_case and text.shape.rank in (0, 1):
            # ASCII text (without '[' when special tokens are kept) only has its letters lowered:
            # one op in place of the character table (for a batch: when every string is such text).
            simple = tf.strings.regex_full_match(
                text, r"[\x00-\x5a\x5c-\x7f]*" if self.preserve_unused_token else r"[\x00-\x7f]*")
            text = tf.cond(tf.reduce_all(simple), lambda: tf.strings.lower(text), lambda: self._lower(text))
        elif self.lower_case:
            text = self._lower(text)
        else:
            text = normalize(text, self.normalization_form)
        return tf.strings.regex_replace(text, r"[\p{Cc}\p{Cf}]", " ")

    def _lower(self, text: tf.Tensor) -> tf.Tensor:
        """Case folding, NFD and accent stripping through the character table."""
        if not self.preserve_unused_token:
            return _unicode.char_map(text, "bert_lower")
        marked = tf.strings.regex_replace(text, _UNUSED, _unicode._MARK + "\\0" + _unicode._MARK)  # noqa
        if text.shape.rank == 1:  # a batch of strings: the segments of every string at once
            split = tf.raw_ops.StringSplitV2(input=marked, sep=_unicode._MARK)  # pylint: disable=protected-access
            segments = split.values
            is_match = tf.math.floormod(split.indices[:, 1], 2) == 1
            segments = tf.where(is_match, segments, _unicode.char_map(segments, "bert_lower"))
            ragged = tf.RaggedTensor.from_value_rowids(segments, split.indices[:, 0],
                                                       nrows=tf.shape(text, out_type=tf.int64)[0])
            return tf.strings.reduce_join(ragged, axis=1)
        segments = tf.strings.split(marked, sep=_unicode._MARK)  # pylint: disable=protected-access
        is_match = tf.math.floormod(tf.range(tf.size(segments)), 2) == 1
        segments = tf.where(is_match, segments, _unicode.char_map(segments, "bert_lower"))
        return tf.strings.reduce_join(segments)

    def _patterns(self) -> Tuple[str, str]:
        unused = _UNUSED + "|" if self.preserve_unused_token else ""
        delim = unused + _WS + "|" + _COMMON
        keep = unused + (_WS + "|" if self.keep_whitespace else "") + _COMMON
        return delim, keep

    def _tokenize(self, text):
        return _unicode.regex_split(self._normalize(text), *self._patterns())

    def _tokenize_rows(self, texts):
        return _unicode.regex_split_rows(self._normalize(texts), *self._patterns())


def _check_vocab(api: str, vocab: Any) -> Vocab:
    if not isinstance(vocab, Vocab):
        raise TypeError(f"For '{api}', the argument 'vocab' must be Vocab, but got {vocab!r} "
                        f"with type {type(vocab).__name__}.")
    return vocab


def _wordpiece(words: tf.Tensor, vocab: Vocab, suffix: str, max_bytes: int,
               unknown_token: str) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """Greedy longest-match-first WordPiece on a 1-D tensor of words.

    A word found whole in the vocabulary is its own piece (one hash lookup for all words). The
    other words are split together: every candidate piece (start byte on a character boundary,
    length up to the longest vocabulary entry) is looked up at once, giving the longest match at
    every start; the greedy chain of matches from the first byte is then followed for all words at once
    by binary lifting (``log2(max_bytes)`` gathers, no loop). A word whose chain does not reach
    its end is unknown.

    Returns:
        ``(pieces, starts, limits, word)``, flat over the words, offsets relative to each word,
        and the index of each piece's word.
    """
    # One lookup tells both whether a string is a token (bit 1) and whether suffix + string is (bit 2).
    table = vocab._piece_table(suffix)  # pylint: disable=protected-access
    max_piece = vocab._max_token_bytes()  # pylint: disable=protected-access
    words = tf.reshape(words, [-1])
    num = tf.shape(words)[0]
    nbytes = tf.strings.length(words)
    too_long = nbytes > max_bytes
    nonempty = nbytes > 0
    whole = (tf.bitwise.bitwise_and(table.lookup(words), 1) > 0) & tf.logical_not(too_long)
    split = nonempty & tf.logical_not(whole | too_long)       # words that need the greedy search
    split_idx = tf.cast(tf.where(split), tf.int32)             # [M, 1]
    sw = tf.gather_nd(words, split_idx)
    s_bytes = tf.gather_nd(nbytes, split_idx)
    # The search runs over byte positions; a piece starts and ends on a character boundary (a
    # byte that is not a UTF-8 continuation byte: bit 4 of the table, one lookup per byte).
    m = tf.size(sw)
    width = tf.reduce_max(tf.concat([s_bytes, [1]], 0))
    nodes = tf.range(width + 1)
    here = tf.broadcast_to(nodes[None, :], tf.stack([m, width + 1]))
    at = tf.minimum(here[:, :width], s_bytes[:, None])
    cont = tf.bitwise.bitwise_and(table.lookup(tf.strings.substr(sw[:, None], at, tf.ones_like(at))), 4) > 0
    boundary = tf.concat([tf.logical_not(cont), tf.ones([m, 1], tf.bool)], 1)   # [M, width + 1]
    # Every candidate piece: start byte i, end byte e = i + 1 .. i + k.
    k = tf.minimum(width, max_piece)
    i_idx = tf.range(width)[None, :, None]
    e_idx = i_idx + tf.range(1, k + 1)[None, None, :]          # [1, width, k]
    valid = (e_idx <= s_bytes[:, None, None]) & boundary[:, :width, None]
    valid = valid & tf.gather(boundary, tf.broadcast_to(tf.minimum(e_idx, width), tf.shape(valid)), batch_dims=1)
    # Only the valid candidates are cut and looked up (about half of the grid).
    cidx = tf.cast(tf.where(valid), tf.int32)                 # [V, 3]: word, start, length - 1
    c_word, c_start = cidx[:, 0], cidx[:, 1]
    c_end = c_start + cidx[:, 2] + 1
    cand = tf.strings.substr(tf.gather(sw, c_word), c_start, c_end - c_start)
    bit = tf.cast(tf.where(c_start > 0, 2, 1), tf.int64)      # non-initial pieces carry the suffix
    hit = tf.bitwise.bitwise_and(table.lookup(cand), bit) > 0
    longest = tf.reshape(tf.math.unsorted_segment_max(tf.where(hit, c_end, 0), c_word * width + c_start,
                                                      m * width), tf.stack([m, width]))
    longest = tf.maximum(longest, 0)                           # [M, width]: end of the longest match, 0: none
    # The greedy chain from byte 0 by binary lifting: jump[s][i] is where 2**s greedy steps from i
    # end (a position without a match, and the word's end, step to themselves). Position i is on
    # the chain when the furthest chain position not past i is i itself.
    nxt = tf.concat([longest, tf.zeros([m, 1], tf.int32)], 1)
    jumps = [tf.where(nxt > 0, nxt, here)]
    for _ in range(max(1, int(max_bytes).bit_length()) - 1):
        jumps.append(tf.gather(jumps[-1], jumps[-1], batch_dims=1))
    pos = tf.zeros_like(here)
    for jump in reversed(jumps):
        step = tf.gather(jump, pos, batch_dims=1)
        pos = tf.where(step <= here, step, pos)
    visited = tf.equal(pos, here)                              # [M, width + 1]
    ok = tf.gather(visited, s_bytes, batch_dims=1)             # the chain reaches the word's end
    is_piece = visited[:, :width] & (here[:, :width] < s_bytes[:, None]) & ok[:, None]
    p_start = here[:, :width]
    p_end = longest
    # Back to all words: one row of (start, end, is piece) per word; whole and unknown words
    # are one piece in the first column.
    ok_all = tf.scatter_nd(split_idx, tf.cast(ok, tf.int32), [num]) > 0
    unknown = (split & tf.logical_not(ok_all)) | too_long
    single = whole | unknown
    unk_len = tf.strings.length(unknown_token) if unknown_token else nbytes
    rows = tf.scatter_nd(split_idx, tf.stack([p_start, p_end, tf.cast(is_piece, tf.int32)], 2),
                         tf.stack([num, width, 3]))
    first_col = tf.stack([tf.zeros_like(nbytes), tf.where(too_long, unk_len, nbytes), tf.ones_like(nbytes)], 1)
    rows = tf.where((tf.equal(nodes[:width], 0)[None, :] & single[:, None])[:, :, None], first_col[:, None, :], rows)
    where = tf.cast(tf.where(rows[:, :, 2] > 0), tf.int32)
    w_of = where[:, 0]
    picked = tf.gather_nd(rows, where)
    p_starts, p_ends = picked[:, 0], picked[:, 1]
    # The piece text: a substring of its word, or the unknown token (the whole word when empty).
    # Element-wise string selects and '+' are slow in TF (about 5 us a string), so the text is
    # cut from one gathered source and the suffix joined on with StringJoin.
    unk_piece = tf.gather(unknown, w_of)
    if unknown_token:
        src = tf.gather(tf.concat([words, [unknown_token]], 0), tf.where(unk_piece, num, w_of))
    else:
        src = tf.gather(words, w_of)
    pieces = tf.strings.substr(src, tf.where(unk_piece, 0, p_starts),
                               tf.where(unk_piece, tf.strings.length(src), p_ends - p_starts))
    if suffix:
        prefix = tf.gather(tf.constant(["", suffix]), tf.cast(p_starts > 0, tf.int32))
        pieces = tf.strings.join([prefix, pieces])
    return pieces, tf.cast(p_starts, tf.uint32), tf.cast(p_ends, tf.uint32), w_of


def _nonempty(tokens: tf.Tensor, starts: tf.Tensor, limits: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """``[""], [0], [0]`` in place of an empty result (MindSpore never outputs an empty token list)."""
    pad = [[0, 1 - tf.minimum(tf.size(tokens), 1)]]
    return tf.pad(tokens, pad, constant_values=""), tf.pad(starts, pad), tf.pad(limits, pad)


def _nonempty_rows(tokens: tf.Tensor, starts: tf.Tensor, limits: tf.Tensor, rows: tf.Tensor,
                   nrows: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor, tf.Tensor]:
    """:func:`_nonempty` for every row of flat, row-sorted tokens: an empty row gets ``""`` at 0."""
    counts = tf.math.unsorted_segment_sum(tf.ones_like(rows, tf.int32), rows, nrows)
    empty = tf.reshape(tf.where(tf.equal(counts, 0)), [-1])
    all_rows = tf.concat([rows, empty], 0)
    order = tf.argsort(all_rows, stable=True)
    zeros = tf.zeros(tf.shape(empty), tf.uint32)
    return (tf.gather(tf.concat([tokens, tf.fill(tf.shape(empty), "")], 0), order),
            tf.gather(tf.concat([starts, zeros], 0), order), tf.gather(tf.concat([limits, zeros], 0), order),
            tf.gather(all_rows, order))


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
                                         self.unknown_token)[:3])

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
        pieces, starts, limits, word = _wordpiece(words, self.vocab, self.suffix_indicator, self.max_bytes_per_token,
                                                  self.unknown_token)
        if self.with_offsets:  # offsets in the text: each piece's word start added
            base = tf.gather(w_starts, word)
            starts, limits = starts + base, limits + base
        return _nonempty(pieces, starts, limits)

    def _tokenize_rows(self, texts):
        words, _, _, word_rows = BasicTokenizer._tokenize_rows(self, texts)
        pieces, starts, limits, word = _wordpiece(words, self.vocab, self.suffix_indicator, self.max_bytes_per_token,
                                                  self.unknown_token)
        return _nonempty_rows(pieces, starts, limits, tf.gather(word_rows, word), tf.shape(texts, out_type=tf.int64)[0])

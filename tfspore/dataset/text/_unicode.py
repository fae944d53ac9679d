"""Character tables and regex splitting on TensorFlow string ops (shared by the text transforms).

Unicode case folding and canonical/compatibility decomposition are applied character by
character: the string is split into characters, each character found in a table of the
characters that change maps to its replacement (one hash-table lookup), and the characters
are joined again. Tables come from Python's :mod:`unicodedata` and are built once.
"""
from __future__ import annotations

import functools
import unicodedata
from typing import Callable, Dict, Tuple

import numpy as np
import tensorflow as tf

# A Unicode noncharacter, reserved for internal use: it marks regex matches while splitting.
_MARK = "\ufdd0"
# The ranges that hold every character whose case folding or decomposition changes it (the CJK
# ideograph blocks, Yi, private use and the supplementary ideograph planes are left out: no mapping
# here changes them; the compatibility ideographs are kept).
_RANGES = ((0, 0x3400), (0x4DC0, 0x4E00), (0xA4D0, 0xE000), (0xF900, 0x20000), (0x2F800, 0x2FA20),
           (0xE0000, 0xE1000))


@functools.lru_cache(maxsize=1)
def _candidates() -> Tuple[str, ...]:
    """The characters any table here may change: with a decomposition, a case folding, a
    nonspacing mark (Mn), a default-ignorable code point, or a Hangul syllable."""
    out = []
    decomposition, category = unicodedata.decomposition, unicodedata.category
    for lo, hi in _RANGES:
        for code in range(lo, hi):
            if 0xD800 <= code <= 0xDFFF:
                continue
            ch = chr(code)
            if (decomposition(ch) or ch.casefold() != ch or category(ch) == "Mn" or code in _IGNORABLE_SET
                    or 0xAC00 <= code <= 0xD7A3):
                out.append(ch)
    return tuple(out)


def _table_items(func: Callable[[str], str]) -> Dict[str, str]:
    items = {}
    for ch in _candidates():
        out = func(ch)
        if out != ch:
            items[ch] = out
    return items


def _strip_mn(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Mn")


# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt); NFKC_Casefold drops them.
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))

_IGNORABLE_SET = frozenset(code for lo, hi in _IGNORABLE for code in range(lo, hi + 1))


def _nfkc_casefold(c: str) -> str:
    """Unicode's NFKC_Casefold mapping of one character (what ICU's case folding here applies)."""
    if ord(c) in _IGNORABLE_SET:
        return ""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", c).casefold())


_FUNCS = {
    "casefold": _nfkc_casefold,
    "NFD": functools.partial(unicodedata.normalize, "NFD"),
    "NFKD": functools.partial(unicodedata.normalize, "NFKD"),
    # BasicTokenizer's lower-case path: NFKC case folding, NFD, then accents (Mn) removed.
    "bert_lower": lambda c: _strip_mn(unicodedata.normalize("NFD", _nfkc_casefold(c))),
}


class _CharTable:
    """A character -> string table as a TF hash table (built on first use, outside any graph)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._table = None
        self._values = None

    def _build(self) -> Tuple[tf.lookup.StaticHashTable, tf.Tensor]:
        if self._table is None:
            items = _table_items(_FUNCS[self.name])
            keys = np.array([k.encode("utf-8") for k in items], dtype=object)
            vals = np.array([v.encode("utf-8") for v in items.values()], dtype=object)
            with tf.init_scope():
                self._table = tf.lookup.StaticHashTable(
                    tf.lookup.KeyValueTensorInitializer(tf.constant(keys, tf.string),
                                                        tf.range(len(keys), dtype=tf.int64)), -1)
                self._values = tf.constant(vals, tf.string)
        return self._table, self._values

    def apply(self, strings: tf.Tensor) -> tf.Tensor:
        """Map every character of every string through the table."""
        table, values = self._build()
        chars = tf.strings.unicode_split(strings, "UTF-8", errors="replace")
        flat = chars.flat_values if isinstance(chars, tf.RaggedTensor) else chars
        idx = table.lookup(flat)
        mapped = tf.where(idx >= 0, tf.gather(values, tf.maximum(idx, 0)), flat)
        if isinstance(chars, tf.RaggedTensor):
            mapped = chars.with_flat_values(mapped)
            return tf.strings.reduce_join(mapped, axis=-1)
        return tf.strings.reduce_join(mapped, axis=-1)


_TABLES: Dict[str, _CharTable] = {}


def char_map(strings: tf.Tensor, name: str) -> tf.Tensor:
    """Apply one character table (``casefold``, ``NFD``, ``NFKD``, ``bert_lower``) to strings."""
    if name not in _TABLES:
        _TABLES[name] = _CharTable(name)
    return _TABLES[name].apply(strings)


def py_normalize(strings: tf.Tensor, form: str) -> tf.Tensor:
    """Unicode normalization `form` (``NFC``/``NFKC``) through numpy, one call per row."""

    def _run(arr):
        flat = [unicodedata.normalize(form, x.decode("utf-8", "replace")).encode("utf-8")
                for x in np.asarray(arr, dtype=object).reshape(-1)]
        return np.array(flat, dtype=object).reshape(np.shape(arr))

    out = tf.numpy_function(_run, [strings], tf.string, stateful=False)
    out.set_shape(strings.shape)
    return out


def regex_split(text: tf.Tensor, delim_pattern: str, keep_delim_pattern: str,
                keep_empty: bool = True) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """Split a scalar string at the matches of `delim_pattern` (RE2 syntax).

    Matches that fully match `keep_delim_pattern` stay as tokens. Offsets are byte offsets.

    Returns:
        ``(tokens, starts, limits)``: 1-D string, uint32 and uint32 tensors; ``[""], [0], [0]``
        when nothing is left and `keep_empty` is set.
    """
    marked = tf.strings.regex_replace(text, delim_pattern, _MARK + "\\0" + _MARK)
    # The raw op: tf.strings.split builds a ragged tensor around the same values.
    segments = tf.raw_ops.StringSplitV2(input=tf.reshape(marked, [1]), sep=_MARK).values
    lengths = tf.strings.length(segments)
    limits = tf.cumsum(lengths)
    starts = limits - lengths
    is_match = tf.math.floormod(tf.range(tf.size(segments)), 2) == 1
    if keep_delim_pattern:
        keep = (lengths > 0) & (tf.logical_not(is_match) | tf.strings.regex_full_match(segments, keep_delim_pattern))
    else:
        keep = (lengths > 0) & tf.logical_not(is_match)
    if keep_empty:
        # Nothing kept: the first segment is then empty, at 0, and stands for the empty result.
        keep = keep | (tf.equal(tf.range(tf.size(segments)), 0) & tf.logical_not(tf.reduce_any(keep)))
    idx = tf.reshape(tf.where(keep), [-1])
    return (tf.gather(segments, idx), tf.cast(tf.gather(starts, idx), tf.uint32),
            tf.cast(tf.gather(limits, idx), tf.uint32))


def regex_split_rows(texts: tf.Tensor, delim_pattern: str, keep_delim_pattern: str,
                     keep_empty: bool = True) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor, tf.Tensor]:
    """:func:`regex_split` of every string of a 1-D batch at once (the engine's batch-level maps).

    Returns:
        ``(tokens, starts, limits, rows)``: the tokens of all strings in order, flat, with their
        byte offsets within their string and the index of their string (int64, non-decreasing).
        Every string gives what :func:`regex_split` gives it.
    """
    marked = tf.strings.regex_replace(texts, delim_pattern, _MARK + "\\0" + _MARK)
    split = tf.raw_ops.StringSplitV2(input=marked, sep=_MARK)
    segments = split.values
    rows, position = split.indices[:, 0], split.indices[:, 1]
    nrows = tf.shape(texts, out_type=tf.int64)[0]
    lengths = tf.strings.length(segments)
    before = tf.cumsum(lengths, exclusive=True)
    row_base = tf.math.unsorted_segment_min(before, rows, nrows)   # the first segment's offset per row
    starts = before - tf.gather(row_base, rows)
    limits = starts + lengths
    is_match = tf.math.floormod(position, 2) == 1
    if keep_delim_pattern:
        keep = (lengths > 0) & (tf.logical_not(is_match) | tf.strings.regex_full_match(segments, keep_delim_pattern))
    else:
        keep = (lengths > 0) & tf.logical_not(is_match)
    if keep_empty:
        # A string with nothing kept keeps its first segment (empty, at 0) for the empty result.
        kept_any = tf.math.unsorted_segment_max(tf.cast(keep, tf.int32), rows, nrows) > 0
        keep = keep | (tf.equal(position, 0) & tf.logical_not(tf.gather(kept_any, rows)))
    idx = tf.reshape(tf.where(keep), [-1])
    return (tf.gather(segments, idx), tf.cast(tf.gather(starts, idx), tf.uint32),
            tf.cast(tf.gather(limits, idx), tf.uint32), tf.gather(rows, idx))

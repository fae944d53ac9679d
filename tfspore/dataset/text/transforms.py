"""``mindspore.dataset.text.transforms``: text transforms as TensorFlow ops.

Example:
    >>> import numpy as np
    >>> from tfspore.dataset import text
    >>> vocab = text.Vocab.from_list(["[UNK]", "a", "b"])
    >>> text.Lookup(vocab, "[UNK]")(np.array(["a", "zz"])).tolist()
    [1, 0]
    >>> text.Ngram(2)(np.array(["a", "b", "c"])).tolist()
    ['a b', 'b c']
"""
from __future__ import annotations

import re
from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.dataset.transforms import TensorOperation
from tfspore.dataset.text import _unicode
from tfspore.dataset.text._package_tokenizers import JiebaTokenizer, SentencePieceTokenizer  # noqa: F401
from tfspore.dataset.text._tokenizers import (BasicTokenizer, BertTokenizer, RegexTokenizer,  # noqa: F401
                                              UnicodeCharTokenizer, UnicodeScriptTokenizer, WhitespaceTokenizer,
                                              WordpieceTokenizer, normalize)
from tfspore.dataset.text.utils import NormalizeForm, Vocab

__all__ = ["Lookup", "ToNumber", "TruncateSequencePair", "Ngram", "SlidingWindow", "CaseFold", "NormalizeUTF8",
           "RegexReplace", "PythonTokenizer", "BasicTokenizer", "BertTokenizer", "JiebaTokenizer",
           "RegexTokenizer", "SentencePieceTokenizer", "UnicodeCharTokenizer", "UnicodeScriptTokenizer",
           "WhitespaceTokenizer", "WordpieceTokenizer"]

_NARROW_INTS = {tf.int8: (-128, 127), tf.int16: (-32768, 32767), tf.uint8: (0, 255), tf.uint16: (0, 65535),
                tf.uint32: (0, 4294967295)}


def _string_input(api: str, t: tf.Tensor) -> tf.Tensor:
    if t.dtype != tf.string:
        raise TypeError(f"For '{api}', the input should be a string tensor, but got dtype {t.dtype.name}.")
    return t


def _mstype_to_tf(api: str, data_type: Any, strict: bool = True) -> tf.DType:
    from tfspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    if not isinstance(data_type, mstype.Type):
        raise TypeError(f"For '{api}', the argument 'data_type' must be a mindspore.dtype, but got "
                        f"{data_type!r} with type {type(data_type).__name__}.")
    npd = data_type.np_dtype
    if npd is None or np.dtype(npd).kind not in "iuf" + ("" if strict else "b"):
        raise TypeError(f"For '{api}', the argument 'data_type' must be a numeric mindspore.dtype, but got "
                        f"{data_type!r}.")
    return tf.as_dtype(np.dtype(npd))


class Lookup(TensorOperation):
    """Map tokens to their ids in a vocabulary.

    Args:
        vocab: The vocabulary.
        unknown_token: The token whose id replaces tokens not in the vocabulary; it must be in
            the vocabulary. None makes a token not in the vocabulary an error.
        data_type: The numeric mindspore dtype of the ids. Default: int32.

    Raises:
        TypeError: If `vocab` is not a Vocab.
        ValueError: If `unknown_token` is not in the vocabulary.
    """

    def __init__(self, vocab: Vocab, unknown_token: Optional[str] = None, data_type: Any = None) -> None:
        super().__init__()
        from tfspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        if not isinstance(vocab, Vocab):
            raise TypeError(f"For 'Lookup', the argument 'vocab' must be Vocab, but got {vocab!r} "
                            f"with type {type(vocab).__name__}.")
        if unknown_token is not None and not isinstance(unknown_token, str):
            raise TypeError(f"For 'Lookup', the argument 'unknown_token' must be str or None, but got "
                            f"{unknown_token!r} with type {type(unknown_token).__name__}.")
        self.vocab = vocab
        self.unknown_token = unknown_token
        self.data_type = mstype.int32 if data_type is None else data_type
        self._tf_dtype = _mstype_to_tf("Lookup", self.data_type, strict=False)
        self._unknown_id = None
        if unknown_token is not None:
            self._unknown_id = vocab.vocab().get(unknown_token)
            if self._unknown_id is None:
                raise ValueError(f"For 'Lookup', the argument 'unknown_token' {unknown_token!r} is not in the vocab.")

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        tokens = _string_input("Lookup", tensors[0])
        ids = self.vocab._lookup_table().lookup(tokens)  # pylint: disable=protected-access
        if self._unknown_id is not None:
            ids = tf.where(ids < 0, tf.constant(self._unknown_id, tf.int64), ids)
        else:
            missing = tf.boolean_mask(tf.reshape(tokens, [-1]), tf.reshape(ids < 0, [-1]))
            check = tf.debugging.Assert(tf.equal(tf.size(missing), 0),
                                        ["Lookup: invalid data, tokens not in the vocab and no unknown_token:",
                                         missing], summarize=5)
            with tf.control_dependencies([check]):
                ids = tf.identity(ids)
        return tf.cast(ids, self._tf_dtype)

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return len(dtypes) == 1 and dtypes[0] == tf.string  # token by token

    def _ragged_batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return self._batch_ok(shapes, dtypes) and shapes[0].rank == 1

    def _apply_batch(self, tokens: Any) -> Any:
        if isinstance(tokens, tf.RaggedTensor):
            return tokens.with_flat_values(self._apply(tokens.flat_values))
        return self._apply(tokens)


class ToNumber(TensorOperation):
    """Parse strings as numbers of a numeric mindspore dtype.

    Args:
        data_type: The numeric mindspore dtype.

    Raises:
        TypeError: If `data_type` is not a numeric mindspore dtype.
        RuntimeError: (when run) If a string is not a number or is out of the dtype's range.
    """

    def __init__(self, data_type: Any) -> None:
        super().__init__()
        self.data_type = data_type
        self._tf_dtype = _mstype_to_tf("ToNumber", data_type)

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        s = _string_input("ToNumber", tensors[0])
        target = self._tf_dtype
        if target in (tf.float32, tf.float64, tf.int32, tf.int64):
            return tf.strings.to_number(s, target)
        if target.is_floating:
            return tf.cast(tf.strings.to_number(s, tf.float64), target)
        wide = tf.strings.to_number(s, tf.int64)
        lo, hi = _NARROW_INTS[target]
        check = tf.debugging.Assert(tf.reduce_all((wide >= lo) & (wide <= hi)),
                                    [f"ToNumber: string input will be out of bounds if cast to {target.name}. "
                                     f"The valid range is: [{lo}, {hi}]. Got:", s], summarize=5)
        with tf.control_dependencies([check]):
            return tf.cast(wide, target)


class TruncateSequencePair(TensorOperation):
    """Truncate two 1-D sequences so their total length is at most `max_length`.

    Tokens are removed from the end of the longer sequence (the second on a tie), as BERT does.

    Args:
        max_length: The maximum total length.
    """

    def __init__(self, max_length: int) -> None:
        super().__init__()
        self.max_length = V.check_non_negative_int(max_length, "max_length", "TruncateSequencePair")

    def _apply(self, *tensors: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
        if len(tensors) != 2:
            raise ValueError(f"For 'TruncateSequencePair', two input columns are expected, but got {len(tensors)}.")
        a, b = tensors
        m = self.max_length
        la, lb = tf.size(a), tf.size(b)
        new_a = tf.minimum(la, tf.maximum(m - lb, (m + 1) // 2))
        new_b = tf.minimum(lb, m - new_a)
        return a[:new_a], b[:new_b]


def _check_pad(api: str, name: str, pad: Any) -> Tuple[str, int]:
    if (not isinstance(pad, (tuple, list)) or len(pad) != 2 or not isinstance(pad[0], str)
            or isinstance(pad[1], bool) or not isinstance(pad[1], int)):
        raise TypeError(f"For '{api}', the argument '{name}' must be a tuple of (str, int), but got {pad!r}.")
    if pad[1] < 0:
        raise ValueError(f"For '{api}', the padding width of '{name}' must be non-negative, but got {pad[1]}.")
    return pad[0], pad[1]


class Ngram(TensorOperation):
    """The n-grams of a 1-D string tensor, joined by `separator`, for every n of `n` in order.

    Args:
        n: An int or a list of positive ints.
        left_pad: ``(token, width)`` padded on the left.
        right_pad: ``(token, width)`` padded on the right.
        separator: The joining string.
    """

    def __init__(self, n: Union[int, Sequence[int]], left_pad: Tuple[str, int] = ("", 0),
                 right_pad: Tuple[str, int] = ("", 0), separator: str = " ") -> None:
        super().__init__()
        ns = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not isinstance(ns, (list, tuple)) or not ns or \
                not all(isinstance(x, int) and not isinstance(x, bool) for x in ns):
            raise TypeError(f"For 'Ngram', the argument 'n' must be int or a list of int, but got {n!r}.")
        if any(x <= 0 for x in ns):
            raise ValueError(f"For 'Ngram', the values of 'n' must be positive, but got {n!r}.")
        self.n = list(ns)
        self.left_pad = _check_pad("Ngram", "left_pad", left_pad)
        self.right_pad = _check_pad("Ngram", "right_pad", right_pad)
        if not isinstance(separator, str):
            raise TypeError(f"For 'Ngram', the argument 'separator' must be str, but got {separator!r}.")
        self.separator = separator

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        tokens = tf.reshape(_string_input("Ngram", tensors[0]), [-1])
        outs = []
        for n in self.n:
            # A pad wider than n - 1 would only add n-grams made of padding; MindSpore caps it.
            padded = tf.concat([tf.fill([min(self.left_pad[1], n - 1)], self.left_pad[0]), tokens,
                                tf.fill([min(self.right_pad[1], n - 1)], self.right_pad[0])], 0)
            size = tf.size(padded)
            count = tf.maximum(size - n + 1, 0)
            idx = tf.range(count)[:, None] + tf.range(n)[None, :]
            outs.append(tf.strings.reduce_join(tf.gather(padded, idx), axis=1, separator=self.separator))
        out = tf.concat(outs, 0)
        return tf.cond(tf.equal(tf.size(out), 0), lambda: tf.constant([""]), lambda: out)


class SlidingWindow(TensorOperation):
    """Windows of `width` consecutive elements along `axis` (a new dimension after `axis`).

    Args:
        width: The window width (positive).
        axis: The axis to slide along.
    """

    def __init__(self, width: int, axis: int = 0) -> None:
        super().__init__()
        for name, value in (("width", width), ("axis", axis)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'SlidingWindow', the argument '{name}' must be int, but got {value!r} "
                                f"with type {type(value).__name__}.")
        if width <= 0:
            raise ValueError(f"For 'SlidingWindow', the argument 'width' must be positive, but got {width}.")
        self.width = width
        self.axis = axis

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        x = tensors[0]
        axis = self.axis
        length = tf.shape(x)[axis]
        count = tf.maximum(length - self.width + 1, 0)
        idx = tf.range(count)[:, None] + tf.range(self.width)[None, :]
        return tf.gather(x, idx, axis=axis)


class CaseFold(TensorOperation):
    """Unicode full case folding of UTF-8 strings (``"ß"`` folds to ``"ss"``).

    Example:
        >>> from tfspore.dataset import text
        >>> str(text.CaseFold()("ABß"))
        'abss'
    """

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        s = _string_input("CaseFold", tensors[0])
        return tf.reshape(_unicode.char_map(tf.reshape(s, [-1]), "casefold"), tf.shape(s))


class NormalizeUTF8(TensorOperation):
    """Unicode normalization of UTF-8 strings.

    Args:
        normalize_form: A :class:`NormalizeForm`. Default: NFKC.
    """

    def __init__(self, normalize_form: NormalizeForm = NormalizeForm.NFKC) -> None:
        super().__init__()
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError(f"For 'NormalizeUTF8', the argument 'normalize_form' must be NormalizeForm, but got "
                            f"{normalize_form!r} with type {type(normalize_form).__name__}.")
        self.normalize_form = normalize_form

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        s = _string_input("NormalizeUTF8", tensors[0])
        return tf.reshape(normalize(tf.reshape(s, [-1]), self.normalize_form), tf.shape(s))


class RegexReplace(TensorOperation):
    """Replace the matches of a regular expression (RE2 syntax; ``$1`` or ``\\1`` groups).

    Args:
        pattern: The pattern.
        replace: The replacement.
        replace_all: Replace every match (True) or only the first.
    """

    def __init__(self, pattern: str, replace: str, replace_all: bool = True) -> None:
        super().__init__()
        for name, value in (("pattern", pattern), ("replace", replace)):
            if not isinstance(value, str):
                raise TypeError(f"For 'RegexReplace', the argument '{name}' must be str, but got {value!r}.")
        if not isinstance(replace_all, bool):
            raise TypeError(f"For 'RegexReplace', the argument 'replace_all' must be bool, but got {replace_all!r}.")
        self.pattern = pattern
        self.replace = replace
        self.replace_all = replace_all
        self._rewrite = re.sub(r"\$(\d)", r"\\\1", replace)

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        s = _string_input("RegexReplace", tensors[0])
        return tf.strings.regex_replace(s, self.pattern, self._rewrite, replace_global=self.replace_all)


class PythonTokenizer(TensorOperation):
    """Tokenize with a Python function ``str -> list[str]`` (runs through ``tf.numpy_function``).

    Args:
        tokenizer: The function.
    """

    def __init__(self, tokenizer: Any) -> None:
        super().__init__()
        if not callable(tokenizer):
            raise TypeError(f"For 'PythonTokenizer', the argument 'tokenizer' must be callable, but got {tokenizer!r}.")
        self.tokenizer = tokenizer

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        func = self.tokenizer

        def _run(s):
            if hasattr(s, "item"):
                s = s.item()
            text = s.decode("utf-8", "replace") if isinstance(s, bytes) else str(s)
            toks: List[str] = list(func(text))
            return np.array([t.encode("utf-8") for t in toks] or [b""], dtype=object)

        out = tf.numpy_function(_run, [tensors[0]], tf.string, stateful=False)
        out.set_shape([None])
        return out

"""Tokenizers of ``mindspore.dataset.text`` that run an optional package: jieba, sentencepiece.

They call the package from ``tf.numpy_function`` (one Python call per row); the rest of the
tokenizers are TensorFlow string ops in :mod:`._tokenizers`.
"""
from __future__ import annotations

from typing import Any, Optional

import tensorflow as tf

from tfspore.dataset.transforms import TensorOperation
from tfspore.dataset.text._tokenizers import _Tokenizer
from tfspore.dataset.text.utils import JiebaMode, SPieceTokenizerLoadType, SPieceTokenizerOutType

__all__ = ["JiebaTokenizer", "SentencePieceTokenizer"]


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

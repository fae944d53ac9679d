"""``mindspore.dataset.text``: tokenizers, vocabularies and text transforms on TF string ops.

Example:
    >>> from tfspore.dataset import text
    >>> vocab = text.Vocab.from_list(["[UNK]", "hello", "##s", ","])
    >>> text.BertTokenizer(vocab, lower_case=True)("Hellos, you").tolist()
    ['hello', '##s', ',', '[UNK]']
"""
from tfspore.dataset.text import transforms, utils  # noqa: F401  (MindSpore exposes the submodules)
from tfspore.dataset.text.transforms import (BasicTokenizer, BertTokenizer, CaseFold, JiebaTokenizer, Lookup,
                                             Ngram, NormalizeUTF8, PythonTokenizer, RegexReplace, RegexTokenizer,
                                             SentencePieceTokenizer, SlidingWindow, ToNumber, TruncateSequencePair,
                                             UnicodeCharTokenizer, UnicodeScriptTokenizer, WhitespaceTokenizer,
                                             WordpieceTokenizer)
from tfspore.dataset.text.utils import (JiebaMode, NormalizeForm, SentencePieceModel, SentencePieceVocab,
                                        SPieceTokenizerLoadType, SPieceTokenizerOutType, Vocab, to_bytes, to_str)

__all__ = ["BasicTokenizer", "BertTokenizer", "CaseFold", "JiebaTokenizer", "Lookup", "Ngram", "NormalizeUTF8",
           "PythonTokenizer", "RegexReplace", "RegexTokenizer", "SentencePieceTokenizer", "SlidingWindow", "ToNumber",
           "TruncateSequencePair", "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "WhitespaceTokenizer",
           "WordpieceTokenizer", "JiebaMode", "NormalizeForm", "SentencePieceModel", "SentencePieceVocab",
           "SPieceTokenizerLoadType", "SPieceTokenizerOutType", "Vocab", "to_bytes", "to_str"]

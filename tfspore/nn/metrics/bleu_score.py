"""``BleuScore``: BLEU of candidate translations against reference translations.

Example:
    >>> from tfspore.train import BleuScore
    >>> m = BleuScore()
    >>> m.update([['i', 'have', 'a', 'pen', 'on', 'my', 'desk']],
    ...          [[['i', 'have', 'a', 'pen', 'in', 'my', 'desk'], ['there', 'is', 'a', 'pen', 'on', 'the', 'desk']]])
    >>> round(float(m.eval()), 6)
    0.594604
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np

from tfspore._internal import validator
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["BleuScore"]


class BleuScore(Metric):
    """BLEU: the geometric mean of the clipped n-gram precisions (n = 1 .. ``n_gram``) times the brevity penalty.

    Args:
        n_gram: the largest n-gram order, 1 to 4. Default: ``4``.
        smooth: add 1 to the numerators and denominators of the precisions. Default: ``False``.

    Raises:
        TypeError: when ``n_gram`` is not an int or ``smooth`` not a bool.
        ValueError: when ``n_gram`` is outside [1, 4].

    Example:
        >>> from tfspore.train import BleuScore
        >>> m = BleuScore(n_gram=2, smooth=True)
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        super().__init__()
        self.n_gram = validator.check_type(n_gram, [int], "n_gram", "BleuScore")
        if self.n_gram > 4 or self.n_gram < 1:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}.")
        self.smooth = validator.check_type(smooth, [bool], "smooth", "BleuScore")
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._precision_scores = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._trans_len = 0
        self._ref_len = 0
        self._is_update = False

    @staticmethod
    def _count_ngram(tokens: Sequence, n_gram: int) -> Counter:
        counter: Counter = Counter()
        for i in range(1, n_gram + 1):
            for j in range(len(tokens) - i + 1):
                counter[tuple(tokens[j:i + j])] += 1
        return counter

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Count one corpus.

        Args:
            inputs: ``(candidate_corpus, reference_corpus)``: a list of token lists, and for each
                candidate a list of reference token lists.

        Raises:
            ValueError: for a wrong number of inputs or corpora of different lengths.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'BleuScore.update', it needs 2 inputs (candidate_corpus, reference_corpus), but got "
                             f"{len(inputs)}.")
        candidate_corpus, reference_corpus = inputs
        if len(candidate_corpus) != len(reference_corpus):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidate_corpus)}, "
                             f"{len(reference_corpus)}")
        for candidate, references in zip(candidate_corpus, reference_corpus):
            self._c += len(candidate)
            ref_len_list = [len(ref) for ref in references]
            ref_len_diff = [abs(len(candidate) - x) for x in ref_len_list]
            self._r += ref_len_list[ref_len_diff.index(min(ref_len_diff))]
            translation_counter = self._count_ngram(candidate, self.n_gram)
            reference_counter: Counter = Counter()
            for ref in references:
                reference_counter |= self._count_ngram(ref, self.n_gram)
            clipped = translation_counter & reference_counter
            for gram in clipped:
                self._numerator[len(gram) - 1] += clipped[gram]
            for gram in translation_counter:
                self._denominator[len(gram) - 1] += translation_counter[gram]
        self._trans_len = np.array(self._c)
        self._ref_len = np.array(self._r)
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The BLEU score (0 when some n-gram order has no match).

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        self._check_updated()
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision_scores = np.add(self._numerator, np.ones(self.n_gram)) / np.add(self._denominator,
                                                                                      np.ones(self.n_gram))
        else:
            precision_scores = self._numerator / self._denominator
        log_precision_scores = np.array([1.0 / self.n_gram] * self.n_gram) * np.log(precision_scores)
        geometric_mean = np.exp(np.sum(log_precision_scores))
        brevity_penalty = np.array(1.0) if self._c > self._r else np.exp(1 - self._ref_len / self._trans_len)
        return brevity_penalty * geometric_mean

"""``CTCLoss``: the connectionist temporal classification loss over ``(T, N, C)`` log-probabilities.

The loss is the negative log-likelihood of each target under the CTC alignment model, computed
by the forward (alpha) recursion in log space over the time steps (``tf.scan``, so it runs inside
a compiled step), with the targets given padded as ``(N, S)`` plus their lengths, as MindSpore's
``ops.ctc_loss`` takes them. The log-probabilities are used as given (TensorFlow's own
``tf.nn.ctc_loss`` applies a log-softmax first, MindSpore does not). ``'mean'`` divides each loss
by its target length (at least 1) and averages over the batch. The gradient with respect to the
log-probabilities is MindSpore's (and PyTorch's): ``exp(log_probs) - posterior occupancy``, which
equals the true gradient once it flows back through a log-softmax.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> lp = Tensor(np.log(np.full((3, 1, 2), 0.5, np.float32)))
    >>> loss = nn.CTCLoss(reduction='none')(lp, Tensor(np.array([[1]], np.int32)), Tensor(np.array([3], np.int32)),
    ...                                    Tensor(np.array([1], np.int32)))
    >>> round(float(loss[0]), 4)  # -log(3 paths of probability 1/8)
    0.9808
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.loss._base import LossBase, check_is_tensor

__all__ = ["CTCLoss"]

_NEG_INF = float("-inf")


def _lse3(a: tf.Tensor, b: tf.Tensor, c: tf.Tensor) -> tf.Tensor:
    """``log(exp(a) + exp(b) + exp(c))`` that stays -inf (with zero gradients) where all three are -inf."""
    m = tf.maximum(tf.maximum(a, b), c)
    finite = tf.math.is_finite(m)
    m_safe = tf.where(finite, m, tf.zeros_like(m))
    total = tf.exp(a - m_safe) + tf.exp(b - m_safe) + tf.exp(c - m_safe)
    positive = total > 0
    return tf.where(positive, m_safe + tf.math.log(tf.where(positive, total, tf.ones_like(total))),
                    tf.fill(tf.shape(m), tf.constant(_NEG_INF, m.dtype)))


def ctc_neg_log_likelihood(log_probs: tf.Tensor, targets: tf.Tensor, input_lengths: tf.Tensor,
                           target_lengths: tf.Tensor, blank: int) -> tf.Tensor:
    """The per-sample CTC negative log-likelihood ``(N,)`` of ``(T, N, C)`` log-probabilities and ``(N, S)`` targets."""
    dtype = log_probs.dtype
    n, s = tf.shape(targets)[0], tf.shape(targets)[1]
    length = 2 * s + 1
    targets = tf.cast(targets, tf.int32)
    in_len = tf.cast(input_lengths, tf.int32)
    tg_len = tf.cast(target_lengths, tf.int32)
    # the extended label sequence: blank, t1, blank, t2, ..., blank
    ext = tf.reshape(tf.stack([tf.fill([n, s], blank), targets], axis=2), [n, 2 * s])
    ext = tf.concat([ext, tf.fill([n, 1], blank)], axis=1)
    prev2 = tf.concat([tf.fill([n, 2], blank), ext[:, :-2]], axis=1)
    pos = tf.range(length)[None, :]
    can_skip = tf.logical_and(tf.logical_and(tf.not_equal(ext, blank), tf.not_equal(ext, prev2)), pos >= 2)
    lp_ext = tf.gather(log_probs, tf.broadcast_to(ext[None], [tf.shape(log_probs)[0], n, length]), axis=2,
                       batch_dims=2)  # (T, N, L)
    neg_inf = tf.constant(_NEG_INF, dtype)
    alpha0 = tf.where(pos < tf.minimum(2, 2 * tg_len[:, None] + 1), lp_ext[0], neg_inf)

    def shift(a: tf.Tensor, k: int) -> tf.Tensor:
        return tf.concat([tf.fill([n, k], neg_inf), a[:, :-k]], axis=1)

    def step(alpha: tf.Tensor, inputs: tuple) -> tf.Tensor:
        lp_t, t = inputs
        skip = tf.where(can_skip, shift(alpha, 2), neg_inf)
        new = _lse3(alpha, shift(alpha, 1), skip) + lp_t
        return tf.where((t < in_len)[:, None], new, alpha)

    steps = tf.range(1, tf.shape(log_probs)[0])
    alpha = tf.foldl(step, (lp_ext[1:], steps), initializer=alpha0)
    last = tf.gather(alpha, 2 * tg_len, axis=1, batch_dims=1)
    before = tf.gather(alpha, tf.maximum(2 * tg_len - 1, 0), axis=1, batch_dims=1)
    before = tf.where(tg_len > 0, before, neg_inf)
    return -_lse3(last, before, tf.fill(tf.shape(last), neg_inf))


def _ms_gradient_term(log_probs: tf.Tensor, input_lengths: tf.Tensor) -> tf.Tensor:
    """A per-sample term of value 0 whose gradient adds ``exp(log_probs)`` over the valid time steps."""
    e = tf.exp(log_probs)
    valid = tf.cast(tf.range(tf.shape(log_probs)[0])[:, None] < tf.cast(input_lengths, tf.int32)[None, :], e.dtype)
    return tf.reduce_sum((e - tf.stop_gradient(e)) * valid[..., None], axis=[0, 2])


class CTCLoss(LossBase):
    """The CTC loss of ``(T, N, C)`` (or unbatched ``(T, C)``) log-probabilities against padded targets.

    Args:
        blank: the blank label, in ``[0, C)``.
        reduction: ``'mean'`` (each loss divided by its target length, then the batch mean), ``'sum'`` or
            ``'none'``.
        zero_infinity: replace infinite losses (impossible alignments) and their gradients by zero.

    Inputs:
        log_probs: a float Tensor ``(T, N, C)`` or ``(T, C)``.
        targets: an int Tensor ``(N, S)`` (``(S,)`` or ``(1, S)`` with unbatched ``log_probs``).
        input_lengths: an int Tensor or tuple ``(N,)``.
        target_lengths: an int Tensor or tuple ``(N,)``.

    Outputs:
        The reduced loss, or with ``'none'`` the per-sample losses ``(N,)``.

    Raises:
        TypeError: when ``log_probs`` or ``targets`` is not a Tensor, or ``zero_infinity`` is not a bool.
        ValueError: for a bad ``reduction`` or ``blank``, or targets of a wrong rank.

    Example:
        >>> CTCLoss(blank=0).blank
        0
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(reduction)
        if not isinstance(zero_infinity, bool):
            raise TypeError(f"For '{self.cls_name}', the 'zero_infinity' must be bool, but got "
                            f"{type(zero_infinity).__name__}.")
        if isinstance(blank, bool) or not isinstance(blank, int) or blank < 0:
            raise ValueError(f"For '{self.cls_name}', the 'blank' must be a non-negative int, but got {blank!r}.")
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def construct(self, log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any) -> Tensor:
        name = self.cls_name
        check_is_tensor("log_probs", log_probs, name)
        check_is_tensor("targets", targets, name)
        lp, tg = to_tf(log_probs), to_tf(targets)
        if not lp.dtype.is_floating:
            raise TypeError(f"For '{name}', the dtype of 'log_probs' must be float, but got {lp.dtype.name}.")
        if not tg.dtype.is_integer:
            raise TypeError(f"For '{name}', the dtype of 'targets' must be int32 or int64, but got {tg.dtype.name}.")
        unbatched = lp.shape.rank == 2
        if unbatched:
            if tg.shape.rank not in (1, 2) or (tg.shape.rank == 2 and tg.shape[0] not in (1, None)):
                raise ValueError(f"For '{name}', when the shape of log_probs is (T, C), the targets must be 1-D or "
                                 f"(1, S), but got shape {tuple(tg.shape.as_list())}.")
            tg = tg[None] if tg.shape.rank == 1 else tg
            lp = lp[:, None, :]
        elif lp.shape.rank != 3:
            raise ValueError(f"For '{name}', the rank of 'log_probs' must be 3, but got {lp.shape.rank}.")
        classes = lp.shape[-1]
        if classes is not None and self.blank >= classes:
            raise ValueError(f"For '{name}', the 'blank' must be in range [0, {classes}), but got {self.blank}.")
        in_len = tf.reshape(to_tf(input_lengths), [-1])
        tg_len = tf.reshape(to_tf(target_lengths), [-1])
        nll = ctc_neg_log_likelihood(lp, tg, in_len, tg_len, self.blank)
        nll = nll + _ms_gradient_term(lp, in_len)
        if self.zero_infinity:
            finite = tf.math.is_finite(nll)
            nll = tf.where(finite, nll, tf.zeros_like(nll))
        if self.reduction == "mean":
            out = tf.reduce_mean(nll / tf.cast(tf.maximum(tg_len, 1), nll.dtype))
        elif self.reduction == "sum":
            out = tf.reduce_sum(nll)
        else:
            out = nll
        if unbatched and self.reduction == "none":
            out = out[0]
        return _wrap(out)

"""``nn.CTCLoss`` (tfspore/nn/loss/_ctc.py), against a brute-force sum over all alignments."""
import itertools

import numpy as np
import pytest
import tensorflow as tf

from tfspore import Tensor, nn


def _collapse(path, blank):
    out, prev = [], None
    for p in path:
        if p != prev and p != blank:
            out.append(p)
        prev = p
    return out


def _brute_nll(lp, target, t_len, blank):
    """-log of the summed probability of every length-``t_len`` path that collapses to ``target``."""
    total = 0.0
    for path in itertools.product(range(lp.shape[-1]), repeat=t_len):
        if _collapse(path, blank) == list(target):
            total += np.exp(sum(lp[t, c] for t, c in enumerate(path)))
    return -np.log(total) if total > 0 else np.inf


def _data(seed=0):
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal((5, 3, 4))
    lp = (logits - np.log(np.exp(logits).sum(-1, keepdims=True))).astype(np.float32)
    targets = np.array([[1, 2, 2], [3, 0, 0], [2, 2, 0]], np.int32)
    return lp, targets, np.array([5, 3, 4], np.int32), np.array([3, 1, 2], np.int32)


@pytest.mark.parametrize("blank", [0, 3])
def test_none_reduction_matches_brute_force(mode, blank):
    lp, targets, il, tl = _data()
    if blank == 3:
        targets = np.where(targets == 3, 0, targets)
    got = nn.CTCLoss(blank=blank, reduction="none")(Tensor(lp), Tensor(targets), Tensor(il), Tensor(tl)).asnumpy()
    want = [_brute_nll(lp[:, n], targets[n, :tl[n]], il[n], blank) for n in range(3)]
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_reductions_zero_infinity_and_unbatched():
    lp, targets, il, tl = _data()
    args = (Tensor(lp), Tensor(targets), Tensor(il), Tensor(tl))
    per = nn.CTCLoss(reduction="none")(*args).asnumpy()
    np.testing.assert_allclose(nn.CTCLoss()(*args).asnumpy(), np.mean(per / tl), rtol=1e-6)
    np.testing.assert_allclose(nn.CTCLoss(reduction="sum")(*args).asnumpy(), per.sum(), rtol=1e-6)
    # "1 1" needs a blank between the repeats: 3 steps cannot emit 3 labels "1 1 1"
    bad = np.array([[1, 1, 1], [3, 0, 0], [2, 2, 0]], np.int32)
    il_short = np.array([3, 3, 4], np.int32)
    inf = nn.CTCLoss(reduction="none")(Tensor(lp), Tensor(bad), Tensor(il_short), Tensor(tl)).asnumpy()
    assert np.isinf(inf[0]) and np.isfinite(inf[1:]).all()
    zeroed = nn.CTCLoss(reduction="none", zero_infinity=True)
    x = tf.Variable(lp)
    with tf.GradientTape() as tape:
        out = tf.convert_to_tensor(zeroed(Tensor(x), Tensor(bad), Tensor(il_short), Tensor(tl)))
        loss = tf.reduce_sum(out)
    np.testing.assert_allclose(out.numpy(), np.concatenate([[0.0], inf[1:]]), rtol=1e-6)
    grad = tape.gradient(loss, x).numpy()
    assert np.isfinite(grad).all() and np.all(grad[:, 0] == 0)
    single = nn.CTCLoss(reduction="none")(Tensor(lp[:, 0]), Tensor(targets[0]), Tensor(il[:1]), Tensor(tl[:1]))
    np.testing.assert_allclose(single.asnumpy(), per[0], rtol=1e-6)


def test_gradient_through_log_softmax_is_the_true_gradient():
    lp, targets, il, tl = _data(1)
    logits = tf.Variable(lp)
    loss_fn = nn.CTCLoss(reduction="sum")

    def loss(z):
        return tf.convert_to_tensor(loss_fn(Tensor(tf.nn.log_softmax(z)), Tensor(targets), Tensor(il), Tensor(tl)))

    with tf.GradientTape() as tape:
        value = loss(logits)
    grad = tape.gradient(value, logits).numpy()
    eps = 1e-3
    base = lp.astype(np.float64)
    for idx in [(0, 0, 1), (2, 1, 3), (4, 2, 0)]:
        up, down = base.copy(), base.copy()
        up[idx] += eps
        down[idx] -= eps
        numeric = (loss(tf.constant(up, tf.float32)).numpy() - loss(tf.constant(down, tf.float32)).numpy()) / (2 * eps)
        np.testing.assert_allclose(grad[idx], numeric, rtol=2e-2, atol=2e-3)


def test_errors():
    lp, targets, il, tl = _data()
    with pytest.raises(TypeError, match="'zero_infinity' must be bool"):
        nn.CTCLoss(zero_infinity=1)
    with pytest.raises(ValueError, match="For 'CTCLoss', the 'reduction' must be one of \\['mean', 'sum', "
                                         "'none'\\], but got 'avg'"):
        nn.CTCLoss(reduction="avg")
    with pytest.raises(ValueError, match="'blank' must be in range \\[0, 4\\), but got 4"):
        nn.CTCLoss(blank=4)(Tensor(lp), Tensor(targets), Tensor(il), Tensor(tl))
    with pytest.raises(TypeError, match="'targets'"):
        nn.CTCLoss()(Tensor(lp), targets, Tensor(il), Tensor(tl))

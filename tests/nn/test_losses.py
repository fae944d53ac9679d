"""Behaviour of the loss Cells: formulas against numpy, reductions, weights, argument errors, both modes.

Values are checked against numpy formulas here; tests/parity/test_loss_metric_parity.py compares
with real MindSpore.
"""
import logging

import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn

_RNG = np.random.default_rng(11)
X = _RNG.standard_normal((4, 3)).astype(np.float32)
Y = _RNG.standard_normal((4, 3)).astype(np.float32)


def _np(t):
    return t.asnumpy() if hasattr(t, "asnumpy") else np.asarray(t)


def _reduce(x, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction](x)


def _close(a, b, tol=1e-5):
    np.testing.assert_allclose(_np(a), b, rtol=tol, atol=tol)


def _log_softmax(x, axis=1):
    return x - np.log(np.exp(x).sum(axis, keepdims=True))


# ---------------------------------------------------------------------------------------- formulas
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses_match_formulas(mode, reduction):
    d = X - Y
    ad = np.abs(d)
    _close(nn.MSELoss(reduction)(Tensor(X), Tensor(Y)), _reduce(d ** 2, reduction))
    _close(nn.L1Loss(reduction)(Tensor(X), Tensor(Y)), _reduce(ad, reduction))
    _close(nn.MAELoss(reduction)(Tensor(X), Tensor(Y)), _reduce(ad, reduction))
    smooth = np.where(ad < 0.5, 0.5 * ad ** 2 / 0.5, ad - 0.25)
    _close(nn.SmoothL1Loss(beta=0.5, reduction=reduction)(Tensor(X), Tensor(Y)), _reduce(smooth, reduction))
    huber = np.where(ad < 0.8, 0.5 * ad ** 2, 0.8 * (ad - 0.4))
    _close(nn.HuberLoss(reduction, delta=0.8)(Tensor(X), Tensor(Y)), _reduce(huber, reduction))
    margin = np.log1p(np.exp(-np.sign(Y) * X))
    _close(nn.SoftMarginLoss(reduction)(Tensor(X), Tensor(np.sign(Y))), _reduce(margin, reduction))


def test_rmse_loss(mode):
    _close(nn.RMSELoss()(Tensor(X), Tensor(Y)), np.sqrt(np.mean((X - Y) ** 2)))


def test_smooth_l1_default_reduction_is_none():
    assert nn.SmoothL1Loss()(Tensor(X), Tensor(Y)).shape == (4, 3)


def test_broadcasting_labels(mode):
    _close(nn.L1Loss("none")(Tensor(X), Tensor(Y[0])), np.abs(X - Y[0]))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_class_indices(mode, reduction):
    y = np.array([0, 2, 1, 2], np.int32)
    w = np.array([0.5, 1.0, 2.0], np.float32)
    logp = _log_softmax(X)
    picked = -logp[np.arange(4), y]
    _close(nn.CrossEntropyLoss(reduction=reduction)(Tensor(X), Tensor(y)), _reduce(picked, reduction))
    # class weights: 'mean' divides by the sum of the picked weights
    weighted = picked * w[y]
    expect = weighted.sum() / w[y].sum() if reduction == "mean" else _reduce(weighted, reduction)
    _close(nn.CrossEntropyLoss(weight=Tensor(w), reduction=reduction)(Tensor(X), Tensor(y)), expect)


def test_cross_entropy_ignore_index_and_label_smoothing(mode):
    y = np.array([0, -100, 1, 2], np.int32)
    logp = _log_softmax(X)
    keep = y != -100
    nll = -logp[np.arange(4)[keep], y[keep]]
    smooth = -logp[keep].sum(1)
    eps = 0.1
    expect = (1 - eps) * nll.sum() / keep.sum() + eps / 3 * smooth.sum() / keep.sum()
    _close(nn.CrossEntropyLoss(label_smoothing=eps)(Tensor(X), Tensor(y)), expect)
    per_sample = nn.CrossEntropyLoss(reduction="none")(Tensor(X), Tensor(y))
    assert _np(per_sample)[1] == 0.0


def test_cross_entropy_probabilities(mode):
    p = np.exp(Y) / np.exp(Y).sum(1, keepdims=True)
    expect = -(_log_softmax(X) * p).sum(1)
    _close(nn.CrossEntropyLoss(reduction="none")(Tensor(X), Tensor(p.astype(np.float32))), expect)
    _close(nn.CrossEntropyLoss()(Tensor(X), Tensor(p.astype(np.float32))), expect.mean())


def test_cross_entropy_spatial(mode):
    x = _RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    y = _RNG.integers(0, 3, (2, 4, 5)).astype(np.int32)
    logp = _log_softmax(x)
    picked = -np.take_along_axis(logp, y[:, None], 1)[:, 0]
    out = nn.CrossEntropyLoss(reduction="none")(Tensor(x), Tensor(y))
    assert out.shape == (2, 4, 5)
    _close(out, picked)


def test_nll_loss(mode):
    y = np.array([2, 0, 1, 1], np.int32)
    logp = _log_softmax(X)
    w = np.array([1.0, 0.2, 3.0], np.float32)
    _close(nn.NLLLoss()(Tensor(logp), Tensor(y)), -logp[np.arange(4), y].mean())
    _close(nn.NLLLoss(weight=Tensor(w), ignore_index=0, reduction="sum")(Tensor(logp), Tensor(y)),
           -(logp[np.arange(4), y] * w[y] * (y != 0)).sum())


def test_softmax_cross_entropy_with_logits(mode):
    y = np.array([0, 2, 1, 2], np.int32)
    picked = -_log_softmax(X)[np.arange(4), y]
    _close(nn.SoftmaxCrossEntropyWithLogits(sparse=True)(Tensor(X), Tensor(y)), picked)
    _close(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(Tensor(X), Tensor(y)), picked.mean())
    onehot = np.eye(3, dtype=np.float32)[y]
    _close(nn.SoftmaxCrossEntropyWithLogits(reduction="sum")(Tensor(X), Tensor(onehot)), picked.sum())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy(mode, reduction):
    p = 1 / (1 + np.exp(-X))
    t = (Y > 0).astype(np.float32)
    w = np.array([1.0, 2.0, 0.5], np.float32)
    bce = -(t * np.log(p) + (1 - t) * np.log(1 - p))
    _close(nn.BCELoss(weight=Tensor(w), reduction=reduction)(Tensor(p.astype(np.float32)), Tensor(t)),
           _reduce(bce * w, reduction))
    pw = np.array([3.0, 1.0, 0.5], np.float32)
    bcel = -(pw * t * np.log(p) + (1 - t) * np.log(1 - p)) * w
    _close(nn.BCEWithLogitsLoss(reduction, weight=Tensor(w), pos_weight=Tensor(pw))(Tensor(X), Tensor(t)),
           _reduce(bcel, reduction), tol=1e-4)


def test_bce_clamps_log():
    out = nn.BCELoss(reduction="none")(Tensor(np.array([0.0, 1.0], np.float32)), Tensor(np.array([1.0, 0.0],
                                                                                                   np.float32)))
    _close(out, [-np.log(1e-12)] * 2, tol=1e-4)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none", "batchmean"])
def test_kl_div(mode, reduction):
    logp = _log_softmax(X)
    q = np.exp(Y) / np.exp(Y).sum(1, keepdims=True)
    q[0, 0] = 0.0
    elem = np.where(q > 0, q * (np.log(np.where(q > 0, q, 1)) - logp), 0.0)
    expect = elem.sum() / 4 if reduction == "batchmean" else _reduce(elem, reduction)
    _close(nn.KLDivLoss(reduction)(Tensor(logp.astype(np.float32)), Tensor(q.astype(np.float32))), expect)


def test_cosine_embedding_loss(mode):
    y = np.array([1, -1, -1, 0], np.int32)
    cos = (X * Y).sum(1) / np.linalg.norm(X, axis=1) / np.linalg.norm(Y, axis=1)
    elem = np.where(y == 1, 1 - cos, np.where(y == -1, np.maximum(cos - 0.1, 0), 0))
    _close(nn.CosineEmbeddingLoss(margin=0.1, reduction="none")(Tensor(X), Tensor(Y), Tensor(y)), elem)
    _close(nn.CosineEmbeddingLoss(margin=0.1)(Tensor(X), Tensor(Y), Tensor(y)), elem.mean())


def test_margin_ranking_loss(mode):
    t = np.sign(Y)
    _close(nn.MarginRankingLoss(0.2, "sum")(Tensor(X), Tensor(Y), Tensor(t)),
           np.maximum(-t * (X - Y) + 0.2, 0).sum())


def _multilabel_margin_reference(x, y):
    out = []
    for xs, ys in zip(x, y):
        targets = []
        for v in ys:
            if v < 0:
                break
            targets.append(v)
        total = sum(max(0.0, 1 - (xs[j] - xs[i])) for j in targets for i in range(len(xs)) if i not in targets)
        out.append(total / len(xs))
    return np.array(out, np.float32)


def test_multilabel_margin_loss(mode):
    x = _RNG.standard_normal((3, 5)).astype(np.float32)
    y = np.array([[3, 0, -1, 1, 1], [1, 2, 3, 4, 0], [4, -1, 2, 2, 2]], np.int32)
    ref = _multilabel_margin_reference(x, y)
    _close(nn.MultilabelMarginLoss("none")(Tensor(x), Tensor(y)), ref)
    _close(nn.MultilabelMarginLoss()(Tensor(x), Tensor(y)), ref.mean())
    _close(nn.MultilabelMarginLoss("none")(Tensor(x[0]), Tensor(y[0])), ref[0])


def test_dice_losses(mode, caplog):
    p = 1 / (1 + np.exp(-X))
    t = (Y > 0).astype(np.float32)
    dice = 1 - 2 * (p * t).sum() / ((p * p).sum() + (t * t).sum() + 1e-5)
    _close(nn.DiceLoss()(Tensor(p.astype(np.float32)), Tensor(t)), dice)
    s = np.exp(X) / np.exp(X).sum(-1, keepdims=True)
    per_class = [1 - 2 * (s[:, i] * t[:, i]).sum() / ((s[:, i] ** 2).sum() + (t[:, i] ** 2).sum() + 1e-5)
                 for i in range(3)]
    _close(nn.MultiClassDiceLoss()(Tensor(X), Tensor(t)), np.mean(per_class))
    _close(nn.MultiClassDiceLoss(ignore_indiex=1)(Tensor(X), Tensor(t)), (per_class[0] + per_class[2]) / 3)


# --------------------------------------------------------------------------------- LossBase and dtypes
def test_loss_base_get_loss_weights_and_axis(mode):
    class Weighted(nn.LossBase):
        def construct(self, logits, labels, weights):
            x = (logits - labels).abs()
            return self.get_loss(x, weights), self.get_axis(x)

    w = np.array([[0.0], [1.0], [2.0], [3.0]], np.float32)
    for reduction in ("mean", "sum", "none"):
        out, axis = Weighted(reduction)(Tensor(X), Tensor(Y), Tensor(w))
        _close(out, _reduce(np.abs(X - Y) * w, reduction))
        assert tuple(axis) == (0, 1)


def test_loss_base_default_and_float16():
    class Half(nn.LossBase):
        def construct(self, x):
            return self.get_loss(x, 2.0)

    out = Half()(Tensor(np.array([1.0, 2.0], np.float16)))
    assert out.dtype == ms.float16
    assert float(out) == 3.0
    with pytest.raises(NotImplementedError):
        nn.LossBase()(Tensor(X), Tensor(Y))


def test_losses_trace_once_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    loss = nn.CrossEntropyLoss(label_smoothing=0.1)
    y = Tensor(np.array([0, 1, 2, 0], np.int32))
    first = loss(Tensor(X), y)
    second = loss(Tensor(X * 2), y)
    assert len(loss._compiled) == 1
    assert float(first) != float(second)


def test_loss_trains_a_network(mode):
    net = nn.Dense(3, 3)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 0.5))
    y = Tensor(np.array([0, 1, 2, 0], np.int32))
    losses = [float(train(Tensor(X), y)) for _ in range(5)]
    assert losses[-1] < losses[0]


def test_module_paths_and_exports():
    from tfspore.nn.loss import loss as loss_mod
    from tfspore.nn.loss.loss import LossBase, CrossEntropyLoss
    assert LossBase is nn.LossBase and CrossEntropyLoss is nn.CrossEntropyLoss
    for name in ("CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "HuberLoss",
                 "SmoothL1Loss", "CosineEmbeddingLoss", "DiceLoss", "MultiClassDiceLoss", "SoftMarginLoss",
                 "MultilabelMarginLoss"):
        assert name in loss_mod.__all__ and name in nn.__all__


def test_deprecated_dice_logs_once(caplog):
    from tfspore.nn.loss import _dice
    _dice._DEPRECATED.discard("DiceLoss")
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        nn.DiceLoss()
        nn.DiceLoss()
    msgs = [r.getMessage() for r in caplog.records if "DiceLoss" in r.getMessage()]
    assert msgs == ["'DiceLoss' is deprecated from version 2.8.0 and will be removed in a future version."]


# ------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("factory,err,words", [
    (lambda: nn.MSELoss(reduction="avg"), ValueError, ["MSELoss", "reduction", "avg"]),
    (lambda: nn.BCEWithLogitsLoss(reduction="avg"), ValueError, ["BCEWithLogitsLoss", "reduction", "avg"]),
    (lambda: nn.KLDivLoss("avg"), ValueError, ["KLDivLoss", "reduction", "avg"]),
    (lambda: nn.SoftMarginLoss("avg"), ValueError, ["SoftMarginLoss", "reduction", "avg"]),
    (lambda: nn.SmoothL1Loss(beta=-2.0), RuntimeError, ["SmoothL1Loss", "beta", "-2"]),
    (lambda: nn.SmoothL1Loss(beta=0), RuntimeError, ["SmoothL1Loss", "beta", "0"]),
    (lambda: nn.SmoothL1Loss(beta="1"), TypeError, ["SmoothL1Loss", "beta", "str"]),
    (lambda: nn.HuberLoss(delta=0.0), ValueError, ["HuberLoss", "delta", "0.0"]),
    (lambda: nn.HuberLoss(delta="1"), TypeError, ["HuberLoss", "delta", "str"]),
    (lambda: nn.CrossEntropyLoss(label_smoothing=1.5), ValueError, ["CrossEntropyLoss", "label_smoothing", "1.5"]),
    (lambda: nn.CrossEntropyLoss(label_smoothing=0), TypeError, ["CrossEntropyLoss", "label_smoothing", "int"]),
    (lambda: nn.CrossEntropyLoss(ignore_index=None), TypeError, ["CrossEntropyLoss", "ignore_index", "NoneType"]),
    (lambda: nn.CrossEntropyLoss(weight=[1.0, 2.0]), TypeError, ["CrossEntropyLoss", "weight", "list"]),
    (lambda: nn.NLLLoss(weight=Tensor(np.ones(2, np.int32))), TypeError, ["NLLLoss", "weight", "int32"]),
    (lambda: nn.BCELoss(weight=np.ones(2)), TypeError, ["BCELoss", "weight", "ndarray"]),
    (lambda: nn.BCEWithLogitsLoss(pos_weight=ms.Parameter(Tensor(np.ones(2, np.float32)), name="p")), TypeError,
     ["BCEWithLogitsLoss", "pos_weight", "Parameter"]),
    (lambda: nn.CosineEmbeddingLoss(margin=2.0), ValueError, ["CosineEmbeddingLoss", "margin", "2.0"]),
    (lambda: nn.CosineEmbeddingLoss(margin=1), TypeError, ["CosineEmbeddingLoss", "margin", "int"]),
    (lambda: nn.MarginRankingLoss(margin=1), TypeError, ["MarginRankingLoss", "margin", "int"]),
    (lambda: nn.DiceLoss(smooth=-1.0), ValueError, ["DiceLoss", "smooth", "-1.0"]),
    (lambda: nn.MultiClassDiceLoss(activation="gelu"), ValueError, ["MultiClassDiceLoss", "activation", "gelu"]),
    (lambda: nn.MultiClassDiceLoss(weights=Tensor(np.ones(3, np.float32))), ValueError,
     ["MultiClassDiceLoss", "weights", "1"]),
    (lambda: nn.MultiClassDiceLoss(ignore_indiex="0"), TypeError, ["MultiClassDiceLoss", "ignore_indiex", "str"]),
    (lambda: nn.MultilabelMarginLoss("avg"), ValueError, ["MultilabelMarginLoss", "reduction", "avg"]),
    (lambda: nn.SoftmaxCrossEntropyWithLogits(sparse="yes"), TypeError,
     ["SoftmaxCrossEntropyWithLogits", "sparse", "yes"]),
])
def test_bad_arguments(factory, err, words):
    with pytest.raises(err) as info:
        factory()
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize("call,err,words", [
    (lambda: nn.MSELoss()(X, Tensor(Y)), TypeError, ["MSELoss", "logits", "ndarray"]),
    (lambda: nn.CrossEntropyLoss()(Tensor(X), Tensor(np.array([0, 1, 2, 0], np.int64))), TypeError,
     ["CrossEntropyLoss", "labels", "int64"]),
    (lambda: nn.CrossEntropyLoss()(Tensor(X), Tensor(np.array([0, 1], np.int32))), ValueError,
     ["CrossEntropyLoss", "(4, 3)", "(2,)"]),
    (lambda: nn.CrossEntropyLoss()(Tensor(X), Tensor(np.zeros((4, 3, 1), np.float32))), ValueError,
     ["CrossEntropyLoss", "rank"]),
    (lambda: nn.DiceLoss()(Tensor(X), Tensor(Y.T)), ValueError, ["DiceLoss", "(3, 4)", "(4, 3)"]),
    (lambda: nn.DiceLoss()(Tensor(X.astype(np.uint8)), Tensor(X.astype(np.uint8))), TypeError,
     ["DiceLoss", "uint8"]),
    (lambda: nn.MultiClassDiceLoss()(Tensor(X[0]), Tensor(Y[0])), ValueError, ["MultiClassDiceLoss", "dimension"]),
    (lambda: nn.CosineEmbeddingLoss()(Tensor(X), Tensor(Y[:, :2]), Tensor(np.ones(4, np.int32))), ValueError,
     ["CosineEmbeddingLoss", "shape"]),
])
def test_bad_inputs(call, err, words):
    with pytest.raises(err) as info:
        call()
    for w in words:
        assert w in str(info.value)


def test_loss_base_primitives_for_custom_losses(mode):
    class Custom(nn.LossBase):
        def construct(self, logits, labels):
            x = self.mul(logits - labels, logits - labels)
            return self.reduce_sum(self.cast(x, ms.float32), (0, 1)) + self.reduce_mean(x, (0, 1))

    _close(Custom()(Tensor(X), Tensor(Y)), ((X - Y) ** 2).sum() + ((X - Y) ** 2).mean())

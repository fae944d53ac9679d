"""Parity of tfspore's losses and metrics with real MindSpore 2.10.

Losses: the same numpy inputs go to both frameworks; the loss and its gradient with respect to the
first input (the logits) must agree within 1e-5 (relative and absolute), for every reduction, in
PYNATIVE mode, and in GRAPH mode for one reduction per loss. Metrics: several ``update`` calls with
the same numpy (or Tensor) inputs, then ``eval``, must give the same values.

MindSpore 2.10's CPU build has no kernel for SoftMarginLoss or MultilabelMarginLoss; those two are
checked against numpy formulas in tests/nn/test_losses.py.
"""
import numpy as np
import pytest

import tfspore as ts
from tfspore import nn as tnn
from tfspore import train as ttrain

ms = pytest.importorskip("mindspore")
from mindspore import nn as mnn  # noqa: E402
from mindspore import train as mtrain  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore, np_value as _np  # noqa: E402,F401  (autouse fixture)

RTOL = 1e-5
ATOL = 1e-5


def _close(actual, expected, rtol=RTOL, atol=ATOL):
    """Compare nested results (tuples/lists of arrays, numbers) elementwise."""
    if isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple)) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            _close(a, e, rtol, atol)
        return
    a, e = _np(actual), _np(expected)
    assert a.shape == e.shape, (a.shape, e.shape)
    np.testing.assert_allclose(a, e, rtol=rtol, atol=atol)


# ------------------------------------------------------------------------------------------------ inputs
_RNG = np.random.default_rng(2024)


def _f32(*shape, lo=None, hi=None):
    if lo is None:
        return _RNG.standard_normal(shape).astype(np.float32)
    return _RNG.uniform(lo, hi, shape).astype(np.float32)


def _idx(n, c, *rest, ignore=None):
    y = _RNG.integers(0, c, (n, *rest)).astype(np.int32)
    if ignore is not None:
        y.reshape(-1)[::3] = ignore
    return y


def _probs(*shape, axis=1):
    p = _RNG.uniform(0.1, 1.0, shape).astype(np.float32)
    return (p / p.sum(axis=axis, keepdims=True)).astype(np.float32)


def _log_probs(*shape):
    x = _f32(*shape)
    return (x - np.log(np.exp(x).sum(1, keepdims=True))).astype(np.float32)


_W4 = np.array([0.5, 1.0, 2.0, 0.3], np.float32)
_W34 = _f32(3, 4, lo=0.5, hi=2)
_POS_W4 = _f32(4, lo=0.5, hi=3)
_DICE_W = _f32(4, 1, lo=0.5, hi=2)
_KL_LABELS = _probs(3, 4)
_KL_LABELS[0, 1] = 0.0
_COS_LABELS = np.array([1, -1, 1, -1, 0], np.int32)

# name -> (factory(nn, T, reduction), inputs, reductions); T builds the framework's Tensor.
_R3 = ("mean", "sum", "none")
LOSS_CASES = {
    "MSELoss": (lambda nn, T, r: nn.MSELoss(reduction=r), [_f32(3, 4), _f32(3, 4)], _R3),
    "MSELoss_broadcast": (lambda nn, T, r: nn.MSELoss(reduction=r), [_f32(3, 4), _f32(4)], _R3),
    "L1Loss": (lambda nn, T, r: nn.L1Loss(reduction=r), [_f32(3, 4), _f32(3, 4)], _R3),
    "MAELoss": (lambda nn, T, r: nn.MAELoss(reduction=r), [_f32(3, 4), _f32(3, 4)], _R3),
    "RMSELoss": (lambda nn, T, r: nn.RMSELoss(), [_f32(3, 4), _f32(3, 4)], ("mean",)),
    "SmoothL1Loss": (lambda nn, T, r: nn.SmoothL1Loss(beta=0.5, reduction=r), [_f32(3, 4), _f32(3, 4)], _R3),
    "HuberLoss": (lambda nn, T, r: nn.HuberLoss(reduction=r, delta=0.7), [_f32(3, 4), _f32(3, 4)], _R3),
    "SoftmaxCrossEntropyWithLogits": (lambda nn, T, r: nn.SoftmaxCrossEntropyWithLogits(reduction=r),
                                      [_f32(5, 4), _probs(5, 4)], _R3),
    "SoftmaxCrossEntropyWithLogits_sparse": (lambda nn, T, r: nn.SoftmaxCrossEntropyWithLogits(True, r),
                                             [_f32(5, 4), _idx(5, 4)], _R3),
    "CrossEntropyLoss": (lambda nn, T, r: nn.CrossEntropyLoss(reduction=r), [_f32(5, 4), _idx(5, 4)], _R3),
    "CrossEntropyLoss_weight_ignore_smooth": (
        lambda nn, T, r: nn.CrossEntropyLoss(weight=T(_W4), ignore_index=2, reduction=r, label_smoothing=0.1),
        [_f32(6, 4), _idx(6, 4, ignore=2)], _R3),
    "CrossEntropyLoss_probs": (lambda nn, T, r: nn.CrossEntropyLoss(weight=T(_W4), reduction=r, label_smoothing=0.2),
                               [_f32(5, 4), _probs(5, 4)], _R3),
    "CrossEntropyLoss_4d": (lambda nn, T, r: nn.CrossEntropyLoss(weight=T(_W4), reduction=r, label_smoothing=0.1),
                            [_f32(2, 4, 3, 2), _idx(2, 4, 3, 2)], _R3),
    "CrossEntropyLoss_3d": (lambda nn, T, r: nn.CrossEntropyLoss(ignore_index=0, reduction=r),
                            [_f32(2, 4, 5), _idx(2, 4, 5)], _R3),
    "CrossEntropyLoss_probs_3d": (lambda nn, T, r: nn.CrossEntropyLoss(reduction=r),
                                  [_f32(2, 4, 3), _probs(2, 4, 3)], _R3),
    "CrossEntropyLoss_1d": (lambda nn, T, r: nn.CrossEntropyLoss(reduction=r, label_smoothing=0.3),
                            [_f32(4), np.array(2, np.int32)], _R3),
    "NLLLoss": (lambda nn, T, r: nn.NLLLoss(reduction=r), [_log_probs(5, 4), _idx(5, 4)], _R3),
    "NLLLoss_1d": (lambda nn, T, r: nn.NLLLoss(weight=T(_W4), reduction=r),
                   [_log_probs(1, 4)[0], np.array(1, np.int32)], _R3),
    "NLLLoss_weight_ignore": (lambda nn, T, r: nn.NLLLoss(weight=T(_W4), ignore_index=1, reduction=r),
                              [_log_probs(6, 4), _idx(6, 4, ignore=1)], _R3),
    "NLLLoss_3d": (lambda nn, T, r: nn.NLLLoss(weight=T(_W4), reduction=r), [_log_probs(2, 4, 3), _idx(2, 4, 3)], _R3),
    "BCELoss": (lambda nn, T, r: nn.BCELoss(reduction=r), [_f32(3, 4, lo=0.05, hi=0.95), _f32(3, 4, lo=0, hi=1)],
                _R3),
    "BCELoss_weight": (lambda nn, T, r: nn.BCELoss(weight=T(_W34), reduction=r),
                       [_f32(3, 4, lo=0.05, hi=0.95), np.round(_f32(3, 4, lo=0, hi=1))], _R3),
    "BCEWithLogitsLoss": (lambda nn, T, r: nn.BCEWithLogitsLoss(reduction=r), [_f32(3, 4), _f32(3, 4, lo=0, hi=1)],
                          _R3),
    "BCEWithLogitsLoss_weights": (
        lambda nn, T, r: nn.BCEWithLogitsLoss(r, weight=T(_W34), pos_weight=T(_POS_W4)),
        [_f32(3, 4) * 3, np.round(_f32(3, 4, lo=0, hi=1))], _R3),
    "KLDivLoss": (lambda nn, T, r: nn.KLDivLoss(reduction=r), [_log_probs(3, 4), _KL_LABELS],
                  ("mean", "sum", "none", "batchmean")),
    "CosineEmbeddingLoss": (lambda nn, T, r: nn.CosineEmbeddingLoss(margin=0.2, reduction=r),
                            [_f32(5, 3), _f32(5, 3), _COS_LABELS], _R3),
    "MarginRankingLoss": (lambda nn, T, r: nn.MarginRankingLoss(margin=0.1, reduction=r),
                          [_f32(6), _f32(6), np.array([1, -1, 1, 1, -1, -1], np.float32)], _R3),
    "DiceLoss": (lambda nn, T, r: nn.DiceLoss(smooth=1e-4), [_f32(3, 4, lo=0, hi=1), np.round(_f32(3, 4, lo=0, hi=1))],
                 ("mean",)),
    "MultiClassDiceLoss": (lambda nn, T, r: nn.MultiClassDiceLoss(),
                           [_f32(3, 4), np.eye(4, dtype=np.float32)[[0, 2, 3]]], ("mean",)),
    "MultiClassDiceLoss_weights_ignore": (
        lambda nn, T, r: nn.MultiClassDiceLoss(weights=T(_DICE_W), ignore_indiex=1,
                                               activation="sigmoid"),
        [_f32(2, 4, 3), np.eye(4, dtype=np.float32)[[[0, 1, 3], [2, 2, 0]]].transpose(0, 2, 1).copy()], ("mean",)),
}

LOSS_PARAMS = [(name, r) for name, (_, _, rs) in LOSS_CASES.items() for r in rs]


def _loss_and_grad(fw, nn, name, reduction):
    factory, inputs, _ = LOSS_CASES[name]
    loss = factory(nn, fw.Tensor, reduction)
    args = [fw.Tensor(a) for a in inputs]
    value = loss(*args)
    grad = fw.grad(loss, grad_position=0)(*args)
    return value, grad


@pytest.mark.parametrize("name,reduction", LOSS_PARAMS)
def test_loss_forward_and_grad(name, reduction):
    ms_val, ms_grad = _loss_and_grad(ms, mnn, name, reduction)
    ts_val, ts_grad = _loss_and_grad(ts, tnn, name, reduction)
    _close(ts_val, ms_val)
    assert str(ts_val.dtype) == str(ms_val.dtype)
    _close(ts_grad, ms_grad)


@pytest.mark.parametrize("name", list(LOSS_CASES))
def test_loss_graph_mode(name):
    reduction = LOSS_CASES[name][2][-1]
    ms_val, ms_grad = _loss_and_grad(ms, mnn, name, reduction)
    ts.set_context(mode=ts.GRAPH_MODE)
    ts_val, ts_grad = _loss_and_grad(ts, tnn, name, reduction)
    _close(ts_val, ms_val)
    _close(ts_grad, ms_grad)


@pytest.mark.parametrize("name", list(LOSS_CASES))
def test_loss_repr_and_cells(name):
    factory, _, reductions = LOSS_CASES[name]
    m, t = factory(mnn, ms.Tensor, reductions[0]), factory(tnn, ts.Tensor, reductions[0])
    assert repr(t) == repr(m)
    assert [n for n, _ in t.cells_and_names()] == [n for n, _ in m.cells_and_names()]


def test_loss_base_get_loss_with_weights():
    def build(nn):
        class WeightedL1(nn.LossBase):
            def construct(self, logits, labels, weights):
                x = (logits - labels).abs()
                return self.get_loss(x, weights), self.get_axis(x)
        return WeightedL1
    x, y, w = _f32(3, 4), _f32(3, 4), _f32(3, 1, lo=0, hi=2)
    for reduction in _R3:
        m_out, m_axis = build(mnn)(reduction)(ms.Tensor(x), ms.Tensor(y), ms.Tensor(w))
        t_out, t_axis = build(tnn)(reduction)(ts.Tensor(x), ts.Tensor(y), ts.Tensor(w))
        _close(t_out, m_out)
        assert tuple(t_axis) == tuple(m_axis)


@pytest.mark.parametrize("factory", [
    lambda nn: nn.MSELoss(reduction="avg"),
    lambda nn: nn.SmoothL1Loss(beta="a"),
    lambda nn: nn.CrossEntropyLoss(label_smoothing=1),
    lambda nn: nn.CrossEntropyLoss(label_smoothing=1.5),
    lambda nn: nn.CrossEntropyLoss(ignore_index=1.0),
    lambda nn: nn.CrossEntropyLoss(weight=np.ones(3, np.float32)),
    lambda nn: nn.NLLLoss(reduction="batchmean"),
    lambda nn: nn.CosineEmbeddingLoss(margin=1.5),
    lambda nn: nn.CosineEmbeddingLoss(margin=0),
    lambda nn: nn.DiceLoss(smooth=0.0),
    lambda nn: nn.DiceLoss(smooth=1),
    lambda nn: nn.MultiClassDiceLoss(activation="gelu"),
    lambda nn: nn.MultiClassDiceLoss(activation=3),
    lambda nn: nn.SoftmaxCrossEntropyWithLogits(sparse=1),
    lambda nn: nn.MultilabelMarginLoss(reduction="batchmean"),
], ids=lambda f: "")
def test_loss_bad_argument_error_types(factory):
    with pytest.raises(Exception) as ms_err:
        factory(mnn)
    with pytest.raises(Exception) as ts_err:
        factory(tnn)
    assert type(ts_err.value) is type(ms_err.value)


@pytest.mark.parametrize("factory,call", [
    (lambda nn, T: nn.CrossEntropyLoss(), lambda T: (T(_f32(2, 3)), T(np.array([0, 1], np.int64)))),
    (lambda nn, T: nn.CrossEntropyLoss(), lambda T: (T(_f32(2, 3)), T(np.array([0, 1, 2], np.int32)))),
    (lambda nn, T: nn.CrossEntropyLoss(), lambda T: (T(np.ones((2, 3), np.int32)), T(np.array([0, 1], np.int32)))),
    (lambda nn, T: nn.MSELoss(), lambda T: (np.ones(2, np.float32), T(np.ones(2, np.float32)))),
    (lambda nn, T: nn.DiceLoss(), lambda T: (T(_f32(2, 3)), T(_f32(3, 2)))),
    (lambda nn, T: nn.MultiClassDiceLoss(), lambda T: (T(_f32(3)), T(_f32(3)))),
    (lambda nn, T: nn.SmoothL1Loss(beta=-1.0), lambda T: (T(_f32(3)), T(_f32(3)))),
    (lambda nn, T: nn.HuberLoss(delta=-1.0), lambda T: (T(_f32(3)), T(_f32(3)))),
    (lambda nn, T: nn.KLDivLoss("avg"), lambda T: (T(_f32(3)), T(_f32(3)))),
], ids=lambda f: "")
def test_loss_bad_input_error_types(factory, call):
    """Errors MindSpore raises when called; tfspore raises the same type, at construction or call."""
    with pytest.raises(Exception) as ms_err:
        factory(mnn, ms.Tensor)(*call(ms.Tensor)).asnumpy()  # MindSpore may raise when the value is read
    with pytest.raises(Exception) as ts_err:
        factory(tnn, ts.Tensor)(*call(ts.Tensor))
    assert type(ts_err.value) is type(ms_err.value)


# ----------------------------------------------------------------------------------------------- metrics
def _batches(seed, n_batches, make):
    rng = np.random.default_rng(seed)
    return [make(rng) for _ in range(n_batches)]


def _cls_batch(rng, n=6, c=4, onehot=False):
    y = rng.integers(0, c, n)
    return rng.uniform(size=(n, c)), (np.eye(c)[y] if onehot else y)


def _ml_batch(rng, n=5, c=3):
    return rng.integers(0, 2, (n, c)).astype(np.float32), rng.integers(0, 2, (n, c)).astype(np.float32)


def _seg_batch(rng, n=2, c=3, hw=(4, 4)):
    return rng.integers(0, 2, (n, c, *hw)), rng.integers(0, 2, (n, c, *hw))


METRIC_CASES = {
    "accuracy": (lambda m: m.Accuracy(), lambda r: _cls_batch(r)),
    "accuracy_onehot": (lambda m: m.Accuracy("classification"), lambda r: _cls_batch(r, onehot=True)),
    "accuracy_multilabel": (lambda m: m.Accuracy("multilabel"), _ml_batch),
    "loss": (lambda m: m.Loss(), lambda r: (r.uniform(size=(4,)),)),
    "precision": (lambda m: m.Precision(), lambda r: _cls_batch(r)),
    "precision_multilabel": (lambda m: m.Precision("multilabel"), _ml_batch),
    "recall": (lambda m: m.Recall(), lambda r: _cls_batch(r, onehot=True)),
    "recall_multilabel": (lambda m: m.Recall("multilabel"), _ml_batch),
    "f1": (lambda m: m.F1(), lambda r: _cls_batch(r)),
    "fbeta": (lambda m: m.Fbeta(0.5), lambda r: _cls_batch(r, onehot=True)),
    "mae": (lambda m: m.MAE(), lambda r: (r.uniform(size=(5, 2)), r.uniform(size=(5, 2)))),
    "mse": (lambda m: m.MSE(), lambda r: (r.uniform(size=(5,)), r.uniform(size=(5, 1)))),
    "top1": (lambda m: m.Top1CategoricalAccuracy(), lambda r: _cls_batch(r, c=6)),
    "top5": (lambda m: m.Top5CategoricalAccuracy(), lambda r: _cls_batch(r, c=8)),
    "topk": (lambda m: m.TopKCategoricalAccuracy(3), lambda r: _cls_batch(r, c=6, onehot=True)),
    "dice": (lambda m: m.Dice(1e-4), lambda r: (r.uniform(size=(3, 4)), r.integers(0, 2, (3, 4)))),
    "confusion_matrix": (lambda m: m.ConfusionMatrix(4), lambda r: _cls_batch(r)),
    "confusion_matrix_target": (lambda m: m.ConfusionMatrix(4, normalize="target"), lambda r: _cls_batch(r)),
    "confusion_matrix_prediction": (lambda m: m.ConfusionMatrix(4, normalize="prediction"), lambda r: _cls_batch(r)),
    "confusion_matrix_all_threshold": (lambda m: m.ConfusionMatrix(2, normalize="all", threshold=0.3),
                                       lambda r: (r.uniform(size=(8,)), r.integers(0, 2, 8))),
    "confusion_matrix_metric": (lambda m: m.ConfusionMatrixMetric(), _seg_batch),
    "confusion_matrix_metric_f1_skip": (lambda m: m.ConfusionMatrixMetric(False, "f1 score"), _seg_batch),
    "confusion_matrix_metric_mcc_calc": (lambda m: m.ConfusionMatrixMetric(True, "mcc", True, "mean"), _seg_batch),
    "confusion_matrix_metric_pt_calc_sum": (lambda m: m.ConfusionMatrixMetric(True, "pt", True, "sum"), _seg_batch),
    "confusion_matrix_metric_ba": (lambda m: m.ConfusionMatrixMetric(True, "balanced accuracy"), _seg_batch),
    "confusion_matrix_metric_mk": (lambda m: m.ConfusionMatrixMetric(True, "markedness", True, "sum"),
                                   _seg_batch),
    "perplexity": (lambda m: m.Perplexity(), lambda r: (_probs_np(r, 4, 5), r.integers(0, 5, 4))),
    "perplexity_ignore": (lambda m: m.Perplexity(ignore_label=1), lambda r: (_probs_np(r, 4, 5), r.integers(0, 5, 4))),
}


def _probs_np(rng, n, c):
    p = rng.uniform(0.1, 1, (n, c))
    return p / p.sum(1, keepdims=True)


def _run_metric(fw, mod, name, tensor_first):
    factory, make = METRIC_CASES[name]
    metric = factory(mod)
    for i, batch in enumerate(_batches(7, 3, make)):
        if tensor_first and i == 0:
            batch = tuple(fw.Tensor(b) for b in batch)
        metric.update(*batch)
    out = [metric.eval()]
    if hasattr(metric, "eval") and name.startswith(("precision", "recall", "f1", "fbeta")):
        out.append(metric.eval(average=True))
    return out


@pytest.mark.parametrize("name", list(METRIC_CASES))
def test_metric_parity(name):
    expected = _run_metric(ms, mtrain, name, tensor_first=True)
    _close(_run_metric(ts, ttrain, name, tensor_first=True), expected)
    _close(_run_metric(ts, tnn, name, tensor_first=False), expected)


def test_metric_clear_then_reuse():
    for mod, fw in ((mtrain, ms), (ttrain, ts)):
        m = mod.Accuracy()
        m.update(np.array([[0.1, 0.9]]), np.array([0]))
        m.clear()
        m.update(np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 1]))
        assert m.eval() == 0.5


def test_metric_set_indexes_parity():
    outputs = (np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7]]), np.array([0.5, 0.1, 0.2]), np.array([1, 0, 0]))
    res = []
    for mod in (mtrain, ttrain):
        acc = mod.Accuracy().set_indexes([0, 2])
        acc.update(*outputs)
        loss = mod.Loss().set_indexes([1])
        loss.update(*outputs)
        res.append((acc.eval(), loss.eval()))
    _close(res[1], res[0])


@pytest.mark.parametrize("binary", [True, False])
def test_roc_and_auc_parity(binary):
    rng = np.random.default_rng(3)
    res = []
    for mod in (mtrain, ttrain):
        if binary:
            m = mod.ROC(pos_label=1)
            m.update(np.round(rng.uniform(size=(12,)), 1), np.tile([0, 1, 1], 4))
            fpr, tpr, thr = m.eval()
            res.append((fpr, tpr, thr, mod.auc(fpr, tpr), mod.auc(fpr[::-1].copy(), tpr[::-1].copy()),
                        mod.auc(fpr, tpr, reorder=True)))
        else:
            # N == C: MindSpore 2.10 reorders the scores of other shapes (see test_metrics.py)
            m = mod.ROC(class_num=4)
            m.update(rng.uniform(size=(4, 4)), np.array([0, 1, 3, 2]))
            fpr, tpr, thr = m.eval()
            res.append((fpr, tpr, thr, [mod.auc(f, t) for f, t in zip(fpr, tpr)]))
        rng = np.random.default_rng(3)
    _close(res[1], res[0])


def test_text_and_similarity_metrics_parity():
    cand = [["the", "cat", "sat", "on", "a", "mat"], ["a", "dog", "ran"]]
    refs = [[["the", "cat", "sat", "on", "the", "mat"], ["a", "cat", "was", "on", "a", "mat"]],
            [["the", "dog", "ran", "away"]]]
    x = np.random.default_rng(1).standard_normal((4, 3))
    res = []
    for mod in (mtrain, ttrain):
        out = []
        for kw in ({}, {"n_gram": 2, "smooth": True}, {"n_gram": 1}):
            b = mod.BleuScore(**kw)
            b.update(cand, refs)
            b.update(cand[:1], refs[:1])
            out.append(b.eval())
        for kw in ({}, {"similarity": "dot", "reduction": "mean"}, {"reduction": "sum", "zero_diagonal": False}):
            c = mod.CosineSimilarity(**kw)
            c.update(x)
            out.append(c.eval())
        res.append(out)
    _close(res[1], res[0])


def test_surface_distance_metrics_parity():
    rng = np.random.default_rng(4)
    y_pred, y = rng.integers(0, 3, (6, 7)), rng.integers(0, 3, (6, 7))
    res = []
    for mod in (mtrain, ttrain):
        out = []
        for kw in ({}, {"distance_metric": "chessboard", "percentile": 80.0}, {"directed": True, "crop": False},
                   {"distance_metric": "taxicab"}):
            h = mod.HausdorffDistance(**kw)
            h.update(y_pred, y, 1)
            out.append(h.eval())
        for cls in (mod.MeanSurfaceDistance, mod.RootMeanSquareDistance):
            for kw in ({}, {"symmetric": True, "distance_metric": "taxicab"}):
                m = cls(**kw)
                m.update(y_pred, y, 2)
                out.append(m.eval())
        res.append(out)
    _close(res[1], res[0])


def test_occlusion_sensitivity_parity():
    w = np.array([[0.1, 0.8, 0.1, 0.1, 0.5, -0.2], [1, 1, 1, 1, -1, 0.3]], np.float32)
    b = np.array([0.3, 0.6], np.float32)
    x = np.random.default_rng(0).standard_normal((1, 6)).astype(np.float32)
    res = []
    for fw, nn, mod in ((ms, mnn, mtrain), (ts, tnn, ttrain)):
        net = nn.Dense(6, 2, weight_init=fw.Tensor(w), bias_init=fw.Tensor(b))
        out = []
        for kw in ({}, {"margin": 1, "n_batch": 4}, {"b_box": [1, 4], "pad_val": 0.5}):
            m = mod.OcclusionSensitivity(**kw)
            m.update(net, x, np.array(1, np.int32))
            out.append(m.eval())
        res.append(out)
    _close(res[1], res[0])


def test_metric_names_and_get_metrics_parity():
    assert ttrain.names() == mtrain.names()
    assert tnn.names() == mnn.names()
    assert {k: v.__name__ for k, v in ttrain.metrics.__factory__.items()} == \
        {k: v.__name__ for k, v in mtrain.metrics.__factory__.items()}
    assert type(ttrain.get_metric_fn("topk", 3)).__name__ == "TopKCategoricalAccuracy"
    assert ttrain.get_metric_fn("topk", 3).k == 3
    from mindspore.train.metrics import get_metrics as ms_get_metrics
    got = ttrain.metrics.get_metrics({"acc", "loss", "top_5_accuracy", "mae"})
    want = ms_get_metrics({"acc", "loss", "top_5_accuracy", "mae"})
    assert {k: type(v).__name__ for k, v in got.items()} == {k: type(v).__name__ for k, v in want.items()}


@pytest.mark.parametrize("call", [
    lambda m: m.Accuracy().eval(),
    lambda m: m.Loss().eval(),
    lambda m: m.Precision().eval(),
    lambda m: m.ROC().eval(),
    lambda m: m.ConfusionMatrix(2).eval(),
    lambda m: m.Accuracy("binary"),
    lambda m: m.Fbeta(0),
    lambda m: m.TopKCategoricalAccuracy(2.0),
    lambda m: m.TopKCategoricalAccuracy(0),
    lambda m: m.ConfusionMatrix(2.0),
    lambda m: m.ConfusionMatrix(2, normalize="rows"),
    lambda m: m.ConfusionMatrixMetric(decrease="avg"),
    lambda m: m.Dice(smooth=0.0),
    lambda m: m.Dice(smooth=1),
    lambda m: m.Loss().update(np.ones((2, 2))),
    lambda m: m.Accuracy().update(np.ones((2, 2))),
    lambda m: m.Accuracy().update(np.ones((2, 2)), np.ones(3)),
    lambda m: m.MAE().update("a", "b"),
    lambda m: m.Accuracy().set_indexes((0, 1)),
    lambda m: m.BleuScore(n_gram=5),
    lambda m: m.CosineSimilarity(similarity="l2"),
    lambda m: m.get_metric_fn("accurcy"),
    lambda m: m.auc([0, 1], [0, 1]),
    lambda m: m.auc(np.array([0.0, 1.0, 0.5]), np.array([0.0, 1.0, 1.0])),
], ids=lambda f: "")
def test_metric_error_types(call):
    with pytest.raises(Exception) as ms_err:
        call(mtrain)
    with pytest.raises(Exception) as ts_err:
        call(ttrain)
    assert type(ts_err.value) is type(ms_err.value)

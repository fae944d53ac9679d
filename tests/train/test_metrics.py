"""Behaviour of the metrics: values on hand-checked data, accumulation, errors, names and exports.

tests/parity/test_loss_metric_parity.py compares every metric with real MindSpore.
"""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, nn, train
from tfspore.train import metrics

SCORES = np.array([[0.2, 0.5, 0.3], [0.3, 0.1, 0.6], [0.9, 0.05, 0.05], [0.1, 0.7, 0.2]])
LABELS = np.array([1, 1, 0, 2])


def test_exports_and_module_paths():
    from tfspore.nn.metrics import Accuracy as NnAccuracy
    from tfspore.train.metrics.accuracy import Accuracy
    from tfspore.train.metrics.metric import Metric, rearrange_inputs
    assert nn.Accuracy is train.Accuracy is NnAccuracy is Accuracy is metrics.Accuracy
    assert nn.metrics.Metric is Metric and train.rearrange_inputs is rearrange_inputs
    for name in metrics.__all__:
        assert name in train.__all__ and name in nn.__all__
    assert "get_metrics" in nn.metrics.__all__


def test_accuracy_classification_accumulates():
    m = train.Accuracy()
    m.update(SCORES[:2], LABELS[:2])
    m.update(Tensor(SCORES[2:]), Tensor(LABELS[2:].astype(np.int32)))
    assert m.eval() == 0.5
    m.clear()
    m.update(SCORES, np.eye(3)[LABELS])
    assert m.eval() == 0.5


def test_accuracy_multilabel():
    m = train.Accuracy("multilabel")
    m.update(np.array([[0, 1, 1], [1, 0, 1]]), np.array([[0, 1, 1], [1, 1, 1]]))
    assert m.eval() == 0.5
    with pytest.raises(ValueError, match="0 or 1"):
        m.update(np.array([[0.5, 1, 1]]), np.array([[0, 1, 1]]))


def test_convert_data_types():
    m = train.MAE()
    for pred, y in [(Tensor(np.ones((2, 2), np.float32)), [[1.0, 0.0], [1.0, 1.0]]),
                    (tf.ones((2, 2)), np.zeros((2, 2))),
                    ([[1.0, 1.0]], np.ones((1, 2)))]:
        m.update(pred, y)
    assert m.eval() == pytest.approx(5 / 5)
    with pytest.raises(TypeError, match="tensor, list or numpy.ndarray, but got <class 'str'>"):
        m.update("a", "b")


def test_call_is_clear_update_eval():
    m = train.TopKCategoricalAccuracy(2)
    m.update(SCORES, np.array([2, 2, 2, 2]))
    assert m(SCORES, LABELS) == 0.75


def test_precision_recall_f1_fbeta():
    p, r, f1, fb = train.Precision(), train.Recall(), train.F1(), train.Fbeta(2.0)
    for m in (p, r, f1, fb):
        m.update(SCORES, LABELS)
    pred = SCORES.argmax(1)
    tp = np.array([np.sum((pred == c) & (LABELS == c)) for c in range(3)], float)
    pos = np.array([np.sum(pred == c) for c in range(3)], float)
    act = np.array([np.sum(LABELS == c) for c in range(3)], float)
    np.testing.assert_allclose(p.eval(), tp / pos)
    np.testing.assert_allclose(r.eval(), tp / act)
    np.testing.assert_allclose(p.eval(average=True), (tp / pos).mean())
    np.testing.assert_allclose(f1.eval(), 2 * tp / (act + pos))
    np.testing.assert_allclose(fb.eval(True), (5 * tp / (4 * act + pos)).mean())
    with pytest.raises(TypeError, match="average"):
        p.eval(average=1)


def test_precision_recall_multilabel():
    y_pred = np.array([[1, 0, 1], [1, 1, 0]])
    y = np.array([[1, 0, 0], [1, 1, 1]])
    p, r = train.Precision("multilabel"), train.Recall("multilabel")
    p.update(y_pred, y)
    r.update(y_pred, y)
    np.testing.assert_allclose(p.eval(), [0.5, 1.0])
    np.testing.assert_allclose(r.eval(), [1.0, 2 / 3])
    assert p.eval(average=True) == pytest.approx(0.75)


def test_loss_mae_mse():
    loss = train.Loss()
    loss.update(Tensor(np.array(0.5, np.float32)))
    loss.update(np.array([1.0, 2.0]))
    assert loss.eval() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="must be 1, but got 2"):
        loss.update(np.ones((2, 2)))
    mae, mse = train.MAE(), train.MSE()
    for m in (mae, mse):
        m.update(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.5, 2.0, 3.0, 2.0]))
    # MindSpore divides by the labels' first dimension (4 here), not the predictions'
    assert mae.eval() == pytest.approx(2.5 / 4)
    assert mse.eval() == pytest.approx(4.25 / 4)


def test_topk():
    for k, expect in ((1, 0.5), (2, 0.75), (3, 1.0)):
        m = train.TopKCategoricalAccuracy(k)
        m.update(SCORES, LABELS)
        assert m.eval() == expect
    assert train.Top1CategoricalAccuracy().k == 1 and train.Top5CategoricalAccuracy().k == 5


def test_dice_metric():
    m = train.Dice(smooth=1e-5)
    a, b = np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[1.0, 1.0], [0.0, 1.0]])
    m.update(a, b)
    assert m.eval() == pytest.approx(2 * 2 / (3 + 3 + 1e-5) / 2)


def test_confusion_matrix():
    m = train.ConfusionMatrix(3)
    m.update(SCORES, LABELS)
    m.update(np.array([0, 2]), np.array([0, 1]))
    np.testing.assert_array_equal(m.eval(), [[2, 0, 0], [0, 1, 2], [0, 1, 0]])
    m2 = train.ConfusionMatrix(3, normalize="target")
    m2.update(np.array([0, 0]), np.array([0, 1]))
    np.testing.assert_array_equal(m2.eval(), [[1, 0, 0], [1, 0, 0], [0, 0, 0]])
    t = train.ConfusionMatrix(2, threshold=0.7)
    t.update(np.array([0.6, 0.8]), np.array([1, 1]))
    np.testing.assert_array_equal(t.eval(), [[0, 0], [1, 1]])


def test_confusion_matrix_metric():
    y_pred = np.array([[[0], [1]], [[1], [0]]])
    y = np.array([[[0], [1]], [[0], [1]]])
    m = train.ConfusionMatrixMetric(skip_channel=True, metric_name="tpr", calculation_method=False)
    m.update(y_pred, y)
    np.testing.assert_allclose(m.eval(), [0.5])
    m2 = train.ConfusionMatrixMetric(metric_name="precision")
    m2.update(y_pred, y)
    np.testing.assert_allclose(m2.eval(), [0.5])


def test_confusion_matrix_metric_mean_batch():
    """MindSpore 2.10 fails on decrease='mean_batch' (it returns a function); tfspore reduces it."""
    rng = np.random.default_rng(0)
    y_pred, y = rng.integers(0, 2, (3, 2, 4, 4)), rng.integers(0, 2, (3, 2, 4, 4))
    m = train.ConfusionMatrixMetric(True, "accuracy", calculation_method=True, decrease="mean_batch")
    with pytest.raises(ValueError):  # like MindSpore: a per-channel result cannot be accumulated as a scalar
        m.update(y_pred, y)
    m1 = train.ConfusionMatrixMetric(True, "accuracy", calculation_method=True, decrease="mean_batch")
    m1.update(y_pred[:, :1], y[:, :1])
    acc = ((y_pred[:, 0] == y[:, 0]).reshape(3, -1).mean(1)).mean()
    assert m1.eval() == pytest.approx(acc)


def test_roc_and_auc():
    roc = train.ROC(pos_label=1)
    roc.update(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
    fpr, tpr, thr = roc.eval()
    np.testing.assert_allclose(fpr, [0, 0, 0.5, 0.5, 1])
    np.testing.assert_allclose(tpr, [0, 0.5, 0.5, 1, 1])
    np.testing.assert_allclose(thr, [1.8, 0.8, 0.4, 0.35, 0.1])
    assert train.auc(fpr, tpr) == pytest.approx(0.75)
    multi = train.ROC(class_num=3)
    multi.update(SCORES, LABELS)
    fprs, tprs, thrs = multi.eval()
    assert len(fprs) == len(tprs) == 3
    for c in range(3):  # one curve per class, from that class's column of scores
        binary = train.ROC(pos_label=1)
        binary.update(SCORES[:, c], (LABELS == c).astype(int))
        for got, want in zip((fprs[c], tprs[c], thrs[c]), binary.eval()):
            np.testing.assert_allclose(got, want)
    with pytest.raises(ValueError, match="class_num"):
        train.ROC(class_num=2).update(SCORES, LABELS)


def test_text_metrics():
    b = train.BleuScore()
    b.update([["i", "have", "a", "pen", "on", "my", "desk"]],
             [[["i", "have", "a", "pen", "in", "my", "desk"], ["there", "is", "a", "pen", "on", "the", "desk"]]])
    assert float(b.eval()) == pytest.approx(0.5946035575013605)
    p = train.Perplexity(ignore_label=None)
    p.update(np.array([[0.2, 0.8], [0.5, 0.5]]), np.array([1, 0]))
    assert p.eval() == pytest.approx(np.exp(-(np.log(0.8) + np.log(0.5)) / 2))
    c = train.CosineSimilarity(reduction="sum")
    c.update(np.array([[1.0, 0.0], [0.0, 2.0]]))
    np.testing.assert_allclose(c.eval(), [0.0, 0.0])


def test_surface_distance_metrics():
    y_pred = np.zeros((6, 6), int)
    y_pred[1:4, 1:4] = 1
    y = np.zeros((6, 6), int)
    y[2:5, 2:5] = 1
    h = train.HausdorffDistance()
    h.update(y_pred, y, 1)
    assert h.eval() == pytest.approx(np.sqrt(2))
    msd = train.MeanSurfaceDistance(symmetric=True)
    msd.update(y_pred, y, 1)
    rms = train.RootMeanSquareDistance()
    rms.update(y_pred, y, 1)
    assert 0 < msd.eval() <= np.sqrt(2) and 0 < rms.eval() <= 2
    with pytest.raises(ValueError, match="label index"):
        h.update(y_pred, y, 7)


def test_occlusion_sensitivity_runs_a_cell():
    w = np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]], np.float32)
    net = nn.Dense(4, 2, weight_init=Tensor(w), bias_init=Tensor(np.array([0.3, 0.6], np.float32)))
    m = train.OcclusionSensitivity()
    m.update(net, np.array([[0.1, 0.2, 0.3, 0.4]], np.float32), np.array(1, np.int32))
    np.testing.assert_allclose(m.eval(), [0.3, 0.6, 1.0, 0.9], rtol=1e-5)
    with pytest.raises(TypeError, match="model"):
        m.update("net", np.ones((1, 4)), np.array(1))


def test_set_indexes_and_rearrange_inputs():
    class Pairs(metrics.Metric):
        def __init__(self):
            super().__init__()
            self.clear()

        def clear(self):
            self.seen = []

        @metrics.rearrange_inputs
        def update(self, *inputs):
            self.seen.append(tuple(inputs))

        def eval(self):
            return self.seen

    m = Pairs()
    assert m.indexes is None
    assert m.set_indexes([2, 0]) is m
    assert m("a", "b", "c") == [("c", "a")]
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        m.set_indexes((0, 1))
    with pytest.raises(ValueError, match="must be a list"):
        m.set_indexes([0, "1"])


def test_metric_is_abstract():
    with pytest.raises(TypeError):
        metrics.Metric()


@pytest.mark.parametrize("metric,message", [
    (train.Accuracy(), "The 'Accuracy' can not be calculated, because the number of samples is 0"),
    (train.Loss(), "The 'Loss' can not be calculated"),
    (train.MAE(), "The 'MAE' can not be calculated"),
    (train.MSE(), "The 'MSE' can not be calculated"),
    (train.Precision(), "The 'Precision' can not be calculated"),
    (train.Recall(), "The 'Recall' can not be calculated"),
    (train.F1(), "The 'Fbeta' can not be calculated"),
    (train.Top5CategoricalAccuracy(), "The 'TopKCategoricalAccuracy' can not be calculated"),
    (train.Dice(), "The 'Dice coefficient' can not be calculated"),
    (train.ROC(), "Please call the 'update' method before calling 'eval' method."),
    (train.ConfusionMatrix(2), "Please call the 'update' method before calling 'eval' method."),
    (train.ConfusionMatrixMetric(calculation_method=True), "The 'ConfusionMatrixMetric' can not be calculated"),
    (train.BleuScore(), "Please call the 'update' method"),
    (train.Perplexity(), "The 'Perplexity' can not be calculated"),
])
def test_eval_before_update(metric, message):
    with pytest.raises(RuntimeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        metric.eval()


@pytest.mark.parametrize("call,err,words", [
    (lambda: train.Accuracy("binary"), TypeError, ["eval_type", "binary"]),
    (lambda: train.Fbeta(-1), ValueError, ["Fbeta", "beta", "-1"]),
    (lambda: train.TopKCategoricalAccuracy(1.5), TypeError, ["TopKCategoricalAccuracy", "'k'", "float"]),
    (lambda: train.TopKCategoricalAccuracy(0), ValueError, ["TopKCategoricalAccuracy", "'k'", "0"]),
    (lambda: train.Dice(smooth=0.0), ValueError, ["Dice", "smooth", "0.0"]),
    (lambda: train.Dice(smooth=1), TypeError, ["Dice", "smooth", "int"]),
    (lambda: train.ConfusionMatrix("3"), TypeError, ["ConfusionMatrix", "num_classes", "str"]),
    (lambda: train.ConfusionMatrix(3, normalize="row"), ValueError, ["ConfusionMatrix", "normalize", "row"]),
    (lambda: train.ConfusionMatrix(3, threshold=1), TypeError, ["ConfusionMatrix", "threshold", "int"]),
    (lambda: train.ConfusionMatrixMetric(decrease="avg"), ValueError, ["ConfusionMatrixMetric", "decrease", "avg"]),
    (lambda: train.ConfusionMatrixMetric(metric_name="xyz"), NotImplementedError, ["ConfusionMatrixMetric", "xyz"]),
    (lambda: train.ConfusionMatrixMetric(skip_channel=1), TypeError, ["ConfusionMatrixMetric", "skip_channel"]),
    (lambda: train.ROC(class_num="2"), TypeError, ["ROC", "class_num", "str"]),
    (lambda: train.BleuScore(n_gram=0), ValueError, ["BleuScore", "n_gram", "0"]),
    (lambda: train.CosineSimilarity(similarity="l1"), ValueError, ["CosineSimilarity", "similarity", "l1"]),
    (lambda: train.Perplexity(ignore_label=1.0), TypeError, ["Perplexity", "ignore_label", "float"]),
    (lambda: train.HausdorffDistance(distance_metric="l2"), ValueError, ["HausdorffDistance", "distance_metric"]),
    (lambda: train.OcclusionSensitivity(pad_val=0), TypeError, ["OcclusionSensitivity", "pad_val", "int"]),
    (lambda: train.Accuracy().update(SCORES), ValueError, ["Accuracy.update", "2 inputs", "1"]),
    (lambda: train.Accuracy().update(SCORES, LABELS[:2]), ValueError, ["shape", "(4, 3)", "(2,)"]),
    (lambda: train.Precision().update(SCORES, np.array([0, 1, 2, 5])), ValueError, ["Precision.update", "6"]),
    (lambda: train.auc([0, 1], [0, 1]), TypeError, ["auc", "list"]),
    (lambda: train.auc(np.array([0.0]), np.array([1.0])), ValueError, ["auc", "1"]),
    (lambda: train.auc(np.array([0.0, 1.0, 0.5]), np.array([0, 1, 1])), ValueError, ["auc", "increasing"]),
])
def test_bad_arguments(call, err, words):
    with pytest.raises(err) as info:
        call()
    for w in words:
        assert w in str(info.value)


def test_class_number_must_not_change():
    m = train.Accuracy()
    m.update(SCORES, LABELS)
    with pytest.raises(ValueError, match="contain 3 classes, but current predicted data contain 2 classes"):
        m.update(SCORES[:, :2], LABELS)


def test_names_get_metric_fn_get_metrics():
    assert {"acc", "accuracy", "loss", "mae", "mse", "precision", "recall", "F1", "top_1_accuracy",
            "top_5_accuracy", "dice", "roc", "auc", "topk", "confusion_matrix"} <= set(metrics.names())
    assert metrics.names() == sorted(metrics.names())
    assert isinstance(metrics.get_metric_fn("acc"), train.Accuracy)
    assert metrics.get_metric_fn("precision", "multilabel")._type == "multilabel"
    assert metrics.get_metric_fn("topk", k=3).k == 3
    with pytest.raises(KeyError, match="unsupported metric f1"):
        metrics.get_metric_fn("f1")
    got = metrics.get_metrics({"acc", "loss", "top_5_accuracy"})
    assert {k: type(v) for k, v in got.items()} == {"acc": train.Accuracy, "loss": train.Loss,
                                                    "top_5_accuracy": train.Top5CategoricalAccuracy}
    custom = {"my": train.MAE()}
    assert metrics.get_metrics(custom) is custom
    assert metrics.get_metrics(None) is None
    with pytest.raises(TypeError, match="None, dict or set"):
        metrics.get_metrics(["acc"])
    with pytest.raises(TypeError, match="must be Metric"):
        metrics.get_metrics({"acc": "accuracy"})


def test_metrics_with_model_eval_outputs():
    """A WithEvalCell-like output triple (loss, logits, labels) with Model's eval indexes."""
    logits, labels = Tensor(SCORES.astype(np.float32)), Tensor(LABELS.astype(np.int32))
    loss_value = nn.CrossEntropyLoss()(logits, labels)
    acc = train.Accuracy().set_indexes([1, 2])
    loss = train.Loss().set_indexes([0])
    for m in (acc, loss):
        m.update(loss_value, logits, labels)
    assert acc.eval() == 0.5
    assert loss.eval() == pytest.approx(float(loss_value))
    assert ms.train.metrics is metrics

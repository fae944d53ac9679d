"""NN ops: reference checks against numpy, and GRAPH_MODE results equal to PYNATIVE ones."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, ops
from tfspore._internal import layout as _layout

R = np.random.RandomState(2)
X = R.uniform(-2, 2, (2, 3)).astype(np.float32)
IMG = R.uniform(-1, 1, (2, 4, 7, 7)).astype(np.float32)
W = R.uniform(-1, 1, (6, 4, 3, 3)).astype(np.float32)
LOGITS = R.uniform(-2, 2, (4, 5)).astype(np.float32)
LABELS = np.array([1, 0, 4, 2], np.int32)


def conv_ref(x, w, stride=1, pad=(0, 0, 0, 0), dilation=1, groups=1):
    x = np.pad(x, [(0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])])
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    ekh, ekw = dilation * (kh - 1) + 1, dilation * (kw - 1) + 1
    oh, ow = (h - ekh) // stride + 1, (wd - ekw) // stride + 1
    out = np.zeros((n, o, oh, ow), np.float64)
    og = o // groups
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, :, i * stride:i * stride + ekh:dilation, j * stride:j * stride + ekw:dilation]
                out[:, g * og:(g + 1) * og, i, j] = np.einsum("nchw,ochw->no", patch, w[g * og:(g + 1) * og])
    return out


@pytest.mark.parametrize("kwargs,ref_kwargs", [
    (dict(), dict()),
    (dict(stride=2, pad_mode="pad", padding=1), dict(stride=2, pad=(1, 1, 1, 1))),
    (dict(pad_mode="pad", padding=(1, 0, 2, 1)), dict(pad=(1, 0, 2, 1))),
    (dict(dilation=2), dict(dilation=2)),
])
def test_conv2d_matches_reference(mode, run, kwargs, ref_kwargs):
    out = run(lambda x, w: ops.conv2d(x, w, **kwargs), Tensor(IMG), Tensor(W))
    np.testing.assert_allclose(out.asnumpy(), conv_ref(IMG, W, **ref_kwargs), rtol=1e-4, atol=1e-4)


def test_conv2d_groups_and_same(mode, run):
    wg = R.uniform(-1, 1, (6, 2, 3, 3)).astype(np.float32)
    out = run(lambda x, w: ops.conv2d(x, w, groups=2), Tensor(IMG), Tensor(wg))
    np.testing.assert_allclose(out.asnumpy(), conv_ref(IMG, wg, groups=2), rtol=1e-4, atol=1e-4)
    same = run(lambda x, w: ops.Conv2D(6, 3, pad_mode="same")(x, w), Tensor(IMG), Tensor(W))
    np.testing.assert_allclose(same.asnumpy(), conv_ref(IMG, W, pad=(1, 1, 1, 1)), rtol=1e-4, atol=1e-4)


def test_conv2d_nhwc_fallback_matches(monkeypatch):
    native = ops.conv2d(Tensor(IMG), Tensor(W), stride=2).asnumpy()
    monkeypatch.setattr(_layout, "_CACHE", {"conv": False, "maxpool": False, "avgpool": False})
    fallback = ops.conv2d(Tensor(IMG), Tensor(W), stride=2).asnumpy()
    pooled = ops.MaxPool(3, 2)(Tensor(IMG)).asnumpy()
    np.testing.assert_allclose(fallback, native, rtol=1e-5, atol=1e-5)
    monkeypatch.setattr(_layout, "_CACHE", {})
    np.testing.assert_allclose(ops.MaxPool(3, 2)(Tensor(IMG)).asnumpy(), pooled)


def test_max_pool2d_indices_point_at_maxima():
    out, idx = ops.max_pool2d(Tensor(IMG), 3, 2, 1, return_indices=True)
    flat = IMG.reshape(2, 4, -1)
    picked = np.take_along_axis(flat, idx.asnumpy().reshape(2, 4, -1), 2).reshape(out.shape)
    np.testing.assert_array_equal(picked, out.asnumpy())
    assert idx.dtype == ms.int64


def test_avg_pool2d_count_include_pad():
    x = np.ones((1, 1, 4, 4), np.float32)
    with_pad = ops.avg_pool2d(Tensor(x), 3, 1, 1).asnumpy()
    without = ops.avg_pool2d(Tensor(x), 3, 1, 1, count_include_pad=False).asnumpy()
    assert with_pad[0, 0, 0, 0] == pytest.approx(4 / 9)
    np.testing.assert_allclose(without, 1.0)


def test_interpolate_nearest_and_area():
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)
    out = ops.interpolate(Tensor(x), size=(4, 6)).asnumpy()
    np.testing.assert_array_equal(out[0, 0], np.repeat(np.repeat(x[0, 0], 2, 0), 2, 1))
    area = ops.interpolate(Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)), size=(2, 2), mode="area")
    np.testing.assert_allclose(area.asnumpy()[0, 0], [[2.5, 4.5], [10.5, 12.5]])


def test_cross_entropy_reference():
    lp = LOGITS - np.log(np.exp(LOGITS).sum(1, keepdims=True))
    ref = -lp[np.arange(4), LABELS].mean()
    assert ops.cross_entropy(Tensor(LOGITS), Tensor(LABELS)).asnumpy() == pytest.approx(ref, rel=1e-5)
    sce = ops.SparseSoftmaxCrossEntropyWithLogits()(Tensor(LOGITS), Tensor(LABELS)).asnumpy()
    assert sce == pytest.approx(ref, rel=1e-5)
    loss, grad = ops.SoftmaxCrossEntropyWithLogits()(Tensor(LOGITS), Tensor(np.eye(5, dtype=np.float32)[LABELS]))
    np.testing.assert_allclose(loss.asnumpy(), -lp[np.arange(4), LABELS], rtol=1e-5)
    np.testing.assert_allclose(grad.asnumpy(), np.exp(lp) - np.eye(5)[LABELS], rtol=1e-5, atol=1e-6)


def test_gelu_variants():
    x = Tensor(X)
    exact = ops.gelu(x).asnumpy()
    from math import erf, sqrt
    np.testing.assert_allclose(exact, np.vectorize(lambda v: 0.5 * v * (1 + erf(v / sqrt(2))))(X), rtol=1e-5)
    np.testing.assert_allclose(ops.GeLU()(x).asnumpy(), ops.gelu(x, "tanh").asnumpy())


GRAPH_EQ = [
    ("activations", lambda x: (ops.relu(x), ops.ReLU6()(x), ops.sigmoid(x), ops.Tanh()(x), ops.gelu(x),
                               ops.FastGeLU()(x), ops.silu(x), ops.SiLU()(x), ops.softmax(x), ops.Softmax()(x),
                               ops.log_softmax(x), ops.LogSoftmax(0)(x), ops.hardswish(x), ops.leaky_relu(x),
                               ops.elu(x), ops.Softplus()(x), ops.mish(x)), [X]),
    ("conv_pool", lambda x, w: (ops.Conv2D(6, 3, stride=2)(x, w), ops.MaxPool(2, 2)(x), ops.AvgPool(3, 2, "same")(x),
                                ops.max_pool2d(x, 3, 2, 1), ops.max_pool2d(x, 2, return_indices=True),
                                ops.avg_pool2d(x, 3, 2, 1, True), ops.adaptive_avg_pool2d(x, (2, 3)),
                                ops.adaptive_max_pool2d(x, 2), ops.BiasAdd()(x, w[0, :, 0, 0])), [IMG, W]),
    ("pad_interp", lambda x: (ops.pad(x, (1, 2, 0, 1)), ops.pad(x, (1, 1), "reflect"), ops.pad(x, (2, 2), "replicate"),
                              ops.interpolate(x, size=(9, 10), mode="bilinear"),
                              ops.interpolate(x, size=(9, 10), mode="bicubic"),
                              ops.interpolate(x, scale_factor=2.0, mode="nearest")), [IMG]),
    ("losses", lambda x, y, p: (ops.cross_entropy(x, y), ops.cross_entropy(x, p, label_smoothing=0.1),
                                ops.nll_loss(ops.log_softmax(x), y), ops.mse_loss(x, p),
                                ops.l1_loss(x, p, "none"), ops.smooth_l1_loss(x, p),
                                ops.binary_cross_entropy_with_logits(x, p),
                                ops.SparseSoftmaxCrossEntropyWithLogits(True)(x, y),
                                ops.SigmoidCrossEntropyWithLogits()(x, p), ops.L2Loss()(x),
                                ops.L2Normalize(1)(x)),
     [LOGITS, LABELS, np.abs(LOGITS) / 4]),
    ("layer_norm", lambda x, g, b: (ops.LayerNorm(1, 1)(x, g, b), ops.layer_norm(x, (3,), g, b)),
     [X, np.ones(3, np.float32), np.zeros(3, np.float32)]),
]


def _flat(x):
    if isinstance(x, (tuple, list)):
        return [v for item in x for v in _flat(item)]
    return [x.asnumpy()]


@pytest.mark.parametrize("name,fn,inputs", GRAPH_EQ, ids=[c[0] for c in GRAPH_EQ])
def test_graph_equals_pynative(run, mode, name, fn, inputs):
    ts = [Tensor(a) for a in inputs]
    eager = _flat(fn(*ts))
    got = _flat(run(fn, *ts))
    assert len(eager) == len(got)
    for a, b in zip(eager, got):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)


def test_dropout_training_and_eval(mode, run):
    x = Tensor(np.ones((100, 100), np.float32))
    out = run(lambda t: ops.dropout(t, p=0.25), x).asnumpy()
    assert set(np.unique(out)).issubset({0.0, np.float32(1 / 0.75)})
    assert abs((out == 0).mean() - 0.25) < 0.03
    np.testing.assert_array_equal(ops.dropout(x, 0.5, training=False).asnumpy(), x.asnumpy())
    y, mask = run(lambda t: ops.Dropout(0.5)(t), x)
    np.testing.assert_allclose(y.asnumpy(), mask.asnumpy() * 2)


def test_batch_norm_updates_running_stats():
    x = R.uniform(-1, 1, (8, 3, 2, 2)).astype(np.float32)
    rm = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="rm")
    rv = ms.Parameter(Tensor(np.ones(3, np.float32)), name="rv")
    y = ops.batch_norm(Tensor(x), rm, rv, Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)), True)
    m = x.mean((0, 2, 3))
    np.testing.assert_allclose(rm.asnumpy(), 0.1 * m, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rv.asnumpy(), 0.9 + 0.1 * x.var((0, 2, 3), ddof=1), rtol=1e-5)
    ref = (x - m[None, :, None, None]) / np.sqrt(x.var((0, 2, 3))[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=1e-4, atol=1e-4)


def _loss_all_layouts(x, w):
    y = ops.conv2d(x, w, pad_mode="pad", padding=(1, 0, 2, 1), stride=2)
    y = ops.max_pool2d(y, 2, 1) + ops.avg_pool2d(y, 2, 1)
    y = ops.MaxPool(2, 1)(y) + ops.AvgPool(2, 1, "same")(y)[:, :, :-1, :-1]
    y = y.sum() + ops.Conv2D(6, 3, pad_mode="pad", pad=1)(x, w).sum()
    dy = ops.conv2d(x, w, pad_mode="pad", padding=1)
    return y + ops.Conv2DBackpropInput(6, 3, pad_mode="pad", pad=1)(dy, w, (2, 4, 7, 7)).sum()


def test_gradients_through_conv_and_pool(mode, monkeypatch):
    grads = ms.grad(_loss_all_layouts, (0, 1))(Tensor(IMG), Tensor(W))
    assert grads[0].shape == IMG.shape and grads[1].shape == W.shape
    monkeypatch.setattr(_layout, "_CACHE", {"conv": False, "conv_transpose": False, "maxpool": False,
                                            "avgpool": False})
    ref = ms.grad(_loss_all_layouts, (0, 1))(Tensor(IMG), Tensor(W))
    for a, b in zip(grads, ref):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-4)

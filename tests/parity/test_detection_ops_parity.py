"""Detection primitives (IOU, NMSWithMask, BoundingBoxEncode/Decode, CheckValid, ROIAlign, CropAndResize)
against MindSpore 2.10's CPU kernels."""
import numpy as np
import pytest

import tfspore as ts
from tests.parity._ms_helpers import _warm_mindspore  # noqa: F401  (autouse fixture)

ms = pytest.importorskip("mindspore")

R = np.random.RandomState(7)


def _boxes(n, lo=0.0, hi=60.0):
    xy = R.uniform(lo, hi, (n, 2))
    wh = R.uniform(2.0, 30.0, (n, 2))
    return np.concatenate([xy, xy + wh], 1).astype(np.float32)


def _both(name, args, init=(), init_kw=None, dtype=np.float32):
    init_kw = init_kw or {}
    ms_out = getattr(ms.ops, name)(*init, **init_kw)(*[ms.Tensor(a) for a in args])
    ts_out = getattr(ts.ops, name)(*init, **init_kw)(*[ts.Tensor(a) for a in args])
    return ms_out, ts_out


@pytest.mark.parametrize("mode", ["iou", "iof"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_iou(mode, dtype):
    a, g = _boxes(7).astype(dtype), _boxes(5).astype(dtype)
    m, t = _both("IOU", (a, g), (mode,))
    assert str(m.dtype) == str(t.dtype) and m.shape == t.shape == (5, 7)
    np.testing.assert_allclose(t.asnumpy().astype(np.float32), m.asnumpy().astype(np.float32),
                               rtol=2e-3 if dtype == np.float16 else 1e-5, atol=1e-3 if dtype == np.float16 else 1e-6)


def test_bounding_box_encode_decode():
    anchors, gt = _boxes(9), _boxes(9)
    kw = dict(means=(0.1, -0.1, 0.0, 0.2), stds=(0.1, 0.1, 0.2, 0.2))
    m, t = _both("BoundingBoxEncode", (anchors, gt), init_kw=kw)
    np.testing.assert_allclose(t.asnumpy(), m.asnumpy(), rtol=1e-5, atol=1e-5)
    deltas = R.uniform(-3, 3, (9, 4)).astype(np.float32)
    for max_shape in ((50, 70), (1000, 1000)):  # MindSpore 2.10 CPU fails on max_shape=None
        m, t = _both("BoundingBoxDecode", (anchors, deltas), init_kw=dict(max_shape=max_shape, wh_ratio_clip=0.05,
                                                                           **kw))
        assert str(m.dtype) == str(t.dtype)
        np.testing.assert_allclose(t.asnumpy(), m.asnumpy(), rtol=1e-5, atol=1e-4)


def test_check_valid():
    b = _boxes(40, -5.0, 40.0)
    for metas in ([40.0, 50.0, 1.0], [30.0, 20.0, 1.5]):
        m, t = _both("CheckValid", (b, np.array(metas, np.float32)))
        assert str(t.dtype) == str(m.dtype) == "Bool"
        np.testing.assert_array_equal(t.asnumpy(), m.asnumpy())


@pytest.mark.parametrize("thr", [0.1, 0.3, 0.6])
def test_nms_with_mask(thr):
    b = _boxes(30, 0.0, 40.0)
    scores = R.permutation(30).astype(np.float32) / 30
    x = np.concatenate([b, scores[:, None]], 1).astype(np.float32)
    mb, mi, mm = ms.ops.NMSWithMask(thr)(ms.Tensor(x))
    tb, ti, tm = ts.ops.NMSWithMask(thr)(ts.Tensor(x))
    np.testing.assert_array_equal(tb.asnumpy(), mb.asnumpy())
    np.testing.assert_array_equal(tm.asnumpy(), mm.asnumpy())
    assert (str(ti.dtype), str(tm.dtype)) == (str(mi.dtype), str(mm.dtype))
    # tfspore's indices point into the input; sorted input: they agree with MindSpore's CPU ones.
    np.testing.assert_array_equal(x[ti.asnumpy()], tb.asnumpy())
    srt = x[np.argsort(-x[:, 4], kind="stable")]
    np.testing.assert_array_equal(ts.ops.NMSWithMask(thr)(ts.Tensor(srt))[1].asnumpy(),
                                  ms.ops.NMSWithMask(thr)(ms.Tensor(srt))[1].asnumpy())


@pytest.mark.parametrize("sample_num,roi_end_mode", [(2, 1), (2, 0), (3, 1)])
def test_roi_align(sample_num, roi_end_mode):
    feats = R.standard_normal((2, 3, 12, 10)).astype(np.float32)
    boxes = _boxes(6, -8.0, 70.0)
    rois = np.concatenate([np.array([0, 1, 1, 0, 1, 0], np.float32)[:, None], boxes], 1)
    kw = dict(pooled_height=3, pooled_width=4, spatial_scale=0.125, sample_num=sample_num,
              roi_end_mode=roi_end_mode)
    m, t = _both("ROIAlign", (feats, rois), init_kw=kw)
    assert t.shape == m.shape == (6, 3, 3, 4)
    np.testing.assert_allclose(t.asnumpy(), m.asnumpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crop_and_resize(method):
    img = R.standard_normal((2, 9, 11, 3)).astype(np.float32)
    boxes = R.uniform(-0.2, 1.2, (5, 4)).astype(np.float32)
    idx = np.array([0, 1, 1, 0, 1], np.int32)
    m = ms.ops.CropAndResize(method=method)(ms.Tensor(img), ms.Tensor(boxes), ms.Tensor(idx), (4, 6))
    t = ts.ops.CropAndResize(method=method)(ts.Tensor(img), ts.Tensor(boxes), ts.Tensor(idx), (4, 6))
    assert str(t.dtype) == str(m.dtype)
    np.testing.assert_allclose(t.asnumpy(), m.asnumpy(), rtol=1e-5, atol=1e-5)

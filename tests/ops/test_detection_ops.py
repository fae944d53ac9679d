"""Detection primitives: numpy references, both modes, errors (MindSpore parity is in tests/parity)."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, ops

R = np.random.RandomState(1)


def _boxes(n):
    xy = R.uniform(0, 40, (n, 2))
    return np.concatenate([xy, xy + R.uniform(2, 20, (n, 2))], 1).astype(np.float32)


def _iou_ref(a, g):
    out = np.zeros((len(g), len(a)))
    for i, gg in enumerate(g):
        for j, aa in enumerate(a):
            iw = max(0, min(aa[2], gg[2]) - max(aa[0], gg[0]) + 1)
            ih = max(0, min(aa[3], gg[3]) - max(aa[1], gg[1]) + 1)
            area = lambda b: (b[2] - b[0] + 1) * (b[3] - b[1] + 1)  # noqa: E731
            out[i, j] = iw * ih / (area(aa) + area(gg) - iw * ih)
    return out


def test_iou_matches_reference(mode, run):
    a, g = _boxes(6), _boxes(4)
    out = run(lambda x, y: ops.IOU()(x, y), Tensor(a), Tensor(g))
    np.testing.assert_allclose(out.asnumpy(), _iou_ref(a, g), rtol=1e-5)
    assert out.dtype == ms.float32


def test_encode_decode_round_trip(mode, run):
    anchors, gt = _boxes(8), _boxes(8)
    kw = dict(means=(0.0, 0.0, 0.0, 0.0), stds=(0.1, 0.1, 0.2, 0.2))
    enc = ops.BoundingBoxEncode(**kw)
    dec = ops.BoundingBoxDecode(max_shape=None, wh_ratio_clip=1e-6, **kw)
    back = run(lambda a, b: dec(a, enc(a, b)), Tensor(anchors), Tensor(gt))
    np.testing.assert_allclose(back.asnumpy(), gt, rtol=1e-4, atol=1e-3)
    clipped = ops.BoundingBoxDecode(max_shape=(10, 12), **kw)(Tensor(anchors), enc(Tensor(anchors), Tensor(gt)))
    c = clipped.asnumpy()
    assert c[:, [0, 2]].max() <= 12 and c[:, [1, 3]].max() <= 10 and c.min() >= 0


def test_check_valid(mode, run):
    b = np.array([[0, 0, 9, 9], [0, 0, 10, 9], [-1, 0, 3, 3], [2, 2, 9, 9.5]], np.float32)
    out = run(lambda x, y: ops.CheckValid()(x, y), Tensor(b), Tensor(np.array([10, 10, 1.0], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [True, False, False, False])


def test_nms_with_mask(mode, run):
    b = np.array([[0, 0, 10, 10, 0.9], [1, 1, 11, 11, 0.8], [20, 20, 30, 30, 0.95], [0, 0, 10, 10, 0.1]],
                 np.float32)
    boxes, idx, mask = run(lambda x: ops.NMSWithMask(0.5)(x), Tensor(b))
    np.testing.assert_array_equal(idx.asnumpy(), [2, 0, 1, 3])
    np.testing.assert_array_equal(boxes.asnumpy(), b[[2, 0, 1, 3]])
    np.testing.assert_array_equal(mask.asnumpy(), [True, True, False, False])
    assert idx.dtype == ms.int32 and mask.dtype == ms.bool_


def test_roi_align_constant_map(mode, run):
    feats = np.full((1, 2, 8, 8), 3.0, np.float32)
    rois = np.array([[0, 0, 0, 31, 31], [0, 8, 8, 20, 24]], np.float32)
    out = run(lambda f, r: ops.ROIAlign(2, 3, 0.25)(f, r), Tensor(feats), Tensor(rois))
    assert out.shape == (2, 2, 2, 3)
    np.testing.assert_allclose(out.asnumpy(), 3.0, rtol=1e-6)


def test_roi_align_gradient_reaches_features():
    import tensorflow as tf
    feats = tf.Variable(R.standard_normal((1, 1, 6, 6)).astype(np.float32))
    rois = Tensor(np.array([[0, 4, 4, 16, 16]], np.float32))
    with tf.GradientTape() as tape:
        y = ops.ROIAlign(2, 2, 0.25)(Tensor._from_tf(tf.convert_to_tensor(feats)), rois)._value()
        loss = tf.reduce_sum(y)
    g = tape.gradient(loss, feats).numpy()
    assert g.sum() == pytest.approx(4.0, rel=1e-5) and (g > 0).sum() > 1


def test_errors():
    with pytest.raises(KeyError, match="only 'iou' or 'iof' are supported, but got 'mode': x"):
        ops.IOU("x")
    with pytest.raises(TypeError, match="For 'NMSWithMask', the 'iou_threshold' must be float, but got int"):
        ops.NMSWithMask(1)
    with pytest.raises(TypeError, match=r"For 'BoundingBoxEncode', the 'means\[0\]' must be float, but got int"):
        ops.BoundingBoxEncode(means=(0, 0, 0, 0))
    with pytest.raises(ValueError, match="'stds len' must be equal to 4, but got 3"):
        ops.BoundingBoxEncode(stds=(1.0, 1.0, 1.0))
    with pytest.raises(ValueError, match="'max_shape len' must be equal to 2, but got 3"):
        ops.BoundingBoxDecode(max_shape=(1, 2, 3))
    with pytest.raises(ValueError, match="'sample_num' must be positive on TensorFlow"):
        ops.ROIAlign(2, 2, 0.5, 0)
    with pytest.raises(TypeError, match="For 'IOU', the 'anchor_boxes' dtype must be float16 or float32, but got "
                                        "int32"):
        ops.IOU()(Tensor(np.zeros((2, 4), np.int32)), Tensor(np.zeros((2, 4), np.int32)))
    with pytest.raises(ValueError, match="For 'CheckValid', the first dimension of 'img_metas' must equal to 3"):
        ops.CheckValid()(Tensor(np.zeros((2, 4), np.float32)), Tensor(np.zeros(4, np.float32)))
    with pytest.raises(ValueError, match=r"the 'bboxes' must have shape \(N, 5\)"):
        ops.NMSWithMask(0.5)(Tensor(np.zeros((3, 4), np.float32)))


def test_functional_names():
    a = Tensor(_boxes(3))
    np.testing.assert_allclose(ops.iou(a, a, "iof").asnumpy().diagonal(), 1.0, rtol=1e-6)
    assert ops.check_valid(a, Tensor(np.array([100, 100, 1.0], np.float32))).asnumpy().all()
    enc = ops.bounding_box_encode(a, a, (0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 1.0))
    np.testing.assert_allclose(enc.asnumpy(), 0.0, atol=1e-6)
    np.testing.assert_allclose(ops.bounding_box_decode(a, enc, (100, 100)).asnumpy(), a.asnumpy(), rtol=1e-5)

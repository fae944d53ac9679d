"""Object-detection box operations: IoU, box encode / decode, validity, NMS, ROIAlign, crop-and-resize.

Boxes are ``(x0, y0, x1, y1)`` rows, as in MindSpore. Box sizes follow MindSpore's kernels: IoU,
encode and decode count a box ``x0..x1`` as ``x1 - x0 + 1`` pixels wide; ``NMSWithMask`` uses
``x1 - x0``.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> a = Tensor(np.array([[0, 0, 9, 9]], np.float32))
    >>> ops.iou(a, a).asnumpy()
    array([[1.]], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function._utils import to_tf

__all__ = ["iou", "bounding_box_encode", "bounding_box_decode", "check_valid", "crop_and_resize"]

_FLOATS = (tf.float16, tf.float32)


def _boxes(op: str, arg: str, x: Any, last: int = 4) -> tf.Tensor:
    t = to_tf(x, op, arg)
    if t.dtype not in _FLOATS:
        raise TypeError(f"For '{op}', the '{arg}' dtype must be float16 or float32, but got {t.dtype.name}.")
    if t.shape.rank is not None and (t.shape.rank != 2 or (t.shape[1] is not None and t.shape[1] != last)):
        raise ValueError(f"For '{op}', the '{arg}' must have shape (N, {last}), but got {t.shape.as_list()}.")
    return t


def float_tuple(op: str, arg: str, v: Any, n: int) -> tuple:
    if not isinstance(v, tuple):
        raise TypeError(f"For '{op}', the '{arg}' must be tuple, but got {type(v).__name__}.")
    for i, e in enumerate(v):
        if not isinstance(e, float):
            raise TypeError(f"For '{op}', the '{arg}[{i}]' must be float, but got {type(e).__name__}.")
    if len(v) != n:
        raise ValueError(f"For '{op}', the '{arg} len' must be equal to {n}, but got {len(v)}.")
    return v


def iou(anchor_boxes: Any, gt_boxes: Any, mode: str = "iou") -> Tensor:
    """Intersection over union (``'iou'``) or over the ground-truth area (``'iof'``) of every box pair.

    Args:
        anchor_boxes: ``(N, 4)`` float16 / float32 boxes.
        gt_boxes: ``(M, 4)`` boxes of the same dtype.
        mode: ``'iou'`` or ``'iof'``.

    Returns:
        A ``(M, N)`` Tensor of the anchors' dtype.

    Raises:
        KeyError: for an unknown ``mode``.
        TypeError: for non-float boxes.
    """
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    a = _boxes("IOU", "anchor_boxes", anchor_boxes)
    g = tf.cast(_boxes("IOU", "gt_boxes", gt_boxes), a.dtype)
    af, gf = tf.cast(a, tf.float32), tf.cast(g, tf.float32)
    ax0, ay0, ax1, ay1 = (af[None, :, i] for i in range(4))
    gx0, gy0, gx1, gy1 = (gf[:, None, i] for i in range(4))
    iw = tf.maximum(tf.minimum(ax1, gx1) - tf.maximum(ax0, gx0) + 1.0, 0.0)
    ih = tf.maximum(tf.minimum(ay1, gy1) - tf.maximum(ay0, gy0) + 1.0, 0.0)
    inter = iw * ih
    g_area = (gx1 - gx0 + 1.0) * (gy1 - gy0 + 1.0)
    if mode == "iof":
        out = inter / g_area
    else:
        out = inter / ((ax1 - ax0 + 1.0) * (ay1 - ay0 + 1.0) + g_area - inter)
    return _wrap(tf.cast(out, a.dtype))


def _centre_size(b: tf.Tensor) -> tuple:
    w = b[:, 2] - b[:, 0] + 1.0
    h = b[:, 3] - b[:, 1] + 1.0
    return b[:, 0] + 0.5 * (w - 1.0), b[:, 1] + 0.5 * (h - 1.0), w, h


def bounding_box_encode(anchor_box: Any, groundtruth_box: Any, means: tuple = (0.0, 0.0, 0.0, 0.0),
                        stds: tuple = (1.0, 1.0, 1.0, 1.0)) -> Tensor:
    """The deltas ``((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))``, normalised by ``means`` / ``stds``.

    Args:
        anchor_box: ``(n, 4)`` anchors.
        groundtruth_box: ``(n, 4)`` ground-truth boxes.
        means: 4 floats subtracted from the deltas.
        stds: 4 floats dividing the deltas.

    Returns:
        A ``(n, 4)`` Tensor of the anchors' dtype.
    """
    float_tuple("BoundingBoxEncode", "means", means, 4)
    float_tuple("BoundingBoxEncode", "stds", stds, 4)
    a = to_tf(anchor_box, "BoundingBoxEncode", "anchor_box")
    g = to_tf(groundtruth_box, "BoundingBoxEncode", "groundtruth_box")
    af, gf = tf.cast(a, tf.float32), tf.cast(g, tf.float32)
    px, py, pw, ph = _centre_size(af)
    gx, gy, gw, gh = _centre_size(gf)
    d = tf.stack([(gx - px) / pw, (gy - py) / ph, tf.math.log(gw / pw), tf.math.log(gh / ph)], axis=1)
    d = (d - tf.constant(means, tf.float32)) / tf.constant(stds, tf.float32)
    return _wrap(tf.cast(d, a.dtype))


def bounding_box_decode(anchor_box: Any, deltas: Any, max_shape: Any, means: tuple = (0.0, 0.0, 0.0, 0.0),
                        stds: tuple = (1.0, 1.0, 1.0, 1.0), wh_ratio_clip: float = 0.016) -> Tensor:
    """Apply deltas to anchors (the inverse of :func:`bounding_box_encode`), clipping to ``max_shape``.

    Args:
        anchor_box: ``(n, 4)`` anchors.
        deltas: ``(n, 4)`` deltas.
        max_shape: ``(height, width)``: x is clipped to ``[0, width]``, y to ``[0, height]``;
            None leaves boxes unclipped.
        means: 4 floats the deltas were normalised with.
        stds: 4 floats the deltas were normalised with.
        wh_ratio_clip: the size deltas are clipped to ``|log(wh_ratio_clip)|``.

    Returns:
        A ``(n, 4)`` Tensor of the anchors' dtype.
    """
    op = "BoundingBoxDecode"
    float_tuple(op, "means", means, 4)
    float_tuple(op, "stds", stds, 4)
    if not isinstance(wh_ratio_clip, float):
        raise TypeError(f"For '{op}', the 'wh_ratio_clip' must be float, but got {type(wh_ratio_clip).__name__}.")
    if max_shape is not None:
        if not isinstance(max_shape, tuple):
            raise TypeError(f"For '{op}', the 'max_shape' must be tuple, but got {type(max_shape).__name__}.")
        if len(max_shape) != 2:
            raise ValueError(f"For '{op}', the 'max_shape len' must be equal to 2, but got {len(max_shape)}.")
    a = to_tf(anchor_box, op, "anchor_box")
    af = tf.cast(a, tf.float32)
    d = tf.cast(to_tf(deltas, op, "deltas"), tf.float32) * tf.constant(stds, tf.float32) + tf.constant(means,
                                                                                                       tf.float32)
    px, py, pw, ph = _centre_size(af)
    limit = abs(math.log(wh_ratio_clip))
    dw = tf.clip_by_value(d[:, 2], -limit, limit)
    dh = tf.clip_by_value(d[:, 3], -limit, limit)
    gw, gh = pw * tf.exp(dw), ph * tf.exp(dh)
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    x0, y0 = gx - gw * 0.5 + 0.5, gy - gh * 0.5 + 0.5
    x1, y1 = gx + gw * 0.5 - 0.5, gy + gh * 0.5 - 0.5
    if max_shape is not None:
        hmax, wmax = float(max_shape[0]), float(max_shape[1])
        x0, x1 = tf.clip_by_value(x0, 0.0, wmax), tf.clip_by_value(x1, 0.0, wmax)
        y0, y1 = tf.clip_by_value(y0, 0.0, hmax), tf.clip_by_value(y1, 0.0, hmax)
    return _wrap(tf.cast(tf.stack([x0, y0, x1, y1], axis=1), a.dtype))


def check_valid(bboxes: Any, image_info: Any) -> Tensor:
    """Whether each box lies in the image: ``x0, y0 >= 0``, ``x1 <= w * ratio - 1``, ``y1 <= h * ratio - 1``.

    Args:
        bboxes: ``(N, 4)`` float16 / float32 boxes.
        image_info: ``(height, width, ratio)``.

    Returns:
        A bool Tensor of shape ``(N,)``.
    """
    b = tf.cast(_boxes("CheckValid", "bboxes", bboxes), tf.float32)
    info = to_tf(image_info, "CheckValid", "img_metas")
    if info.dtype not in _FLOATS:
        raise TypeError(f"For 'CheckValid', the 'img_metas' dtype must be float16 or float32, but got "
                        f"{info.dtype.name}.")
    if info.shape.rank is not None and (info.shape.rank != 1 or info.shape[0] not in (None, 3)):
        raise ValueError(f"For 'CheckValid', the first dimension of 'img_metas' must equal to 3, but got shape "
                         f"{info.shape.as_list()}.")
    info = tf.cast(info, tf.float32)
    h, w = info[0] * info[2] - 1.0, info[1] * info[2] - 1.0
    ok = (b[:, 0] >= 0.0) & (b[:, 1] >= 0.0) & (b[:, 2] <= w) & (b[:, 3] <= h)
    return _wrap(ok)


def nms_with_mask(bboxes: Any, iou_threshold: float) -> tuple:
    """Greedy non-maximum suppression of ``(N, 5)`` rows ``(x0, y0, x1, y1, score)``.

    Returns:
        ``(boxes sorted by descending score, their indices in the input, the keep mask in sorted order)``.
    """
    b = _boxes("NMSWithMask", "bboxes", bboxes, 5)
    n = tf.shape(b)[0]
    order = tf.argsort(b[:, 4], direction="DESCENDING", stable=True)
    sb = tf.gather(b, order)
    f = tf.cast(sb, tf.float32)
    yx = tf.stack([f[:, 1], f[:, 0], f[:, 3], f[:, 2]], axis=1)
    keep = tf.image.non_max_suppression(yx, f[:, 4], max_output_size=n, iou_threshold=iou_threshold)
    mask = tf.scatter_nd(keep[:, None], tf.ones_like(keep, tf.bool), shape=[n])
    return _wrap(sb), _wrap(tf.cast(order, tf.int32)), _wrap(mask)


def roi_align(features: Any, rois: Any, pooled_height: int, pooled_width: int, spatial_scale: float,
              sample_num: int = 2, roi_end_mode: int = 1) -> Tensor:
    """Average of ``sample_num`` x ``sample_num`` bilinear samples per output bin of each region of interest.

    Args:
        features: ``(N, C, H, W)`` feature map.
        rois: ``(R, 5)`` rows ``(batch_index, x0, y0, x1, y1)`` in image coordinates.
        pooled_height: output height.
        pooled_width: output width.
        spatial_scale: image-to-feature-map scale.
        sample_num: samples per bin and axis (positive).
        roi_end_mode: 1 adds one pixel to the box end (``x1 + 1``), 0 does not.

    Returns:
        A ``(R, C, pooled_height, pooled_width)`` Tensor.
    """
    op = "ROIAlign"
    x = to_tf(features, op, "features")
    r = tf.cast(to_tf(rois, op, "rois"), tf.float32)
    dtype = x.dtype
    s = int(sample_num)
    hf = tf.cast(tf.shape(x)[2], tf.float32)
    wf = tf.cast(tf.shape(x)[3], tf.float32)
    # Edge-pad by one pixel: bilinear sampling of the padded map reproduces the clamping of the
    # reference kernel on [-1, 0] and [size - 1, size], and zero beyond (the extrapolation value).
    img = tf.pad(tf.transpose(tf.cast(x, tf.float32), [0, 2, 3, 1]), [[0, 0], [1, 1], [1, 1], [0, 0]],
                 mode="SYMMETRIC")
    end = float(roi_end_mode)
    x0, y0 = r[:, 1] * spatial_scale, r[:, 2] * spatial_scale
    x1, y1 = (r[:, 3] + end) * spatial_scale, (r[:, 4] + end) * spatial_scale
    min_size = 0.0 if roi_end_mode else 1.0  # MindSpore's kernel: at least one pixel only without the end pixel
    rw, rh = tf.maximum(x1 - x0, min_size), tf.maximum(y1 - y0, min_size)
    ny, nx = pooled_height * s, pooled_width * s
    sy, sx = rh / ny, rw / nx                        # sample spacing
    fy, fx = y0 + 0.5 * sy, x0 + 0.5 * sx            # first sample
    ly, lx = fy + (ny - 1) * sy, fx + (nx - 1) * sx  # last sample
    boxes = tf.stack([(fy + 1.0) / (hf + 1.0), (fx + 1.0) / (wf + 1.0),
                      (ly + 1.0) / (hf + 1.0), (lx + 1.0) / (wf + 1.0)], axis=1)
    crops = tf.image.crop_and_resize(img, boxes, tf.cast(r[:, 0], tf.int32), [ny, nx], method="bilinear",
                                     extrapolation_value=0.0)
    pooled = tf.nn.avg_pool2d(crops, [s, s], [s, s], "VALID") if s > 1 else crops
    return _wrap(tf.cast(tf.transpose(pooled, [0, 3, 1, 2]), dtype))


def crop_and_resize(image: Any, boxes: Any, box_indices: Any, crop_size: Any, method: str = "bilinear",
                    extrapolation_value: float = 0.0) -> Tensor:
    """Crop boxes ``(y1, x1, y2, x2)`` (normalised) out of NHWC images and resize them to ``crop_size``.

    Args:
        image: ``(batch, height, width, depth)`` images.
        boxes: ``(num_boxes, 4)`` normalised boxes.
        box_indices: ``(num_boxes,)`` int32 image index of each box.
        crop_size: ``(crop_height, crop_width)``.
        method: ``'bilinear'`` or ``'nearest'`` (``'bilinear_v2'`` raises NotImplementedError).
        extrapolation_value: the value outside the image.

    Returns:
        A float32 ``(num_boxes, crop_height, crop_width, depth)`` Tensor.
    """
    op = "CropAndResize"
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise ValueError(f"For '{op}', the 'method' must be one of ['bilinear', 'nearest', 'bilinear_v2'], "
                         f"but got '{method}'.")
    if method == "bilinear_v2":
        raise NotImplementedError(f"For '{op}', tfspore does not implement the 'method' 'bilinear_v2'; use "
                                  f"'bilinear' or 'nearest'.")
    if not isinstance(crop_size, (tuple, list)) or len(crop_size) != 2:
        raise ValueError(f"For '{op}', the 'crop_size' must be a tuple of two ints, but got {crop_size!r}.")
    img = tf.cast(to_tf(image, op, "image"), tf.float32)
    out = tf.image.crop_and_resize(img, tf.cast(to_tf(boxes, op, "boxes"), tf.float32),
                                   tf.cast(to_tf(box_indices, op, "box_index"), tf.int32),
                                   [int(crop_size[0]), int(crop_size[1])],
                                   method="nearest" if method == "nearest" else "bilinear",
                                   extrapolation_value=float(extrapolation_value))
    return _wrap(out)

"""Object-detection primitives: ``IOU``, ``NMSWithMask``, ``BoundingBoxEncode`` / ``Decode``, ``CheckValid`` and
``ROIAlign``.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> boxes = Tensor(np.array([[0, 0, 9, 9], [0, 0, 4, 9]], np.float32))
    >>> ops.IOU()(boxes, boxes).asnumpy()
    array([[1. , 0.5],
           [0.5, 1. ]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from tfspore.common.tensor import Tensor
from tfspore.ops.function import _detection as D
from tfspore.ops.primitive import Primitive, PrimitiveWithInfer, prim_attr_register

__all__ = ["IOU", "NMSWithMask", "BoundingBoxEncode", "BoundingBoxDecode", "CheckValid", "ROIAlign"]


class IOU(Primitive):
    """Intersection over union (or over foreground) of boxes: ``IOU(mode)(anchor_boxes, gt_boxes)`` -> ``(M, N)``.

    Args:
        mode: ``'iou'`` or ``'iof'``.

    Raises:
        KeyError: for another ``mode``.
    """

    @prim_attr_register
    def __init__(self, mode: str = "iou") -> None:
        if mode not in {"iou", "iof"}:
            raise KeyError(f"For '{self.name}', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
        self.init_prim_io_names(inputs=["anchor_boxes", "gt_boxes"], outputs=["overlap"])

    def __call__(self, anchor_boxes: Any, gt_boxes: Any) -> Tensor:
        return D.iou(anchor_boxes, gt_boxes, self.mode)


class NMSWithMask(PrimitiveWithInfer):
    """Non-maximum suppression of ``(N, 5)`` boxes ``(x0, y0, x1, y1, score)``.

    Returns ``(output_boxes, output_idx, selected_mask)``: the boxes sorted by descending score, the
    index in the input of each sorted box, and the mask of the boxes kept (in sorted order). A box is
    dropped when its IoU with a kept box of higher score exceeds ``iou_threshold``.

    Args:
        iou_threshold: the IoU threshold (float).

    Raises:
        TypeError: when ``iou_threshold`` is not a float.
    """

    @prim_attr_register
    def __init__(self, iou_threshold: float = 0.5) -> None:
        if not isinstance(iou_threshold, float):
            raise TypeError(f"For '{self.name}', the 'iou_threshold' must be float, but got "
                            f"{type(iou_threshold).__name__}.")
        self.init_prim_io_names(inputs=["bboxes"], outputs=["selected_boxes", "selected_idx", "selected_mask"])

    def __call__(self, bboxes: Any) -> tuple:
        return D.nms_with_mask(bboxes, self.iou_threshold)


class BoundingBoxEncode(PrimitiveWithInfer):
    """Encode boxes as deltas from anchors: ``BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box)``.

    Args:
        means: 4 floats.
        stds: 4 floats.

    Raises:
        TypeError: when ``means`` / ``stds`` are not tuples of floats.
        ValueError: when they do not have 4 values.
    """

    @prim_attr_register
    def __init__(self, means: tuple = (0.0, 0.0, 0.0, 0.0), stds: tuple = (1.0, 1.0, 1.0, 1.0)) -> None:
        D.float_tuple(self.name, "means", means, 4)
        D.float_tuple(self.name, "stds", stds, 4)

    def __call__(self, anchor_box: Any, groundtruth_box: Any) -> Tensor:
        return D.bounding_box_encode(anchor_box, groundtruth_box, self.means, self.stds)


class BoundingBoxDecode(Primitive):
    """Decode deltas into boxes: ``BoundingBoxDecode(max_shape, ...)(anchor_box, deltas)``.

    Args:
        max_shape: ``(height, width)`` the boxes are clipped to, or None.
        means: 4 floats.
        stds: 4 floats.
        wh_ratio_clip: the size-delta limit ``|log(wh_ratio_clip)|``.
    """

    @prim_attr_register
    def __init__(self, max_shape: Any, means: tuple = (0.0, 0.0, 0.0, 0.0), stds: tuple = (1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip: float = 0.016) -> None:
        D.float_tuple(self.name, "means", means, 4)
        D.float_tuple(self.name, "stds", stds, 4)
        if not isinstance(wh_ratio_clip, float):
            raise TypeError(f"For '{self.name}', the 'wh_ratio_clip' must be float, but got "
                            f"{type(wh_ratio_clip).__name__}.")
        if max_shape is not None:
            if not isinstance(max_shape, tuple):
                raise TypeError(f"For '{self.name}', the 'max_shape' must be tuple, but got "
                                f"{type(max_shape).__name__}.")
            if len(max_shape) != 2:
                raise ValueError(f"For '{self.name}', the 'max_shape len' must be equal to 2, but got "
                                 f"{len(max_shape)}.")

    def __call__(self, anchor_box: Any, deltas: Any) -> Tensor:
        return D.bounding_box_decode(anchor_box, deltas, self.max_shape, self.means, self.stds, self.wh_ratio_clip)


class CheckValid(Primitive):
    """Whether each ``(x0, y0, x1, y1)`` box lies in the image ``(height, width, ratio)``: ``(bboxes, img_metas)``."""

    @prim_attr_register
    def __init__(self) -> None:
        self.init_prim_io_names(inputs=["bboxes", "img_metas"], outputs=["output"])

    def __call__(self, bboxes: Any, img_metas: Any) -> Tensor:
        return D.check_valid(bboxes, img_metas)


class ROIAlign(Primitive):
    """Region-of-interest align of NCHW features: ``ROIAlign(...)(features, rois)`` -> ``(R, C, ph, pw)``.

    Args:
        pooled_height: output height.
        pooled_width: output width.
        spatial_scale: image-to-feature-map scale.
        sample_num: samples per bin and axis; must be positive on TensorFlow (MindSpore's 0 picks an
            adaptive count per region).
        roi_end_mode: 1 counts the box end pixel (``x1 + 1``), 0 does not.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for a non-positive ``sample_num`` or a ``roi_end_mode`` other than 0 or 1.
    """

    @prim_attr_register
    def __init__(self, pooled_height: int, pooled_width: int, spatial_scale: float, sample_num: int = 2,
                 roi_end_mode: int = 1) -> None:
        for arg, v in (("pooled_height", pooled_height), ("pooled_width", pooled_width), ("sample_num", sample_num),
                       ("roi_end_mode", roi_end_mode)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{self.name}', the '{arg}' must be int, but got {type(v).__name__}.")
        if not isinstance(spatial_scale, float):
            raise TypeError(f"For '{self.name}', the 'spatial_scale' must be float, but got "
                            f"{type(spatial_scale).__name__}.")
        if roi_end_mode not in (0, 1):
            raise ValueError(f"For '{self.name}', the 'roi_end_mode' must be 0 or 1, but got {roi_end_mode}.")
        if sample_num <= 0:
            raise ValueError(f"For '{self.name}', the 'sample_num' must be positive on TensorFlow (the adaptive "
                             f"count of 0 is not supported), but got {sample_num}.")

    def __call__(self, features: Any, rois: Any) -> Tensor:
        return D.roi_align(features, rois, self.pooled_height, self.pooled_width, self.spatial_scale,
                           self.sample_num, self.roi_end_mode)

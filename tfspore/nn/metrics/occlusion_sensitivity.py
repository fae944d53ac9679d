"""``OcclusionSensitivity``: how much a classifier's score drops when each region of the input is occluded.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> from tfspore.train import OcclusionSensitivity
    >>> class DenseNet(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         w = np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]], np.float32)
    ...         b = np.array([0.3, 0.6], np.float32)
    ...         self.dense = nn.Dense(4, 2, weight_init=Tensor(w), bias_init=Tensor(b))
    ...     def construct(self, x):
    ...         return self.dense(x)
    >>> m = OcclusionSensitivity()
    >>> m.update(DenseNet(), np.array([[0.1, 0.2, 0.3, 0.4]], np.float32), np.array(1, np.int32))
    >>> print(m.eval().round(4))
    [0.3 0.6 1.  0.9]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.metrics.metric import Metric, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


class OcclusionSensitivity(Metric):
    """Occlusion sensitivity map of one input: the model's score of the label on the clean input minus its
    score with a box of half-width ``margin`` around each position set to ``pad_val``.

    Args:
        pad_val: the value of occluded elements. Default: ``0.0``.
        margin: the half-width of the occluding box, an int or a list of one int per dimension. Default: ``2``.
        n_batch: how many occluded inputs go through the model at once. Default: ``128``.
        b_box: ``[min_1, max_1, min_2, max_2, ...]`` to restrict the map to a bounding box. Default: ``None``.

    Raises:
        TypeError: for arguments of the wrong type.

    Example:
        >>> from tfspore.train import OcclusionSensitivity
        >>> m = OcclusionSensitivity(pad_val=0.0, margin=2, n_batch=32)
    """

    def __init__(self, pad_val: float = 0.0, margin: int | list = 2, n_batch: int = 128,
                 b_box: list | None = None) -> None:
        super().__init__()
        name = "OcclusionSensitivity"
        self.pad_val = validator.check_type(pad_val, [float], "pad_val", name)
        self.margin = validator.check_type(margin, [int, list], "margin", name)
        self.n_batch = validator.check_type(n_batch, [int], "n_batch", name)
        self.b_box = b_box if b_box is None else validator.check_type(b_box, [list], "b_box", name)
        self.clear()

    def clear(self) -> None:
        """Forget the map."""
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Compute the map of one input.

        Args:
            inputs: ``(model, y_pred, label)``: a Cell returning class scores ``(batch, C)``, one input of
                shape ``(1, ...)``, and its label.

        Raises:
            ValueError: for a wrong number of inputs or a bad bounding box.
            TypeError: when the model is not a Cell.
            RuntimeError: when the input's batch is not 1 or the label count differs from it.
        """
        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, predicted "
                             f"value, label), but got {len(inputs)}.")
        model = inputs[0]
        y_pred = self._convert_data(inputs[1])
        label = self._convert_data(inputs[2])
        model = validator.check_type(model, [Cell], "model", "OcclusionSensitivity")
        if y_pred.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {y_pred.shape[0]}.")
        if np.prod(label.shape) != y_pred.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same "
                               f"as the batches, but got the label number {np.prod(label.shape)}, and batches "
                               f"{y_pred.shape[0]}.")
        y_pred_shape = np.array(y_pred.shape[1:])
        b_box_min, b_box_max = _check_input_bounding_box(self.b_box, y_pred_shape)
        self._baseline = model(Tensor(y_pred)).asnumpy()[0, label].item()
        batch_images: list = []
        batch_ids: list = []
        sensitivity_im = np.empty(0, dtype=float)
        output_im_shape = y_pred_shape if self.b_box is None else b_box_max - b_box_min + 1
        num_required_predictions = int(np.prod(output_im_shape))
        for i in range(num_required_predictions):
            idx = np.unravel_index(i, output_im_shape)
            if b_box_min is not None:
                idx += b_box_min
            min_idx = [max(0, k - self.margin) for k in idx]
            max_idx = [min(j, k + self.margin) for k, j in zip(idx, y_pred_shape)]
            occlu_im = y_pred.copy()
            occlu_im[(...,) + tuple(slice(k, j) for k, j in zip(min_idx, max_idx))] = self.pad_val
            batch_images.append(occlu_im)
            batch_ids.append(label)
            if len(batch_images) == self.n_batch or i == num_required_predictions - 1:
                sensitivity_im = _append_to_sensitivity_im(model, batch_images, batch_ids, sensitivity_im)
                batch_images = []
                batch_ids = []
        self._sensitivity_im = sensitivity_im.reshape(output_im_shape)
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The sensitivity map (baseline score minus occluded score), squeezed.

        Raises:
            RuntimeError: when ``update`` was not called.
        """
        self._check_updated()
        return self._baseline - np.squeeze(self._sensitivity_im)


def _append_to_sensitivity_im(model: Cell, batch_images: list, batch_ids: list,
                              sensitivity_im: np.ndarray) -> np.ndarray:
    batch_images = np.vstack(batch_images)
    batch_ids = np.expand_dims(batch_ids, 1)
    scores_all = model(Tensor(batch_images)).asnumpy()
    first_indices = np.arange(batch_ids.shape[0])[:, None]
    scores = scores_all[first_indices, batch_ids]
    if sensitivity_im.size == 0:
        return np.vstack(scores)
    return np.vstack((sensitivity_im, scores))


def _check_input_bounding_box(b_box: list | None, im_shape: np.ndarray) -> tuple[Any, Any]:
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(im_shape):
        raise ValueError(f"For 'OcclusionSensitivity', the bounding box must contain upper and lower for all "
                         f"dimensions (except batch number), and the length of 'b_box' must be twice as long as "
                         f"predicted value's (except batch number), but got 'b_box' length {len(b_box)}, predicted "
                         f"value length (except batch number) {len(im_shape)}.")
    b_box_min = np.array(b_box[::2])
    b_box_max = np.array(b_box[1::2])
    b_box_min[b_box_min < 0] = 0
    b_box_max[b_box_max < 0] = im_shape[b_box_max < 0] - 1
    if np.any(b_box_max >= im_shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all "
                         "values.")
    if np.any(b_box_min > b_box_max):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding box "
                         "for all values.")
    return b_box_min, b_box_max

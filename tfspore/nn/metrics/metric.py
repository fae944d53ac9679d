"""``Metric``, the base class of the evaluation metrics, and the helpers they share.

Metrics accumulate on the host with numpy, as MindSpore's do: ``update`` takes Tensors, numpy arrays
or lists (one batch of outputs and labels), ``eval`` returns the value over everything seen since
``clear``.

Example:
    >>> import numpy as np
    >>> from tfspore.train.metrics import Metric, rearrange_inputs
    >>> class CountPositives(Metric):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.clear()
    ...     def clear(self):
    ...         self._n = 0
    ...     @rearrange_inputs
    ...     def update(self, *inputs):
    ...         self._n += int((self._convert_data(inputs[0]) > 0).sum())
    ...     def eval(self):
    ...         return self._n
    >>> CountPositives()(np.array([1, -1, 2]))
    2
"""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore.common.tensor import Tensor

__all__ = ["Metric", "rearrange_inputs", "EvaluationBase"]

_eval_types = {"classification", "multilabel"}


def rearrange_inputs(func: Callable) -> Callable:
    """Decorate a metric's ``update`` so that it receives ``inputs`` reordered by ``self.indexes``.

    With ``metric.set_indexes([2, 1])``, ``update(a, b, c)`` runs as ``update(c, b)``.

    Args:
        func: the ``update`` method.

    Returns:
        The wrapped method.

    Example:
        >>> class MyMetric(Metric):
        ...     @rearrange_inputs
        ...     def update(self, *inputs):
        ...         ...
    """
    @functools.wraps(func)
    def wrapper(self: "Metric", *inputs: Any) -> Any:
        indexes = self.indexes
        inputs = inputs if not indexes else [inputs[i] for i in indexes]
        return func(self, *inputs)

    return wrapper


class Metric(metaclass=ABCMeta):
    """The base class of metrics: subclasses implement ``clear``, ``update`` and ``eval``.

    Calling a metric runs ``clear``, ``update(*inputs)`` and ``eval`` in turn.

    Example:
        >>> from tfspore.train import Accuracy
        >>> m = Accuracy()
        >>> m.set_indexes([0, 2])
        <...Accuracy object at 0x...>
    """

    def __init__(self) -> None:
        self._indexes = None

    def _convert_data(self, data: Any) -> np.ndarray:
        """A Tensor, list or numpy array as a numpy array.

        Args:
            data: a Tensor (tfspore or TensorFlow), a list or a numpy array.

        Returns:
            numpy.ndarray: the data.

        Raises:
            TypeError: for another type.
        """
        if isinstance(data, Tensor):
            data = data.asnumpy()
        elif isinstance(data, (tf.Tensor, tf.Variable)):
            data = data.numpy()
        elif isinstance(data, list):
            data = np.array(data)
        elif isinstance(data, np.ndarray):
            pass
        else:
            raise TypeError(f"For 'Metric' and its derived classes, the input data type must be tensor, list or "
                            f"numpy.ndarray, but got {type(data)}.")
        return data

    def _pred_and_true(self, name: str, inputs: tuple, end: str = ".") -> tuple[np.ndarray, np.ndarray]:
        """The two ``update`` inputs ``(y_pred, y)`` of ``name`` as arrays; MindSpore's error (ending with
        ``end``) for another number of inputs."""
        if len(inputs) != 2:
            raise ValueError(f"For '{name}.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}{end}")
        return self._convert_data(inputs[0]), self._convert_data(inputs[1])

    @property
    def indexes(self) -> list | None:
        """The positions of ``update``'s inputs to use (set by :meth:`set_indexes`), or None."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes: list) -> "Metric":
        """Select and reorder the inputs that ``update`` (decorated by :func:`rearrange_inputs`) receives.

        Args:
            indexes: a list of int positions into the network's outputs and the labels.

        Returns:
            The metric itself.

        Raises:
            ValueError: when ``indexes`` is not a list of ints.

        Example:
            >>> from tfspore.train import Accuracy
            >>> acc = Accuracy().set_indexes([0, 2])
        """
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"For 'set_indexes', the argument 'indexes' must be a list and all its elements must be "
                             f"int, please check whether it is correct, but got {indexes!r}.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs: Any) -> Any:
        """``clear()``, ``update(*inputs)``, then return ``eval()``."""
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state."""
        raise NotImplementedError("Must define clear function to use this base class")

    @abstractmethod
    def eval(self) -> Any:
        """The metric over everything seen since the last ``clear``."""
        raise NotImplementedError("Must define eval function to use this base class")

    @abstractmethod
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch of inputs."""
        raise NotImplementedError("Must define update function to use this base class")

    def _check_updated(self) -> None:
        """Raise MindSpore's RuntimeError when ``eval`` comes before any ``update`` (``self._is_update``)."""
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")


class EvaluationBase(Metric):
    """The base of the classification metrics with an ``eval_type``: ``'classification'`` or ``'multilabel'``.

    Args:
        eval_type: ``'classification'`` (class scores and class indices or one-hot labels) or
            ``'multilabel'`` (0/1 predictions and labels of one shape).

    Raises:
        TypeError: for another ``eval_type``.
    """

    def __init__(self, eval_type: str) -> None:
        super().__init__()
        if eval_type not in _eval_types:
            raise TypeError(f"The argument 'eval_type' must be in {_eval_types}, but got {eval_type}")
        self._type = eval_type

    def _check_shape(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(f"In classification case, the dimension of y_pred (predicted value) should equal to "
                                 f"the dimension of y (true value) add 1, but got y_pred dimension: {y_pred.ndim} and "
                                 f"y dimension: {y.ndim}.")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"In classification case, y_pred (predicted value) shape and y (true value) shape can "
                                 f"not match, y shape should be equal to y_pred shape that the value at index 1 is "
                                 f"deleted. Such as y_pred shape (1, 2, 3), then y shape should be (1, 3). But got "
                                 f"y_pred shape {y_pred.shape} and y shape {y.shape}")
        else:
            if y_pred.ndim != y.ndim:
                raise ValueError(f"In {self._type} case, the dimension of y_pred (predicted value) should equal to the "
                                 f"dimension of y (true value), but got y_pred dimension: {y_pred.ndim} and y "
                                 f"dimension: {y.ndim}.")
            if y_pred.shape != y.shape:
                raise ValueError(f"In {self._type} case, the shape of y_pred (predicted value) should equal to the "
                                 f"shape of y (true value), but got y_pred shape: {y_pred.shape} and y shape: "
                                 f"{y.shape}.")

    def _check_value(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type != "classification" and not (np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y (true value) should "
                             "be 0 or 1.Please check whether your inputs y_pred and y are correct.")

    def _checked_batch(self, name: str, inputs: tuple, end: str = ".") -> tuple[np.ndarray, np.ndarray]:
        """One ``update`` batch ``(y_pred, y)`` as arrays, checked: two inputs (the message ends with ``end``,
        as MindSpore's of ``name`` does), one-hot labels of classification data turned into indices, the
        shapes, the multilabel values and the class count (see :func:`_check_class_num`)."""
        y_pred, y = self._pred_and_true(name, inputs, end)
        if self._type == "classification" and y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        _check_class_num(self, name, y_pred)
        return y_pred, y

    def clear(self) -> None:
        raise NotImplementedError

    def update(self, *inputs: Any) -> None:
        raise NotImplementedError

    def eval(self) -> Any:
        raise NotImplementedError


def _check_onehot_data(data: np.ndarray) -> bool:
    """Whether ``data`` is one-hot along axis 1."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        shp = (data.shape[0],) + data.shape[2:]
        if np.equal(np.ones(shp), data.sum(axis=1)).all():
            return True
    return False


def _check_samples(label: str, count: Any, inputs: str = "inputs(predicted value, true value)") -> None:
    """Raise MindSpore's RuntimeError of ``label``'s ``eval`` when no sample was counted (``count`` is 0);
    ``inputs`` is how its message names the inputs."""
    if count == 0:
        raise RuntimeError(f"The '{label}' can not be calculated, because the number of samples is 0, please check "
                           f"whether your {inputs} are empty, or has called update method before calling eval "
                           "method.")


def _check_class_num(metric: Metric, name: str, y_pred: np.ndarray) -> int:
    """The class count ``y_pred.shape[1]``: kept in ``metric._class_num`` from the first batch, and checked
    against it for the next ones (``name`` is the metric in the message)."""
    if metric._class_num == 0:
        metric._class_num = y_pred.shape[1]
    elif y_pred.shape[1] != metric._class_num:
        raise ValueError(f"For '{name}.update', class number not match, last input predicted data contain "
                         f"{metric._class_num} classes, but current predicted data contain {y_pred.shape[1]} "
                         f"classes, please check your predicted value(inputs[0]).")
    return metric._class_num


def _binary_clf_curve(preds: np.ndarray, target: np.ndarray, sample_weights: Any = None,
                      pos_label: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """False and true positive counts at each distinct score threshold, in decreasing score order.

    Returns:
        ``(fps, tps, thresholds)``.
    """
    if sample_weights is not None and not isinstance(sample_weights, np.ndarray):
        sample_weights = np.array(sample_weights)
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    order = np.argsort(-preds)
    preds = preds[order]
    target = target[order]
    weight = sample_weights[order] if sample_weights is not None else 1.0
    distinct = np.where(preds[1:] - preds[:-1])[0]
    threshold_idxs = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
    target = np.array(target == pos_label).astype(np.int64)
    tps = np.cumsum(target * weight, axis=0)[threshold_idxs]
    if sample_weights is not None:
        fps = np.cumsum((1 - target) * weight, axis=0)[threshold_idxs]
    else:
        fps = 1 + threshold_idxs - tps
    return fps, tps, preds[threshold_idxs]

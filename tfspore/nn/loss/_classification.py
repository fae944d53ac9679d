"""Classification losses: ``SoftmaxCrossEntropyWithLogits``, ``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``,
``BCEWithLogitsLoss`` and ``KLDivLoss``.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor, int32
    >>> loss = nn.CrossEntropyLoss()
    >>> out = loss(Tensor(np.array([[2.0, 0.5], [0.1, 1.0]], np.float32)), Tensor(np.array([0, 1]), int32))
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.layer._utils import cast_to, compute_dtype, to_tf
from tfspore.nn.loss._base import LossBase, check_is_tensor, ms_dtype_name, static_shape
from tfspore.ops.function import nn_func as F

__all__ = ["SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss",
           "KLDivLoss"]

_HALF_FLOATS = (tf.float16, tf.float32)


def _check_weight(weight: Any, cls_name: str) -> None:
    """A class-weight argument must be None or a float16/float32 Tensor."""
    if weight is None:
        return
    if not isinstance(weight, Tensor):
        raise TypeError(f"For '{cls_name}', the type of 'weight' should be 'Tensor', but got type "
                        f"'{type(weight).__name__}'.")
    dt = to_tf(weight).dtype
    if dt not in _HALF_FLOATS:
        raise TypeError(f"For '{cls_name}', the 'weight' should be one of [mindspore.float16, mindspore.float32], "
                        f"but got '{ms_dtype_name(dt)}'.")


def _check_ignore_index(ignore_index: Any, cls_name: str) -> int:
    if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
        raise TypeError(f"For '{cls_name}', the type of 'ignore_index' should be 'int', but got type "
                        f"'{type(ignore_index).__name__}'.")
    return ignore_index


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Softmax cross entropy between logits and (one-hot or sparse integer) labels.

    Args:
        sparse: labels are class indices of shape ``(N,)`` instead of one-hot ``(N, C)``. Default: ``False``.
        reduction: ``'none'`` (default: one loss per sample), ``'mean'`` or ``'sum'``.

    Inputs:
        logits: a Tensor of shape ``(N, C)``.
        labels: ``(N,)`` int32/int64 indices if ``sparse``, else ``(N, C)`` probabilities.

    Raises:
        TypeError: when ``sparse`` is not a bool, or an input is not a Tensor.
        ValueError: for a bad ``reduction``.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        >>> out = loss(Tensor(np.array([[3.0, 0.0]], np.float32)), Tensor(np.array([0], np.int32)))
    """

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        self.sparse = validator.check_bool(sparse, "sparse", self.cls_name)
        self.reduction = reduction

    def construct(self, logits: Any, labels: Any) -> Tensor:
        check_is_tensor("logits", logits, self.cls_name)
        check_is_tensor("labels", labels, self.cls_name)
        a = to_tf(logits)
        if a.dtype.is_floating or self._mixed_precision_type is not None:
            a = cast_to(a, compute_dtype(self, a))
        b = to_tf(labels)
        if self.sparse:
            if b.dtype not in (tf.int32, tf.int64):
                # MindSpore's primitive behind each reduction refuses other label types (no truncation)
                prim, arg = (("SparseSoftmaxCrossEntropyWithLogits", "labels_type") if self.reduction == "mean"
                             else ("OneHot", "indices"))
                raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a type of "
                                f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{mstype.from_tf_dtype(b.dtype)}]. "
                                f"('{self.cls_name}' with sparse=True takes the class indices as 'labels'.)")
            if self.reduction == "mean":
                x = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=b, logits=a)
                return _wrap(tf.reduce_mean(x))
            depth = a.shape[-1] if a.shape[-1] is not None else tf.shape(a)[-1]
            b = tf.one_hot(b, depth, 1.0, 0.0, dtype=tf.float32)
        elif a.shape.rank is not None and b.shape.rank is not None and not a.shape.is_compatible_with(b.shape):
            raise ValueError(f"For '{self.cls_name}', evaluator arg 'label' shape must be consistent with 'logits' "
                             f"shape, but got 'label' shape: {tuple(b.shape.as_list())}, 'logits' shape: "
                             f"{tuple(a.shape.as_list())}.")
        x = tf.nn.softmax_cross_entropy_with_logits(labels=cast_to(b, a.dtype), logits=a)
        return self.get_loss(x)


def _check_cross_entropy_inputs(logits: tf.Tensor, labels: tf.Tensor, cls_name: str) -> None:
    """MindSpore's checks of CrossEntropyLoss inputs: dtypes and (static) shapes."""
    if logits.dtype not in _HALF_FLOATS:
        raise TypeError(f"For '{cls_name}', the 'logits' should be one of [mindspore.float16, mindspore.float32], "
                        f"but got '{ms_dtype_name(logits.dtype)}'.")
    l_shape, t_shape = static_shape(logits), static_shape(labels)
    l_rank, t_rank = len(l_shape), len(t_shape)
    if l_rank == t_rank:
        if labels.dtype not in _HALF_FLOATS:
            raise TypeError(f"For '{cls_name}', the 'labels' should be one of [mindspore.float16, "
                            f"mindspore.float32], but got '{ms_dtype_name(labels.dtype)}'.")
        if not tf.TensorShape(l_shape).is_compatible_with(t_shape):
            raise ValueError(f"For '{cls_name}', the shape of 'logits' should be (N, C, d_0, d_1, ...), and the shape "
                             f"of 'labels' should be (N, C, d_0, d_1, ...), but get 'logits' shape: {l_shape} and "
                             f"'labels' shape: {t_shape}.")
    elif t_rank == l_rank - 1:
        if labels.dtype != tf.int32:
            raise TypeError(f"For '{cls_name}', the 'labels' should be Int32, but got "
                            f"'{ms_dtype_name(labels.dtype)}'.")
        if l_rank != 1:
            expect = (l_shape[0], *l_shape[2:])
            if not tf.TensorShape(expect).is_compatible_with(t_shape):
                raise ValueError(f"For '{cls_name}', the shape of 'logits' should be (N, C, d_0, d_1, ...), and the "
                                 f"shape of 'labels' should be (N, d_0, d_1, ...), but get 'logits' shape: "
                                 f"{l_shape} and 'labels' shape: {t_shape}.")
    else:
        raise ValueError(f"For '{cls_name}', the rank of 'logits' and 'labels' should be:\n1. 'logits.ndim == "
                         f"labels.ndim' for probabilities, \n2. 'logits.ndim - 1 == labels.ndim' for class indices, "
                         f"\nbut get 'logits' rank: {l_rank} and 'labels' rank: {t_rank}.")


class CrossEntropyLoss(LossBase):
    r"""Cross entropy between logits and class indices or class probabilities (class dimension 1).

    With class indices, it is ``NLLLoss`` of ``log_softmax(logits, 1)``: the ``'mean'`` reduction divides
    by the sum of the weights of the non-ignored targets. With probabilities, ``'mean'`` divides by
    ``N * d_1 * ...``. ``label_smoothing`` mixes the target with the uniform distribution.

    Args:
        weight: per-class weights, a float16/float32 Tensor of shape ``(C,)``. Default: ``None``.
        ignore_index: a class index that contributes nothing (class-index targets). Default: ``-100``.
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.
        label_smoothing: a float in [0.0, 1.0]. Default: ``0.0``.

    Inputs:
        logits: float16/float32 logits of shape ``(C,)``, ``(N, C)`` or ``(N, C, d_1, ...)``.
        labels: int32 class indices of shape ``()``, ``(N,)`` or ``(N, d_1, ...)``, or float
            probabilities of the logits' shape.

    Raises:
        TypeError: for a non-int ``ignore_index``, a non-float ``label_smoothing``, a ``weight`` that is
            not a float Tensor, or inputs of the wrong dtype.
        ValueError: for ``label_smoothing`` outside [0, 1], a bad ``reduction``, or mismatched shapes.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor, int32
        >>> loss = nn.CrossEntropyLoss(label_smoothing=0.1)
        >>> out = loss(Tensor(np.array([[2.0, 0.5], [0.1, 1.0]], np.float32)), Tensor(np.array([0, 1]), int32))
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(reduction)
        _check_ignore_index(ignore_index, self.cls_name)
        if not isinstance(label_smoothing, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'label_smoothing' should be 'float', but got type "
                            f"'{type(label_smoothing).__name__}'.")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'label_smoothing' must be in range of [0.0, 1.0], but got "
                             f"{label_smoothing} with type 'float'.")
        _check_weight(weight, self.cls_name)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def construct(self, logits: Any, labels: Any) -> Tensor:
        check_is_tensor("logits", logits, self.cls_name)
        check_is_tensor("labels", labels, self.cls_name)
        _check_cross_entropy_inputs(to_tf(logits), to_tf(labels), self.cls_name)
        return F.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    r"""Negative log-likelihood of log-probabilities at class indices (class dimension 1).

    ``loss_n = -weight[y_n] * logits[n, y_n]``; ``'mean'`` divides the sum by the sum of the weights of
    the non-ignored targets.

    Args:
        weight: per-class weights, a float16/float32 Tensor of shape ``(C,)``. Default: ``None``.
        ignore_index: a class index that contributes nothing. Default: ``-100``.
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits: log-probabilities of shape ``(N, C)``, ``(C,)`` or ``(N, C, d_1, ...)``.
        labels: int class indices of shape ``(N,)``, ``()`` or ``(N, d_1, ...)``.

    Raises:
        TypeError: for a non-int ``ignore_index`` or a ``weight`` that is not a float Tensor.
        ValueError: for a bad ``reduction``.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor, int32
        >>> loss = nn.NLLLoss()
        >>> print(loss(Tensor(np.array([[-0.1, -2.3], [-1.2, -0.4]], np.float32)), Tensor(np.array([0, 1]), int32)))
        0.25
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__(reduction)
        _check_ignore_index(ignore_index, self.cls_name)
        _check_weight(weight, self.cls_name)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction

    def construct(self, logits: Any, labels: Any) -> Tensor:
        return F.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


def _check_optional_tensor(value: Any, name: str, cls_name: str) -> None:
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"For '{cls_name}', the type of '{name}' should be 'Tensor', but got type "
                        f"'{type(value).__name__}'.")


class BCELoss(LossBase):
    r"""Binary cross entropy of probabilities: :math:`-w (y \log x + (1 - y) \log (1 - x))`.

    The logs are clamped at :math:`\log(10^{-12})`, as MindSpore's kernel does.

    Args:
        weight: a Tensor broadcastable to the inputs, rescaling each element. Default: ``None``.
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits: probabilities in [0, 1] (float16/float32), any shape.
        labels: targets of the same shape and dtype.

    Raises:
        TypeError: when ``weight`` is neither None nor a Tensor.
        ValueError: for a bad ``reduction``.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> loss = nn.BCELoss(weight=Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 3.3, 2.2]], np.float32)))
        >>> out = loss(Tensor(np.array([[0.1, 0.2, 0.3], [0.5, 0.7, 0.9]], np.float32)),
        ...            Tensor(np.array([[0, 1, 0], [0, 0, 1]], np.float32)))
    """

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        _check_optional_tensor(weight, "weight", self.cls_name)
        self.reduction = reduction
        self.weight = weight

    def construct(self, logits: Any, labels: Any) -> Tensor:
        return F.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    r"""Sigmoid and binary cross entropy in one stable formula, with element weights and positive-class weights.

    :math:`\ell = -w [p\, y \log \sigma(x) + (1 - y) \log (1 - \sigma(x))]`.

    Args:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.
        weight: a Tensor broadcastable to the inputs. Default: ``None``.
        pos_weight: a Tensor of positive-class weights broadcastable to the inputs. Default: ``None``.

    Inputs:
        input: float16/float32 logits, any shape (``logits`` in older MindSpore docs).
        target: targets of the same shape.

    Raises:
        TypeError: when ``weight`` or ``pos_weight`` is a Parameter or not a Tensor.
        ValueError: for a bad ``reduction`` (MindSpore raises it at the first call).

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> loss = nn.BCEWithLogitsLoss()
        >>> out = loss(Tensor(np.array([[-0.8, 1.2, 0.7]], np.float32)),
        ...            Tensor(np.array([[0.0, 1.0, 1.0]], np.float32)))
    """

    def __init__(self, reduction: str = "mean", weight: Tensor | None = None, pos_weight: Tensor | None = None) -> None:
        super().__init__()
        validator.check_string(reduction, ("mean", "sum", "none"), "reduction", self.cls_name)
        if isinstance(weight, Parameter):
            raise TypeError(f"For '{self.cls_name}', the 'weight' can not be a Parameter.")
        if isinstance(pos_weight, Parameter):
            raise TypeError(f"For '{self.cls_name}', the 'pos_weight' can not be a Parameter.")
        _check_optional_tensor(weight, "weight", self.cls_name)
        _check_optional_tensor(pos_weight, "pos_weight", self.cls_name)
        self.reduction = reduction
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, input: Any, target: Any) -> Tensor:  # noqa: A002
        check_is_tensor("input", input, self.cls_name)
        check_is_tensor("target", target, self.cls_name)
        return F.binary_cross_entropy_with_logits(input, target, self.weight, self.pos_weight, self.reduction)


_KL_REDUCTIONS = ("none", "mean", "batchmean", "sum")


class KLDivLoss(LossBase):
    r"""Kullback-Leibler divergence of log-probabilities ``logits`` from probabilities ``labels``.

    :math:`\ell = y (\log y - x)` (0 where :math:`y = 0`); ``'mean'`` divides the sum by the number of
    elements, ``'batchmean'`` by the batch size.

    Args:
        reduction: ``'mean'`` (default), ``'batchmean'``, ``'sum'`` or ``'none'``.

    Inputs:
        logits: log-probabilities (float).
        labels: probabilities of the same shape.

    Raises:
        ValueError: for a bad ``reduction`` (MindSpore raises it at the first call).
        TypeError: at call time, when an input is not a Tensor.

    Example:
        >>> import numpy as np
        >>> from tfspore import nn, Tensor
        >>> loss = nn.KLDivLoss(reduction='batchmean')
        >>> out = loss(Tensor(np.array([0.2, 0.7, 0.1], np.float32)), Tensor(np.array([0.0, 1.0, 0.0], np.float32)))
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = validator.check_string(reduction, _KL_REDUCTIONS, "reduction", self.cls_name)

    def construct(self, logits: Any, labels: Any) -> Tensor:
        check_is_tensor("logits", logits, self.cls_name)
        check_is_tensor("labels", labels, self.cls_name)
        return F.kl_div(logits, labels, self.reduction)

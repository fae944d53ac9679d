"""Cells that wrap one tensor function (MindSpore keeps them, deprecated, in ``nn``): ``OneHot``,
``Tril``, ``Triu``, ``Roll``, ``MatrixDiag``, ``MatrixDiagPart``, ``MatrixSetDiag``, ``L1Regularizer``,
``Range``, ``Moments``, ``ReduceLogSumExp``, ``MatDet``, ``MatInverse``, ``LGamma``, ``DiGamma``,
``IGamma`` and ``LBeta``.

Each is the TensorFlow op of the same meaning; the special functions use TensorFlow's
implementations (MindSpore evaluates Lanczos and series approximations: agreement within float32
rounding, not bit for bit). ``MatDet`` and ``MatInverse`` take symmetric positive-definite matrices,
as MindSpore's Cholesky-based versions do.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.Tril()(Tensor(np.ones((2, 2), np.float32))).asnumpy()
    array([[1., 0.],
           [1., 1.]], dtype=float32)
"""
from __future__ import annotations

import logging
import math
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf

__all__ = ["OneHot", "Tril", "Triu", "Roll", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "L1Regularizer",
           "Range", "Moments", "ReduceLogSumExp", "MatDet", "MatInverse", "LGamma", "DiGamma", "IGamma", "LBeta"]

_logger = logging.getLogger("tfspore")
_MS_NAMES = {tf.float16: "Float16", tf.float32: "Float32", tf.float64: "Float64", tf.int32: "Int32",
             tf.int64: "Int64"}


def _check_float(name: str, arg: str, v: tf.Tensor, valid: tuple = (tf.float16, tf.float32)) -> None:
    if v.dtype not in valid:
        names = ", ".join(_MS_NAMES[d] for d in valid)
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor of {{{names}}}, but got "
                        f"{_MS_NAMES.get(v.dtype, v.dtype.name)}.")


class OneHot(Cell):
    """One-hot encode integer ``indices`` along ``axis`` with ``depth`` classes.

    Args:
        axis: where the new dimension goes.
        depth: the number of classes.
        on_value: the value at the index.
        off_value: the value elsewhere.
        dtype: the output dtype.

    Inputs:
        indices: an int Tensor.

    Outputs:
        A Tensor with one more dimension.

    Example:
        >>> OneHot(depth=3)(Tensor(np.array([0, 2], np.int32))).shape
        (2, 3)
    """

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0, off_value: float = 0.0,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices: Any) -> Tensor:
        return _wrap(tf.one_hot(to_tf(indices), self.depth, self.on_value, self.off_value, axis=self.axis,
                                dtype=self.dtype.tf_dtype))


class _Band(Cell):
    lower = True

    def construct(self, x: Any, k: int = 0) -> Tensor:
        v = to_tf(x)
        if v.shape.rank is None or v.shape.rank < 1:
            raise ValueError(f"For '{self.cls_name}', the rank of 'x' must be at least 1, but got {v.shape.rank}.")
        validator.check_int(k, "k value", self.cls_name)
        rows, cols = (tf.shape(v)[-2], tf.shape(v)[-1]) if v.shape.rank >= 2 else (tf.shape(v)[-1], tf.shape(v)[-1])
        i = tf.range(rows)[:, None]
        j = tf.range(cols)[None, :]
        keep = (j - i <= k) if self.lower else (j - i >= k)
        if v.shape.rank == 1:
            keep = keep[0]
        return _wrap(tf.where(keep, v, tf.zeros_like(v)))


class Tril(_Band):
    """Keep the lower triangle (``col - row <= k``) of the last two dimensions, zero the rest.

    Inputs:
        x: a Tensor of rank 1 or more.
        k: the diagonal offset.

    Outputs:
        A Tensor of the shape of ``x``.

    Example:
        >>> Tril()(Tensor(np.ones((2, 2), np.float32))).shape
        (2, 2)
    """

    lower = True


class Triu(_Band):
    """Keep the upper triangle (``col - row >= k``) of the last two dimensions, zero the rest.

    Inputs:
        x: a Tensor of rank 1 or more.
        k: the diagonal offset.

    Outputs:
        A Tensor of the shape of ``x``.

    Example:
        >>> Triu()(Tensor(np.ones((2, 2), np.float32))).shape
        (2, 2)
    """

    lower = False


class Roll(Cell):
    """Roll the elements along ``axis`` by ``shift`` (elements leaving one end enter at the other).

    Args:
        shift: an int or a list/tuple of ints.
        axis: an int or a list/tuple of ints, as many as ``shift``.

    Inputs:
        input_x: a Tensor.

    Outputs:
        A Tensor of the same shape.

    Raises:
        TypeError: when ``shift`` or ``axis`` is not an int, tuple or list.
        ValueError: when they have different lengths.

    Example:
        >>> Roll(1, 0)(Tensor(np.array([1, 2, 3], np.float32))).asnumpy()
        array([3., 1., 2.], dtype=float32)
    """

    def __init__(self, shift: Any, axis: Any) -> None:
        super().__init__()
        validator.check_type(shift, [int, tuple, list], "shift", self.cls_name)
        validator.check_type(axis, [int, tuple, list], "axis", self.cls_name)
        self.shift = list(shift) if isinstance(shift, (list, tuple)) else [shift]
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if len(self.shift) != len(self.axis):
            raise ValueError(f"For '{self.cls_name}', the shape of 'shift' and the shape of 'axis' must be the same, "
                             f"but got the length of 'shift' {len(self.shift)} and the length of 'axis' "
                             f"{len(self.axis)}.")

    def construct(self, input_x: Any) -> Tensor:
        return _wrap(tf.roll(to_tf(input_x), self.shift, self.axis))


class MatrixDiag(Cell):
    """Build matrices whose diagonals are the last dimension of the input.

    Inputs:
        input_x: a Tensor ``(*, n)``.

    Outputs:
        A Tensor ``(*, n, n)``.

    Example:
        >>> MatrixDiag()(Tensor(np.array([1.0, 2.0], np.float32))).shape
        (2, 2)
    """

    def construct(self, input_x: Any) -> Tensor:
        return _wrap(tf.linalg.diag(to_tf(input_x)))


class MatrixDiagPart(Cell):
    """The main diagonals of the last two dimensions.

    Inputs:
        input_x: a Tensor ``(*, m, n)``.

    Outputs:
        A Tensor ``(*, min(m, n))``.

    Example:
        >>> MatrixDiagPart()(Tensor(np.eye(3, dtype=np.float32))).shape
        (3,)
    """

    def construct(self, input_x: Any) -> Tensor:
        return _wrap(tf.linalg.diag_part(to_tf(input_x)))


class MatrixSetDiag(Cell):
    """Replace the main diagonals of the last two dimensions with ``diagonal``.

    Inputs:
        input_x: a Tensor ``(*, m, n)``.
        diagonal: a Tensor ``(*, min(m, n))``.

    Outputs:
        A Tensor of the shape of ``input_x``.

    Example:
        >>> MatrixSetDiag()(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.ones(2, np.float32))).shape
        (2, 2)
    """

    def construct(self, input_x: Any, diagonal: Any) -> Tensor:
        v = to_tf(input_x)
        return _wrap(tf.linalg.set_diag(v, tf.cast(to_tf(diagonal), v.dtype)))


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``.

    Args:
        scale: a positive, finite number.

    Inputs:
        weights: a Tensor.

    Outputs:
        A float32 scalar Tensor.

    Raises:
        TypeError: when ``scale`` is not a number.
        ValueError: when it is not positive or not finite.

    Example:
        >>> float(L1Regularizer(0.5)(Tensor(np.array([1.0, -2.0], np.float32))))
        1.5
    """

    def __init__(self, scale: Any) -> None:
        super().__init__()
        validator.check_type(scale, [int, float], "scale", self.cls_name)
        if scale <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'scale' must be greater than 0, but got {scale}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For '{self.cls_name}', the 'scale' can not be INF or NAN, but got {scale}.")
        self.scale = Tensor(scale, dtype=mstype.float32)

    def construct(self, weights: Any) -> Tensor:
        v = to_tf(weights)
        return _wrap(tf.constant(float(self.scale.asnumpy()), tf.float32) * tf.cast(tf.reduce_sum(tf.abs(v)),
                                                                                      tf.float32))


class Range(Cell):
    """The constant sequence ``numpy.arange(start, limit, delta)`` (float32 for float arguments, else int32).

    Args:
        start: the first value (or the limit when ``limit`` is None).
        limit: the end (exclusive), or None.
        delta: the step (not 0).

    Outputs:
        A 1-D Tensor.

    Raises:
        ValueError: when ``delta`` is 0.

    Example:
        >>> Range(1, 4)().asnumpy()
        array([1, 2, 3], dtype=int32)
    """

    def __init__(self, start: Any, limit: Any = None, delta: Any = 1) -> None:
        super().__init__()
        _logger.warning("The Range class will be deprecated in the future,this function can be replaced by "
                        ":func:`ops.range`")
        if delta == 0:
            raise ValueError(f"For '{self.cls_name}', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta)
        self.ms_dtype = mstype.float32 if data.dtype == np.float64 else mstype.int32
        self.result_tensor = Tensor(data, dtype=self.ms_dtype)

    def construct(self) -> Tensor:
        return self.result_tensor


class Moments(Cell):
    """The mean and (biased) variance over ``axis``; float16 input computes in float32.

    Args:
        axis: an int or tuple of ints (None: all dimensions).
        keep_dims: keep the reduced dimensions.

    Inputs:
        x: a float16 or float32 Tensor.

    Outputs:
        ``(mean, variance)``.

    Raises:
        TypeError: for a bad ``axis`` or ``keep_dims``, or an input of another dtype.

    Example:
        >>> [t.shape for t in Moments(axis=0)(Tensor(np.ones((3, 2), np.float32)))]
        [(2,), (2,)]
    """

    def __init__(self, axis: Any = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        _logger.warning("The Moments class will be deprecated in the future,this function can be replaced by "
                        ":func:`ops.var_mean`")
        axis = () if axis is None else axis
        if isinstance(axis, tuple):
            for idx, item in enumerate(axis):
                validator.check_type(item, [int], f"axis[{idx}]", self.cls_name)
        self.axis = validator.check_type(axis, [int, tuple], "axis", self.cls_name)
        self.keep_dims = validator.check_type(False if keep_dims is None else keep_dims, [bool], "keep_dims",
                                                    self.cls_name)

    def construct(self, x: Any) -> tuple:
        v = to_tf(x)
        _check_float(self.cls_name, "input x", v)
        if v.dtype == tf.float16:
            v = tf.cast(v, tf.float32)
        axes = list(self.axis) if isinstance(self.axis, tuple) else [self.axis]
        axes = axes or None
        mean = tf.reduce_mean(v, axes, keepdims=True)
        var = tf.reduce_mean(tf.square(v - tf.stop_gradient(mean)), axes, keepdims=self.keep_dims)
        if not self.keep_dims:
            mean = tf.reduce_mean(v, axes)
        return _wrap(mean), _wrap(var)


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x), axis))``, computed stably.

    Args:
        axis: an int, list or tuple of ints (``()``: all dimensions).
        keep_dims: keep the reduced dimensions.

    Inputs:
        x: a float Tensor.

    Outputs:
        The reduced Tensor.

    Raises:
        TypeError: for a bad ``axis`` or ``keep_dims``.

    Example:
        >>> round(float(ReduceLogSumExp(0)(Tensor(np.zeros(2, np.float32)))), 4)
        0.6931
    """

    def __init__(self, axis: Any, keep_dims: bool = False) -> None:
        super().__init__()
        validator.check_type(axis, [int, list, tuple], "axis", self.cls_name)
        validator.check_type(keep_dims, [bool], "keep_dims", self.cls_name)
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x: Any) -> Tensor:
        axes = list(self.axis) if isinstance(self.axis, (list, tuple)) else [self.axis]
        return _wrap(tf.reduce_logsumexp(to_tf(x), axes or None, keepdims=self.keep_dims))


class MatDet(Cell):
    """The determinant of symmetric positive-definite matrices ``(*, n, n)``.

    Inputs:
        a: a float16 or float32 Tensor.

    Outputs:
        A Tensor ``(*)``.

    Example:
        >>> float(MatDet()(Tensor(np.eye(2, dtype=np.float32) * 2)))
        4.0
    """

    def construct(self, a: Any) -> Tensor:
        v = to_tf(a)
        _check_float(self.cls_name, "input_a", v)
        diag = tf.linalg.diag_part(tf.linalg.cholesky(tf.cast(v, tf.float32)))
        return _wrap(tf.cast(tf.square(tf.reduce_prod(diag, -1)), v.dtype))


class MatInverse(Cell):
    """The inverse of symmetric positive-definite matrices ``(*, n, n)``.

    Inputs:
        a: a float16 or float32 Tensor.

    Outputs:
        A Tensor of the shape of ``a``.

    Example:
        >>> MatInverse()(Tensor(np.eye(2, dtype=np.float32) * 2)).asnumpy()[0, 0]
        0.5
    """

    def construct(self, a: Any) -> Tensor:
        v = to_tf(a)
        _check_float(self.cls_name, "input_a", v)
        chol = tf.linalg.cholesky(tf.cast(v, tf.float32))
        eye = tf.eye(tf.shape(v)[-1], batch_shape=tf.shape(v)[:-2])
        return _wrap(tf.cast(tf.linalg.cholesky_solve(chol, eye), v.dtype))


class _Special(Cell):
    _fn = staticmethod(tf.math.lgamma)

    def construct(self, x: Any) -> Tensor:
        v = to_tf(x)
        _check_float(self.cls_name, "x", v)
        return _wrap(type(self)._fn(v))


class LGamma(_Special):
    """``log|Gamma(x)|`` elementwise.

    Inputs:
        x: a float16 or float32 Tensor.

    Outputs:
        A Tensor of the shape of ``x``.

    Example:
        >>> round(float(LGamma()(Tensor(np.float32(3.0)))), 4)
        0.6931
    """

    _fn = staticmethod(tf.math.lgamma)


class DiGamma(_Special):
    """The digamma function ``d/dx log Gamma(x)`` elementwise.

    Inputs:
        x: a float16 or float32 Tensor.

    Outputs:
        A Tensor of the shape of ``x``.

    Example:
        >>> round(float(DiGamma()(Tensor(np.float32(1.0)))), 4)
        -0.5772
    """

    _fn = staticmethod(tf.math.digamma)


class IGamma(Cell):
    """The regularized lower incomplete gamma function ``P(a, x)``.

    Inputs:
        a: a float32 Tensor.
        x: a float32 Tensor (broadcast with ``a``).

    Outputs:
        The broadcast Tensor.

    Example:
        >>> round(float(IGamma()(Tensor(np.float32(1.0)), Tensor(np.float32(1.0)))), 4)
        0.6321
    """

    def __init__(self) -> None:
        super().__init__()
        self.lgamma = LGamma()  # MindSpore's child (printed in the repr)

    def construct(self, a: Any, x: Any) -> Tensor:
        av, xv = to_tf(a), to_tf(x)
        _check_float(self.cls_name, "a", av, (tf.float32,))
        _check_float(self.cls_name, "x", xv, (tf.float32,))
        return _wrap(tf.math.igamma(av, xv))


class LBeta(Cell):
    """``log|Beta(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)`` elementwise.

    Inputs:
        x: a float16 or float32 Tensor.
        y: a Tensor of the same dtype (broadcast with ``x``).

    Outputs:
        The broadcast Tensor.

    Example:
        >>> round(float(LBeta()(Tensor(np.float32(1.0)), Tensor(np.float32(2.0)))), 4)
        -0.6931
    """

    def __init__(self) -> None:
        super().__init__()
        self.lgamma = LGamma()  # MindSpore's child (printed in the repr)

    def construct(self, x: Any, y: Any) -> Tensor:
        xv, yv = to_tf(x), to_tf(y)
        _check_float(self.cls_name, "x", xv)
        _check_float(self.cls_name, "y", yv, (xv.dtype,))
        return _wrap(tf.math.lgamma(xv) + tf.math.lgamma(yv) - tf.math.lgamma(xv + yv))

"""Tensor transforms of ``mindspore.dataset.transforms``: ``Slice``, ``PadEnd``, ``Mask`` and ``Relational``.

They work on tensors of numbers and of strings, as TF ops inside ``tf.data`` maps.
"""
from __future__ import annotations

from enum import IntEnum
from typing import Any, List, Optional, Sequence, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import TensorOperation, to_np_dtype, to_tf_dtype

__all__ = ["Slice", "PadEnd", "Mask", "Relational"]


class Slice(TensorOperation):
    """Slice a tensor, one option per leading dimension (the dimensions are kept).

    Args:
        *slices: For each dimension in order: an int (that index; negative counts from the end),
            a list of ints (those indices), a ``slice``, or ``None`` / ``Ellipsis`` / ``True`` (all).

    Raises:
        TypeError: If an option has a wrong type.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> transforms.Slice(slice(0, 3, 2), -1)(np.arange(12).reshape(3, 4)).tolist()
        [[3], [11]]
    """

    def __init__(self, *slices: Union[int, List[int], slice, None, type(Ellipsis), bool]) -> None:
        super().__init__()
        for s in slices:
            if s is not None and not isinstance(s, (int, list, slice, type(Ellipsis))):
                raise c.type_error(s, "slice", "Slice", "int, list, slice, bool or ellipsis")
            if isinstance(s, list):
                for i, item in enumerate(s):
                    c.check_type(item, (int,), f"slice[{i}]", "Slice")
        self.slices = list(slices)

    def _apply(self, data: tf.Tensor) -> tf.Tensor:
        out = data
        for axis, option in enumerate(self.slices):
            if option is None or option is Ellipsis or option is True:
                continue
            size = tf.shape(out, out_type=tf.int64)[axis]
            if isinstance(option, slice):
                if option.step is not None and option.step < 0:
                    raise RuntimeError(f"For 'Slice', a slice with a negative step is not supported, "
                                       f"but got {option!r}.")
                index = (slice(None),) * axis + (option,)
                out = out[index]
                continue
            indices = tf.constant([option] if isinstance(option, int) and not isinstance(option, bool) else option,
                                  tf.int64)
            indices = tf.where(indices < 0, indices + size, indices)
            tf.debugging.assert_less(indices, size, message=f"For 'Slice', an index of {option!r} is out of range")
            tf.debugging.assert_non_negative(indices, message=f"For 'Slice', an index of {option!r} is out of range")
            out = tf.gather(out, indices, axis=axis)
        return out


class PadEnd(TensorOperation):
    """Pad (or truncate) each dimension at its end to `pad_shape`.

    Args:
        pad_shape: The target shape; ``None`` keeps that dimension.
        pad_value: The fill (cast to the tensor's dtype); None for 0, or ``""`` for strings.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> transforms.PadEnd([2, 4], 9)(np.array([[1, 2], [3, 4], [5, 6]])).tolist()
        [[1, 2, 9, 9], [3, 4, 9, 9]]
    """

    def __init__(self, pad_shape: List[Optional[int]], pad_value: Optional[Union[str, bytes, int, float, bool]] = None
                 ) -> None:
        super().__init__()
        if pad_value is not None:
            c.check_type(pad_value, (str, float, bool, int, bytes), "pad_value", "PadEnd")
        c.check_type(pad_shape, (list,), "pad_shape", "PadEnd")
        for i, dim in enumerate(pad_shape):
            if dim is not None:
                if not isinstance(dim, int) or isinstance(dim, bool):
                    raise TypeError(f"For 'PadEnd', a value in pad_shape is not an integer: pad_shape[{i}] = {dim!r}.")
                c.check_range(dim, f"pad_shape[{i}]", "PadEnd", 1, 2 ** 63 - 1)
        self.pad_shape = list(pad_shape)
        self.pad_value = pad_value

    def _fill(self, dtype: tf.DType) -> tf.Tensor:
        if dtype == tf.string:
            value = self.pad_value if self.pad_value is not None else ""
            return tf.constant(value.encode() if isinstance(value, str) else value, tf.string)
        value = 0 if self.pad_value is None else self.pad_value
        return tf.cast(tf.constant(value), dtype)

    def _apply(self, data: tf.Tensor) -> tf.Tensor:
        rank = data.shape.rank
        if rank is not None and rank != len(self.pad_shape):
            raise RuntimeError(f"For 'PadEnd', the rank of pad_shape {self.pad_shape} does not match the input "
                               f"of shape {data.shape.as_list()}.")
        shape = tf.shape(data)
        target = [shape[i] if dim is None else tf.constant(dim, tf.int32) for i, dim in enumerate(self.pad_shape)]
        cut = data[tuple(slice(0, t) for t in target)]
        cut_shape = tf.shape(cut)
        paddings = tf.stack([tf.zeros([len(target)], tf.int32), tf.stack(target) - cut_shape], axis=1)
        out = tf.pad(cut, paddings, constant_values=self._fill(data.dtype))
        static = [dim for dim in self.pad_shape]
        return tf.ensure_shape(out, [d if d is not None else data.shape[i] for i, d in enumerate(static)])

    def _ragged_batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        # rows of one dimension padded to a fixed length: a ragged batch becomes a dense one
        return len(shapes) == 1 and shapes[0].rank == 1 and len(self.pad_shape) == 1 and self.pad_shape[0] is not None

    def _apply_batch(self, data: Any) -> tf.Tensor:
        if not isinstance(data, tf.RaggedTensor):
            raise TypeError("For 'PadEnd', the batch-level form takes a ragged batch of 1-D rows.")
        # to_tensor cuts rows longer than the shape and pads shorter ones with the fill at their end
        return data.to_tensor(default_value=self._fill(data.dtype), shape=[None, self.pad_shape[0]])


class Relational(IntEnum):
    """Relational operators of :class:`Mask`: ``EQ``, ``NE``, ``GT``, ``GE``, ``LT``, ``LE``."""

    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: tf.equal, Relational.NE: tf.not_equal, Relational.GT: tf.greater,
            Relational.GE: tf.greater_equal, Relational.LT: tf.less, Relational.LE: tf.less_equal}


class Mask(TensorOperation):
    """Compare each element with `constant` (``operator``) and return the result as `dtype`.

    Args:
        operator: A :class:`Relational` operator.
        constant: The value compared with (a str for string tensors).
        dtype: The output dtype (MindSpore or numpy); default bool.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> transforms.Mask(transforms.Relational.GT, 2)(np.array([1, 2, 3])).tolist()
        [False, False, True]
    """

    def __init__(self, operator: Relational, constant: Union[str, int, float, bool, bytes], dtype: Any = None) -> None:
        super().__init__()
        c.check_type(operator, (Relational,), "operator", "Mask")
        c.check_type(constant, (str, float, bool, int, bytes), "constant", "Mask")
        self.operator = operator
        self.constant = constant
        self._np_dtype = np.dtype(np.bool_) if dtype is None else to_np_dtype(dtype, "Mask", "dtype")
        self.dtype = dtype

    def _apply(self, data: tf.Tensor) -> tf.Tensor:
        if data.dtype == tf.string:
            value = self.constant.encode() if isinstance(self.constant, str) else self.constant
            constant = tf.constant(value, tf.string)
        else:
            constant = tf.cast(tf.constant(self.constant), tf.float64)
            data = tf.cast(data, tf.float64)
        return tf.cast(_COMPARE[self.operator](data, constant), to_tf_dtype(self._np_dtype))

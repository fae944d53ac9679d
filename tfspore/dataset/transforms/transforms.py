"""Generic transforms (``mindspore.dataset.transforms``) as TensorFlow ops.

Example:
    >>> import numpy as np
    >>> import tfspore as ms
    >>> from tfspore.dataset import transforms
    >>> transforms.TypeCast(ms.int32)(np.array([1, 2], np.uint32)).dtype
    dtype('int32')
    >>> transforms.OneHot(3)(np.array(1, np.int32)).tolist()
    [0, 1, 0]
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import TensorOperation, apply_op, to_np_dtype, to_tf_dtype
from tfspore.dataset.transforms._tensor_ops import Mask, PadEnd, Relational, Slice

__all__ = ["TypeCast", "OneHot", "Compose", "Duplicate", "Fill", "Concatenate", "RandomApply", "RandomChoice",
           "not_random", "Mask", "PadEnd", "Relational", "Slice"]


def not_random(function: Callable) -> Callable:
    """Mark a Python function as deterministic (MindSpore uses the mark for caching).

    Args:
        function: The function.

    Returns:
        The same function with ``function.random = False``.
    """
    function.random = False
    return function



def check_transforms_list(transforms: Any, api: str) -> Sequence[Any]:
    """A non-empty list of transforms or callables (the ``transforms`` of Compose, RandomApply, ...).

    Raises:
        TypeError: for something that is not a list, or an entry that is neither a transform nor callable.
        ValueError: for an empty list, or a transform class passed without instantiating it.
    """
    c.check_type(transforms, (list,), "transforms", api)
    if not transforms:
        raise c.value_error(transforms, "transforms", api, "a non-empty list")
    for i, op in enumerate(transforms):
        if isinstance(op, type):
            raise ValueError(f"For '{api}', transforms[{i}] should be a dataset processing operation instance, "
                             f"but got: {op}. It may be missing parentheses for instantiation.")
        if not callable(op) and not hasattr(op, "_tf_apply"):
            raise c.type_error(op, f"transforms[{i}]", api, "a transform or a Python callable")
    return transforms

class TypeCast(TensorOperation):
    """Cast to a MindSpore dtype (``ms.int32``) or numpy dtype.

    Args:
        data_type: The target dtype.

    Raises:
        TypeError: If `data_type` is not a dtype.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> transforms.TypeCast(np.float16)(np.array([1, 2])).dtype
        dtype('float16')
    """

    def __init__(self, data_type: Any) -> None:
        super().__init__()
        self._np_dtype = to_np_dtype(data_type, type(self).__name__)
        self.data_type = str(self._np_dtype)

    def _apply(self, *tensors: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        target = to_tf_dtype(self._np_dtype)
        outs = []
        for t in tensors:
            if t.dtype == target:
                outs.append(t)
            elif target == tf.string:
                outs.append(tf.strings.as_string(t))
            elif t.dtype == tf.string:
                outs.append(tf.strings.to_number(t, out_type=target))
            else:
                outs.append(tf.cast(t, target))
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return True  # element-wise

    def _table_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        return len(shapes) == 1 and to_tf_dtype(self._np_dtype) != tf.string  # element-wise numbers

    def _apply_batch(self, *batches: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        return self._apply(*batches)


class OneHot(TensorOperation):
    """One-hot encode integer labels (a scalar or a 1-D array).

    The output keeps the input's integer dtype; with a smoothing rate ``s`` it is float64 with
    ``s / n`` off the label and ``1 - s + s / n`` on it.

    Args:
        num_classes: The number of classes (positive).
        smoothing_rate: Label smoothing in [0, 1].

    Raises:
        TypeError: If `num_classes` is not an int or `smoothing_rate` not a number.
        ValueError: If `num_classes` is not positive or `smoothing_rate` is outside [0, 1].
        RuntimeError: (when run) If the labels are not integers.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> transforms.OneHot(3, 0.3)(np.array(1)).round(3).tolist()
        [0.1, 0.8, 0.1]
    """

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0) -> None:
        super().__init__()
        c.check_type(smoothing_rate, (int, float), "smoothing_rate", "OneHot")
        c.check_type(num_classes, (int,), "num_classes", "OneHot")
        if num_classes <= 0:
            raise ValueError(f"For 'OneHot', input num_classes must be greater than 0, but got {num_classes}.")
        c.check_range(smoothing_rate, "smoothing_rate", "OneHot", 0.0, 1.0)
        self.num_classes = num_classes
        self.smoothing_rate = float(smoothing_rate)

    def _apply(self, label: tf.Tensor) -> tf.Tensor:
        if not label.dtype.is_integer:
            raise RuntimeError(f"For 'OneHot', the input labels should be of an integer type, "
                               f"but got {label.dtype.name}.")
        if label.shape.rank is not None and label.shape.rank > 1:
            raise RuntimeError(f"For 'OneHot', the input labels should be a scalar or 1-D, "
                               f"but got shape {label.shape.as_list()}.")
        n = self.num_classes
        index = tf.cast(label, tf.int64)
        if self.smoothing_rate > 0.0:
            s = self.smoothing_rate
            return tf.one_hot(index, n, on_value=1.0 - s + s / n, off_value=s / n, dtype=tf.float64)
        dtype = label.dtype
        if dtype in (tf.int8, tf.int16, tf.uint16, tf.uint32, tf.uint64):
            return tf.cast(tf.one_hot(index, n, dtype=tf.int64), dtype)
        return tf.one_hot(index, n, dtype=dtype)


class Duplicate(TensorOperation):
    """Return the input twice (use with two ``output_columns``).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> a, b = transforms.Duplicate()(np.array([1, 2]))
        >>> b.tolist()
        [1, 2]
    """

    def _apply(self, tensor: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
        return tensor, tf.identity(tensor)


class Fill(TensorOperation):
    """Fill every element with `fill_value`, keeping the shape and dtype.

    Args:
        fill_value: A scalar (str, bytes, int, float or bool).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> transforms.Fill(3)(np.array([1.5, 2.0])).tolist()
        [3.0, 3.0]
    """

    def __init__(self, fill_value: Union[str, bytes, int, float, bool]) -> None:
        super().__init__()
        c.check_type(fill_value, (str, float, bool, int, bytes), "fill_value", "Fill")
        self.fill_value = fill_value

    def _apply(self, tensor: tf.Tensor) -> tf.Tensor:
        value = self.fill_value
        if tensor.dtype == tf.string:
            if not isinstance(value, (str, bytes)):
                value = str(value)
            return tf.fill(tf.shape(tensor), tf.constant(value, tf.string))
        if isinstance(value, (str, bytes)):
            raise RuntimeError(f"For 'Fill', a string fill_value {value!r} cannot fill a tensor of type "
                               f"{tensor.dtype.name}.")
        return tf.fill(tf.shape(tensor), tf.cast(value, tensor.dtype))


class Concatenate(TensorOperation):
    """Concatenate 1-D data with optional `prepend` and `append` arrays.

    Args:
        axis: 0 or -1 (only 1-D concatenation is supported).
        prepend: A 1-D array put before the input.
        append: A 1-D array put after the input.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms
        >>> transforms.Concatenate(0, np.array([9]), np.array([8, 7]))(np.array([1, 2])).tolist()
        [9, 1, 2, 8, 7]
    """

    def __init__(self, axis: int = 0, prepend: Optional[np.ndarray] = None,
                 append: Optional[np.ndarray] = None) -> None:
        super().__init__()
        c.check_type(axis, (int,), "axis", "Concatenate")
        if axis not in (0, -1):
            raise ValueError(f"For 'Concatenate', only 1D concatenation is supported (axis 0 or -1), "
                             f"but got axis={axis}.")
        for name, arr in (("prepend", prepend), ("append", append)):
            if arr is not None:
                c.check_type(arr, (np.ndarray,), name, "Concatenate")
                if arr.ndim != 1:
                    raise ValueError(f"For 'Concatenate', can only {name} 1D arrays, but got shape {arr.shape}.")
        self.axis = axis
        self.prepend = prepend
        self.append = append

    @staticmethod
    def _const(arr: np.ndarray, dtype: tf.DType) -> tf.Tensor:
        if arr.dtype.kind in ("U", "S", "O"):
            if dtype != tf.string:
                raise RuntimeError(f"For 'Concatenate', cannot concatenate strings to a tensor of type {dtype.name}.")
            return tf.constant(arr.astype(np.bytes_))
        if dtype == tf.string:
            raise RuntimeError(f"For 'Concatenate', cannot concatenate {arr.dtype} data to a string tensor.")
        return tf.cast(tf.constant(arr), dtype)

    def _apply(self, *tensors: tf.Tensor) -> tf.Tensor:
        tensor = tensors[0]  # several input columns are concatenated in order (MindSpore)
        for t in tensors:
            if t.shape.rank is not None and t.shape.rank != 1:
                raise RuntimeError(f"For 'Concatenate', only 1D input is supported, but got shape "
                                   f"{t.shape.as_list()}.")
        parts = []
        if self.prepend is not None:
            parts.append(self._const(self.prepend, tensor.dtype))
        parts.extend(tensors)
        if self.append is not None:
            parts.append(self._const(self.append, tensor.dtype))
        return tf.concat(parts, axis=0)


# ------------------------------------------------------------------------------------ compound
def _is_graph_op(op: Any) -> bool:
    """Whether `op` runs as TF ops (a transform whose children are all transforms too)."""
    try:
        return isinstance(op, TensorOperation) and hasattr(op, "_tf_apply")
    except Exception:  # pylint: disable=broad-except
        return False


class _CompoundOperation(TensorOperation):
    """Base of the transforms holding a list of transforms.

    When every member is a transform, the compound runs as TF ops. When a member is a plain
    Python callable, ``_tf_apply`` is hidden so the pipeline runs the compound as Python (with
    the engine's per-row error reporting), calling the members eagerly.
    """

    _api = "Compose"

    def __init__(self, transforms: List[Any]) -> None:
        super().__init__()
        check_transforms_list(transforms, self._api)
        self.transforms = list(transforms)
        self._python_members = any(not _is_graph_op(op) for op in self.transforms)
        self._tf_random = any(getattr(op, "_tf_random", False) for op in self.transforms)
        self.random = self._tf_random or any(getattr(op, "random", not isinstance(op, TensorOperation))
                                             for op in self.transforms)

    @property
    def _tf_apply(self):  # type: ignore[override]
        if self._python_members:
            raise AttributeError(f"'{type(self).__name__}' holds Python callables and runs as Python.")
        return super()._tf_apply

    def __call__(self, *args: Any) -> Any:
        if not args:
            raise TypeError(f"{self._api} was called without an image. Fix invocation "
                            f"(avoid it being invoked as {self._api}([...])()).")
        return self._eager(*args)

    def _eager(self, *args: Any) -> Any:
        raise NotImplementedError

    @staticmethod
    def _eager_one(op: Any, args: Sequence[Any]) -> Tuple[Any, ...]:
        out = op(*args)
        return out if isinstance(out, tuple) else (out,)


class Compose(_CompoundOperation):
    """Apply transforms in order, as one transform.

    Args:
        transforms: A non-empty list of transforms or Python callables. Nested Composes are flattened.

    Raises:
        TypeError: If `transforms` is not a list or holds something not callable.
        ValueError: If `transforms` is empty.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms, vision
        >>> op = transforms.Compose([vision.Resize((2, 2)), vision.HWC2CHW()])
        >>> op(np.zeros((4, 4, 3), np.uint8)).shape
        (3, 2, 2)
    """

    _api = "Compose"

    def __init__(self, transforms: List[Any]) -> None:
        super().__init__(transforms)
        self.transforms = Compose.decompose(self.transforms)

    @staticmethod
    def decompose(operations: List[Any]) -> List[Any]:
        """Flatten nested Compose objects into one list."""
        out: List[Any] = []
        for op in operations:
            if isinstance(op, Compose):
                out.extend(Compose.decompose(op.transforms))
            else:
                out.append(op)
        return out

    def _eager(self, *args: Any) -> Any:
        values: Tuple[Any, ...] = args
        for op in self.transforms:
            values = self._eager_one(op, values)
        return values[0] if len(values) == 1 else values

    def _apply(self, *tensors: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        values: Tuple[tf.Tensor, ...] = tuple(tensors)
        for op in self.transforms:
            values = apply_op(op, values)
        return values[0] if len(values) == 1 else values


class RandomApply(_CompoundOperation):
    """Apply all of `transforms` (in order) with probability `prob`, else pass the input through.

    Args:
        transforms: A non-empty list of transforms. Inside a pipeline they must keep the number
            and dtypes of the columns (each column has one dtype in ``tf.data``).
        prob: Probability in [0, 1].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms, vision
        >>> op = transforms.RandomApply([vision.HorizontalFlip()], prob=1.0)
        >>> op(np.array([[1, 2]], np.uint8)).tolist()
        [[2, 1]]
    """

    _api = "RandomApply"

    def __init__(self, transforms: List[Any], prob: float = 0.5) -> None:
        super().__init__(transforms)
        c.check_type(prob, (float, int), "prob", "RandomApply")
        c.check_range(prob, "prob", "RandomApply", 0.0, 1.0)
        self.prob = float(prob)
        self._tf_random = True
        self.random = True

    def _eager(self, *args: Any) -> Any:
        if np.random.random_sample() >= self.prob:
            return args[0] if len(args) == 1 else args
        values: Tuple[Any, ...] = args
        for op in self.transforms:
            values = self._eager_one(op, values)
        return values[0] if len(values) == 1 else values

    def _apply(self, *tensors: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        def _all():
            values: Tuple[tf.Tensor, ...] = tuple(tensors)
            for op in self.transforms:
                values = apply_op(op, values)
            return values

        try:
            out = tf.cond(self._bernoulli(self.prob), _all, lambda: tuple(tf.identity(t) for t in tensors))
        except (TypeError, ValueError) as exc:
            raise TypeError(f"For 'RandomApply', inside a pipeline the transforms must return the same number and "
                            f"dtypes of columns as their input ({[t.dtype.name for t in tensors]}), because "
                            f"rows of one column share a dtype: {exc}") from None
        out = tuple(out) if isinstance(out, (list, tuple)) else (out,)
        return out[0] if len(out) == 1 else out


class RandomChoice(_CompoundOperation):
    """Apply one of `transforms`, chosen uniformly at random.

    Args:
        transforms: A non-empty list of transforms. Inside a pipeline they must return the same
            number and dtypes of columns (each column has one dtype in ``tf.data``).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import transforms, vision
        >>> op = transforms.RandomChoice([vision.HorizontalFlip()])
        >>> op(np.array([[1, 2]], np.uint8)).tolist()
        [[2, 1]]
    """

    _api = "RandomChoice"

    def __init__(self, transforms: List[Any]) -> None:
        super().__init__(transforms)
        self._tf_random = True
        self.random = True

    def _eager(self, *args: Any) -> Any:
        op = self.transforms[np.random.randint(len(self.transforms))]
        values = self._eager_one(op, args)
        return values[0] if len(values) == 1 else values

    def _apply(self, *tensors: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        if len(self.transforms) == 1:
            out = apply_op(self.transforms[0], tensors)
            return out[0] if len(out) == 1 else out
        index = self._uniform((), 0, len(self.transforms), dtype=tf.int32)
        branches = [lambda op=op: apply_op(op, tensors) for op in self.transforms]
        try:
            out = tf.switch_case(index, branches)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"For 'RandomChoice', inside a pipeline every transform must return the same number "
                            f"and dtypes of columns, because rows of one column share a dtype: {exc}") from None
        out = tuple(out) if isinstance(out, (list, tuple)) else (out,)
        return out[0] if len(out) == 1 else out

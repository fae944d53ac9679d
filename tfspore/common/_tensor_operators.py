"""Python's operator and conversion protocols of :class:`tfspore.Tensor` (``+``, ``==``, ``len``,
``bool``, ``int`` ...), with MindSpore's type promotion (``_tensor_promote.binary``) and messages.

The results are wrapped by the host class's ``_wrap_tf``; ``tensor.py`` combines this mixin with
the method mixins into ``Tensor``.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.framework.ops import EagerTensor

from tfspore.common._tensor_promote import binary, is_ms_tensor


def is_eager_value(v: Any) -> bool:
    """Whether ``v`` (a TF value) has a concrete value now (not a symbolic tensor of a graph being traced)."""
    return isinstance(v, EagerTensor) or (isinstance(v, tf.Variable) and tf.executing_eagerly())


class TensorOperators:
    """The Python protocols of :class:`tfspore.Tensor`: operators, comparisons, ``len``, ``bool``, ``int`` ..."""

    __slots__ = ()

    def __len__(self) -> int:
        shape = self.shape
        if not shape:
            raise TypeError("Not support len of a 0-D tensor")
        return shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, element: Any) -> bool:
        if is_ms_tensor(element) or isinstance(element, numbers.Number):
            return bool((self == element).any().item())
        return False

    def __bool__(self) -> bool:
        v = self._value()
        if not is_eager_value(v):
            raise RuntimeError("For 'Tensor.__bool__', the truth value of a Tensor is only known when the graph "
                               "runs; use ops.select / ops.where, or PYNATIVE_MODE, for data-dependent branches.")
        return bool(self._one_element())

    def __int__(self) -> int:
        try:
            return int(self._one_element())
        except ValueError as e:
            raise ValueError("Only one element tensors can be converted to Python scalars") from e

    def __float__(self) -> float:
        try:
            return float(self._one_element())
        except ValueError as e:
            raise ValueError("Only one element tensors can be converted to Python scalars") from e

    def __index__(self) -> int:
        if self.dtype._kind not in ("int", "uint", "bool") or self.size != 1:
            raise ValueError("Only integer tensors of a single element can be converted to an index.")
        return int(self._one_element())

    def __neg__(self) -> Any:
        v = self._value()
        if v.dtype == tf.bool:
            raise TypeError("For 'Neg', Bool tensors are not supported.")
        return self._wrap_tf(tf.negative(v))

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        return self.abs()

    def __invert__(self) -> Any:
        v = self._value()
        return self._wrap_tf(tf.logical_not(v if v.dtype == tf.bool else tf.cast(v, tf.bool)))

    def __add__(self, o: Any) -> Any:
        return self._wrap_tf(binary("add", self, o))

    def __radd__(self, o: Any) -> Any:
        return self._wrap_tf(binary("add", o, self))

    def __sub__(self, o: Any) -> Any:
        return self._wrap_tf(binary("sub", self, o))

    def __rsub__(self, o: Any) -> Any:
        return self._wrap_tf(binary("sub", o, self))

    def __mul__(self, o: Any) -> Any:
        return self._wrap_tf(binary("mul", self, o))

    def __rmul__(self, o: Any) -> Any:
        return self._wrap_tf(binary("mul", o, self))

    def __truediv__(self, o: Any) -> Any:
        return self._wrap_tf(binary("truediv", self, o))

    def __rtruediv__(self, o: Any) -> Any:
        return self._wrap_tf(binary("truediv", o, self))

    def __floordiv__(self, o: Any) -> Any:
        return self._wrap_tf(binary("floordiv", self, o))

    def __rfloordiv__(self, o: Any) -> Any:
        return self._wrap_tf(binary("floordiv", o, self))

    def __mod__(self, o: Any) -> Any:
        return self._wrap_tf(binary("mod", self, o))

    def __rmod__(self, o: Any) -> Any:
        return self._wrap_tf(binary("mod", o, self))

    def __pow__(self, o: Any) -> Any:
        return self._wrap_tf(binary("pow", self, o))

    def __rpow__(self, o: Any) -> Any:
        return self._wrap_tf(binary("pow", o, self))

    def __matmul__(self, o: Any) -> Any:
        return self._wrap_tf(binary("matmul", self, o))

    def __rmatmul__(self, o: Any) -> Any:
        return self._wrap_tf(binary("matmul", o, self))

    def __and__(self, o: Any) -> Any:
        return self._wrap_tf(binary("and", self, o))

    def __rand__(self, o: Any) -> Any:
        return self._wrap_tf(binary("and", o, self))

    def __or__(self, o: Any) -> Any:
        return self._wrap_tf(binary("or", self, o))

    def __ror__(self, o: Any) -> Any:
        return self._wrap_tf(binary("or", o, self))

    def __xor__(self, o: Any) -> Any:
        return self._wrap_tf(binary("xor", self, o))

    def __rxor__(self, o: Any) -> Any:
        return self._wrap_tf(binary("xor", o, self))

    @staticmethod
    def _comparable(o: Any) -> bool:
        return (is_ms_tensor(o) or isinstance(o, (numbers.Number, np.number, np.bool_, tf.Tensor, tf.Variable))) and \
            not isinstance(o, complex)

    def __eq__(self, o: Any) -> Any:  # type: ignore[override]
        if not self._comparable(o):
            return False
        return self._wrap_tf(binary("eq", self, o))

    def __ne__(self, o: Any) -> Any:  # type: ignore[override]
        if not self._comparable(o):
            return True
        return self._wrap_tf(binary("ne", self, o))

    def __lt__(self, o: Any) -> Any:
        return self._wrap_tf(binary("lt", self, o))

    def __le__(self, o: Any) -> Any:
        return self._wrap_tf(binary("le", self, o))

    def __gt__(self, o: Any) -> Any:
        return self._wrap_tf(binary("gt", self, o))

    def __ge__(self, o: Any) -> Any:
        return self._wrap_tf(binary("ge", self, o))

"""``Jvp`` and ``Vjp``: Cells computing Jacobian-vector and vector-Jacobian products of a function
(MindSpore's deprecated forms of ``ops.jvp`` / ``ops.vjp``).

The last call argument is the vector ``v``; the others are the inputs of ``fn``. Both return
``(fn(*inputs), product)``; with one input the product is a Tensor, with several a tuple.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> out, jvp = nn.Jvp(lambda x: x * x)(Tensor(np.array([2.0], np.float32)), Tensor(np.array([1.0], np.float32)))
    >>> jvp.asnumpy()
    array([4.], dtype=float32)
"""
from __future__ import annotations

from typing import Any, Callable

from tfspore.nn.cell import Cell
from tfspore.ops import jvp as _jvp
from tfspore.ops import vjp as _vjp

__all__ = ["Jvp", "Vjp"]


class _FnProduct(Cell):
    """The base of ``Jvp`` and ``Vjp``: a Cell holding the function ``fn`` it differentiates."""

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn


class Jvp(_FnProduct):
    """The Jacobian-vector product of ``fn`` (forward-mode differentiation).

    Args:
        fn: a Cell or function.

    Inputs:
        *args: the inputs of ``fn``, then ``v`` (a Tensor, or a tuple with one Tensor per input).

    Outputs:
        ``(fn(*inputs), jvp)``.

    Example:
        >>> Jvp(lambda x: x).fn is not None
        True
    """

    def construct(self, *args: Any) -> tuple:
        inputs, v = args[:-1], args[-1]
        return _jvp(self.fn, inputs[0] if len(inputs) == 1 else tuple(inputs), v)


class Vjp(_FnProduct):
    """The vector-Jacobian product of ``fn`` (the gradient of ``sum(fn(*inputs) * v)``).

    Args:
        fn: a Cell or function.

    Inputs:
        *args: the inputs of ``fn``, then ``v`` (shaped like the output).

    Outputs:
        ``(fn(*inputs), vjp)``; ``vjp`` is a Tensor for one input, else a tuple.

    Example:
        >>> Vjp(lambda x: x).fn is not None
        True
    """

    def construct(self, *args: Any) -> tuple:
        inputs, v = args[:-1], args[-1]
        out, vjp_fn = _vjp(self.fn, *inputs)
        grads = vjp_fn(v)
        if len(inputs) == 1 and isinstance(grads, tuple):
            grads = grads[0]
        return out, grads

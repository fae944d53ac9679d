"""``tfspore.ops``: primitives (``ops.ReLU()``), the functional API (``ops.relu``) and autodiff.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> x = Tensor(np.array([-1.0, 2.0], np.float32))
    >>> ops.ReLU()(x).asnumpy()
    array([0., 2.], dtype=float32)
"""
from tfspore.ops.composite import GradOperation, grad, value_and_grad, vjp, jvp  # noqa: F401
from tfspore.ops import composite, function, functional, operations, primitive  # noqa: F401
from tfspore.ops.primitive import (Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register,  # noqa: F401
                                   prim_arg_register, constexpr, _primexpr)
from tfspore.ops.composite import (MultitypeFuncGraph, HyperMap, Map, add_flags, clip_by_value,  # noqa: F401
                                   clip_by_global_norm)
from tfspore.ops.operations import *  # noqa: F401,F403
from tfspore.ops.functional import *  # noqa: F401,F403  (after the classes: ``ops.identity`` is an instance)

composite = composite  # ``ops.composite`` is the C module
C = composite
P = operations
F = functional

"""``tfspore.ops.operations`` (usually ``P``): the class-style primitives.

Example:
    >>> from tfspore.ops import operations as P
    >>> P.ReLU()
    Prim[ReLU]
"""
from tfspore.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register  # noqa: F401
from tfspore.ops.operations import array_ops, debug_ops, math_ops, nn_ops, other_ops, random_ops
from tfspore.ops.operations.math_ops import *  # noqa: F401,F403
from tfspore.ops.operations.array_ops import *  # noqa: F401,F403
from tfspore.ops.operations.nn_ops import *  # noqa: F401,F403
from tfspore.ops.operations.other_ops import *  # noqa: F401,F403
from tfspore.ops.operations.random_ops import *  # noqa: F401,F403
from tfspore.ops.operations.debug_ops import *  # noqa: F401,F403
from tfspore.ops.operations import comm_ops, image_ops, _detection_ops, _pool3d_ops, _rnn_ops, _extra_ops
from tfspore.ops.operations.comm_ops import *  # noqa: F401,F403
from tfspore.ops.operations.image_ops import *  # noqa: F401,F403
from tfspore.ops.operations._detection_ops import *  # noqa: F401,F403
from tfspore.ops.operations._pool3d_ops import *  # noqa: F401,F403
from tfspore.ops.operations._rnn_ops import *  # noqa: F401,F403
from tfspore.ops.operations._extra_ops import *  # noqa: F401,F403
from tfspore.ops.operations import _optim_ops
from tfspore.ops.operations._optim_ops import *  # noqa: F401,F403

__all__ = list(dict.fromkeys(math_ops.__all__ + array_ops.__all__ + nn_ops.__all__ + other_ops.__all__
                             + random_ops.__all__ + debug_ops.__all__ + comm_ops.__all__ + image_ops.__all__
                             + _detection_ops.__all__ + _pool3d_ops.__all__ + _rnn_ops.__all__
                             + _extra_ops.__all__ + _optim_ops.__all__))

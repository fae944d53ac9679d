"""``tfspore.ops.function``: the functional API (``ops.relu``, ``ops.reshape``, ``ops.cross_entropy``, ...)."""
from tfspore.ops.function import array_func, math_func, nn_func, other_func, random_func
from tfspore.ops.function.math_func import *  # noqa: F401,F403
from tfspore.ops.function.array_func import *  # noqa: F401,F403
from tfspore.ops.function.nn_func import *  # noqa: F401,F403
from tfspore.ops.function.random_func import *  # noqa: F401,F403
from tfspore.ops.function.other_func import *  # noqa: F401,F403
from tfspore.ops.function import _detection, _pool3d, _extra_func
from tfspore.ops.function._detection import *  # noqa: F401,F403
from tfspore.ops.function._pool3d import *  # noqa: F401,F403
from tfspore.ops.function._extra_func import *  # noqa: F401,F403
from tfspore.ops.function import _deform_conv
from tfspore.ops.function._deform_conv import *  # noqa: F401,F403

__all__ = list(dict.fromkeys(math_func.__all__ + array_func.__all__ + nn_func.__all__ + random_func.__all__
                             + other_func.__all__ + _detection.__all__ + _pool3d.__all__
                             + _extra_func.__all__ + _deform_conv.__all__))

"""``mindspore.numpy.math_ops``: the math functions of ``mindspore.numpy`` (a facade over the private modules
``_elementwise``, ``_reductions``, ``_linalg`` and ``_math_misc``)."""
from tfspore.numpy._elementwise import *  # noqa: F401,F403
from tfspore.numpy._elementwise import __all__ as _elementwise_all
from tfspore.numpy._linalg import *  # noqa: F401,F403
from tfspore.numpy._linalg import __all__ as _linalg_all
from tfspore.numpy._math_misc import *  # noqa: F401,F403
from tfspore.numpy._math_misc import __all__ as _misc_all
from tfspore.numpy._reductions import *  # noqa: F401,F403
from tfspore.numpy._reductions import __all__ as _reductions_all

__all__ = _elementwise_all + _reductions_all + _linalg_all + _misc_all

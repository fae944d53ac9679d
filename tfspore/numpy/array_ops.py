"""``mindspore.numpy.array_ops``: array manipulation, selection and indexing (a facade over the private modules
``_array_shape`` and ``_array_select``)."""
from tfspore.numpy._array_select import *  # noqa: F401,F403
from tfspore.numpy._array_select import __all__ as _select_all
from tfspore.numpy._array_shape import *  # noqa: F401,F403
from tfspore.numpy._array_shape import __all__ as _shape_all

__all__ = _shape_all + _select_all

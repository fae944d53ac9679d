"""``tfspore.nn.utils`` (MindSpore's ``mindspore.nn.utils``): ``no_init_parameters``.

MindSpore delays the initialization of the Parameters created inside ``no_init_parameters`` until
``init_parameters_data`` or the first use, to save the time of initializing weights that a
checkpoint will overwrite. tfspore's Parameters are TensorFlow variables initialized when created;
inside the context they are created the same way (same initializers, so the same values as
outside it), and ``Parameter.init_param`` reads False while the context is open, as in MindSpore.

Example:
    >>> from tfspore import nn
    >>> with nn.utils.no_init_parameters():
    ...     net = nn.Dense(3, 2)
    >>> net.weight.shape
    (2, 3)
"""
from __future__ import annotations

import contextlib
from typing import Iterator

from tfspore.common.parameter import Parameter

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters() -> Iterator[None]:
    """Mark Parameters created in the block as lazily initialized (they are initialized as usual here).

    Yields:
        None.

    Example:
        >>> with no_init_parameters():
        ...     pass
    """
    previous = getattr(Parameter, "init_param", True)
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = previous

"""``mindspore._extends``: the ``cell_attr_register`` decorator some Cells' ``__init__`` use."""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

__all__ = ["cell_attr_register"]


def cell_attr_register(fn: Callable | None = None, attrs: Any = None) -> Callable:
    """Decorate a Cell's ``__init__`` so that the Cell records its construction arguments.

    After ``__init__`` runs, ``self.cell_init_args`` is the class name followed by the bound
    arguments (or by the values of the attributes named in ``attrs``), as in MindSpore.

    Args:
        fn: the ``__init__`` to decorate (when used without parentheses).
        attrs: an attribute name or a list of names to record instead of the arguments.

    Returns:
        The decorated ``__init__``, or a decorator when ``fn`` is None.

    Raises:
        ValueError: when ``attrs`` is neither a str nor a list of str.

    Example:
        >>> class Net(nn.Cell):
        ...     @cell_attr_register
        ...     def __init__(self, width):
        ...         super().__init__()
    """
    def wrap(init: Callable) -> Callable:
        @functools.wraps(init)
        def decorated(self: Any, *args: Any, **kwargs: Any) -> None:
            values: Any = []
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                values = [v for k, v in bound.items() if k != "self"]
            init(self, *args, **kwargs)
            if attrs is None:
                recorded = f"dict_values({values})"  # MindSpore prints the bound arguments' values view
            elif isinstance(attrs, list):
                if any(not isinstance(item, str) for item in attrs):
                    raise ValueError("attr must be a string")
                recorded = str([getattr(self, item) for item in attrs if hasattr(self, item)])
            elif isinstance(attrs, str):
                recorded = str(getattr(self, attrs)) if hasattr(self, attrs) else "[]"
            else:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = type(self).__name__ + recorded
        return decorated
    return wrap(fn) if fn is not None else wrap

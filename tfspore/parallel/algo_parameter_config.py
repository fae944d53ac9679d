"""``set_algo_parameters`` / ``get_algo_parameters`` / ``reset_algo_parameters``.

MindSpore's parameters of the strategy search of AUTO_PARALLEL mode. tfspore has no strategy
search (``tf.distribute`` data parallelism shards nothing), so the values are validated as MindSpore
validates them and stored, with no effect.

Example:
    >>> set_algo_parameters(elementwise_op_strategy_follow=True)
    >>> get_algo_parameters("elementwise_op_strategy_follow")
    True
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

_DEFAULTS: dict = {"fully_use_devices": False, "elementwise_op_strategy_follow": False,
                   "tensor_slice_align_enable": False, "tensor_slice_align_size": 16, "enable_algo_approxi": False,
                   "algo_approxi_epsilon": float(np.float32(0.1))}
_TYPES = {"fully_use_devices": bool, "elementwise_op_strategy_follow": bool, "tensor_slice_align_enable": bool,
          "tensor_slice_align_size": int, "enable_algo_approxi": bool, "algo_approxi_epsilon": float}
_VALUES = dict(_DEFAULTS)


def set_algo_parameters(**kwargs: Any) -> None:
    """Set parameters of MindSpore's parallel strategy search (stored; no effect on TensorFlow).

    Args:
        **kwargs: ``fully_use_devices`` (bool), ``elementwise_op_strategy_follow`` (bool),
            ``tensor_slice_align_enable`` (bool), ``tensor_slice_align_size`` (int in [1, 1024]),
            ``enable_algo_approxi`` (bool), ``algo_approxi_epsilon`` (float in (0, 1]).

    Raises:
        TypeError: for a value of the wrong type.
        ValueError: for an unknown key or a size out of range.
        RuntimeError: for an epsilon out of range (as MindSpore).
    """
    for key, value in kwargs.items():
        if key in _TYPES and (not isinstance(value, _TYPES[key]) or
                              (_TYPES[key] is int and isinstance(value, bool))):
            raise TypeError(f"The parameter '{key}' must be {_TYPES[key]}, but got {type(value)}")
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
        if key == "algo_approxi_epsilon":
            if not 0 < value <= 1:
                raise RuntimeError(f"'epsilon' must be in (0, 1], but got {value}")
        _VALUES[key] = value


def get_algo_parameters(attr_key: str) -> Any:
    """Return a strategy-search parameter.

    Raises:
        ValueError: for an unknown key.
    """
    if attr_key not in _VALUES:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _VALUES[attr_key]


def reset_algo_parameters() -> None:
    """Restore the default strategy-search parameters."""
    _VALUES.clear()
    _VALUES.update(_DEFAULTS)

"""The global random seed (``mindspore.set_seed`` / ``mindspore.get_seed``).

``set_seed`` seeds every random source a training script touches: Python's ``random``,
numpy's global generator, TensorFlow's global seed, and the generators that parameter
initializers draw from. After ``set_seed(s)`` the initial weights of a network built the
same way are the same on every run.

Example:
    >>> from tfspore.common.seed import set_seed, get_seed
    >>> set_seed(1234)
    >>> get_seed()
    1234
"""
from __future__ import annotations

import numbers
import random
import threading
from typing import Callable, List, Optional, Tuple

import numpy as np

__all__ = ["set_seed", "get_seed"]

_MAXINT32 = 2**31 - 1
_MAX_SEED = 2**32 - 1  # numpy.random.seed accepts [0, 2**32 - 1]

# Distinct stream tags so that initializer generators and op seeds never share a stream.
_INIT_STREAM = 0
_OP_STREAM = 1

_GLOBAL_SEED: Optional[int] = None
_INIT_COUNTER = 0
_OP_COUNTER = 0
_LOCK = threading.Lock()
# Called with the seed by every set_seed: the dataset pipeline registers its own seeding here
# (tfspore.dataset.core.config), so that this module needs no import of the dataset package.
_SET_SEED_HOOKS: List[Callable[[int], None]] = []


def set_seed(seed: int) -> None:
    """Set the global random seed.

    Seeds Python's ``random``, ``numpy.random``, TensorFlow (``tf.random.set_seed``) and the
    generators used by :mod:`tfspore.common.initializer`, and restarts their sequences, so
    that code run after two calls with the same seed produces the same numbers.

    Args:
        seed: A non-negative int, at most ``2**32 - 1``.

    Raises:
        TypeError: If `seed` is not an int.
        ValueError: If `seed` is negative or larger than ``2**32 - 1``.

    Example:
        >>> import numpy as np
        >>> from tfspore.common.seed import set_seed
        >>> set_seed(1)
        >>> a = np.random.rand()
        >>> set_seed(1)
        >>> a == np.random.rand()
        True
    """
    global _GLOBAL_SEED, _INIT_COUNTER, _OP_COUNTER
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"For 'set_seed', the argument 'seed' must be type of int, but got {seed!r} "
                        f"with type {type(seed).__name__}.")
    seed = int(seed)
    if seed < 0 or seed > _MAX_SEED:
        raise ValueError(f"For 'set_seed', the 'seed' must be int and must >= 0 and <= {_MAX_SEED}, "
                         f"but got '{seed}' with type 'int'.")
    import tensorflow as tf  # pylint: disable=import-outside-toplevel

    random.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)
    with _LOCK:
        _GLOBAL_SEED = seed
        _INIT_COUNTER = 0
        _OP_COUNTER = 0
    for hook in list(_SET_SEED_HOOKS):  # as MindSpore, the global seed also seeds the dataset pipeline
        hook(seed)


def get_seed() -> Optional[int]:
    """Return the global seed.

    Returns:
        The seed given to the last :func:`set_seed` call, or None if it was never called.

    Example:
        >>> from tfspore.common.seed import set_seed, get_seed
        >>> set_seed(1234)
        >>> print(get_seed())
        1234
    """
    return _GLOBAL_SEED


def add_set_seed_hook(hook: Callable[[int], None]) -> None:
    """Have every later :func:`set_seed` call ``hook(seed)`` (after seeding everything else).

    Used by packages that keep seeded state of their own (the dataset pipeline), so that this
    module imports none of them. A hook added twice runs once.

    Args:
        hook: called with the seed.
    """
    if hook not in _SET_SEED_HOOKS:
        _SET_SEED_HOOKS.append(hook)


def _next_numpy_rng() -> np.random.Generator:
    """Return a fresh numpy Generator for one initialization.

    After ``set_seed(s)`` the k-th call returns a generator seeded from ``(s, k)``, so the
    sequence is reproducible; without a global seed the generator is seeded from OS entropy.
    """
    global _INIT_COUNTER
    with _LOCK:
        seed = _GLOBAL_SEED
        counter = _INIT_COUNTER
        _INIT_COUNTER += 1
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng(np.random.SeedSequence([seed, counter, _INIT_STREAM]))


def _get_op_seed() -> Tuple[int, int]:
    """Return a ``(seed, seed2)`` pair for one TensorFlow stateless random op.

    Both values lie in ``[0, 2**31 - 1)``. After ``set_seed(s)`` the sequence of pairs is
    deterministic; without a global seed the pairs come from OS entropy.
    """
    global _OP_COUNTER
    with _LOCK:
        seed = _GLOBAL_SEED
        counter = _OP_COUNTER
        _OP_COUNTER += 1
    if seed is None:
        seq = np.random.SeedSequence()
    else:
        seq = np.random.SeedSequence([seed, counter, _OP_STREAM])
    state = seq.generate_state(2, dtype=np.uint32)
    return int(state[0]) % _MAXINT32, int(state[1]) % _MAXINT32

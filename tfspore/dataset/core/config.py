"""Global configuration of the data pipeline (``mindspore.dataset.config``).

The values kept here are read when a pipeline is built (when an iterator is created, or
``to_tf_dataset`` is called), as MindSpore reads them when it parses the pipeline tree.

The seed: ``set_seed(s)`` (here, or ``tfspore.set_seed``, which MindSpore also routes here)
makes every shuffle, random sampler and random transform of the pipelines built afterwards
reproducible. While no seed is set, ``get_seed`` returns MindSpore's default
``5489`` (``std::mt19937::default_seed``) and shuffles draw fresh entropy on each build; as in
MindSpore, a seed equal to the default counts as "not set".

Example:
    >>> import tfspore.dataset as ds
    >>> ds.config.set_seed(1234)
    >>> ds.config.get_seed()
    1234
    >>> ds.config.set_num_parallel_workers(4)
    >>> ds.config.get_num_parallel_workers()
    4
"""
from __future__ import annotations

import os
import random
from typing import Any, Dict, Optional

import numpy as np

from tfspore._internal import validator
from tfspore.common import seed as _global_seed_module

__all__ = ["set_seed", "get_seed", "set_prefetch_size", "get_prefetch_size", "set_num_parallel_workers",
           "get_num_parallel_workers", "set_numa_enable", "get_numa_enable", "set_monitor_sampling_interval",
           "get_monitor_sampling_interval", "set_auto_num_workers", "get_auto_num_workers",
           "set_callback_timeout", "get_callback_timeout", "set_enable_autotune", "get_enable_autotune",
           "set_autotune_interval", "get_autotune_interval", "set_enable_shared_mem", "get_enable_shared_mem",
           "set_sending_batches", "set_auto_offload", "get_auto_offload", "set_enable_watchdog",
           "get_enable_watchdog", "set_multiprocessing_timeout_interval", "get_multiprocessing_timeout_interval",
           "set_dynamic_shape", "get_dynamic_shape", "set_fast_recovery", "get_fast_recovery",
           "set_debug_mode", "get_debug_mode", "set_error_samples_mode", "get_error_samples_mode",
           "set_iterator_mode", "get_iterator_mode", "load", "ErrorSamplesMode"]

UINT32_MAX = 4294967295
INT32_MAX = 2147483647
DEFAULT_SEED = 5489  # std::mt19937::default_seed, MindSpore's "no seed set" value

_state: Dict[str, Any] = {
    "seed": DEFAULT_SEED,
    "seed_snapshot": None,     # tfspore.get_seed() when ds.config.set_seed was called
    "prefetch_size": 16,
    "num_parallel_workers": min(8, os.cpu_count() or 1),
    "numa_enable": False,
    "monitor_sampling_interval": 1000,
    "auto_num_workers": False,
    "callback_timeout": 60,
    "enable_autotune": False,
    "autotune_interval": 0,
    "enable_shared_mem": False,
    "sending_batches": 0,
    "auto_offload": False,
    "enable_watchdog": True,
    "multiprocessing_timeout_interval": 300,
    "dynamic_shape": False,
    "fast_recovery": True,
    "debug_mode": False,
    "error_samples_mode": None,
    "iterator_mode": {"do_copy": False, "parallel_convert": False},
}


class ErrorSamplesMode:
    """How erroneous samples are handled (accepted for compatibility; errors always raise)."""

    RETURN = 0
    REPLACE = 1
    SKIP = 2


_state["error_samples_mode"] = ErrorSamplesMode.RETURN


def set_seed(seed: int) -> None:
    """Set the seed of the data pipeline's random operations.

    Also seeds Python's ``random`` and ``numpy.random``, as MindSpore does.

    Args:
        seed: An int in ``[0, 4294967295]``.

    Raises:
        TypeError: If `seed` is not an int.
        ValueError: If `seed` is out of range.

    Example:
        >>> import tfspore.dataset as ds
        >>> ds.config.set_seed(0)
    """
    seed = validator.check_int_range(seed, "seed", "config.set_seed", 0, UINT32_MAX)
    from tfspore.common import seed as _global_seed  # pylint: disable=import-outside-toplevel

    _state["seed"] = seed
    _state["seed_snapshot"] = _global_seed.get_seed()
    random.seed(seed)
    np.random.seed(seed)


_global_seed_module.add_set_seed_hook(set_seed)  # as MindSpore, tfspore.set_seed seeds the pipeline too


def get_seed() -> int:
    """Return the pipeline seed.

    Returns:
        The last seed given to :func:`set_seed` or to ``tfspore.set_seed`` (whichever came
        last), or ``5489`` if neither was called.

    Example:
        >>> import tfspore.dataset as ds
        >>> ds.config.set_seed(7)
        >>> ds.config.get_seed()
        7
    """
    from tfspore.common import seed as _global_seed  # pylint: disable=import-outside-toplevel

    global_seed = _global_seed.get_seed()
    if global_seed is not None and global_seed != _state["seed_snapshot"]:
        # tfspore.set_seed was called after ds.config.set_seed (or ds.config.set_seed never was).
        return int(global_seed) & UINT32_MAX
    return _state["seed"]


def _set_int(key: str, arg: str, value: Any, positive: bool = False) -> None:
    """Keep ``value``, the argument ``arg`` of ``config.set_<key>``, after checking it is an int in
    ``[0, INT32_MAX]`` (``(0, INT32_MAX]`` when ``positive``)."""
    _state[key] = validator.check_int_range(value, arg, "config.set_" + key, 0, INT32_MAX, inc_low=not positive)


def _pipeline_seed() -> Optional[int]:
    """The seed that makes pipelines deterministic, or None when shuffles should be random."""
    seed = get_seed()
    return None if seed == DEFAULT_SEED else seed


def set_prefetch_size(size: int) -> None:
    """Set the number of rows buffered between operations (a hint; tf.data autotunes).

    Args:
        size: An int in ``(0, 2147483647]``.

    Raises:
        TypeError: If `size` is not an int.
        ValueError: If `size` is out of range.

    Example:
        >>> import tfspore.dataset as ds
        >>> ds.config.set_prefetch_size(32)
    """
    _set_int("prefetch_size", "size", size, positive=True)


def get_prefetch_size() -> int:
    """Return the prefetch size (16 unless :func:`set_prefetch_size` was called).

    Example:
        >>> import tfspore.dataset as ds
        >>> ds.config.get_prefetch_size() > 0
        True
    """
    return _state["prefetch_size"]


def set_num_parallel_workers(num: int) -> None:
    """Set the default number of parallel workers of the pipeline operations.

    Args:
        num: An int in ``(0, 2147483647]``.

    Raises:
        TypeError: If `num` is not an int.
        ValueError: If `num` is out of range.

    Example:
        >>> import tfspore.dataset as ds
        >>> ds.config.set_num_parallel_workers(2)
    """
    _set_int("num_parallel_workers", "num", num, positive=True)


def get_num_parallel_workers() -> int:
    """Return the default number of parallel workers (8, capped by the CPU count).

    Example:
        >>> import tfspore.dataset as ds
        >>> ds.config.get_num_parallel_workers() >= 1
        True
    """
    return _state["num_parallel_workers"]


def _make_getter(key: str, doc: str):
    """The public ``get_...`` function of the setting ``key``: it returns ``_state[key]``."""
    def getter() -> Any:
        return _state[key]

    getter.__name__ = getter.__qualname__ = "get_" + key
    getter.__doc__ = doc
    return getter


def _make_flag(key: str, doc: str):
    def setter(value: bool) -> None:
        _state[key] = validator.check_bool(value, key, "config.set_" + key)

    setter.__name__ = setter.__qualname__ = "set_" + key
    setter.__doc__ = f"Set {doc} (kept for compatibility; tf.data manages this itself).\n\nArgs:\n    value: A bool."
    return setter, _make_getter(key, f"Return {doc}.")


set_numa_enable, get_numa_enable = _make_flag("numa_enable", "whether NUMA binding is enabled")
set_auto_num_workers, get_auto_num_workers = _make_flag("auto_num_workers", "whether workers are auto-tuned")
set_auto_offload, get_auto_offload = _make_flag("auto_offload", "whether automatic offload is enabled")
set_enable_watchdog, get_enable_watchdog = _make_flag("enable_watchdog", "whether the watchdog is enabled")
set_dynamic_shape, get_dynamic_shape = _make_flag("dynamic_shape", "whether dynamic shapes are enabled")
set_fast_recovery, get_fast_recovery = _make_flag("fast_recovery", "whether fast recovery is enabled")
set_enable_shared_mem, get_enable_shared_mem = _make_flag("enable_shared_mem", "whether shared memory is used")


def set_monitor_sampling_interval(interval: int) -> None:
    """Set the performance monitor's sampling interval in ms (kept for compatibility)."""
    _set_int("monitor_sampling_interval", "interval", interval, positive=True)


get_monitor_sampling_interval = _make_getter("monitor_sampling_interval",
                                             "Return the performance monitor's sampling interval in ms.")


def set_callback_timeout(timeout: int) -> None:
    """Set the timeout of DSWaitedCallback in seconds (kept for compatibility)."""
    _set_int("callback_timeout", "timeout", timeout, positive=True)


get_callback_timeout = _make_getter("callback_timeout", "Return the DSWaitedCallback timeout in seconds.")


def set_enable_autotune(enable: bool, filepath_prefix: Optional[str] = None) -> None:
    """Enable MindSpore's autotune: ``tf.data``'s autotuning of parallelism and buffer sizes.

    Off (the default, as in MindSpore), a pipeline runs the parallelism it was given, each
    ``AUTOTUNE`` parallelism is the core count and prefetch buffers grow only when they run
    empty. The setting applies to pipelines built after the call.
    `filepath_prefix` (MindSpore writes the tuned configuration there) is accepted and ignored.

    Args:
        enable: Whether to autotune.
        filepath_prefix: Ignored.

    Raises:
        TypeError: If `enable` is not a bool.
    """
    del filepath_prefix
    _state["enable_autotune"] = validator.check_bool(enable, "enable", "config.set_enable_autotune")


get_enable_autotune = _make_getter("enable_autotune",
                                   "Return whether autotune was enabled through :func:`set_enable_autotune`.")


def set_autotune_interval(interval: int) -> None:
    """Set the autotune interval (kept for compatibility)."""
    _set_int("autotune_interval", "interval", interval)


get_autotune_interval = _make_getter("autotune_interval", "Return the autotune interval.")


def set_sending_batches(batch_num: int) -> None:
    """Set the number of batches sent to the device queue (kept for compatibility)."""
    _set_int("sending_batches", "batch_num", batch_num)


def set_multiprocessing_timeout_interval(interval: int) -> None:
    """Set the interval of the multiprocessing timeout warning (kept for compatibility)."""
    _set_int("multiprocessing_timeout_interval", "interval", interval, positive=True)


get_multiprocessing_timeout_interval = _make_getter("multiprocessing_timeout_interval",
                                                    "Return the interval of the multiprocessing timeout warning.")


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: Optional[list] = None) -> None:
    """Set the pipeline debug mode (kept for compatibility)."""
    del debug_hook_list
    _state["debug_mode"] = validator.check_bool(debug_mode_flag, "debug_mode_flag", "config.set_debug_mode")


get_debug_mode = _make_getter("debug_mode", "Return whether the debug mode is on.")


def set_error_samples_mode(error_samples_mode: int) -> None:
    """Set how erroneous samples are handled (kept for compatibility; errors always raise)."""
    _state["error_samples_mode"] = error_samples_mode


get_error_samples_mode = _make_getter("error_samples_mode", "Return the error samples mode.")


def set_iterator_mode(do_copy: bool = False, parallel_convert: bool = False) -> None:
    """Set the iterator's output mode (kept for compatibility)."""
    _state["iterator_mode"] = {"do_copy": validator.check_bool(do_copy, "do_copy", "config.set_iterator_mode"),
                               "parallel_convert": validator.check_bool(parallel_convert, "parallel_convert",
                                                                        "config.set_iterator_mode")}


def get_iterator_mode() -> dict:
    """Return the iterator's output mode."""
    return dict(_state["iterator_mode"])


def load(file: str) -> None:
    """Load settings from a MindSpore JSON config file (``seed``, ``numParallelWorkers``, ``opConnectorSize``).

    Args:
        file: Path of the JSON file.

    Raises:
        RuntimeError: If the file cannot be read or parsed.
    """
    import json  # pylint: disable=import-outside-toplevel

    try:
        with open(file, "r", encoding="utf-8") as f:
            cfg = json.load(f)
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"For 'config.load', failed to load the config file {file!r}: {exc}") from exc
    if "seed" in cfg:
        set_seed(cfg["seed"])
    if "numParallelWorkers" in cfg:
        set_num_parallel_workers(cfg["numParallelWorkers"])
    if "opConnectorSize" in cfg:
        set_prefetch_size(cfg["opConnectorSize"])

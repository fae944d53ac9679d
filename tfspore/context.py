"""``tfspore.context``: execution mode and device settings (``mindspore.set_context``).

``mode`` selects how Cells run: ``GRAPH_MODE`` compiles the outermost Cell call with
``tf.function``; ``PYNATIVE_MODE`` (MindSpore 2.x's default) runs eagerly. ``device_target``
picks the TensorFlow device type ('CPU' or 'GPU'); ``jit_config`` with ``jit_level`` 'O2'
(or ``{"jit_compile": True}``) turns XLA on for compiled Cells.

Example:
    >>> import tfspore as ms
    >>> ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    >>> ms.get_context("mode")
    0
"""
from __future__ import annotations

import logging
import threading
from typing import Any

import tensorflow as tf

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "ParallelMode", "set_auto_parallel_context",
           "get_auto_parallel_context", "reset_auto_parallel_context", "STRICT", "COMPATIBLE", "LAX", "DEBUG",
           "RELEASE", "get_jit_config", "set_ps_context", "get_ps_context", "reset_ps_context"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1
STRICT, COMPATIBLE, LAX = 0, 1, 2
RELEASE, DEBUG = 0, 1

_logger = logging.getLogger("tfspore")

# MindSpore 2.10's set_context keys. Those with an effect on TensorFlow are handled below; the rest are
# accepted and stored, with a one-time warning that they do nothing on TensorFlow.
_NO_EFFECT_KEYS = {
    "save_graphs": 0, "save_graphs_path": ".", "aoe_tune_mode": "", "aoe_config": {}, "enable_reduce_precision": True,
    "variable_memory_max_size": "", "inter_op_parallel_num": 0, "enable_graph_kernel": False,
    "reserve_class_name_in_scope": True, "check_bprop": False, "max_device_memory": "1024GB", "print_file_path": "",
    "max_call_depth": 1000, "env_config_path": "", "graph_kernel_flags": "", "save_compile_cache": False,
    "runtime_num_threads": 30, "load_compile_cache": False, "pynative_synchronize": False, "mempool_block_size": "1GB",
    "disable_format_transform": False, "op_timeout": 900, "ascend_config": {}, "jit_syntax_level": LAX,
    "debug_level": RELEASE, "jit_enable_inplace_ops": False, "gpu_config": {}, "enable_compile_cache": False,
    "memory_optimize_level": "O0", "exec_order": "bfs", "profiling_options": "", "enable_profiling": False,
    "compile_cache_path": "", "enable_auto_mixed_precision": False, "enable_sparse": False, "auto_tune_mode": "",
    "precompile_only": False, "enable_dump": False, "save_dump_path": ".",
}
_TARGETS = ("CPU", "GPU", "Ascend", "Davinci")


class _Context:
    def __init__(self) -> None:
        self.mode = PYNATIVE_MODE
        self.device_target = "GPU" if tf.config.list_physical_devices("GPU") else "CPU"
        self.device_id = 0
        self.jit_config: dict = {}
        self.deterministic = "OFF"
        self.values = dict(_NO_EFFECT_KEYS)
        self.warned: set = set()
        self.local = threading.local()


_CTX = _Context()


def _mode() -> int:
    return _CTX.mode


def _jit_compile_default() -> bool | None:
    """Whether compiled functions use XLA, from ``jit_config``."""
    cfg = _CTX.jit_config
    if "jit_compile" in cfg:
        return bool(cfg["jit_compile"])
    if cfg.get("jit_level") == "O2":
        return True
    return None


def _set_mode(value: Any) -> None:
    if value not in (GRAPH_MODE, PYNATIVE_MODE) or isinstance(value, bool):
        raise ValueError("For 'context.set_context', the argument 'mode' should be context.GRAPH_MODE (0) or "
                         f"context.PYNATIVE_MODE (1), but got {value!r}.")
    if value != _CTX.mode:
        _CTX.mode = value
        from tfspore.common import _state as _cell_state
        _cell_state.bump()


def _set_device_target(value: Any) -> None:
    if not isinstance(value, str) or value not in _TARGETS:
        raise ValueError(f"For 'context.set_context', the argument 'device_target' must be one of {list(_TARGETS)}, "
                         f"but got {value!r}.")
    if value in ("Ascend", "Davinci"):
        raise ValueError("For 'context.set_context', the argument 'device_target' is 'Ascend', but tfspore runs on "
                         "TensorFlow, which has no Ascend backend: use 'CPU' or 'GPU' (TPUs are used through "
                         "tf.distribute.TPUStrategy).")
    if value == "GPU" and not tf.config.list_physical_devices("GPU"):
        _logger.warning("For 'context.set_context', device_target is 'GPU' but TensorFlow sees no GPU; "
                        "ops will run on the CPU.")
    _CTX.device_target = value


def _set_device_id(value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"For 'context.set_context', the argument 'device_id' must be a non-negative int, "
                         f"but got {value!r}.")
    _CTX.device_id = value


def _set_jit_config(value: Any) -> None:
    if not isinstance(value, dict):
        raise TypeError(f"For 'context.set_context', the argument 'jit_config' must be a dict, but got "
                        f"{type(value).__name__}.")
    _CTX.jit_config = dict(value)
    from tfspore.common import _state as _cell_state
    _cell_state.bump()


def _set_deterministic(value: Any) -> None:
    if value not in ("ON", "OFF"):
        raise ValueError(f"For 'context.set_context', the argument 'deterministic' must be 'ON' or 'OFF', but got "
                         f"{value!r}.")
    _CTX.deterministic = value
    if value == "ON":
        tf.config.experimental.enable_op_determinism()


_SETTERS = {"mode": _set_mode, "device_target": _set_device_target, "device_id": _set_device_id,
            "jit_config": _set_jit_config, "deterministic": _set_deterministic}


def set_context(**kwargs: Any) -> None:
    """Set the execution context.

    Args:
        **kwargs: ``mode`` (GRAPH_MODE or PYNATIVE_MODE), ``device_target`` ('CPU' or 'GPU';
            'Ascend' raises), ``device_id``, ``jit_config`` (``{'jit_level': 'O2'}`` or
            ``{'jit_compile': True}`` enables XLA), ``deterministic`` ('ON' enables TF op
            determinism); MindSpore's other keys are accepted and have no effect on TensorFlow.

    Raises:
        ValueError: for an unknown key or a bad value.

    Example:
        >>> set_context(mode=GRAPH_MODE)
    """
    if "device_target" in kwargs:
        _set_device_target(kwargs["device_target"])
    for key, value in kwargs.items():
        if key == "device_target":
            continue
        if key in _SETTERS:
            _SETTERS[key](value)
        elif key in _CTX.values:
            _CTX.values[key] = value
            if key not in _CTX.warned:
                _CTX.warned.add(key)
                _logger.warning("For 'context.set_context', '%s' has no effect on TensorFlow and is ignored.", key)
        else:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! "
                             f"Valid keys: {sorted(list(_SETTERS) + list(_CTX.values))}.")


def get_context(attr_key: str) -> Any:
    """Return the value of a context key.

    Raises:
        ValueError: for an unknown key.
    """
    if attr_key in ("mode", "device_target", "device_id", "jit_config", "deterministic"):
        return getattr(_CTX, attr_key)
    if attr_key in _CTX.values:
        return _CTX.values[attr_key]
    raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                     "usage of 'get_context', please refer to the Mindspore official website.")


def get_jit_config() -> dict:
    """Return the ``jit_config`` dict."""
    return dict(_CTX.jit_config)


class ParallelMode:
    """Parallel mode names (``mindspore.ParallelMode``)."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_AUTO_PARALLEL_DEFAULTS = {"device_num": 1, "global_rank": 0, "gradients_mean": False, "gradient_fp32_sync": True,
                           "parallel_mode": ParallelMode.STAND_ALONE, "auto_parallel_search_mode": "",
                           "search_mode": "recursive_programming", "parameter_broadcast": False,
                           "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "", "full_batch": False,
                           "enable_parallel_optimizer": False, "enable_alltoall": False, "all_reduce_fusion_config": [],
                           "pipeline_stages": 1, "grad_accumulation_step": 1, "parallel_optimizer_config": {},
                           "comm_fusion": {}, "strategy_ckpt_config": {}, "dataset_strategy": "data_parallel"}
_AUTO_PARALLEL = dict(_AUTO_PARALLEL_DEFAULTS)


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set parallel settings; ``parallel_mode`` and ``device_num`` are read by the distribution support.

    Raises:
        ValueError: for an unknown key or parallel mode.
    """
    for key, value in kwargs.items():
        if key not in _AUTO_PARALLEL_DEFAULTS:
            raise ValueError(f"For 'context.set_auto_parallel_context', the keyword argument {key} is not "
                             "recognized!")
        if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
            raise ValueError(f"For 'context.set_auto_parallel_context', the argument 'parallel_mode' must be one of "
                             f"{ParallelMode.MODE_LIST}, but got {value!r}.")
        _AUTO_PARALLEL[key] = value


def get_auto_parallel_context(attr_key: str) -> Any:
    """Return a parallel setting.

    Raises:
        ValueError: for an unknown key.
    """
    if attr_key not in _AUTO_PARALLEL:
        raise ValueError(f"For 'context.get_auto_parallel_context', the argument {attr_key} is not recognized!")
    return _AUTO_PARALLEL[attr_key]


def reset_auto_parallel_context() -> None:
    """Restore the default parallel settings."""
    _AUTO_PARALLEL.clear()
    _AUTO_PARALLEL.update(_AUTO_PARALLEL_DEFAULTS)


_PS: dict = {}


def set_ps_context(**kwargs: Any) -> None:
    """Accepted for compatibility: TensorFlow has no parameter-server mode here."""
    _PS.update(kwargs)


def get_ps_context(attr_key: str) -> Any:
    """Return a value stored by :func:`set_ps_context` (False when unset)."""
    return _PS.get(attr_key, False)


def reset_ps_context() -> None:
    """Clear the parameter-server settings."""
    _PS.clear()

"""``tfspore.context``: execution mode and device settings (``mindspore.set_context``).

``mode`` selects how Cells run: ``GRAPH_MODE`` compiles the outermost Cell call with
``tf.function``; ``PYNATIVE_MODE`` (MindSpore 2.x's default) runs eagerly. ``device_target``
picks the TensorFlow device type ('CPU' or 'GPU'); ``jit_config={'jit_level': 'O2'}`` turns XLA
on for compiled Cells (tfspore also takes ``{'jit_compile': True}``). ``deterministic='ON'``
enables TensorFlow's op determinism.

MindSpore's other ``set_context`` keys (those of MindSpore 1.x-2.2 included) are accepted,
validated as MindSpore validates them and stored for :func:`get_context`. A few act on TensorFlow:
``max_call_depth`` raises Python's recursion limit, ``runtime_num_threads`` /
``inter_op_parallel_num`` set TensorFlow's thread pools, ``max_device_memory`` limits GPU memory.
The others have no effect on TensorFlow (a one-time warning says so); keys MindSpore applies only
on other devices are ignored with MindSpore's warning. Unknown keys raise a ValueError naming the key.

Example:
    >>> import tfspore as ms
    >>> ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    >>> ms.get_context("mode")
    0
"""
from __future__ import annotations

import copy
import logging
import os
import re
import sys
import threading
from typing import Any

import tensorflow as tf

from tfspore._internal import validator

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "ParallelMode", "set_auto_parallel_context",
           "get_auto_parallel_context", "reset_auto_parallel_context", "STRICT", "COMPATIBLE", "LAX", "DEBUG",
           "RELEASE", "get_jit_config", "set_ps_context", "get_ps_context", "reset_ps_context"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1
STRICT, COMPATIBLE, LAX = 0, 1, 2
RELEASE, DEBUG = 0, 1

_logger = logging.getLogger("tfspore")
_API_NAME = "context.set_context"
_API = f"For '{_API_NAME}', "

# MindSpore 2.10's context parameters and their defaults (CPU build). Those handled by _SETTERS act on
# TensorFlow; the others are stored only.
_DEFAULTS: dict = {
    "check_bprop": False, "enable_graph_kernel": False, "enable_reduce_precision": True, "enable_profiling": False,
    "save_graphs": 0, "enable_parallel_split": False, "max_device_memory": 1024.0, "mempool_block_size": 1.0,
    "inter_op_parallel_num": 0, "runtime_num_threads": 30, "print_file_path": "",
    "profiling_options": "training_trace", "precision_mode": "", "jit_compile": "", "atomic_clean_policy": "",
    "matmul_allow_hf32": "", "conv_allow_hf32": "", "op_precision_mode": "", "ge_options": "",
    "save_graphs_path": ".", "enable_compile_cache": None, "compile_cache_path": "", "variable_memory_max_size": "0",
    "aoe_tune_mode": "", "aoe_job_type": "2", "max_call_depth": 1000, "env_config_path": "", "graph_kernel_flags": "",
    "pynative_synchronize": False, "disable_format_transform": False, "memory_optimize_level": 0, "op_timeout": 900,
    "jit_syntax_level": LAX, "conv_fprop_algo": "normal", "conv_dgrad_algo": "normal", "conv_wgrad_algo": "normal",
    "conv_allow_tf32": True, "recompute_comm_overlap": "", "matmul_grad_comm_overlap": "", "pp_1f1b_overlap": "",
    "recompute_allgather_overlap_fagrad": False, "matmul_allow_tf32": False, "jit_level": "", "infer_boost": "off",
    "enable_task_opt": False, "enable_grad_comm_opt": False, "enable_opt_shard_comm_opt": False,
    "compute_communicate_fusion_level": 0, "dataset_broadcast_opt_level": 0, "debug_level": RELEASE,
    "interleaved_matmul_comm": False, "interleaved_layernorm_comm": False, "bias_add_comm_swap": False,
    "enable_begin_end_inline_opt": False, "enable_concat_eliminate_opt": False, "enable_fused_cast_add_opt": False,
    "host_scheduling_max_threshold": "", "topo_order": "", "exec_order": "bfs", "cur_step_num": 0, "need_ckpt": False,
    "save_checkpoint_steps": 0, "last_triggered_step": 0, "hccl_watchdog": True,
    "enable_flash_attention_load_balance": False, "enable_allreduce_slice_to_reducescatter": False,
    "enable_interleave_split_concat_branch": False, "enable_interleave_parallel_branch": False,
    "enable_offloading_packed_experts": False, "op_debug_option": "", "ascend_config": {}, "gpu_config": {},
    "aoe_config": {}, "enable_ge": False, "parallel_speed_up_json_path": "", "exception_dump": "",
    "reserve_class_name_in_scope": True,
}
# MindSpore's type check of set_context arguments (its ``args_type_check``), run before any other check
_TYPES: dict = {
    "save_graphs": (bool, int), "save_graphs_path": str, "aoe_tune_mode": str, "aoe_config": dict,
    "enable_reduce_precision": bool, "variable_memory_max_size": str, "enable_auto_mixed_precision": bool,
    "inter_op_parallel_num": int, "enable_graph_kernel": bool, "reserve_class_name_in_scope": bool,
    "check_bprop": bool, "max_device_memory": str, "print_file_path": str, "max_call_depth": int,
    "env_config_path": str, "graph_kernel_flags": str, "runtime_num_threads": int, "pynative_synchronize": bool,
    "mempool_block_size": str, "disable_format_transform": bool, "op_timeout": int, "ascend_config": dict,
    "jit_syntax_level": int, "debug_level": int, "gpu_config": dict, "enable_compile_cache": bool,
}
# keys MindSpore applies only on some devices; on the others it warns and ignores them
_TARGET_ONLY = {"enable_reduce_precision": ["Ascend"], "print_file_path": ["Ascend"],
                "variable_memory_max_size": ["Ascend"], "max_device_memory": ["Ascend", "GPU"],
                "mempool_block_size": ["GPU", "Ascend"], "disable_format_transform": ["GPU"],
                "ascend_config": ["Ascend"], "gpu_config": ["GPU"]}
# accepted and stored, with MindSpore's deprecation warning
_DEPRECATED_STORED = {
    "reserve_class_name_in_scope": "and will be removed in the next version.",
    "env_config_path": "and will be removed in the next version.",
    "enable_graph_kernel": "and will be removed in the next version. Please use jit_config={'jit_level': 'O1'} "
                           "instead.",
    "graph_kernel_flags": "and will be removed in the next version. Please use environ variable "
                          "'MS_DEV_GRAPH_KERNEL_FLAGS' instead.",
}
_MEMORY_RE = re.compile(r"^\d+(\.\d+)?GB$")
# accepted by MindSpore 2.10's set_context with a deprecation warning, and not readable back
_DEPRECATED_IGNORED = ("enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision")
# MindSpore asks for these through 'ascend_config'
_ASCEND_ONLY = ("precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32", "conv_allow_hf32",
                "op_precision_mode", "host_scheduling_max_threshold", "ge_options", "op_debug_option")
_REMOVED = {"precompile_only": "MS_DEV_PRECOMPILE_ONLY"}
_TARGETS = ["CPU", "GPU", "Ascend", "Davinci"]
_JIT_CFGS = {"jit_level": ["O0", "O1", "O2"], "infer_boost": ["on", "off"], "jit_compile": [True, False]}


class _Context:
    def __init__(self) -> None:
        self.mode = PYNATIVE_MODE
        self.device_target = "GPU" if tf.config.list_physical_devices("GPU") else "CPU"
        # as MindSpore: DEVICE_ID (set by msrun / tfspore launch / mpirun) is the default device_id
        self.device_id = int(os.environ["DEVICE_ID"]) if os.environ.get("DEVICE_ID", "").isdigit() else 0
        self.jit_config: dict = {}
        self.deterministic = "OFF"
        self.values = copy.deepcopy(_DEFAULTS)
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


def _bump() -> None:
    from tfspore._internal import state as _cell_state
    _cell_state.bump()


def _set_mode(value: Any) -> None:
    validator.check_type(value, (int, bool), "mode", _API_NAME, "int")  # a bool is an int here, as in MindSpore
    if value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError(f"{_API}the argument 'mode' should be context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), "
                         f"but got {value!r}.")
    if int(value) != _CTX.mode:
        _CTX.mode = int(value)
        _bump()


def _set_device_target(value: Any) -> None:
    if not isinstance(value, str) or value not in _TARGETS:
        raise ValueError(f"{_API}the argument 'device_target' must be one of {_TARGETS}, but got {value!r}.")
    if value in ("Ascend", "Davinci"):
        raise ValueError(f"{_API}the argument 'device_target' is {value!r}, but tfspore runs on TensorFlow, which has "
                         "no Ascend backend: use 'CPU' or 'GPU' (TPUs are used through tf.distribute.TPUStrategy).")
    if value == "GPU" and not tf.config.list_physical_devices("GPU"):
        _logger.warning("For 'context.set_context', device_target is 'GPU' but TensorFlow sees no GPU; ops will run "
                        "on the CPU.")
    _CTX.device_target = value


def _set_device_id(value: Any) -> None:
    validator.check_type(value, (int, bool), "device_id", _API_NAME, "int")
    if isinstance(value, bool) or not 0 <= value <= 4095:
        raise ValueError(f"{_API}the argument 'device_id' must be in range [0, 4095], but got {value!r}.")
    _CTX.device_id = value


def _set_jit_config(value: Any) -> None:
    validator.check_type(value, dict, "jit_config", _API_NAME)
    for key, val in value.items():
        if key not in _JIT_CFGS:
            raise ValueError(f"{_API}the key of argument 'jit_config' must be one of {sorted(_JIT_CFGS)}, but got "
                             f"{key!r}.")
        if val not in _JIT_CFGS[key] or (key == "jit_compile" and not isinstance(val, bool)):
            raise ValueError(f"For 'jit_config', the value of argument {key} must be one of {_JIT_CFGS[key]}, but got "
                             f"{val!r}.")
    if value.get("infer_boost") == "on" and value.get("jit_level") in ("O1", "O2"):
        raise ValueError("Only jit_level set O0 can set infer_boost to on.")
    _CTX.jit_config = dict(value)
    if "jit_level" in value:
        _CTX.values["jit_level"] = value["jit_level"]
    _bump()


def _set_deterministic(value: Any) -> None:
    if value not in ("ON", "OFF"):
        raise ValueError(f"{_API}the argument 'deterministic' must be one of ['ON', 'OFF'], but got {value!r}.")
    _CTX.deterministic = value
    if value == "ON":
        tf.config.experimental.enable_op_determinism()


def _one_of(key: str, choices: list) -> Any:
    def check(value: Any) -> Any:
        if value not in choices:
            raise ValueError(f"{_API}the argument '{key}' must be one of {choices}, but got {value!r}.")
        return value
    return check


def _check_save_graphs(value: Any) -> int:
    if value is True:
        return 2
    if value is False:
        return 0
    if not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"{_API}the argument 'save_graphs' should be 0-3 (or a bool), but got {value!r}.")
    return value


def _check_positive(key: str) -> Any:
    def check(value: Any) -> Any:
        return validator.check_positive_int(value, key, _API_NAME)
    return check


def _check_non_negative(key: str) -> Any:
    def check(value: Any) -> Any:
        if value < 0:
            raise ValueError(f"{_API}the argument '{key}' must be bigger than or equal to 0, but got {value!r}.")
        return value
    return check


def _check_memory(key: str) -> Any:
    def check(value: Any) -> Any:
        if not _MEMORY_RE.match(value):
            raise ValueError(f"{_API}the argument '{key}' should be in correct format! It must be a string ending "
                             "with 'GB', in addition to that, it must contain only numbers or decimal points, such "
                             f"as \"5GB\" or \"3.5GB\", but got {value!r}.")
        if key == "max_device_memory" and float(value[:-2]) == 0:
            raise ValueError(f"{_API}the argument 'max_device_memory' should not be \"0GB\".")
        return float(value[:-2]) if key in ("max_device_memory", "mempool_block_size") else value
    return check


def _check_path(key: str) -> Any:
    def check(value: Any) -> Any:
        path = os.path.realpath(value)
        os.makedirs(path, exist_ok=True)
        return path
    return check


def _check_dict(key: str) -> Any:
    def check(value: Any) -> Any:
        validator.check_type(value, dict, key, _API_NAME)
        return dict(value)
    return check


_SETTERS = {"mode": _set_mode, "device_target": _set_device_target, "device_id": _set_device_id,
            "jit_config": _set_jit_config, "deterministic": _set_deterministic}
_VALUE_CHECKS = {
    "save_graphs": _check_save_graphs,
    "jit_syntax_level": _one_of("jit_syntax_level", [STRICT, COMPATIBLE, LAX]),
    "debug_level": _one_of("debug_level", [RELEASE, DEBUG]),
    "memory_optimize_level": lambda v: {"O0": 0, "O1": 1}[_one_of("memory_optimize_level", ["O0", "O1"])(v)],
    "exec_order": _one_of("exec_order", ["bfs", "dfs"]),
    "aoe_tune_mode": _one_of("aoe_tune_mode", ["online", "offline"]),
    "max_call_depth": _check_positive("max_call_depth"),
    "runtime_num_threads": _check_non_negative("runtime_num_threads"),
    "inter_op_parallel_num": _check_non_negative("inter_op_parallel_num"),
    "op_timeout": _check_non_negative("op_timeout"),
    "max_device_memory": _check_memory("max_device_memory"),
    "mempool_block_size": _check_memory("mempool_block_size"),
    "variable_memory_max_size": _check_memory("variable_memory_max_size"),
    "save_graphs_path": _check_path("save_graphs_path"),
    "ascend_config": _check_dict("ascend_config"),
    "gpu_config": _check_dict("gpu_config"),
    "aoe_config": _check_dict("aoe_config"),
}


def _warn_once(key: str, message: str) -> None:
    if key not in _CTX.warned:
        _CTX.warned.add(key)
        _logger.warning(message)


def _apply_max_call_depth(value: int) -> None:
    """Deep networks trace through deep Python calls: raise Python's recursion limit to the depth asked for."""
    if value > sys.getrecursionlimit():
        sys.setrecursionlimit(value)


def _apply_threads(key: str, value: int) -> None:
    """``runtime_num_threads`` -> TensorFlow's intra-op threads, ``inter_op_parallel_num`` -> inter-op threads."""
    setter = (tf.config.threading.set_intra_op_parallelism_threads if key == "runtime_num_threads"
              else tf.config.threading.set_inter_op_parallelism_threads)
    try:
        setter(value)
    except RuntimeError:
        _warn_once(key + ".late", f"For 'context.set_context', '{key}' is set after TensorFlow started its runtime, "
                                  "so TensorFlow keeps its thread pools; set it before any computation.")


def _apply_max_device_memory(value: float) -> None:
    """Limit TensorFlow's memory on each GPU to ``value`` GB (possible only before the GPUs are initialized)."""
    for gpu in tf.config.list_physical_devices("GPU"):
        try:
            tf.config.set_logical_device_configuration(
                gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=int(value * 1024))])
        except RuntimeError:
            _warn_once("max_device_memory.late", "For 'context.set_context', 'max_device_memory' is set after "
                                                 "TensorFlow initialized the GPUs, so it has no effect; set it "
                                                 "before any computation.")
            return


# keys with an effect on TensorFlow beyond being stored
_EFFECTS = {"max_call_depth": _apply_max_call_depth,
            "runtime_num_threads": lambda v: _apply_threads("runtime_num_threads", v),
            "inter_op_parallel_num": lambda v: _apply_threads("inter_op_parallel_num", v),
            "max_device_memory": _apply_max_device_memory}


def _check_types(kwargs: dict) -> None:
    for key, value in kwargs.items():
        if key in _TYPES and not isinstance(value, _TYPES[key]):
            validator.check_type(value, _TYPES[key], key, _API_NAME)


def set_context(**kwargs: Any) -> None:
    """Set the execution context.

    Args:
        **kwargs: ``mode`` (GRAPH_MODE or PYNATIVE_MODE), ``device_target`` ('CPU' or 'GPU';
            'Ascend' raises), ``device_id`` (0..4095), ``jit_config`` (``{'jit_level': 'O2'}``
            enables XLA), ``deterministic`` ('ON' enables TensorFlow op determinism). MindSpore's
            other keys are validated and stored; ``max_call_depth``, ``runtime_num_threads``,
            ``inter_op_parallel_num`` and ``max_device_memory`` (GPU) act on Python / TensorFlow,
            the rest (``save_graphs``, ``enable_graph_kernel``, ...) have no effect on TensorFlow.

    Raises:
        ValueError: for an unknown key or a bad value.
        TypeError: for a value of the wrong type.

    Example:
        >>> set_context(mode=GRAPH_MODE)
    """
    _check_types(kwargs)
    if "device_target" in kwargs:
        _set_device_target(kwargs["device_target"])
    for key, value in kwargs.items():
        if key == "device_target":
            continue
        if key in _SETTERS:
            _SETTERS[key](value)
            continue
        if key in _DEPRECATED_IGNORED:
            _warn_once(key, f"For 'context.set_context', '{key}' parameter is deprecated, and will be removed in the "
                            "next version.")
            continue
        if key in _REMOVED:
            raise ValueError(f"{_API}the parameter '{key}' has been removed since MindSpore 2.10 version. Please use "
                             f"the env {_REMOVED[key]} instead.")
        if key in _ASCEND_ONLY:
            raise ValueError(f"Please set '{key}' through parameter ascend_config")
        if key in _DEPRECATED_STORED:
            _warn_once(key + ".deprecated", f"For 'context.set_context', '{key}' parameter is deprecated, "
                                            f"{_DEPRECATED_STORED[key]}")
        if key in _TARGET_ONLY and _CTX.device_target not in _TARGET_ONLY[key]:
            _warn_once(key + ".target", f"For 'context.set_context', when set the argument '{key}', the argument "
                                        f"'device_target' only supports devices in '{_TARGET_ONLY[key]}', but got "
                                        f"'{_CTX.device_target}', ignore it.")
            continue
        if key in _CTX.values:
            check = _VALUE_CHECKS.get(key)
            _CTX.values[key] = check(value) if check is not None else value
            if key in _EFFECTS:
                _EFFECTS[key](_CTX.values[key])
            else:
                _warn_once(key, f"For 'context.set_context', '{key}' has no effect on TensorFlow and is ignored.")
            continue
        raise ValueError(f"{_API}the keyword argument {key} is not recognized! For detailed usage of 'set_context', "
                         "please refer to the Mindspore official website.")


def get_context(attr_key: str) -> Any:
    """Return the value of a context key.

    Args:
        attr_key: a key :func:`set_context` takes.

    Returns:
        The value (``mode`` defaults to PYNATIVE_MODE, as in MindSpore 2.10).

    Raises:
        ValueError: for an unknown key.

    Example:
        >>> get_context("device_id")
        0
    """
    if attr_key in ("mode", "device_target", "device_id", "deterministic"):
        return getattr(_CTX, attr_key)
    if attr_key == "jit_config":
        return dict(_CTX.jit_config)
    if attr_key in _CTX.values:
        return copy.copy(_CTX.values[attr_key])
    raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                     "usage of 'get_context', please refer to the Mindspore official website.")


def get_jit_config() -> dict:
    """Return a copy of the ``jit_config`` dict."""
    return dict(_CTX.jit_config)


class ParallelMode:
    """Parallel mode names (``mindspore.ParallelMode``)."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_AUTO_PARALLEL_DEFAULTS = {
    "device_num": 1, "global_rank": 0, "gradients_mean": False, "gradient_fp32_sync": True,
    "loss_repeated_mean": True, "pipeline_stages": 1, "auto_pipeline": False, "pipeline_result_broadcast": False,
    "parallel_mode": ParallelMode.STAND_ALONE, "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming", "parameter_broadcast": False, "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "", "full_batch": False, "dataset_strategy": "data_parallel",
    "enable_parallel_optimizer": False, "force_fp32_communication": False, "grad_accumulation_step": 1,
    "all_reduce_fusion_config": [], "communi_parallel_mode": "all_group_parallel", "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False, "sharding_propagation": False, "enable_alltoall": False,
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None}, "reducescatter": {"mode": "auto", "config": None}},
    "dump_local_norm": False, "dump_local_norm_path": "", "dump_device_local_norm": False,
    "auto_parallel_new_interface": False, "init_param_in_compile": True,
}
# keys MindSpore accepts in set_auto_parallel_context but can't read back
_AUTO_PARALLEL_SET_ONLY = ("pipeline_segments", "group_ckpt_save_file", "parallel_optimizer_config", "pipeline_config")
_AUTO_PARALLEL_BOOLS = ("gradients_mean", "gradient_fp32_sync", "loss_repeated_mean", "full_batch",
                        "enable_parallel_optimizer", "parameter_broadcast", "enable_alltoall", "sharding_propagation")
_AUTO_PARALLEL = copy.deepcopy(_AUTO_PARALLEL_DEFAULTS)
# MindSpore's type check of set_auto_parallel_context arguments, run before any other check
_AUTO_PARALLEL_TYPES = {
    "device_num": int, "global_rank": int, "gradients_mean": bool, "gradient_fp32_sync": bool, "parallel_mode": str,
    "auto_parallel_search_mode": str, "search_mode": str, "parameter_broadcast": bool, "strategy_ckpt_load_file": str,
    "strategy_ckpt_save_file": str, "full_batch": bool, "enable_parallel_optimizer": bool, "enable_alltoall": bool,
    "all_reduce_fusion_config": list, "pipeline_stages": int, "pipeline_segments": int,
    "pipeline_result_broadcast": bool, "parallel_optimizer_config": dict, "pipeline_config": dict,
    "comm_fusion": dict, "strategy_ckpt_config": dict, "force_fp32_communication": bool,
}
_SEARCH_MODES = ("recursive_programming", "dynamic_programming", "sharding_propagation")
# keys set since the last reset (MindSpore's ``get_device_num_is_set`` and friends)
_AUTO_PARALLEL_IS_SET: set = set()


def _auto_parallel_is_set(key: str) -> bool:
    """Whether ``key`` was given to :func:`set_auto_parallel_context` since the last reset."""
    return key in _AUTO_PARALLEL_IS_SET


def _check_auto_parallel_value(key: str, value: Any) -> Any:
    api = "For 'context.set_auto_parallel_context', "
    if key in ("search_mode", "auto_parallel_search_mode") and value not in _SEARCH_MODES:
        raise ValueError(f"{api}the argument '{key}' only supports 'recursive_programming', 'dynamic_programming' "
                         f"and 'sharding_propagation', but got {value!r}.")
    if key == "pipeline_stages" and value < 1:
        raise ValueError(f"{api}the argument 'pipeline_stages' should be greater or equal 1, but got {value!r}.")
    if key == "all_reduce_fusion_config" and list(value) != sorted(value):
        raise ValueError(f"{api}the elements in argument 'all_reduce_fusion_config' must be sorted in ascending "
                         f"order, but got {value!r}.")
    if key == "grad_accumulation_step":
        _logger.warning("For 'context.set_auto_parallel_context', 'grad_accumulation_step' is deprecated in "
                        "MindSpore 2.x (use GradAccumulationCell); it is stored and has no effect.")
    if key == "comm_fusion":
        merged = copy.deepcopy(_AUTO_PARALLEL["comm_fusion"])
        merged.update(copy.deepcopy(value))
        return merged
    if key in ("search_mode", "auto_parallel_search_mode"):
        _AUTO_PARALLEL["search_mode"] = _AUTO_PARALLEL["auto_parallel_search_mode"] = value
    return value


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set parallel settings; ``parallel_mode``, ``device_num`` and ``gradients_mean`` are read by the
    distribution support.

    Raises:
        ValueError: for an unknown key or a bad value.
        TypeError: for a flag that is not a bool.

    Example:
        >>> set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=True)
        >>> reset_auto_parallel_context()
    """
    for key, value in kwargs.items():
        if key in _AUTO_PARALLEL_TYPES and key not in _AUTO_PARALLEL_BOOLS and (
                not isinstance(value, _AUTO_PARALLEL_TYPES[key])):
            raise TypeError(f"For 'context.set_auto_parallel_context', the argument '{key}' must be "
                            f"{_AUTO_PARALLEL_TYPES[key].__name__}, but got {type(value).__name__}: {value!r}.")
    for key, value in kwargs.items():
        if key not in _AUTO_PARALLEL_DEFAULTS and key not in _AUTO_PARALLEL_SET_ONLY:
            raise ValueError(f"For 'context.set_auto_parallel_context', the keyword argument {key} is not "
                             "recognized!")
        if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
            raise ValueError("For 'context.set_auto_parallel_context', the argument 'parallel_mode' only supports "
                             f"{ParallelMode.MODE_LIST}, but got {value!r}.")
        if key == "device_num" and (not isinstance(value, int) or isinstance(value, bool) or value <= 0):
            raise ValueError("For 'context.set_auto_parallel_context', the argument 'device_num' must be a positive "
                             f"integer, but got {value!r}.")
        if key == "global_rank" and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 4095):
            raise ValueError("For 'context.set_auto_parallel_context', the argument 'global_rank' must be in "
                             f"[0, 4095], but got {value!r}.")
        if key in _AUTO_PARALLEL_BOOLS and not isinstance(value, bool):
            raise TypeError(f"For 'context.set_auto_parallel_context', the argument '{key}' must be bool, but got "
                            f"{type(value).__name__}: {value!r}.")
        value = _check_auto_parallel_value(key, value)
        if key in _AUTO_PARALLEL_DEFAULTS:
            _AUTO_PARALLEL[key] = value
        _AUTO_PARALLEL_IS_SET.add(key)


def get_auto_parallel_context(attr_key: str) -> Any:
    """Return a parallel setting.

    Raises:
        ValueError: for an unknown key.
    """
    if attr_key not in _AUTO_PARALLEL:
        raise ValueError(f"For 'context.get_auto_parallel_context', the argument {attr_key} is not recognized!")
    return copy.copy(_AUTO_PARALLEL[attr_key])


def reset_auto_parallel_context() -> None:
    """Restore the default parallel settings."""
    _AUTO_PARALLEL.clear()
    _AUTO_PARALLEL.update(copy.deepcopy(_AUTO_PARALLEL_DEFAULTS))
    _AUTO_PARALLEL_IS_SET.clear()


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

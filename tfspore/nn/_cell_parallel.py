"""MindSpore's parallel and placement settings of a Cell, accepted with no effect on TensorFlow.

``set_boost``, ``shard``, ``place``, ``set_comm_fusion``, ``offload`` ... configure MindSpore's
own auto-parallel engine and memory planner. Here they validate their arguments as MindSpore
does, log once per API that they are ignored (:func:`_warn_once`) and return what MindSpore
returns, so that scripts written for MindSpore run unchanged; data parallelism comes from a
``tf.distribute`` strategy instead (``docs/distributed.md``).
"""
from __future__ import annotations

import logging
from typing import Any

import tensorflow as tf

from tfspore._internal import validator


_logger = logging.getLogger("tfspore")

_WARNED: set = set()

def _warn_once(api: str, what: str = "") -> None:
    if api not in _WARNED:
        _WARNED.add(api)
        _logger.warning("For '%s', %s", api, what or "the setting has no effect on TensorFlow and is ignored.")


class CellParallelNoOps:
    """MindSpore's parallel and placement settings of :class:`~tfspore.nn.Cell` (no effect)."""

    def set_boost(self, boost_type: str) -> "CellParallelNoOps":
        """Accepted for compatibility: MindSpore's boost algorithms have no TensorFlow equivalent.

        Raises:
            ValueError: when ``boost_type`` is not 'less_bn'.
        """
        if boost_type not in ("less_bn",):
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', but got {boost_type}.")
        _warn_once("Cell.set_boost")
        self.add_flags_recursive(less_bn=True)
        return self

    def set_data_parallel(self) -> None:
        """Accepted for compatibility: data parallelism comes from ``tf.distribute`` strategies."""
        _warn_once("Cell.set_data_parallel", "use a tf.distribute strategy for data parallelism; the call has no "
                   "effect on TensorFlow.")

    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None, device: str = "Ascend",
              level: int = 0) -> "CellParallelNoOps":
        """Accepted for compatibility: MindSpore's operator sharding has no effect on TensorFlow; returns self.

        Raises:
            TypeError: when ``in_strategy`` is not a tuple or ``parameter_plan`` not a dict or None.
        """
        if not isinstance(in_strategy, tuple):
            raise TypeError(f"For 'Cell.shard', the 'in_strategy' must be a tuple, but got {in_strategy!r}.")
        if parameter_plan is not None and not isinstance(parameter_plan, dict):
            raise TypeError(f"For 'Cell.shard', the 'parameter_plan' must be a dict or None, but got "
                            f"{parameter_plan!r}.")
        _warn_once("Cell.shard")
        return self

    def place(self, role: str, rank_id: int) -> None:
        """Accepted for compatibility (MindSpore's process placement).

        Raises:
            ValueError: when ``role`` is not 'MS_WORKER' or ``rank_id`` is negative.
            TypeError: when ``rank_id`` is not an int.
        """
        if role != "MS_WORKER":
            raise ValueError(f"For 'Cell.place', the 'role' must be 'MS_WORKER', but got {role!r}.")
        validator.check_non_negative_int(rank_id, "rank_id", "Cell.place")
        _warn_once("Cell.place")

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> "CellParallelNoOps":
        """Set ``comm_fusion`` of the trainable parameters (no effect on TensorFlow); returns self.

        Raises:
            TypeError, ValueError: when ``fusion_type`` is not a non-negative int.
        """
        validator.check_non_negative_int(fusion_type, "fusion_type", "set_comm_fusion")
        _warn_once("Cell.set_comm_fusion")
        for p in self.trainable_params(recurse):
            p.comm_fusion = fusion_type
        return self

    def set_param_ps(self, recurse: bool = True, init_in_server: bool = False) -> None:
        """Accepted for compatibility (MindSpore's parameter server)."""
        _warn_once("Cell.set_param_ps")

    def offload(self, backward_prefetch: Any = "Auto") -> None:
        """Accepted for compatibility (MindSpore's activation offload).

        Raises:
            ValueError: when ``backward_prefetch`` is a str other than 'Auto' or a negative int.
            TypeError: when it is neither a str nor an int.
        """
        if isinstance(backward_prefetch, str):
            if backward_prefetch != "Auto":
                raise ValueError(f"For '{self.cls_name}', the 'backward_prefetch' must be str and must be in "
                                 f"'['Auto']', but got '{backward_prefetch}'.")
        else:
            validator.check_non_negative_int(backward_prefetch, "backward_prefetch", "Cell.offload")
        _warn_once("Cell.offload")

    def flatten_weights(self, fusion_size: int = 0) -> None:
        """Accepted for compatibility (MindSpore's contiguous weight memory).

        Raises:
            TypeError, ValueError: when ``fusion_size`` is not a non-negative int.
        """
        validator.check_non_negative_int(fusion_size, "fusion_size", "Cell.flatten_weights")
        _warn_once("Cell.flatten_weights")

    def infer_param_pipeline_stage(self) -> list:
        """Return the trainable parameters: without MindSpore's pipeline parallelism, one stage holds them all."""
        _warn_once("Cell.infer_param_pipeline_stage")
        return self.trainable_params()

    def remove_redundant_parameters(self) -> None:
        """Accepted for compatibility."""

    def get_func_graph_proto(self) -> None:
        """Return None: TensorFlow graphs are available from :meth:`compile` instead."""
        return None

    def generate_scope(self) -> None:
        """Set the scope of every descendant to its path (``Default/conv1``)."""
        for name, cell in self.cells_and_names(name_prefix="Default"):
            if cell is not self:
                cell.__dict__["_scope"] = name.replace(".", "/")

    def get_scope(self) -> str | None:
        """The cell's scope set by :meth:`generate_scope` (None before)."""
        return self._scope

    @property
    def bprop_debug(self) -> bool:
        """Compatibility flag for custom bprop debugging (no effect on TensorFlow)."""
        return self._bprop_debug

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        _warn_once("Cell.bprop_debug")
        self.__dict__["_bprop_debug"] = value

    @property
    def pipeline_stage(self) -> int:
        """The pipeline stage (MindSpore's pipeline parallelism; no effect on TensorFlow)."""
        return self._pipeline_stage

    @pipeline_stage.setter
    def pipeline_stage(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'pipeline_stage' must be int type, but got type : "
                            f"{type(value)}")
        if value < 0:
            raise ValueError(f"For 'Cell', the property 'pipeline_stage' can not be less than 0, but got {value}")
        _warn_once("Cell.pipeline_stage")
        self.__dict__["_pipeline_stage"] = value

    @property
    def parameter_layout_dict(self) -> dict:
        """The parameter layouts of MindSpore's auto-parallel (empty on TensorFlow)."""
        return self._parameter_layout_dict

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value: dict) -> None:
        if not isinstance(value, dict):
            raise TypeError(f"For 'Cell', the property 'parameter_layout_dict' must be dict type, but got type "
                            f"{type(value)}.")
        _warn_once("Cell.parameter_layout_dict")
        self.__dict__["_parameter_layout_dict"] = value

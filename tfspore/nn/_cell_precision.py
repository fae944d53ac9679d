"""How a Cell computes its activations: mixed precision (``to_float``) and recomputation (``recompute``).

``to_float(dtype)`` makes the cell and its descendants cast floating inputs to ``dtype`` and
read their parameters in it (``cast_param``) while the stored parameters keep their dtype.
``recompute()`` runs ``construct`` under ``tf.recompute_grad``, so its activations are computed
again in the backward pass instead of being kept.
"""
from __future__ import annotations

import logging
from typing import Any

import tensorflow as tf

from tfspore._internal import control_flow as _control_flow
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap_nest as _wrap_nest
from tfspore.common import dtype as mstype
from tfspore.common.tensor import Tensor
from tfspore.nn._hooks import _is_float_tensor, _is_tensor


_logger = logging.getLogger("tfspore")

_RECOMPUTE_KWARGS = ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation")

_PRECISION_FLAGS = (("fp16", mstype.float16), ("fp32", mstype.float32), ("bf16", mstype.bfloat16))


class CellPrecision:
    """Mixed precision and recomputation of :class:`~tfspore.nn.Cell`."""

    def to_float(self, dst_type: Any) -> "CellPrecision":
        """Run this cell and its descendants in ``dst_type``; returns self.

        While the cell runs, its floating inputs are cast to ``dst_type``, and layers read their
        parameters in it (:meth:`cast_param`); the parameters keep their stored dtype. A later
        call on a sub-cell overrides its sub-tree.

        Args:
            dst_type: ``mstype.float16``, ``mstype.float32`` or ``mstype.bfloat16``.

        Raises:
            ValueError: for another dtype.

        Example:
            >>> net.to_float(mstype.float16)
        """
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")
        self.add_flags_recursive(**{flag: dst_type == dtype for flag, dtype in _PRECISION_FLAGS})
        return self

    def cast_inputs(self, inputs: tuple, dst_type: Any) -> tuple:
        """Cast every floating Tensor in ``inputs`` (nested tuples and lists too) to ``dst_type``."""
        tdt = mstype.as_tf_dtype(dst_type)

        def cast(x: Any) -> Any:
            if isinstance(x, (tuple, list)):
                return type(x)(cast(i) for i in x)
            if _is_float_tensor(x) and _unwrap_nest(x).dtype != tdt:
                return Tensor._from_tf(tf.cast(_unwrap_nest(x), tdt))
            return x
        return tuple(cast(i) for i in inputs)

    def auto_cast_inputs(self, inputs: tuple) -> tuple:
        """Cast ``inputs`` to the cell's compute type set by :meth:`to_float`, if any."""
        mp = self._mixed_precision_type
        if mp is None:
            return tuple(inputs)
        return self.cast_inputs(inputs, mp)

    def cast_param(self, param: Tensor) -> Tensor:
        """Return ``param`` cast to the cell's compute type, if any (the stored value is unchanged)."""
        mp = self._mixed_precision_type
        if mp is None or not _is_float_tensor(param):
            return param
        value = _unwrap_nest(param)
        if value.dtype == mp.tf_dtype:
            return param
        return Tensor._from_tf(tf.cast(value, mp.tf_dtype))

    def recompute(self, *, use_reentrant: bool = True, output_recompute: bool = False, early_stop: bool = True,
                  context_fn: Any = None, **kwargs: Any) -> None:
        """Recompute this cell's activations in the backward pass instead of keeping them (``tf.recompute_grad``).

        It can be configured once per tree: a later call on this cell or a descendant is ignored.

        Args:
            use_reentrant: accepted for compatibility.
            output_recompute: recorded as the ``output_recompute`` flag.
            early_stop: accepted for compatibility.
            context_fn: accepted for compatibility.
            **kwargs: ``mp_comm_recompute``, ``parallel_optimizer_comm_recompute`` (bools) and
                ``recompute_slice_activation`` (parallel options, no effect on TensorFlow).

        Raises:
            ValueError: for an unknown keyword.
            TypeError: when a bool option is not a bool.
        """
        for key, value in kwargs.items():
            if key not in _RECOMPUTE_KWARGS:
                raise ValueError(f"For 'recompute', keyword '{key}' is not recognized! the key kwargs must be "
                                 "'mp_comm_recompute', 'parallel_optimizer_comm_recompute', "
                                 "'recompute_slice_activation'")
            if key != "recompute_slice_activation" and not isinstance(value, bool):
                raise TypeError(f"For 'recompute', the '{key}' must be bool, but got {value!r}.")
        if not isinstance(output_recompute, bool):
            raise TypeError(f"For 'recompute', the 'output_recompute' must be bool, but got {output_recompute!r}.")
        if self._has_config_recompute:
            _logger.info("The recompute interface can be configured only once. When the parent cell is configured, "
                         "the child cell should not be configured")
            return
        self.__dict__["_recompute_cell"] = {"output_recompute": output_recompute}
        self.add_flags(output_recompute=output_recompute)
        for _, cell in self.cells_and_names():
            cell.__dict__["_has_config_recompute"] = True

    def _run_recompute(self, args: tuple, kwargs: dict) -> Any:
        flat = tf.nest.flatten((args, kwargs))
        pos = [i for i, v in enumerate(flat) if _is_tensor(v)]
        result: list = []

        def body(*ts: tf.Tensor) -> list:
            rebuilt = list(flat)
            for i, t in zip(pos, ts):
                rebuilt[i] = Tensor._from_tf(t)
            call_args, call_kwargs = tf.nest.pack_sequence_as((args, kwargs), rebuilt)
            out = _control_flow.call(self.construct, call_args, call_kwargs)
            result[:] = [out]
            return [tf.convert_to_tensor(o) for o in tf.nest.flatten(_unwrap_nest(out))]

        outs = tf.recompute_grad(body)(*[tf.convert_to_tensor(_unwrap_nest(flat[i])) for i in pos])
        return _wrap_nest(tf.nest.pack_sequence_as(_unwrap_nest(result[0]), list(outs)))

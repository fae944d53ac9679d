"""Lowering a traced TensorFlow graph to MindSpore primitives, op by op.

Each rule takes one TensorFlow op of the data path and emits the MindSpore primitive calls that
compute it, in MindSpore's layouts (``Conv2D``, ``MaxPool`` and ``AvgPool`` in NCHW with OIHW
weights; the channels-last kernels tfspore runs on CPUs get transposes around them, which cancel
between layers). The covered set is the zoo's inference graphs: convolution, dense / matmul,
batch and layer normalization (as the arithmetic tfspore traces them to), pooling, activations,
reshape / flatten / transpose / concat / slice / split / pad / tile, element-wise math and
comparisons, reductions, softmax, embedding gathers and attention's batched matmul. An op
outside it stops the export with an error naming it.

The rules live in ``_lower_nn`` (convolution, pooling, matmul, normalization, softmax, gather)
and ``_lower_math`` (element-wise, shape and reduction ops); this module is the driver.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore.train.mindir._ms_graph import MsGraph, Value
from tfspore.train.mindir._tf_graph import TracedGraph

__all__ = ["Lowering", "registrar", "tf_attr"]


def tf_attr(op: tf.Operation, name: str, default: Any = None) -> Any:
    """The attribute ``name`` of TF op ``op`` (``default`` when it has none)."""
    return op.get_attr(name) if name in op.node_def.attr else default


def registrar(rules: dict) -> Callable:
    """A decorator factory ``rule(*tf_types)`` that records the decorated function in ``rules``."""
    def rule(*tf_types: str) -> Callable:
        def register(fn: Callable) -> Callable:
            for name in tf_types:
                rules[name] = fn
            return fn
        return register
    return rule


class Lowering:
    """The state of one lowering: the traced graph, the MindSpore graph, the value of each TF tensor."""

    def __init__(self, traced: TracedGraph, rules: dict, api: str = "export") -> None:
        self.traced = traced
        self.rules = rules
        self.graph = MsGraph()
        self.values: dict[str, Value] = {}
        self.api = api

    # ------------------------------------------------------------ accessors
    def static(self, t: tf.Tensor) -> np.ndarray | None:
        """The constant value of ``t`` (None when it depends on the inputs or the Parameters)."""
        value = self.traced.constants.get(t.name)
        return value if isinstance(value, (np.ndarray, np.generic)) else None

    def need_static(self, op: tf.Operation, i: int, what: str) -> np.ndarray:
        """The constant value of ``op``'s input ``i``; an error naming the op when it is not constant."""
        value = self.static(op.inputs[i])
        if value is None:
            raise self.unsupported(op, f"its {what} is computed from the inputs (MindIR export needs it constant)")
        return value

    def value(self, t: tf.Tensor) -> Value:
        """The MindSpore value of TF tensor ``t``."""
        found = self.values.get(t.name)
        if found is not None:
            return found
        const = self.static(t)
        if const is not None:
            value = self.graph.const(const)
            self.values[t.name] = value
            return value
        raise RuntimeError(f"For '{self.api}', the tensor '{t.name}' has no value in the MindIR graph.")

    def input(self, op: tf.Operation, i: int) -> Value:
        """The MindSpore value of ``op``'s input ``i``."""
        return self.value(op.inputs[i])

    def out_shape(self, op: tf.Operation, i: int = 0) -> tuple:
        """The static shape of ``op``'s output ``i``.

        Raises:
            NotImplementedError: when the trace left a dimension unknown (``set_inputs`` with None dims).
        """
        shape = op.outputs[i].shape
        if not shape.is_fully_defined():
            raise self.unsupported(op, f"its output shape {shape} is not static; MindIR export needs inputs of "
                                       "fixed shapes")
        return tuple(int(d) for d in shape.as_list())

    @staticmethod
    def out_dtype(op: tf.Operation, i: int = 0) -> np.dtype:
        """The numpy dtype of ``op``'s output ``i``."""
        return np.dtype(op.outputs[i].dtype.as_numpy_dtype)

    def emit(self, prim: str, inputs: list, op: tf.Operation, attrs: dict | None = None, i: int = 0) -> Value:
        """Emit ``prim`` with the shape and dtype of ``op``'s output ``i``."""
        return self.graph.emit(prim, inputs, self.out_shape(op, i), self.out_dtype(op, i), attrs)

    def broadcast(self, x: Value, shape: tuple) -> Value:
        """``x`` broadcast to ``shape`` (``BroadcastTo``; constants are broadcast here)."""
        shape = tuple(shape)
        if x.shape == shape:
            return x
        if x.kind == "const":
            return self.graph.const(np.broadcast_to(x.data, shape))
        x = self.graph.reshape(x, (1,) * (len(shape) - len(x.shape)) + x.shape)
        return self.graph.emit("BroadcastTo", [x, shape], shape, x.dtype)

    def unsupported(self, op: tf.Operation, why: str = "") -> NotImplementedError:
        """The error for an op the MindIR export cannot write."""
        detail = f": {why}" if why else ""
        if self.traced.training:
            detail += (" (the network is in training mode, which MindIR export keeps as MindSpore's does: call "
                       "net.set_train(False) first to export the inference graph)")
        return NotImplementedError(
            f"For '{self.api}', the network uses the operation '{op.type}' (TensorFlow node '{op.name}'), which "
            f"tfspore cannot write to MindIR{detail}. MindIR export covers convolution, dense/matmul, batch and "
            "layer normalization, pooling, activations, reshape/flatten/transpose/concat/slice, element-wise math, "
            "softmax, embedding/gather and batched matmul; export the network to another format "
            "(file_format='ONNX') or save its weights with mindspore.save_checkpoint.")

    # --------------------------------------------------------------- driver
    def run(self) -> MsGraph:
        """Lower the whole traced graph; return the MindSpore graph."""
        traced = self.traced
        for i, t in enumerate(traced.inputs):
            if not t.shape.is_fully_defined():
                raise ValueError(f"For '{self.api}', input {i} has the shape {tuple(t.shape.as_list())} with unknown "
                                 "dimensions; tfspore writes MindIR for inputs of fixed shapes: pass example inputs "
                                 "of the shapes to export (and no dynamic shapes through 'set_inputs').")
            self.values[t.name] = self.graph.add_input(traced.input_names[i], t.dtype.as_numpy_dtype,
                                                       t.shape.as_list())
        for op in self._live_ops():
            fn = self.rules.get(op.type)
            if fn is None:
                raise self.unsupported(op)
            self.graph.source = op.name
            results = fn(self, op)
            for t, v in zip(op.outputs, results):
                if v is not None and t.name not in traced.constants:
                    self.values[t.name] = v
        self.graph.outputs = [self._output(t) for t in traced.outputs]
        self.graph.output_is_tuple = not _is_single(traced.structured_outputs)
        self.graph.prune()
        return self.graph

    def _output(self, t: tf.Tensor) -> Value:
        value = self.value(t)
        if value.kind == "const":  # MindIR outputs are nodes: a constant output goes through an identity
            value = self.graph.emit("Depend", [value, value], value.shape, value.dtype)
        return value

    def _live_ops(self) -> list:
        """The ops the outputs need, in order: backwards from the outputs over data inputs, stopping at constants."""
        constants = self.traced.constants
        live: set = set()
        stack = [t.op for t in self.traced.outputs if t.name not in constants]
        while stack:
            op = stack.pop()
            if op.name in live:
                continue
            live.add(op.name)
            for t in op.inputs:
                if t.name not in constants and t.name not in self.values:
                    stack.append(t.op)
        return [op for op in self.traced.ops if op.name in live and op.type != "Placeholder"]


def _is_single(structured: Any) -> bool:
    return not isinstance(structured, (tuple, list, dict))

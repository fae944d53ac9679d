"""The traced TensorFlow graph of a Cell's forward, ready to be lowered to MindSpore primitives.

``export(file_format='MINDIR')`` does not instrument the layers: every tfspore layer, functional
op and Tensor method ends in TensorFlow ops, so tracing the Cell once (``Cell.compile``, the same
``tf.function`` GRAPH_MODE runs) captures the whole forward, whatever Python the construct runs.
This module turns that trace into what the lowering needs:

* the operations in topological (creation) order, the user inputs and the flat outputs;
* each captured variable resolved to the Parameter it holds (its checkpoint name), or to its
  current value when it is not a Parameter of the network;
* every tensor computable without the inputs and the Parameters folded to a numpy constant
  (shapes of the static-shaped trace, ``tf.constant``s, index arithmetic): what is left are
  the operations of the data path.

Nothing here runs when not exporting.
"""
from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np
import tensorflow as tf

__all__ = ["TracedGraph", "trace"]

# Ops never folded even when their inputs are constants (random or stateful values).
_NO_FOLD = frozenset({"Placeholder", "ReadVariableOp", "ResourceGather", "VarHandleOp", "NoOp",
                      "RandomUniform", "RandomStandardNormal", "StatelessRandomUniformV2",
                      "StatelessRandomNormalV2", "RandomUniformInt", "TruncatedNormal"})
# Folding a constant larger than this (elements) is left to the graph, so that files stay small.
_FOLD_LIMIT = 1 << 20


@dataclasses.dataclass
class TracedGraph:
    """One trace of a Cell's construct.

    Attributes:
        ops: the operations, in creation order (a topological order).
        inputs: the placeholders of the user inputs, in call order.
        input_names: their names (construct's parameter names, as MindSpore names graph inputs).
        outputs: the flat output tensors.
        structured_outputs: the output structure (tensors, tuples, lists) as construct returned it.
        params: resource placeholder name -> (Parameter name, Parameter) for captured Parameters.
        constants: tensor name -> numpy value, for every tensor folded to a constant.
        training: whether the network was traced in training mode.
    """

    ops: list
    inputs: list
    input_names: list
    outputs: list
    structured_outputs: Any
    params: dict
    constants: dict
    training: bool = False


def trace(net: Any, inputs: tuple) -> TracedGraph:
    """Trace ``net``'s construct on ``inputs`` and fold its constant part.

    Args:
        net: the Cell.
        inputs: the positional inputs (Tensors fix the traced shapes; other values are baked in).

    Returns:
        The traced graph.
    """
    concrete = net.compile(*inputs)
    graph = concrete.graph
    by_handle = {}
    for _, param in net.parameters_and_names():
        by_handle[id(param.variable.handle)] = param
    n_user = len(concrete.inputs) - len(graph.internal_captures)
    user_inputs = list(concrete.inputs[:n_user])
    params: dict = {}
    constants: dict = {}
    others = None
    for external, internal in zip(graph.external_captures, graph.internal_captures):
        param = by_handle.get(id(external))
        if param is not None:
            params[internal.name] = (param.name, param)
        elif internal.dtype == tf.resource:
            others = _variable_values(net) if others is None else others
            var = others.get(id(external))
            constants[internal.name] = (np.asarray(var.numpy()) if var is not None
                                        else _ResourceValue(internal.name))
        else:
            constants[internal.name] = np.asarray(external.numpy())
    ops = list(graph.get_operations())
    _fold(ops, constants)
    return TracedGraph(ops=ops, inputs=user_inputs, input_names=_input_names(net, inputs, len(user_inputs)),
                       outputs=list(concrete.outputs),
                       structured_outputs=concrete.structured_outputs, params=params, constants=constants,
                       training=bool(getattr(net, "training", False)))


def _input_names(net: Any, inputs: tuple, count: int) -> list:
    """The construct parameter name of each tensor input (``x0``, ``x1``, ... where there is none)."""
    try:
        params = [p for p in inspect.signature(net.construct).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = []
    for i, value in enumerate(inputs):
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            names.append(params[i].name if i < len(params) else f"x{i}")
    if len(names) != count or len(set(names)) != count:
        names = [f"x{i}" for i in range(count)]
    return names


def _variable_values(net: Any) -> dict:
    """``id(handle) -> variable`` for the TensorFlow variables the Cell tracks besides its Parameters (buffers)."""
    try:
        variables = list(net.variables)
    except (AttributeError, TypeError, ValueError):
        variables = []
    return {id(v.handle): v for v in variables if hasattr(v, "handle")}


class _ResourceValue:
    """Marks a captured resource that is neither a Parameter nor a variable the Cell tracks."""

    def __init__(self, name: str) -> None:
        self.name = name


def _fold(ops: list, constants: dict) -> None:
    """Fold every op whose inputs are all constants (or whose result needs only static shapes)."""
    for op in ops:
        if op.type in _NO_FOLD or any(out.name in constants for out in op.outputs):
            continue
        if op.type == "Const":
            constants[op.outputs[0].name] = tf.make_ndarray(op.get_attr("value"))
            continue
        if op.type in ("Shape", "Size", "Rank", "ShapeN"):
            _fold_shape(op, constants)
            continue
        if not op.inputs or any(t.name not in constants for t in op.inputs):
            continue
        if any(isinstance(constants[t.name], _ResourceValue) for t in op.inputs):
            continue
        if op.op_def is not None and op.op_def.is_stateful:
            continue
        if op.type in ("Identity", "StopGradient", "Snapshot", "PreventGradient"):
            constants[op.outputs[0].name] = constants[op.inputs[0].name]
            continue
        values = _eval(op, constants)
        if values is None:
            continue
        if sum(int(np.size(v)) for v in values) > _FOLD_LIMIT:
            continue
        for out, value in zip(op.outputs, values):
            constants[out.name] = value


def _fold_shape(op: tf.Operation, constants: dict) -> None:
    dtype = op.get_attr("out_type").as_numpy_dtype if "out_type" in op.node_def.attr else np.int32
    for i, out in enumerate(op.outputs):
        src = op.inputs[i] if op.type == "ShapeN" else op.inputs[0]
        if not src.shape.is_fully_defined() and op.type != "Rank":
            return
        if op.type in ("Shape", "ShapeN"):
            constants[out.name] = np.array(src.shape.as_list(), dtype)
        elif op.type == "Size":
            constants[out.name] = np.array(src.shape.num_elements(), dtype)
        elif src.shape.rank is not None:
            constants[out.name] = np.array(src.shape.rank, np.int32)


def _eval(op: tf.Operation, constants: dict) -> list | None:
    """Run ``op`` eagerly on its constant inputs (``tf.raw_ops``); None when that is not possible."""
    fn = getattr(tf.raw_ops, op.type, None)
    if fn is None or op.op_def is None:
        return None
    inferred = set()
    kwargs: dict = {}
    pos = 0
    values = [constants[t.name] for t in op.inputs]
    for arg in op.op_def.input_arg:
        if arg.number_attr:
            n = op.get_attr(arg.number_attr)
            inferred.add(arg.number_attr)
            kwargs[arg.name] = values[pos:pos + n]
        elif arg.type_list_attr:
            n = len(op.get_attr(arg.type_list_attr))
            inferred.add(arg.type_list_attr)
            kwargs[arg.name] = values[pos:pos + n]
        else:
            n = 1
            kwargs[arg.name] = values[pos]
        if arg.type_attr:
            inferred.add(arg.type_attr)
        pos += n
    for attr in op.op_def.attr:
        if attr.name not in inferred and attr.name in op.node_def.attr:
            kwargs[attr.name] = op.get_attr(attr.name)
    try:
        with tf.device("/cpu:0"):
            result = fn(**kwargs)
    except (tf.errors.OpError, TypeError, ValueError):
        return None
    if isinstance(result, (list, tuple)):
        flat = []
        for r in result:
            flat.extend(r if isinstance(r, (list, tuple)) else [r])
        result = flat
    else:
        result = [result]
    if len(result) != len(op.outputs):
        return None
    return [np.asarray(r.numpy()) for r in result]

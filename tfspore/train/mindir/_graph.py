"""Running a MindIR graph with TensorFlow: its weights become variables, its nodes TF ops in one tf.function.

:class:`MindIRGraph` is what :func:`tfspore.load` returns and ``nn.GraphCell`` wraps. The graph is
interpreted once per trace: every node becomes the TensorFlow ops of its MindSpore operator
(:mod:`tfspore.train.mindir._kernels`), so calls run a compiled graph with no Python per step, in
PYNATIVE and GRAPH mode alike, and the module saves with ``tf.saved_model.save`` (its
``function`` is the serving signature).

Example:
    >>> graph = MindIRGraph(read_model("lenet.mindir"))
    >>> graph(np.ones((2, 1, 32, 32), np.float32)).shape
    TensorShape([2, 10])
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore.train.mindir import _kernels
from tfspore.train.mindir._reader import MONAD, Graph, MindIRReadError, Model, Node

__all__ = ["MindIRGraph", "UnsupportedOperatorError", "check_operators"]

_REF = "REF::"
_RUNNER_OPS = ("Partial", "Switch")  # operators on graphs, handled here


class UnsupportedOperatorError(RuntimeError):
    """A MindIR graph uses an operator tfspore cannot run."""


class _GraphValue:
    """A graph used as a value (a callee)."""

    def __init__(self, graph: Graph):
        self.graph = graph


class _Partial:
    """``Partial(fn, *args)``: a callee with its first arguments bound."""

    def __init__(self, fn: Any, args: list):
        self.fn = fn
        self.args = args


class _Switch:
    """``Switch(cond, a, b)``: calling it calls ``a`` or ``b`` (``tf.cond`` on a tensor condition)."""

    def __init__(self, cond: Any, true_fn: Any, false_fn: Any):
        self.cond = cond
        self.true_fn = true_fn
        self.false_fn = false_fn


def check_operators(model: Model) -> None:
    """Check that every operator ``model`` applies has a kernel.

    Raises:
        UnsupportedOperatorError: naming the operators, a node using each and the file.
    """
    missing: dict = {}
    for graph in [model.graph, *model.functions.values()]:
        for node in graph.nodes:
            op = model.op_name(node)
            if op is None or op in _RUNNER_OPS or op in _kernels.STRUCTURAL or _kernels.has_kernel(op):
                continue
            missing.setdefault(op, node.scope or node.output)
    if missing:
        which = ", ".join(f"'{op}' (node {where!r})" for op, where in sorted(missing.items()))
        raise UnsupportedOperatorError(
            f"For 'load', the MindIR file {model.path!r} uses the operator(s) {which}, which tfspore cannot run "
            f"yet. Supported operators: {', '.join(sorted(_kernels.supported()))}.")


class _Plan:
    """What the interpretation needs, kept off tf.Module's attribute tracking."""

    def __init__(self, model: Model, weight_index: dict, weight_names: list):
        self.model = model
        self.weight_index = weight_index
        self.weight_names = weight_names
        self.kernels: dict = {}
        self.active: list = []  # the graphs being interpreted, innermost last
        # names visible from every graph: graphs, operators and every graph's constants
        self.globals: dict = {}
        for graph in [model.graph, *model.functions.values()]:
            self.globals.update(graph.constants)
        for prim in model.primitives.values():
            self.globals[prim.name] = _kernels.PrimitiveValue(prim.op_type, prim.attrs)
        for graph in [model.graph, *model.functions.values()]:
            self.globals[graph.name] = _GraphValue(graph)


def _variable_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-/]", "_", name) or "weight"


class MindIRGraph(tf.Module):
    """A MindIR graph on TensorFlow: callable with the graph's inputs, returning its outputs.

    Args:
        model: the file read by :func:`tfspore.train.mindir._reader.read_model`.

    Raises:
        UnsupportedOperatorError: when the graph applies an operator tfspore cannot run.

    Attributes:
        file_name: the MindIR file.
        function: the ``tf.function`` (with the graph's input signature) that runs the graph.
        input_specs: the ``tf.TensorSpec`` of each input.
    """

    def __init__(self, model: Model):
        super().__init__(name="mindir_graph")
        check_operators(model)
        self.file_name = model.path
        weights, index = [], {}
        for ref, (name, value) in model.weights.items():
            index[ref] = len(weights)
            weights.append(tf.Variable(value, trainable=False, name=_variable_name(name)))
        self.weights = weights
        # untracked state (tf.Module would wrap dicts for saving): the graph, weight lookup, kernels
        self._plan = _Plan(model, index, [name for name, _ in model.weights.values()])
        model.weights.clear()  # the variables hold the values now
        specs = []
        for i, info in enumerate(model.graph.inputs):
            if info.is_tensor:
                specs.append(tf.TensorSpec(info.shape, tf.as_dtype(info.dtype), name=f"input_{i}"))
        self.input_specs = tuple(specs)
        self.function = tf.function(self._run, input_signature=list(specs), autograph=False)
        self.function.get_concrete_function()  # trace now: a graph tfspore cannot run fails in load

    @property
    def parameter_names(self) -> list:
        """The MindSpore names of the weights, in file order."""
        return list(self._plan.weight_names)

    def parameters_dict(self) -> dict:
        """``{MindSpore name: tf.Variable}`` of the weights."""
        return dict(zip(self._plan.weight_names, self.weights))

    def __call__(self, *inputs: Any) -> Any:
        if len(inputs) != len(self.input_specs):
            raise TypeError(f"For 'GraphCell', the MindIR graph {self.file_name!r} takes {len(self.input_specs)} "
                            f"input(s), but got {len(inputs)}.")
        args = []
        for i, (x, spec) in enumerate(zip(inputs, self.input_specs)):
            t = tf.convert_to_tensor(x)
            if t.dtype != spec.dtype or not spec.shape.is_compatible_with(t.shape):
                raise ValueError(f"For 'GraphCell', input {i} of the MindIR graph {self.file_name!r} must be "
                                 f"{spec.dtype.name} of shape {tuple(spec.shape.as_list())}, but got {t.dtype.name} "
                                 f"of shape {tuple(t.shape.as_list())}.")
            args.append(t)
        return self.function(*args)

    # ------------------------------------------------------------------ interpretation (at trace time)
    def _run(self, *inputs: Any) -> Any:
        graph = self._plan.model.graph
        args = iter(inputs)
        values = [next(args) if info.is_tensor else MONAD for info in graph.inputs]
        out = self._call_graph(graph, values, {})
        return _as_tensors(out)

    def _call_graph(self, graph: Graph, args: list, outer: dict) -> Any:
        if len(args) != len(graph.inputs):
            raise MindIRReadError(f"Load MindIR failed: graph {graph.name!r} of {self.file_name!r} takes "
                                  f"{len(graph.inputs)} inputs, but is called with {len(args)}.")
        if graph.name in self._plan.active:
            raise UnsupportedOperatorError(
                f"For 'load', the MindIR file {self.file_name!r} has a loop (graph {graph.name!r} calls itself), "
                "which tfspore cannot run yet.")
        self._plan.active.append(graph.name)
        try:
            env = dict(outer)
            env.update(graph.constants)
            env.update({info.name: a for info, a in zip(graph.inputs, args)})
            for node in graph.nodes:
                env[node.output] = self._apply(node, env)
            outs = [self._lookup(name, env) for name in graph.outputs]
        finally:
            self._plan.active.pop()
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _lookup(self, name: str, env: dict) -> Any:
        if name in env:
            return env[name]
        if name in self._plan.weight_index:
            return self.weights[self._plan.weight_index[name]]
        if name in self._plan.globals:
            return self._plan.globals[name]
        raise MindIRReadError(f"Load MindIR failed: {self.file_name!r} refers to an undefined value {name!r}.")

    def _apply(self, node: Node, env: dict) -> Any:
        args = [self._lookup(name, env) for name in node.inputs]
        if node.op.startswith(_REF):
            target = node.op[len(_REF):]
            prim = self._plan.model.primitives.get(target)
            if prim is not None:
                return self._primitive(node, prim.op_type, {**prim.attrs, **node.attrs}, args, env)
            return self._call_value(self._lookup(target, env), args, env, node)
        return self._primitive(node, node.op, node.attrs, args, env)

    def _call_value(self, fn: Any, args: list, env: dict, node: Node) -> Any:
        if isinstance(fn, _Partial):
            return self._call_value(fn.fn, fn.args + args, env, node)
        if isinstance(fn, _GraphValue):
            return self._call_graph(fn.graph, args, env)
        if isinstance(fn, _Switch):
            static = tf.get_static_value(fn.cond) if isinstance(fn.cond, (tf.Tensor, np.ndarray, bool)) else None
            if static is not None:
                return self._call_value(fn.true_fn if bool(static) else fn.false_fn, args, env, node)
            return tf.cond(tf.cast(tf.reshape(fn.cond, []), tf.bool),
                           lambda: self._call_value(fn.true_fn, args, env, node),
                           lambda: self._call_value(fn.false_fn, args, env, node))
        if isinstance(fn, _kernels.PrimitiveValue):
            return self._primitive(node, fn.op_type, fn.attrs, args, env)
        raise MindIRReadError(f"Load MindIR failed: node {node.output!r} of {self.file_name!r} calls {fn!r}, "
                              "which is not a graph or an operator.")

    def _primitive(self, node: Node, op: str, attrs: dict, args: list, env: dict) -> Any:
        if op == "Partial":
            return _Partial(args[0], list(args[1:]))
        if op == "Switch":
            return _Switch(*args[:3])
        if op in _kernels.STRUCTURAL:
            return _kernels.STRUCTURAL[op](args)
        key = (id(node), op)
        kernel = self._plan.kernels.get(key)
        if kernel is None:
            kernel = _kernels.build(op, attrs, where=f"{node.scope or node.output} of {self.file_name!r}")
            self._plan.kernels[key] = kernel
        return kernel(*args)


def _as_tensors(out: Any) -> Any:
    if isinstance(out, (tuple, list)):
        return tuple(_as_tensors(o) for o in out)
    if isinstance(out, tf.Variable):
        return tf.identity(out)
    if isinstance(out, np.ndarray) or np.isscalar(out):
        return tf.constant(out)
    return tf.convert_to_tensor(out)

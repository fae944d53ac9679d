"""A graph of MindSpore primitives: what ``export(file_format='MINDIR')`` writes into ``mind_ir.proto``.

The lowering (``_lowering``) fills it from the traced TensorFlow graph, one or a few primitive
calls per TensorFlow op, and the writer (``_writer``) serializes it. Every value carries its
static shape and dtype (the trace is static-shaped). Two local simplifications keep the graph
close to what MindSpore would have built from the same network: a transpose of a transpose that
composes to the identity is dropped (the layout transposes around channels-last kernels cancel, also
across an activation between them), and a reshape of a reshape reshapes the source once (or not
at all when the shape is unchanged).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import numpy as np

__all__ = ["DType", "MsGraph", "Node", "Value"]

# One-input element-wise primitives: a layout transpose commutes with them.
_UNARY_ELEMENTWISE = frozenset({"ReLU", "ReLU6", "Sigmoid", "Tanh", "Erf", "Exp", "Log", "Sqrt", "Rsqrt", "Abs",
                                "Neg", "Square", "Floor", "Ceil", "Sin", "Cos", "Reciprocal", "Sign", "Softplus",
                                "Expm1", "Log1p", "Erfc", "LogicalNot"})


@dataclasses.dataclass(frozen=True)
class DType:
    """A MindSpore dtype passed as a primitive input (``Cast``'s target, ``Argmax``'s output type)."""

    numpy: Any


@dataclasses.dataclass(eq=False)
class Value:
    """A tensor of the graph: a graph input, a Parameter, a constant or a node's output.

    Attributes:
        kind: 'input', 'param', 'const' or 'node'.
        name: the input / Parameter name (the node's name for node outputs).
        dtype: the numpy dtype.
        shape: the static shape.
        data: the value of a Parameter or constant.
        node: the producing node ('node' values).
        index: the output index in a multi-output node.
    """

    kind: str
    name: str
    dtype: np.dtype
    shape: tuple
    data: Any = None
    node: Any = None
    index: int | None = None


@dataclasses.dataclass(eq=False)
class Node:
    """One primitive call.

    Attributes:
        prim: the MindSpore primitive name (``Conv2D``).
        inputs: Values, or Python values (int, float, bool, str, tuples of them, :class:`DType`, None)
            that become value nodes.
        attrs: the primitive's attributes.
        outputs: the output Values (one, or several for a tuple output).
        source: the TensorFlow op it lowers (for node names and messages).
    """

    prim: str
    inputs: list
    attrs: dict
    outputs: list
    source: str


def _np_dtype(dtype: Any) -> np.dtype:
    return np.dtype(dtype)


class MsGraph:
    """The graph under construction: inputs, Parameters, nodes and outputs."""

    def __init__(self) -> None:
        self.inputs: list[Value] = []
        self.params: dict[str, Value] = {}
        self.nodes: list[Node] = []
        self.outputs: list[Value] = []
        self.output_is_tuple = False
        self.source = ""

    # --------------------------------------------------------------- leaves
    def add_input(self, name: str, dtype: Any, shape: Sequence[int]) -> Value:
        """Add a graph input."""
        value = Value("input", name, _np_dtype(dtype), tuple(int(d) for d in shape))
        self.inputs.append(value)
        return value

    def param(self, name: str, data: np.ndarray) -> Value:
        """The Parameter ``name`` (added on first use)."""
        value = self.params.get(name)
        if value is None:
            data = np.ascontiguousarray(data)
            value = self.params[name] = Value("param", name, data.dtype, tuple(data.shape), data=data)
        return value

    @staticmethod
    def const(data: Any, dtype: Any = None) -> Value:
        """A constant tensor."""
        arr = np.ascontiguousarray(np.asarray(data, dtype=dtype))
        return Value("const", "", arr.dtype, tuple(arr.shape), data=arr)

    # ---------------------------------------------------------------- nodes
    def emit(self, prim: str, inputs: list, shape: Sequence[int], dtype: Any, attrs: dict | None = None) -> Value:
        """Add a primitive call with one output of ``shape`` and ``dtype``; return that output."""
        return self.emit_multi(prim, inputs, [(shape, dtype)], attrs, tuple_output=False)[0]

    def emit_multi(self, prim: str, inputs: list, outputs: list, attrs: dict | None = None,
                   tuple_output: bool = True) -> list[Value]:
        """Add a primitive call with several outputs ``[(shape, dtype), ...]`` (a tuple); return them."""
        node = Node(prim, list(inputs), dict(attrs or {}), [], self.source)
        for i, (shape, dtype) in enumerate(outputs):
            node.outputs.append(Value("node", "", _np_dtype(dtype), tuple(int(d) for d in shape), node=node,
                                      index=i if tuple_output else None))
        self.nodes.append(node)
        return node.outputs

    # ------------------------------------------------- shape-only primitives
    def transpose(self, x: Value, perm: Sequence[int]) -> Value:
        """``Transpose(x, perm)``; a transpose of a transpose composing to the identity returns the source."""
        perm = tuple(int(p) % max(len(x.shape), 1) for p in perm)
        if perm == tuple(range(len(perm))):
            return x
        if x.kind == "node" and x.node.prim == "Transpose" and x.index is None:
            inner = tuple(x.node.inputs[1])
            composed = tuple(inner[p] for p in perm)
            src = x.node.inputs[0]
            if composed == tuple(range(len(composed))):
                return src
            return self.transpose(src, composed)
        if x.kind == "const":
            return self.const(np.transpose(x.data, perm))
        if x.kind == "node" and x.node.prim in _UNARY_ELEMENTWISE and x.index is None and len(x.node.inputs) == 1:
            src = x.node.inputs[0]
            if isinstance(src, Value) and src.kind == "node" and src.node.prim == "Transpose" and src.index is None:
                # transpose(f(transpose(t))) with the transposes inverse: f(t) (an activation between layers)
                inner = tuple(src.node.inputs[1])
                if tuple(inner[p] for p in perm) == tuple(range(len(perm))):
                    base = src.node.inputs[0]
                    return self.emit(x.node.prim, [base], base.shape, x.dtype, x.node.attrs)
        shape = tuple(x.shape[p] for p in perm)
        return self.emit("Transpose", [x, perm], shape, x.dtype)

    def reshape(self, x: Value, shape: Sequence[int]) -> Value:
        """``Reshape(x, shape)`` to a static shape; reshapes of reshapes collapse."""
        shape = tuple(int(d) for d in shape)
        if shape == x.shape:
            return x
        if x.kind == "const":
            return self.const(np.reshape(x.data, shape))
        if x.kind == "node" and x.node.prim == "Reshape" and x.index is None:
            return self.reshape(x.node.inputs[0], shape)
        return self.emit("Reshape", [x, shape], shape, x.dtype)

    def cast(self, x: Value, dtype: Any) -> Value:
        """``Cast(x, dtype)`` (nothing when the dtype is already ``dtype``)."""
        dtype = _np_dtype(dtype)
        if x.dtype == dtype:
            return x
        if x.kind == "const":
            return self.const(x.data.astype(dtype))
        return self.emit("Cast", [x, DType(dtype)], x.shape, dtype)

    # -------------------------------------------------------------- cleanup
    def prune(self) -> None:
        """Drop the nodes the outputs do not depend on."""
        live: set = set()
        stack = [v.node for v in self.outputs if v.kind == "node"]
        while stack:
            node = stack.pop()
            if id(node) in live:
                continue
            live.add(id(node))
            stack.extend(v.node for v in _operands(node) if v.kind == "node")
        self.nodes = [n for n in self.nodes if id(n) in live]
        used = {v.name for n in self.nodes for v in _operands(n) if v.kind == "param"}
        used |= {v.name for v in self.outputs if v.kind == "param"}
        self.params = {k: v for k, v in self.params.items() if k in used}


def _operands(node: Node) -> list:
    """The Values among ``node``'s inputs, tuple operands (``Concat``'s) included."""
    out = []
    for v in node.inputs:
        if isinstance(v, Value):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, Value))
    return out

"""Serializing a graph of MindSpore primitives as a ``mind_ir.ModelProto``, laid out as MindSpore 2.10 writes it.

The layout (read off the files MindSpore 2.10's ``export`` writes, which its ``load`` reads):

* ``ModelProto``: ``ir_version`` '1.1', ``producer_name`` 'MindSpore', ``model_version``,
  ``little_endian``, ``mind_ir_version`` 3, the entry ``graph`` and the ``primitives`` its nodes
  apply.
* ``graph``: ``name``; ``input`` (a ``ValueInfoProto`` per network input, ``<graph>:<name>``, with
  dtype and dims); ``parameter`` (a ``TensorProto`` per weight, ``<graph>:<Parameter name>``,
  ``ref_key`` the Parameter name, bytes in ``raw_data``); ``node`` in execution order; ``output``
  (the returned node, with its dtype and dims).
* A primitive call is a ``NodeProto``: ``op_type`` ``REF::<primitive>`` names an entry of
  ``model.primitives`` (``op_type`` the MindSpore operator, ``prim_type``, attributes), ``input``
  the operand names, ``output``/``name`` its own name, and a ``shape`` attribute with the inferred
  output type. Operators generated from MindSpore's op definitions (``PRIMITIVE_FUNCTION``: MatMul,
  Softmax, ReduceMean, Reshape, ...) take their arguments as operands; the older ones
  (``PRIMITIVE``: Conv2D, MaxPool, ...) keep them as attributes.
* Operand values (an axis, a shape tuple, a scalar tensor, a dtype as MindSpore's type id) are
  ``Constant`` nodes holding the value in their ``value`` attribute; several outputs are returned
  through a ``MakeTuple`` node, and a tuple operand (``Concat``'s inputs) is a ``MakeTuple`` too.
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from tfspore._internal.proto import mind_ir_pb2 as pb
from tfspore.train.mindir._ms_graph import DType, MsGraph, Node, Value

__all__ = ["build_model", "data_type", "type_id", "CLASSIC_PRIMITIVES"]

_DATA_TYPES = {
    np.dtype(np.float32): pb.TensorProto.FLOAT, np.dtype(np.float16): pb.TensorProto.FLOAT16,
    np.dtype(np.float64): pb.TensorProto.DOUBLE, np.dtype(np.int8): pb.TensorProto.INT8,
    np.dtype(np.int16): pb.TensorProto.INT16, np.dtype(np.int32): pb.TensorProto.INT32,
    np.dtype(np.int64): pb.TensorProto.INT64, np.dtype(np.uint8): pb.TensorProto.UINT8,
    np.dtype(np.uint16): pb.TensorProto.UINT16, np.dtype(np.uint32): pb.TensorProto.UINT32,
    np.dtype(np.uint64): pb.TensorProto.UINT64, np.dtype(np.bool_): pb.TensorProto.BOOL,
}

# MindSpore's TypeId numbers (a dtype passed as an operand: Cast's target, Argmax's output type).
_TYPE_IDS = {
    np.dtype(np.bool_): 30, np.dtype(np.int8): 32, np.dtype(np.int16): 33, np.dtype(np.int32): 34,
    np.dtype(np.int64): 35, np.dtype(np.uint8): 37, np.dtype(np.uint16): 38, np.dtype(np.uint32): 39,
    np.dtype(np.uint64): 40, np.dtype(np.float16): 42, np.dtype(np.float32): 43, np.dtype(np.float64): 44,
}

#: Operators written as ``PRIMITIVE`` (arguments as attributes); every other one is a ``PRIMITIVE_FUNCTION``.
CLASSIC_PRIMITIVES = frozenset({"Conv2D", "MaxPool", "PadV3", "Depend", "MakeTuple", "TupleGetItem", "Softplus",
                                "DivNoNan", "Stack", "TopK"})

_COUNTER = itertools.count(1)


def data_type(dtype: Any) -> int:
    """The ``TensorProto.DataType`` of a numpy dtype.

    Raises:
        TypeError: for a dtype MindIR has no type for.
    """
    found = _DATA_TYPES.get(np.dtype(dtype))
    if found is None:
        raise TypeError(f"For 'export', MindIR has no data type for {np.dtype(dtype).name}.")
    return found


def type_id(dtype: Any) -> int:
    """MindSpore's TypeId number of a numpy dtype."""
    found = _TYPE_IDS.get(np.dtype(dtype))
    if found is None:
        raise TypeError(f"For 'export', MindSpore has no type for {np.dtype(dtype).name}.")
    return found


class _Writer:
    """The state of one serialization: node names given so far, primitives written."""

    def __init__(self, graph: MsGraph, name: str) -> None:
        self.graph = graph
        self.model = pb.ModelProto()
        self.name = name
        self.names: dict = {}
        self.count = itertools.count(1)

    # ---------------------------------------------------------------- operands
    def ref(self, value: Any) -> str:
        """The name an operand is referred to by (writing a Constant / MakeTuple node for a value)."""
        if isinstance(value, Value):
            if value.kind in ("input", "param"):
                return f"{self.name}:{value.name}"
            if value.kind == "node":
                return self._get_item(value) if value.index is not None else self.names[id(value.node)]
            return self._constant(value.data)
        if isinstance(value, tuple) and any(isinstance(v, Value) for v in value):
            parts = [self.ref(v) for v in value]
            return self._apply("MakeTuple", parts, {}, [_abstract(v) for v in value], tuple_output=True)
        return self._constant(value)

    def _constant(self, value: Any) -> str:
        node = self.model.graph.node.add()
        name = f"ValueNode_{next(self.count)}"
        node.op_type = "Constant"
        node.output.append(name)
        node.name = name
        attr = node.attribute.add()
        attr.name = "value"
        _set_value(attr, value)
        return name

    def _get_item(self, value: Value) -> str:
        key = (id(value.node), value.index)
        found = self.names.get(key)
        if found is None:
            found = self.names[key] = self._apply(
                "TupleGetItem", [self.names[id(value.node)], self._constant(int(value.index))], {}, [_abstract(value)])
        return found

    # ------------------------------------------------------------------- nodes
    def _primitive(self, prim: str, attrs: dict, index: int) -> str:
        proto = self.model.primitives.add()
        proto.name = f"{prim}:{index}"
        proto.op_type = prim
        proto.instance_name = ""
        proto.prim_type = pb.PrimitiveProto.PRIMITIVE if prim in CLASSIC_PRIMITIVES else \
            pb.PrimitiveProto.PRIMITIVE_FUNCTION
        for key, val in attrs.items():
            _set_value(proto.attribute.add(), val, key)
        return proto.name

    def _apply(self, prim: str, input_names: list, attrs: dict, outputs: list, tuple_output: bool = False,
               source: str = "") -> str:
        index = next(self.count)
        node = self.model.graph.node.add()
        name = f"{self.name}:CNode_{index}"
        node.op_type = "REF::" + self._primitive(prim, attrs, index)
        node.input.extend(input_names)
        node.output.append(name)
        node.name = name
        shape = node.attribute.add()
        shape.name = "shape"
        if tuple_output:
            shape.type = pb.AttributeProto.TUPLE
            for dtype, dims in outputs:
                _set_abstract(shape.values.add(), dtype, dims)
        else:
            _set_abstract(shape, *outputs[0])
        if source:
            node.domain = source
        return name

    def node(self, node: Node) -> None:
        names = [self.ref(v) for v in node.inputs]
        tuple_output = any(v.index is not None for v in node.outputs)
        self.names[id(node)] = self._apply(node.prim, names, node.attrs, [_abstract(v) for v in node.outputs],
                                           tuple_output, node.source)

    # ------------------------------------------------------------------- model
    def write(self) -> Any:
        model, graph = self.model, self.graph
        model.ir_version = "1.1"
        model.producer_name = "MindSpore"
        model.model_version = "2.10.0"
        model.little_endian = bool(np.little_endian)
        model.mind_ir_version = 3
        g = model.graph
        g.name = self.name
        for value in graph.inputs:
            info = g.input.add()
            info.name = f"{self.name}:{value.name}"
            _set_tensor_type(info.tensor.add(), value.dtype, value.shape)
        for value in graph.params.values():
            t = g.parameter.add()
            _set_tensor_type(t, value.dtype, value.shape)
            t.name = f"{self.name}:{value.name}"
            t.raw_data = np.ascontiguousarray(value.data).tobytes()
            t.ref_key = value.name
            t.compression_type = pb.TensorProto.NO_COMPRESSION
        for node in graph.nodes:
            self.node(node)
        if graph.output_is_tuple:
            result = self._apply("MakeTuple", [self.ref(v) for v in graph.outputs], {},
                                 [_abstract(v) for v in graph.outputs], tuple_output=True)
        else:
            result = self.ref(graph.outputs[0])
        out = g.output.add()
        out.name = result
        if not graph.output_is_tuple:
            _set_tensor_type(out.tensor.add(), graph.outputs[0].dtype, graph.outputs[0].shape)
        return model


def _abstract(value: Value) -> tuple:
    return value.dtype, value.shape


def _set_tensor_type(t: Any, dtype: Any, dims: tuple) -> None:
    t.dims.extend(int(d) for d in dims)
    t.data_type = data_type(dtype)


def _set_abstract(attr: Any, dtype: Any, dims: tuple) -> None:
    attr.type = pb.AttributeProto.TENSORS
    _set_tensor_type(attr.tensors.add(), dtype, dims)


# The repeated field of an ``AttributeProto`` that holds tuple elements, per scalar field.
_REPEATED = {"i": "ints", "f": "floats", "s": "strings"}


def _set_scalar(attr: Any, kind: int, field: str, value: Any, element: bool) -> None:
    """Store a scalar of type ``kind`` in ``attr.<field>``, or append it to the repeated field for an element."""
    attr.type = kind
    if element:
        getattr(attr, _REPEATED[field]).append(value)
    else:
        setattr(attr, field, value)


def _set_value(attr: Any, value: Any, name: str = "value", element: bool = False) -> None:
    """Store a Python / numpy value in an ``AttributeProto`` (tuple elements use the repeated fields)."""
    T = pb.AttributeProto
    if name:
        attr.name = name
    if value is None:
        attr.type = T.NONE
    elif isinstance(value, DType):
        _set_value(attr, type_id(value.numpy), "", element)
    elif isinstance(value, (bool, np.bool_)):
        _set_scalar(attr, T.BOOL, "i", int(value), element)
    elif isinstance(value, (int, np.integer)):
        _set_scalar(attr, T.INT64, "i", int(value), element)
    elif isinstance(value, (float, np.floating)) and np.ndim(value) == 0 and not isinstance(value, np.ndarray):
        _set_scalar(attr, T.FLOAT, "f", float(value), element)
    elif isinstance(value, str):
        _set_scalar(attr, T.STRING, "s", value.encode("utf-8"), element)
    elif isinstance(value, (tuple, list)):
        attr.type = T.TUPLE if isinstance(value, tuple) else T.LIST
        for item in value:
            _set_value(attr.values.add(), item, "", element=True)
    elif isinstance(value, np.ndarray):
        attr.type = T.TENSORS
        t = attr.tensors.add()
        t.dims.extend(int(d) for d in value.shape)
        t.data_type = data_type(value.dtype)
        t.name = "value0"
        t.raw_data = np.ascontiguousarray(value).tobytes()
    else:
        raise TypeError(f"For 'export', a MindIR attribute cannot hold {type(value).__name__} {value!r}.")


def build_model(graph: MsGraph, net_name: str) -> Any:
    """The ``mind_ir.ModelProto`` of ``graph``; ``net_name`` names the graph (``<net_name>_construct_<n>``)."""
    return _Writer(graph, f"{net_name}_construct_{next(_COUNTER)}").write()

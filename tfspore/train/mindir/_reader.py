"""Reading a MindIR file into plain Python data: graphs, primitives, constants and weights.

A MindIR file is one serialized ``mind_ir.ModelProto`` (MindSpore's schema, checked in as
``tfspore/_internal/proto/mind_ir.proto``), possibly encrypted block by block as ``.ckpt`` files
are, and for models over 1 GB with its weights in ``<name>_variables/data_<i>`` files beside it.
This module turns it into small dataclasses that :mod:`tfspore.train.mindir._graph` runs with
TensorFlow ops; keeping the file format here keeps the runner about execution only.

The layout read here is the one MindSpore 2.10's exporter writes:

* ``model.graph`` is the entry graph: ``input`` (the network inputs, a ``ValueInfoProto`` each),
  ``parameter`` (the weights, a ``TensorProto`` each, named ``<graph>:<parameter name>``),
  ``node`` (``NodeProto`` in execution order) and ``output`` (the names of the returned values;
  several make a tuple).
* ``model.functions`` are the other graphs (sub-cells kept as calls), ``model.primitives`` the
  operators with their attributes. A node's ``op_type`` is ``REF::<name>`` of a primitive, a
  graph or an earlier value, or ``Constant`` for a value node whose value is its first attribute.
* A tensor's bytes are in ``raw_data``, or at ``external_data.offset`` of the file
  ``external_data.location`` (relative to the MindIR's folder; its first byte is 1 on a
  little-endian writer).

Example:
    >>> model = read_model("lenet.mindir")
    >>> model.graph.inputs[0].shape
    (2, 1, 32, 32)
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable, Optional

import numpy as np
import tensorflow as tf
from google.protobuf.message import DecodeError

from tfspore._internal.proto import mind_ir_pb2 as pb
from tfspore.train import _crypto

__all__ = ["MindIRReadError", "DType", "Monad", "ValueInfo", "Node", "Graph", "Model", "read_model",
           "tensor_value", "attribute_value", "numpy_dtype"]

_REF = "REF::"
_CONSTANT = "Constant"

_TENSOR_DTYPES = {
    "FLOAT": np.float32, "UINT8": np.uint8, "INT8": np.int8, "UINT16": np.uint16, "INT16": np.int16,
    "INT32": np.int32, "INT64": np.int64, "BOOL": np.bool_, "FLOAT16": np.float16, "DOUBLE": np.float64,
    "FLOAT64": np.float64, "UINT32": np.uint32, "UINT64": np.uint64, "COMPLEX64": np.complex64,
    "COMPLEX128": np.complex128, "BFLOAT16": tf.bfloat16.as_numpy_dtype,
}


class MindIRReadError(RuntimeError):
    """A MindIR file that cannot be read: not a MindIR, truncated, encrypted with another key, ..."""


@dataclasses.dataclass(frozen=True)
class DType:
    """A data type used as a value (``Cast``'s target type, say): wraps its numpy dtype."""

    np_dtype: Any

    @property
    def tf_dtype(self) -> tf.DType:
        """The TensorFlow dtype."""
        return tf.as_dtype(self.np_dtype)


class Monad:
    """The state tokens (``U`` / ``IO``) MindSpore threads through side-effecting nodes."""

    def __repr__(self) -> str:
        return "Monad"


MONAD = Monad()


@dataclasses.dataclass
class ValueInfo:
    """An input of a graph: its name, and for a tensor its dtype and shape (None for unknown dims)."""

    name: str
    dtype: Optional[Any] = None
    shape: Optional[tuple] = None

    @property
    def is_tensor(self) -> bool:
        """Whether the input is a tensor (not a state token)."""
        return self.dtype is not None


@dataclasses.dataclass
class Node:
    """One applied node: ``output = op(*inputs)`` with ``op`` a ``REF::`` target or an operator name."""

    output: str
    op: str
    inputs: list
    attrs: dict
    scope: str = ""


@dataclasses.dataclass
class Graph:
    """One graph: its inputs, nodes in execution order, constants and the names it returns."""

    name: str
    inputs: list
    nodes: list
    constants: dict
    outputs: list


@dataclasses.dataclass
class Primitive:
    """An operator of ``model.primitives``: its MindSpore name and attributes."""

    name: str
    op_type: str
    attrs: dict


@dataclasses.dataclass
class Model:
    """A whole MindIR file.

    Attributes:
        path: the file read.
        graph: the entry graph.
        functions: the other graphs by name.
        primitives: the operators by the name nodes refer to them with.
        weights: ``{reference name: (parameter name, numpy array)}`` of the entry graph's parameters.
        producer: ``producer_name`` and ``model_version`` of the writer.
    """

    path: str
    graph: Graph
    functions: dict
    primitives: dict
    weights: dict
    producer: str = ""

    def op_name(self, node: Node) -> Optional[str]:
        """The operator name applied by ``node`` (None for a call of a graph or a value)."""
        if node.op.startswith(_REF):
            target = node.op[len(_REF):]
            prim = self.primitives.get(target)
            return prim.op_type if prim is not None else None
        return node.op


def numpy_dtype(data_type: int, path: str = "") -> Any:
    """The numpy dtype of a ``TensorProto.DataType`` value.

    Raises:
        MindIRReadError: for a data type tfspore cannot hold.
    """
    name = pb.TensorProto.DataType.Name(data_type) if data_type in pb.TensorProto.DataType.values() else None
    if name not in _TENSOR_DTYPES:
        raise MindIRReadError(f"Load MindIR failed: the file {path!r} holds a tensor of data type {name or data_type}, "
                              "which tfspore does not support.")
    return np.dtype(_TENSOR_DTYPES[name])


class _ExternalData:
    """The weight files of a MindIR saved in parts, read once each (decrypted when a key is given)."""

    def __init__(self, folder: str, decrypt: Optional[Callable[[bytes], bytes]]):
        self._folder = folder
        self._decrypt = decrypt
        self._files: dict = {}

    def get(self, location: str, offset: int, length: int) -> bytes:
        data = self._files.get(location)
        if data is None:
            path = os.path.join(self._folder, location)
            if not os.path.isfile(path):
                raise MindIRReadError(f"Load MindIR failed: its weight file {path!r} does not exist.")
            with open(path, "rb") as f:
                data = f.read()
            if self._decrypt is not None:
                data = self._decrypt(data)
            if data[:1] != (b"\x01" if np.little_endian else b"\x00"):
                raise MindIRReadError(f"Load MindIR failed: the weight file {path!r} was written on a machine of "
                                      "another byte order.")
            self._files[location] = data
        if offset + length > len(data):
            raise MindIRReadError(f"Load MindIR failed: the weight file {os.path.join(self._folder, location)!r} is "
                                  f"truncated ({len(data)} bytes, a tensor ends at byte {offset + length}).")
        return data[offset:offset + length]


def tensor_value(proto: Any, path: str = "", external: Optional[_ExternalData] = None) -> np.ndarray:
    """The numpy array of a ``TensorProto`` (raw or external data).

    Raises:
        MindIRReadError: when the data is missing or does not fit the shape.
    """
    dtype = numpy_dtype(proto.data_type, path)
    shape = tuple(int(d) for d in proto.dims)
    if proto.HasField("external_data"):
        if external is None:
            raise MindIRReadError(f"Load MindIR failed: tensor {proto.name!r} of {path!r} has external data.")
        ext = proto.external_data
        raw = external.get(ext.location, int(ext.offset), int(ext.length))
    else:
        raw = proto.raw_data
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != size:
        raise MindIRReadError(f"Load MindIR failed: tensor {proto.name!r} of {path!r} has {len(raw)} bytes of data, "
                              f"but shape {shape} of {dtype.name} needs {size}.")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


_INT_TYPES = {"INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"}


def attribute_value(attr: Any, path: str = "") -> Any:
    """The Python value of an ``AttributeProto``: a scalar, str, tuple/list, numpy array, DType, None or MONAD.

    Raises:
        MindIRReadError: for an attribute kind tfspore does not read.
    """
    T = pb.AttributeProto
    kind = T.AttributeType.Name(attr.type) if attr.type in T.AttributeType.values() else str(attr.type)
    # a single value is in i / f / d / s; an element of a sequence in ints[0] / floats[0] / ...
    if kind in _INT_TYPES:
        return int(attr.ints[0] if len(attr.ints) else attr.i)
    if kind == "BOOL":
        return bool(attr.ints[0] if len(attr.ints) else attr.i)
    if kind == "FLOAT":
        return float(attr.floats[0] if len(attr.floats) else attr.f)
    if kind == "DOUBLE":
        return float(attr.doubles[0] if len(attr.doubles) else attr.d)
    if kind == "STRING":
        return (attr.strings[0] if len(attr.strings) else attr.s).decode("utf-8", "replace")
    if kind in ("TUPLE", "LIST"):
        items = [attribute_value(v, path) for v in attr.values]
        return tuple(items) if kind == "TUPLE" else list(items)
    if kind == "TENSORS":
        t = attr.tensors[0]
        if t.HasField("raw_data"):
            return tensor_value(t, path)
        return DType(numpy_dtype(t.data_type, path))
    if kind == "TENSOR":
        return tensor_value(attr.t, path)
    if kind == "NONE":
        return None
    if kind in ("UMONAD", "IOMONAD"):
        return MONAD
    if kind == "DICT":
        return {v.name: attribute_value(v.values[0], path) for v in attr.values}
    raise MindIRReadError(f"Load MindIR failed: the file {path!r} has an attribute {attr.name!r} of kind {kind}, "
                          "which tfspore does not read.")


def _value_info(info: Any, path: str) -> ValueInfo:
    if len(info.tensor):
        t = info.tensor[0]
        shape = tuple(None if d < 0 else int(d) for d in t.dims)
        return ValueInfo(info.name, numpy_dtype(t.data_type, path), shape)
    return ValueInfo(info.name)


def _attrs(protos: Any, path: str) -> dict:
    out = {}
    for a in protos:
        if a.name == "shape" or a.ref_attr_name.startswith("shape:"):
            continue  # the inferred output type, not an operator attribute
        out[a.name] = attribute_value(a, path)
    return out


def _graph(proto: Any, path: str) -> Graph:
    nodes, constants = [], {}
    for n in proto.node:
        if not n.output:
            raise MindIRReadError(f"Load MindIR failed: a node of graph {proto.name!r} in {path!r} has no output.")
        if n.op_type == _CONSTANT:
            if not n.attribute:
                raise MindIRReadError(f"Load MindIR failed: constant {n.output[0]!r} in {path!r} has no value.")
            constants[n.output[0]] = attribute_value(n.attribute[0], path)
            continue
        nodes.append(Node(n.output[0], n.op_type, list(n.input), _attrs(n.attribute, path), n.domain))
    return Graph(proto.name, [_value_info(i, path) for i in proto.input], nodes, constants,
                 [o.name for o in proto.output])


def _decryptor(dec_key: Optional[bytes], dec_mode: Any) -> Optional[Callable[[bytes], bytes]]:
    if dec_key is None:
        return None
    if callable(dec_mode):
        return lambda data: dec_mode(data, dec_key)
    return lambda data: _crypto.decrypt(data, dec_key, dec_mode)


def read_model(path: str, dec_key: Optional[bytes] = None, dec_mode: Any = "AES-GCM") -> Model:
    """Read and check a MindIR file.

    Args:
        path: the ``.mindir`` file.
        dec_key: the key it was encrypted with, or None.
        dec_mode: 'AES-GCM', 'AES-CBC', 'SM4-CBC' or a callable ``(data, key) -> plaintext``.

    Returns:
        Model: the graphs, operators and weights.

    Raises:
        MindIRReadError: when the file is not a MindIR MindSpore wrote, is truncated, is encrypted
            and cannot be decrypted with ``dec_key``, or its weights cannot be read.
    """
    with open(path, "rb") as f:
        data = f.read()
    decrypt = _decryptor(dec_key, dec_mode)

    def undecryptable(reason: Any) -> MindIRReadError:
        return MindIRReadError(f"Load MindIR failed: {path!r} could not be decrypted ({reason}); check that 'dec_key' "
                               "and 'dec_mode' are those the file was exported with, and the file's integrity.")

    if decrypt is not None:
        try:
            data = decrypt(data)
        except (_crypto.CipherError, ValueError, TypeError) as e:
            raise undecryptable(e) from e
    elif _crypto.is_cipher_data(data[:4]):
        raise MindIRReadError(
            f"Load MindIR failed. The file {path!r} may be encrypted and decrypt failed, you can check whether the "
            "values of the arguments 'dec_key' and 'dec_mode' are the same as when exported MindIR file, or check "
            "the file integrity.")
    model = pb.ModelProto()
    # A wrong key of a CBC mode can still end in valid padding (1 in 256): its plaintext is noise.
    try:
        model.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as e:
        if decrypt is not None:
            raise undecryptable(f"the plaintext is not a MindIR file: {e}") from e
        raise MindIRReadError(f"Load MindIR failed: {path!r} is not a MindIR file or is truncated ({e}).") from e
    if not model.HasField("producer_name") or not model.HasField("model_version") or not model.HasField("graph") \
            or not model.graph.name or not model.graph.output:
        if decrypt is not None:
            raise undecryptable("the plaintext has no producer, version or graph")
        raise MindIRReadError(f"Load MindIR failed: {path!r} is not a MindIR file (it has no producer, version or "
                              "graph), or it is truncated.")
    if model.HasField("little_endian") and model.little_endian != np.little_endian:
        raise MindIRReadError(f"Load MindIR failed: {path!r} was written on a machine of another byte order.")
    external = _ExternalData(os.path.dirname(os.path.abspath(path)), decrypt)
    weights = {}
    for p in model.graph.parameter:
        name = p.name[p.name.find(":") + 1:]
        weights[p.name] = (name, tensor_value(p, path, external))
    primitives = {p.name: Primitive(p.name, p.op_type, _attrs(p.attribute, path)) for p in model.primitives}
    functions = {g.name: _graph(g, path) for g in model.functions}
    return Model(path, _graph(model.graph, path), functions, primitives, weights,
                 f"{model.producer_name} {model.model_version}".strip())

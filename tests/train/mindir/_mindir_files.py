"""Small MindIR files in the layout MindSpore 2.10's exporter writes, built with the checked-in schema.

``dense_model()`` is ``nn.Dense(3, 4)`` followed by ReLU as MindSpore 2.10 exports it: the weights
are parameters ``<graph>:fc.weight`` / ``<graph>:fc.bias`` read through ``Load`` nodes with a
``U`` monad, the operators are entries of ``model.primitives`` referenced as ``REF::<name>``,
``MatMul``'s transpose flags and ``BiasAdd``'s format are ``Constant`` inputs, and the result goes
through ``MakeTuple`` / ``UpdateState`` / ``Depend`` as MindSpore threads its state. The tests
of the reader and the runner use it so that they need no MindSpore; the parity tests check the
same reader on files real MindSpore writes.
"""
import numpy as np

from tfspore._internal.proto import mind_ir_pb2 as pb

GRAPH = "7_1_net_Net_construct_3"
WEIGHT = np.arange(12, dtype=np.float32).reshape(4, 3) / 10 - 0.5
BIAS = np.array([0.1, -0.2, 0.3, -0.4], np.float32)
A = pb.AttributeProto


def expected(x):
    """What the model computes: relu(x @ W.T + b)."""
    return np.maximum(x @ WEIGHT.T + BIAS, 0.0)


def _tensor(proto, name, value):
    proto.name = name
    proto.dims.extend(value.shape)
    proto.data_type = pb.TensorProto.FLOAT
    proto.raw_data = value.tobytes()


def _const(graph, name, kind, **fields):
    node = graph.node.add(op_type="Constant", name=name)
    node.output.append(name)
    node.attribute.add(name="value", type=kind, **fields)


def _apply(graph, prim, inputs, output, scope=""):
    node = graph.node.add(op_type=f"REF::{prim}", name=f"{GRAPH}:{output}", domain=scope)
    node.input.extend(inputs)
    node.output.append(f"{GRAPH}:{output}")
    node.attribute.add(name="shape", type=A.TENSORS).tensors.add(data_type=pb.TensorProto.FLOAT)


def dense_model(relu_op="ReLU", batch=2):
    """The ModelProto of Dense(3, 4) + ``relu_op`` (pass another name to get an unsupported operator)."""
    m = pb.ModelProto(ir_version="1.1", producer_name="MindSpore", model_version="2.10.0", mind_ir_version=3,
                      little_endian=True)
    for name, op in (("Load:2", "Load"), ("MatMul:5", "MatMul"), ("BiasAdd:7", "BiasAdd"), ("Act:9", relu_op),
                     ("MakeTuple:11", "MakeTuple"), ("UpdateState:13", "UpdateState"), ("Depend:15", "Depend")):
        m.primitives.add(name=name, op_type=op)
    g = m.graph
    g.name = GRAPH
    x = g.input.add(name=f"{GRAPH}:x")
    x.tensor.add(name=f"{GRAPH}:x", dims=[batch, 3], data_type=pb.TensorProto.FLOAT)
    _tensor(g.parameter.add(), f"{GRAPH}:fc.weight", WEIGHT)
    _tensor(g.parameter.add(), f"{GRAPH}:fc.bias", BIAS)
    _const(g, "ValueNode_1", A.UMONAD)
    _apply(g, "Load:2", [f"{GRAPH}:fc.weight", "ValueNode_1"], "CNode_2:1", "Default/Load-op0")
    _const(g, "ValueNode_3", A.BOOL, i=0)
    _const(g, "ValueNode_4", A.BOOL, i=1)
    _apply(g, "MatMul:5", [f"{GRAPH}:x", f"{GRAPH}:CNode_2:1", "ValueNode_3", "ValueNode_4"], "x:5",
           "Default/fc-Dense/MatMul-op0")
    _apply(g, "Load:2", [f"{GRAPH}:fc.bias", "ValueNode_1"], "CNode_6:6", "Default/fc-Dense/Load-op0")
    _const(g, "ValueNode_7", A.INT64, i=0)
    _apply(g, "BiasAdd:7", [f"{GRAPH}:x:5", f"{GRAPH}:CNode_6:6", "ValueNode_7"], "x:7",
           "Default/fc-Dense/BiasAdd-op0")
    _apply(g, "Act:9", [f"{GRAPH}:x:7"], "out:9", "Default/relu-ReLU/ReLU-op0")
    _apply(g, "MakeTuple:11", [f"{GRAPH}:CNode_2:1", f"{GRAPH}:CNode_6:6"], "CNode_10:10")
    _apply(g, "UpdateState:13", ["ValueNode_1", f"{GRAPH}:CNode_10:10"], "CNode_11:11")
    _apply(g, "Depend:15", [f"{GRAPH}:out:9", f"{GRAPH}:CNode_11:11"], "CNode_12:12", "Default/Depend-op0")
    g.output.add(name=f"{GRAPH}:CNode_12:12")
    return m


def write(path, model):
    """Serialize ``model`` to ``path``; returns ``str(path)``."""
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return str(path)


def split_weights(model, folder, prefix="net"):
    """Move the weights into ``<prefix>_variables/data_0`` as MindSpore's split save does (64-byte
    header whose first byte is 1 on little-endian machines, each tensor padded to 64 bytes)."""
    import os
    os.makedirs(os.path.join(folder, f"{prefix}_variables"), exist_ok=True)
    location = os.path.join(f"{prefix}_variables", "data_0")
    blob = bytearray(b"\x01" + bytes(63))
    for p in model.graph.parameter:
        data = p.raw_data
        p.ClearField("raw_data")
        p.external_data.location = location
        p.external_data.offset = len(blob)
        p.external_data.length = len(data)
        blob += data + bytes((-len(data)) % 64)
    with open(os.path.join(folder, location), "wb") as f:
        f.write(bytes(blob))
    return os.path.join(folder, location)


def recursive_model():
    """A graph whose function ``f`` calls itself (how MindSpore writes a loop on a tensor condition)."""
    m = dense_model()
    f = m.functions.add(name="9_f_construct_9")
    f.input.add(name="9_f_construct_9:a").tensor.add(dims=[2, 4], data_type=pb.TensorProto.FLOAT)
    node = f.node.add(op_type="REF::9_f_construct_9", name="9_f_construct_9:CNode_1")
    node.input.append("9_f_construct_9:a")
    node.output.append("9_f_construct_9:CNode_1")
    f.output.add(name="9_f_construct_9:CNode_1")
    g = m.graph
    call = g.node.add(op_type="REF::9_f_construct_9", name=f"{GRAPH}:CNode_50:50")
    call.input.append(f"{GRAPH}:CNode_12:12")
    call.output.append(f"{GRAPH}:CNode_50:50")
    del g.output[:]
    g.output.add(name=f"{GRAPH}:CNode_50:50")
    return m

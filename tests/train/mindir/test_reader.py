"""The MindIR reader: values, weights (inline, external, encrypted) and the errors of unreadable files."""
import os

import numpy as np
import pytest

from tfspore._internal.proto import mind_ir_pb2 as pb
from tfspore.train import _crypto
from tfspore.train.mindir._reader import DType, MONAD, MindIRReadError, attribute_value, read_model
from tests.train.mindir import _mindir_files as files

A = pb.AttributeProto


def test_reads_graph_inputs_weights_and_primitives(tmp_path):
    model = read_model(files.write(tmp_path / "net.mindir", files.dense_model()))
    assert model.graph.name == files.GRAPH
    assert [(i.name, i.dtype, i.shape) for i in model.graph.inputs] == [(f"{files.GRAPH}:x", np.float32, (2, 3))]
    names = {ref: name for ref, (name, _) in model.weights.items()}
    assert names == {f"{files.GRAPH}:fc.weight": "fc.weight", f"{files.GRAPH}:fc.bias": "fc.bias"}
    np.testing.assert_array_equal(model.weights[f"{files.GRAPH}:fc.weight"][1], files.WEIGHT)
    assert model.primitives["MatMul:5"].op_type == "MatMul"
    assert [model.op_name(n) for n in model.graph.nodes] == [
        "Load", "MatMul", "Load", "BiasAdd", "ReLU", "MakeTuple", "UpdateState", "Depend"]
    assert model.graph.constants["ValueNode_4"] is True and model.graph.constants["ValueNode_1"] is MONAD
    assert model.graph.outputs == [f"{files.GRAPH}:CNode_12:12"]


def test_attribute_values():
    seq = A(name="kernel_size", type=A.TUPLE)
    seq.values.add(type=A.INT64, ints=[5])
    seq.values.add(type=A.INT64, ints=[3])
    assert attribute_value(seq) == (5, 3)  # sequence elements keep their value in ints[0]
    assert attribute_value(A(type=A.INT64, i=-1)) == -1
    assert attribute_value(A(type=A.FLOAT, f=0.5)) == 0.5
    assert attribute_value(A(type=A.STRING, s=b"NCHW")) == "NCHW"
    assert attribute_value(A(type=A.NONE)) is None
    typed = A(type=A.TENSORS)
    typed.tensors.add(data_type=pb.TensorProto.INT32)
    assert attribute_value(typed) == DType(np.dtype(np.int32))
    valued = A(type=A.TENSORS)
    valued.tensors.add(data_type=pb.TensorProto.INT32, dims=[2], raw_data=np.array([7, 8], np.int32).tobytes())
    np.testing.assert_array_equal(attribute_value(valued), [7, 8])
    with pytest.raises(MindIRReadError, match="kind GRAPH"):
        attribute_value(A(name="g", type=A.GRAPH))


def test_not_a_mindir(tmp_path):
    path = tmp_path / "x.mindir"
    path.write_bytes(b"\x00\x01 this is not a model")
    with pytest.raises(RuntimeError, match="Load MindIR failed.*x.mindir"):
        read_model(str(path))
    path.write_bytes(pb.ModelProto(producer_name="MindSpore").SerializeToString())  # a message, but no graph
    with pytest.raises(RuntimeError, match="not a MindIR file"):
        read_model(str(path))


def test_truncated_file(tmp_path):
    data = files.dense_model().SerializeToString()
    path = tmp_path / "cut.mindir"
    path.write_bytes(data[:len(data) * 2 // 3])
    with pytest.raises(RuntimeError, match="Load MindIR failed.*cut.mindir"):
        read_model(str(path))


def test_weight_data_of_the_wrong_size(tmp_path):
    model = files.dense_model()
    model.graph.parameter[1].raw_data = model.graph.parameter[1].raw_data[:-4]
    with pytest.raises(RuntimeError, match=r"'.*fc.bias' .* has 12 bytes of data, but shape \(4,\) of float32 "
                                           r"needs 16"):
        read_model(files.write(tmp_path / "net.mindir", model))


def test_external_weights(tmp_path):
    model = files.dense_model()
    data_file = files.split_weights(model, str(tmp_path))
    path = files.write(tmp_path / "net_graph.mindir", model)
    np.testing.assert_array_equal(read_model(path).weights[f"{files.GRAPH}:fc.bias"][1], files.BIAS)
    with open(data_file, "r+b") as f:
        f.truncate(100)
    with pytest.raises(RuntimeError, match="data_0' is truncated"):
        read_model(path)
    os.remove(data_file)
    with pytest.raises(RuntimeError, match="weight file .*data_0' does not exist"):
        read_model(path)


@pytest.mark.parametrize("mode", ["AES-GCM", "AES-CBC"])
def test_encrypted_file(tmp_path, mode):
    key = b"k" * 16
    path = tmp_path / "enc.mindir"
    path.write_bytes(_crypto.encrypt_block(files.dense_model().SerializeToString(), key, mode))
    assert read_model(str(path), key, mode).graph.name == files.GRAPH
    with pytest.raises(RuntimeError, match="may be encrypted"):
        read_model(str(path))
    with pytest.raises(RuntimeError, match="could not be decrypted"):
        read_model(str(path), b"j" * 16, mode)
    custom = read_model(str(path), key, lambda data, k: _crypto.decrypt(data, k, mode))
    assert custom.graph.name == files.GRAPH


@pytest.mark.parametrize("plaintext", [b"\xff\xff\xff", b""])
def test_a_key_that_decrypts_to_noise_is_reported_as_a_decryption_failure(tmp_path, plaintext):
    """A wrong AES-CBC key ends in valid padding about once in 256 tries; its plaintext is noise
    (or parses as an empty message), reported as a failed decryption, not as a damaged file."""
    path = tmp_path / "enc.mindir"
    path.write_bytes(_crypto.encrypt_block(files.dense_model().SerializeToString(), b"k" * 16, "AES-CBC"))
    with pytest.raises(RuntimeError, match="could not be decrypted .*plaintext"):
        read_model(str(path), b"k" * 16, lambda data, key: plaintext)

"""A loaded MindIR graph: runs in nn.GraphCell in both modes, saves as a SavedModel, refuses unknown operators."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import nn
from tfspore.train.mindir import MindIRGraph, UnsupportedOperatorError, load_mindir
from tests.train.mindir import _mindir_files as files

X = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)


@pytest.fixture
def dense_file(tmp_path):
    return files.write(tmp_path / "dense.mindir", files.dense_model())


def test_graphcell_runs_the_graph(dense_file, mode):
    cell = nn.GraphCell(ms.load(dense_file))
    out = cell(ms.Tensor(X))
    assert isinstance(out, ms.Tensor)
    np.testing.assert_allclose(out.asnumpy(), files.expected(X), rtol=1e-6)


def test_graph_knows_its_weights_and_inputs(dense_file):
    graph = load_mindir(dense_file)
    assert isinstance(graph, MindIRGraph) and graph.file_name.endswith("dense.mindir")
    assert graph.parameter_names == ["fc.weight", "fc.bias"]
    np.testing.assert_array_equal(graph.parameters_dict()["fc.bias"].numpy(), files.BIAS)
    assert [tuple(s.shape) for s in graph.input_specs] == [(2, 3)]


def test_wrong_inputs_are_refused(dense_file):
    cell = nn.GraphCell(ms.load(dense_file))
    with pytest.raises(ValueError, match=r"input 0 .* must be float32 of shape \(2, 3\), but got float32 of shape "
                                         r"\(1, 3\)"):
        cell(ms.Tensor(X[:1]))
    with pytest.raises(TypeError, match="takes 1 input"):
        cell(ms.Tensor(X), ms.Tensor(X))


def test_unknown_operator_names_op_and_file(tmp_path):
    path = files.write(tmp_path / "odd.mindir", files.dense_model(relu_op="FancyAct"))
    with pytest.raises(UnsupportedOperatorError, match=r"odd.mindir' uses the operator\(s\) 'FancyAct' \(node "
                                                        r"'Default/relu-ReLU/ReLU-op0'\)") as info:
        ms.load(path)
    assert isinstance(info.value, RuntimeError) and "Supported operators: " in str(info.value)


def test_params_init_replaces_weights(dense_file):
    bias = np.array([1.0, 1.0, 1.0, 1.0], np.float32)
    cell = nn.GraphCell(ms.load(dense_file), params_init={"fc.bias": ms.Tensor(bias)})
    want = np.maximum(X @ files.WEIGHT.T + bias, 0.0)
    np.testing.assert_allclose(cell(ms.Tensor(X)).asnumpy(), want, rtol=1e-6)
    with pytest.raises(ValueError, match="'params_init' key 'fc.gamma' is not a parameter"):
        nn.GraphCell(ms.load(dense_file), params_init={"fc.gamma": ms.Tensor(bias)})
    with pytest.raises(ValueError, match=r"value of 'fc.bias' must have shape \(4,\), but got shape \(2,\)"):
        nn.GraphCell(ms.load(dense_file), params_init={"fc.bias": ms.Tensor(bias[:2])})


def test_graphcell_saves_as_savedmodel_with_serving_signature(dense_file, tmp_path):
    cell = nn.GraphCell(ms.load(dense_file))
    tf.saved_model.save(cell, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    serve = loaded.signatures["serving_default"]
    out = serve(input_0=tf.constant(X))
    np.testing.assert_allclose(out["output_0"].numpy(), files.expected(X), rtol=1e-6)
    assert len(loaded.graph.weights) == 2  # the weights travel with the graph


def test_graphcell_of_a_plain_function_is_unchanged():
    cell = nn.GraphCell(lambda x: x * 2)
    np.testing.assert_allclose(cell(ms.Tensor(X)).asnumpy(), X * 2)
    with pytest.raises(TypeError, match="'graph' must be callable"):
        nn.GraphCell(3)


def test_recursive_graphs_are_refused_when_loaded(tmp_path):
    path = files.write(tmp_path / "loop.mindir", files.recursive_model())
    with pytest.raises(UnsupportedOperatorError, match=r"loop.mindir' has a loop \(graph '9_f_construct_9' calls "
                                                        "itself\\)"):
        ms.load(path)

"""The MindSpore primitive graph: layout transposes cancel, reshapes collapse, pruning keeps what outputs need."""
import numpy as np

from tfspore.train.mindir._ms_graph import MsGraph


def _graph():
    g = MsGraph()
    x = g.add_input("x", np.float32, (2, 3, 4, 5))
    return g, x


def test_transpose_pair_that_composes_to_identity_cancels():
    g, x = _graph()
    nhwc = g.transpose(x, (0, 2, 3, 1))
    assert nhwc.shape == (2, 4, 5, 3) and nhwc.node.prim == "Transpose"
    assert g.transpose(nhwc, (0, 3, 1, 2)) is x
    assert g.transpose(x, (0, 1, 2, 3)) is x


def test_transpose_of_transpose_composes_into_one():
    g, x = _graph()
    y = g.transpose(g.transpose(x, (0, 2, 3, 1)), (1, 0, 2, 3))
    assert y.node.prim == "Transpose" and y.node.inputs[0] is x
    assert tuple(y.node.inputs[1]) == (2, 0, 3, 1)
    a = np.arange(120).reshape(2, 3, 4, 5)
    np.testing.assert_array_equal(a.transpose((0, 2, 3, 1)).transpose((1, 0, 2, 3)), a.transpose(y.node.inputs[1]))
    assert y.shape == (4, 2, 5, 3)


def test_reshapes_collapse_and_constants_fold():
    g, x = _graph()
    flat = g.reshape(g.reshape(x, (6, 20)), (2, 60))
    assert flat.node.inputs[0] is x and flat.shape == (2, 60)
    assert g.reshape(x, (2, 3, 4, 5)) is x
    c = g.transpose(g.const(np.arange(6, dtype=np.float32).reshape(2, 3)), (1, 0))
    assert c.kind == "const" and c.data.shape == (3, 2) and c.data[2, 1] == 5


def test_prune_drops_nodes_and_parameters_the_outputs_do_not_use():
    g, x = _graph()
    w = g.param("w", np.ones((5,), np.float32))
    g.param("unused", np.ones((1,), np.float32))
    used = g.emit("Mul", [x, w], x.shape, np.float32)
    g.emit("ReLU", [x], x.shape, np.float32)
    g.outputs = [used]
    g.prune()
    assert [n.prim for n in g.nodes] == ["Mul"] and list(g.params) == ["w"]


def test_layout_transposes_commute_with_an_activation_between_them():
    g, x = _graph()
    nhwc = g.transpose(x, (0, 2, 3, 1))
    act = g.emit("ReLU", [nhwc], nhwc.shape, np.float32)
    back = g.transpose(act, (0, 3, 1, 2))
    assert back.node.prim == "ReLU" and back.node.inputs[0] is x and back.shape == x.shape
    g.outputs = [back]
    g.prune()
    assert [n.prim for n in g.nodes] == ["ReLU"]

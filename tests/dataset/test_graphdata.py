"""GraphData on a tiny graph written with tfspore's FileWriter in the zoo's graph schema."""
import numpy as np
import pytest

import tfspore.dataset as ds
from tfspore import mindrecord as tmr
from tests.dataset._graph_files import FEATURES, LABELS, write_graph


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    path = write_graph(tmr, str(tmp_path_factory.mktemp("graph") / "tiny_mr"))
    return ds.GraphData(path)


def test_exports():
    from tfspore.dataset.engine import OutputFormat, SamplingStrategy  # noqa: F401
    assert ds.GraphData is ds.engine.graphdata.GraphData
    assert int(ds.SamplingStrategy.EDGE_WEIGHT) == 1 and int(ds.OutputFormat.CSR) == 2


def test_all_nodes_and_edges(graph):
    nodes = graph.get_all_nodes(0)
    assert nodes.dtype == np.int32
    np.testing.assert_array_equal(nodes, [10, 11, 12, 13])
    np.testing.assert_array_equal(graph.get_all_nodes(1), [20, 21])
    np.testing.assert_array_equal(graph.get_all_edges(0), [0, 1, 2, 3])
    np.testing.assert_array_equal(graph.get_all_edges(1), [4, 5, 6])
    # a single result is squeezed to a scalar, as MindSpore squeezes every size-1 dimension
    assert graph.get_all_edges(2).shape == () and int(graph.get_all_edges(2)) == 7
    with pytest.raises(RuntimeError, match="Invalid node type:5"):
        graph.get_all_nodes(5)
    with pytest.raises(RuntimeError, match="Invalid edge type:9"):
        graph.get_all_edges(9)
    with pytest.raises(TypeError, match="node_type"):
        graph.get_all_nodes("0")


def test_nodes_from_edges_and_edges_from_nodes(graph):
    out = graph.get_nodes_from_edges(np.array([0, 4, 7], np.int32))
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, [[10, 11], [10, 20], [20, 10]])
    np.testing.assert_array_equal(graph.get_edges_from_nodes([(10, 12), (12, 11), (13, 21)]), [1, -1, 5])
    with pytest.raises(RuntimeError, match="Invalid edge id:99"):
        graph.get_nodes_from_edges([99])
    with pytest.raises(TypeError, match="edge_list"):
        graph.get_nodes_from_edges(3)


def test_all_neighbors_formats(graph):
    nodes = [10, 11, 12, 13]
    np.testing.assert_array_equal(graph.get_all_neighbors(nodes, 0),
                                  [[10, 11, 12], [11, 12, -1], [12, 10, -1], [13, -1, -1]])
    # the neighbour type is the neighbour node's type: 20 -> 10 is an edge of type 2 to a type-0 node
    np.testing.assert_array_equal(graph.get_all_neighbors([20, 21], 0), [[20, 10], [21, -1]])
    np.testing.assert_array_equal(graph.get_all_neighbors(nodes, 1),
                                  [[10, 20, 21], [11, -1, -1], [12, -1, -1], [13, 21, -1]])
    offsets, dst = graph.get_all_neighbors(nodes, 1, ds.OutputFormat.CSR)
    np.testing.assert_array_equal(offsets, [0, 2, 2, 2])
    np.testing.assert_array_equal(dst, [20, 21, 21])
    np.testing.assert_array_equal(graph.get_all_neighbors(nodes, 1, ds.OutputFormat.COO),
                                  [[10, 20], [10, 21], [13, 21]])
    single = graph.get_all_neighbors([13], 0)
    assert single.shape == () and int(single) == 13
    with pytest.raises(RuntimeError, match="Invalid neighbor type:3"):
        graph.get_all_neighbors(nodes, 3)
    with pytest.raises(RuntimeError, match="Invalid node id:77"):
        graph.get_all_neighbors([77], 0)


def test_node_and_edge_features(graph):
    features, labels = graph.get_node_feature([10, 11, 12, 13, 20, -1], [1, 2])
    assert features.dtype == np.float32 and features.shape == (6, 3)
    assert labels.dtype == np.int32 and labels.shape == (6,)
    want = np.array([FEATURES[i] for i in (10, 11, 12, 13)] + [[0, 0, 0]] * 2, np.float32)
    np.testing.assert_array_equal(features, want)
    np.testing.assert_array_equal(labels, [LABELS[i] for i in (10, 11, 12, 13)] + [0, 0])
    # the result takes node_list's shape
    two_d = graph.get_node_feature(np.array([[10, 11], [12, 13]], np.int32), [1])[0]
    assert two_d.shape == (2, 2, 3)
    np.testing.assert_array_equal(two_d[1, 0], FEATURES[12])
    (edge_feat,) = graph.get_edge_feature([4, 5], [1])
    np.testing.assert_array_equal(edge_feat, [[0, 0], [5, 6]])
    with pytest.raises(RuntimeError, match="Invalid feature type:3"):
        graph.get_node_feature([10], [3])


def test_graph_info(graph):
    info = graph.graph_info()
    assert info == {"node_type": [0, 1], "edge_type": [0, 1, 2], "node_num": {0: 4, 1: 2},
                    "edge_num": {0: 4, 1: 3, 2: 1}, "node_feature_type": [1, 2], "edge_feature_type": [1]}


def test_sampled_neighbors_random(graph):
    out = graph.get_sampled_neighbors([10, 11, 13], [3, 2], [1, 0])
    assert out.dtype == np.int32 and out.shape == (3, 1 + 3 + 6)
    np.testing.assert_array_equal(out[:, 0], [10, 11, 13])
    assert set(out[0, 1:4]) == {20, 21}           # 3 draws of 2 neighbours: both, one twice
    hop2 = out[0, 4:].reshape(3, 2)
    for first, second in zip(out[0, 1:4], hop2):
        np.testing.assert_array_equal(second, [10, 10] if first == 20 else [-1, -1])
    np.testing.assert_array_equal(out[1, 1:], -1)  # 11 has no type-1 neighbour
    np.testing.assert_array_equal(out[2, 1:4], [21, 21, 21])
    # without replacement until every neighbour is used
    many = graph.get_sampled_neighbors([10] * 50, [4], [0])
    for row in many[:, 1:]:
        assert sorted(row[:2]) == [11, 12] and sorted(row[2:]) == [11, 12]
    with pytest.raises(RuntimeError, match="Wrong samples number"):
        graph.get_sampled_neighbors([10], [7], [0])
    with pytest.raises(RuntimeError, match="inconsistent"):
        graph.get_sampled_neighbors([10], [1, 1], [0])
    with pytest.raises(TypeError, match="SamplingStrategy"):
        graph.get_sampled_neighbors([10], [1], [0], strategy=1)


def test_sampled_neighbors_edge_weight(graph):
    out = graph.get_sampled_neighbors(np.full(500, 10, np.int32), [6], [1], ds.SamplingStrategy.EDGE_WEIGHT)
    assert out.shape == (500, 7)
    ids, counts = np.unique(out[:, 1:], return_counts=True)
    np.testing.assert_array_equal(ids, [20, 21])
    share = counts[0] / counts.sum()                # weights 3 : 1
    assert 0.7 < share < 0.8


def test_neg_sampled_neighbors(graph):
    out = graph.get_neg_sampled_neighbors([10, 13, 21], 3, 0)
    assert out.dtype == np.int32 and out.shape == (3, 4)
    np.testing.assert_array_equal(out[:, 0], [10, 13, 21])
    np.testing.assert_array_equal(out[0, 1:], [13, 13, 13])      # only 13 is neither 10 nor a neighbour
    assert sorted(out[1, 1:]) == [10, 11, 12]                      # distinct while enough remain
    assert set(out[2, 1:]) <= {10, 11, 12, 13}
    np.testing.assert_array_equal(graph.get_neg_sampled_neighbors([20], 1, 1), [20, 21])


def test_random_walk(graph):
    walks = graph.random_walk([10, 11, 12, 13], [0, 0, 1])
    assert walks.dtype == np.int32 and walks.shape == (4, 4)
    neighbors = {10: {0: {11, 12}, 1: {20, 21}}, 11: {0: {12}}, 12: {0: {10}}, 13: {1: {21}}}
    types = [0, 0, 1]
    for walk in walks:
        for step in range(3):
            cur, nxt = walk[step], walk[step + 1]
            if nxt == -1:
                assert all(x == -1 for x in walk[step + 1:])
                break
            assert nxt in neighbors[int(cur)][types[step]]
    np.testing.assert_array_equal(walks[3], [13, -1, -1, -1])
    np.testing.assert_array_equal(graph.random_walk([13], [0], default_node=7), [13, 7])
    with pytest.raises(RuntimeError, match="step_home_param"):
        graph.random_walk([10], [0], step_home_param=0.0)


def test_constructor_checks(tmp_path, graph):
    with pytest.raises(ValueError, match="does not exist"):
        ds.GraphData(str(tmp_path / "nope"))
    path = graph._dataset_file
    with pytest.raises(ValueError, match="working_mode"):
        ds.GraphData(path, working_mode="remote")
    with pytest.raises(ValueError, match="port"):
        ds.GraphData(path, port=80)
    with pytest.raises(NotImplementedError, match="client"):
        ds.GraphData(path, working_mode="client")
    plain = str(tmp_path / "plain.mindrecord")
    writer = tmr.FileWriter(plain, 1)
    writer.add_schema({"x": {"type": "int64"}}, "x")
    writer.write_raw_data([{"x": 1}])
    writer.commit()
    with pytest.raises(RuntimeError, match="not a graph file"):
        ds.GraphData(plain)


def test_seeded_sampling_repeats(tmp_path):
    path = write_graph(tmr, str(tmp_path / "g_mr"))
    ds.config.set_seed(123)
    a = ds.GraphData(path).get_sampled_neighbors([10] * 20, [3], [1])
    b = ds.GraphData(path).get_sampled_neighbors([10] * 20, [3], [1])
    np.testing.assert_array_equal(a, b)

"""GraphData against real MindSpore 2.10, as far as 2.10 allows.

MindSpore 2.10 no longer ships ``mindspore.dataset.GraphData`` (its dataset engine has no graph
client), so the methods' outputs cannot be compared with it; their semantics follow MindSpore's
GraphData implementation of the releases that had it (see docs/differences.md). What 2.10 does
have is the writer the zoo's graph scripts use: a graph written by MindSpore's
``mindspore.mindrecord.FileWriter`` in the zoo's graph schema must be byte-identical to the one
tfspore writes, and tfspore's GraphData must read it with the same arrays.
"""
import json
import struct

import numpy as np
import pytest

import tfspore.dataset as tds
from tfspore import mindrecord as tmr
from tests.dataset._graph_files import write_graph

ms_mr = pytest.importorskip("mindspore.mindrecord")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("graph_parity")
    return write_graph(ms_mr, str(root / "ms_graph")), write_graph(tmr, str(root / "tf_graph"))


def _split(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + length])
    return header, data[header["header_size"]:]


def test_graph_file_matches_mindspore(files):
    (ms_header, ms_pages), (tf_header, tf_pages) = (_split(f) for f in files)
    assert ms_pages == tf_pages                      # every page byte for byte
    # The header names the file itself. compression_size is left out: for this graph's 1-element int
    # arrays MindSpore 2.10 records 0 where tfspore's FileWriter records the (negative) bytes saved.
    for header in (ms_header, tf_header):
        header.pop("shard_addresses")
        header.pop("compression_size")
    assert ms_header == tf_header


def _deterministic(g):
    nodes = g.get_all_nodes(0)
    out = {"nodes0": nodes, "nodes1": g.get_all_nodes(1), "edges1": g.get_all_edges(1),
           "nbrs0": g.get_all_neighbors(nodes, 0), "nbrs1": g.get_all_neighbors(nodes, 1),
           "from_edges": g.get_nodes_from_edges([0, 5, 7]), "from_nodes": g.get_edges_from_nodes([(10, 11), (11, 10)])}
    out["feat"], out["label"] = g.get_node_feature(nodes, [1, 2])
    (out["efeat"],) = g.get_edge_feature([4, 5], [1])
    return out


def test_graphdata_reads_mindspore_written_graph(files):
    ms_graph, tf_graph = (tds.GraphData(f) for f in files)
    want, got = _deterministic(tf_graph), _deterministic(ms_graph)
    for key, value in want.items():
        assert got[key].dtype == value.dtype and got[key].shape == value.shape, key
        np.testing.assert_array_equal(got[key], value, err_msg=key)
    assert ms_graph.graph_info() == tf_graph.graph_info()
    sampled = ms_graph.get_sampled_neighbors([10, 13], [2], [1])
    assert sampled.shape == (2, 3) and set(sampled[0, 1:]) == {20, 21} and list(sampled[1, 1:]) == [21, 21]

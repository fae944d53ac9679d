"""A tiny graph written in MindSpore's graph MindRecord schema (the model zoo's graph writers' union schema).

Nodes 10..13 (type 0) carry feature 1 (float32, 3 values) and feature 2 (int32 label); nodes 20, 21
(type 1) carry none. Edges (id: src -> dst, type, weight): 0: 10->11 (0), 1: 10->12 (0), 2: 11->12 (0),
3: 12->10 (0), 4: 10->20 (1, weight 3.0), 5: 13->21 (1, with edge feature 1 = [5, 6]), 6: 10->21
(1, weight 1.0), 7: 20->10 (2).
"""
import numpy as np

SCHEMA = {
    "first_id": {"type": "int64"}, "second_id": {"type": "int64"}, "third_id": {"type": "int64"},
    "type": {"type": "int32"}, "weight": {"type": "float32"}, "attribute": {"type": "string"},
    "node_feature_index": {"type": "int32", "shape": [-1]}, "edge_feature_index": {"type": "int32", "shape": [-1]},
    "node_feature_1": {"type": "float32", "shape": [-1]}, "node_feature_2": {"type": "int32", "shape": [-1]},
    "edge_feature_1": {"type": "float32", "shape": [-1]},
}

FEATURES = {10: [0.1, 0.2, 0.3], 11: [1.0, 0.0, 0.5], 12: [0.0, 0.25, 0.75], 13: [2.0, 2.5, 3.0]}
LABELS = {10: 0, 11: 2, 12: 1, 13: 2}
EDGES = [(0, 10, 11, 0, 1.0), (1, 10, 12, 0, 1.0), (2, 11, 12, 0, 1.0), (3, 12, 10, 0, 1.0),
         (4, 10, 20, 1, 3.0), (5, 13, 21, 1, 1.0), (6, 10, 21, 1, 1.0), (7, 20, 10, 2, 1.0)]


def _node(node_id, node_type):
    row = {"first_id": node_id, "second_id": 0, "third_id": 0, "type": node_type, "weight": 1.0,
           "attribute": "n", "edge_feature_index": np.array([-1], np.int32),
           "edge_feature_1": np.zeros(1, np.float32)}
    if node_id in FEATURES:
        row["node_feature_index"] = np.array([1, 2], np.int32)
        row["node_feature_1"] = np.array(FEATURES[node_id], np.float32)
        row["node_feature_2"] = np.array([LABELS[node_id]], np.int32)
    else:
        row["node_feature_index"] = np.array([-1], np.int32)
        row["node_feature_1"] = np.zeros(1, np.float32)
        row["node_feature_2"] = np.zeros(1, np.int32)
    return row


def _edge(edge_id, src, dst, edge_type, weight):
    row = {"first_id": edge_id, "second_id": src, "third_id": dst, "type": edge_type, "weight": weight,
           "attribute": "e", "node_feature_index": np.array([-1], np.int32),
           "node_feature_1": np.zeros(1, np.float32), "node_feature_2": np.zeros(1, np.int32)}
    if edge_id == 5:
        row["edge_feature_index"] = np.array([1], np.int32)
        row["edge_feature_1"] = np.array([5.0, 6.0], np.float32)
    else:
        row["edge_feature_index"] = np.array([-1], np.int32)
        row["edge_feature_1"] = np.zeros(1, np.float32)
    return row


def graph_rows():
    """The node rows then the edge rows, as the zoo's writer orders them."""
    nodes = [_node(i, 0) for i in (10, 11, 12, 13)] + [_node(i, 1) for i in (20, 21)]
    return nodes + [_edge(*e) for e in EDGES]


def write_graph(mindrecord_module, path):
    """Write the tiny graph to `path` with `mindrecord_module.FileWriter` (tfspore's or MindSpore's)."""
    writer = mindrecord_module.FileWriter(path, 1, overwrite=True)
    writer.set_header_size(1 << 18)
    writer.set_page_size(1 << 20)
    writer.add_schema(SCHEMA, "mindrecord_graph_schema")
    writer.write_raw_data(graph_rows())
    writer.commit()
    return path

"""Load a graph MindRecord file into numpy arrays for :class:`GraphData`.

The file holds one row per node (``attribute`` ``"n"``) and per edge (``"e"``) in the union
schema that MindSpore's graph writers use: ``first_id`` (node or edge id), ``second_id`` /
``third_id`` (an edge's source and destination node), ``type``, optional ``weight``,
``attribute``, ``node_feature_index`` / ``edge_feature_index`` (the feature numbers the row
carries) and the feature fields ``node_feature_<k>`` / ``edge_feature_<k>``.

Everything is decoded column by column with vectorised numpy at construction; the adjacency is
kept as one CSR table keyed by (source node, neighbour node type), the neighbours of each key in
the file's edge order, as MindSpore's loader adds them.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import numpy as np

from tfspore.mindrecord.core import shardformat
from tfspore.mindrecord.core.shardreader import load

_REQUIRED = ("first_id", "second_id", "third_id", "attribute", "type", "node_feature_index", "edge_feature_index")


class _Features:
    """One kind's (node or edge) features: per feature number, a dense table and a presence mask."""

    def __init__(self) -> None:
        self.values: Dict[int, np.ndarray] = {}    # feature number -> (num_items, *shape), zeros where absent
        self.present: Dict[int, np.ndarray] = {}   # feature number -> (num_items,) bool
        self.by_type: Dict[int, set] = {}          # item type -> feature numbers its items carry


def _ids_lookup(ids: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    order = np.argsort(ids, kind="stable")
    return ids[order], order


def _decode_blob_column(table, field: str, rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Values and row splits of blob field `field` for the given rows (1-D values)."""
    col = table.blob_fields.index(field)
    blobs = [table.blobs[int(r)][col] for r in rows]
    ftype = table.schema[field]["type"]
    if ftype in ("int32", "int64"):
        return shardformat.decompress_many(blobs, ftype)
    item = np.dtype(ftype).itemsize
    lengths = np.fromiter((len(b) for b in blobs), np.int64, len(blobs))
    values = np.frombuffer(b"".join(blobs), "<" + np.dtype(ftype).str[1:]).astype(ftype)
    return values, np.concatenate([[0], np.cumsum(lengths // item)]).astype(np.int64)


def _index_sets(table, field: str, rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(row position, feature number) pairs of the feature-index field, -1 entries dropped."""
    if field in table.blob_fields:
        values, splits = _decode_blob_column(table, field, rows)
        owner = np.repeat(np.arange(len(rows)), np.diff(splits))
    else:
        values = np.array([table.raw[int(r)].get(field, -1) for r in rows], np.int64)
        owner = np.arange(len(rows))
    keep = values >= 0
    return owner[keep], values[keep].astype(np.int64)


def _load_features(table, kind: str, rows: np.ndarray, types: np.ndarray, api: str, path: str) -> _Features:
    feats = _Features()
    owner, numbers = _index_sets(table, f"{kind}_feature_index", rows)
    for k in np.unique(numbers):
        k = int(k)
        field = f"{kind}_feature_{k}"
        if field not in table.schema:
            raise RuntimeError(f"For '{api}', the graph file {path!r} lists {kind} feature {k}, but its schema has "
                               f"no field '{field}'.")
        present = np.zeros(len(rows), bool)
        present[owner[numbers == k]] = True
        have = np.flatnonzero(present)
        spec = table.schema[field]
        if field in table.blob_fields:
            values, splits = _decode_blob_column(table, field, rows[have])
            counts = np.diff(splits)
            if counts.size and (counts != counts[0]).any():
                raise RuntimeError(f"For '{api}', {kind} feature {k} of the graph file {path!r} has rows of "
                                   f"different sizes ({sorted(set(counts.tolist()))[:4]}); tfspore's GraphData "
                                   f"needs one shape per feature.")
            shape = [int(counts[0])] if counts.size else [0]
            if len(spec.get("shape", [-1])) > 1 and -1 not in spec["shape"]:
                shape = [int(d) for d in spec["shape"]]
            values = values.reshape([len(have)] + shape)
        else:
            dtype = {"int32": np.int32, "int64": np.int64, "float32": np.float32,
                     "float64": np.float64}.get(spec["type"], np.int64)
            values = np.array([table.raw[int(rows[i])][field] for i in have], dtype).reshape(-1, 1)
        dense = np.zeros((len(rows),) + values.shape[1:], values.dtype)
        dense[have] = values
        feats.values[k] = dense
        feats.present[k] = present
        for t in np.unique(types[have]):
            feats.by_type.setdefault(int(t), set()).add(k)
    return feats


class GraphStore:
    """The whole graph in numpy arrays.

    Attributes:
        node_ids / node_types / node_weights: per node, in file order.
        edge_ids / edge_types / edge_weights / edge_src / edge_dst: per edge, in file order
            (``edge_src`` / ``edge_dst`` are node positions).
        type_names: the sorted distinct node types; ``adj_offsets`` indexes ``adj_nodes`` (node
            positions) and ``adj_weights`` by ``node position * len(type_names) + type position``.
    """

    def __init__(self, dataset_file: str, api: str) -> None:
        table = load(dataset_file, api)
        missing = [k for k in _REQUIRED if k not in table.schema]
        if missing:
            raise RuntimeError(f"For '{api}', the MindRecord file {dataset_file!r} is not a graph file: its schema "
                               f"lacks {missing}; schema fields: {sorted(table.schema)}.")
        raw = table.raw
        attr = np.array([r.get("attribute", "") for r in raw] + [""], dtype=object)[:-1]
        first = np.array([r.get("first_id", 0) for r in raw], np.int64)
        has_weight = "weight" in table.schema
        weight = np.array([r.get("weight", 1.0) for r in raw], np.float32) if has_weight \
            else np.ones(len(raw), np.float32)
        rtype = np.array([r.get("type", 0) for r in raw], np.int64)
        node_rows = np.flatnonzero(attr == "n")
        edge_rows = np.flatnonzero(attr == "e")

        self.node_ids = first[node_rows]
        self.node_types = rtype[node_rows]
        self.node_weights = weight[node_rows]
        self._sorted_ids, self._sorted_pos = _ids_lookup(self.node_ids)
        if len(self._sorted_ids) > 1 and (np.diff(self._sorted_ids) == 0).any():
            dup = int(self._sorted_ids[np.flatnonzero(np.diff(self._sorted_ids) == 0)[0]])
            raise RuntimeError(f"For '{api}', the graph file {dataset_file!r} has node id {dup} more than once.")

        self.edge_ids = first[edge_rows]
        self.edge_types = rtype[edge_rows]
        self.edge_weights = weight[edge_rows]
        self._sorted_eids, self._sorted_epos = _ids_lookup(self.edge_ids)
        src_id = np.array([raw[int(r)].get("second_id", 0) for r in edge_rows], np.int64)
        dst_id = np.array([raw[int(r)].get("third_id", 0) for r in edge_rows], np.int64)
        self.edge_src = self.node_positions(src_id, strict=False)
        self.edge_dst = self.node_positions(dst_id, strict=False)
        bad = (self.edge_src < 0) | (self.edge_dst < 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise RuntimeError(f"For '{api}', edge {int(self.edge_ids[i])} of the graph file {dataset_file!r} joins "
                               f"node {int(src_id[i])} and node {int(dst_id[i])}, which are not both in the file.")

        self.type_names = np.unique(self.node_types)
        ntypes = max(len(self.type_names), 1)
        dst_type = np.searchsorted(self.type_names, self.node_types[self.edge_dst]) if len(self.edge_dst) \
            else np.zeros(0, np.int64)
        keys = self.edge_src * ntypes + dst_type
        order = np.argsort(keys, kind="stable")
        self.adj_nodes = self.edge_dst[order]
        self.adj_weights = self.edge_weights[order]
        self.adj_cumweights = np.cumsum(self.adj_weights.astype(np.float64))
        self.adj_offsets = np.searchsorted(keys[order], np.arange(len(self.node_ids) * ntypes + 1))
        # (source, destination) -> first edge between them, for get_edges_from_nodes
        pair = self.edge_src * max(len(self.node_ids), 1) + self.edge_dst
        porder = np.argsort(pair, kind="stable")
        self._pair_keys = pair[porder]
        self._pair_edges = porder

        self.node_features = _load_features(table, "node", node_rows, self.node_types, api, dataset_file)
        self.edge_features = _load_features(table, "edge", edge_rows, self.edge_types, api, dataset_file)

    # --- lookups ---------------------------------------------------------------------------
    def node_positions(self, ids: np.ndarray, strict: bool = True) -> np.ndarray:
        """Positions of node ids (-1 for unknown ids unless `strict`, which raises)."""
        return self._positions(ids, self._sorted_ids, self._sorted_pos, "node", strict)

    def edge_positions(self, ids: np.ndarray, strict: bool = True) -> np.ndarray:
        """Positions of edge ids (-1 for unknown ids unless `strict`, which raises)."""
        return self._positions(ids, self._sorted_eids, self._sorted_epos, "edge", strict)

    @staticmethod
    def _positions(ids, sorted_ids, sorted_pos, kind: str, strict: bool) -> np.ndarray:
        ids = np.asarray(ids, np.int64)
        if not len(sorted_ids):
            found = np.zeros(ids.shape, bool)
            pos = np.zeros(ids.shape, np.int64)
        else:
            at = np.clip(np.searchsorted(sorted_ids, ids), 0, len(sorted_ids) - 1)
            found = sorted_ids[at] == ids
            pos = sorted_pos[at]
        if strict and not found.all():
            bad = int(ids[~found].reshape(-1)[0])
            raise RuntimeError(f"Invalid {kind} id:{bad}")
        return np.where(found, pos, -1)

    def type_position(self, node_type: int) -> Optional[int]:
        """Position of a node type among ``type_names``, or None when no node has it."""
        at = int(np.searchsorted(self.type_names, node_type))
        if at < len(self.type_names) and self.type_names[at] == node_type:
            return at
        return None

    def neighbor_ranges(self, positions: np.ndarray, type_pos: int) -> Tuple[np.ndarray, np.ndarray]:
        """Start and end (in ``adj_nodes``) of the neighbours of type `type_pos` of each node position."""
        key = positions * len(self.type_names) + type_pos
        return self.adj_offsets[key], self.adj_offsets[key + 1]

    def edges_between(self, src_pos: np.ndarray, dst_pos: np.ndarray) -> np.ndarray:
        """Edge positions joining each (source, destination) pair, -1 where none."""
        key = src_pos * max(len(self.node_ids), 1) + dst_pos
        if not len(self._pair_keys):
            return np.full(key.shape, -1, np.int64)
        at = np.clip(np.searchsorted(self._pair_keys, key), 0, len(self._pair_keys) - 1)
        found = (self._pair_keys[at] == key) & (dst_pos >= 0)
        return np.where(found, self._pair_edges[at], -1)

    def feature_types(self, kind: str) -> List[int]:
        """Sorted feature numbers that some node (kind "node") or edge carries."""
        feats = self.node_features if kind == "node" else self.edge_features
        return sorted(feats.values)

"""``mindspore.dataset.GraphData``: a graph read from a MindRecord file, with GNN sampling.

The file is the one MindSpore's graph writers make (the model zoo's
``utils/graph_to_mindrecord``): one row per node and per edge in a union schema, see
:mod:`tfspore.dataset.engine._graph_store`. The whole graph is loaded into numpy arrays at
construction; every query returns numpy arrays shaped and typed as MindSpore returns them
(node and edge ids ``int32``; every size-1 dimension squeezed, as MindSpore's C++ side does).

Example:
    >>> import tfspore.dataset as ds
    >>> g = ds.GraphData("/path/to/cora_mr")                        # doctest: +SKIP
    >>> nodes = g.get_all_nodes(0)                                  # doctest: +SKIP
    >>> features, labels = g.get_node_feature(nodes, [1, 2])        # doctest: +SKIP
    >>> neighbors = g.get_all_neighbors(nodes, 0)                   # doctest: +SKIP
"""
from __future__ import annotations

import os
from enum import IntEnum
from typing import Any, Dict, List, Union

import numpy as np

from tfspore._internal import validator
from tfspore.dataset.core import config
from tfspore.dataset.engine._graph_store import GraphStore

__all__ = ["GraphData", "SamplingStrategy", "OutputFormat"]

_MAX_HOPS = 6
_MAX_WALK = 80
_EPS = 1e-4
_DEFAULT_NODE = -1


class SamplingStrategy(IntEnum):
    """How :meth:`GraphData.get_sampled_neighbors` samples.

    - RANDOM: uniformly; a node's neighbours are drawn without replacement until all are used,
      then again.
    - EDGE_WEIGHT: with replacement, with the edge weights as probabilities.
    """

    RANDOM = 0
    EDGE_WEIGHT = 1


class OutputFormat(IntEnum):
    """Layout of :meth:`GraphData.get_all_neighbors`' result: NORMAL, COO or CSR."""

    NORMAL = 0
    COO = 1
    CSR = 2


def _check_list(value: Any, name: str, api: str) -> np.ndarray:
    if not isinstance(value, (list, tuple, np.ndarray)):
        raise TypeError(f"For '{api}', the argument '{name}' must be of type [list, numpy.ndarray], but got "
                        f"{value!r} with type {type(value).__name__}.")
    arr = np.asarray(value)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"For '{api}', each member of '{name}' must be of type int, but got dtype {arr.dtype}: "
                        f"{value!r}.")
    return arr.astype(np.int64)


def _nonempty(arr: np.ndarray, what: str) -> None:
    if arr.size == 0:
        raise RuntimeError(f"Input {what} is empty.")


def _squeezed(arr: np.ndarray) -> np.ndarray:
    return np.squeeze(arr) if arr.ndim else arr


def _ids_of_type(ids: np.ndarray, types: np.ndarray, type_: Any, kind: str, api: str) -> np.ndarray:
    """The ``int32`` ids (of nodes or edges: ``kind``) whose type is ``type_``, in file order."""
    type_ = validator.check_int(type_, f"{kind}_type", api)
    keep = types == type_
    if not keep.any():
        raise RuntimeError(f"Invalid {kind} type:{type_}")
    return _squeezed(ids[keep].astype(np.int32))


class GraphData:
    """Reads a graph (nodes, edges and their features) from a MindRecord file for GNN training.

    Args:
        dataset_file: The graph MindRecord file (one of its shards).
        num_parallel_workers: Accepted for compatibility (loading is vectorised numpy). Default: None.
        working_mode: ``'local'``. ``'client'`` / ``'server'`` (MindSpore's distributed graph
            service over gRPC) raise ``NotImplementedError``. Default: ``'local'``.
        hostname: Server host for the distributed modes. Default: ``'127.0.0.1'``.
        port: Server port, in ``[1024, 65535]``. Default: 50051.
        num_client: Clients a server waits for, in ``[1, 255]``. Default: 1.
        auto_shutdown: Whether a server stops when its clients leave. Default: True.

    Raises:
        ValueError: If `dataset_file` does not exist, or `working_mode`, `port` or `num_client`
            is out of range.
        TypeError: If an argument has the wrong type.
        RuntimeError: If the file is not a graph MindRecord file.
    """

    def __init__(self, dataset_file: str, num_parallel_workers: Union[int, None] = None, working_mode: str = "local",
                 hostname: str = "127.0.0.1", port: int = 50051, num_client: int = 1,
                 auto_shutdown: bool = True) -> None:
        api = "GraphData"
        if not isinstance(dataset_file, (str, os.PathLike)):
            raise TypeError(f"For '{api}', the argument 'dataset_file' must be of type [str], but got "
                            f"{dataset_file!r} with type {type(dataset_file).__name__}.")
        dataset_file = os.fspath(dataset_file)
        if not os.path.isfile(dataset_file):
            raise ValueError(f"For '{api}', the file {dataset_file} does not exist or permission denied.")
        if num_parallel_workers is not None:
            n = validator.check_int(num_parallel_workers, "num_parallel_workers", api)
            cpus = os.cpu_count() or 1
            if n < 1 or n > max(cpus, 1):
                raise ValueError(f"For '{api}', num_parallel_workers exceeds the boundary between 1 and {cpus}, "
                                 f"but got {n}.")
        if working_mode not in ("local", "client", "server"):
            raise ValueError(f"For '{api}', the argument 'working_mode' must be one of ['local', 'client', "
                             f"'server'], but got {working_mode!r}.")
        if not isinstance(hostname, str):
            raise TypeError(f"For '{api}', the argument 'hostname' must be of type [str], but got {hostname!r}.")
        port = validator.check_int(port, "port", api)
        if not 1024 <= port <= 65535:
            raise ValueError(f"For '{api}', the argument 'port' must be in range [1024, 65535], but got {port}.")
        num_client = validator.check_int(num_client, "num_client", api)
        if not 1 <= num_client <= 255:
            raise ValueError(f"For '{api}', the argument 'num_client' must be in range [1, 255], but got "
                             f"{num_client}.")
        if not isinstance(auto_shutdown, bool):
            raise TypeError(f"For '{api}', the argument 'auto_shutdown' must be of type [bool], but got "
                            f"{auto_shutdown!r}.")
        if working_mode != "local":
            raise NotImplementedError(f"For '{api}', working_mode={working_mode!r} (MindSpore's distributed graph "
                                      f"service) is not implemented by tfspore; use working_mode='local'.")
        self._dataset_file = dataset_file
        self._working_mode = working_mode
        self.data_format = "mindrecord"
        self._g = GraphStore(dataset_file, api)
        seed = config.get_seed()
        self._rng = np.random.default_rng(None if seed == config.DEFAULT_SEED else seed)

    # --- helpers ---------------------------------------------------------------------------
    def _ids(self, positions: np.ndarray) -> np.ndarray:
        """Node ids (int32) of node positions, -1 staying -1."""
        g = self._g
        safe = np.where(positions >= 0, positions, 0)
        ids = g.node_ids[safe] if len(g.node_ids) else np.zeros(positions.shape, np.int64)
        return np.where(positions >= 0, ids, _DEFAULT_NODE).astype(np.int32)

    def _type_pos(self, node_type: int, what: str = "neighbor") -> int:
        at = self._g.type_position(node_type)
        if at is None:
            raise RuntimeError(f"Invalid {what} type:{node_type}")
        return at

    def _check_samples(self, num: int) -> None:
        total = len(self._g.node_ids)
        if num < 1 or num > total:
            raise RuntimeError(f"Wrong samples number, should be between 1 and {total}, got {num}")

    # --- nodes and edges -------------------------------------------------------------------
    def get_all_nodes(self, node_type: int) -> np.ndarray:
        """All nodes of type `node_type`, in file order (``int32``).

        Raises:
            TypeError: If `node_type` is not an int.
            RuntimeError: If no node has that type.
        """
        return _ids_of_type(self._g.node_ids, self._g.node_types, node_type, "node", "get_all_nodes")

    def get_all_edges(self, edge_type: int) -> np.ndarray:
        """All edges of type `edge_type`, in file order (``int32``).

        Raises:
            TypeError: If `edge_type` is not an int.
            RuntimeError: If no edge has that type.
        """
        return _ids_of_type(self._g.edge_ids, self._g.edge_types, edge_type, "edge", "get_all_edges")

    def get_nodes_from_edges(self, edge_list: Union[list, np.ndarray]) -> np.ndarray:
        """The (source, destination) node pair of each edge: shape ``(len(edge_list), 2)``."""
        edges = _check_list(edge_list, "edge_list", "get_nodes_from_edges").reshape(-1)
        _nonempty(edges, "edge_list")
        pos = self._g.edge_positions(edges)
        out = np.stack([self._ids(self._g.edge_src[pos]), self._ids(self._g.edge_dst[pos])], axis=1)
        return _squeezed(out)

    def get_edges_from_nodes(self, node_list: Union[List[tuple], np.ndarray]) -> np.ndarray:
        """The edge from the first to the second node of each pair, -1 where there is none."""
        pairs = _check_list(node_list, "node_list", "get_edges_from_nodes").reshape(-1, 2) \
            if np.size(node_list) else np.zeros((0, 2), np.int64)
        _nonempty(pairs, "node list")
        g = self._g
        src = g.node_positions(pairs[:, 0])
        dst = g.node_positions(pairs[:, 1], strict=False)
        edges = g.edges_between(src, dst)
        safe = np.where(edges >= 0, edges, 0)
        ids = g.edge_ids[safe] if len(g.edge_ids) else np.zeros(edges.shape, np.int64)
        return _squeezed(np.where(edges >= 0, ids, -1).astype(np.int32))

    # --- neighbours ------------------------------------------------------------------------
    def get_all_neighbors(self, node_list: Union[list, np.ndarray], neighbor_type: int,
                          output_format: OutputFormat = OutputFormat.NORMAL) -> Any:
        """All neighbours of type `neighbor_type` of each node.

        NORMAL: shape ``(n, 1 + max degree)``, each row the node then its neighbours in file order,
        padded with -1. COO: shape ``(number of pairs, 2)``, rows (node, neighbour). CSR: a tuple
        (offset of each node's first neighbour, all neighbours).
        """
        api = "get_all_neighbors"
        nodes = _check_list(node_list, "node_list", api).reshape(-1)
        neighbor_type = validator.check_int(neighbor_type, "neighbor_type", api)
        if not isinstance(output_format, OutputFormat):
            raise TypeError(f"For '{api}', the argument 'output_format' must be of type [OutputFormat], but got "
                            f"{output_format!r}.")
        _nonempty(nodes, "node_list")
        tpos = self._type_pos(neighbor_type)
        g = self._g
        pos = g.node_positions(nodes)
        start, end = g.neighbor_ranges(pos, tpos)
        deg = end - start
        flat = g.adj_nodes[np.repeat(start - np.concatenate([[0], np.cumsum(deg)[:-1]]), deg)
                           + np.arange(int(deg.sum()))] if deg.sum() else np.zeros(0, np.int64)
        nbr_ids = self._ids(flat)
        if output_format == OutputFormat.CSR:
            offsets = np.concatenate([[0], np.cumsum(deg)[:-1]]).astype(np.int32)
            return offsets, nbr_ids
        if output_format == OutputFormat.COO:
            return np.stack([np.repeat(nodes.astype(np.int32), deg), nbr_ids], axis=1)
        width = int(deg.max()) if deg.size else 0
        out = np.full((len(nodes), 1 + width), _DEFAULT_NODE, np.int32)
        out[:, 0] = nodes
        rows = np.repeat(np.arange(len(nodes)), deg)
        cols = 1 + np.arange(len(flat)) - np.repeat(np.concatenate([[0], np.cumsum(deg)[:-1]]), deg)
        out[rows, cols] = nbr_ids
        return _squeezed(out)

    def _sample_hop(self, pos: np.ndarray, num: int, tpos: int, strategy: SamplingStrategy) -> np.ndarray:
        """`num` sampled neighbour positions (type `tpos`) of each position: shape ``(len(pos), num)``."""
        g = self._g
        out = np.full((len(pos), num), _DEFAULT_NODE, np.int64)
        valid = np.flatnonzero(pos >= 0)
        if not valid.size:
            return out
        start, end = g.neighbor_ranges(pos[valid], tpos)
        deg = end - start
        has = deg > 0
        rows, start, deg = valid[has], start[has], deg[has]
        if not rows.size:
            return out
        if strategy == SamplingStrategy.EDGE_WEIGHT:
            cw = g.adj_cumweights
            base = np.where(start > 0, cw[np.maximum(start - 1, 0)], 0.0)
            total = cw[start + deg - 1] - base
            u = self._rng.random((len(rows), num))
            target = base[:, None] + u * total[:, None]
            idx = np.searchsorted(cw, target, side="right")
            uniform = start[:, None] + (u * deg[:, None]).astype(np.int64)
            idx = np.where(total[:, None] > 0, idx, uniform)
            idx = np.clip(idx, start[:, None], (start + deg - 1)[:, None])
        else:
            # Rounds of random permutations of each node's neighbours, cut to `num`.
            slots = -(-num // deg) * deg
            owner = np.repeat(np.arange(len(rows)), slots)
            j = np.arange(int(slots.sum())) - np.repeat(np.concatenate([[0], np.cumsum(slots)[:-1]]), slots)
            d = deg[owner]
            rnd, item = j // d, j % d
            order = np.lexsort((self._rng.random(len(j)), rnd, owner))
            picked = item[order][j < num].reshape(len(rows), num)
            idx = start[:, None] + picked
        out[rows] = g.adj_nodes[idx]
        return out

    def get_sampled_neighbors(self, node_list: Union[list, np.ndarray], neighbor_nums: Union[list, np.ndarray],
                              neighbor_types: Union[list, np.ndarray],
                              strategy: SamplingStrategy = SamplingStrategy.RANDOM) -> np.ndarray:
        """Multi-hop neighbour sampling: each row is the node, its hop-1 samples, their hop-2 samples, ...

        Returns:
            ``int32`` array of shape ``(n, 1 + k1 + k1*k2 + ...)``; -1 where a node has no neighbour
            of the hop's type.
        """
        api = "get_sampled_neighbors"
        nodes = _check_list(node_list, "node_list", api).reshape(-1)
        nums = _check_list(neighbor_nums, "neighbor_nums", api).reshape(-1)
        types = _check_list(neighbor_types, "neighbor_types", api).reshape(-1)
        if not isinstance(strategy, SamplingStrategy):
            raise TypeError("Wrong input type for strategy, should be enum of 'SamplingStrategy'.")
        if not 1 <= len(nums) <= _MAX_HOPS:
            raise ValueError(f"For '{api}', the length of 'neighbor_nums' must be in range [1, {_MAX_HOPS}], but "
                             f"got {len(nums)}.")
        _nonempty(nodes, "node_list")
        if len(nums) != len(types):
            raise RuntimeError("The sizes of neighbor_nums and neighbor_types are inconsistent.")
        for num in nums:
            self._check_samples(int(num))
        tposes = [self._type_pos(int(t)) for t in types]
        pos = self._g.node_positions(nodes)
        level = pos.reshape(-1, 1)
        parts = [level]
        for num, tpos in zip(nums, tposes):
            level = self._sample_hop(level.reshape(-1), int(num), tpos, strategy).reshape(len(nodes), -1)
            parts.append(level)
        return _squeezed(self._ids(np.concatenate(parts, axis=1)))

    def get_neg_sampled_neighbors(self, node_list: Union[list, np.ndarray], neg_neighbor_num: int,
                                  neg_neighbor_type: int) -> np.ndarray:
        """For each node, `neg_neighbor_num` nodes of type `neg_neighbor_type` that are not its neighbours.

        Returns:
            ``int32`` array of shape ``(n, 1 + neg_neighbor_num)``: the node, then its samples (-1
            when every node of that type is a neighbour).
        """
        api = "get_neg_sampled_neighbors"
        nodes = _check_list(node_list, "node_list", api).reshape(-1)
        num = validator.check_int(neg_neighbor_num, "neg_neighbor_num", api)
        ntype = validator.check_int(neg_neighbor_type, "neg_neighbor_type", api)
        _nonempty(nodes, "node_list")
        self._check_samples(num)
        tpos = self._type_pos(ntype)
        g = self._g
        pos = g.node_positions(nodes)
        candidates = np.flatnonzero(g.node_types == ntype)
        start, end = g.neighbor_ranges(pos, tpos)
        out = np.full((len(nodes), num), _DEFAULT_NODE, np.int64)
        for i in range(len(nodes)):
            exclude = np.union1d(g.adj_nodes[start[i]:end[i]], [pos[i]])
            if len(candidates) <= len(exclude):
                continue
            pool = candidates[~np.isin(candidates, exclude)]
            rounds = -(-num // len(pool))
            out[i] = np.concatenate([self._rng.permutation(pool) for _ in range(rounds)])[:num]
        return _squeezed(np.concatenate([nodes.reshape(-1, 1).astype(np.int32), self._ids(out)], axis=1))

    # --- features --------------------------------------------------------------------------
    def _checked_features(self, kind: str, item_list: Any, feature_types: Any) -> List[np.ndarray]:
        """``get_node_feature`` / ``get_edge_feature`` (``kind``: ``"node"`` or ``"edge"``) after their checks."""
        api = f"get_{kind}_feature"
        items = _check_list(item_list, f"{kind}_list", api)
        types = _check_list(feature_types, "feature_types", api)
        if items.size == 0:
            raise RuntimeError(f"Input {kind}s is empty")
        if types.size == 0:
            raise RuntimeError("Input feature_types is empty")
        return self._features(kind, items, types)

    def _features(self, kind: str, items: np.ndarray, feature_types: np.ndarray) -> List[np.ndarray]:
        g = self._g
        feats = g.node_features if kind == "node" else g.edge_features
        if kind == "node":
            pos = g.node_positions(items.reshape(-1), strict=False)
        else:
            pos = g.edge_positions(items.reshape(-1))
        result = []
        for k in feature_types.reshape(-1):
            k = int(k)
            if k not in feats.values:
                raise RuntimeError(f"Invalid feature type:{k}")
            table = feats.values[k]
            safe = np.where(pos >= 0, pos, 0)
            vals = table[safe]
            vals[pos < 0] = 0
            result.append(_squeezed(vals.reshape(items.shape + table.shape[1:])))
        return result

    def get_node_feature(self, node_list: Union[list, np.ndarray],
                         feature_types: Union[list, np.ndarray]) -> List[np.ndarray]:
        """Features `feature_types` of the nodes: one array per feature, ``node_list.shape + feature shape``.

        A node without the feature, or the id -1, gets zeros.
        """
        return self._checked_features("node", node_list, feature_types)

    def get_edge_feature(self, edge_list: Union[list, np.ndarray],
                         feature_types: Union[list, np.ndarray]) -> List[np.ndarray]:
        """Features `feature_types` of the edges: one array per feature, ``edge_list.shape + feature shape``."""
        return self._checked_features("edge", edge_list, feature_types)

    def graph_info(self) -> Dict[str, Any]:
        """Node and edge types, counts per type, and feature numbers.

        Returns:
            dict with keys ``node_type``, ``edge_type`` (sorted lists), ``node_num``, ``edge_num``
            (type -> count), ``node_feature_type``, ``edge_feature_type`` (sorted lists).
        """
        g = self._g
        ntypes, ncounts = np.unique(g.node_types, return_counts=True)
        etypes, ecounts = np.unique(g.edge_types, return_counts=True)
        return {"node_type": [int(t) for t in ntypes], "edge_type": [int(t) for t in etypes],
                "node_num": {int(t): int(c) for t, c in zip(ntypes, ncounts)},
                "edge_num": {int(t): int(c) for t, c in zip(etypes, ecounts)},
                "node_feature_type": g.feature_types("node"), "edge_feature_type": g.feature_types("edge")}

    # --- random walk -----------------------------------------------------------------------
    def _sorted_neighbors(self, pos: int, tpos: int) -> np.ndarray:
        g = self._g
        start, end = g.neighbor_ranges(np.array([pos]), tpos)
        nbrs = g.adj_nodes[int(start[0]):int(end[0])]
        return nbrs[np.argsort(g.node_ids[nbrs], kind="stable")]

    def random_walk(self, target_nodes: Union[list, np.ndarray], meta_path: Union[list, np.ndarray],
                    step_home_param: float = 1.0, step_away_param: float = 1.0,
                    default_node: int = -1) -> np.ndarray:
        """node2vec random walks from each target node along the node types of `meta_path`.

        Returns:
            ``int32`` array of shape ``(n, len(meta_path) + 1)``; a walk that reaches a node with
            no neighbour of the next type is padded with `default_node`.
        """
        api = "random_walk"
        nodes = _check_list(target_nodes, "target_nodes", api).reshape(-1)
        path = _check_list(meta_path, "meta_path", api).reshape(-1)
        for name, val in (("step_home_param", step_home_param), ("step_away_param", step_away_param)):
            if isinstance(val, bool) or not isinstance(val, (int, float, np.floating, np.integer)):
                raise TypeError(f"For '{api}', the argument '{name}' must be of type [float], but got {val!r}.")
        default_node = validator.check_int(default_node, "default_node", api)
        _nonempty(nodes, "node_list")
        if not 1 <= len(path) <= _MAX_WALK:
            raise RuntimeError(f"Failed, meta path required between 1 and {_MAX_WALK}. The size of input path is "
                               f"{len(path)}")
        tposes = [self._type_pos(int(t)) for t in path]
        if step_home_param < _EPS or step_away_param < _EPS:
            raise RuntimeError(f"Failed, step_home_param and step_away_param required greater than {_EPS:f}. "
                               f"step_home_param: {step_home_param:f}, step_away_param: {step_away_param:f}")
        if default_node < -1:
            raise RuntimeError("Failed, default_node required to be greater or equal to -1.")
        g = self._g
        starts = g.node_positions(nodes)
        out = np.full((len(nodes), len(path) + 1), default_node, np.int64)
        out[:, 0] = nodes
        for i, start in enumerate(starts):
            walk = [int(start)]
            for step, tpos in enumerate(tposes):
                nbrs = self._sorted_neighbors(walk[-1], tpos)
                if not len(nbrs):
                    break
                if step == 0:
                    prob = np.ones(len(nbrs))
                else:
                    prev = walk[-2]
                    prev_nbrs = self._sorted_neighbors(prev, tposes[step - 1])
                    prob = np.where(np.isin(nbrs, prev_nbrs), 1.0, 1.0 / step_away_param)
                    prob = np.where(nbrs == prev, 1.0 / step_home_param, prob)
                walk.append(int(nbrs[self._rng.choice(len(nbrs), p=prob / prob.sum())]))
                out[i, step + 1] = g.node_ids[walk[-1]]
        return _squeezed(out.astype(np.int32))

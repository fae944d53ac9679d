"""``Model.infer_train_layout`` / ``infer_predict_layout``: MindSpore's parallel layouts on TensorFlow.

Under a multi-replica ``tf.distribute`` strategy (or MindSpore's semi-auto / auto parallel modes)
every parameter is mirrored, so each layout reports a replicated parameter: its full shape and a
tensor map of -1. :class:`ModelLayouts` is a mixin of :class:`tfspore.train.Model`.
"""
from __future__ import annotations

from typing import Any

from tfspore import context as _context
from tfspore.nn.cell import Cell
from tfspore.train import _engine
from tfspore.train._model_args import check_bool
from tfspore.train.dataset_helper import _as_dataset


class ModelLayouts:
    """The parallel layout queries of :class:`~tfspore.train.Model` (a mixin)."""

    def _layout(self, api: str, network: Cell) -> dict:
        strategy = _engine.distributed_strategy()
        mode = _context.get_auto_parallel_context("parallel_mode")
        if strategy is None and mode not in (_context.ParallelMode.SEMI_AUTO_PARALLEL,
                                             _context.ParallelMode.AUTO_PARALLEL):
            raise RuntimeError(f"'{api}' only supports 'semi_auto_parallel' and 'auto_parallel' mode, or a "
                               f"multi-replica tf.distribute strategy, but got {mode}.")
        n = strategy.num_replicas_in_sync if strategy is not None else 1
        return {p.name: [[n], [-1] * len(p.shape), list(p.shape), 0, True, ""] for p in network.get_parameters()}

    def infer_train_layout(self, train_dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1) -> dict:
        """The parameter layouts of the train network under the active ``tf.distribute`` strategy.

        Each entry is ``[device_matrix, tensor_map, slice_shape, field_size, uniform_split,
        opt_shard_group]`` as MindSpore reports it; mirrored (data-parallel) parameters are
        replicated: ``tensor_map`` is all -1 and ``slice_shape`` the full shape.

        Raises:
            RuntimeError: outside a multi-replica strategy or MindSpore's parallel modes.
            ValueError: when ``dataset_sink_mode`` is False or the dataset is empty.
        """
        check_bool(dataset_sink_mode, "dataset_sink_mode", "Model.infer_train_layout")
        if not dataset_sink_mode:
            raise ValueError("Only dataset sink mode is supported for now.")
        layout = self._layout("infer_train_layout", self._train_network)
        dataset = _as_dataset("Model.infer_train_layout", train_dataset)
        if dataset.get_dataset_size() == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError("For 'infer_train_layout', the argument 'sink_size' must be -1 or positive, but got "
                             f"sink_size {sink_size}.")
        return layout

    def infer_predict_layout(self, *predict_data: Any, skip_backend_compile: bool = False) -> dict:
        """The parameter layouts of the predict network (see :meth:`infer_train_layout`).

        Raises:
            RuntimeError: outside a multi-replica strategy or MindSpore's parallel modes.
        """
        try:
            return self._layout("infer_predict_layout", self._predict_network)
        except RuntimeError:
            raise RuntimeError("Infer predict layout only supports semi auto parallel and auto parallel mode, or a "
                               "multi-replica tf.distribute strategy.") from None

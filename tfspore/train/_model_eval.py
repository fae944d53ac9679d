"""``Model.eval``: one evaluation epoch with its callbacks, and the metric updates.

:class:`ModelEval` is a mixin of :class:`tfspore.train.Model` (``Model.fit`` validates through
its ``_run_eval`` too). Each batch is fetched before its step and run by the step engine
(:mod:`tfspore.train._engine`); the ``on_eval_*`` callbacks are called in MindSpore's order.
It uses the Model's networks, metrics and ``_engine_of`` / ``_steps_per_epoch`` /
``_check_network_mode``.
"""
from __future__ import annotations

from typing import Any

from tfspore.common.tensor import Tensor
from tfspore.nn.cell import GraphCell
from tfspore.train import _engine
from tfspore.train._model_args import callback_module, check_bool, dataset_arg


class ModelEval:
    """The evaluation of :class:`~tfspore.train.Model` (a mixin)."""

    def eval(self, valid_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False) -> dict:
        """Evaluate the metrics on ``valid_dataset``.

        Args:
            valid_dataset: the evaluation dataset.
            callbacks: as for :meth:`train`.
            dataset_sink_mode: accepted; evaluation runs step by step.

        Returns:
            dict: metric name to value.

        Raises:
            ValueError: when the Model has no metrics.
        """
        check_bool(dataset_sink_mode, "dataset_sink_mode", "Model.eval")
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        if isinstance(self._eval_network, GraphCell) and dataset_sink_mode:
            raise ValueError("Sink mode is currently not supported when evaluating with a GraphCell.")
        dataset = dataset_arg("Model.eval", "valid_dataset", valid_dataset)
        cbm = callback_module()
        cb_list = cbm._normalize_callbacks(callbacks)
        cbm._check_old_style_callbacks(cb_list, fit=False)
        cb = cbm._InternalCallbackParam()
        cb.eval_network = self._eval_network
        cb.valid_dataset = dataset
        cb.batch_num = self._steps_per_epoch(dataset)
        cb.mode = "eval"
        cb.cur_step_num = 0
        cb.list_callback = cb_list
        cb.network = self._network
        metrics, _ = self._run_eval(dataset, cb_list, cb, cbm.RunContext(cb))
        return metrics

    def _run_eval(self, dataset: Any, cb_list: list, cb: Any, run_context: Any,
                  track_loss: bool = False) -> tuple[dict, Any]:
        """One evaluation epoch with its callbacks; each batch is fetched before its step (sink mode too).

        Each evaluation builds a fresh pipeline that starts from its first epoch, as MindSpore's
        one-epoch eval iterator.
        """
        cbm = callback_module()
        net = self._eval_network
        engine = self._engine_of(net)
        net.set_train(False)
        self._backbone_is_train = False
        for m in self._metric_fns.values():
            m.clear()
        last_loss = None
        with cbm._CallbackManager(cb_list) as callbacks:
            cb.dataset_sink_mode = False
            callbacks.on_eval_begin(run_context)
            callbacks.on_eval_epoch_begin(run_context)
            for step in _engine.data_steps(engine, _engine.pipeline(dataset.to_tf_dataset())):
                cb.cur_step_num += 1
                cb.eval_dataset_element = step.batch
                callbacks.on_eval_step_begin(run_context)
                self._check_network_mode(net, False)
                outputs = step.run()
                cb.net_outputs = outputs
                callbacks.on_eval_step_end(run_context)
                self._update_metrics(outputs)
                if track_loss and self._eval_indexes is not None:
                    last_loss = outputs[self._eval_indexes[0]]
                if run_context.get_stop_requested():
                    break
            callbacks.on_eval_epoch_end(run_context)
            dataset.reset()
            metrics = {name: m.eval() for name, m in self._metric_fns.items()}
            cb.metrics = metrics
            if track_loss:
                # fit: metrics + 'eval_loss', set before on_eval_end. As in MindSpore 2.10 the eval-loss
                # metric only holds the last validation batch's loss (it is re-created every step).
                from tfspore.train.metrics import Loss
                results = dict(metrics)
                loss_metric = Loss()
                if last_loss is not None:
                    loss_metric.update(last_loss)
                    results["eval_loss"] = loss_metric.eval()
                else:
                    results["eval_loss"] = None
                cb.eval_results = results
            callbacks.on_eval_end(run_context)
        return metrics, last_loss

    def _update_metrics(self, outputs: Any) -> None:
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        idx = self._eval_indexes
        if idx is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        from tfspore.train.metrics import Loss
        for m in self._metric_fns.values():
            if idx is None:
                m.update(*outputs)
            elif isinstance(m, Loss):
                m.update(outputs[idx[0]])
            else:
                m.update(outputs[idx[1]], outputs[idx[2]])

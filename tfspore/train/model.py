"""``tfspore.train.Model``: MindSpore's high-level train / eval / fit / predict on TensorFlow.

Model builds the networks as MindSpore does (``WithLossCell`` + ``TrainOneStepCell``,
``WithEvalCell``), feeds them from a ``tf.data`` pipeline, and calls the callbacks in
MindSpore's order with MindSpore's ``cb_params``. In GRAPH_MODE each step runs one cached
``tf.function``; with ``dataset_sink_mode=True`` a sink of ``sink_size`` steps runs inside one
``tf.function`` loop (``DatasetHelper``), and the step callbacks fire once per sink. The steps
themselves run in the step engine (``tfspore/train/_engine.py``, through ``strategy.run`` of the
active ``tf.distribute`` strategy); this module holds the public API and the callback protocol.

``Model.eval`` lives in :mod:`tfspore.train._model_eval` and the parallel layout queries in
:mod:`tfspore.train._model_layout` (mixins of ``Model``); the argument checks they share in
:mod:`tfspore.train._model_args`.

Example:
    >>> # model = Model(net, loss_fn=loss, optimizer=opt, metrics={"acc"})
    >>> # model.train(2, ds_train, callbacks=[LossMonitor()])
    >>> # model.eval(ds_eval)
"""
from __future__ import annotations

import logging
from typing import Any

import numpy as np

from tfspore import context as _context
from tfspore._internal import runtime_check, validator
from tfspore.context import ParallelMode  # noqa: F401  (MindSpore 1.x path: mindspore.train.model.ParallelMode)
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell, GraphCell
from tfspore.nn.wrap.cell_wrapper import WithEvalCell, WithLossCell
from tfspore.train import _engine
from tfspore.train._model_args import callback_module, check_bool, check_int, dataset_arg
from tfspore.train._model_eval import ModelEval
from tfspore.train._model_layout import ModelLayouts
from tfspore.train.dataset_helper import DatasetHelper, _as_dataset, connect_network_with_dataset

__all__ = ["Model"]

_logger = logging.getLogger("tfspore")
_AMP_LEVELS = ["O0", "O1", "O2", "O3", "auto"]
_BOOST_LEVELS = ["O0", "O1", "O2"]
_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")


class Model(ModelEval, ModelLayouts):
    """High-level training and evaluation (``mindspore.train.Model``).

    Args:
        network: the network (a Cell).
        loss_fn: the loss Cell, or None when ``network`` computes the loss.
        optimizer: the optimizer, or None when ``network`` updates itself.
        metrics: a set of metric names or a dict of name to Metric, for ``eval``.
        eval_network: a custom evaluation network.
        eval_indexes: positions of (loss, outputs, label) in ``eval_network``'s outputs.
        amp_level: 'O0', 'O1', 'O2', 'O3' or 'auto': the ``level`` of
            :func:`tfspore.amp.build_train_network` (needs ``optimizer``). 'O2' and 'O3' compute the
            network in float16 (O2 keeps BatchNorm in float32 and scales the loss dynamically), 'O1'
            only the white-list cells and primitives; 'auto' is O2 on GPU, O3 in bfloat16 on TPU and
            MindSpore's operator-level strategy on CPU.
        boost_level: 'O0', 'O1' or 'O2'. 'O1' and 'O2' compile the training step with XLA
            (GRAPH_MODE); MindSpore's Ascend boost algorithms are not applied.
        **kwargs: ``loss_scale_manager``, ``keep_batchnorm_fp32``, ``boost_config_dict``,
            ``acc_level`` (deprecated alias of ``boost_level``).

    Raises:
        TypeError: when ``network`` is not a Cell or an argument has the wrong type.
        ValueError: for the invalid combinations MindSpore rejects.
    """

    def __init__(self, network: Cell, loss_fn: Cell | None = None, optimizer: Cell | None = None,
                 metrics: Any = None, eval_network: Cell | None = None, eval_indexes: list | None = None,
                 amp_level: str = "O0", boost_level: str = "O0", **kwargs: Any) -> None:
        for key in kwargs:
            if key not in _KWARGS:
                raise ValueError("The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' or "
                                 f"'boost_config_dict' or 'acc_level', but got '{key}'.")
        if "acc_level" in kwargs:
            _logger.warning("For 'Model', 'acc_level' is deprecated; use 'boost_level' instead.")
            boost_level = kwargs.pop("acc_level")
        if not isinstance(network, Cell):
            raise validator.type_error(network, "network", "Model", "a Cell")
        for name, value in (("loss_fn", loss_fn), ("optimizer", optimizer), ("eval_network", eval_network)):
            if value is not None and not isinstance(value, Cell) and not callable(value):
                raise validator.type_error(value, name, "Model", "a Cell or None")
        if amp_level != "O0" and optimizer is None:
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please set amp_level='O0' "
                             "to disable auto mixed precision or set 'optimizer' not be None to use auto mixed "
                             "precision.")
        # the levels after the optimizer, as MindSpore
        if amp_level not in _AMP_LEVELS:
            raise validator.value_error(amp_level, "amp_level", "Model", f"one of {_AMP_LEVELS}")
        if boost_level not in _BOOST_LEVELS:
            raise validator.value_error(boost_level, "boost_level", "Model", f"one of {_BOOST_LEVELS}")
        if kwargs.get("loss_scale_manager") is not None and optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        if isinstance(network, GraphCell) and (loss_fn is not None or optimizer is not None or kwargs):
            raise ValueError("For 'Model', when the 'network' is a GraphCell, 'loss_fn' and 'optimizer' must be None "
                             "and no kwargs may be given.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._loss_scale_manager_set = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        self._boost_config = kwargs.get("boost_config_dict")
        self._amp_level = amp_level
        self._boost_level = boost_level
        if metrics is not None and not isinstance(metrics, (dict, set)):
            raise validator.type_error(metrics, "metrics", "Model", "None, a dict or a set")
        self._metric_fns = self._get_metrics(metrics)
        if self._metric_fns and loss_fn is None and eval_network is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you don't "
                             "want an evaluation.\nIf evaluation is required, you need to specify `eval_network`, which "
                             "will be used in the framework to evaluate the model.\nFor the simple scenarios, "
                             "`loss_fn` can also be specified, and `eval_network` will be created automatically.")
        if eval_network is not None and eval_indexes is not None and not (
                isinstance(eval_indexes, list) and len(eval_indexes) == 3):
            raise ValueError("The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, length "
                             f"of it must be three. But got 'eval_indexes' {eval_indexes}")
        self._train_network = self._build_train_network()
        if network.jit_config_dict:
            self._train_network.set_jit_config(network.jit_config_dict)
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        self._build_eval_network()
        self._predict_network = network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self.batch_num = -1
        self._backbone_is_train = True
        self._build_epoch: int | None = None
        self._engines: dict = {}  # id(network) -> its StepEngine

    # ------------------------------------------------------------ building
    @staticmethod
    def _get_metrics(metrics: Any) -> dict:
        from tfspore.nn.metrics import get_metrics
        return get_metrics(metrics) or {}

    def _build_train_network(self) -> Cell:
        net, opt, loss = self._network, self._optimizer, self._loss_fn
        if opt is None:
            return WithLossCell(net, loss) if loss is not None else net
        # As MindSpore: every network with an optimizer is built by amp (O0 gives
        # TrainOneStepCell(WithLossCell(net, loss), opt)), which also checks the optimizer's type.
        from tfspore.train import amp
        kw = {}
        if self._loss_scale_manager_set:
            kw["loss_scale_manager"] = self._loss_scale_manager
        if self._keep_bn_fp32 is not None:
            kw["keep_batchnorm_fp32"] = self._keep_bn_fp32
        return amp.build_train_network(net, opt, loss, level=self._amp_level, boost_level=self._boost_level, **kw)

    def _build_eval_network(self) -> None:
        if not self._metric_fns:
            if self._eval_network is None:
                self._eval_indexes = None
            return
        if self._eval_network is None:
            self._eval_network = WithEvalCell(self._network, self._loss_fn,
                                              add_cast_fp32=self._amp_level in ("O2", "O3", "auto"))
            self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self) -> Cell:
        """The network ``train`` runs (e.g. ``TrainOneStepCell(WithLossCell(net, loss), opt)``)."""
        return self._train_network

    @property
    def eval_network(self) -> Cell | None:
        """The network ``eval`` runs (None without metrics)."""
        return self._eval_network

    @property
    def predict_network(self) -> Cell:
        """The network ``predict`` runs (the user network)."""
        return self._predict_network

    # ------------------------------------------------------------ helpers
    def _engine_of(self, network: Cell) -> _engine.StepEngine:
        """The step engine of ``network`` (kept across calls, so each step is traced once)."""
        engine = self._engines.get(id(network))
        if engine is None or engine.network is not network:
            engine = self._engines[id(network)] = _engine.StepEngine(network)
        return engine

    @staticmethod
    def _steps_per_epoch(dataset: Any) -> int:
        """The steps of one epoch of ``dataset``: its size, divided by the replicas under a strategy over
        the local devices (each replica takes its own batch)."""
        size = dataset.get_dataset_size()
        n = _engine.elements_per_step()
        return size // n if n > 1 and isinstance(size, int) and size > 0 else size

    def _check_network_mode(self, network: Cell, is_train: bool) -> Cell:
        """Switch the (shared) backbone between train and eval mode when the last switch was the other way.

        ``fit`` validates with the eval network, which shares its backbone with the train network:
        the next train step switches it back to train mode (BatchNorm, Dropout), as MindSpore does.
        """
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        return network

    def _check_element(self, element: list) -> None:
        if self._loss_fn is not None and len(element) != 2:
            raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return two elements, but got "
                             f"{len(element)}, please check the number of elements returned by 'train_dataset'")

    def _new_cb_params(self, epoch: int, initial_epoch: int, train_dataset: Any, callbacks: list,
                       batch_num: int) -> Any:
        cbm = callback_module()
        cb = cbm._InternalCallbackParam()
        cb.train_network = self._train_network
        cb.epoch_num = epoch - initial_epoch
        cb.batch_num = batch_num
        cb.cur_step_num = 0
        cb.mode = "train"
        cb.loss_fn = self._loss_fn
        cb.optimizer = self._optimizer
        cb.parallel_mode = _context.get_auto_parallel_context("parallel_mode")
        strategy = _engine.distributed_strategy()
        cb.device_number = strategy.num_replicas_in_sync if strategy else 1
        cb.train_dataset = train_dataset
        cb.list_callback = callbacks
        cb.train_dataset_element = None
        cb.network = self._network
        cb.last_save_ckpt_step = None
        cb.latest_ckpt_file = None
        cb.loss_scale_mananger = self._loss_scale_manager
        cb.initial_step = None
        return cb

    def _bind_dataset(self, dataset: Any) -> None:
        owner = getattr(dataset, "__model_hash__", None)
        if owner is not None and owner != hash(self):
            raise RuntimeError("The dataset object had been used in other model by model.train(...), please create a "
                               "new dataset.")
        try:
            dataset.__model_hash__ = hash(self)
        except AttributeError:
            pass

    def _exception_checkpoint(self, callbacks: Any) -> Any:
        from tfspore.train.callback import ModelCheckpoint
        found = None
        if isinstance(callbacks, ModelCheckpoint):
            found = callbacks
        elif isinstance(callbacks, list):
            for c in callbacks:
                if isinstance(c, ModelCheckpoint):
                    found = c
        if found is not None and getattr(getattr(found, "_config", None), "exception_save", False):
            return found
        return None

    # -------------------------------------------------------------- train
    def _validate_train(self, api: str, epoch: Any, train_dataset: Any, dataset_sink_mode: Any, sink_size: Any,
                        initial_epoch: Any) -> tuple[Any, int]:
        check_bool(dataset_sink_mode, "dataset_sink_mode", api)
        if isinstance(self._train_network, GraphCell) and dataset_sink_mode:
            raise ValueError("Dataset sink mode is currently not supported when training with a GraphCell.")
        if self._build_epoch is not None and epoch != self._build_epoch:
            raise ValueError("when use Model.build to initialize model, the value of parameter 'epoch' in Model.build "
                             f"should be equal to value in Model.train, but got {self._build_epoch} and {epoch} "
                             "separately.")
        validator.check_int(sink_size, "sink_size", api)
        check_int(epoch, "epoch", api)
        check_int(initial_epoch, "initial_epoch", api, positive=False)
        if initial_epoch < 0:
            raise ValueError(f"For '{api}', the 'initial_epoch' must be a non-negative int, but got {initial_epoch}.")
        if initial_epoch >= epoch:
            raise ValueError(f"For '{api}', the parameter 'epoch' must bigger than parameter 'initial_epoch', but got "
                             f"the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        dataset = dataset_arg(api, "train_dataset", train_dataset)
        size = self._steps_per_epoch(dataset)
        if size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For '{api}', The argument 'sink_size' must be -1 or positive, but got {sink_size}.")
        return dataset, (size if sink_size == -1 else sink_size)

    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train for ``epoch - initial_epoch`` epochs.

        Args:
            epoch: the final epoch index (the number of epochs when ``initial_epoch`` is 0).
            train_dataset: a tfspore dataset or ``tf.data.Dataset`` of (data, label) batches.
            callbacks: a Callback, a list of Callbacks (Keras callbacks are accepted), or None.
            dataset_sink_mode: run ``sink_size`` steps per compiled call (GRAPH_MODE).
            sink_size: steps per sink; -1 is the dataset size. Ignored without sink mode.
            initial_epoch: the epoch to start from.

        Raises:
            TypeError, ValueError, RuntimeError: as MindSpore for bad arguments.
        """
        dataset, sink = self._validate_train("Model.train", epoch, train_dataset, dataset_sink_mode, sink_size,
                                             initial_epoch)
        cbm = callback_module()
        cb_list = cbm._normalize_callbacks(callbacks)
        cbm._check_old_style_callbacks(cb_list, fit=False)
        self._train(epoch, dataset, cb_list, dataset_sink_mode, sink, initial_epoch, callbacks)

    def _train(self, epoch: int, dataset: Any, cb_list: list, sink_mode: bool, sink_size: int, initial_epoch: int,
               raw_callbacks: Any, valid: tuple | None = None) -> None:
        self._bind_dataset(dataset)
        self._train_network.set_train(True)
        self._backbone_is_train = True
        batch_num = sink_size if sink_mode else self._steps_per_epoch(dataset)
        cb = self._new_cb_params(epoch, initial_epoch, dataset, cb_list, batch_num)
        cbm = callback_module()
        run_context = cbm.RunContext(cb)
        run_context.start_epoch = initial_epoch  # on_train_begin may move it on (Keras's BackupAndRestore)
        ckpt_cb = self._exception_checkpoint(raw_callbacks)
        with cbm._CallbackManager(cb_list) as callbacks:
            try:
                self._train_epochs(epoch, dataset, callbacks, cb, run_context, sink_mode, sink_size, initial_epoch,
                                   valid)
            except BaseException as e:
                if ckpt_cb is not None and hasattr(ckpt_cb, "_save_breakpoint"):
                    ckpt_cb._save_breakpoint(cb)
                runtime_check.raise_runtime_error(e)  # a failed index check in a compiled loop: RuntimeError
                raise

    def _epoch_steps(self, dataset: Any, callbacks: Any, cb: Any, sink_mode: bool, sink_size: int,
                     epoch: int) -> tuple[Cell, Any, Any]:
        """The network a training runs, its DatasetHelper (sink mode) and a function giving each epoch's steps.

        Sink mode runs the DatasetHelper's connected network; otherwise, in GRAPH_MODE with one
        replica, the train network's step fetches its batch itself when it compiles that way, the
        dataset knows its size and no callback reads the batch at step begin; else each batch is
        fetched before its step. The pipeline is built once per training: each epoch iterates it
        again, as MindSpore's multi-epoch iterator runs the next epoch.
        """
        if sink_mode:
            cb.sink_size = sink_size
            cb.dataset_sink_mode = True
            helper = getattr(self, "_sink_helper", None)
            if helper is None or helper.dataset is not dataset or helper.sink_size() != sink_size:
                helper = DatasetHelper(dataset, dataset_sink_mode=True, sink_size=sink_size, epoch_num=epoch)
                self._sink_helper = helper
            net = connect_network_with_dataset(self._train_network, helper)
            return net, helper, lambda: _engine.sink_steps(net, helper.loop_size(), len(helper))
        cb.dataset_sink_mode = False
        net = self._train_network
        engine = self._engine_of(net)
        distributed = _engine.pipeline(dataset.to_tf_dataset())
        batch_num = cb.batch_num
        if (engine.may_step_on_iterator() and isinstance(batch_num, int) and batch_num > 0
                and not _engine.step_begin_reads_batch(callbacks.callbacks)):
            spec = distributed.element_spec
            self._check_element(list(spec) if isinstance(spec, tuple) else [spec])
            net._self_check()
            self._check_network_mode(net, True)
            if engine.can_step_on_iterator(spec):
                return net, None, _engine.epochs_of_iterator_steps(engine, distributed, batch_num)
        return net, None, lambda: _engine.data_steps(engine, distributed)

    def _train_epochs(self, epoch: int, dataset: Any, callbacks: Any, cb: Any, run_context: Any, sink_mode: bool,
                      sink_size: int, initial_epoch: int, valid: tuple | None) -> None:
        """The training's epochs and steps, with their callbacks in MindSpore's order.

        Without sink a stop request ends the epoch after the step; in sink mode it ends the
        training at the epoch's end. Only the non-sink loop updates a loss-scale manager on the
        host, as MindSpore.
        """
        net, helper, epoch_steps = self._epoch_steps(dataset, callbacks, cb, sink_mode, sink_size, epoch)
        callbacks.on_train_begin(run_context)
        for i in range(max(initial_epoch, run_context.start_epoch or 0), epoch):
            cb.cur_epoch_num = i + 1
            self._current_epoch_num = i + 1
            callbacks.on_train_epoch_begin(run_context)
            if helper is not None:
                cb.train_network = net
                cb.dataset_helper = helper
            for step in epoch_steps():
                if not sink_mode and step.batch is not None:
                    self._check_element(step.batch)
                cb.cur_step_num += step.count
                self._current_step_num = cb.cur_step_num
                if step.batch is not None:
                    cb.train_dataset_element = step.batch
                callbacks.on_train_step_begin(run_context)
                self._check_network_mode(net, True)
                outputs = step.run()
                if outputs is _engine.END:  # fewer batches than the dataset's size said
                    cb.cur_step_num -= step.count
                    self._current_step_num = cb.cur_step_num
                    break
                cb.net_outputs = outputs
                cb.train_dataset_element = step.batch
                if not sink_mode:
                    self._update_loss_scale(outputs)
                callbacks.on_train_step_end(run_context)
                if not sink_mode and run_context.get_stop_requested():
                    break
            self._end_epoch(dataset, callbacks, cb, run_context, valid, sink_mode)
            if run_context.get_stop_requested():
                break
        callbacks.on_train_end(run_context)

    def _end_epoch(self, dataset: Any, callbacks: Any, cb: Any, run_context: Any, valid: tuple | None,
                   sink_mode: bool) -> None:
        if valid is not None and self._due(cb.cur_epoch_num, valid[1]):
            self._validate_in_fit(cb, valid)
        if not sink_mode:
            dataset.reset()
        callbacks.on_train_epoch_end(run_context)
        cb.pop("metrics", None)
        cb.pop("eval_results", None)

    def _update_loss_scale(self, outputs: Any) -> None:
        """Non-sink loop: ``update_loss_scale(all(outputs[1]))`` on an explicitly passed manager that drops
        overflowed updates (MindSpore's host-side update, in addition to the in-graph update cell)."""
        mgr = self._loss_scale_manager  # a LossScaleManager: build_train_network checked it
        if mgr is None or not mgr.get_drop_overflow_update():
            return
        if isinstance(outputs, (tuple, list)) and len(outputs) > 1:
            overflow = outputs[1]
            mgr.update_loss_scale(bool(np.all(overflow.asnumpy() if isinstance(overflow, Tensor) else overflow)))

    # ---------------------------------------------------------------- fit
    @staticmethod
    def _due(cur_epoch: int, valid_frequency: Any) -> bool:
        if isinstance(valid_frequency, int):
            return cur_epoch % valid_frequency == 0
        return cur_epoch in valid_frequency

    def fit(self, epoch: int, train_dataset: Any, valid_dataset: Any = None, valid_frequency: Any = 1,
            callbacks: Any = None, dataset_sink_mode: bool = False, valid_dataset_sink_mode: bool = False,
            sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs.

        Args:
            epoch: the final epoch index.
            train_dataset: the training dataset.
            valid_dataset: the validation dataset, or None.
            valid_frequency: an int (every N epochs) or a list of epoch numbers.
            callbacks: as for :meth:`train`.
            dataset_sink_mode: sink mode for training.
            valid_dataset_sink_mode: sink mode for validation.
            sink_size: steps per sink.
            initial_epoch: the epoch to start from.

        Raises:
            TypeError, ValueError: as MindSpore for bad arguments.
        """
        dataset, sink = self._validate_train("Model.fit", epoch, train_dataset, dataset_sink_mode, sink_size,
                                             initial_epoch)
        if not isinstance(valid_frequency, (int, list)) or isinstance(valid_frequency, bool):
            raise TypeError("For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got type "
                            f"{type(valid_frequency)}.")
        if isinstance(valid_frequency, int) and valid_frequency <= 0:
            raise validator.value_error(valid_frequency, "valid_frequency", "Model.fit", "a positive int or a list")
        check_bool(valid_dataset_sink_mode, "valid_dataset_sink_mode", "Model.fit")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be"
                             "None or empty, you should set the argument 'metrics' for model.")
        cbm = callback_module()
        cb_list = cbm._normalize_callbacks(callbacks)
        cbm._check_old_style_callbacks(cb_list, fit=True)
        valid = None
        if valid_dataset is not None:
            valid = (_as_dataset("Model.fit", valid_dataset), valid_frequency, valid_dataset_sink_mode,
                     cbm._eval_callbacks_in_fit(cb_list))
        self._train(epoch, dataset, cb_list, dataset_sink_mode, sink, initial_epoch, callbacks, valid)

    def _validate_in_fit(self, cb: Any, valid: tuple) -> None:
        dataset, _, sink_mode, eval_cbs = valid
        saved = {k: cb.get(k) for k in ("mode", "cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")}
        had_outputs = "net_outputs" in cb
        cb.eval_network = self._eval_network
        cb.valid_dataset = dataset
        cb.mode = "eval"
        cb.batch_num = self._steps_per_epoch(dataset)
        cb.cur_step_num = 0
        cbm = callback_module()
        self._run_eval(dataset, eval_cbs, cb, cbm.RunContext(cb), track_loss=True)
        for k, v in saved.items():
            if k == "net_outputs" and not had_outputs:
                cb.pop("net_outputs", None)
            else:
                cb[k] = v

    # ------------------------------------------------------------ predict
    def predict(self, *predict_data: Any, backend: str | None = None, config: Any = None) -> Any:
        """Run the network in inference mode on ``predict_data``.

        Raises:
            ValueError: for a bad ``backend`` or an empty input.
            TypeError: for inputs that are not Tensors (or None, int, float, str, and sequences of them).
        """
        if backend not in (None, "lite"):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got {backend}.")
        for item in predict_data:
            _check_predict_item(item)
        net = self._check_network_mode(self._predict_network, False)
        net.set_grad(False)
        return self._engine_of(net).step_on_data(predict_data)

    # -------------------------------------------------------------- build
    def build(self, train_dataset: Any = None, valid_dataset: Any = None, sink_size: int = -1, epoch: int = 1,
              sink_mode: bool = True) -> None:
        """Trace and compile the train (and eval) step now, so the first epoch starts compiled.

        Raises:
            ValueError: when both datasets are None.
            RuntimeError: when ``valid_dataset`` is given without metrics.
        """
        if train_dataset is None and valid_dataset is None:
            raise ValueError("The argument 'train_dataset' and 'valid_dataset' can not both be None or empty.")
        if valid_dataset is not None and not self._metric_fns:
            raise RuntimeError("If define `valid_dataset`, metric fn can not be None or empty.")
        check_int(epoch, "epoch", "Model.build")
        if train_dataset is not None:
            dataset = _as_dataset("Model.build", train_dataset)
            self._train_network.set_train(True)
            self._engine_of(self._train_network).compile(dataset.to_tf_dataset().element_spec)
        if valid_dataset is not None:
            self._eval_network.set_train(False)
            self._engine_of(self._eval_network).compile(
                _as_dataset("Model.build", valid_dataset).to_tf_dataset().element_spec)
        self._build_epoch = epoch


def _check_predict_item(item: Any) -> None:
    if isinstance(item, (list, tuple)):
        for i in item:
            _check_predict_item(i)
        return
    if isinstance(item, dict):
        for i in item.values():
            _check_predict_item(i)
        return
    if item is None or isinstance(item, (int, float, str)):
        return
    if isinstance(item, Tensor):
        if item.size == 0:
            raise ValueError("The input data can not be empty.")
        return
    raise TypeError("The types of input data must be in the Union(Tensor, None, int, float, str, tuple[Tensor, None, "
                    "int, float, str], list[Tensor, None, int, float, str], dict[Tensor, None, int, float, str]), but "
                    f"got type {type(item).__name__}.")

"""A fake training loop that drives callbacks exactly as MindSpore's Model does.

It is parametrised by an "api" namespace (RunContext, _InternalCallbackParam, _CallbackManager,
eval_filter, Tensor) so that the same loop drives tfspore's callbacks and real MindSpore's
(parity tests). The network step is a function ``step_fn(cb_params) -> net_outputs``.
"""
from __future__ import annotations

import types
from typing import Any, Callable


def tfspore_api() -> types.SimpleNamespace:
    from tfspore.common.tensor import Tensor
    from tfspore.train.callback import _callback
    return types.SimpleNamespace(RunContext=_callback.RunContext, Param=_callback._InternalCallbackParam,
                                 Manager=_callback._CallbackManager, eval_filter=_callback._eval_callbacks_in_fit,
                                 Tensor=Tensor)


def mindspore_api() -> types.SimpleNamespace:
    import mindspore
    from mindspore.train import callback as ms_cb
    from mindspore.train.callback import TimeMonitor, __all__ as names

    def eval_filter(cbs: list) -> list:  # MindSpore's Model._train: internal names dropped, except TimeMonitor
        return [c for c in cbs if type(c).__name__ not in names or isinstance(c, TimeMonitor)]

    return types.SimpleNamespace(RunContext=ms_cb.RunContext, Param=ms_cb._InternalCallbackParam,
                                 Manager=ms_cb._CallbackManager, eval_filter=eval_filter, Tensor=mindspore.Tensor)


def loss_steps(api: types.SimpleNamespace, losses: list) -> Callable:
    """A step function returning ``Tensor(float32 loss)`` from ``losses`` (indexed by global step)."""
    import numpy as np

    def step(cb: Any) -> Any:
        return api.Tensor(np.array(losses[(cb.cur_step_num - 1) % len(losses)], np.float32))
    return step


def fake_eval(api: types.SimpleNamespace, callbacks: Any, cb: Any, steps: int, step_fn: Callable,
              metrics: dict, eval_loss: float | None = None) -> dict:
    """MindSpore's ``_eval_process`` on ``cb`` (a fresh dict for Model.eval, the train dict in fit)."""
    run_context = api.RunContext(cb)
    with api.Manager(callbacks) as list_callback:
        cb.dataset_sink_mode = False
        list_callback.on_eval_begin(run_context)
        list_callback.on_eval_epoch_begin(run_context)
        for _ in range(steps):
            cb.cur_step_num += 1
            cb.eval_dataset_element = []
            list_callback.on_eval_step_begin(run_context)
            cb.net_outputs = step_fn(cb)
            list_callback.on_eval_step_end(run_context)
            if run_context.get_stop_requested():
                break
        list_callback.on_eval_epoch_end(run_context)
        cb.metrics = dict(metrics)
        if eval_loss is not None:
            cb.eval_results = dict(metrics, eval_loss=eval_loss)
        list_callback.on_eval_end(run_context)
    return cb.metrics


def model_eval(api: types.SimpleNamespace, callbacks: Any, steps: int, step_fn: Callable, metrics: dict,
               network: Any = None) -> Any:
    """``Model.eval``: a fresh cb_params dict in eval mode."""
    cb = api.Param()
    cb.eval_network = network
    cb.valid_dataset = None
    cb.batch_num = steps
    cb.mode = "eval"
    cb.cur_step_num = 0
    cb.list_callback = callbacks if isinstance(callbacks, list) else [callbacks]
    cb.network = network
    fake_eval(api, callbacks, cb, steps, step_fn, metrics)
    return cb


def fake_train(api: types.SimpleNamespace, callbacks: Any, epoch: int, steps_per_epoch: int, step_fn: Callable,
               initial_epoch: int = 0, batch_num: int | None = None, train_network: Any = None,
               optimizer: Any = None, network: Any = None, valid: dict | None = None,
               sink_size: int | None = None, log: list | None = None) -> Any:
    """MindSpore's ``_train_process`` (non-sink) or, with ``sink_size``, the graph-sink loop.

    ``valid`` runs a fit-style validation: ``{"steps": n, "frequency": k, "metrics": {...},
    "eval_loss": x, "step_fn": f}``. ``log`` (a list) records ``(hook, cur_step_num)``.
    """
    cb_list = callbacks if isinstance(callbacks, list) else ([] if callbacks is None else [callbacks])
    cb = api.Param()
    cb.train_network = train_network
    cb.epoch_num = epoch - initial_epoch
    cb.batch_num = batch_num if batch_num is not None else (sink_size or steps_per_epoch)
    cb.cur_step_num = 0
    cb.mode = "train"
    cb.loss_fn = None
    cb.optimizer = optimizer
    cb.parallel_mode = "stand_alone"
    cb.device_number = 1
    cb.train_dataset = None
    cb.list_callback = cb_list
    cb.train_dataset_element = None
    cb.network = network
    cb.last_save_ckpt_step = None
    cb.latest_ckpt_file = None
    cb.loss_scale_mananger = None
    cb.initial_step = None
    run_context = api.RunContext(cb)

    def note(name: str) -> None:
        if log is not None:
            log.append((name, cb.cur_step_num))

    with api.Manager(callbacks) as list_callback:
        cb.dataset_sink_mode = sink_size is not None
        if sink_size is not None:
            cb.sink_size = sink_size
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb.cur_epoch_num = i + 1
            list_callback.on_train_epoch_begin(run_context)
            sinks = 1 if sink_size is not None else steps_per_epoch
            for _ in range(sinks):
                cb.cur_step_num += sink_size if sink_size is not None else 1
                cb.train_dataset_element = [] if sink_size is not None else [None, None]
                list_callback.on_train_step_begin(run_context)
                cb.net_outputs = step_fn(cb)
                note("step")
                list_callback.on_train_step_end(run_context)
                if sink_size is None and run_context.get_stop_requested():
                    break
            if valid is not None and (i + 1) % valid.get("frequency", 1) == 0:
                saved = {k: cb[k] for k in ("mode", "cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")}
                cb.eval_network = network
                cb.valid_dataset = None
                cb.mode = "eval"
                cb.batch_num = valid["steps"]
                cb.cur_step_num = 0
                fake_eval(api, api.eval_filter(list_callback._callbacks), cb, valid["steps"],
                          valid.get("step_fn", step_fn), valid["metrics"], valid.get("eval_loss", 0.5))
                cb.update(saved)
            list_callback.on_train_epoch_end(run_context)
            note("epoch_end")
            cb.pop("metrics", None)
            cb.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)
    return cb

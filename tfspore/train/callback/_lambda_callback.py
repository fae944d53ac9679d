"""LambdaCallback: a callback made of plain functions."""
from __future__ import annotations

from typing import Callable, Optional

from tfspore.train.callback._callback import Callback

_Fn = Optional[Callable]


def _noop(run_context):  # noqa: ANN001, ANN202
    return None


class LambdaCallback(Callback):
    """Build a callback from functions of ``run_context``.

    Each function is stored as the instance attribute of the hook of the same name, so it runs
    during ``Model.train``, ``Model.eval`` and ``Model.fit`` (as a built-in callback it is left
    out of ``fit``'s validation, as in MindSpore).

    The old hook names (``epoch_begin``, ``epoch_end``, ``step_begin``, ``step_end``, ``begin``,
    ``end``) of earlier MindSpore versions are accepted as keywords too; they run in train and
    eval alike, through the new names that are not given.

    Args:
        on_train_epoch_begin: called at each train epoch begin. Default: None.
        on_train_epoch_end: called at each train epoch end. Default: None.
        on_train_step_begin: called at each train step begin. Default: None.
        on_train_step_end: called at each train step end. Default: None.
        on_train_begin: called at the beginning of training. Default: None.
        on_train_end: called at the end of training. Default: None.
        on_eval_epoch_begin: called at each eval epoch begin. Default: None.
        on_eval_epoch_end: called at each eval epoch end. Default: None.
        on_eval_step_begin: called at each eval step begin. Default: None.
        on_eval_step_end: called at each eval step end. Default: None.
        on_eval_begin: called at the beginning of evaluation. Default: None.
        on_eval_end: called at the end of evaluation. Default: None.
        **old_names: ``epoch_begin``, ``epoch_end``, ``step_begin``, ``step_end``, ``begin``, ``end``.

    Raises:
        TypeError: for another keyword.

    Example:
        >>> lambda_callback = LambdaCallback(
        ...     on_train_epoch_end=lambda run_context: print("loss:", run_context.original_args().net_outputs))
        >>> model.train(2, train_dataset, callbacks=[lambda_callback])  # doctest: +SKIP
        loss: 1.6127687
        loss: 1.6106578
    """

    _OLD = {"epoch_begin": ("on_train_epoch_begin", "on_eval_epoch_begin"),
            "epoch_end": ("on_train_epoch_end", "on_eval_epoch_end"),
            "step_begin": ("on_train_step_begin", "on_eval_step_begin"),
            "step_end": ("on_train_step_end", "on_eval_step_end"),
            "begin": ("on_train_begin", "on_eval_begin"),
            "end": ("on_train_end", "on_eval_end")}

    def __init__(self, on_train_epoch_begin: _Fn = None, on_train_epoch_end: _Fn = None,
                 on_train_step_begin: _Fn = None, on_train_step_end: _Fn = None, on_train_begin: _Fn = None,
                 on_train_end: _Fn = None, on_eval_epoch_begin: _Fn = None, on_eval_epoch_end: _Fn = None,
                 on_eval_step_begin: _Fn = None, on_eval_step_end: _Fn = None, on_eval_begin: _Fn = None,
                 on_eval_end: _Fn = None, **old_names: _Fn) -> None:
        super().__init__()
        unknown = set(old_names) - set(self._OLD)
        if unknown:
            raise TypeError(f"LambdaCallback.__init__() got an unexpected keyword argument "
                            f"'{sorted(unknown)[0]}'.")
        given = {"on_train_epoch_begin": on_train_epoch_begin, "on_train_epoch_end": on_train_epoch_end,
                 "on_train_step_begin": on_train_step_begin, "on_train_step_end": on_train_step_end,
                 "on_train_begin": on_train_begin, "on_train_end": on_train_end,
                 "on_eval_epoch_begin": on_eval_epoch_begin, "on_eval_epoch_end": on_eval_epoch_end,
                 "on_eval_step_begin": on_eval_step_begin, "on_eval_step_end": on_eval_step_end,
                 "on_eval_begin": on_eval_begin, "on_eval_end": on_eval_end}
        for old, fn in old_names.items():
            if fn:
                for new in self._OLD[old]:
                    if not given[new]:
                        given[new] = fn
        for name, fn in given.items():
            setattr(self, name, fn if fn else _noop)

    @property
    def _step_begin_reads_batch(self) -> bool:
        # a train step-begin function may read cb_params.train_dataset_element: fetch the batch before it
        return self.on_train_step_begin is not _noop

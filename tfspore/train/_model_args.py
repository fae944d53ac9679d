"""Argument checks and lookups shared by :class:`tfspore.train.Model` and its mixins.

``Model`` (:mod:`tfspore.train.model`), its evaluation (:mod:`tfspore.train._model_eval`) and its
parallel layouts (:mod:`tfspore.train._model_layout`) check their arguments the same way; the
checks live here so that each of those modules imports them rather than one another. The messages
come from :mod:`tfspore._internal.validator`.
"""
from __future__ import annotations

from typing import Any

from tfspore._internal import validator
from tfspore.train.dataset_helper import _as_dataset


def check_int(value: Any, name: str, api: str, positive: bool = True) -> int:
    """``value`` as a positive int (non-negative with ``positive=False``), or MindSpore's error."""
    return (validator.check_positive_int if positive else validator.check_non_negative_int)(value, name, api)


def check_bool(value: Any, name: str, api: str) -> bool:
    """``value`` when it is a Python bool, else a TypeError naming ``api`` and ``name``."""
    if not isinstance(value, bool):  # a numpy bool is not accepted here, as MindSpore
        raise validator.type_error(value, name, api, "a bool")
    return value


def dataset_arg(api: str, name: str, dataset: Any) -> Any:
    """``dataset`` as a tfspore Dataset; TypeError naming ``api`` and the argument ``name`` otherwise."""
    try:
        return _as_dataset(api, dataset)
    except TypeError:
        raise validator.type_error(dataset, name, api, "a tfspore dataset or a tf.data.Dataset") from None


def callback_module() -> Any:
    """The module of the callback dispatch (:mod:`tfspore.train.callback._callback`), imported when first used."""
    from tfspore.train.callback import _callback
    return _callback

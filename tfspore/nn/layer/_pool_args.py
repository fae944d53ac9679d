"""Argument helpers shared by the pooling layers (``tfspore.nn.layer.pooling`` and its adaptive pools).
"""
from __future__ import annotations

import numbers
from typing import Any

import tensorflow as tf


def _pair(v: Any) -> tuple[int, int]:
    return (v, v) if isinstance(v, numbers.Integral) else (v[0], v[1]) if len(v) == 2 else (v[0], v[0])


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _check_rank(name: str, v: tf.Tensor, ranks: tuple) -> None:
    if v.shape.rank not in ranks:
        dims = " or ".join(str(r) for r in ranks)
        raise ValueError(f"For '{name}', the input must be a {dims}-D tensor, but got shape "
                         f"{tuple(v.shape.as_list()) if v.shape.rank is not None else None}.")

"""Policy transforms: ``RandomSelectSubpolicy`` and ``UniformAugment``.

Both choose among transforms with stateless random draws and apply them through
``tf.switch_case`` / ``tf.cond``, so a whole AutoAugment-style policy runs inside the ``tf.data``
graph. Every member must keep the image's dtype and rank (each column has one dtype).
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple

import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms.transforms import check_transforms_list
from tfspore.dataset.transforms._base import ImageTensorOperation, apply_op

__all__ = ["RandomSelectSubpolicy", "UniformAugment"]


def _check_member(op: Any, name: str, api: str) -> None:
    if isinstance(op, type) or not (callable(op) or hasattr(op, "_tf_apply")):
        raise TypeError(f"For '{api}', {name} should be a transform instance or a callable, but got {op!r}.")


def _apply_one(op: Any, image: tf.Tensor) -> tf.Tensor:
    return apply_op(op, (image,))[0]


class RandomSelectSubpolicy(ImageTensorOperation):
    """Choose one sub-policy uniformly; apply its ``(op, prob)`` steps in order, each with probability `prob`.

    Args:
        policy: A non-empty list of sub-policies; each a non-empty list of ``(op, prob)`` tuples.

    Raises:
        TypeError: If `policy` is malformed.
        ValueError: If a list is empty or a probability is outside [0, 1].

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> op = vision.RandomSelectSubpolicy([[(vision.Invert(), 1.0)]])
        >>> op(np.array([[[0, 255, 5]]], np.uint8)).tolist()
        [[[255, 0, 250]]]
    """

    _tf_random = True

    def __init__(self, policy: List[List[Tuple[Any, float]]]) -> None:
        super().__init__()
        api = "RandomSelectSubpolicy"
        c.check_type(policy, (list,), "policy", api)
        if not policy:
            raise ValueError(f"For '{api}', policy can not be empty, but got {policy!r}.")
        for i, sub in enumerate(policy):
            c.check_type(sub, (list,), f"policy[{i}]", api)
            if not sub:
                raise ValueError(f"For '{api}', policy[{i}] can not be empty, but got {sub!r}.")
            for j, step in enumerate(sub):
                if not (isinstance(step, tuple) and len(step) == 2):
                    raise TypeError(f"For '{api}', policy[{i}][{j}] should be a tuple (op, prob) of length 2, "
                                    f"but got {step!r}.")
                _check_member(step[0], f"the op of (op, prob) in policy[{i}][{j}]", api)
                c.check_type(step[1], (int, float), f"prob of (op, prob) policy[{i}][{j}]", api)
                c.check_range(step[1], f"prob of (op, prob) policy[{i}][{j}]", api, 0.0, 1.0)
        self.policy = [[(op, float(prob)) for op, prob in sub] for sub in policy]

    def _run_sub(self, sub: Sequence[Tuple[Any, float]], image: tf.Tensor) -> tf.Tensor:
        x = image
        for op, prob in sub:
            if prob <= 0.0:
                continue
            if prob >= 1.0:
                x = _apply_one(op, x)
            else:
                x = tf.cond(self._bernoulli(prob), lambda op=op, x=x: _apply_one(op, x), lambda x=x: tf.identity(x))
        return x

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        if len(self.policy) == 1:
            return self._run_sub(self.policy[0], image)
        index = self._uniform((), 0, len(self.policy), dtype=tf.int32)
        branches = [lambda sub=sub: self._run_sub(sub, image) for sub in self.policy]
        return tf.switch_case(index, branches)


class UniformAugment(ImageTensorOperation):
    """Apply `num_ops` transforms chosen uniformly without replacement, in their list order.

    Args:
        transforms: A non-empty list of transforms.
        num_ops: How many to apply (at most ``len(transforms)``).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> op = vision.UniformAugment([vision.Invert()], num_ops=1)
        >>> op(np.array([[[0, 255, 5]]], np.uint8)).tolist()
        [[[255, 0, 250]]]
    """

    _tf_random = True

    def __init__(self, transforms: List[Any], num_ops: int = 2) -> None:
        super().__init__()
        api = "UniformAugment"
        check_transforms_list(transforms, api)
        c.check_type(num_ops, (int,), "num_ops", api)
        c.check_range(num_ops, "num_ops", api, 1, len(transforms))
        self.transforms = list(transforms)
        self.num_ops = num_ops

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        n = len(self.transforms)
        ranks = tf.argsort(tf.argsort(self._uniform([n])))
        chosen = ranks < self.num_ops  # a uniform subset of size num_ops
        x = image
        for i, op in enumerate(self.transforms):
            x = tf.cond(chosen[i], lambda op=op, x=x: _apply_one(op, x), lambda x=x: tf.identity(x))
        return x

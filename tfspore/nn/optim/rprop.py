"""``Rprop``: resilient backpropagation (MindSpore's ``nn.Rprop``).

Per parameter, from the sign of ``g * prev`` (the previous step's gradient)::

    factor = etaplus (same sign), etaminus (sign change), 1 (a zero)
    step_size = clip(step_size * factor, min_step, max_step)    (the first step starts from lr)
    g' = 0 where the sign changed, else g
    param -= sign(g') * step_size;  prev = g'

The state Parameters are ``prev.<name>`` and ``step_size.<name>``, as in MindSpore.

Example:
    >>> from tfspore import nn
    >>> opt = nn.Rprop(nn.Dense(3, 2).trainable_params())
    >>> [p.name for p in opt.get_parameters()][4:]
    ['prev.weight', 'prev.bias', 'step_size.weight', 'step_size.bias']
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import validator
from tfspore.nn.optim._step import apply_each, check_grads_tuple
from tfspore.nn.optim.optimizer import Optimizer, cast_tf, success_flag, opt_init_args_register

__all__ = ["Rprop"]


def _apply_rprop(var: tf.Variable, prev: tf.Variable, step_size: tf.Variable, lr: tf.Tensor, grad: Any,
                 first: tf.Tensor, etaminus: float, etaplus: float, step_size_min: float, step_size_max: float) -> Any:
    dt = var.dtype if var.dtype in (tf.float16, tf.bfloat16) else tf.float32
    lr = cast_tf(lr, dt)
    size = tf.where(first, tf.ones_like(cast_tf(step_size, dt)) * lr, cast_tf(step_size, dt))
    g = cast_tf(grad, dt)
    sign = tf.sign(g * cast_tf(prev, dt))
    factor = tf.where(sign > 0, tf.constant(etaplus, dt),
                      tf.where(sign < 0, tf.constant(etaminus, dt), tf.constant(1.0, dt)))
    size = tf.clip_by_value(size * factor, tf.constant(step_size_min, dt), tf.constant(step_size_max, dt))
    g_update = tf.where(tf.equal(factor, tf.constant(etaminus, dt)), tf.zeros_like(g), g)
    new_param = cast_tf(var, dt) - tf.sign(g_update) * size
    ops = [var.assign(cast_tf(new_param, var.dtype), read_value=False),
           prev.assign(cast_tf(g_update, prev.dtype), read_value=False),
           step_size.assign(cast_tf(size, step_size.dtype), read_value=False)]
    return success_flag(ops)


class Rprop(Optimizer):
    """The Rprop optimizer.

    Args:
        params: a list of Parameters or of parameter-group dicts.
        learning_rate: the initial step size (a float, list, Tensor or schedule).
        etas: ``(etaminus, etaplus)`` with ``0 < etaminus < 1 < etaplus``.
        step_sizes: ``(min_step, max_step)`` floats.
        weight_decay: a number, or a Cell of ``global_step``.

    Inputs:
        gradients: a tuple of Tensors, one per parameter.

    Outputs:
        A tuple of success flags, one per parameter.

    Raises:
        TypeError: when ``etas`` or ``step_sizes`` is not a tuple, or an item is not a float.
        ValueError: for a tuple of the wrong size or values out of range.

    Example:
        >>> opt = nn.Rprop(net.trainable_params(), learning_rate=0.01)  # doctest: +SKIP
    """

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 0.1, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50.0), weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise TypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise ValueError(f"For Rprop, etas must be a tuple with the size of 2, but got {len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise TypeError(f"For Rprop, step_sizes must be a tuple, but got {type(etas)}.")
        if len(step_sizes) != 2:
            raise ValueError(f"For Rprop, step_sizes must be a tuple with the size of 2, but got {len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal step size, but got "
                             f"{step_sizes[0]} > {step_sizes[1]}.")
        validator.check_float_range(etas[0], "etaminus", self.cls_name, 0.0, 1.0, inc_low=False, inc_high=False,
                                    allow_int=False)
        validator.check_type(etas[1], [float], "etaplus", self.cls_name)
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etas[1]}.")
        validator.check_type(step_sizes[0], [float], "min_step_sizes", self.cls_name)
        validator.check_type(step_sizes[1], [float], "max_step_sizes", self.cls_name)
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self.parameters.clone(prefix="prev", init="zeros")
        self.step_size = self.parameters.clone(prefix="step_size", init="zeros")

    def construct(self, gradients: Sequence[Any]) -> tuple:
        check_grads_tuple(gradients, "Rprop", "gradients")
        gradients = self._prepare_gradients(gradients)
        lr = self.get_lr()
        first = tf.equal(self._increased_step(), 1)
        return apply_each(self, _apply_rprop, gradients, lr, self.prev, self.step_size, first=first,
                          etaminus=self.etaminus, etaplus=self.etaplus, step_size_min=self.step_size_min,
                          step_size_max=self.step_size_max)

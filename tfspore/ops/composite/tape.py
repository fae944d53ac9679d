"""The gradient tape every differentiation runs on: :func:`differentiate` and :func:`apply_param_hooks`.

``GradOperation``, ``grad``, ``value_and_grad`` and ``vjp`` (``tfspore/ops/composite/_grad.py``)
and the training wrappers of ``nn`` (``ForwardValueAndGrad``, ``TrainOneStepCell``) all take
their gradients here, so Parameter hooks (``Parameter.register_hook``), the zeros of unconnected
inputs and the float-status record of the NPU loss-scale pattern apply the same way to each.
Everything rides on one ``tf.GradientTape`` that watches the requested inputs and the
``tf.Variable`` of each requested Parameter, eagerly (PYNATIVE_MODE) and inside a traced
``tf.function`` (GRAPH_MODE), where the backward pass is part of the same graph.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor
    >>> out, in_grads, _ = differentiate(lambda x: (x * x).sum(), [Tensor(np.array([3.0], np.float32))], [0], [])
    >>> in_grads[0].numpy()
    array([6.], dtype=float32)
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

import numpy as np
import tensorflow as tf

from tfspore._internal import control_flow as _control_flow
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.ops import _float_status

__all__ = ["differentiate", "apply_param_hooks"]


def _is_diff_input(x: Any) -> bool:
    return isinstance(x, (Tensor, tf.Tensor, tf.Variable, np.ndarray)) and not isinstance(x, Parameter)


def _prepare_inputs(inputs: Sequence[Any], positions: Sequence[int]) -> tuple[list, dict[int, tf.Tensor]]:
    call = list(inputs)
    watched: dict[int, tf.Tensor] = {}
    for i in positions:
        x = inputs[i]
        if not _is_diff_input(x):
            continue
        t = tf.convert_to_tensor(_unwrap_nest(x))
        watched[i] = t
        call[i] = Tensor._from_tf(t)
    return call, watched


def apply_param_hooks(weights: list[Parameter], grads: list[tf.Tensor]) -> list[tf.Tensor]:
    """The gradients ``grads`` of ``weights`` after each Parameter's hooks (``Parameter.register_hook``), in
    registration order; a hook returning None leaves the gradient as it is."""
    out = []
    for w, g in zip(weights, grads):
        for fn in getattr(w, "_hook_fns", ()):
            res = fn(Tensor._from_tf(g))
            if res is not None:
                g = tf.convert_to_tensor(_unwrap_nest(res))
        out.append(g)
    return out


def differentiate(fn: Callable, inputs: Sequence[Any], positions: Sequence[int], weights: list[Parameter],
                  sens: Any = None, has_aux: bool = False) -> tuple[Any, list, list]:
    """Run ``fn(*inputs)`` under a tape; return (outputs, input grads by position, weight grads).

    Args:
        fn: a Cell or a function.
        inputs: its positional inputs.
        positions: the positions of the inputs to differentiate (a non-Tensor input gets None, an input
            the output does not depend on gets zeros).
        weights: the Parameters to differentiate (their hooks applied).
        sens: the gradient of the output (ones when None).
        has_aux: ``fn`` returns ``(output, aux...)`` and only ``output`` is differentiated.
    """
    call, watched = _prepare_inputs(inputs, positions)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        for t in watched.values():
            tape.watch(t)
        for w in weights:
            tape.watch(w._var)
        out = _control_flow.call(fn, tuple(call), {}) if inspect.isroutine(fn) else fn(*call)
    target = out
    if has_aux:
        if not isinstance(out, (tuple, list)) or len(out) < 1:
            raise TypeError("When 'has_aux' is True, the function must return a tuple whose first item is "
                            f"differentiated, but got {type(out).__name__}.")
        target = out[0]
    targets = [tf.convert_to_tensor(t) for t in tf.nest.flatten(_unwrap_nest(target))]
    targets = [t for t in targets if t.dtype.is_floating or t.dtype.is_complex]
    out_grads = None
    if sens is not None:
        out_grads = [tf.cast(tf.convert_to_tensor(s), t.dtype) for s, t in
                     zip(tf.nest.flatten(_unwrap_nest(sens)), targets)]
    sources = [watched[i] for i in positions if i in watched] + [w._var for w in weights]
    if not sources:
        return out, [], []
    grads = tape.gradient(targets, sources, output_gradients=out_grads,
                          unconnected_gradients=tf.UnconnectedGradients.ZERO)
    n = len([i for i in positions if i in watched])
    in_grads: list = []
    it = iter(grads[:n])
    for i in positions:
        if i in watched:
            g = next(it)
            if isinstance(g, tf.IndexedSlices):
                g = tf.convert_to_tensor(g)
            in_grads.append(g)
        else:
            in_grads.append(tf.zeros_like(tf.convert_to_tensor(_unwrap_nest(inputs[i])))
                            if isinstance(inputs[i], (Tensor, tf.Tensor)) else None)
    w_grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in grads[n:]]
    w_grads = apply_param_hooks(weights, w_grads)
    _float_status.record(targets + in_grads + w_grads)  # read by NPUGetFloatStatus after NPUClearFloatStatus
    return out, in_grads, w_grads

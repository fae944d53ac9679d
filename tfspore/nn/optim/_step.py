"""The per-step skeleton every optimizer of :mod:`tfspore.nn.optim` shares.

An optimizer's ``construct`` opens the step the same way (gradients prepared, learning rate read,
``global_step`` increased: :func:`begin_step`) and then runs one kernel per parameter over its state
Parameters (:func:`apply_each`); only the kernel differs between optimizers. Keeping the loop here
keeps the order of those steps, which MindSpore fixes, in one place.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, nn
    >>> opt = nn.SGD(nn.Dense(3, 2).trainable_params(), learning_rate=0.5)
    >>> grads, lr = begin_step(opt, tuple(Tensor(np.ones(p.shape, np.float32)) for p in opt.parameters))
    >>> int(opt.global_step.asnumpy()[0]), float(lr.asnumpy())
    (1, 0.5)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import tensorflow as tf

from tfspore.common.tensor import Tensor

if TYPE_CHECKING:
    from tfspore.nn.optim.optimizer import Optimizer

__all__: list[str] = []


def begin_step(opt: Optimizer, gradients: Sequence[Any], centralize: bool = True) -> tuple[tuple, Any]:
    """Open ``opt``'s step as MindSpore's optimizers do: prepare the gradients (weight decay,
    centralization unless ``centralize`` is False, loss scale), read the learning rate, then
    increase ``global_step``.

    Returns:
        ``(gradients, lr)``, ``lr`` as :meth:`Optimizer.get_lr` gives it.
    """
    gradients = opt._prepare_gradients(gradients, centralize)  # pylint: disable=protected-access
    lr = opt.get_lr()
    opt._increase_global_step()  # pylint: disable=protected-access
    return gradients, lr


def apply_each(opt: Optimizer, kernel: Callable, gradients: Sequence[Any], lr: Any, *slots: Any,
               weight_decay: Any = None, **hyper: Any) -> tuple:
    """Run one parameter's update ``kernel`` on every parameter of ``opt``, in order.

    Each call is ``kernel(var, *slot_vars, lr=lr_i, grad=grad, **hyper)``, where ``slot_vars`` are
    the parameter's entries of ``slots`` (None where a slot is None) and ``lr_i`` its float32
    learning rate; with ``weight_decay`` (:meth:`Optimizer.get_weight_decay`'s value) the kernel
    also gets the parameter's ``weight_decay`` (0 where its decay flag is off).

    Returns:
        The kernels' success flags, one per parameter.
    """
    # pylint: disable=protected-access
    flags = []
    for i, (param, grad) in enumerate(zip(opt._parameters, gradients)):
        if weight_decay is not None:
            hyper["weight_decay"] = opt._weight_decay_for(weight_decay, i)
        slot_vars = [None if slot is None else slot[i]._var for slot in slots]
        flags.append(kernel(param._var, *slot_vars, lr=opt._lr_for(lr, i), grad=grad, **hyper))
    return tuple(flags)


def check_grads_tuple(grads: Any, cls_name: str, arg_name: str) -> None:
    """Raise MindSpore's TypeError unless ``grads`` is a tuple whose first item is a Tensor."""
    if not isinstance(grads, tuple) or not isinstance(grads[0], (Tensor, tf.Tensor)):
        raise TypeError(f"For '{cls_name}', the '{arg_name}' must be a tuple of Tensor.")

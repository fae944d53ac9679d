"""``mindspore.nn.thor``: the THOR second-order optimizer's entry point, not implemented on TensorFlow.

MindSpore builds THOR from Ascend/GPU-specific fused matrix kernels and Thor variants of Dense, Conv2d
and Embedding. tfspore does not implement it yet: :func:`thor` raises :class:`NotImplementedError`,
and scripts that pick THOR by a config flag run with their other optimizer choices.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["thor"]


def thor(net: Any, learning_rate: Any, damping: Any, momentum: float, weight_decay: float = 0.0,
         loss_scale: float = 1.0, batch_size: int = 32, use_nesterov: bool = False,
         decay_filter: Callable = lambda x: x.name not in [], split_indices: Any = None,
         enable_clip_grad: bool = False, frequency: int = 100) -> Any:
    """Create MindSpore's THOR optimizer: not implemented by tfspore.

    Args:
        net: the network to train.
        learning_rate: the learning rate (a Tensor of per-step values).
        damping: the damping (a Tensor of per-step values).
        momentum: the momentum.
        weight_decay: weight decay.
        loss_scale: the loss scale.
        batch_size: the batch size.
        use_nesterov: whether to use Nesterov momentum.
        decay_filter: which parameters weight decay applies to.
        split_indices: all-reduce split indices.
        enable_clip_grad: whether to clip gradients.
        frequency: how often the second-order matrices are updated.

    Raises:
        NotImplementedError: always.

    Example:
        >>> thor(net, lr, damping, 0.9)
        Traceback (most recent call last):
        NotImplementedError: For 'thor', the THOR second-order optimizer is not implemented by tfspore; ...
    """
    del net, learning_rate, damping, momentum, weight_decay, loss_scale, batch_size, use_nesterov, decay_filter
    del split_indices, enable_clip_grad, frequency
    raise NotImplementedError("For 'thor', the THOR second-order optimizer (mindspore.nn.thor) is not implemented by "
                              "tfspore; use a first-order optimizer such as nn.Momentum (the zoo's ResNet and BERT "
                              "scripts pick it by their 'optimizer' config option).")

"""``tfspore.experimental.optim``: MindSpore's PyTorch-style optimizers (``mindspore.experimental.optim``).

``Optimizer`` keeps ``param_groups`` (a list of dicts with ``'params'`` and per-group options
such as ``'lr'``), ``defaults`` and ``add_param_group``; ``AdamW``, ``Adam`` and ``SGD`` update
the Parameters from a tuple of gradients, ``optimizer(grads)``.

Example:
    >>> import tfspore as ms
    >>> from tfspore import nn
    >>> from tfspore.experimental import optim
    >>> net = nn.Dense(3, 2)
    >>> optimizer = optim.AdamW(net.trainable_params(), lr=1e-3)
    >>> grad_fn = ms.value_and_grad(lambda x, y: nn.MSELoss()(net(x), y), None, optimizer.parameters)
"""
from tfspore.experimental.optim import adam, adamw, optimizer, sgd  # noqa: F401
from tfspore.experimental.optim.adam import Adam
from tfspore.experimental.optim.adamw import AdamW
from tfspore.experimental.optim.optimizer import Optimizer
from tfspore.experimental.optim.sgd import SGD

__all__ = ["Optimizer", "AdamW", "SGD", "Adam"]

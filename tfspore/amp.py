"""``tfspore.amp`` (``mindspore.amp``): mixed precision and loss scaling.

The mixed-precision levels and the training-cell builder live in :mod:`tfspore.train.amp`
(``build_train_network``, ``auto_mixed_precision``, ``custom_mixed_precision``,
``get_white_list``, ``get_black_list``); the loss-scale managers in
:mod:`tfspore.train.loss_scale_manager`; the functional loss scalers in
:mod:`tfspore._amp_loss_scaler`.

Example:
    >>> from tfspore import amp, nn
    >>> net = nn.Dense(3, 2)
    >>> opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    >>> train_net = amp.build_train_network(net, opt, nn.MSELoss(), level="O3")
"""
from tfspore._amp_loss_scaler import *  # noqa: F401,F403
from tfspore._amp_loss_scaler import __all__ as _scaler_all
from tfspore._amp_loss_scaler import _grad_scale_map, _grad_unscale_map  # noqa: F401
from tfspore.train.amp import (auto_mixed_precision, build_train_network, custom_mixed_precision,  # noqa: F401
                               get_black_list, get_white_list)
from tfspore.train.loss_scale_manager import (DynamicLossScaleManager, FixedLossScaleManager,  # noqa: F401
                                              LossScaleManager)

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager", "build_train_network",
           "auto_mixed_precision", "custom_mixed_precision", "get_white_list", "get_black_list"] + list(_scaler_all)

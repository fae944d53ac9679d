"""ReduceLROnPlateau: reduction, cooldown, min_lr and validation."""
import re

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train.callback import ReduceLROnPlateau

from tests.train.callback_loop import fake_train, loss_steps
from tests.train.callback._common import API, LOSSES, epoch_losses, net_and_opt, printed_lines


def test_reduce_lr_on_plateau_prints_and_reduces(capsys):
    _, opt = net_and_opt(0.5)
    cb_ = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, verbose=True, min_delta=0.0)
    fake_train(API, [cb_], 3, 1, epoch_losses([1.0, 1.0, 1.0]), optimizer=opt)
    assert printed_lines(capsys) == ["Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.25.",
                              "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.125."]
    assert float(opt.learning_rate.asnumpy()) == 0.125


def test_reduce_lr_on_plateau_cooldown_and_min_lr(capsys):
    _, opt = net_and_opt(0.1)
    cb_ = ReduceLROnPlateau(monitor="loss", factor=0.1, patience=1, cooldown=1, min_lr=0.005, verbose=True)
    fake_train(API, [cb_], 6, 1, epoch_losses([1.0] * 6), optimizer=opt)
    assert printed_lines(capsys) == ["Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.010000001.",
                              "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.005."]
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.005)


def test_reduce_lr_on_plateau_errors():
    with pytest.raises(ValueError, match=re.escape("the 'factor' must be a float in range (0.0, 1.0), but got 1.5.")):
        ReduceLROnPlateau(factor=1.5)
    with pytest.raises(TypeError, match="the 'factor' must be a float in range .*, but got 1 of type int"):
        ReduceLROnPlateau(factor=1)
    with pytest.raises(TypeError, match="For 'ReduceLROnPlateau', the 'min_lr' must be float or int, but got '0'"):
        ReduceLROnPlateau(min_lr="0")
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), ms.Tensor(np.array([0.1, 0.05], np.float32)), 0.9)
    with pytest.raises(ValueError, match="ReduceLROnPlateau does not support dynamic learning rate"):
        fake_train(API, [ReduceLROnPlateau(monitor="loss")], 1, 1, loss_steps(API, LOSSES), optimizer=opt)

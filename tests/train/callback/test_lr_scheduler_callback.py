"""LearningRateScheduler: the learning rate set at each step."""
import pytest

from tfspore.train.callback import LearningRateScheduler

from tests.train.callback_loop import fake_train, loss_steps, model_eval
from tests.train.callback._common import API, LOSSES, net_and_opt


def test_learning_rate_scheduler():
    net, opt = net_and_opt(0.1)
    calls = []

    def fn(lr, step):
        calls.append((lr, step))
        return lr * 0.5 if step % 2 == 0 else lr
    fake_train(API, [LearningRateScheduler(fn)], 1, 3, loss_steps(API, LOSSES), optimizer=opt)
    assert calls == [(0.1, 1), (0.1, 2), (0.05, 3)]
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.05)
    model_eval(API, [LearningRateScheduler(fn)], 1, lambda cb: 0.5, {})  # nothing to do in eval

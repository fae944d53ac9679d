"""The dynamic-lr list functions and the LearningRateSchedule cells: values, validation, and use
inside optimizers in both modes."""
import math

import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, Tensor, nn
from tfspore.nn.learning_rate_schedule import LearningRateSchedule


def test_piecewise_constant_lr():
    assert nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]) == [0.1] * 2 + [0.05] * 3 + [0.01] * 5
    assert nn.piecewise_constant_lr((1, 1, 3), (0.1, 0.2, 0.3)) == [0.1, 0.3, 0.3]


def test_decay_functions_closed_form():
    got = nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2)
    assert got == pytest.approx([0.1 * 0.9 ** ((i // 2) / 2) for i in range(6)])
    assert nn.exponential_decay_lr(0.1, 0.9, 6, 1, 2, True) == pytest.approx(
        [0.1 * 0.9 ** (i // 2) for i in range(6)])
    assert nn.natural_exp_decay_lr(0.1, 0.5, 6, 1, 2) == pytest.approx([0.1 * math.exp(-0.5 * i) for i in range(6)])
    assert nn.natural_exp_decay_lr(0.1, 0.5, 6, 1, 2, True) == pytest.approx(
        [0.1 * math.exp(-0.5 * (i // 2 * 2)) for i in range(6)])
    assert nn.inverse_decay_lr(0.1, 0.5, 4, 1, 2) == pytest.approx([0.1 / (1 + 0.5 * i / 2) for i in range(4)])
    assert nn.inverse_decay_lr(0.1, 0.5, 4, 1, 2, True) == pytest.approx([0.1 / (1 + 0.5 * (i // 2))
                                                                         for i in range(4)])
    assert nn.cosine_decay_lr(0.01, 0.1, 5, 1, 3) == pytest.approx(
        [0.01 + 0.045 * (1 + math.cos(math.pi * min(i, 3) / 3)) for i in range(5)])
    assert nn.polynomial_decay_lr(0.1, 0.01, 5, 1, 3, 2.0) == pytest.approx(
        [0.09 * (1 - min(i, 3) / 3) ** 2 + 0.01 for i in range(5)])
    # update_decay_epoch restarts the decay every decay_epoch epochs
    assert nn.polynomial_decay_lr(0.1, 0.01, 5, 1, 2, 1.0, True) == pytest.approx(
        [0.1, 0.055, 0.01, 0.0325, 0.01])
    assert nn.warmup_lr(0.1, 6, 2, 2) == pytest.approx([0.0, 0.0, 0.05, 0.05, 0.1, 0.1])


@pytest.mark.parametrize("call,error,match", [
    (lambda: nn.piecewise_constant_lr([1, 2], [0.1]), ValueError, "size of 'milestone' must be same"),
    (lambda: nn.piecewise_constant_lr(1, [0.1]), TypeError, "'milestone' must be tuple or list, but got 1 of type int"),
    (lambda: nn.piecewise_constant_lr([0], [0.1]), ValueError, r"'milestone\[0\]' must be a positive int, but got 0"),
    (lambda: nn.piecewise_constant_lr([3, 2], [0.1, 0.2]), ValueError, "must be greater than milestone"),
    (lambda: nn.piecewise_constant_lr([1], [1]), TypeError,
     r"'learning_rates\[0\]' must be a float, but got 1 of type int"),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1), ValueError, "'total_step' must be a positive int, "
                                                                     "but got 0"),
    (lambda: nn.exponential_decay_lr(1, 0.9, 2, 1, 1), TypeError,
     "'learning_rate' must be a positive float, but got 1 of type int"),
    (lambda: nn.natural_exp_decay_lr(0.1, -0.5, 2, 1, 1), ValueError, "'decay_rate' must be a positive float"),
    (lambda: nn.inverse_decay_lr(0.1, 0.5, 2, 1, 1, 1), TypeError, "'is_stair' must be bool, but got"),
    (lambda: nn.cosine_decay_lr(0, 0.1, 2, 1, 1), TypeError, "'min_lr' must be type of float"),
    (lambda: nn.cosine_decay_lr(0.2, 0.1, 2, 1, 1), ValueError, "'max_lr' must be greater than the 'min_lr'"),
    (lambda: nn.polynomial_decay_lr(0.1, 0, 2, 1, 1, 1.0), TypeError, "'end_learning_rate' must be type of float"),
    (lambda: nn.polynomial_decay_lr(0.1, 0.0, 2, 1, 1, 0.0), ValueError,
     "'power' must be a positive float, but got 0.0"),
    (lambda: nn.warmup_lr(0.1, 2, 1, 0), ValueError, "'warmup_epoch' must be a positive int, but got 0"),
    (lambda: nn.warmup_lr(-0.1, 2, 1, 1), ValueError, "'learning_rate' must be a non-negative float, but got -0.1"),
])
def test_dynamic_lr_validation(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _steps(schedule, steps=8):
    return np.array([float(schedule(Tensor(np.array([s], np.int32))).asnumpy()[0]) for s in range(steps)])


def test_schedules_values(mode):
    s = np.arange(8, dtype=np.float64)
    np.testing.assert_allclose(_steps(nn.ExponentialDecayLR(0.1, 0.9, 3)), 0.1 * 0.9 ** (s / 3), rtol=1e-6)
    np.testing.assert_allclose(_steps(nn.ExponentialDecayLR(0.1, 0.9, 3, True)), 0.1 * 0.9 ** np.floor(s / 3),
                               rtol=1e-6)
    np.testing.assert_allclose(_steps(nn.NaturalExpDecayLR(0.1, 0.2, 3)), 0.1 * np.exp(-0.2 * s), rtol=1e-6)
    np.testing.assert_allclose(_steps(nn.NaturalExpDecayLR(0.1, 0.2, 3, True)),
                               0.1 * np.exp(-0.2 * np.floor(s / 3) * 3), rtol=1e-6)
    np.testing.assert_allclose(_steps(nn.InverseDecayLR(0.1, 0.5, 2)), 0.1 / (1 + 0.5 * s / 2), rtol=1e-6)
    np.testing.assert_allclose(_steps(nn.InverseDecayLR(0.1, 0.5, 2, True)), 0.1 / (1 + 0.5 * np.floor(s / 2)),
                               rtol=1e-6)
    np.testing.assert_allclose(_steps(nn.CosineDecayLR(0.01, 0.1, 5)),
                               0.01 + 0.045 * (1 + np.cos(np.pi * np.minimum(s, 5) / 5)), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(_steps(nn.PolynomialDecayLR(0.1, 0.01, 5, 0.5)),
                               0.09 * (1 - np.minimum(s, 5) / 5) ** 0.5 + 0.01, rtol=1e-5)
    decay = 3 * np.maximum(np.ceil(s / 3), 1)
    np.testing.assert_allclose(_steps(nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0, True)),
                               0.09 * (1 - s / decay) ** 2 + 0.01, rtol=1e-5)
    np.testing.assert_allclose(_steps(nn.WarmUpLR(0.1, 4)), 0.1 * np.minimum(s, 4) / 4, rtol=1e-6)


def test_schedule_outputs_and_repr():
    sched = nn.CosineDecayLR(0.0, 0.1, 4)
    out = sched(Tensor(2, ms.int32))
    assert out.dtype == ms.float32 and out.shape == ()
    assert sched(Tensor(np.array([2], np.int64))).shape == (1,)
    assert repr(sched) == "CosineDecayLR()"
    assert isinstance(sched, LearningRateSchedule) and isinstance(sched, nn.Cell)
    assert list(sched.get_parameters()) == []
    with pytest.raises(NotImplementedError):
        LearningRateSchedule()(Tensor(1, ms.int32))


@pytest.mark.parametrize("make,error,match", [
    (lambda: nn.ExponentialDecayLR(1, 0.9, 2), TypeError, "For 'ExponentialDecayLR', the 'learning_rate' must be "
                                                          "a positive float, but got 1 of type int"),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 0), ValueError, "'decay_steps' must be a positive int, but got 0"),
    (lambda: nn.NaturalExpDecayLR(0.1, 0.0, 2), ValueError, "'decay_rate' must be a positive float"),
    (lambda: nn.InverseDecayLR(0.1, 0.5, 2, "yes"), TypeError, "'is_stair' must be bool, but got"),
    (lambda: nn.CosineDecayLR(0.1, 0.1, 2), ValueError, "'max_lr' must be greater than the 'min_lr'"),
    (lambda: nn.CosineDecayLR(-0.1, 0.1, 2), ValueError, "'min_lr' must be a non-negative float, but got -0.1"),
    (lambda: nn.PolynomialDecayLR(0.1, 0.0, 2, 1), TypeError,
     "'power' must be a positive float, but got 1 of type int"),
    (lambda: nn.PolynomialDecayLR(0.1, 0.0, 2, 1.0, 1), TypeError,
     "'update_decay_steps' must be bool, but got 1 of type int"),
    (lambda: nn.WarmUpLR(0.1, 0), ValueError, "'warmup_steps' must be a positive int, but got 0"),
])
def test_schedule_validation(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_optimizer_follows_schedule_and_list(mode):
    """Step i uses lr(i): plain SGD moves each weight by exactly the lr of the step."""
    w1 = Parameter(Tensor(np.zeros(1, np.float32)), name="a")
    w2 = Parameter(Tensor(np.zeros(1, np.float32)), name="b")
    sched = nn.WarmUpLR(0.4, 4)
    lrs = nn.cosine_decay_lr(0.01, 0.1, 5, 1, 4)
    opt1, opt2 = nn.SGD([w1], sched), nn.SGD([w2], lrs)
    assert opt1.get_lr_parameter(w1) is sched and opt2.get_lr_parameter(w2).shape == (5,)
    for _ in range(5):
        opt1((Tensor(np.ones(1, np.float32)),))
        opt2((Tensor(np.ones(1, np.float32)),))
    np.testing.assert_allclose(w1.asnumpy(), [-sum(0.4 * min(i, 4) / 4 for i in range(5))], rtol=1e-6)
    np.testing.assert_allclose(w2.asnumpy(), [-sum(lrs)], rtol=1e-6)
    np.testing.assert_array_equal(opt1.global_step.asnumpy(), [5])


def test_schedule_learning_rate_has_no_parameter():
    opt = nn.Adam([Parameter(Tensor(np.ones(2, np.float32)), name="w")], nn.ExponentialDecayLR(0.1, 0.9, 2))
    names = [p.name for p in opt.get_parameters()]
    assert "learning_rate" not in names and names[:2] == ["global_step", "w"]
    assert opt.dynamic_lr and opt.init_learning_rate is None
    np.testing.assert_allclose(opt.get_lr().asnumpy(), 0.1, rtol=1e-6)

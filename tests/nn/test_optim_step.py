"""tfspore/nn/optim/_step.py: the per-step skeleton the optimizers share (step order, slots, per-parameter values)."""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import Parameter, Tensor, nn
from tfspore.nn.optim._step import apply_each, begin_step, check_grads_tuple


def _params():
    return [Parameter(Tensor(np.full((2,), 2.0, np.float32)), name="w"),
            Parameter(Tensor(np.full((2,), 3.0, np.float32)), name="b")]


def _ones(opt):
    return tuple(Tensor(np.ones(p.shape, np.float32)) for p in opt.parameters)


def test_begin_step_prepares_gradients_reads_lr_then_steps():
    # weight decay 0.1 on both (names without beta/gamma), loss scale 2; MindSpore scales the decay
    # by the loss scale, so g' = (g + 0.1 * 2 * w) / 2
    opt = nn.SGD(_params(), learning_rate=0.5, weight_decay=0.1, loss_scale=2.0)
    grads, lr = begin_step(opt, _ones(opt))
    np.testing.assert_allclose(grads[0].asnumpy(), [(1 + 0.4) / 2] * 2, rtol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), [(1 + 0.6) / 2] * 2, rtol=1e-6)
    assert float(lr.asnumpy()) == 0.5
    assert int(opt.global_step.asnumpy()[0]) == 1


def test_begin_step_reads_a_schedule_at_the_step_before_the_increment():
    opt = nn.SGD(_params(), learning_rate=[0.1, 0.2, 0.3])
    _, lr0 = begin_step(opt, _ones(opt))
    _, lr1 = begin_step(opt, _ones(opt))
    np.testing.assert_allclose([float(lr0.asnumpy()), float(lr1.asnumpy())], [0.1, 0.2], rtol=1e-6)


def test_apply_each_passes_slots_lr_grad_and_per_parameter_weight_decay():
    params = [Parameter(Tensor(np.ones(2, np.float32)), name="w"),
              Parameter(Tensor(np.ones(2, np.float32)), name="gamma")]
    opt = nn.SGD([{"params": [params[0]], "lr": 0.1, "weight_decay": 0.01}, {"params": [params[1]], "lr": 0.2}])
    seen = []

    def kernel(var, accum, missing, lr, grad, weight_decay, scale):
        seen.append((var is opt.parameters[len(seen)]._var, accum is opt.accum[len(seen)]._var, missing,
                     float(lr.numpy()), float(weight_decay.numpy()), scale))
        return len(seen)

    flags = apply_each(opt, kernel, _ones(opt), opt.get_lr(), opt.accum, None, weight_decay=opt.get_weight_decay(),
                       scale=3)
    assert flags == (1, 2)
    assert seen == [(True, True, None, pytest.approx(0.1), pytest.approx(0.01), 3),
                    (True, True, None, pytest.approx(0.2), 0.0, 3)]


def test_check_grads_tuple_message():
    check_grads_tuple((tf.ones(2),), "Rprop", "gradients")
    with pytest.raises(TypeError, match=r"^For 'Rprop', the 'gradients' must be a tuple of Tensor\.$"):
        check_grads_tuple([Tensor(np.ones(2, np.float32))], "Rprop", "gradients")
    with pytest.raises(TypeError, match=r"^For 'Adadelta', the 'grads' must be a tuple of Tensor\.$"):
        nn.Adadelta(_params())((np.ones(2, np.float32),))

"""Parity of ``nn.probability.distribution`` with MindSpore 2.10: every method of Normal, Uniform,
Exponential, Bernoulli and Categorical on the same values and parameters (float32; 1e-5 relative,
1e-6 absolute), the repr, and the sample shapes and dtypes (the random streams differ by design)."""
import numpy as np
import pytest

import tfspore as ts
import tfspore.nn.probability.distribution as T

ms = pytest.importorskip("mindspore")
import mindspore.nn.probability.distribution as M  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore, np_value as _np  # noqa: E402,F401  (autouse fixture)

_X = np.array([-0.5, 0.3, 1.2], np.float32)
CASES = [
    ("Normal", (0.5, 2.0), _X, ("mean", "mode", "sd", "var", "entropy")),
    ("Uniform", (-1.0, 1.5), _X, ("mean", "sd", "var", "entropy")),
    ("Exponential", (2.0,), np.abs(_X), ("mean", "mode", "sd", "var", "entropy")),
    ("Bernoulli", (0.3,), np.array([0, 1, 1], np.int32), ("mean", "sd", "var", "entropy")),
    ("Categorical", ([0.2, 0.5, 0.3],), np.array([0, 2, 1], np.int32), ("entropy",)),
]


def _close(a, b, atol=1e-6):
    np.testing.assert_allclose(_np(a), _np(b), rtol=1e-5, atol=atol)


@pytest.mark.parametrize("name,args,values,stats", CASES, ids=[c[0] for c in CASES])
def test_distribution(name, args, values, stats):
    m, t = getattr(M, name)(*args), getattr(T, name)(*args)
    assert repr(t) == repr(m)
    for meth in ("prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival"):
        _close(getattr(t, meth)(ts.Tensor(values)), getattr(m, meth)(ms.Tensor(values)))
    for meth in stats:
        _close(getattr(t, meth)(), getattr(m, meth)())
    other = [np.array([0.3, 0.3, 0.4], np.float32)] if name == "Categorical" else [
        np.float32(a * 0.9) for a in args]
    for meth in ("kl_loss", "cross_entropy"):
        # MindSpore's Categorical KL goes through a log-softmax of log-probabilities: 5e-6 off the exact 0.088015
        _close(getattr(t, meth)(name, *[ts.Tensor(o) for o in other]),
               getattr(m, meth)(name, *[ms.Tensor(o) for o in other]), atol=1e-5)
    ms_sample, ts_sample = m.sample((2, 3)), t.sample((2, 3))
    assert ms_sample.shape == ts_sample.shape and str(ms_sample.dtype) == str(ts_sample.dtype)


def test_call_time_parameters_and_batches():
    m, t = M.Normal(), T.Normal()
    mean, sd = np.array([0.0, 1.0, -2.0], np.float32), np.float32(1.5)
    _close(t.log_prob(ts.Tensor(_X), ts.Tensor(mean), ts.Tensor(sd)),
           m.log_prob(ms.Tensor(_X), ms.Tensor(mean), ms.Tensor(sd)))
    assert t.sample((4,), ts.Tensor(mean), ts.Tensor(sd)).shape == m.sample((4,), ms.Tensor(mean), ms.Tensor(sd)).shape
    assert repr(T.Normal(mean, 1.0)) == repr(M.Normal(mean, 1.0)) == "Normal(batch_shape = (3,))"
    q = np.array([[1.0, 5.0, 2.0], [0.0, 1.0, 3.0]], np.float32)
    _close(T.Categorical().mode(ts.Tensor(q)), M.Categorical().mode(ms.Tensor(q)))

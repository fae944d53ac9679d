"""DynamicRNN / DynamicGRUV2 (Ascend-only in MindSpore) against MindSpore 2.10's nn.LSTM / nn.GRU on CPU.

MindSpore's nn.LSTM on Ascend runs DynamicRNN with its weights rearranged (gates i, f, g, o ->
i, g, f, o, and [w_ih; w_hh] transposed), and nn.GRU runs DynamicGRUV2 on the transposed weights;
the same rearrangement here must give the CPU nn layers' numbers.
"""
import numpy as np
import pytest

import tfspore as ts
from tests.parity._ms_helpers import _warm_mindspore  # noqa: F401  (autouse fixture)

ms = pytest.importorskip("mindspore")

R = np.random.RandomState(11)
T, B, I, H = 5, 3, 4, 6


def _ms_layer(cls, gates):
    net = cls(I, H, num_layers=1, has_bias=True, batch_first=False)
    params = {p.name.split(".")[-1]: p for p in net.get_parameters()}
    w = {}
    for key, shape in (("weight_ih_l0", (gates * H, I)), ("weight_hh_l0", (gates * H, H)),
                       ("bias_ih_l0", (gates * H,)), ("bias_hh_l0", (gates * H,))):
        w[key] = (R.standard_normal(shape) * 0.4).astype(np.float32)
        params[key].set_data(ms.Tensor(w[key]))
    return net, w


def test_dynamic_rnn_matches_lstm():
    net, w = _ms_layer(ms.nn.LSTM, 4)
    x = R.standard_normal((T, B, I)).astype(np.float32)
    h0 = R.standard_normal((1, B, H)).astype(np.float32)
    c0 = R.standard_normal((1, B, H)).astype(np.float32)
    y_ms, (h_ms, c_ms) = net(ms.Tensor(x), (ms.Tensor(h0), ms.Tensor(c0)))

    def ifgo_to_igfo(a):
        i, f, g, o = np.split(a, 4, axis=0)
        return np.concatenate([i, g, f, o], 0)
    weight = np.concatenate([ifgo_to_igfo(w["weight_ih_l0"]), ifgo_to_igfo(w["weight_hh_l0"])], 1).T
    bias = ifgo_to_igfo(w["bias_ih_l0"] + w["bias_hh_l0"])
    out = ts.ops.DynamicRNN()(ts.Tensor(x), ts.Tensor(weight), ts.Tensor(bias), None, ts.Tensor(h0), ts.Tensor(c0))
    assert len(out) == 8 and all(o.shape == (T, B, H) for o in out)
    np.testing.assert_allclose(out[0].asnumpy(), y_ms.asnumpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[1].asnumpy()[-1], h_ms.asnumpy()[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[2].asnumpy()[-1], c_ms.asnumpy()[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[7].asnumpy(), np.tanh(out[2].asnumpy()), rtol=1e-5, atol=1e-6)


def test_dynamic_gru_v2_matches_gru():
    net, w = _ms_layer(ms.nn.GRU, 3)
    x = R.standard_normal((T, B, I)).astype(np.float32)
    h0 = R.standard_normal((1, B, H)).astype(np.float32)
    y_ms, h_ms = net(ms.Tensor(x), ms.Tensor(h0))
    # MindSpore's nn.GRU gates are r, z, n: DynamicGRUV2's 'rzh' on the transposed weights
    out = ts.ops.DynamicGRUV2()(ts.Tensor(x), ts.Tensor(w["weight_ih_l0"].T), ts.Tensor(w["weight_hh_l0"].T),
                                ts.Tensor(w["bias_ih_l0"]), ts.Tensor(w["bias_hh_l0"]), None, ts.Tensor(h0[0]))
    assert len(out) == 6
    np.testing.assert_allclose(out[0].asnumpy(), y_ms.asnumpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[1].asnumpy()[-1], h_ms.asnumpy()[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kw", [dict(), dict(preprocess_collapse_repeated=True),
                                dict(ctc_merge_repeated=False)])
def test_ctc_loss(kw):
    t_max, batch, classes = 8, 3, 5
    x = R.standard_normal((t_max, batch, classes)).astype(np.float32)
    labels = [[1, 1, 2], [3], [0, 2, 2, 1]]
    idx = np.array([[b, t] for b, lab in enumerate(labels) for t in range(len(lab))], np.int64)
    vals = np.array([v for lab in labels for v in lab], np.int32)
    seq = np.array([8, 5, 7], np.int32)
    m = ms.ops.CTCLoss(**kw)(ms.Tensor(x), ms.Tensor(idx), ms.Tensor(vals), ms.Tensor(seq))
    t = ts.ops.CTCLoss(**kw)(ts.Tensor(x), ts.Tensor(idx), ts.Tensor(vals), ts.Tensor(seq))
    for a, b in zip(t, m):
        assert str(a.dtype) == str(b.dtype) and a.shape == b.shape
    np.testing.assert_allclose(t[0].asnumpy(), m[0].asnumpy(), rtol=1e-4, atol=1e-5)
    # steps past a sample's length: tfspore's gradient is 0; MindSpore's CPU kernel leaves that memory
    # unwritten (any value, NaN included), so those steps are compared with np.where, not multiplied out
    valid = (np.arange(t_max)[:, None] < seq[None, :])[:, :, None]
    np.testing.assert_allclose(np.where(valid, t[1].asnumpy(), 0), np.where(valid, m[1].asnumpy(), 0),
                               rtol=1e-4, atol=1e-5)
    assert not np.any(t[1].asnumpy() * ~valid)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_primitive_cpu_layout(bidirectional):
    dirs = 2 if bidirectional else 1
    size = dirs * (4 * H * I + 4 * H * H + 4 * H)
    x = R.standard_normal((T, B, I)).astype(np.float32)
    h0, c0 = (R.standard_normal((dirs, B, H)).astype(np.float32) for _ in range(2))
    w = (R.standard_normal((size, 1, 1)) * 0.3).astype(np.float32)
    m = ms.ops.LSTM(I, H, 1, True, bidirectional, 0.0)(*[ms.Tensor(a) for a in (x, h0, c0, w)])
    t = ts.ops.LSTM(I, H, 1, True, bidirectional, 0.0)(*[ts.Tensor(a) for a in (x, h0, c0, w)])
    for a, b in zip(t[:3], m[:3]):
        assert a.shape == b.shape and str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-5)

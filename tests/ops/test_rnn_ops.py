"""DynamicRNN / DynamicGRUV2 / CTCLoss: numpy references, both modes (MindSpore parity in tests/parity)."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, ops

R = np.random.RandomState(9)
T, B, I, H = 4, 2, 3, 5


def _sig(x):
    return 1 / (1 + np.exp(-x))


def test_dynamic_rnn_matches_numpy(mode, run):
    x = R.standard_normal((T, B, I)).astype(np.float32)
    w = (R.standard_normal((I + H, 4 * H)) * 0.5).astype(np.float32)
    b = (R.standard_normal(4 * H) * 0.1).astype(np.float32)
    h0, c0 = (R.standard_normal((1, B, H)).astype(np.float32) for _ in range(2))
    out = run(lambda *a: ops.DynamicRNN(forget_bias=1.0)(a[0], a[1], a[2], None, a[3], a[4]),
              Tensor(x), Tensor(w), Tensor(b), Tensor(h0), Tensor(c0))
    h, c = h0[0].astype(np.float64), c0[0].astype(np.float64)
    for t in range(T):
        g = np.concatenate([x[t], h], 1) @ w + b
        i, j, f, o = np.split(g, 4, 1)
        c = _sig(f + 1.0) * c + _sig(i) * np.tanh(j)
        h = _sig(o) * np.tanh(c)
        np.testing.assert_allclose(out[0].asnumpy()[t], h, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(out[2].asnumpy()[t], c, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(out[3].asnumpy()[t], _sig(i), rtol=1e-4, atol=1e-5)


def test_dynamic_rnn_float16_dtypes():
    x = Tensor(np.ones((T, B, I), np.float16))
    w = Tensor(np.full((I + H, 4 * H), 0.1, np.float16))
    h0 = Tensor(np.zeros((1, B, H), np.float16))
    out = ops.DynamicRNN()(x, w, Tensor(np.zeros(4 * H, np.float32)), None, h0, h0)
    assert out[0].dtype == ms.float32 and out[1].dtype == ms.float16


@pytest.mark.parametrize("gate_order,reset_after", [("rzh", True), ("zrh", False)])
def test_dynamic_gru_v2_matches_numpy(mode, run, gate_order, reset_after):
    x = R.standard_normal((T, B, I)).astype(np.float32)
    wi = (R.standard_normal((I, 3 * H)) * 0.5).astype(np.float32)
    wh = (R.standard_normal((H, 3 * H)) * 0.5).astype(np.float32)
    bi, bh = ((R.standard_normal(3 * H) * 0.1).astype(np.float32) for _ in range(2))
    h0 = R.standard_normal((B, H)).astype(np.float32)
    op = ops.DynamicGRUV2(gate_order=gate_order, reset_after=reset_after)
    out = run(lambda *a: op(a[0], a[1], a[2], a[3], a[4], None, a[5]),
              Tensor(x), Tensor(wi), Tensor(wh), Tensor(bi), Tensor(bh), Tensor(h0))

    def split(a):
        p, q, n = np.split(a, 3, -1)
        return (p, q, n) if gate_order == "rzh" else (q, p, n)
    h = h0.astype(np.float64)
    w_hr, w_hz, w_hn = split(wh)
    b_hr, b_hz, b_hn = split(bh)
    for t in range(T):
        x_r, x_z, x_n = split(x[t] @ wi + bi)
        r, z = _sig(x_r + h @ w_hr + b_hr), _sig(x_z + h @ w_hz + b_hz)
        n = np.tanh(x_n + r * (h @ w_hn + b_hn)) if reset_after else np.tanh(x_n + (r * h) @ w_hn + b_hn)
        h = (1 - z) * n + z * h
        np.testing.assert_allclose(out[0].asnumpy()[t], h, rtol=1e-4, atol=1e-5)


def test_ctc_loss_matches_tf(mode, run):
    x = R.standard_normal((6, 2, 4)).astype(np.float32)
    idx = np.array([[0, 0], [0, 1], [1, 0]], np.int64)
    vals = np.array([1, 2, 0], np.int32)
    seq = np.array([6, 4], np.int32)
    loss, grad = run(lambda *a: ops.CTCLoss()(*a), Tensor(x), Tensor(idx), Tensor(vals), Tensor(seq))
    ref = tf.compat.v1.nn.ctc_loss(tf.SparseTensor(idx, vals, [2, 2]), x, seq).numpy()
    np.testing.assert_allclose(loss.asnumpy(), ref, rtol=1e-5)
    assert grad.shape == x.shape and loss.dtype == ms.float32


def test_errors():
    with pytest.raises(TypeError, match="For 'DynamicRNN', the 'forget_bias' must be float, but got 1 of type int"):
        ops.DynamicRNN(forget_bias=1)
    with pytest.raises(ValueError, match="For 'DynamicRNN', the 'time_major' must be True"):
        ops.DynamicRNN(time_major=False)
    with pytest.raises(ValueError, match=r"For 'DynamicRNN', the 'cell_type' must be one of \['LSTM'\], but got 'GRU'"):
        ops.DynamicRNN(cell_type="GRU")
    with pytest.raises(ValueError, match=r"the 'gate_order' must be one of \['zrh', 'rzh'\]"):
        ops.DynamicGRUV2(gate_order="hzr")
    with pytest.raises(NotImplementedError, match="only 'seq_length'=None"):
        z = Tensor(np.zeros((1, 1, 1), np.float32))
        ops.DynamicRNN()(z, Tensor(np.zeros((2, 4), np.float32)), Tensor(np.zeros(4, np.float32)), z, z, z)
    with pytest.raises(TypeError, match="For 'CTCLoss', the 'ctc_merge_repeated' must be bool"):
        ops.CTCLoss(ctc_merge_repeated=1)


def _np_lstm_dir(x, h, c, w_ih, w_hh, b, reverse=False):
    ys = [None] * len(x)
    for t in (range(len(x) - 1, -1, -1) if reverse else range(len(x))):
        i, f, g, o = np.split(x[t] @ w_ih.T + h @ w_hh.T + b, 4, 1)
        c = _sig(f) * c + _sig(i) * np.tanh(g)
        h = _sig(o) * np.tanh(c)
        ys[t] = h
    return np.stack(ys), h, c


def test_lstm_primitive_gpu_layout_two_layers(mode, run):
    layers, dirs = 2, 2
    x = R.standard_normal((T, B, I)).astype(np.float32)
    h0, c0 = (R.standard_normal((layers * dirs, B, H)).astype(np.float32) for _ in range(2))
    blocks, flat = [], []
    for layer in range(layers):
        n_in = I if layer == 0 else H * dirs
        for _ in range(dirs):
            blk = [(R.standard_normal(s) * 0.3).astype(np.float32) for s in ((4 * H, n_in), (4 * H, H), (4 * H,),
                                                                           (4 * H,))]
            blocks.append(blk)
            flat += [a.ravel() for a in blk]
    w = np.concatenate(flat)[:, None, None]
    out = run(lambda *a: ops.LSTM(I, H, layers, True, True, 0.0)(*a), Tensor(x), Tensor(h0), Tensor(c0), Tensor(w))
    inp, hs = x.astype(np.float64), []
    for layer in range(layers):
        ys = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = blocks[k]
            y, hk, _ = _np_lstm_dir(inp, h0[k], c0[k], w_ih, w_hh, b_ih + b_hh, reverse=d == 1)
            ys.append(y)
            hs.append(hk)
        inp = np.concatenate(ys, -1)
    np.testing.assert_allclose(out[0].asnumpy(), inp, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out[1].asnumpy(), np.stack(hs), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="For 'LSTM', the size of 'w' must be"):
        ops.LSTM(I, H, layers, True, True, 0.0)(Tensor(x), Tensor(h0), Tensor(c0), Tensor(w[:-1]))

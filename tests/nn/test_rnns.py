"""Tests of the recurrent layers (RNN, LSTM, GRU) and cells (RNNCell, LSTMCell, GRUCell).

The numbers are checked against a step-by-step numpy reference of MindSpore's gate math; the
comparison with real MindSpore is in tests/parity/test_rnn_transformer_parity.py.
"""
import logging

import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn

RTOL = ATOL = 1e-5


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _np_step(mode, x_t, state, w_ih, w_hh, b_ih, b_hh):
    h = state[0] if mode == "LSTM" else state
    gi = x_t @ w_ih.T + (0 if b_ih is None else b_ih)
    gh = h @ w_hh.T + (0 if b_hh is None else b_hh)
    if mode == "RNN_TANH":
        return np.tanh(gi + gh)
    if mode == "RNN_RELU":
        return np.maximum(gi + gh, 0)
    if mode == "LSTM":
        i, f, g, o = np.split(gi + gh, 4, axis=1)
        c = _sig(f) * state[1] + _sig(i) * np.tanh(g)
        return _sig(o) * np.tanh(c), c
    i_r, i_z, i_n = np.split(gi, 3, axis=1)
    h_r, h_z, h_n = np.split(gh, 3, axis=1)
    r, z = _sig(i_r + h_r), _sig(i_z + h_z)
    n = np.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h


def _np_reverse_sequence(x, lengths):
    out = x.copy()
    for b, n in enumerate(lengths):
        out[:n, b] = x[:n, b][::-1]
    return out


def _np_direction(mode, x, state, weights, lengths):
    outs = []
    for t in range(x.shape[0]):
        new = _np_step(mode, x[t], state, *weights)
        h_new = new[0] if mode == "LSTM" else new
        if lengths is not None:
            valid = (t < np.asarray(lengths))[:, None]
            new = tuple(np.where(valid, a, b) for a, b in zip(new, state)) if mode == "LSTM" else \
                np.where(valid, new, state)
            h_new = np.where(valid, h_new, 0)
        state = new
        outs.append(h_new)
    return np.stack(outs), state


def _np_rnn(net, mode, x, hx=None, lengths=None):
    """A numpy reference of a stacked (bidirectional) RNN with ``net``'s weights; x is (seq, batch, in)."""
    dirs = 2 if net.bidirectional else 1
    shape = (net.num_layers * dirs, x.shape[1], net.hidden_size)
    if hx is None:
        hx = (np.zeros(shape, np.float32),) * 2 if mode == "LSTM" else np.zeros(shape, np.float32)
    layer_in, h_n, c_n = x, [], []
    for layer in range(net.num_layers):
        outs = []
        for d in range(dirs):
            idx = layer * dirs + d
            weights = (net.w_ih_list[idx].asnumpy(), net.w_hh_list[idx].asnumpy(),
                       net.b_ih_list[idx].asnumpy() if net.has_bias else None,
                       net.b_hh_list[idx].asnumpy() if net.has_bias else None)
            state = (hx[0][idx], hx[1][idx]) if mode == "LSTM" else hx[idx]
            inp = layer_in
            if d == 1:
                inp = layer_in[::-1] if lengths is None else _np_reverse_sequence(layer_in, lengths)
            out, state = _np_direction(mode, inp, state, weights, lengths)
            if d == 1:
                out = out[::-1] if lengths is None else _np_reverse_sequence(out, lengths)
            outs.append(out)
            if mode == "LSTM":
                h_n.append(state[0])
                c_n.append(state[1])
            else:
                h_n.append(state)
        layer_in = np.concatenate(outs, axis=2)
    if mode == "LSTM":
        return layer_in, (np.stack(h_n), np.stack(c_n))
    return layer_in, np.stack(h_n)


def _rand(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


CASES = [
    ("RNN_TANH", lambda: nn.RNN(3, 5)),
    ("RNN_RELU", lambda: nn.RNN(3, 5, 2, nonlinearity="relu", bidirectional=True)),
    ("LSTM", lambda: nn.LSTM(3, 5, 2, bidirectional=True)),
    ("LSTM", lambda: nn.LSTM(3, 5, has_bias=False, batch_first=True)),
    ("GRU", lambda: nn.GRU(3, 5, 2)),
    ("GRU", lambda: nn.GRU(3, 5, bidirectional=True, batch_first=True, has_bias=False)),
]


@pytest.mark.parametrize("with_seq", [False, True], ids=["full", "seq_length"])
@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{m}{i}" for i, (m, _) in enumerate(CASES)])
def test_matches_numpy_reference(mode, case, with_seq):
    kind, factory = CASES[case]
    net = factory()
    rng = np.random.default_rng(case)
    x = _rand(rng, 4, 3, 3)
    dirs = 2 if net.bidirectional else 1
    h0 = _rand(rng, net.num_layers * dirs, 3, 5)
    hx = (h0, _rand(rng, *h0.shape)) if kind == "LSTM" else h0
    lengths = [4, 1, 3] if with_seq else None
    want_out, want_h = _np_rnn(net, kind, x, hx, lengths)
    x_in = x.transpose(1, 0, 2) if net.batch_first else x
    hx_in = tuple(Tensor(h) for h in hx) if kind == "LSTM" else Tensor(hx)
    sl = Tensor(np.array(lengths, np.int32)) if with_seq else None
    out, h_n = net(Tensor(x_in), hx_in, sl)
    got_out = out.asnumpy().transpose(1, 0, 2) if net.batch_first else out.asnumpy()
    np.testing.assert_allclose(got_out, want_out, rtol=RTOL, atol=ATOL)
    if kind == "LSTM":
        assert isinstance(h_n, tuple) and len(h_n) == 2
        np.testing.assert_allclose(h_n[0].asnumpy(), want_h[0], rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(h_n[1].asnumpy(), want_h[1], rtol=RTOL, atol=ATOL)
    else:
        np.testing.assert_allclose(h_n.asnumpy(), want_h, rtol=RTOL, atol=ATOL)


def test_default_initial_state_is_zeros():
    net = nn.LSTM(3, 4, 2)
    x = Tensor(np.random.default_rng(0).standard_normal((5, 2, 3)).astype(np.float32))
    zeros = Tensor(np.zeros((2, 2, 4), np.float32))
    out_a, (h_a, c_a) = net(x)
    out_b, (h_b, c_b) = net(x, (zeros, zeros))
    np.testing.assert_array_equal(out_a.asnumpy(), out_b.asnumpy())
    np.testing.assert_array_equal(c_a.asnumpy(), c_b.asnumpy())


def test_shapes_batch_first_bidirectional():
    net = nn.GRU(10, 16, 3, batch_first=True, bidirectional=True)
    out, h = net(Tensor(np.ones((4, 7, 10), np.float32)))
    assert out.shape == (4, 7, 32)
    assert h.shape == (6, 4, 16)
    assert isinstance(out, Tensor) and isinstance(h, Tensor)


def test_parameter_names_order_and_init():
    net = nn.LSTM(3, 4, 2, bidirectional=True)
    names = [p.name for p in net.get_parameters()]
    want = []
    for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
        for layer in range(2):
            want += [f"{kind}_l{layer}", f"{kind}_l{layer}_reverse"]
    assert names == want
    assert net.weight_ih_l1.shape == (16, 8)
    bound = 1 / np.sqrt(4)
    assert all(np.abs(p.asnumpy()).max() <= bound for p in net.get_parameters())
    assert nn.GRU(3, 4, has_bias=False).trainable_params()[-1].name == "weight_hh_l0"

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(3, 4)

    assert [p.name for p in Net().get_parameters()] == ["rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0",
                                                        "rnn.bias_hh_l0"]


def test_reprs():
    assert repr(nn.LSTM(3, 4)) == "LSTM(\n  (rnn): _DynamicLSTMCPUGPU()\n  (dropout_op): Dropout(p=0.0)\n)"
    assert repr(nn.RNN(3, 4, nonlinearity="relu")).startswith("RNN(\n  (rnn): _DynamicRNNRelu()")
    assert repr(nn.GRUCell(3, 4)) == "GRUCell()"


def test_graph_mode_uses_one_loop_op_and_dynamic_lengths():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.LSTM(3, 4, bidirectional=True)
    net.set_inputs(Tensor(shape=[None, None, 3], dtype=ms.float32))
    graph = net.compile(Tensor(np.ones((4, 2, 3), np.float32))).graph
    types = [op.type for op in graph.get_operations()]
    assert types.count("StatelessWhile") + types.count("While") == 2
    assert types.count("MatMul") < 10  # the time steps are not unrolled
    for seq, batch in ((3, 2), (9, 5)):
        out, (h, _) = net(Tensor(np.ones((seq, batch, 3), np.float32)))
        assert out.shape == (seq, batch, 8) and h.shape == (2, batch, 4)
    assert len(net._compiled) == 1


def test_gradients_reach_every_weight(mode):
    net = nn.GRU(3, 4, 2, bidirectional=True)
    x = Tensor(np.random.default_rng(1).standard_normal((5, 2, 3)).astype(np.float32))
    params = net.trainable_params()
    gx, gw = ms.grad(lambda a: net(a)[0].sum() + net(a)[1].sum(), 0, params)(x)
    assert gx.shape == (5, 2, 3)
    assert len(gw) == len(params) == 16
    assert all(np.abs(g.asnumpy()).sum() > 0 for g in gw)


def test_dropout_between_layers_only_in_training():
    net = nn.LSTM(3, 8, 2, dropout=0.5)
    x = Tensor(np.ones((4, 2, 3), np.float32))
    eval_a, eval_b = net(x)[0].asnumpy(), net(x)[0].asnumpy()
    np.testing.assert_array_equal(eval_a, eval_b)
    net.set_train(True)
    assert not np.allclose(net(x)[0].asnumpy(), eval_a)


def test_dropout_with_one_layer_warns(caplog):
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        nn.GRU(3, 4, dropout=0.3)
    assert "num_layers greater than 1" in caplog.text


def test_float16_inputs_and_to_float():
    x16 = Tensor(np.ones((3, 2, 3), np.float16))
    out, h = nn.RNN(3, 4)(x16)
    assert out.dtype == ms.float16 and h.dtype == ms.float16
    net = nn.GRU(3, 4).to_float(ms.float16)
    out, _ = net(Tensor(np.ones((3, 2, 3), np.float32)))
    assert out.dtype == ms.float16


def test_lstm_classifier_trains(mode):
    class Classifier(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(4, 8, batch_first=True)
            self.fc = nn.Dense(8, 2)

        def construct(self, x):
            _, (h, _) = self.lstm(x)
            return self.fc(h[-1])

    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((8, 5, 4)).astype(np.float32))
    y = Tensor((rng.random(8) > 0.5).astype(np.int32))
    net = Classifier()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                                nn.Momentum(net.trainable_params(), 0.1, 0.9))
    train.set_train()
    losses = [float(train(x, y).asnumpy()) for _ in range(8)]
    assert losses[-1] < losses[0]


# ----------------------------------------------------------------------------- argument errors
@pytest.mark.parametrize("kwargs,error,words", [
    ({"hidden_size": 0}, ValueError, ["LSTM", "hidden_size", "0"]),
    ({"input_size": "3"}, TypeError, ["LSTM", "input_size", "'3'"]),
    ({"num_layers": -1}, ValueError, ["LSTM", "num_layers", "-1"]),
    ({"dropout": 1}, TypeError, ["LSTM", "dropout", "int"]),
    ({"dropout": 1.0}, ValueError, ["LSTM", "dropout", "1.0"]),
    ({"has_bias": 1}, TypeError, ["LSTM", "has_bias", "1"]),
    ({"batch_first": "yes"}, TypeError, ["LSTM", "batch_first", "'yes'"]),
    ({"bidirectional": None}, TypeError, ["LSTM", "bidirectional", "None"]),
])
def test_constructor_errors(kwargs, error, words):
    args = {"input_size": 3, "hidden_size": 4}
    args.update(kwargs)
    with pytest.raises(error) as info:
        nn.LSTM(**args)
    for word in words:
        assert word in str(info.value)


def test_rnn_nonlinearity_error():
    with pytest.raises(ValueError, match="For 'RNN', the 'nonlinearity' must be in \\['tanh', 'relu'\\], but got "
                                         "sigmoid"):
        nn.RNN(3, 4, nonlinearity="sigmoid")


def test_call_errors():
    lstm, gru = nn.LSTM(3, 4), nn.GRU(3, 4)
    x = Tensor(np.ones((5, 2, 3), np.float32))
    h = Tensor(np.zeros((1, 2, 4), np.float32))
    with pytest.raises(TypeError, match="For 'LSTM', the 'x' must be a Tensor, but got"):
        lstm(np.ones((5, 2, 3), np.float32))
    with pytest.raises(TypeError, match="For 'LSTM', the 'hx' must be a tuple of 2 Tensors, but got"):
        lstm(x, h)
    with pytest.raises(TypeError, match=r"For 'LSTM', the 'hx' must be a tuple of 2 Tensors, but got "
                                         r"\(Tensor\(shape=\(1, 2, 4\), dtype=Float32\), .*\) of type tuple"):
        lstm(x, (h, h, h))
    with pytest.raises(TypeError, match="'hx' should be same as 'x'"):
        gru(x, Tensor(np.zeros((1, 2, 4), np.float16)))
    with pytest.raises(TypeError, match="For 'GRU', the 'x' should be one of"):
        gru(Tensor(np.ones((5, 2, 3), np.int32)), Tensor(np.zeros((1, 2, 4), np.int32)))
    with pytest.raises(ValueError, match="For 'GRU', the shape of 'hx' must be"):
        gru(x, Tensor(np.zeros((2, 2, 4), np.float32)))
    with pytest.raises(TypeError, match="'seq_length' should be one of"):
        gru(x, h, Tensor(np.array([5.0, 3.0], np.float32)))
    with pytest.raises(ValueError, match="For 'GRU' batch size of x and seq_length must be equal, but got 2 of x "
                                         "and 3 of seq_length"):
        gru(x, h, Tensor(np.array([5, 3, 1], np.int32)))
    with pytest.raises(ValueError, match="3-D"):
        gru(Tensor(np.ones((2, 3), np.float32)))


# ----------------------------------------------------------------------------- cells
@pytest.mark.parametrize("cls,mode", [(lambda: nn.RNNCell(3, 5), "RNN_TANH"),
                                      (lambda: nn.RNNCell(3, 5, nonlinearity="relu", has_bias=False), "RNN_RELU"),
                                      (lambda: nn.LSTMCell(3, 5), "LSTM"), (lambda: nn.GRUCell(3, 5), "GRU")],
                         ids=["rnn_tanh", "rnn_relu", "lstm", "gru"])
def test_cells_match_numpy(mode, cls):
    cell = cls()
    rng = np.random.default_rng(2)
    x, h = _rand(rng, 2, 3), _rand(rng, 2, 5)
    state = (h, _rand(rng, 2, 5)) if mode == "LSTM" else h
    weights = (cell.weight_ih.asnumpy(), cell.weight_hh.asnumpy(),
               cell.bias_ih.asnumpy() if cell.has_bias else None, cell.bias_hh.asnumpy() if cell.has_bias else None)
    want = _np_step(mode, x, state, *weights)
    got = cell(Tensor(x), tuple(Tensor(s) for s in state) if mode == "LSTM" else Tensor(state))
    if mode == "LSTM":
        np.testing.assert_allclose(got[0].asnumpy(), want[0], rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(got[1].asnumpy(), want[1], rtol=RTOL, atol=ATOL)
    else:
        np.testing.assert_allclose(got.asnumpy(), want, rtol=RTOL, atol=ATOL)


def test_cell_parameters_and_errors():
    cell = nn.GRUCell(3, 4)
    assert [(p.name, p.shape) for p in cell.get_parameters()] == [
        ("weight_ih", (12, 3)), ("weight_hh", (12, 4)), ("bias_ih", (12,)), ("bias_hh", (12,))]
    assert [p.name for p in nn.RNNCell(3, 4, has_bias=False).get_parameters()] == ["weight_ih", "weight_hh"]
    with pytest.raises(ValueError, match="For 'RNNCell', the 'nonlinearity'.*'gelu'"):
        nn.RNNCell(3, 4, nonlinearity="gelu")
    with pytest.raises(TypeError, match="For 'RNNCell', the 'nonlinearity' must be str, but got"):
        nn.RNNCell(3, 4, nonlinearity=1)
    with pytest.raises(ValueError, match="For 'GRUCell', the 'hidden_size' must be a positive int, but got -2"):
        nn.GRUCell(3, -2)
    with pytest.raises(TypeError, match="For 'LSTMCell', the 'has_bias' must be bool, but got 'no'"):
        nn.LSTMCell(3, 4, has_bias="no")
    with pytest.raises(ValueError, match="old MindSpore version"):
        nn.LSTMCell(3, 4, batch_size=2)
    lstm = nn.LSTMCell(3, 4)
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="For 'LSTMCell', the 'hx' must be a tuple of 2 Tensors"):
        lstm(x, Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(TypeError, match="For 'GRUCell', the 'hx' should be one of"):
        cell(x, Tensor(np.ones((2, 4), np.int32)))


def test_cell_in_a_graph_mode_loop():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Unroll(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cell = nn.LSTMCell(3, 4)

        def construct(self, x, h, c):
            for t in range(x.shape[0]):
                h, c = self.cell(x[t], (h, c))
            return h

    net = Unroll()
    x = Tensor(np.ones((3, 2, 3), np.float32))
    z = Tensor(np.zeros((2, 4), np.float32))
    graph_out = net(x, z, z).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(net(x, z, z).asnumpy(), graph_out, rtol=1e-6, atol=1e-6)

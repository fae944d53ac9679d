"""Parity of the recurrent, attention and Transformer layers with real MindSpore 2.10.

The same numpy weights go into both frameworks (mapped by parameter name, which must match in
name and order); forward outputs, hidden states and the gradients of a random projection of all
outputs with respect to the inputs and every weight must agree within 1e-5 (absolute and relative).
Dropout is 0 (or the cells are in eval mode) so that train mode is deterministic.
"""
import numpy as np
import pytest

import tfspore as ts
from tfspore import nn as tnn
from tfspore.nn.layer import transformer as ts_transformer

ms = pytest.importorskip("mindspore")
from mindspore import nn as mnn  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore, np_value as _np  # noqa: E402,F401  (autouse fixture)

ATOL = 1e-5
RTOL = 1e-5


# ----------------------------------------------------------------------------- helpers
def _close(a, b, atol=ATOL, rtol=RTOL):
    np.testing.assert_allclose(_np(a), _np(b), atol=atol, rtol=rtol)


def _flat(x):
    if isinstance(x, (tuple, list)):
        return [leaf for item in x for leaf in _flat(item)]
    return [x]


def _to(fw, value):
    """numpy (nested in tuples) -> Tensors of framework ``fw`` (ms or ts); None passes through."""
    if value is None:
        return None
    if isinstance(value, tuple):
        return tuple(_to(fw, v) for v in value)
    return fw.Tensor(value)


def _pair(factory):
    """Build the MindSpore and tfspore cells, check names, order and shapes, copy random weights."""
    mcell, tcell = factory(mnn), factory(tnn)
    mnames = [(n, p.name, tuple(p.shape)) for n, p in mcell.parameters_and_names()]
    tnames = [(n, p.name, tuple(p.shape)) for n, p in tcell.parameters_and_names()]
    assert tnames == mnames
    rng = np.random.default_rng(len(mnames))
    for mp, tp in zip(mcell.get_parameters(), tcell.get_parameters()):
        arr = (rng.standard_normal(tuple(mp.shape)) * 0.3).astype(np.float32)
        mp.set_data(ms.Tensor(arr))
        tp.set_data(ts.Tensor(arr))
    return mcell, tcell


def _compare(mcell, tcell, args, kwargs=None, grad_position=0, train=False):
    """Forward outputs and gradients (inputs at ``grad_position`` and all trainable weights)."""
    kwargs = kwargs or {}
    mcell.set_train(train)
    tcell.set_train(train)
    m_args, t_args = [_to(ms, a) for a in args], [_to(ts, a) for a in args]
    m_kw = {k: _to(ms, v) if isinstance(v, (np.ndarray, tuple)) else v for k, v in kwargs.items()}
    t_kw = {k: _to(ts, v) if isinstance(v, (np.ndarray, tuple)) else v for k, v in kwargs.items()}
    m_out, t_out = _flat(mcell(*m_args, **m_kw)), _flat(tcell(*t_args, **t_kw))
    assert len(m_out) == len(t_out)
    for t, m in zip(t_out, m_out):
        assert tuple(t.shape) == tuple(m.shape)
        _close(t, m)

    rng = np.random.default_rng(7)
    proj = [rng.standard_normal(tuple(m.shape)).astype(np.float32) for m in m_out]

    def m_loss(*a):
        outs = _flat(mcell(*a, **m_kw))
        return sum((o * ms.Tensor(r)).sum() for o, r in zip(outs, proj))

    def t_loss(*a):
        outs = _flat(tcell(*a, **t_kw))
        return sum((o * ts.Tensor(r)).sum() for o, r in zip(outs, proj))

    m_params, t_params = mcell.trainable_params(), tcell.trainable_params()
    m_in, m_w = ms.grad(m_loss, grad_position, m_params)(*m_args)
    t_in, t_w = ts.grad(t_loss, grad_position, t_params)(*t_args)
    for t, m in zip(_flat(t_in), _flat(m_in)):
        _close(t, m)
    assert len(t_w) == len(m_w) == len(t_params)
    for p, t, m in zip(t_params, t_w, m_w):
        try:
            _close(t, m)
        except AssertionError as err:
            raise AssertionError(f"gradient of {p.name}: {err}") from None


RNG = np.random.default_rng(0)


def _rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# ----------------------------------------------------------------------------- recurrent layers
RNN_CASES = [
    # (id, factory, batch_first, number of initial states, inputs given)
    ("rnn_tanh_hx", lambda nn: nn.RNN(3, 4), False, 1, "x_hx"),
    ("rnn_relu_2l_bi_seq", lambda nn: nn.RNN(3, 4, 2, nonlinearity="relu", bidirectional=True), False, 4,
     "x_hx_seq"),
    ("lstm_2l_bi_bf", lambda nn: nn.LSTM(3, 4, 2, batch_first=True, bidirectional=True), True, 4, "x"),
    ("lstm_bi_bf_seq", lambda nn: nn.LSTM(3, 4, batch_first=True, bidirectional=True), True, 2, "x_hx_seq"),
    ("lstm_nobias_hx", lambda nn: nn.LSTM(3, 4, has_bias=False), False, 1, "x_hx"),
    ("gru_2l", lambda nn: nn.GRU(3, 4, 2), False, 2, "x"),
    ("gru_bi_bf_nobias_seq", lambda nn: nn.GRU(3, 4, bidirectional=True, batch_first=True, has_bias=False), True,
     2, "x_hx_seq"),
]


@pytest.mark.parametrize("name,factory,batch_first,n_h,inputs", RNN_CASES, ids=[c[0] for c in RNN_CASES])
def test_rnn_layers(name, factory, batch_first, n_h, inputs):
    mcell, tcell = _pair(factory)
    seq, batch = 3, 3
    x = _rand(batch, seq, 3) if batch_first else _rand(seq, batch, 3)
    args = [x]
    if inputs != "x":
        hx = _rand(n_h, batch, 4)
        args.append((hx, _rand(n_h, batch, 4)) if "lstm" in name else hx)
    if inputs == "x_hx_seq":
        args.append(np.array([3, 1, 2], np.int32))
    _compare(mcell, tcell, args)


@pytest.mark.parametrize("factory,shape,seq_length", [
    (lambda nn: nn.LSTM(3, 4, 2, bidirectional=True), (4, 3, 3), None),
    (lambda nn: nn.GRU(3, 4, batch_first=True, bidirectional=True), (3, 4, 3), np.array([4, 1, 3], np.int64))],
    ids=["lstm", "gru_seq"])
def test_rnn_layers_graph_mode(factory, shape, seq_length):
    ts.set_context(mode=ts.GRAPH_MODE)
    mcell, tcell = _pair(factory)
    _compare(mcell, tcell, [_rand(*shape), None, seq_length])


def test_rnn_train_mode_dropout_zero():
    mcell, tcell = _pair(lambda nn: nn.RNN(3, 4, 2, dropout=0.0))
    _compare(mcell, tcell, [_rand(3, 2, 3)], train=True)


def test_rnn_eval_mode_with_dropout():
    mcell, tcell = _pair(lambda nn: nn.RNN(3, 4, 3, dropout=0.5))
    _compare(mcell, tcell, [_rand(3, 2, 3)], train=False)


@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU"])
def test_rnn_initial_weights_follow_numpy_seed(cls):
    np.random.seed(3)
    mcell = getattr(mnn, cls)(3, 4, 2, bidirectional=True)
    np.random.seed(3)
    tcell = getattr(tnn, cls)(3, 4, 2, bidirectional=True)
    for mp, tp in zip(mcell.get_parameters(), tcell.get_parameters()):
        assert tp.name == mp.name
        np.testing.assert_array_equal(tp.asnumpy(), mp.asnumpy())


def test_rnn_reprs():
    for factory in (lambda nn: nn.RNN(3, 4, nonlinearity="relu"), lambda nn: nn.LSTM(3, 4, 2, dropout=0.2),
                    lambda nn: nn.GRU(3, 4), lambda nn: nn.RNNCell(3, 4), lambda nn: nn.LSTMCell(3, 4),
                    lambda nn: nn.GRUCell(3, 4)):
        mcell, tcell = factory(mnn), factory(tnn)
        assert repr(tcell) == repr(mcell)
        assert [n for n, _ in tcell.cells_and_names()] == [n for n, _ in mcell.cells_and_names()]


# ----------------------------------------------------------------------------- cells
CELL_CASES = [
    ("rnncell_tanh", lambda nn: nn.RNNCell(3, 4), False),
    ("rnncell_relu_nobias", lambda nn: nn.RNNCell(3, 4, has_bias=False, nonlinearity="relu"), False),
    ("lstmcell", lambda nn: nn.LSTMCell(3, 4), True),
    ("grucell", lambda nn: nn.GRUCell(3, 4), False),
    ("grucell_nobias", lambda nn: nn.GRUCell(3, 4, has_bias=False), False),
]


@pytest.mark.parametrize("name,factory,is_lstm", CELL_CASES, ids=[c[0] for c in CELL_CASES])
def test_rnn_cells(name, factory, is_lstm):
    mcell, tcell = _pair(factory)
    hx = (_rand(2, 4), _rand(2, 4)) if is_lstm else _rand(2, 4)
    _compare(mcell, tcell, [_rand(2, 3), hx], grad_position=(0, 1))


# ----------------------------------------------------------------------------- attention
def _bool_mask(shape, rng_seed=1):
    rng = np.random.default_rng(rng_seed)
    mask = rng.random(shape) < 0.3
    mask[..., 0] = False  # no fully masked row
    return mask


MHA_CASES = [
    ("self", lambda nn: nn.MultiheadAttention(8, 2), "self", {}),
    ("cross_batch_first", lambda nn: nn.MultiheadAttention(8, 2, batch_first=True), "cross_bf", {}),
    ("kv_dims_bias_kv_zero_attn_masks",
     lambda nn: nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True, kdim=6, vdim=5), "kvdims",
     {"key_padding_mask": _bool_mask((3, 4)), "attn_mask": _bool_mask((5, 4), 2)}),
    ("nobias_float_mask_per_head",
     lambda nn: nn.MultiheadAttention(8, 4, has_bias=False), "cross",
     {"attn_mask": np.random.default_rng(3).standard_normal((12, 5, 4)).astype(np.float32),
      "average_attn_weights": False}),
    ("float_key_padding_mask", lambda nn: nn.MultiheadAttention(8, 2), "cross",
     {"key_padding_mask": np.where(_bool_mask((3, 4)), -1e9, 0.0).astype(np.float32)}),
    ("unbatched", lambda nn: nn.MultiheadAttention(8, 2), "unbatched",
     {"key_padding_mask": _bool_mask((5,))}),
    ("no_weights", lambda nn: nn.MultiheadAttention(8, 2), "cross", {"need_weights": False}),
]


def _mha_inputs(kind):
    if kind == "self":
        q = _rand(5, 3, 8)
        return [q, q, q], 0
    if kind == "cross_bf":
        k = _rand(3, 4, 8)
        return [_rand(3, 5, 8), k, k], (0, 1)
    if kind == "kvdims":
        return [_rand(5, 3, 8), _rand(4, 3, 6), _rand(4, 3, 5)], (0, 1, 2)
    if kind == "unbatched":
        return [_rand(6, 8), _rand(5, 8), _rand(5, 8)], (0, 1, 2)
    return [_rand(5, 3, 8), _rand(4, 3, 8), _rand(4, 3, 8)], (0, 1, 2)


@pytest.mark.parametrize("name,factory,kind,kwargs", MHA_CASES, ids=[c[0] for c in MHA_CASES])
def test_multihead_attention(name, factory, kind, kwargs):
    mcell, tcell = _pair(factory)
    args, pos = _mha_inputs(kind)
    _compare(mcell, tcell, args, kwargs, grad_position=pos)


def test_multihead_attention_graph_mode():
    ts.set_context(mode=ts.GRAPH_MODE)
    mcell, tcell = _pair(lambda nn: nn.MultiheadAttention(8, 2, add_bias_kv=True))
    args, pos = _mha_inputs("cross")
    _compare(mcell, tcell, args, {"attn_mask": _bool_mask((5, 4))}, grad_position=pos)


def test_multihead_attention_repr():
    for factory in (lambda nn: nn.MultiheadAttention(8, 2), lambda nn: nn.MultiheadAttention(8, 2, kdim=4)):
        mcell, tcell = factory(mnn), factory(tnn)
        assert repr(tcell) == repr(mcell)


# ----------------------------------------------------------------------------- transformer
def _norm(nn, d):
    if hasattr(nn, "LayerNorm"):
        return nn.LayerNorm((d,), epsilon=1e-5)
    return ts_transformer._layer_norm(d, 1e-5, ts.float32)


TRANSFORMER_CASES = [
    ("encoder_layer", lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), "src",
     {"src_mask": _bool_mask((4, 4))}),
    ("encoder_layer_norm_first_gelu_bf",
     lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", norm_first=True,
                                           batch_first=True), "src_bf",
     {"src_key_padding_mask": _bool_mask((3, 4))}),
    ("encoder_stack_norm",
     lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, _norm(nn, 8)), "src",
     {"src_key_padding_mask": _bool_mask((3, 4))}),
    ("decoder_stack_norm_first",
     lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True), 2,
                                      _norm(nn, 8)), "tgt_mem",
     {"tgt_mask": _bool_mask((3, 3)), "memory_key_padding_mask": _bool_mask((3, 4))}),
]


def _transformer_inputs(kind):
    if kind == "src":
        return [_rand(4, 3, 8)], 0
    if kind == "src_bf":
        return [_rand(3, 4, 8)], 0
    return [_rand(3, 3, 8), _rand(4, 3, 8)], (0, 1)


@pytest.mark.parametrize("name,factory,kind,kwargs", TRANSFORMER_CASES, ids=[c[0] for c in TRANSFORMER_CASES])
def test_transformer_layers(name, factory, kind, kwargs):
    mcell, tcell = _pair(factory)
    args, pos = _transformer_inputs(kind)
    _compare(mcell, tcell, args, kwargs, grad_position=pos, train=True)


def test_transformer_full_eval_mode_with_dropout():
    ts.set_context(mode=ts.GRAPH_MODE)
    mcell, tcell = _pair(lambda nn: nn.Transformer(8, 2, 1, 1, 16, dropout=0.3))
    _compare(mcell, tcell, [_rand(4, 2, 8), _rand(3, 2, 8)], {"tgt_mask": _bool_mask((3, 3))},
             grad_position=(0, 1), train=False)


def test_transformer_reprs_and_children():
    for factory in (lambda nn: nn.TransformerEncoderLayer(8, 2, 16),
                    lambda nn: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.2),
                    lambda nn: nn.Transformer(8, 2, 1, 1, 16)):
        mcell, tcell = factory(mnn), factory(tnn)
        assert [n for n, _ in tcell.cells_and_names()] == [n for n, _ in mcell.cells_and_names()]
        assert repr(tcell) == repr(mcell)

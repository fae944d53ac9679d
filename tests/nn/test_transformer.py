"""Tests of MultiheadAttention and the Transformer layers.

The attention numbers are checked against a numpy reference of scaled dot-product attention; the
comparison with real MindSpore is in tests/parity/test_rnn_transformer_parity.py.
"""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn, ops

RTOL = ATOL = 1e-5


def _rand(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _np_mha(mha, q, k, v, attn_mask=None, key_padding_mask=None):
    """numpy multi-head attention for (seq, batch, feature) inputs; bool masks with True = masked."""
    e, h = mha.embed_dim, mha.num_heads
    hd = e // h
    w = mha.in_proj_weight.asnumpy()
    b = mha.in_proj_bias.asnumpy()
    qp, kp, vp = (x @ w[i * e:(i + 1) * e].T + b[i * e:(i + 1) * e] for i, x in enumerate((q, k, v)))

    def heads(x):  # (seq, N, E) -> (N, H, seq, hd)
        return x.reshape(x.shape[0], x.shape[1], h, hd).transpose(1, 2, 0, 3)

    scores = heads(qp) @ heads(kp).transpose(0, 1, 3, 2) / np.sqrt(hd)
    if attn_mask is not None:
        scores = np.where(attn_mask[None, None], -np.inf, scores)
    if key_padding_mask is not None:
        scores = np.where(key_padding_mask[:, None, None, :], -np.inf, scores)
    weights = _softmax(scores)
    out = (weights @ heads(vp)).transpose(2, 0, 1, 3).reshape(q.shape[0], q.shape[1], e)
    out = out @ mha.out_proj.weight.asnumpy().T + mha.out_proj.bias.asnumpy()
    return out, weights.mean(1)


def _mask(rng, shape):
    m = rng.random(shape) < 0.3
    m[..., 0] = False
    return m


# ----------------------------------------------------------------------------- MultiheadAttention
def test_mha_matches_numpy(mode):
    rng = np.random.default_rng(0)
    mha = nn.MultiheadAttention(8, 2)
    mha.in_proj_bias.set_data(Tensor(_rand(rng, 24)))
    q, k, v = _rand(rng, 5, 3, 8), _rand(rng, 4, 3, 8), _rand(rng, 4, 3, 8)
    am, kpm = _mask(rng, (5, 4)), _mask(rng, (3, 4))
    want_out, want_w = _np_mha(mha, q, k, v, am, kpm)
    out, weights = mha(Tensor(q), Tensor(k), Tensor(v), key_padding_mask=Tensor(kpm), attn_mask=Tensor(am))
    np.testing.assert_allclose(out.asnumpy(), want_out, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(weights.asnumpy(), want_w, rtol=RTOL, atol=ATOL)


def test_mha_float_masks_equal_bool_masks():
    rng = np.random.default_rng(1)
    mha = nn.MultiheadAttention(8, 2)
    q = Tensor(_rand(rng, 5, 3, 8))
    am, kpm = _mask(rng, (5, 5)), _mask(rng, (3, 5))
    a = mha(q, q, q, key_padding_mask=Tensor(kpm), attn_mask=Tensor(am))[0]
    b = mha(q, q, q, key_padding_mask=Tensor(np.where(kpm, -np.inf, 0).astype(np.float32)),
            attn_mask=Tensor(np.where(am, -np.inf, 0).astype(np.float32)))[0]
    c = mha(q, q, q, key_padding_mask=Tensor(kpm), attn_mask=Tensor(am.astype(np.uint8)))[0]
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(a.asnumpy(), c.asnumpy(), rtol=1e-6, atol=1e-6)


def test_mha_shapes_and_outputs():
    rng = np.random.default_rng(2)
    mha = nn.MultiheadAttention(8, 4, batch_first=True)
    q, kv = Tensor(_rand(rng, 3, 5, 8)), Tensor(_rand(rng, 3, 6, 8))
    out, w = mha(q, kv, kv)
    assert out.shape == (3, 5, 8) and w.shape == (3, 5, 6)
    out, w = mha(q, kv, kv, average_attn_weights=False)
    assert w.shape == (3, 4, 5, 6)
    np.testing.assert_allclose(w.asnumpy().sum(-1), 1, rtol=1e-5)
    res = mha(q, kv, kv, need_weights=False)
    assert isinstance(res, tuple) and len(res) == 1 and res[0].shape == (3, 5, 8)
    # unbatched input
    un = nn.MultiheadAttention(8, 2)
    out, w = un(Tensor(_rand(rng, 5, 8)), Tensor(_rand(rng, 6, 8)), Tensor(_rand(rng, 6, 8)))
    assert out.shape == (5, 8) and w.shape == (5, 6)
    # batch_first gives the transposed result of the sequence-first layer
    sf = nn.MultiheadAttention(8, 4)
    for p_sf, p_bf in zip(sf.get_parameters(), mha.get_parameters()):
        p_sf.set_data(p_bf)
    out_sf, _ = sf(Tensor(q.asnumpy().transpose(1, 0, 2)), Tensor(kv.asnumpy().transpose(1, 0, 2)),
                   Tensor(kv.asnumpy().transpose(1, 0, 2)))
    out_bf, _ = mha(q, kv, kv)
    np.testing.assert_allclose(out_sf.asnumpy().transpose(1, 0, 2), out_bf.asnumpy(), rtol=1e-5, atol=1e-6)


def test_mha_bias_kv_zero_attn_and_kdim():
    mha = nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True, kdim=6, vdim=5, has_bias=False)
    assert [(p.name, p.shape) for p in mha.get_parameters()] == [
        ("q_proj_weight", (8, 8)), ("k_proj_weight", (8, 6)), ("v_proj_weight", (8, 5)), ("bias_k", (1, 1, 8)),
        ("bias_v", (1, 1, 8)), ("out_proj.weight", (8, 8))]
    rng = np.random.default_rng(3)
    out, w = mha(Tensor(_rand(rng, 5, 2, 8)), Tensor(_rand(rng, 4, 2, 6)), Tensor(_rand(rng, 4, 2, 5)),
                 key_padding_mask=Tensor(_mask(rng, (2, 4))))
    assert out.shape == (5, 2, 8) and w.shape == (2, 5, 6)


def test_mha_parameters_and_init():
    mha = nn.MultiheadAttention(8, 2)
    assert [(p.name, p.shape) for p in mha.get_parameters()] == [
        ("in_proj_weight", (24, 8)), ("in_proj_bias", (24,)), ("out_proj.weight", (8, 8)), ("out_proj.bias", (8,))]
    assert not mha.in_proj_bias.asnumpy().any()
    bound = np.sqrt(6 / (24 + 8))  # XavierUniform over (3E, E)
    assert np.abs(mha.in_proj_weight.asnumpy()).max() <= bound
    assert repr(mha) == ("MultiheadAttention(\n  (out_proj): Dense(input_channels=8, output_channels=8, "
                         "has_bias=True)\n)")


def test_mha_dropout_only_in_training():
    mha = nn.MultiheadAttention(8, 2, dropout=0.5)
    q = Tensor(np.random.default_rng(4).standard_normal((5, 2, 8)).astype(np.float32))
    a, b = mha(q, q, q)[1].asnumpy(), mha(q, q, q)[1].asnumpy()
    np.testing.assert_array_equal(a, b)
    mha.set_train()
    assert not np.allclose(mha(q, q, q)[1].asnumpy(), a)


def test_mha_gradients(mode):
    mha = nn.MultiheadAttention(8, 2, add_bias_kv=True)
    q = Tensor(np.random.default_rng(5).standard_normal((4, 2, 8)).astype(np.float32))
    params = mha.trainable_params()
    gq, gw = ms.grad(lambda a: mha(a, a, a)[0].sum(), 0, params)(q)
    assert gq.shape == (4, 2, 8)
    assert len(gw) == len(params) == 6
    assert all(np.abs(g.asnumpy()).sum() > 0 for g in gw)


@pytest.mark.parametrize("kwargs,error,words", [
    ({"embed_dim": 10, "num_heads": 4}, ValueError, ["divisible", "embed_dim=10", "num_heads=4"]),
    ({"num_heads": 0}, ValueError, ["MultiheadAttention", "num_heads", "0"]),
    ({"embed_dim": 8.0}, TypeError, ["MultiheadAttention", "embed_dim", "8.0"]),
    ({"dropout": 1.5}, ValueError, ["MultiheadAttention", "dropout", "1.5"]),
    ({"dropout": "0.1"}, TypeError, ["MultiheadAttention", "dropout"]),
    ({"has_bias": 1}, TypeError, ["MultiheadAttention", "has_bias"]),
    ({"kdim": 0}, ValueError, ["MultiheadAttention", "kdim", "0"]),
])
def test_mha_constructor_errors(kwargs, error, words):
    args = {"embed_dim": 8, "num_heads": 2}
    args.update(kwargs)
    with pytest.raises(error) as info:
        nn.MultiheadAttention(**args)
    for word in words:
        assert word in str(info.value)


def test_mha_call_errors():
    mha = nn.MultiheadAttention(8, 2)
    q = Tensor(np.ones((5, 2, 8), np.float32))
    with pytest.raises(ValueError, match="only bool and floating types of key_padding_mask"):
        mha(q, q, q, key_padding_mask=Tensor(np.zeros((2, 5), np.int32)))
    with pytest.raises(ValueError, match="The shape of the `attn_mask` should be \\(5, 5\\)"):
        mha(q, q, q, attn_mask=Tensor(np.zeros((4, 5), np.bool_)))
    with pytest.raises(ValueError, match="`attn_mask` only support float, byte, and bool types"):
        mha(q, q, q, attn_mask=Tensor(np.zeros((5, 5), np.int32)))
    with pytest.raises(ValueError, match="The shape of `key_padding_mask` should be \\(2, 5\\)"):
        mha(q, q, q, key_padding_mask=Tensor(np.zeros((2, 4), np.bool_)))
    with pytest.raises(ValueError, match="should be unbatched 2D or batched 3D"):
        mha(Tensor(np.ones((1, 5, 2, 8), np.float32)), q, q)
    with pytest.raises(ValueError, match="The `embed_dim` should be 8, but got 6"):
        x = Tensor(np.ones((5, 2, 6), np.float32))
        mha(x, x, x)


# ----------------------------------------------------------------------------- encoder / decoder
def test_encoder_layer_children_and_parameters():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    assert [n for n, _ in layer.cells_and_names()] == ["", "self_attn", "self_attn.out_proj", "dense1", "dropout",
                                                       "dense2", "norm1", "norm2", "dropout1", "dropout2"]
    assert [p.name for p in layer.get_parameters()] == [
        "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
        "dense1.weight", "dense1.bias", "dense2.weight", "dense2.bias", "norm1.gamma", "norm1.beta", "norm2.gamma",
        "norm2.beta"]
    assert layer.activation is ops.relu
    assert nn.TransformerEncoderLayer(8, 2, 16, activation="gelu").activation is ops.gelu
    assert np.abs(layer.dense1.bias.asnumpy()).max() <= 1 / np.sqrt(8)
    assert np.abs(layer.dense2.bias.asnumpy()).max() <= 1 / np.sqrt(16)


def _np_layer_norm(x, eps=1e-5):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps)


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_matches_numpy(mode, norm_first):
    rng = np.random.default_rng(6)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first)
    layer.set_train()
    x = _rand(rng, 5, 3, 8)

    def attn(a):
        return _np_mha(layer.self_attn, a, a, a)[0]

    def ff(a):
        h = np.maximum(a @ layer.dense1.weight.asnumpy().T + layer.dense1.bias.asnumpy(), 0)
        return h @ layer.dense2.weight.asnumpy().T + layer.dense2.bias.asnumpy()

    if norm_first:
        y = x + attn(_np_layer_norm(x))
        want = y + ff(_np_layer_norm(y))
    else:
        y = _np_layer_norm(x + attn(x))
        want = _np_layer_norm(y + ff(y))
    np.testing.assert_allclose(layer(Tensor(x)).asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_encoder_dropout_train_and_eval():
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)
    x = Tensor(np.random.default_rng(7).standard_normal((4, 2, 8)).astype(np.float32))
    a = layer(x).asnumpy()
    np.testing.assert_array_equal(layer(x).asnumpy(), a)
    layer.set_train()
    assert not np.allclose(layer(x).asnumpy(), a)


def test_activation_arguments():
    assert isinstance(nn.TransformerEncoderLayer(8, 2, 16, activation=nn.GELU()).activation, nn.GELU)
    assert nn.TransformerDecoderLayer(8, 2, 16, activation=ops.gelu).activation is ops.gelu
    with pytest.raises(ValueError, match="The activation must be relu/gelu, but get tanh"):
        nn.TransformerEncoderLayer(8, 2, 16, activation="tanh")
    with pytest.raises(ValueError, match="must be nn.ReLU or nn.GELU instance"):
        nn.TransformerEncoderLayer(8, 2, 16, activation=nn.Tanh())
    with pytest.raises(ValueError, match="must be ops.relu or ops.gelu instance"):
        nn.TransformerEncoderLayer(8, 2, 16, activation=ops.sigmoid)
    with pytest.raises(ValueError, match="must be str, callable or Cell instance, but get 3"):
        nn.TransformerEncoderLayer(8, 2, 16, activation=3)


@pytest.mark.parametrize("kwargs,error,words", [
    ({"d_model": 0}, ValueError, ["TransformerEncoderLayer", "d_model", "0"]),
    ({"dim_feedforward": "16"}, TypeError, ["TransformerEncoderLayer", "dim_feedforward"]),
    ({"dropout": 1.0}, ValueError, ["TransformerEncoderLayer", "dropout", "1.0"]),
    ({"layer_norm_eps": -1.0}, ValueError, ["TransformerEncoderLayer", "layer_norm_eps", "-1.0"]),
    ({"norm_first": "yes"}, TypeError, ["TransformerEncoderLayer", "norm_first"]),
    ({"nhead": 3}, ValueError, ["divisible", "embed_dim=8", "num_heads=3"]),
])
def test_encoder_layer_errors(kwargs, error, words):
    args = {"d_model": 8, "nhead": 2, "dim_feedforward": 16}
    args.update(kwargs)
    with pytest.raises(error) as info:
        nn.TransformerEncoderLayer(**args)
    for word in words:
        assert word in str(info.value)


def test_encoder_stack_copies_one_new_layer():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    enc = nn.TransformerEncoder(layer, 3)
    params = enc.get_parameters()
    names = [p.name for p in params]
    assert names[0] == "layers.0.self_attn.in_proj_weight" and names[-1] == "layers.2.norm2.beta"
    assert len(names) == 36
    w0, w1 = enc.layers[0].dense1.weight, enc.layers[1].dense1.weight
    np.testing.assert_array_equal(w0.asnumpy(), w1.asnumpy())
    assert w0 is not w1 and w0.variable is not w1.variable
    assert not np.array_equal(w0.asnumpy(), layer.dense1.weight.asnumpy())
    assert enc.layers[0].self_attn._seed != enc.layers[1].self_attn._seed  # no shared dropout masks
    with pytest.raises(AssertionError, match="only bool and floating types of key_padding_mask"):
        enc(Tensor(np.ones((4, 2, 8), np.float32)), src_key_padding_mask=Tensor(np.zeros((2, 4), np.int32)))
    with pytest.raises(TypeError, match="For 'TransformerEncoder', the 'encoder_layer' must be a "
                                        "TransformerEncoderLayer"):
        nn.TransformerEncoder(nn.Dense(2, 2), 2)
    with pytest.raises(ValueError, match="For 'TransformerEncoder', the 'num_layers' must be a positive int, but "
                                         "got 0"):
        nn.TransformerEncoder(layer, 0)


def test_encoder_graph_mode_dynamic_lengths_and_pynative_equal():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2)
    x = Tensor(np.random.default_rng(8).standard_normal((2, 5, 8)).astype(np.float32))
    kpm = Tensor(np.array([[False] * 5, [False] * 3 + [True] * 2]))
    eager = enc(x, src_key_padding_mask=kpm).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(enc(x, src_key_padding_mask=kpm).asnumpy(), eager, rtol=1e-5, atol=1e-6)
    enc.set_inputs(Tensor(shape=[None, None, 8], dtype=ms.float32))
    for batch, seq in ((2, 5), (3, 7)):
        assert enc(Tensor(np.ones((batch, seq, 8), np.float32))).shape == (batch, seq, 8)


def test_decoder_and_transformer():
    layer = nn.TransformerDecoderLayer(8, 2, 16)
    assert [n for n, _ in layer.cells_and_names()][1:6] == ["self_attn", "self_attn.out_proj", "multihead_attn",
                                                             "multihead_attn.out_proj", "dense1"]
    dec = nn.TransformerDecoder(layer, 2)
    rng = np.random.default_rng(9)
    tgt, mem = Tensor(_rand(rng, 4, 2, 8)), Tensor(_rand(rng, 6, 2, 8))
    assert dec(tgt, mem, tgt_mask=Tensor(np.triu(np.ones((4, 4), np.bool_), 1))).shape == (4, 2, 8)
    net = nn.Transformer(8, 2, 1, 2, 16)
    names = [p.name for p in net.get_parameters()]
    assert names[0] == "encoder.layers.0.self_attn.in_proj_weight"
    assert "decoder.layers.1.multihead_attn.out_proj.bias" in names and names[-1] == "decoder.norm.beta"
    for p in net.get_parameters():
        if len(p.shape) > 1:  # xavier_uniform
            assert np.abs(p.asnumpy()).max() <= np.sqrt(6 / (p.shape[0] + p.shape[1])) + 1e-6
    assert net(Tensor(_rand(rng, 6, 2, 8)), tgt).shape == (4, 2, 8)
    with pytest.raises(ValueError, match="must be equal to `d_model`"):
        net(Tensor(_rand(rng, 6, 2, 6)), tgt)
    with pytest.raises(ValueError, match="batch size for 'src' and 'tgt' must be equal"):
        net(Tensor(_rand(rng, 6, 3, 8)), tgt)


def test_transformer_trains(mode):
    net = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 1)
    head = nn.Dense(8, 2)

    class Classifier(nn.Cell):
        def __init__(self):
            super().__init__()
            self.encoder = net
            self.head = head

        def construct(self, x):
            return self.head(self.encoder(x).mean(1))

    model = Classifier()
    rng = np.random.default_rng(10)
    x = Tensor(_rand(rng, 6, 4, 8))
    y = Tensor(np.array([0, 1, 0, 1, 1, 0], np.int32))
    train = nn.TrainOneStepCell(nn.WithLossCell(model, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                          reduction="mean")),
                                nn.Adam(model.trainable_params(), 0.01) if hasattr(nn, "Adam")
                                else nn.Momentum(model.trainable_params(), 0.05, 0.9))
    train.set_train()
    losses = [float(train(x, y).asnumpy()) for _ in range(6)]
    assert losses[-1] < losses[0]

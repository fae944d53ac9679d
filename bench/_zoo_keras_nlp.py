"""The zoo's NLP and recommendation networks as a Keras 3 user writes them, for ``bench.zoo_speed``.

Each ``*_twin`` function returns ``(model, x, y, loss)`` for ``model.fit(x, y)``: the network with
the layer shapes of the zoo script of the same name (at the config ``bench/zoo_speed.py`` gives
that script), in-memory random inputs of ``n`` rows, and the loss. Where the zoo's loss needs
several inputs (BERT's masked-LM weights, the Transformer's target mask, DeepFM's L2 term on its
tables), the model computes it and outputs it per row, and the Keras loss is that output
(``_model_loss``), as a Keras user writes such a loss.

* ``bert``: ``official/nlp/Bert`` pre-training (``BertNetworkWithLoss``): word, token-type and
  position embeddings, LayerNorm, dropout; post-LN encoder layers (multi-head attention with
  biases, dense-GELU intermediate); pooler; masked-LM head (gather, dense-GELU, LayerNorm, output
  tied to the word embedding, bias, log-softmax) and next-sentence head; the zoo's weighted
  masked-LM loss plus the next-sentence loss.
* ``transformer``: ``official/nlp/Transformer`` (``TransformerNetworkWithLoss``): shared scaled
  embedding with sinusoidal positions, pre-LN encoder and decoder layers (attention without
  biases, dense-ReLU feed-forward), output tied to the embedding, label-smoothed loss weighted by
  the target mask.
* ``textcnn``: ``research/nlp/textcnn``: embedding, three (k x 40) convolutions (k = 3, 4, 5, 96
  filters, zero-padding 1 as the zoo's ``pad_mode='pad'``), ReLU, max-pool, max, dropout, dense.
* ``deepfm``: ``official/recommend/DeepFM``: first-order weights and embeddings gathered by id and
  scaled by value, FM second-order term, a dense-ReLU tower, sigmoid cross-entropy plus the zoo's
  L2 term on both whole tables.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["TWINS", "bert_twin", "transformer_twin", "textcnn_twin", "deepfm_twin"]


def _model_loss(y_true, y_pred):
    """The model's own per-row loss output, as the Keras loss."""
    del y_true
    return y_pred


def _gelu(x):
    import keras
    return keras.activations.gelu(x, approximate=True)


def bert_twin(batch: int, n: int, seq_length: int = 16, vocab_size: int = 100, hidden_size: int = 32,
              num_hidden_layers: int = 2, num_attention_heads: int = 2, intermediate_size: int = 64,
              max_position_embeddings: int = 32, max_predictions: int = 4, dropout: float = 0.1):
    """BERT pre-training network and loss (see the module docstring)."""
    import keras
    from keras import layers, ops

    class BertLayer(layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.att = layers.MultiHeadAttention(num_attention_heads, hidden_size // num_attention_heads,
                                                 dropout=dropout)
            self.drop1, self.drop2 = layers.Dropout(dropout), layers.Dropout(dropout)
            self.ln1, self.ln2 = layers.LayerNormalization(epsilon=1e-7), layers.LayerNormalization(epsilon=1e-7)
            self.inter = layers.Dense(intermediate_size, activation=_gelu)
            self.out = layers.Dense(hidden_size)

        def call(self, x, mask, training=False):
            a = self.att(x, x, attention_mask=mask, training=training)
            x = self.ln1(x + self.drop1(a, training=training))
            return self.ln2(x + self.drop2(self.out(self.inter(x)), training=training))

    class BertPretrain(keras.Model):
        def __init__(self):
            super().__init__()
            self.word = layers.Embedding(vocab_size, hidden_size)
            self.token_type = layers.Embedding(2, hidden_size)
            self.position = layers.Embedding(max_position_embeddings, hidden_size)
            self.emb_ln = layers.LayerNormalization(epsilon=1e-7)
            self.emb_drop = layers.Dropout(dropout)
            self.encoders = [BertLayer() for _ in range(num_hidden_layers)]
            self.pooler = layers.Dense(hidden_size, activation="tanh")
            self.mlm_dense = layers.Dense(hidden_size, activation=_gelu)
            self.mlm_ln = layers.LayerNormalization(epsilon=1e-7)
            self.nsp = layers.Dense(2)

        def build(self, input_shape):
            self.mlm_bias = self.add_weight(shape=(vocab_size,), initializer="zeros", name="output_bias")
            super().build(input_shape)

        def call(self, inputs, training=False):
            ids, mask, segment, positions, mlm_ids, mlm_weights, nsp_labels = inputs
            x = self.word(ids) + self.token_type(segment) + self.position(ops.arange(seq_length))[None]
            x = self.emb_drop(self.emb_ln(x), training=training)
            att_mask = ops.cast(mask[:, None, :], "bool")
            for enc in self.encoders:
                x = enc(x, att_mask, training=training)
            pooled = self.pooler(x[:, 0])
            picked = ops.take_along_axis(x, positions[:, :, None], axis=1)
            picked = self.mlm_ln(self.mlm_dense(picked))
            logits = ops.matmul(picked, ops.transpose(self.word.embeddings)) + self.mlm_bias
            log_probs = ops.log_softmax(logits, axis=-1)
            mlm = -ops.sum(log_probs * ops.one_hot(mlm_ids, vocab_size), axis=-1)
            w = ops.cast(mlm_weights, "float32")
            mlm_loss = ops.sum(mlm * w) / (ops.sum(w) + 1e-5)
            nsp_log_probs = ops.log_softmax(self.nsp(pooled), axis=-1)
            nsp_loss = -ops.sum(nsp_log_probs * ops.one_hot(nsp_labels[:, 0], 2), axis=-1)
            return mlm_loss + nsp_loss

    rng = np.random.default_rng(0)
    x = (rng.integers(0, vocab_size, (n, seq_length)).astype(np.int32), np.ones((n, seq_length), np.int32),
         rng.integers(0, 2, (n, seq_length)).astype(np.int32),
         rng.integers(0, seq_length, (n, max_predictions)).astype(np.int32),
         rng.integers(0, vocab_size, (n, max_predictions)).astype(np.int32),
         np.ones((n, max_predictions), np.float32), rng.integers(0, 2, (n, 1)).astype(np.int32))
    return BertPretrain(), x, np.zeros((n,), np.float32), _model_loss


def _position_encoding(length: int, depth: int) -> np.ndarray:
    # The zoo's sinusoidal table: sin on the first half of the channels, cos on the second.
    positions = np.arange(length, dtype=np.float32)
    num_timescales = depth // 2
    log_increment = math.log(10000.0) / max(num_timescales - 1, 1)
    inv = np.exp(np.arange(num_timescales, dtype=np.float32) * -log_increment)
    scaled = positions[:, None] * inv[None, :]
    return np.concatenate([np.sin(scaled), np.cos(scaled)], axis=1).astype(np.float32)


def transformer_twin(batch: int, n: int, seq_length: int = 16, vocab_size: int = 100, hidden_size: int = 32,
                     num_hidden_layers: int = 1, num_attention_heads: int = 2, intermediate_size: int = 64,
                     dropout: float = 0.2, label_smoothing: float = 0.1):
    """Transformer (encoder-decoder) training network and loss (see the module docstring)."""
    import keras
    from keras import layers, ops

    def mha():
        return layers.MultiHeadAttention(num_attention_heads, hidden_size // num_attention_heads, dropout=dropout,
                                         use_bias=False)

    class FeedForward(layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.ln = layers.LayerNormalization(epsilon=1e-7)
            self.d1 = layers.Dense(intermediate_size, activation="relu")
            self.d2 = layers.Dense(hidden_size)
            self.drop1, self.drop2 = layers.Dropout(dropout), layers.Dropout(dropout)

        def call(self, x, training=False):
            y = self.d2(self.drop1(self.d1(self.ln(x)), training=training))
            return x + self.drop2(y, training=training)

    class AttentionBlock(layers.Layer):
        def __init__(self, cross: bool, **kw):
            super().__init__(**kw)
            self.ln1, self.att1, self.drop1 = layers.LayerNormalization(epsilon=1e-7), mha(), layers.Dropout(dropout)
            self.cross = cross
            if cross:
                self.ln2, self.att2 = layers.LayerNormalization(epsilon=1e-7), mha()
                self.drop2 = layers.Dropout(dropout)
            self.ffn = FeedForward()

        def call(self, x, self_mask, memory=None, cross_mask=None, training=False):
            h = self.ln1(x)
            x = x + self.drop1(self.att1(h, h, attention_mask=self_mask, training=training), training=training)
            if self.cross:
                h = self.ln2(x)
                a = self.att2(h, memory, attention_mask=cross_mask, training=training)
                x = x + self.drop2(a, training=training)
            return self.ffn(x, training=training)

    table = _position_encoding(seq_length, hidden_size)

    class TransformerTrain(keras.Model):
        def __init__(self):
            super().__init__()
            self.emb = layers.Embedding(vocab_size, hidden_size)
            self.enc_drop, self.dec_drop = layers.Dropout(dropout), layers.Dropout(dropout)
            self.encoders = [AttentionBlock(False) for _ in range(num_hidden_layers)]
            self.decoders = [AttentionBlock(True) for _ in range(num_hidden_layers)]
            self.enc_ln = layers.LayerNormalization(epsilon=1e-7)
            self.dec_ln = layers.LayerNormalization(epsilon=1e-7)

        def embed(self, ids, drop, training):
            return drop(self.emb(ids) * math.sqrt(hidden_size) + table[None], training=training)

        def call(self, inputs, training=False):
            src, src_mask, tgt, tgt_mask, label, label_mask = inputs
            enc_mask = ops.cast(src_mask[:, None, :] * src_mask[:, :, None], "bool")
            causal = ops.cast(ops.tril(ops.ones((seq_length, seq_length))), "int32")
            dec_mask = ops.cast(tgt_mask[:, None, :] * causal[None], "bool")
            cross_mask = ops.cast(tgt_mask[:, :, None] * src_mask[:, None, :], "bool")
            m = self.embed(src, self.enc_drop, training)
            for enc in self.encoders:
                m = enc(m, enc_mask, training=training)
            m = self.enc_ln(m)
            y = self.embed(tgt, self.dec_drop, training)
            for dec in self.decoders:
                y = dec(y, dec_mask, m, cross_mask, training=training)
            y = self.dec_ln(y)
            log_probs = ops.log_softmax(ops.matmul(y, ops.transpose(self.emb.embeddings)), axis=-1)
            on, off = 1.0 - label_smoothing, label_smoothing / (vocab_size - 1)
            target = ops.one_hot(label, vocab_size) * (on - off) + off
            per_token = -ops.sum(log_probs * target, axis=-1)
            w = ops.cast(label_mask, "float32")
            return ops.sum(per_token * w) / (ops.sum(w) + 1e-5) + ops.zeros((ops.shape(src)[0],))

    rng = np.random.default_rng(0)
    ids = lambda: rng.integers(1, vocab_size, (n, seq_length)).astype(np.int32)  # noqa: E731
    ones = np.ones((n, seq_length), np.int32)
    x = (ids(), ones, ids(), ones, ids(), ones)
    return TransformerTrain(), x, np.zeros((n,), np.float32), _model_loss


def textcnn_twin(batch: int, n: int, vocab_size: int = 21, word_len: int = 51, vec_length: int = 40,
                 num_classes: int = 2):
    """TextCNN (see the module docstring)."""
    import keras
    from keras import layers
    inp = keras.Input((word_len,), dtype="int32")
    x = layers.Reshape((word_len, vec_length, 1))(layers.Embedding(vocab_size, vec_length)(inp))
    pooled = []
    for k in (3, 4, 5):
        y = layers.Conv2D(96, (k, vec_length), activation="relu")(layers.ZeroPadding2D(1)(x))
        y = layers.MaxPooling2D((word_len - k + 1, 1), strides=1)(y)
        pooled.append(layers.GlobalMaxPooling2D()(y))
    x = layers.Dropout(0.5)(layers.Concatenate()(pooled))
    model = keras.Model(inp, layers.Dense(num_classes)(x))
    rng = np.random.default_rng(0)
    x = rng.integers(0, vocab_size, (n, word_len)).astype(np.int32)
    y = rng.integers(0, num_classes, (n,)).astype(np.int32)
    return model, x, y, keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def deepfm_twin(batch: int, n: int, vocab_size: int = 1000, emb_dim: int = 16, fields: int = 39,
                deep_layers: tuple = (256, 128, 64, 32), l2_coef: float = 8e-5):
    """DeepFM (see the module docstring)."""
    import keras
    from keras import layers, ops

    class DeepFM(keras.Model):
        def __init__(self):
            super().__init__()
            self.tower = [layers.Dense(d, activation="relu") for d in deep_layers] + [layers.Dense(1)]

        def build(self, input_shape):
            init = keras.initializers.RandomNormal(stddev=0.01)
            self.fm_w = self.add_weight(shape=(vocab_size, 1), initializer=init, name="W_l2")
            self.table = self.add_weight(shape=(vocab_size, emb_dim), initializer=init, name="V_l2")
            super().build(input_shape)

        def call(self, inputs, training=False):
            ids, vals, label = inputs
            mask = vals[:, :, None]
            linear = ops.sum(ops.take(self.fm_w, ids, axis=0) * mask, axis=1)
            vx = ops.take(self.table, ids, axis=0) * mask
            fm = 0.5 * ops.sum(ops.square(ops.sum(vx, axis=1)) - ops.sum(ops.square(vx), axis=1), axis=1,
                               keepdims=True)
            deep = ops.reshape(vx, (-1, fields * emb_dim))
            for layer in self.tower:
                deep = layer(deep)
            logits = linear + fm + deep
            log_loss = ops.mean(ops.binary_crossentropy(label, logits, from_logits=True))
            l2 = l2_coef * (ops.sum(ops.square(self.fm_w)) + ops.sum(ops.square(self.table))) * 0.5
            return log_loss + l2 + ops.zeros((ops.shape(ids)[0],))

    rng = np.random.default_rng(0)
    x = (rng.integers(0, vocab_size, (n, fields)).astype(np.int32), rng.random((n, fields)).astype(np.float32),
         rng.integers(0, 2, (n, 1)).astype(np.float32))
    return DeepFM(), x, np.zeros((n,), np.float32), _model_loss


TWINS = {"bert": bert_twin, "transformer": transformer_twin, "textcnn": textcnn_twin, "deepfm": deepfm_twin}

"""A small BERT-style encoder written with MindSpore's layers.

The network follows BERT: token, position and token-type embeddings summed, normalised and
dropped out; a stack of Transformer encoder layers (multi-head self-attention and a GELU
feed-forward block, each with a residual connection and LayerNorm); a Tanh pooler over the
first token. Attention is spelled out with ``nn.Dense``, ``ops.BatchMatMul``, ``nn.Softmax``,
reshapes and transposes, the way MindSpore users write it. :class:`BertClassifier` adds a
dropout and a Dense layer on the pooled output for sequence classification.

Parameter names follow the attribute names: ``bert.embeddings.word_embeddings.embedding_table``,
``bert.encoder.layer.0.attention.self_attention.query.weight``,
``bert.encoder.layer.1.output.layernorm.gamma``, ``bert.pooler.dense.bias``,
``classifier.weight``, ...

The source uses only MindSpore's public API and runs unchanged under MindSpore and tfspore.

Example:
    >>> import numpy as np
    >>> import mindspore
    >>> config = BertConfig(vocab_size=50, hidden_size=32, num_hidden_layers=2,
    ...                     num_attention_heads=4, intermediate_size=64)
    >>> net = BertClassifier(config, num_labels=3)
    >>> ids = mindspore.Tensor(np.ones((2, 8), np.int32))
    >>> net(ids, mindspore.Tensor(np.zeros((2, 8), np.int32)),
    ...     mindspore.Tensor(np.ones((2, 8), np.int32))).shape
    (2, 3)
"""
import math

import mindspore
from mindspore import nn, ops
from mindspore.common.initializer import TruncatedNormal

__all__ = ["BertConfig", "BertEmbeddings", "BertSelfAttention", "BertAttention", "BertLayer",
           "BertEncoder", "BertPooler", "BertModel", "BertClassifier"]


class BertConfig:
    """Hyper-parameters of :class:`BertModel`.

    Args:
        vocab_size (int): Vocabulary size. Default: 30522.
        hidden_size (int): Width of the hidden states. Default: 768.
        num_hidden_layers (int): Number of encoder layers. Default: 12.
        num_attention_heads (int): Number of attention heads; divides ``hidden_size``.
            Default: 12.
        intermediate_size (int): Width of the feed-forward block. Default: 3072.
        hidden_dropout_prob (float): Dropout probability of the embeddings and of the
            sub-layer outputs. Default: 0.1.
        attention_probs_dropout_prob (float): Dropout probability of the attention weights.
            Default: 0.1.
        max_position_embeddings (int): Longest supported sequence. Default: 512.
        type_vocab_size (int): Number of token types (segments). Default: 2.
        initializer_range (float): Sigma of the truncated-normal weight initialisation.
            Default: 0.02.
        layer_norm_eps (float): Epsilon of the LayerNorms. Default: 1e-12.

    Raises:
        ValueError: If ``hidden_size`` is not a multiple of ``num_attention_heads``.

    Example:
        >>> config = BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2,
        ...                     num_attention_heads=4, intermediate_size=64)
        >>> config.hidden_size // config.num_attention_heads
        8
    """

    def __init__(self, vocab_size=30522, hidden_size=768, num_hidden_layers=12,
                 num_attention_heads=12, intermediate_size=3072, hidden_dropout_prob=0.1,
                 attention_probs_dropout_prob=0.1, max_position_embeddings=512,
                 type_vocab_size=2, initializer_range=0.02, layer_norm_eps=1e-12):
        if hidden_size % num_attention_heads != 0:
            raise ValueError(f"For 'BertConfig', the 'hidden_size' ({hidden_size}) must be a multiple "
                             f"of 'num_attention_heads', but got {num_attention_heads}.")
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.intermediate_size = intermediate_size
        self.hidden_dropout_prob = hidden_dropout_prob
        self.attention_probs_dropout_prob = attention_probs_dropout_prob
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size
        self.initializer_range = initializer_range
        self.layer_norm_eps = layer_norm_eps


def _dense(in_channels, out_channels, config):
    return nn.Dense(in_channels, out_channels,
                    weight_init=TruncatedNormal(config.initializer_range), bias_init='zeros')


class BertEmbeddings(nn.Cell):
    """Sum of word, position and token-type embeddings, then LayerNorm and dropout.

    Args:
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **input_ids** (Tensor) - Token ids of shape (N, S), int32.
        - **token_type_ids** (Tensor) - Segment ids of shape (N, S), int32.

    Outputs:
        Tensor of shape (N, S, hidden_size).

    Example:
        >>> emb = BertEmbeddings(BertConfig(vocab_size=100, hidden_size=32,
        ...                                 num_attention_heads=4))
    """

    def __init__(self, config):
        super(BertEmbeddings, self).__init__()
        init = TruncatedNormal(config.initializer_range)
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size,
                                            embedding_table=init)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings,
                                                config.hidden_size, embedding_table=init)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size,
                                                  embedding_table=init)
        self.layernorm = nn.LayerNorm((config.hidden_size,), epsilon=config.layer_norm_eps)
        self.dropout = nn.Dropout(p=config.hidden_dropout_prob)
        self.expand_dims = ops.ExpandDims()

    def construct(self, input_ids, token_type_ids):
        """Embeds a batch of token sequences.

        Args:
            input_ids (Tensor): Token ids of shape (N, S).
            token_type_ids (Tensor): Segment ids of shape (N, S).

        Returns:
            Tensor, the embeddings of shape (N, S, hidden_size).
        """
        seq_length = input_ids.shape[1]
        position_ids = self.expand_dims(ops.arange(seq_length, dtype=mindspore.int32), 0)
        embeddings = self.word_embeddings(input_ids)
        embeddings = embeddings + self.position_embeddings(position_ids)
        embeddings = embeddings + self.token_type_embeddings(token_type_ids)
        embeddings = self.layernorm(embeddings)
        embeddings = self.dropout(embeddings)
        return embeddings


class BertSelfAttention(nn.Cell):
    """Multi-head scaled dot-product self-attention.

    Args:
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **hidden_states** (Tensor) - Shape (N, S, hidden_size).
        - **attention_bias** (Tensor) - Additive mask of shape (N, 1, 1, S): 0 where a token
          may be attended to, -10000 where not.

    Outputs:
        Tensor of shape (N, S, hidden_size), the attended values of all heads, concatenated.

    Example:
        >>> attn = BertSelfAttention(BertConfig(hidden_size=32, num_attention_heads=4))
    """

    def __init__(self, config):
        super(BertSelfAttention, self).__init__()
        self.num_attention_heads = config.num_attention_heads
        self.head_size = config.hidden_size // config.num_attention_heads
        self.hidden_size = config.hidden_size
        self.query = _dense(config.hidden_size, config.hidden_size, config)
        self.key = _dense(config.hidden_size, config.hidden_size, config)
        self.value = _dense(config.hidden_size, config.hidden_size, config)
        self.scale = 1.0 / math.sqrt(self.head_size)
        self.reshape = ops.Reshape()
        self.transpose = ops.Transpose()
        self.matmul_trans_b = ops.BatchMatMul(transpose_b=True)
        self.matmul = ops.BatchMatMul()
        self.softmax = nn.Softmax(axis=-1)
        self.dropout = nn.Dropout(p=config.attention_probs_dropout_prob)

    def _split_heads(self, x, batch_size, seq_length):
        x = self.reshape(x, (batch_size, seq_length, self.num_attention_heads, self.head_size))
        return self.transpose(x, (0, 2, 1, 3))

    def construct(self, hidden_states, attention_bias):
        """Attends every position to every unmasked position.

        Args:
            hidden_states (Tensor): Shape (N, S, hidden_size).
            attention_bias (Tensor): Additive mask of shape (N, 1, 1, S).

        Returns:
            Tensor of shape (N, S, hidden_size).
        """
        batch_size, seq_length = hidden_states.shape[0], hidden_states.shape[1]
        query = self._split_heads(self.query(hidden_states), batch_size, seq_length)
        key = self._split_heads(self.key(hidden_states), batch_size, seq_length)
        value = self._split_heads(self.value(hidden_states), batch_size, seq_length)

        scores = self.matmul_trans_b(query, key) * self.scale
        scores = scores + attention_bias
        probs = self.softmax(scores)
        probs = self.dropout(probs)

        context = self.matmul(probs, value)
        context = self.transpose(context, (0, 2, 1, 3))
        return self.reshape(context, (batch_size, seq_length, self.hidden_size))


class BertSelfOutput(nn.Cell):
    """Projection, dropout, residual connection and LayerNorm after a sub-layer.

    Args:
        in_channels (int): Width of the sub-layer's output.
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **hidden_states** (Tensor) - The sub-layer's output, shape (N, S, in_channels).
        - **input_tensor** (Tensor) - The sub-layer's input, shape (N, S, hidden_size).

    Outputs:
        Tensor of shape (N, S, hidden_size).

    Example:
        >>> out = BertSelfOutput(64, BertConfig(hidden_size=32, num_attention_heads=4))
    """

    def __init__(self, in_channels, config):
        super(BertSelfOutput, self).__init__()
        self.dense = _dense(in_channels, config.hidden_size, config)
        self.dropout = nn.Dropout(p=config.hidden_dropout_prob)
        self.layernorm = nn.LayerNorm((config.hidden_size,), epsilon=config.layer_norm_eps)

    def construct(self, hidden_states, input_tensor):
        """Projects, adds the residual and normalises.

        Args:
            hidden_states (Tensor): The sub-layer's output.
            input_tensor (Tensor): The sub-layer's input.

        Returns:
            Tensor of shape (N, S, hidden_size).
        """
        hidden_states = self.dropout(self.dense(hidden_states))
        return self.layernorm(hidden_states + input_tensor)


class BertAttention(nn.Cell):
    """Self-attention followed by its output block.

    Args:
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **hidden_states** (Tensor) - Shape (N, S, hidden_size).
        - **attention_bias** (Tensor) - Additive mask of shape (N, 1, 1, S).

    Outputs:
        Tensor of shape (N, S, hidden_size).

    Example:
        >>> attn = BertAttention(BertConfig(hidden_size=32, num_attention_heads=4))
    """

    def __init__(self, config):
        super(BertAttention, self).__init__()
        self.self_attention = BertSelfAttention(config)
        self.output = BertSelfOutput(config.hidden_size, config)

    def construct(self, hidden_states, attention_bias):
        """Applies attention, projection, residual and LayerNorm.

        Args:
            hidden_states (Tensor): Shape (N, S, hidden_size).
            attention_bias (Tensor): Additive mask of shape (N, 1, 1, S).

        Returns:
            Tensor of shape (N, S, hidden_size).
        """
        attention_output = self.self_attention(hidden_states, attention_bias)
        return self.output(attention_output, hidden_states)


class BertLayer(nn.Cell):
    """One Transformer encoder layer: attention block and GELU feed-forward block.

    Args:
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **hidden_states** (Tensor) - Shape (N, S, hidden_size).
        - **attention_bias** (Tensor) - Additive mask of shape (N, 1, 1, S).

    Outputs:
        Tensor of shape (N, S, hidden_size).

    Example:
        >>> layer = BertLayer(BertConfig(hidden_size=32, num_attention_heads=4,
        ...                              intermediate_size=64))
    """

    def __init__(self, config):
        super(BertLayer, self).__init__()
        self.attention = BertAttention(config)
        self.intermediate = _dense(config.hidden_size, config.intermediate_size, config)
        self.intermediate_act = nn.GELU()
        self.output = BertSelfOutput(config.intermediate_size, config)

    def construct(self, hidden_states, attention_bias):
        """Applies the layer.

        Args:
            hidden_states (Tensor): Shape (N, S, hidden_size).
            attention_bias (Tensor): Additive mask of shape (N, 1, 1, S).

        Returns:
            Tensor of shape (N, S, hidden_size).
        """
        attention_output = self.attention(hidden_states, attention_bias)
        intermediate_output = self.intermediate_act(self.intermediate(attention_output))
        return self.output(intermediate_output, attention_output)


class BertEncoder(nn.Cell):
    """A stack of :class:`BertLayer`.

    Args:
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **hidden_states** (Tensor) - Shape (N, S, hidden_size).
        - **attention_bias** (Tensor) - Additive mask of shape (N, 1, 1, S).

    Outputs:
        Tensor of shape (N, S, hidden_size), the last layer's output.

    Example:
        >>> encoder = BertEncoder(BertConfig(hidden_size=32, num_hidden_layers=2,
        ...                                  num_attention_heads=4, intermediate_size=64))
    """

    def __init__(self, config):
        super(BertEncoder, self).__init__()
        self.layer = nn.CellList([BertLayer(config) for _ in range(config.num_hidden_layers)])

    def construct(self, hidden_states, attention_bias):
        """Applies the layers in order.

        Args:
            hidden_states (Tensor): Shape (N, S, hidden_size).
            attention_bias (Tensor): Additive mask of shape (N, 1, 1, S).

        Returns:
            Tensor of shape (N, S, hidden_size).
        """
        for layer_module in self.layer:
            hidden_states = layer_module(hidden_states, attention_bias)
        return hidden_states


class BertPooler(nn.Cell):
    """Dense layer and Tanh over the hidden state of the first token.

    Args:
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **hidden_states** (Tensor) - Shape (N, S, hidden_size).

    Outputs:
        Tensor of shape (N, hidden_size).

    Example:
        >>> pooler = BertPooler(BertConfig(hidden_size=32, num_attention_heads=4))
    """

    def __init__(self, config):
        super(BertPooler, self).__init__()
        self.dense = _dense(config.hidden_size, config.hidden_size, config)
        self.activation = nn.Tanh()

    def construct(self, hidden_states):
        """Pools the sequence into its first token's representation.

        Args:
            hidden_states (Tensor): Shape (N, S, hidden_size).

        Returns:
            Tensor of shape (N, hidden_size).
        """
        first_token = hidden_states[:, 0]
        return self.activation(self.dense(first_token))


class BertModel(nn.Cell):
    """The BERT encoder: embeddings, encoder layers and pooler.

    Args:
        config (BertConfig): The hyper-parameters.

    Inputs:
        - **input_ids** (Tensor) - Token ids of shape (N, S), int32.
        - **token_type_ids** (Tensor) - Segment ids of shape (N, S), int32.
        - **attention_mask** (Tensor) - 1 for real tokens, 0 for padding, shape (N, S), int32.

    Outputs:
        Tuple of two Tensors: the sequence output (N, S, hidden_size) and the pooled output
        (N, hidden_size).

    Example:
        >>> bert = BertModel(BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2,
        ...                             num_attention_heads=4, intermediate_size=64))
    """

    def __init__(self, config):
        super(BertModel, self).__init__()
        self.embeddings = BertEmbeddings(config)
        self.encoder = BertEncoder(config)
        self.pooler = BertPooler(config)
        self.cast = ops.Cast()
        self.expand_dims = ops.ExpandDims()

    def construct(self, input_ids, token_type_ids, attention_mask):
        """Encodes a batch of token sequences.

        Args:
            input_ids (Tensor): Token ids of shape (N, S).
            token_type_ids (Tensor): Segment ids of shape (N, S).
            attention_mask (Tensor): 1 for real tokens, 0 for padding, shape (N, S).

        Returns:
            Tuple (sequence_output, pooled_output).
        """
        mask = self.cast(attention_mask, mindspore.float32)
        mask = self.expand_dims(self.expand_dims(mask, 1), 1)
        attention_bias = (1.0 - mask) * -10000.0
        embedding_output = self.embeddings(input_ids, token_type_ids)
        sequence_output = self.encoder(embedding_output, attention_bias)
        pooled_output = self.pooler(sequence_output)
        return sequence_output, pooled_output


class BertClassifier(nn.Cell):
    """:class:`BertModel` with dropout and a Dense classifier on the pooled output.

    Args:
        config (BertConfig): The hyper-parameters.
        num_labels (int): Number of classes. Default: 2.

    Inputs:
        - **input_ids** (Tensor) - Token ids of shape (N, S), int32.
        - **token_type_ids** (Tensor) - Segment ids of shape (N, S), int32.
        - **attention_mask** (Tensor) - 1 for real tokens, 0 for padding, shape (N, S), int32.

    Outputs:
        Tensor of shape (N, num_labels), the logits.

    Example:
        >>> net = BertClassifier(BertConfig(vocab_size=100, hidden_size=32,
        ...                                 num_hidden_layers=2, num_attention_heads=4,
        ...                                 intermediate_size=64), num_labels=3)
    """

    def __init__(self, config, num_labels=2):
        super(BertClassifier, self).__init__()
        self.bert = BertModel(config)
        self.dropout = nn.Dropout(p=config.hidden_dropout_prob)
        self.classifier = _dense(config.hidden_size, num_labels, config)

    def construct(self, input_ids, token_type_ids, attention_mask):
        """Classifies a batch of token sequences.

        Args:
            input_ids (Tensor): Token ids of shape (N, S).
            token_type_ids (Tensor): Segment ids of shape (N, S).
            attention_mask (Tensor): 1 for real tokens, 0 for padding, shape (N, S).

        Returns:
            Tensor, the logits of shape (N, num_labels).
        """
        _, pooled_output = self.bert(input_ids, token_type_ids, attention_mask)
        return self.classifier(self.dropout(pooled_output))

"""The LSTM sentiment classifier of MindSpore's model zoo (``official/nlp/LSTM/src/lstm.py``).

``SentimentNet`` embeds a batch of token ids, runs a (bidirectional, multi-layer)
``nn.LSTM`` over the sequence in time-major layout, concatenates the outputs of the first
and the last time step and classifies them with a Dense layer. This is the zoo's network for
devices with a fused LSTM kernel. Parameter names are the zoo's: ``embedding.embedding_table``,
``encoder.weight_ih_l0``, ``encoder.weight_hh_l0_reverse``, ``encoder.bias_ih_l1``, ...,
``decoder.weight``, ``decoder.bias``.

The source uses only MindSpore's public API and runs unchanged under MindSpore and tfspore.

Example:
    >>> import numpy as np
    >>> import mindspore
    >>> net = SentimentNet(vocab_size=100, embed_size=16, num_hiddens=8, num_layers=2,
    ...                    bidirectional=True, num_classes=2, batch_size=4, seq_len=12)
    >>> ids = mindspore.Tensor(np.ones((4, 12), np.int32))
    >>> net(ids).shape
    (4, 2)
"""
import mindspore
from mindspore import nn, ops

__all__ = ["lstm_default_state", "SentimentNet"]


def lstm_default_state(batch_size, hidden_size, num_layers, bidirectional):
    """Zero initial hidden and cell states of an ``nn.LSTM``.

    Args:
        batch_size (int): Batch size.
        hidden_size (int): Hidden size of the LSTM.
        num_layers (int): Number of LSTM layers.
        bidirectional (bool): Whether the LSTM is bidirectional.

    Returns:
        Tuple of two Tensors (h, c), each of shape
        (num_layers * num_directions, batch_size, hidden_size), float32 zeros.

    Example:
        >>> h, c = lstm_default_state(4, 8, 2, True)
        >>> h.shape
        (4, 4, 8)
    """
    num_directions = 2 if bidirectional else 1
    shape = (num_layers * num_directions, batch_size, hidden_size)
    h = ops.zeros(shape, mindspore.float32)
    c = ops.zeros(shape, mindspore.float32)
    return h, c


class SentimentNet(nn.Cell):
    """Embedding, LSTM encoder and Dense decoder over the first and last time steps.

    Args:
        vocab_size (int): Vocabulary size.
        embed_size (int): Embedding size.
        num_hiddens (int): Hidden size of the LSTM.
        num_layers (int): Number of LSTM layers.
        bidirectional (bool): Whether the LSTM is bidirectional.
        num_classes (int): Number of classes.
        weight (Tensor): Pretrained embedding table of shape (vocab_size, embed_size), kept
            frozen; None draws it from N(0, 1). Default: None.
        batch_size (int): Batch size (the initial states are built for it). Default: 64.
        seq_len (int): Sequence length. Default: 500.

    Inputs:
        - **inputs** (Tensor) - Token ids of shape (batch_size, seq_len), int32.

    Outputs:
        Tensor of shape (batch_size, num_classes), the logits.

    Example:
        >>> net = SentimentNet(100, 16, 8, 1, False, 2, batch_size=4, seq_len=12)
        >>> [name for name, _ in net.parameters_and_names()][:2]
        ['embedding.embedding_table', 'encoder.weight_ih_l0']
    """

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, bidirectional,
                 num_classes, weight=None, batch_size=64, seq_len=500):
        super(SentimentNet, self).__init__()
        # Maps words to vectors.
        if weight is None:
            self.embedding = nn.Embedding(vocab_size, embed_size)
        else:
            self.embedding = nn.Embedding(vocab_size, embed_size, embedding_table=weight)
        self.embedding.embedding_table.requires_grad = False
        self.trans = ops.Transpose()
        self.perm = (1, 0, 2)
        self.seq_len = seq_len

        self.encoder = nn.LSTM(input_size=embed_size,
                               hidden_size=num_hiddens,
                               num_layers=num_layers,
                               has_bias=True,
                               bidirectional=bidirectional,
                               dropout=0.0)
        self.h, self.c = lstm_default_state(batch_size, num_hiddens, num_layers, bidirectional)

        self.concat = ops.Concat(1)
        self.squeeze = ops.Squeeze(axis=0)
        if bidirectional:
            self.decoder = nn.Dense(num_hiddens * 4, num_classes)
        else:
            self.decoder = nn.Dense(num_hiddens * 2, num_classes)

    def construct(self, inputs):
        """Classifies a batch of token-id sequences.

        Args:
            inputs (Tensor): Token ids of shape (batch_size, seq_len).

        Returns:
            Tensor, the logits of shape (batch_size, num_classes).
        """
        # (batch, seq, embed) -> (seq, batch, embed)
        embeddings = self.embedding(inputs)
        embeddings = self.trans(embeddings, self.perm)
        output, _ = self.encoder(embeddings, (self.h, self.c))
        # The outputs of the first and the last time step, concatenated.
        encoding = self.concat((self.squeeze(output[0:1:1]),
                                self.squeeze(output[self.seq_len - 1:self.seq_len:1])))
        outputs = self.decoder(encoding)
        return outputs

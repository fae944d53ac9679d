"""``nn.EmbeddingLookup`` (tfspore/nn/layer/embedding.py)."""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import Tensor, nn


def test_lookup_out_of_range_max_norm_and_gradient(mode):
    table = np.random.default_rng(0).standard_normal((10, 4)).astype(np.float32)
    net = nn.EmbeddingLookup(10, 4, slice_mode=nn.EmbeddingLookup.TABLE_ROW_SLICE)
    net.embedding_table.set_data(Tensor(table))
    assert [p.name for p in net.get_parameters()] == ["embedding_table"]
    ids = np.array([[0, 3, 9], [12, -1, 5]], np.int32)
    out = net(Tensor(ids)).asnumpy()
    assert out.shape == (2, 3, 4)
    np.testing.assert_array_equal(out[0], table[[0, 3, 9]])
    np.testing.assert_array_equal(out[1, :2], 0)  # ids outside [0, vocab_size) give zeros
    np.testing.assert_array_equal(out[1, 2], table[5])
    clipped = nn.EmbeddingLookup(10, 4, max_norm=0.5, target="DEVICE", sparse=False)
    clipped.embedding_table.set_data(Tensor(table))
    rows = clipped(Tensor(ids)).asnumpy()[0]
    norms = np.linalg.norm(table[[0, 3, 9]], axis=1, keepdims=True)
    np.testing.assert_allclose(rows, table[[0, 3, 9]] * 0.5 / np.maximum(norms, 0.5), rtol=1e-5)


def test_gradient_reaches_looked_up_rows():
    net = nn.EmbeddingLookup(6, 2)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.convert_to_tensor(net(Tensor(np.array([1, 1, 4], np.int32)))))
    grad = tf.convert_to_tensor(tape.gradient(loss, net.embedding_table._var))
    want = np.zeros((6, 2), np.float32)
    want[1], want[4] = 2, 1
    np.testing.assert_array_equal(grad.numpy(), want)


def test_errors():
    with pytest.raises(ValueError, match="'sparse' must be True when 'target' is \"CPU\""):
        nn.EmbeddingLookup(4, 2, sparse=False)
    with pytest.raises(ValueError, match="For 'EmbeddingLookup', the 'target' must be one of"):
        nn.EmbeddingLookup(4, 2, target="GPU")
    with pytest.raises(ValueError, match="'embedding_size' must be a positive int"):
        nn.EmbeddingLookup(4, 0)
    with pytest.raises(TypeError, match="'input_indices' must be an int Tensor"):
        nn.EmbeddingLookup(4, 2)(Tensor(np.ones(2, np.float32)))

"""The losses' reduction shared by ops and nn (tfspore/_internal/reduction.py)."""
import numpy as np
import tensorflow as tf

from tfspore._internal.reduction import reduce_by


def test_mean_sum_and_none_keep_the_dtype():
    x = tf.constant([[1.0, 2.0], [3.0, 6.0]], tf.float16)
    assert reduce_by(x, "mean").dtype == tf.float16 and float(reduce_by(x, "mean")) == 3.0
    assert float(reduce_by(x, "sum")) == 12.0
    np.testing.assert_array_equal(reduce_by(x, "none").numpy(), x.numpy())

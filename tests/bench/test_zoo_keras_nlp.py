"""The Keras twins of the zoo's NLP and recommendation networks build and output a finite per-row loss."""
import numpy as np
import pytest

from bench import _zoo_keras_nlp as twins


@pytest.mark.parametrize("name", sorted(twins.TWINS))
def test_twin_outputs_a_finite_loss_per_row(name):
    model, x, y, loss = twins.TWINS[name](2, 3)
    out = np.asarray(model(x, training=True))  # eager: no trace
    assert out.shape[0] == 3 and np.isfinite(out).all()
    value = np.asarray(loss(y, out))
    assert np.isfinite(value).all()
    if loss is twins._model_loss:  # pylint: disable=protected-access
        # The model computes the zoo's loss itself: positive, one value a row.
        assert out.shape == (3,) and (out > 0).all()


def test_position_encoding_is_sin_then_cos():
    table = twins._position_encoding(5, 8)  # pylint: disable=protected-access
    assert table.shape == (5, 8)
    np.testing.assert_allclose(table[0], [0, 0, 0, 0, 1, 1, 1, 1], atol=1e-7)
    np.testing.assert_allclose(table[3, 0], np.sin(3.0), rtol=1e-6)
    np.testing.assert_allclose(table[3, 4], np.cos(3.0), rtol=1e-6)

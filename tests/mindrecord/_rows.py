"""Row comparison for MindRecord tests: the rows a reader gives against the rows written."""
import numpy as np


def assert_same_rows(got, want):
    """Same number of rows, same fields; arrays of the same dtype, shape and values; scalars of the
    same Python type and value."""
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert sorted(g) == sorted(w)
        for k, value in w.items():
            if isinstance(value, np.ndarray):
                assert g[k].dtype == value.dtype and g[k].shape == value.shape, k
                np.testing.assert_array_equal(g[k], value)
            else:
                assert type(g[k]) is type(value) and g[k] == value, (k, g[k], value)

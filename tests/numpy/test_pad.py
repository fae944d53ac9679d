"""Unit tests of tfspore.numpy.pad: every mode against numpy."""
import numpy as np
import pytest

import tfspore as ms
import tfspore.numpy as mnp

ARR = np.arange(1, 7, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize("mode,kw", [
    ("constant", {}), ("constant", {"constant_values": ((1, 2), (3, 4))}), ("edge", {}), ("reflect", {}),
    ("symmetric", {}), ("wrap", {}), ("maximum", {}), ("minimum", {}), ("mean", {}), ("mean", {"stat_length": 1}),
    ("linear_ramp", {"end_values": (-1, 9)}), ("reflect", {"reflect_type": "odd"}),
    ("symmetric", {"reflect_type": "odd"}),
])
def test_pad_matches_numpy(mode, kw):
    width = ((1, 2), (3, 1))
    np.testing.assert_allclose(mnp.pad(ms.Tensor(ARR), width, mode=mode, **kw).asnumpy(),
                               np.pad(ARR, width, mode=mode, **kw), rtol=1e-6)


def test_wide_reflect_and_wrap_pads():
    v = np.array([1, 2, 4], np.int32)
    for mode in ("reflect", "symmetric", "wrap"):
        np.testing.assert_array_equal(mnp.pad(ms.Tensor(v), 7, mode=mode).asnumpy(), np.pad(v, 7, mode=mode))
    for mode in ("reflect", "symmetric"):
        np.testing.assert_array_equal(mnp.pad(ms.Tensor(v), (8, 5), mode=mode, reflect_type="odd").asnumpy(),
                                      np.pad(v, (8, 5), mode=mode, reflect_type="odd"))


def test_pad_errors():
    with pytest.raises(ValueError, match="mode"):
        mnp.pad(ms.Tensor(ARR), 1, mode="bogus")
    with pytest.raises(ValueError, match="negative"):
        mnp.pad(ms.Tensor(ARR), -1)
    with pytest.raises(TypeError, match="integral"):
        mnp.pad(ms.Tensor(ARR), 1.5)

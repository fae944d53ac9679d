"""A Parameter passed to a Cell call is the Parameter inside construct, in both modes."""
import numpy as np

import tfspore as ms
from tfspore import Parameter, Tensor, nn, ops


class _AddInto(nn.Cell):
    def construct(self, p, x):
        ops.assign_add(p, x)
        return p * 2


def test_construct_updates_an_argument_parameter_in_place(mode):
    cell = _AddInto()
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    out = cell(p, Tensor(np.ones(2, np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(out.asnumpy(), [4.0, 4.0])
    # a second Parameter of the same shape goes through the same compiled function
    q = Parameter(Tensor(np.full(2, 10.0, np.float32)), name="q")
    np.testing.assert_array_equal(cell(q, Tensor(np.ones(2, np.float32))).asnumpy(), [22.0, 22.0])
    np.testing.assert_array_equal(q.asnumpy(), [11.0, 11.0])
    np.testing.assert_array_equal(p.asnumpy(), [2.0, 2.0])
    if ms.get_context("mode") == ms.GRAPH_MODE:
        assert len(cell._compiled) == 1


def test_parameter_argument_keeps_its_identity_inside_construct(mode):
    seen = []

    class _Probe(nn.Cell):
        def construct(self, p):
            seen.append(p)
            return p + 1

    p = Parameter(Tensor(np.zeros(3, np.float32)), name="w")
    _Probe()(p)
    assert seen[0] is p

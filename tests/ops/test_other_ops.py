"""depend, stop_gradient, assign*, Print, random ops and seeding, in both modes."""
import numpy as np
import tensorflow as tf

import tfspore as ms
from tfspore import Parameter, Tensor, nn, ops


class AssignNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")
        self.assign_add = ops.AssignAdd()

    def construct(self, x):
        before = self.p * 1
        upd = self.assign_add(self.p, x)
        return ops.depend(before, upd), upd


def test_assign_updates_parameter_in_both_modes(mode):
    net = AssignNet()
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    before, upd = net(x)
    np.testing.assert_allclose(before.asnumpy(), 0.0)
    np.testing.assert_allclose(upd.asnumpy(), [1, 2, 3])
    before, upd = net(x)
    np.testing.assert_allclose(before.asnumpy(), [1, 2, 3])
    np.testing.assert_allclose(net.p.asnumpy(), [2, 4, 6])


def test_assign_family_functional():
    p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="q")
    out = ops.assign(p, Tensor(np.full((2, 2), 5.0, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), 5.0)
    ops.assign_sub(p, Tensor(np.ones((2, 2), np.float32)))
    ops.assign_add(p, 0.5)
    np.testing.assert_allclose(p.asnumpy(), 4.5)
    ops.Assign()(p, Tensor(np.zeros((2, 2), np.float64)))
    assert p.dtype == ms.float32 and p.asnumpy().sum() == 0


def test_depend_adds_control_dependency_in_graph():
    seen = {}

    @tf.function
    def f(x):
        v = Tensor._from_tf(x * 2)
        side = Tensor._from_tf(tf.identity(x, name="side_effect"))
        out = ops.depend(v, side)
        seen["controls"] = [op.name for op in out._value().op.control_inputs]
        return out._value()

    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    assert any("side_effect" in n for n in seen["controls"])
    v = Tensor(np.ones(2, np.float32))
    assert ops.depend(v, (v, True, None)) is v  # eagerly the value comes back as is


class DependParamNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.ones(1, np.float32)), name="p")

    def construct(self, x):
        s = ops.depend(self.p, x)
        ops.assign(self.p, x)
        return s * 1


def test_depend_returns_parameter_itself_in_both_modes(mode):
    """MindSpore returns the live Parameter: a read after an assignment sees the new value."""
    net = DependParamNet()
    out = net(Tensor(np.array([7.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [7.0])


def test_stop_gradient_blocks_grad():
    def f(x):
        return (x * x).sum() + (ops.stop_gradient(x) * x).sum()

    g = ms.grad(f)(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [3.0, 6.0])


def test_print_pynative(capsys):
    ops.Print()("loss:", Tensor(np.array([1, 2], np.int32)), 3)
    out = capsys.readouterr().out.splitlines()
    assert out == ["loss:", "Tensor(shape=[2], dtype=Int32, value= [1, 2])", "3"]


def test_print_graph(capfd):
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def construct(self, x):
            ops.print_("value:", x)
            return x + 1

    Net()(Tensor(np.array([7.0, 8.0], np.float32)))
    out = capfd.readouterr().out
    assert "value:" in out and "[7 8]" in out and "Float32" in out


def test_random_reproducible_with_seed():
    ms.set_seed(5)
    a1, a2 = ops.rand(3).asnumpy(), ops.standard_normal((3,)).asnumpy()
    ms.set_seed(5)
    b1, b2 = ops.rand(3).asnumpy(), ops.standard_normal((3,)).asnumpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(ops.rand(3).asnumpy(), b1)


def test_random_ops_shapes_and_ranges(mode, run):
    lo, hi = Tensor(np.float32(-1.0)), Tensor(np.float32(3.0))
    u = run(lambda a, b: ops.uniform((1000,), a, b), lo, hi).asnumpy()
    assert u.min() >= -1 and u.max() < 3 and abs(u.mean() - 1.0) < 0.15
    assert ops.randn(2, 3).shape == (2, 3) and ops.rand((4,)).dtype == ms.float32
    r = ops.randint(0, 5, (100,)).asnumpy()
    assert r.min() >= 0 and r.max() < 5
    assert ops.UniformReal(seed=3)((2, 2)).shape == (2, 2)
    assert ops.StandardNormal()((3,)).dtype == ms.float32
    assert ops.UniformInt()((5,), Tensor(np.int32(0)), Tensor(np.int32(4))).dtype == ms.int32


def test_dropout_masks_differ_between_graph_calls():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def construct(self, x):
            return ops.dropout(x, 0.5)

    net = Net()
    x = Tensor(np.ones((64,), np.float32))
    assert not np.array_equal(net(x).asnumpy(), net(x).asnumpy())


def test_functional_aliases():
    from tfspore.ops import functional as F
    x = Tensor(np.array([1.0, 4.0], np.float32))
    np.testing.assert_allclose(F.sqrt(x).asnumpy(), [1, 2])
    np.testing.assert_allclose(F.tensor_add(x, x).asnumpy(), [2, 8])
    np.testing.assert_allclose(F.reduce_sum(x).asnumpy(), 5)
    assert F.shape(x) == (2,) and F.dtype(x) == ms.float32
    np.testing.assert_allclose(F.fill(ms.float32, (2,), 1).asnumpy(), [1, 1])
    np.testing.assert_allclose(F.tuple_to_array((1.0, 2.0)).asnumpy(), [1, 2])
    assert F.scalar_to_tensor(2).dtype == ms.float32
    assert F.partial(F.tensor_mul, x)(x).asnumpy().tolist() == [1, 16]
    assert F.cast(x, ms.int32).dtype == ms.int32
    assert F.identity(x).asnumpy().tolist() == [1, 4]
    assert F.zeros_like(x).asnumpy().sum() == 0 and F.ones_like(x).asnumpy().sum() == 2
    assert F.stop_gradient(x) is not None and F.depend(x, x) is x

"""Tensor control flow in compiled user code beyond ``if``/``while``: ``return`` inside loops,
``assert``, ``int``/``float``/``bool`` of a Tensor, ``for`` over ``range(t)`` and Tensor conditions
inside ``MultitypeFuncGraph`` bodies.

Each case runs in both modes (the ``mode`` fixture) and must give PYNATIVE_MODE's numbers; the
graph-only tests check that GRAPH_MODE stages one loop / branch instead of unrolling or failing.
PYTEST_DONT_REWRITE: the cells' ``assert`` statements must stay Python's own in PYNATIVE_MODE.
"""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, nn, ops

_LOOPS = {"While", "StatelessWhile"}
_BRANCHES = {"If", "StatelessIf"}


def _op_types(cell, *args):
    graph = cell.compile(*args).graph
    types = {op.type for op in graph.get_operations()}
    for fn in graph.as_graph_def().library.function:
        types.update(node.op for node in fn.node_def)
    return types


def _t(*values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


# ------------------------------------------------------------------ return inside loops
class _ReturnInPythonWhile(nn.Cell):
    def construct(self, x):
        i = 0
        while i < 5:
            x = x * 2
            if x.sum() > 20:
                return x + 1
            i += 1
        return x


class _ReturnInTensorWhile(nn.Cell):
    def construct(self, x):
        steps = Tensor(0, ms.int32)
        while x.sum() < 100:
            x = x * 2
            steps = steps + 1
            if x.max() > 30:
                return x - 1, steps
        return x, steps


class _ReturnInElse(nn.Cell):
    def construct(self, x):
        for _ in range(3):
            if x.sum() < 20:
                x = x * 2
            else:
                return x - 100
        return x


class _NestedReturns(nn.Cell):
    def construct(self, x):
        for _ in range(2):
            k = 0
            while k < 3:
                if x.sum() > 50:
                    if x.max() > 30:
                        return x + 0.5
                    return x - 0.5
                x = x * 2
                k += 1
        return x


def test_return_inside_python_while(mode):
    net = _ReturnInPythonWhile()
    for x, expected in [((1, 2, 3), (5, 9, 13)), ((0.1, 0.2, 0.3), (3.2, 6.4, 9.6))]:
        np.testing.assert_allclose(net(_t(*x)).asnumpy(), expected, rtol=1e-6)


def test_return_inside_tensor_while(mode):
    net = _ReturnInTensorWhile()
    for x, expected, steps in [((1, 2, 3), (15, 31, 47), 4), ((20, 40, 60), (20, 40, 60), 0),
                               ((30, 30, 30), (59, 59, 59), 1), ((5, 5, 5), (39, 39, 39), 3)]:
        out, n = net(_t(*x))
        np.testing.assert_allclose(out.asnumpy(), expected)
        assert int(n) == steps


def test_return_in_else_branch_only(mode):
    net = _ReturnInElse()
    for x, expected in [((1, 2, 3), (-96, -92, -88)), ((5, 10, 15), (-95, -90, -85)),
                        ((0.1, 0.1, 0.1), (0.8, 0.8, 0.8))]:
        np.testing.assert_allclose(net(_t(*x)).asnumpy(), expected, rtol=1e-6)


def test_nested_returns(mode):
    net = _NestedReturns()
    for x, expected in [((1, 2, 3), (16.5, 32.5, 48.5)), ((8, 1, 1), (64.5, 8.5, 8.5)),
                        ((0.01, 0.02, 0.03), (0.64, 1.28, 1.92))]:
        np.testing.assert_allclose(net(_t(*x)).asnumpy(), expected, rtol=1e-6)


def test_return_inside_tensor_while_is_one_staged_loop():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _ReturnInTensorWhile()
    assert _op_types(net, _t(1, 2, 3)) & _LOOPS
    for x in ((1, 2, 3), (20, 40, 60), (5, 5, 5)):
        net(_t(*x))
    assert net.compiled_construct(None).experimental_get_tracing_count() == 1


def test_gradient_through_loop_with_return(mode):
    net = _ReturnInTensorWhile()
    grad = ops.grad(lambda x: net(x)[0].sum())
    np.testing.assert_allclose(grad(_t(1, 2, 3)).asnumpy(), [16, 16, 16])  # returned after 4 doublings
    np.testing.assert_allclose(grad(_t(20, 40, 60)).asnumpy(), [1, 1, 1])  # no iteration


# ------------------------------------------------------------------ assert
class _Asserts(nn.Cell):
    def construct(self, x):
        assert x.min() > 0, "x must be positive"
        assert x.sum() < 100
        return x + 1


def test_assert_on_tensor(mode):
    net = _Asserts()
    np.testing.assert_allclose(net(_t(1, 2)).asnumpy(), [2, 3])
    with pytest.raises(AssertionError, match="^x must be positive$"):
        net(_t(-1, 2))
    with pytest.raises(AssertionError) as info:
        net(_t(60, 60))
    assert str(info.value) == ""


def test_assert_in_jit_function():
    @ms.jit
    def positive_sqrt(x):
        assert x.min() >= 0, "negative input"
        return ops.sqrt(x)

    np.testing.assert_allclose(positive_sqrt(_t(4, 9)).asnumpy(), [2, 3])
    with pytest.raises(AssertionError, match="negative input"):
        positive_sqrt(_t(-4, 9))


def test_python_assert_stays_python():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Shapes(nn.Cell):
        def construct(self, x):
            assert x.shape[0] == 2, "two rows"
            return x * 2

    assert "Assert" not in _op_types(Shapes(), _t(1, 2))
    with pytest.raises(AssertionError, match="two rows"):
        Shapes()(_t(1, 2, 3))


# ------------------------------------------------------------------ int(t), float(t), bool(t)
class _Scalars(nn.Cell):
    def construct(self, x, n):
        scale = float(x.max())
        count = int(n)
        out = x * scale + count
        if bool(x.min() > 0):
            out = out + int(x.sum())
        return out, count, scale, bool(n)


def test_int_float_bool_of_tensor(mode):
    net = _Scalars()
    for x, n in [((1.5, 2.0), 3), ((-1.0, 2.5), 0), ((0.5, 0.25), -2)]:
        out, count, scale, flag = net(_t(*x), Tensor(n, ms.int32))
        xs = np.array(x, np.float32)
        expected = xs * xs.max() + n + (int(xs.sum()) if xs.min() > 0 else 0)
        np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
        assert int(count) == n and float(scale) == xs.max() and bool(flag) == bool(n)


def test_scalar_conversions_in_graph_give_0d_tensors():
    ms.set_context(mode=ms.GRAPH_MODE)
    _, count, scale, flag = _Scalars()(_t(1.5, 2.0), Tensor(3, ms.int32))
    assert (count.dtype, scale.dtype, flag.dtype) == (ms.int32, ms.float32, ms.bool_)
    assert count.shape == () and scale.shape == () and flag.shape == ()

    class Truncate(nn.Cell):
        def construct(self, x):
            return int(x)

    assert Truncate()(_t(-2.75)).dtype == ms.int64
    assert int(Truncate()(_t(-2.75))) == -2


def test_int_of_several_elements_is_an_error(mode):
    class Bad(nn.Cell):
        def construct(self, x):
            return x * int(x)

    with pytest.raises(ValueError, match="one element"):
        Bad()(_t(1, 2))


# ------------------------------------------------------------------ for over range(t)
class _RangeLoop(nn.Cell):
    def construct(self, x, n):
        for i in range(n):
            x = x + i
            if x.sum() > 30:
                return x * 10
        return x


class _RangeBreak(nn.Cell):
    def construct(self, x, start, stop):
        total = x * 0
        for i in range(start, stop, 2):
            if total.sum() > 25:
                break
            total = total + x * i
        return total


def test_for_over_tensor_range(mode):
    net = _RangeLoop()
    for x, n, expected in [((1, 2, 3), 5, (110, 120, 130)), ((1, 2, 3), 2, (2, 3, 4)), ((1, 2, 3), 0, (1, 2, 3)),
                           ((20, 40, 60), 1, (200, 400, 600))]:
        np.testing.assert_allclose(net(_t(*x), Tensor(n, ms.int32)).asnumpy(), expected)


def test_for_over_tensor_range_with_break(mode):
    net = _RangeBreak()
    x = np.array([1.0, 2.0], np.float32)
    for start, stop in [(1, 8), (1, 4), (5, 2), (0, 1)]:
        total = np.zeros(2, np.float32)
        for i in range(start, stop, 2):
            if total.sum() > 25:
                break
            total = total + x * i
        out = net(Tensor(x), Tensor(start, ms.int32), Tensor(stop, ms.int32))
        np.testing.assert_allclose(out.asnumpy(), total)


def test_tensor_range_is_one_staged_loop():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _RangeLoop()
    assert _op_types(net, _t(1, 2, 3), Tensor(5, ms.int32)) & _LOOPS
    for n in (0, 3, 9):
        net(_t(1, 2, 3), Tensor(n, ms.int32))
    assert net.compiled_construct(None).experimental_get_tracing_count() == 1


def test_tensor_range_needs_an_int_bound():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(TypeError, match="int Tensor, but got a Tensor of dtype float32"):
        _RangeLoop()(_t(1, 2), Tensor(2.0, ms.float32))


# ------------------------------------------------------------------ MultitypeFuncGraph bodies
_clip_scale = ops.MultitypeFuncGraph("clip_scale")


@_clip_scale.register("Tensor", "Tensor")
def _clip_scale_tensor(scale, grad):
    if scale > 1:
        grad = grad / scale
    if grad.max() > 4 and not scale < 0:
        return ops.clip_by_value(grad, -4.0, 4.0)
    return grad


class _ScaleGrads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hyper_map = ops.HyperMap()

    def construct(self, scale, grads):
        return self.hyper_map(ops.partial(_clip_scale, scale), grads)


def test_tensor_conditions_in_multitype_func_graph_body(mode):
    net = _ScaleGrads()
    grads = (_t(1, 12), _t(-3, 3))
    for scale in (0.5, 2.0, -1.0):
        out = net(Tensor(scale, ms.float32), grads)
        for g, o in zip(grads, out):
            g = g.asnumpy() / scale if scale > 1 else g.asnumpy()
            expected = np.clip(g, -4, 4) if g.max() > 4 and not scale < 0 else g
            np.testing.assert_allclose(o.asnumpy(), expected)


# ------------------------------------------------------------------ functions given to value_and_grad
def _forward(w, x):
    loss = (w * x).sum()
    if loss > 10:
        loss = loss / 10
    return loss


def test_tensor_condition_in_value_and_grad_function(mode):
    class Step(nn.Cell):
        def construct(self, w, x):
            return ops.value_and_grad(_forward)(w, x)

    step = Step()
    for x in [(1.0, 2.0), (10.0, 20.0)]:
        loss, grad = step(_t(1, 1), _t(*x))
        scale = 1.0 if sum(x) <= 10 else 0.1
        np.testing.assert_allclose(loss.asnumpy(), sum(x) * scale, rtol=1e-6)
        np.testing.assert_allclose(grad.asnumpy(), np.array(x) * scale, rtol=1e-6)



def test_other_graph_errors_stay_tensorflow_errors():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Rows(nn.Cell):
        def construct(self, x, n):
            return ops.reshape(x, (int(n), 2))

    np.testing.assert_array_equal(Rows()(_t(1, 2, 3, 4), Tensor(2, ms.int32)).shape, (2, 2))
    with pytest.raises(tf.errors.InvalidArgumentError):
        Rows()(_t(1, 2, 3, 4), Tensor(3, ms.int32))

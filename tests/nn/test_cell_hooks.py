"""Cell hooks (spec 8): forward, forward-pre, backward and backward-pre, with removable handles."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, Tensor, nn


class Scale(nn.Cell):
    """y = x * w."""

    def __init__(self, w=3.0):
        super().__init__()
        self.w = Parameter(Tensor(np.float32(w)), name="w")

    def construct(self, x, bias=None):
        y = x * self.w
        return y if bias is None else y + bias


class Net(nn.Cell):
    """sum(b(a(x) * 2))."""

    def __init__(self):
        super().__init__()
        self.a = Scale(3.0)
        self.b = Scale(5.0)

    def construct(self, x):
        return self.b(self.a(x) * 2).sum()


def _t(*values):
    return Tensor(np.array(values, np.float32))


def _np(struct):
    return [t.asnumpy().tolist() for t in struct]


# ---------------------------------------------------------------- forward pre
def test_forward_pre_hook_observes_and_replaces_args(mode):
    net = Scale()
    seen = []

    def observe(cell, args):
        seen.append((cell, _np(args)))

    def double(cell, args):
        return args[0] * 2  # a single value is wrapped into a 1-tuple

    net.register_forward_pre_hook(observe)
    handle = net.register_forward_pre_hook(double)
    assert net(_t(1, 2)).asnumpy().tolist() == [6, 12]
    assert net(_t(3, 4)).asnumpy().tolist() == [18, 24]
    assert seen == [(net, [[1, 2]]), (net, [[3, 4]])]  # concrete values in both modes, every call
    handle.remove()
    handle.remove()
    assert net(_t(1, 2)).asnumpy().tolist() == [3, 6]


def test_forward_pre_hook_replacement_is_differentiated(mode):
    net = Scale()
    net.register_forward_pre_hook(lambda c, a: (a[0] * a[0],))
    gx, gw = ms.grad(lambda x: net(x).sum(), grad_position=0, weights=[net.w])(_t(1, 2))
    assert gx.asnumpy().tolist() == [6, 12] and gw[0].asnumpy().tolist() == 5


def test_forward_pre_hook_prepend_and_with_kwargs(mode):
    net = Scale()
    order = []
    net.register_forward_pre_hook(lambda c, a: order.append("first"))
    net.register_forward_pre_hook(lambda c, a: order.append("prepended"), prepend=True)

    def add_bias(cell, args, kwargs):
        order.append(sorted(kwargs))
        return args, {"bias": kwargs["bias"] * 0 + 1}

    net.register_forward_pre_hook(add_bias, with_kwargs=True)
    assert net(_t(1), bias=_t(100)).asnumpy().tolist() == [4]
    assert order == ["prepended", "first", ["bias"]]


def test_forward_pre_hook_with_kwargs_bad_return():
    net = Scale()
    net.register_forward_pre_hook(lambda c, a, k: a, with_kwargs=True)
    with pytest.raises(RuntimeError, match=r"must return None or a tuple of \(new_args, new_kwargs\)"):
        net(_t(1, 2, 3))


# -------------------------------------------------------------------- forward
def test_forward_hook_observes_and_replaces_output(mode):
    net = Net()
    seen = []

    def observe(cell, args, output):
        seen.append((_np(args), output.asnumpy().tolist()))

    net.a.register_forward_hook(observe)
    assert float(net(_t(1, 2)).asnumpy()) == 90.0
    assert seen == [([[1, 2]], [3, 6])]
    handle = net.a.register_forward_hook(lambda c, a, o: o * 0, prepend=True)
    assert float(net(_t(1, 2)).asnumpy()) == 0.0
    assert seen[-1] == ([[1, 2]], [0, 0])  # the prepended hook ran first
    handle.remove()
    assert float(net(_t(1, 2)).asnumpy()) == 90.0


def test_forward_hook_with_kwargs(mode):
    net = Scale()
    seen = []

    def hook(cell, args, kwargs, output):
        seen.append((_np(args), _np(kwargs.values()), output.asnumpy().tolist()))
        return output + 1

    net.register_forward_hook(hook, with_kwargs=True)
    assert net(_t(1), bias=_t(10)).asnumpy().tolist() == [14]
    assert seen == [([[1]], [[10]], [13])]


def test_forward_hook_always_call_runs_on_error():
    class Broken(nn.Cell):
        def construct(self, x):
            raise ValueError("boom")

    net = Broken()
    calls = []
    net.register_forward_hook(lambda c, a, o: calls.append("plain"))
    net.register_forward_hook(lambda c, a, o: calls.append(("always", o)), always_call=True)

    def failing(cell, args, output):
        raise KeyError("hook failed")

    handle = net.register_forward_hook(failing, always_call=True)
    with pytest.warns(UserWarning, match="always_call=True.*silenced"), pytest.raises(ValueError, match="boom"):
        net(_t(1))
    assert calls == [("always", None)]
    handle.remove()
    assert handle.handle_id not in net._forward_hook_always_called


def test_forward_hooks_on_dense(mode):
    dense = nn.Dense(2, 1)
    shapes = []
    dense.register_forward_hook(lambda c, a, o: shapes.append(o.shape))
    dense(Tensor(np.ones((4, 2), np.float32)))
    assert shapes == [(4, 1)]


# ------------------------------------------------------------------- backward
def test_backward_hooks_during_grad(mode):
    net = Net()
    log = []

    def pre(cell, grad_output):
        log.append(("pre", _np(grad_output)))
        return (grad_output[0] * 2,)

    def post(cell, grad_input, grad_output):
        log.append(("post", _np(grad_input), _np(grad_output)))

    h_pre = net.b.register_backward_pre_hook(pre)
    h_post = net.b.register_backward_hook(post)
    x = _t(1, 1)
    gx, (ga, gb) = ms.grad(net, grad_position=0, weights=net.trainable_params())(x)
    # b's output gradient is doubled by the pre-hook: d/dx = 2 * (3*2*5), d/dw_b = 2 * sum(a(x)*2)
    assert gx.asnumpy().tolist() == [60, 60] and float(gb.asnumpy()) == 24 and float(ga.asnumpy()) == 40
    assert log == [("pre", [[1, 1]]), ("post", [[10, 10]], [[2, 2]])]
    h_pre.remove()
    h_post.remove()
    log.clear()
    assert ms.grad(net)(x).asnumpy().tolist() == [30, 30] and log == []


def test_backward_hook_replaces_input_gradient(mode):
    net = Net()
    net.a.register_backward_hook(lambda c, gi, go: (gi[0] * 0,))
    gx, (ga, gb) = ms.grad(net, grad_position=0, weights=net.trainable_params())(_t(1, 2))
    assert gx.asnumpy().tolist() == [0, 0] and float(ga.asnumpy()) == 30 and float(gb.asnumpy()) == 18


def test_backward_hook_grad_input_has_one_entry_per_float_tensor(mode):
    class Mul(nn.Cell):
        def construct(self, x, y, s=3):
            return x * y * s

    net = Mul()
    seen = []
    net.register_backward_hook(lambda c, gi, go: seen.append((len(gi), _np(gi), len(go))))
    grads = ms.grad(net, grad_position=(0, 1))(_t(1, 2), _t(3, 4), 2)
    assert [g.asnumpy().tolist() for g in grads] == [[6, 8], [2, 4]]
    assert seen == [(2, [[6, 8], [2, 4]], 1)]


def test_backward_hook_wrong_size_raises():
    net = Scale()
    net.register_backward_hook(lambda c, gi, go: (gi[0], gi[0]))
    with pytest.raises(TypeError, match="backward hook return value size is 2 not equal to expect grad input size 1"):
        ms.grad(net)(_t(1))


def test_forward_hook_output_feeds_backward_hooks(mode):
    net = Scale()
    seen = []
    net.register_forward_hook(lambda c, a, o: o * 10)
    net.register_backward_hook(lambda c, gi, go: seen.append((_np(gi), _np(go))))
    assert ms.grad(lambda x: net(x).sum())(_t(1, 2)).asnumpy().tolist() == [30, 30]
    assert seen == [([[30, 30]], [[1, 1]])]


# --------------------------------------------------------------------- errors
@pytest.mark.parametrize("api", ["register_forward_pre_hook", "register_forward_hook", "register_backward_hook",
                                 "register_backward_pre_hook", "register_state_dict_pre_hook",
                                 "register_state_dict_post_hook", "register_load_state_dict_pre_hook",
                                 "register_load_state_dict_post_hook"])
def test_non_callable_hook_raises(api):
    with pytest.raises(TypeError, match=f"For '{api}', the 'hook_fn' must be a callable function, but got 3"):
        getattr(Scale(), api)(3)


def test_graph_mode_retraces_when_hooks_change():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    net(_t(1))
    with net.register_forward_hook(lambda c, a, o: o + 1):
        assert net(_t(1)).asnumpy().tolist() == [4]
    assert net(_t(1)).asnumpy().tolist() == [3]
    assert len(net._compiled) == 2
    assert all(f.experimental_get_tracing_count() == 1 for f in net._compiled.values())


def test_hooks_inside_jit_function_see_values():
    net = Scale()
    seen = []
    net.register_forward_hook(lambda c, a, o: seen.append(o.asnumpy().tolist()))

    @ms.jit
    def run(x):
        return net(x) + 1

    assert run(_t(1)).asnumpy().tolist() == [4]
    assert run(_t(2)).asnumpy().tolist() == [7]
    assert seen == [[3], [6]]

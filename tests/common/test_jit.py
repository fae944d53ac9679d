"""tfspore.jit, JitConfig, lazy_inline and mutable."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import JitConfig, Parameter, Tensor, nn


def test_jit_traces_once_per_signature():
    calls = []

    @ms.jit
    def f(x, y):
        calls.append(1)
        return x * y + 1

    out = f(Tensor([1.0, 2.0]), Tensor([3.0, 4.0]))
    assert isinstance(out, Tensor) and out.asnumpy().tolist() == [4.0, 9.0]
    f(Tensor([5.0, 6.0]), Tensor([1.0, 1.0]))
    assert len(calls) == 1 and f.tracing_count() == 1
    f(Tensor([1.0, 2.0, 3.0]), Tensor([1.0, 1.0, 1.0]))  # new shape
    f(Tensor([1, 2]), Tensor([1, 2]))  # new dtype
    assert len(calls) == 3 and f.tracing_count() == 3
    assert f.__name__ == "f"


def test_jit_decorator_with_arguments_and_structures():
    @ms.jit(jit_level="O1", capture_mode="bytecode")
    def f(d):
        return {"sum": d["a"] + d["b"], "pair": (d["a"], d["b"] * 2)}

    out = f({"a": Tensor([1.0]), "b": Tensor([2.0])})
    assert out["sum"].asnumpy().tolist() == [3.0] and out["pair"][1].asnumpy().tolist() == [4.0]
    assert isinstance(out["pair"][0], Tensor)


def test_jit_level_o2_enables_xla():
    @ms.jit(jit_level="O2")
    def f(x):
        return x * 2

    assert f._jit_compile is True and f(Tensor([1.0, 2.0])).asnumpy().tolist() == [2.0, 4.0]
    assert f._compiled()._jit_compile is True
    assert ms.jit(lambda x: x)._jit_compile is None
    assert ms.jit(jit_compile=True)(lambda x: x)._jit_compile is True


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"capture_mode": "x"}, ValueError, r"'capture_mode' must be str and must be in '\['ast', 'bytecode', 'trace'\]'"),
    ({"jit_level": "O3"}, ValueError, r"'jit_level' must be str and must be in '\['O0', 'O1', 'O2'\]', but got 'O3'"),
    ({"dynamic": 2}, ValueError, r"'dynamic' must be in range of \[0, 1\], but got 2"),
    ({"fullgraph": 1}, TypeError, "'fullgraph' must be a bool, but got int"),
])
def test_jit_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ms.jit(lambda x: x, **kwargs)


def test_jit_rejects_non_callables():
    with pytest.raises(TypeError, match="'function' must be callable"):
        ms.jit(5)


class _Net(nn.Cell):
    def __init__(self, calls):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
        self.calls = calls

    @ms.jit
    def construct(self, x):
        self.calls.append(1)
        return x * self.w


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_jit_construct_in_a_cell(mode):
    ms.set_context(mode=mode)
    calls = []
    net = _Net(calls)
    assert net(Tensor([1.0, 1.0])).asnumpy().tolist() == [1.0, 2.0]
    assert net(Tensor([3.0, 1.0])).asnumpy().tolist() == [3.0, 2.0]
    assert len(calls) == 1
    net.w.set_data(Tensor(np.array([2.0, 2.0], np.float32)))  # same variable, new value: no retrace
    assert net(Tensor([1.0, 1.0])).asnumpy().tolist() == [2.0, 2.0] and len(calls) == 1


def test_jit_method_gradients():
    net = _Net([])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(net(Tensor([3.0, 4.0])))
    assert tape.gradient(loss, net.w._var).numpy().tolist() == [3.0, 4.0]


def test_parameter_replaced_retraces():
    calls = []
    net = _Net(calls)
    net(Tensor([1.0, 1.0]))
    net.w.set_data(Tensor(np.ones(3, np.float32)))  # new shape: a new variable
    assert net(Tensor([1.0, 1.0, 1.0])).asnumpy().tolist() == [1.0, 1.0, 1.0] and len(calls) == 2


def test_nested_jit_runs_inline():
    inner_calls = []

    @ms.jit
    def inner(x):
        inner_calls.append(1)
        return x + 1

    @ms.jit
    def outer(x):
        return inner(x) * 2

    assert outer(Tensor([1.0])).asnumpy().tolist() == [4.0] and inner.tracing_count() == 0 and len(inner_calls) == 1


class _Plain(nn.Cell):
    def construct(self, x):
        return x - 1


def test_jit_on_cell_instance_and_class():
    compiled = ms.jit(_Plain())
    assert compiled(Tensor([3.0])).asnumpy().tolist() == [2.0]

    class Sub(_Plain):
        pass
    assert ms.jit(Sub) is Sub and Sub()(Tensor([5.0])).asnumpy().tolist() == [4.0]
    assert ms.ms_function(lambda x: x * 3)(Tensor([1.0])).asnumpy().tolist() == [3.0]


def test_set_inputs_with_a_placeholder_traces_once():
    calls = []

    class Net(nn.Cell):
        def construct(self, x):
            calls.append(1)
            return x.sum(axis=1) * x.shape[0]  # a dynamic dim is a scalar Tensor while tracing

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    assert net(Tensor(np.ones((2, 3), np.float32))).asnumpy().tolist() == [6.0, 6.0]
    assert net(Tensor(np.ones((4, 3), np.float32))).asnumpy().tolist() == [12.0] * 4
    assert len(calls) == 1


def test_jit_config():
    cfg = JitConfig(jit_level="O2")
    assert cfg.jit_config_dict["jit_level"] == "O2" and cfg.jit_config_dict["backend"] == "GE"
    assert JitConfig(jit_level="O1").jit_config_dict["backend"] == "ms_backend"
    assert JitConfig().jit_config_dict == {"jit_level": "", "exc_mode": "auto", "jit_syntax_level": "",
                                           "debug_level": "RELEASE", "infer_boost": "off"}
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Plain()
    net.set_jit_config(cfg)
    assert net._jit_compile() is True and net(Tensor([2.0])).asnumpy().tolist() == [1.0]


@pytest.mark.parametrize("kwargs,match", [
    ({"jit_level": "O3"}, "jit_level"), ({"exc_mode": "x"}, "exc_mode"), ({"jit_syntax_level": "x"}, "jit_syntax_level"),
    ({"debug_level": "x"}, "debug_level"), ({"infer_boost": "x"}, "infer_boost")])
def test_jit_config_errors(kwargs, match):
    with pytest.raises(ValueError, match=f"For 'JitConfig', the '{match}' must be one of"):
        JitConfig(**kwargs)


def test_lazy_inline_is_transparent():
    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self, scale):
            super().__init__()
            self.scale = scale
            self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

        def construct(self, x):
            return x * self.w * self.scale

    class Outer(nn.Cell):
        @ms.lazy_inline(policy="front")
        def __init__(self):
            super().__init__()
            self.block = Block(3.0)

        def construct(self, x):
            return self.block(x)

    net = Outer()
    assert Block.__init__.__name__ == "__init__"
    assert [p.name for p in net.get_parameters()] == ["block.w"]
    assert net(Tensor([1.0, 2.0])).asnumpy().tolist() == [3.0, 6.0]


def test_lazy_inline_errors():
    with pytest.raises(ValueError, match="not the class"):
        ms.lazy_inline(_Plain)
    with pytest.raises(ValueError, match="not the function"):
        ms.lazy_inline(lambda self: None)
    with pytest.raises(ValueError, match="policy"):
        ms.lazy_inline(policy="back")


def test_mutable():
    t = Tensor([1.0])
    assert ms.mutable(t) is t and t.const_arg is False
    assert ms.mutable((1, 2.0, [t])) == (1, 2.0, [t]) and ms.mutable([1, 2], dynamic_len=True) == [1, 2]
    assert ms.mutable({"a": t})["a"] is t
    with pytest.raises(TypeError, match="'input_data' should be one of"):
        ms.mutable("x")
    with pytest.raises(TypeError, match="dynamic_len"):
        ms.mutable((1,), dynamic_len=1)
    with pytest.raises(TypeError, match="list or tuple"):
        ms.mutable(t, dynamic_len=True)
    loop = [1]
    loop.append(loop)
    with pytest.raises(TypeError, match="self-reference"):
        ms.mutable(loop)

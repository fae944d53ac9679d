"""Cell buffers and the PyTorch-style state_dict / load_state_dict (spec 9)."""
from collections import OrderedDict

import numpy as np
import pytest

import tfspore as ms
from tfspore import Parameter, nn


class NetC(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_c = nn.Buffer(ms.tensor([0, 0, 0]))

    def construct(self, x):
        return x + self.buffer_c


class NetB(nn.Cell):
    def __init__(self, net_c):
        super().__init__()
        self.net_c = net_c
        self.buffer_b = nn.Buffer(ms.tensor([1, 2, 3]))

    def construct(self, x):
        return self.net_c(x) + self.buffer_b


class NetA(nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = nn.Buffer(ms.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = nn.Buffer(ms.tensor([4, 5, 6]))
        self.param_a = Parameter(ms.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a


def _net_a():
    return NetA(NetB(NetC()))


# -------------------------------------------------------------------- buffers
def test_buffers_and_named_buffers_page_examples():
    net_a = NetA(NetB(NetC()))
    assert [f"buffer is {b}" for b in net_a.net_b.buffers()] == ["buffer is [1 2 3]", "buffer is [0 0 0]"]
    assert [str(b) for b in net_a.buffers()] == ["[4 5 6]", "[1 2 3]", "[0 0 0]"]
    assert [n for n, _ in net_a.named_buffers()] == ["buffer_a", "net_b.buffer_b", "net_b.net_c.buffer_c"]
    assert [n for n, _ in net_a.named_buffers(prefix="m", recurse=False)] == ["m.buffer_a"]
    assert str(net_a.get_buffer("net_b.net_c.buffer_c")) == "[0 0 0]"
    assert net_a.get_sub_cell("net_b.net_c") is net_a.net_b.net_c
    assert repr(net_a.get_sub_cell("net_b.net_c")) == "NetC()"


def test_buffers_are_used_in_construct(mode):
    out = _net_a()(ms.tensor([1, 1, 1]))
    assert out.asnumpy().tolist() == [6, 8, 10]


def test_shared_buffer_dedup():
    net = NetB(NetC())
    net.net_c.register_buffer("shared", net.buffer_b)
    assert net.net_c.shared is net.buffer_b
    assert [n for n, _ in net.named_buffers()] == ["buffer_b", "net_c.buffer_c"]
    assert [n for n, _ in net.named_buffers(remove_duplicate=False)] == ["buffer_b", "net_c.buffer_c",
                                                                         "net_c.shared"]


def test_register_buffer_example_and_errors():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.register_buffer("buffer0", ms.tensor([1, 2, 3]))
            self.w = Parameter(ms.tensor([1.0]))

        def construct(self, x):
            return x + self.buffer0

    net = Net()
    assert str(net.buffer0) == "[1 2 3]"
    with pytest.raises(KeyError, match=r"register_buffer.*can.*t contain.*a\.b"):
        net.register_buffer("a.b", ms.tensor([1]))
    with pytest.raises(KeyError, match="register_buffer.*empty string"):
        net.register_buffer("", ms.tensor([1]))
    with pytest.raises(KeyError, match="attribute 'w' already exists"):
        net.register_buffer("w", ms.tensor([1]))
    with pytest.raises(TypeError, match="buffer name should be a string.*int"):
        net.register_buffer(1, ms.tensor([1]))
    with pytest.raises(TypeError, match="cannot assign '<class 'int'>' object to buffer 'z'.*but got 3"):
        net.register_buffer("z", 3)
    with pytest.raises(TypeError, match="For create Buffer, type of input data should be Tensor"):
        nn.Buffer(3)
    with pytest.raises(ValueError, match="For create Buffer, input data should not be None"):
        nn.Buffer(None)
    with pytest.raises(AttributeError, match="Net has no attribute `nope`"):
        net.get_buffer("nope")
    with pytest.raises(AttributeError, match="`w` is not a buffer"):
        net.get_buffer("w")


def test_buffer_attribute_assignment():
    net = Model()
    with pytest.raises(TypeError, match=r"Buffer 'buffer_a' already exists in network, can not assign this type"):
        net.buffer_a = ms.tensor([7, 8, 9])
    net.buffer_a = nn.Buffer(ms.tensor([7, 8, 9]))
    assert str(net.buffer_a) == "[7 8 9]"
    net.buffer_a = None
    assert net.buffer_a is None and list(net.state_dict()) == ["param_a"]
    net.register_buffer("temp", ms.tensor([1.0]), persistent=False)
    assert "temp" not in net.state_dict() and [n for n, _ in net.named_buffers()] == ["temp"]
    net.tmp2 = nn.Buffer(ms.tensor([1.0]), persistent=False)
    assert "tmp2" not in net.state_dict()


# ----------------------------------------------------------------- state_dict
def test_state_dict_page_example():
    model = Model()
    sd = model.state_dict()
    assert isinstance(sd, OrderedDict) and sd["param_a"] is model.param_a
    assert str(sd) == ("OrderedDict([('param_a', Parameter (name=param_a, shape=(3,), dtype=Int64, "
                       "requires_grad=True)), ('buffer_a', Tensor(shape=[3], dtype=Int64, value= [4, 5, 6]))])")


def test_state_dict_keys_are_attribute_paths():
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 1)])
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    net = _net_a()
    assert list(net.state_dict(prefix="top.")) == ["top.buffer_a", "top.net_b.buffer_b", "top.net_b.net_c.buffer_c"]
    dest = {}
    assert net.state_dict(destination=dest) is dest and len(dest) == 3


def test_state_dict_argument_checks():
    net = Model()
    with pytest.warns(FutureWarning, match="Positional args"):
        sd = net.state_dict(None, "p.")
    assert list(sd) == ["p.param_a", "p.buffer_a"]
    with pytest.raises(TypeError, match="destination must be OrderedDict.*list"):
        net.state_dict(destination=[])
    with pytest.raises(TypeError, match="prefix must be string"):
        net.state_dict(prefix=1)
    with pytest.raises(TypeError, match="keep_vars must be bool"):
        net.state_dict(keep_vars=1)


def test_state_dict_hooks():
    net = Model()
    calls = []

    def add_extra_param(cell, prefix, keep_vars):
        calls.append(("pre", prefix, keep_vars))
        cell._params["extra_param"] = Parameter(ms.tensor([4, 5, 6]))

    def post(cell, state_dict, prefix, local_metadata):
        calls.append(("post", list(state_dict)))
        state_dict.pop("buffer_a")

    handle = net.register_state_dict_pre_hook(add_extra_param)
    net.register_state_dict_post_hook(post)
    sd = net.state_dict()
    handle.remove()
    assert "extra_param" in sd and "buffer_a" not in sd
    assert calls == [("pre", "", False), ("post", ["param_a", "extra_param", "buffer_a"])]
    net.register_state_dict_post_hook(lambda *a: 1)
    with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
        net.state_dict()


# ------------------------------------------------------------ load_state_dict
def test_load_state_dict_round_trip():
    src, dst = Model(), Model()
    src.param_a.set_data(ms.tensor([7, 8, 9]))
    src.buffer_a = nn.Buffer(ms.tensor([1, 1, 1]))
    result = dst.load_state_dict(src.state_dict())
    assert repr(result) == "<All keys matched successfully>" and str(result) == repr(result)
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert dst.param_a.asnumpy().tolist() == [7, 8, 9] and dst.buffer_a.asnumpy().tolist() == [1, 1, 1]
    assert dst.param_a is not src.param_a


def test_load_state_dict_strict_errors():
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 1)])
    sd = seq.state_dict()
    del sd["0.weight"], sd["1.bias"]
    sd["zz"] = ms.tensor([1.0])
    with pytest.raises(RuntimeError) as err:
        seq.load_state_dict(sd)
    assert str(err.value) == ('Error(s) in loading state_dict for SequentialCell:\n\tMissing key(s) in state_dict: '
                              '"0.weight", "1.bias". \n\tUnexpected key(s) in state_dict: "zz". ')
    result = seq.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["0.weight", "1.bias"] and result.unexpected_keys == ["zz"]
    assert repr(result) == "_IncompatibleKeys(missing_keys=['0.weight', '1.bias'], unexpected_keys=['zz'])"


def test_load_state_dict_bad_values():
    net = Model()
    with pytest.raises(RuntimeError, match=r"size mismatch for param_a: copying a param with shape \(2,\) from "
                                           r"checkpoint, the shape in current model is \(3,\)"):
        net.load_state_dict({"param_a": ms.tensor([1, 2]), "buffer_a": ms.tensor([1, 2, 3])})
    with pytest.raises(RuntimeError, match='While copying the parameter named "param_a", expected Tensor'):
        net.load_state_dict({"param_a": np.array([1, 2, 3]), "buffer_a": ms.tensor([1, 2, 3])}, strict=False)
    with pytest.raises(TypeError, match="load_state_dict.*dict-like, got <class 'list'>"):
        net.load_state_dict([1])


def test_load_state_dict_hooks():
    net = NetB(NetC())
    calls = []

    def rename_old_keys(cell, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
        calls.append(("pre", type(cell).__name__, prefix))
        if prefix + "old_b" in state_dict:
            state_dict[prefix + "buffer_b"] = state_dict.pop(prefix + "old_b")

    def forgive(cell, keys):
        calls.append(("post", type(cell).__name__, list(keys.missing_keys)))
        keys.missing_keys.clear()

    net.register_load_state_dict_pre_hook(rename_old_keys)
    net.net_c.register_load_state_dict_post_hook(forgive)
    result = net.load_state_dict({"old_b": ms.tensor([9, 9, 9])})
    assert net.buffer_b.asnumpy().tolist() == [9, 9, 9] and repr(result) == "<All keys matched successfully>"
    assert calls == [("pre", "NetB", ""), ("post", "NetC", ["net_c.buffer_c"])]
    net.register_load_state_dict_post_hook(lambda cell, keys: 0)
    with pytest.raises(RuntimeError, match="are not expected to return new values"):
        net.load_state_dict(net.state_dict())


def test_extra_state():
    class WithExtra(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(ms.tensor([1.0]))
            self.steps = 0

        def get_extra_state(self):
            return {"steps": self.steps}

        def set_extra_state(self, state):
            self.steps = state["steps"]

        def construct(self, x):
            return x * self.w

    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = WithExtra()

        def construct(self, x):
            return self.inner(x)

    src, dst = Holder(), Holder()
    src.inner.steps = 5
    sd = src.state_dict()
    assert list(sd) == ["inner.w", "inner._extra_state"] and sd["inner._extra_state"] == {"steps": 5}
    dst.load_state_dict(sd)
    assert dst.inner.steps == 5
    del sd["inner._extra_state"]
    assert dst.load_state_dict(sd, strict=False).missing_keys == ["inner._extra_state"]
    assert Model().load_state_dict({**Model().state_dict(), "_extra_state": 1},
                                   strict=False).unexpected_keys == ["_extra_state"]
    with pytest.raises(RuntimeError, match=r"Cell.get_extra_state\(\) that should never be called"):
        Model().get_extra_state()
    with pytest.raises(RuntimeError, match=r"Cell.set_extra_state\(\) that should never be called"):
        Model().set_extra_state({})

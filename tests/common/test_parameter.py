"""tfspore.Parameter and ParameterTuple."""
import copy
import pickle
import re

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Parameter, ParameterTuple, Tensor
from tfspore.common import dtype as mstype
from tfspore.common.initializer import One, initializer


def _p(shape=(2, 3), name="w", dtype=np.float32, **kw):
    return Parameter(Tensor(np.ones(shape, dtype)), name=name, **kw)


def test_wraps_a_tf_variable_seen_by_gradient_tape():
    p = _p()
    assert isinstance(p.variable, tf.Variable) and p.variable.trainable
    assert isinstance(p, Tensor)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(p * 3.0)
    grad = tape.gradient(loss, p.variable)
    assert grad.numpy().tolist() == [[3.0] * 3] * 2
    assert tape.watched_variables() == (p.variable,)
    assert not Parameter(Tensor([1, 2]), name="i").variable.trainable
    assert not _p(name="f", requires_grad=False).variable.trainable


@pytest.mark.parametrize("data,dtype,shape", [
    (1.0, mstype.float32, ()), (1, mstype.int32, ()), ([1, 2], mstype.int64, (2,)), ([1.0, 2.0], mstype.float32, (2,)),
    (np.ones(2), mstype.float64, (2,)), (Tensor(np.ones((2, 2), np.float16)), mstype.float16, (2, 2)),
    (initializer("ones", (2,), mstype.float32), mstype.float32, (2,)),
    (Tensor(shape=(3,), dtype=mstype.int8, init=One()), mstype.int8, (3,))])
def test_default_input_types(data, dtype, shape):
    p = Parameter(data, name="x")
    assert p.dtype == dtype and p.shape == shape and not p.has_init


@pytest.mark.parametrize("data,exc,match", [
    (True, ValueError, "bool"), ("a", TypeError, "default_input"), (None, TypeError, "default_input"),
    ((1, 2), TypeError, "default_input"), (Tensor(shape=[None, 3], dtype=mstype.float32), ValueError, "positive")])
def test_default_input_errors(data, exc, match):
    with pytest.raises(exc, match=match):
        Parameter(data)


def test_names():
    a, b = Parameter(1.0), Parameter(2.0, name="")
    assert re.fullmatch(r"Parameter#\d+", a.name) and re.fullmatch(r"Parameter#\d+", b.name)
    assert int(b.name[10:]) == int(a.name[10:]) + 1
    assert Parameter(1.0, name="  x  ").name == "x" and Parameter(1.0, name="a.b").name == "a.b"
    assert len(Parameter(1.0, name="a" * 1024).name) == 1024
    with pytest.raises(ValueError, match="name should be less than 1024"):
        Parameter(1.0, name="a" * 1025)
    with pytest.raises(ValueError, match="'string' or 'None'"):
        Parameter(1.0, name=5)
    p = Parameter(1.0, name="old")
    p.name = "renamed"
    assert p.name == "renamed"
    p.name = None
    assert p.name.startswith("Parameter#")


def test_flags():
    p = _p()
    assert p.requires_grad is True and p.has_grad()
    p.requires_grad = False
    assert repr(p) == "Parameter (name=w, shape=(2, 3), dtype=Float32, requires_grad=False)"
    with pytest.raises(TypeError, match="requires_grad"):
        p.requires_grad = 1
    with pytest.raises(TypeError, match="requires_grad"):
        Parameter(1.0, requires_grad=1)
    assert p.layerwise_parallel is False and p.parallel_optimizer is True and p.unique is False
    with pytest.raises(TypeError, match="layerwise_parallel"):
        p.layerwise_parallel = "x"
    with pytest.raises(ValueError, match="device"):
        Parameter(1.0, device="GPU")
    assert p.inited_param is None and p.init_data() is p and p.sliced is False


def test_repr_and_str():
    p = _p()
    text = "Parameter (name=w, shape=(2, 3), dtype=Float32, requires_grad=True)"
    assert repr(p) == str(p) == f"{p}" == text and repr([p]) == f"[{text}]"
    assert str(Parameter(Tensor(np.ones(2, np.float16)), name="h")) == \
        "Parameter (name=h, shape=(2,), dtype=Float16, requires_grad=True)"
    assert str(Parameter(1.0, name="s")) == "Parameter (name=s, shape=(), dtype=Float32, requires_grad=True)"


def test_values():
    p = _p()
    assert p.asnumpy().tolist() == [[1.0] * 3] * 2 and p.numpy().shape == (2, 3)
    assert p.data is p
    v = p.value()
    assert type(v) is Tensor and v.asnumpy().tolist() == p.asnumpy().tolist()
    p.data[0, 1] = 5.0  # writes through
    assert p.asnumpy()[0, 1] == 5.0 and v.asnumpy()[0, 1] == 1.0
    p[1] = 0.0
    assert type(p) is Parameter and p.asnumpy()[1].tolist() == [0.0] * 3
    assert type(p + 1) is Tensor and type(p[0]) is Tensor and type(-p) is Tensor
    assert (p * p).dtype == mstype.float32 and p.sum().item() == 7.0


def test_set_data_same_shape_and_cast():
    p = _p()
    var = p.variable
    assert p.set_data(Tensor(np.zeros((2, 3), np.float32))) is p and p.variable is var
    assert p.asnumpy().sum() == 0
    p.set_data(Tensor(np.full((2, 3), 2.0)))  # Float64 data is cast
    assert p.dtype == mstype.float32 and p.asnumpy()[0, 0] == 2.0 and p.variable is var
    h = Parameter(Tensor(np.ones(2, np.float16)), name="h")
    assert h.set_data(Tensor(np.ones(2, np.float32))).dtype == mstype.float16
    assert _p(name="f").set_data(Tensor(np.ones((2, 3), np.int32))).dtype == mstype.float32
    lazy = initializer("ones", (2, 3), mstype.float32)
    assert p.set_data(lazy).asnumpy().sum() == 6


def test_set_data_numbers_and_errors():
    pi = Parameter(Tensor(np.ones((2,), np.int32)), name="pi")
    with pytest.raises(TypeError, match="Current dtype is Int32, and incoming is Float"):
        pi.set_data(2.5)
    assert pi.set_data(Tensor(np.zeros(2, np.float32))).dtype == mstype.int32
    pi.set_data(3)  # a number becomes the (scalar) data, as in MindSpore
    assert pi.shape == () and pi.asnumpy() == 3 and pi.dtype == mstype.int32
    s = Parameter(1.0, name="lr")
    s.set_data(0.5)
    assert s.shape == () and s.asnumpy() == 0.5
    for bad in ([1, 2], np.zeros(2), "x"):
        with pytest.raises(TypeError, match="Parameter data must be"):
            s.set_data(bad)


def test_set_data_shape_change_recreates_the_variable():
    p = _p()
    old = p.variable
    p.set_data(Tensor(np.zeros((3, 3), np.float32)))
    assert p.shape == (3, 3) and p.variable is not old and p.variable.trainable

    @tf.function
    def inside():
        p.set_data(Tensor(np.zeros((4,), np.float32)))
        return 0
    with pytest.raises(ValueError, match="compiled graph"):
        inside()


def test_set_dtype():
    p = _p()
    assert p.set_dtype(mstype.float16) == mstype.float16 and p.dtype == mstype.float16
    assert p.set_dtype(mstype.int32) == mstype.int32 and not p.variable.trainable


def test_clone_and_copy():
    p = _p(requires_grad=False)
    c = p.clone()
    assert c is not p and c.name == "w" and c.requires_grad is False and c.variable is not p.variable
    assert c.asnumpy().tolist() == p.asnumpy().tolist()
    z = p.clone(init="zeros")
    assert z.asnumpy().sum() == 0 and z.shape == (2, 3) and z.dtype == mstype.float32
    assert p.clone(init=One()).asnumpy().sum() == 6 and p.clone(init=2.0).asnumpy()[0, 0] == 2.0
    assert p.clone(init="normal").shape == (2, 3)
    cp = p.copy()
    assert type(cp) is Parameter and cp.name == "w" and cp.variable is not p.variable


def test_pickle_and_deepcopy():
    p = _p(name="b", requires_grad=False)
    for c in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p), copy.copy(p)):
        assert type(c) is Parameter and c.name == "b" and c.requires_grad is False and c is not p
        assert c.asnumpy().tolist() == p.asnumpy().tolist() and c.variable is not p.variable


def test_parameter_in_graph():
    p = _p()

    @tf.function
    def step(x):
        p[0] = x  # assigns the variable
        return (p * 2).sum()._value()

    assert step(tf.constant([1.0, 2.0, 3.0])).numpy() == 18.0
    assert p.asnumpy()[0].tolist() == [1.0, 2.0, 3.0]


def test_register_hook():
    p = _p()
    x = Tensor(np.full((2, 3), 3.0, np.float32))
    grad_w = ms.grad(lambda x: (p * x).sum(), grad_position=None, weights=[p])
    handle = p.register_hook(lambda g: g * 2)
    assert grad_w(x)[0].asnumpy().tolist() == [[6.0] * 3] * 2  # the hook doubles the weight's gradient
    handle.remove()
    assert grad_w(x)[0].asnumpy().tolist() == [[3.0] * 3] * 2
    with pytest.raises(TypeError, match="hook_fn"):
        p.register_hook(1)


# ----------------------------------------------------------------------------- ParameterTuple
def test_parameter_tuple():
    a, b = _p(name="a"), _p((2,), name="b")
    pt = ParameterTuple([a, b])
    assert isinstance(pt, tuple) and pt[0] is a and len(ParameterTuple([a, a])) == 2
    assert ParameterTuple((x for x in [a, b]))[1] is b
    with pytest.raises(ValueError, match="its name 'a' already exists"):
        ParameterTuple([a, _p(name="a")])
    with pytest.raises(TypeError, match="ParameterTuple input should be 'Parameter' collection"):
        ParameterTuple([a, 1])


def test_parameter_tuple_clone():
    a, b = _p(name="fc.weight"), Parameter(Tensor(np.ones(2, np.int32)), name="fc.bias")
    moments = ParameterTuple([a, b]).clone("moments", init="zeros")
    assert [m.name for m in moments] == ["moments.fc.weight", "moments.fc.bias"]
    assert isinstance(moments, ParameterTuple) and moments[0].asnumpy().sum() == 0 and moments[1].dtype == mstype.int32
    same = ParameterTuple([a]).clone("m")
    assert same[0].asnumpy().tolist() == a.asnumpy().tolist() and a.name == "fc.weight"
    assert ParameterTuple([a]).clone("a.b")[0].name == "a.b.fc.weight"
    assert ParameterTuple([a]).clone("1m")[0].name == "1m.fc.weight"
    with pytest.raises(ValueError, match="illegal"):
        ParameterTuple([a]).clone("a b")
    with pytest.raises(TypeError, match="prefix"):
        ParameterTuple([a]).clone(5)


def test_top_level_exports():
    assert ms.Parameter is Parameter and ms.ParameterTuple is ParameterTuple

"""Primitive base class, prim_attr_register, constexpr, and the composite helpers."""
import copy

import numpy as np
import pytest

from tfspore import Tensor, ops
from tfspore.ops import composite as C
from tfspore.ops import functional as F
from tfspore.ops import operations as P
from tfspore.ops.primitive import Primitive, PrimitiveWithInfer, constexpr, prim_attr_register


def test_repr_attrs_and_names():
    assert repr(ops.ReLU()) == "Prim[ReLU]"
    rm = ops.ReduceMean(keep_dims=True)
    assert repr(rm) == "Prim[ReduceMean]<keep_dims=True>"
    assert rm.attrs == {"keep_dims": True} and rm.init_attrs == {"keep_dims": True}
    assert rm.keep_dims is True and rm.name == "ReduceMean"
    assert repr(P.Softmax()) == "Prim[Softmax]<axis=(-1,)>"
    mm = ops.MatMul(transpose_b=True)
    assert mm.transpose_a is False and mm.transpose_b is True


def test_add_prim_attr_instance_name_and_getattr():
    add = ops.Add().add_prim_attr("primitive_target", "CPU")
    assert add.attrs["primitive_target"] == "CPU" and add.primitive_target == "CPU"
    assert add.set_prim_instance_name("my_add").instance_name == "my_add"
    assert add.del_prim_attr("primitive_target").attrs == {}
    with pytest.raises(AttributeError, match="'Add' object has no attribute 'nope'"):
        _ = add.nope
    assert add.shard(((1, 1), (1, 1))).attrs["in_strategy"] == ((1, 1), (1, 1))
    assert add.recompute().attrs["recompute"] is True


def test_custom_primitive_with_register():
    class Scale(Primitive):
        @prim_attr_register
        def __init__(self, factor=2.0):
            self.init_prim_io_names(inputs=["x"], outputs=["y"])

        def __call__(self, x):
            return x * self.factor

    s = Scale(3.0)
    assert repr(s) == "Prim[Scale]<factor=3.0>"
    assert s.input_names == ["x"]
    np.testing.assert_allclose(s(Tensor(np.array([1.0], np.float32))).asnumpy(), [3.0])
    s2 = copy.deepcopy(s)
    assert s2.factor == 3.0 and s2 is not s


def test_primitive_by_name_and_missing_impl():
    add = Primitive("Add")
    out = add(Tensor(np.array([1.0], np.float32)), Tensor(np.array([2.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [3.0])
    with pytest.raises(RuntimeError, match="For 'NoSuchOp'"):
        Primitive("NoSuchOp")(1)


def test_primitive_with_infer_value_and_constexpr():
    class Double(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            pass

        def infer_value(self, x):
            return None if x is None else x * 2

    assert Double()(4) == 8
    assert Double().__infer__({"shape": (1,), "dtype": None, "value": 3})["value"] == 6

    @constexpr
    def make_shape(n):
        return (n, n)

    assert make_shape(3) == (3, 3)


def test_ops_namespaces():
    assert ops.composite is C and ops.P is P and ops.F is F
    for name in ("math_ops", "array_ops", "nn_ops", "other_ops"):
        assert hasattr(P, name)
    assert F.depend is not None and callable(ops.print_) and ops.Print is P.Print
    assert ops.GradOperation is C.GradOperation
    assert isinstance(ops.identity, P.identity) and repr(ops.identity) == "Prim[identity]"
    t = Tensor(np.ones(2, np.float32))
    assert ops.identity((t, t))[0] is t  # a tuple passes through, as MindSpore's identity


def test_multitype_func_graph_and_hyper_map():
    add = C.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def _num(x, y):
        return ("num", x + y)

    @add.register("Tensor", "Tensor")
    def _tensor(x, y):
        return ("tensor", ops.add(x, y))

    @add.register("Int", "Int")
    def _int(x, y):
        return ("int", x + y)

    assert add(1.5, 2)[0] == "num" and add(1, 2) == ("int", 3)
    t = Tensor(np.ones(2, np.float32))
    assert add(t, t)[0] == "tensor"
    with pytest.raises(TypeError, match="add"):
        add("a", "b")
    hm = C.HyperMap()
    assert hm(lambda a, b: a * b, (1, (2, 3)), (4, (5, 6))) == (4, (10, 18))
    assert C.HyperMap(F.partial(lambda s, a: s * a, 10))([1, 2]) == [10, 20]
    assert C.Map()(lambda a, b: (a, b), (1, 2), 0) == ((1, 0), (2, 0))

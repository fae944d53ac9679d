"""Cell: naming, registries, flags, mixed precision, errors, printing and compiled execution."""
import copy
import logging

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Parameter, ParameterTuple, Tensor, nn
from tfspore.nn import _cell_parallel as cell_mod


def _arr(*shape, start=0.0):
    return (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + start) / 10


class Leaf(nn.Cell):
    """y = x @ w + b, with an explicitly named weight."""

    def __init__(self, n=2, name="custom"):
        super().__init__()
        self.w = Parameter(Tensor(_arr(n, n, start=1)), name=name)
        self.b = Parameter(Tensor(np.zeros(n, np.float32)))

    def construct(self, x):
        return x @ self.w + self.b


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.own = Parameter(Tensor(np.float32(2.0)), name="own_custom")
        self.child = Leaf()

    def construct(self, x):
        return self.child(x) * self.own


class NoPrefix(nn.Cell):
    def __init__(self):
        super().__init__(auto_prefix=False)
        self.child = Leaf()

    def construct(self, x):
        return self.child(x)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.float32(1.5)), name="scale")
        self.p_noname = Parameter(Tensor(np.zeros(2, np.float32)))
        self.frozen = Parameter(Tensor(np.ones(2, np.float32)), requires_grad=False)
        self.inner = Inner()
        self.np = NoPrefix()

    def construct(self, x):
        return (self.np(self.inner(x)) + self.p_noname + self.frozen) * self.scale


X = Tensor(_arr(3, 2))


# ------------------------------------------------------------------ naming (spec 1)
def test_names_follow_attribute_paths_at_assignment():
    net = Outer()
    assert [(k, p.name) for k, p in net.parameters_and_names()] == [
        ("scale", "scale"), ("p_noname", "p_noname"), ("frozen", "frozen"),
        ("inner.own", "inner.own"), ("inner.child.w", "inner.child.w"), ("inner.child.b", "inner.child.b"),
        ("np.child.w", "np.child.w"), ("np.child.b", "np.child.b")]


def test_explicit_names_kept_standalone_and_overwritten_when_nested():
    assert [p.name for p in Leaf().get_parameters()] == ["custom", "b"]
    assert [p.name for p in Inner().get_parameters()] == ["own_custom", "child.w", "child.b"]


def test_auto_prefix_false_does_not_prefix_own_children():
    assert [p.name for p in NoPrefix().get_parameters()] == ["custom", "b"]


def test_shared_child_renamed_by_last_assignment():
    class Shared(nn.Cell):
        def __init__(self):
            super().__init__()
            d = Leaf()
            self.a = d
            self.b = d

        def construct(self, x):
            return self.a(x)

    net = Shared()
    assert [(k, p.name) for k, p in net.parameters_and_names()] == [("a.w", "b.w"), ("a.b", "b.b")]
    assert list(net.name_cells()) == ["a"]
    assert [k for k, _ in net.cells_and_names()] == ["", "a"]
    assert list(net.state_dict()) == ["a.w", "a.b", "b.w", "b.b"]


def test_shared_parameter_keeps_first_occurrence():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.x = Leaf()
            self.y = Leaf()
            self.y.w = self.x.w

        def construct(self, x):
            return self.y(self.x(x))

    net = Net()
    assert [(k, p.name) for k, p in net.parameters_and_names()] == [("x.w", "x.w"), ("x.b", "x.b"),
                                                                     ("y.b", "y.b")]


def test_duplicate_names_refreshed_to_paths_on_first_call(mode):
    class Twins(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.a = Leaf()
            self.b = Leaf()

        def construct(self, x):
            return self.a(x) + self.b(x)

    net = Twins()
    assert [p.name for p in net.get_parameters()] == ["custom", "b", "custom", "b"]
    net(X)
    assert [p.name for p in net.get_parameters()] == ["a.w", "a.b", "b.w", "b.b"]


def test_update_parameters_name_validates_prefix():
    net = Leaf()
    net.update_parameters_name("net.")
    assert [p.name for p in net.get_parameters()] == ["net.w", "net.b"]
    with pytest.raises(ValueError, match="'a b'"):
        net.update_parameters_name("a b")


def test_with_dense_and_sequential():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1)])
            self.cl = nn.CellList([nn.Dense(1, 1)])

        def construct(self, x):
            return self.cl[0](self.layers(x))

    net = Net()
    assert [p.name for p in net.get_parameters()] == [
        "layers.0.weight", "layers.0.bias", "layers.2.weight", "layers.2.bias", "cl.0.weight", "cl.0.bias"]
    assert [k for k, _ in net.cells_and_names()] == ["", "layers", "layers.0", "layers.1", "layers.2", "cl", "cl.0"]
    assert net(X).shape == (3, 1)


# ---------------------------------------------------------- iteration (spec 5)
def test_cells_and_names_name_cells_cells():
    net = Outer()
    assert [k for k, _ in net.cells_and_names()] == ["", "inner", "inner.child", "np", "np.child"]
    assert [k for k, _ in net.cells_and_names(name_prefix="net")][:2] == ["net", "net.inner"]
    assert list(net.name_cells()) == ["inner", "np"]
    cells = net.cells()
    assert type(cells).__name__ == "odict_values"
    assert list(cells) == [net.inner, net.np]
    net.np = None
    assert list(net.name_cells()) == ["inner"]
    assert [k for k, _ in net.cells_and_names()] == ["", "inner", "inner.child"]


def test_parameter_views():
    net = Outer()
    assert [p.name for p in net.get_parameters(expand=False)] == ["scale", "p_noname", "frozen"]
    assert [k for k, _ in net.parameters_and_names(name_prefix="m", expand=False)] == ["m.scale", "m.p_noname",
                                                                                       "m.frozen"]
    assert [p.name for p in net.untrainable_params()] == ["frozen"]
    assert "frozen" not in [p.name for p in net.trainable_params()]
    assert [p.name for p in net.trainable_params(recurse=False)] == ["scale", "p_noname"]
    pd = net.parameters_dict()
    assert list(pd)[:4] == ["scale", "p_noname", "frozen", "inner.own"] and pd["inner.own"] is net.inner.own
    assert list(net.parameters_dict(recurse=False)) == ["scale", "p_noname", "frozen"]
    net.scale.layerwise_parallel = True
    assert "scale" not in net.parameters_broadcast_dict()
    assert nn.ReLU().parameters_broadcast_dict() is None


def test_insert_child_to_cell():
    net = Leaf()
    child = Leaf(name="w")
    net.insert_child_to_cell("child", child)
    assert net.child is child
    assert [p.name for p in net.get_parameters()] == ["custom", "b", "w", "b"]  # no renaming
    with pytest.raises(TypeError, match="insert_child_to_cell.*child_name.*int"):
        net.insert_child_to_cell(1, child)
    with pytest.raises(KeyError, match="insert_child_to_cell.*'a.b'"):
        net.insert_child_to_cell("a.b", child)
    with pytest.raises(TypeError, match="insert_child_to_cell.*child_cell.*int"):
        net.insert_child_to_cell("c", 3)
    with pytest.raises(KeyError, match="insert_child_to_cell.*w child cell already exists"):
        net.insert_child_to_cell("w", child)


def test_insert_param_to_cell():
    net = nn.ReLU()
    net.insert_param_to_cell("bias", Parameter(Tensor([1, 2, 3])))
    assert net.bias.name == "bias" and repr(net.bias) == \
        "Parameter (name=bias, shape=(3,), dtype=Int64, requires_grad=True)"
    with pytest.raises(KeyError, match=r"insert_param_to_cell.*'param_name' should not contain'\.'.*'a\.b'"):
        net.insert_param_to_cell("a.b", Parameter(Tensor(1.0)))
    net.insert_param_to_cell("a.b", Parameter(Tensor(1.0), name="x"), check_name_contain_dot=False)
    assert "a.b" in dict(net.parameters_and_names(expand=False))
    with pytest.raises(TypeError, match="insert_param_to_cell.*'param' must be 'Parameter'"):
        net.insert_param_to_cell("c", Tensor(1.0))
    with pytest.raises(KeyError, match="insert_param_to_cell.*should not be None"):
        net.insert_param_to_cell("", Parameter(Tensor(1.0)))


def test_insert_names_clash_across_parameters_cells_and_buffers():
    net = nn.SequentialCell([nn.ReLU()])
    net.register_buffer("buf", Tensor([1.0]))
    net.note = "plain attribute"
    net.insert_param_to_cell("p", Parameter(Tensor(1.0)))
    net.insert_param_to_cell("p", Parameter(Tensor(2.0)))  # replacing a parameter is allowed
    assert float(net.p) == 2.0
    for taken in ("0", "buf", "note"):
        with pytest.raises(KeyError, match=f"insert_param_to_cell', the {taken} parameter already exists"):
            net.insert_param_to_cell(taken, Parameter(Tensor(1.0)))
    with pytest.raises(KeyError, match="insert_child_to_cell', the buf child cell already exists"):
        net.insert_child_to_cell("buf", nn.ReLU())
    with pytest.raises(KeyError, match="register_buffer', attribute 'p' already exists"):
        net.register_buffer("p", Tensor([1.0]))
    net.register_buffer("buf", Tensor([3.0]))  # replacing a buffer is allowed
    assert net.buf.asnumpy().tolist() == [3.0]


def test_parameter_tuple_and_list_attributes():
    class Net(nn.Cell):
        def __init__(self, value):
            super().__init__()
            self.group = value

        def construct(self, x):
            return x

    a, b = Parameter(Tensor(1.0), name="a"), Parameter(Tensor(2.0), name="b")
    assert [p.name for p in Net(ParameterTuple([a, b])).get_parameters()] == ["a", "b"]
    assert list(Net([a, b]).get_parameters()) == []
    with pytest.raises(ValueError, match="'a' already exists"):
        Net([a, Parameter(Tensor(3.0), name="a")])


# ------------------------------------------------------------ attributes (spec 6)
def test_attribute_assignment_semantics():
    net = Leaf()
    w = net.w
    net.w = Tensor(np.ones((2, 2), np.float32))
    assert net.w is w and np.array_equal(w.asnumpy(), np.ones((2, 2)))
    with pytest.raises(TypeError, match=r"Parameter 'w' already exists in network, can not assign this type: "
                                        r"'<class 'int'>' as a parameter \(got 3\)"):
        net.w = 3
    net.child = Leaf()
    with pytest.raises(TypeError, match=r"Sub cell 'child' already exists.*\(got 'x'\)"):
        net.child = "x"
    net.child = None
    assert net.child is None and list(net.cells()) == []
    net.w = None
    assert [k for k, _ in net.parameters_and_names()] == ["b"]
    with pytest.raises(AttributeError, match="The 'Leaf' object has no attribute 'nope'."):
        _ = net.nope
    del net.b
    assert list(net.parameters_and_names()) == []


def test_missing_super_init_is_reported():
    class Bad(nn.Cell):
        def __init__(self):
            self.w = Parameter(Tensor(1.0))

    with pytest.raises(AttributeError, match=r"super\(\)\.__init__\(\)"):
        Bad()


def test_cell_without_construct_raises(mode):
    class NoConstruct(nn.Cell):
        pass

    with pytest.raises(AttributeError, match="construct"):
        NoConstruct()(X)


# --------------------------------------------------------------- apply, flags
def test_apply_visits_children_first_and_returns_self():
    net = Outer()
    seen = []
    assert net.apply(lambda c: seen.append(type(c).__name__)) is net
    assert seen == ["Leaf", "Inner", "Leaf", "NoPrefix", "Outer"]


def test_apply_page_example_and_dense_views():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))

    def func(cell):
        if isinstance(cell, nn.Dense):
            cell.weight.set_data(ms.common.initializer.initializer("ones", cell.weight.shape, cell.weight.dtype))

    assert net.apply(func) is net
    assert net[0].weight.asnumpy().tolist() == [[1, 1], [1, 1]]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(2, 2)

        def construct(self, x):
            return self.dense(x)

    net = Net()
    dense = "Dense(input_channels=2, output_channels=2, has_bias=True)"
    assert str(net.name_cells()) == f"OrderedDict([('dense', {dense})])"
    assert str(net.cells()) == f"odict_values([{dense}])"
    assert str(net.parameters_dict()) == (
        "OrderedDict([('dense.weight', Parameter (name=dense.weight, shape=(2, 2), dtype=Float32, "
        "requires_grad=True)), ('dense.bias', Parameter (name=dense.bias, shape=(2,), dtype=Float32, "
        "requires_grad=True))])")
    assert net.init_parameters_data() == {p: p for p in net.get_parameters()}


def test_add_flags_and_get_flags():
    net = Outer()
    assert net.add_flags(sink_mode=True) is net
    assert net.sink_mode is True and net.get_flags() == {"sink_mode": True}
    assert not hasattr(net.inner, "sink_mode")
    net.add_flags_recursive(dataset_sink=False)
    assert all(c.dataset_sink is False for _, c in net.cells_and_names())
    assert nn.Cell(flags={"a": 1}).get_flags() == {"a": 1}


def test_set_train_and_training_flags():
    net = Outer()
    assert net.training is False and net.phase == "train" and net.inner.child.training is False
    assert net.set_train() is net
    assert all(c.training for _, c in net.cells_and_names()) and net.phase == "train"
    net.set_train(False)
    assert not any(c.training for _, c in net.cells_and_names()) and net.phase == "predict"
    assert net.requires_grad is False
    assert net.set_grad() is net and net.requires_grad is True
    net.set_grad(False)
    assert net.requires_grad is False


def test_set_train_changes_the_computation(mode):
    class Drop(nn.Cell):
        def construct(self, x):
            return x * 2 if self.training else x

    net = Drop()
    x = Tensor(np.ones(2, np.float32))
    assert net(x).asnumpy().tolist() == [1, 1]
    assert net.set_train()(x).asnumpy().tolist() == [2, 2]
    assert net.set_train(False)(x).asnumpy().tolist() == [1, 1]


# ----------------------------------------------------------- mixed precision (spec 10)
def test_to_float_casts_inputs_keeps_params(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.leaf = Leaf()
            self.seen = []

        def construct(self, x):
            self.seen.append(x.dtype)
            return self.leaf(x)

    net = Net()
    assert net.to_float(ms.float16) is net
    assert net.get_flags() == {"fp16": True, "fp32": False, "bf16": False} and net.leaf.fp16
    net(X)
    assert net.seen[-1] == ms.float16
    assert net.leaf.w.dtype == ms.float32
    assert net.leaf.cast_param(net.leaf.w).dtype == ms.float16
    net.leaf.to_float(ms.float32)
    assert net.leaf.fp32 and net.fp16
    with pytest.raises(ValueError, match="For 'to_float', the argument 'dst_type' must be .* and value: Int32"):
        net.to_float(ms.int32)


def test_to_float_with_dense(mode):
    d = nn.Dense(2, 3).to_float(ms.float16)
    assert d(X).dtype == ms.float16 and d.weight.dtype == ms.float32


def test_cast_inputs_and_auto_cast_inputs():
    net = Leaf()
    i = Tensor(np.ones(2, np.int32))
    out = net.cast_inputs((X, [X, i], 3), ms.float16)
    assert out[0].dtype == ms.float16 and out[1][0].dtype == ms.float16 and out[1][1] is i and out[2] == 3
    assert net.auto_cast_inputs((X,))[0] is X
    assert net.cast_param(net.w) is net.w
    net.to_float(ms.bfloat16)
    assert net.auto_cast_inputs((X,))[0].dtype == ms.bfloat16


# ------------------------------------------------------------------- printing (spec 4)
def test_repr_rules():
    class Extra(nn.Cell):
        def __init__(self, text, child=None):
            super().__init__()
            self.text = text
            if child is not None:
                self.d = child

        def extend_repr(self):
            return self.text

        def construct(self, x):
            return x

    assert repr(Extra("")) == "Extra()"
    assert repr(Extra("a=1")) == "Extra(a=1)" and str(Extra("a=1")) == "Extra(a=1)"
    assert repr(Extra("a=1\nb=2", Extra("c=3"))) == "Extra(\n  a=1\n  b=2\n  (d): Extra(c=3)\n)"
    nested = Extra("", Extra("x", Extra("y")))
    assert repr(nested) == "Extra(\n  (d): Extra(\n    x\n    (d): Extra(y)\n  )\n)"
    assert repr(Outer()) == ("Outer(\n  (inner): Inner(\n    (child): Leaf()\n  )\n  (np): NoPrefix(\n"
                             "    (child): Leaf()\n  )\n)")


# ------------------------------------------------------------ misc public API
def test_get_sub_cell_and_update_cell_prefix():
    net = Outer()
    assert net.get_sub_cell("") is net and net.get_sub_cell("inner.child") is net.inner.child
    with pytest.raises(AttributeError, match="Inner has no attribute `nope`"):
        net.get_sub_cell("inner.nope")
    with pytest.raises(AttributeError, match="`scale` is not an nn.Cell"):
        net.get_sub_cell("scale")
    net.update_cell_prefix()
    assert net.param_prefix == "" and net.inner.child.param_prefix == "inner.child"


def test_run_construct_runs_hooks(caplog):
    net = Leaf()
    net.register_forward_hook(lambda c, a, o: o * 0)
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        out = net.run_construct((X,), {})
    assert np.all(out.asnumpy() == 0) and "run_construct" in caplog.text


def test_checkpoint_saves_and_restores_parameters(tmp_path):
    net = Outer()
    path = tf.train.Checkpoint(model=net).save(str(tmp_path / "ckpt"))
    saved = {k: p.asnumpy().copy() for k, p in net.parameters_and_names()}
    for p in net.get_parameters():
        p.set_data(Tensor(np.full(p.shape, 7, np.float32)))
    tf.train.Checkpoint(model=net).restore(path).assert_consumed()
    for k, p in net.parameters_and_names():
        np.testing.assert_array_equal(p.asnumpy(), saved[k])


def test_deepcopy_is_independent_with_same_names(mode):
    net = Outer()
    net(X)
    clone = copy.deepcopy(net)
    assert [(k, p.name) for k, p in clone.parameters_and_names()] == \
        [(k, p.name) for k, p in net.parameters_and_names()]
    np.testing.assert_allclose(clone(X).asnumpy(), net(X).asnumpy())
    clone.scale.set_data(Tensor(np.float32(0.0)))
    assert net.scale.asnumpy() == 1.5 and clone.inner.child is not net.inner.child


def test_tf_module_variable_views():
    net = Outer()
    assert [v.shape.as_list() for v in net.trainable_variables] == [[], [2], [], [2, 2], [2], [2, 2], [2]]
    assert len(net.non_trainable_variables) == 1 and len(net.variables) == 8


# -------------------------------------------------- Ascend / parallel-engine methods
@pytest.mark.parametrize("call", [
    lambda n: n.shard(((1, 1),)), lambda n: n.place("MS_WORKER", 0), lambda n: n.set_comm_fusion(1),
    lambda n: n.set_param_ps(), lambda n: n.offload(), lambda n: n.flatten_weights(),
    lambda n: n.infer_param_pipeline_stage(), lambda n: n.set_boost("less_bn"), lambda n: n.set_data_parallel(),
    lambda n: setattr(n, "parameter_layout_dict", {}), lambda n: setattr(n, "pipeline_stage", 1),
    lambda n: setattr(n, "bprop_debug", True)])
def test_parallel_methods_warn_once_and_network_runs(call, caplog, monkeypatch):
    monkeypatch.setattr(cell_mod, "_WARNED", set())
    net = Outer()
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        call(net)
        call(net)
    records = [r for r in caplog.records if "no effect on TensorFlow" in r.getMessage()]
    assert len(records) == 1
    assert net(X).shape == (3, 2)


def test_parallel_methods_validate_like_mindspore():
    net = Outer()
    with pytest.raises(ValueError, match="must be int and must >= 0|non-negative int.*-1"):
        net.set_comm_fusion(-1)
    with pytest.raises(TypeError, match="set_comm_fusion.*True"):
        net.set_comm_fusion(True)
    with pytest.raises(ValueError, match="backward_prefetch.*'x'"):
        net.offload("x")
    with pytest.raises(ValueError, match="set_boost.*'less_bn', but got x"):
        net.set_boost("x")
    with pytest.raises(ValueError, match="pipeline_stage' can not be less than 0, but got -1"):
        net.pipeline_stage = -1
    with pytest.raises(TypeError, match="pipeline_stage' must be int type"):
        net.pipeline_stage = 1.0
    with pytest.raises(TypeError, match="bprop_debug' must be bool"):
        net.bprop_debug = 1
    with pytest.raises(TypeError, match="parameter_layout_dict' must be dict"):
        net.parameter_layout_dict = []
    with pytest.raises(ValueError, match="place.*'MS_WORKER'.*'PS'"):
        net.place("PS", 0)
    with pytest.raises(TypeError, match="flatten_weights.*fusion_size"):
        net.flatten_weights("1")
    with pytest.raises(TypeError, match="shard.*in_strategy"):
        net.shard([1])
    net.set_comm_fusion(3)
    assert all(p.comm_fusion == 3 for p in net.trainable_params())


# ------------------------------------------------------------------- recompute (spec 11)
class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.leaf = Leaf()

    def construct(self, x):
        h = Tensor(tf.sin(self.leaf(x)))
        return (h * h).sum()


def test_recompute_gradients_equal(mode):
    ref, net = Block(), Block()
    calls = []
    net.leaf.register_forward_pre_hook(lambda c, a: calls.append(1))
    net.recompute()
    assert net.output_recompute is False and net.leaf._has_config_recompute
    g_ref = ms.grad(ref, grad_position=0, weights=ref.trainable_params())(X)
    g_net = ms.grad(net, grad_position=0, weights=net.trainable_params())(X)
    for a, b in zip(tf.nest.flatten(g_ref), tf.nest.flatten(g_net)):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
    assert len(calls) == 2  # the forward ran again in the backward pass
    np.testing.assert_allclose(net(X).asnumpy(), ref(X).asnumpy(), rtol=1e-6)


def test_recompute_options():
    net = Block()
    with pytest.raises(ValueError, match="For 'recompute', keyword 'bad' is not recognized!"):
        net.recompute(bad=1)
    with pytest.raises(TypeError, match="mp_comm_recompute.*1"):
        net.recompute(mp_comm_recompute=1)
    net.recompute(mp_comm_recompute=False)
    net.leaf.recompute()  # configured through the parent: ignored
    assert net._recompute_cell is not None and net.leaf._recompute_cell is None


# ---------------------------------------------------------- compiled execution
def test_pynative_is_eager_graph_is_traced(mode):
    seen = []

    class Probe(nn.Cell):
        def construct(self, x):
            seen.append(tf.executing_eagerly())
            return x + 1

    Probe()(X)
    assert seen == [mode == ms.PYNATIVE_MODE]


def test_graph_mode_one_trace_per_signature():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Leaf()
    net(X)
    net(X + 1)
    fn = net.compiled_construct()
    assert len(net._compiled) == 1 and fn.experimental_get_tracing_count() == 1
    net(Tensor(_arr(5, 2)))
    assert fn.experimental_get_tracing_count() == 2
    assert net.compiled


def test_set_train_toggling_reuses_traces():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    net.set_train(True)
    net(X)
    net.set_train(False)
    net(X)
    net.set_train(True)
    net(X)
    assert len(net._compiled) == 2
    assert all(f.experimental_get_tracing_count() == 1 for f in net._compiled.values())


def _dynamic(shape):
    """A shape-only Tensor as ``set_inputs`` takes it."""
    return Tensor(shape=shape, dtype=ms.float32)


def test_set_inputs_placeholder_and_get_inputs():
    net = Leaf()
    dyn = Tensor(shape=[None, 2], dtype=ms.float32)
    net.set_inputs(dyn)
    assert net.get_inputs() == (dyn,) and net.get_inputs()[0].shape == (-1, 2)


def test_set_inputs_dynamic_batch_does_not_retrace():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Leaf()
    dyn = _dynamic([None, 2])
    assert net.get_inputs() is None
    net.set_inputs(dyn)
    assert net.get_inputs() == (dyn,)
    net(X)
    net(Tensor(_arr(7, 2)))
    (fn,) = net._compiled.values()
    assert fn.input_signature == (tf.TensorSpec([None, 2], tf.float32),)
    assert fn.experimental_get_tracing_count() == 1
    np.testing.assert_allclose(net(X).asnumpy(), X.asnumpy() @ net.w.asnumpy(), rtol=1e-6)


def test_set_inputs_incremental_and_errors():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Two(nn.Cell):
        def construct(self, x, y):
            return x * 2 + y.sum()

    net = Two()
    net.set_inputs(x=_dynamic([None, 2]))
    assert list(net.get_inputs()) == ["x"]
    y = Tensor(np.ones(3, np.float32))
    net(X, y)
    net(Tensor(_arr(4, 2)), y=y)
    (fn,) = net._compiled.values()
    assert fn.experimental_get_tracing_count() == 1
    with pytest.raises(ValueError, match="set_inputs should only set inputs or kwargs"):
        net.set_inputs(_dynamic([2]), y=_dynamic([2]))
    with pytest.raises(TypeError, match="set_inputs.*Tensor.*3"):
        net.set_inputs(3, _dynamic([2]))
    with pytest.raises(TypeError, match="construct requires 2 positional argument"):
        net.set_inputs(_dynamic([2]))


def test_compile_and_compile_and_run():
    net = Leaf()
    concrete = net.compile(X)
    assert isinstance(concrete.graph, tf.Graph)
    out = net.compile_and_run(X)  # PYNATIVE_MODE: still compiled
    np.testing.assert_allclose(out.asnumpy(), X.asnumpy() @ net.w.asnumpy() + net.b.asnumpy(), rtol=1e-6)
    assert len(net._compiled) == 1


def test_set_jit_config_enables_xla(caplog):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Leaf()
    net.set_jit_config(ms.JitConfig(jit_level="O2"))
    assert net.jit_config_dict["jit_level"] == "O2"
    out = net(X)
    (fn,) = net._compiled.values()
    assert fn._jit_compile is True
    np.testing.assert_allclose(out.asnumpy(), X.asnumpy() @ net.w.asnumpy(), rtol=1e-5)
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        net.set_jit_config(ms.JitConfig(jit_level="O0"))
    assert "only be set once" in caplog.text and net.jit_config_dict["jit_level"] == "O2"
    with pytest.raises(TypeError, match="set_jit_config.*'O2'"):
        Leaf().set_jit_config("O2")

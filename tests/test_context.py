"""tfspore.context: set_context / get_context and the auto-parallel context."""
import logging

import pytest

import tfspore as ms
from tfspore import context


@pytest.fixture(autouse=True)
def _restore():
    saved = (context._CTX.device_target, context._CTX.device_id, dict(context._CTX.jit_config),
             dict(context._CTX.values))
    yield
    context._CTX.device_target, context._CTX.device_id = saved[0], saved[1]
    context._CTX.jit_config = saved[2]
    context._CTX.values.clear()
    context._CTX.values.update(saved[3])
    ms.reset_auto_parallel_context()


def test_default_mode_is_pynative_like_mindspore_2_10():
    assert context._Context().mode == ms.PYNATIVE_MODE == 1 and ms.GRAPH_MODE == 0
    assert ms.get_context("mode") == ms.PYNATIVE_MODE


def test_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.get_context("mode") == 0
    ms.set_context(mode=True)  # MindSpore accepts a bool (an int)
    assert ms.get_context("mode") == 1
    with pytest.raises(ValueError, match=r"'mode' should be context.GRAPH_MODE \(0\) or context.PYNATIVE_MODE \(1\), "
                                         r"but got 2"):
        ms.set_context(mode=2)
    with pytest.raises(TypeError, match="'mode' must be int, but got str: 'x'"):
        ms.set_context(mode="x")


def test_device_target_and_id():
    ms.set_context(device_target="CPU", device_id=3)
    assert ms.get_context("device_target") == "CPU" and ms.get_context("device_id") == 3
    with pytest.raises(ValueError, match=r"'device_target' is 'Ascend', but tfspore runs on TensorFlow"):
        ms.set_context(device_target="Ascend")
    with pytest.raises(ValueError, match=r"must be one of \['CPU', 'GPU', 'Ascend', 'Davinci'\], but got 'cpu'"):
        ms.set_context(device_target="cpu")
    for bad in (-1, 4096):
        with pytest.raises(ValueError, match=rf"'device_id' must be in range \[0, 4095\], but got {bad}"):
            ms.set_context(device_id=bad)
    with pytest.raises(TypeError, match="'device_id' must be int"):
        ms.set_context(device_id="0")


def test_jit_config():
    ms.set_context(jit_config={"jit_level": "O2"})
    assert ms.get_context("jit_config") == {"jit_level": "O2"} and context._jit_compile_default() is True
    assert ms.get_jit_config() == {"jit_level": "O2"} and ms.get_context("jit_level") == "O2"
    ms.set_context(jit_config={"jit_level": "O1", "jit_compile": False})
    assert context._jit_compile_default() is False
    ms.set_context(jit_config={})
    assert context._jit_compile_default() is None
    with pytest.raises(ValueError, match="value of argument jit_level must be one of"):
        ms.set_context(jit_config={"jit_level": "O3"})
    with pytest.raises(ValueError, match="key of argument 'jit_config' must be one of .*but got 'foo'"):
        ms.set_context(jit_config={"foo": 1})
    with pytest.raises(TypeError, match="'jit_config' must be dict"):
        ms.set_context(jit_config="O2")
    with pytest.raises(ValueError, match="infer_boost"):
        ms.set_context(jit_config={"jit_level": "O2", "infer_boost": "on"})


def test_other_mindspore_keys_are_stored_and_warn_once(caplog):
    context._CTX.warned.discard("max_call_depth")
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        ms.set_context(max_call_depth=5000)
        ms.set_context(max_call_depth=3000)
    assert ms.get_context("max_call_depth") == 3000
    assert sum("max_call_depth" in r.getMessage() and "no effect" in r.getMessage() for r in caplog.records) == 1
    ms.set_context(save_graphs=True, save_graphs_path="/tmp/graphs", runtime_num_threads=4, enable_graph_kernel=True,
                   memory_optimize_level="O1", pynative_synchronize=True, enable_sparse=True)
    assert ms.get_context("save_graphs") == 2 and ms.get_context("save_graphs_path") == "/tmp/graphs"
    assert ms.get_context("memory_optimize_level") == 1 and ms.get_context("deterministic") == "OFF"
    assert ms.get_context("enable_ge") is False and ms.get_context("ascend_config") == {}


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"nope": 1}, ValueError, "the keyword argument nope is not recognized"),
    ({"enable_dump": True}, ValueError, "enable_dump is not recognized"),
    ({"jit_compile": True}, ValueError, "Please set 'jit_compile' through parameter ascend_config"),
    ({"precompile_only": True}, ValueError, "'precompile_only' has been removed"),
    ({"save_graphs": 5}, ValueError, "'save_graphs' should be 0-3"),
    ({"max_call_depth": 0}, ValueError, "'max_call_depth' must be greater than 0, but got 0"),
    ({"deterministic": "X"}, ValueError, r"'deterministic' must be one of \['ON', 'OFF'\], but got 'X'"),
    ({"jit_syntax_level": 7}, ValueError, "'jit_syntax_level' must be one of"),
    ({"memory_optimize_level": "O3"}, ValueError, "'memory_optimize_level' must be one of"),
    ({"exec_order": "x"}, ValueError, "'exec_order' must be one of"),
    ({"gpu_config": 1}, TypeError, "'gpu_config' must be dict"),
])
def test_set_context_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ms.set_context(**kwargs)


def test_get_context_unknown_key():
    for key in ("nope", "enable_sparse"):
        with pytest.raises(ValueError, match=f"the argument {key} is not recognized"):
            ms.get_context(key)


def test_auto_parallel_context():
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("device_num") == 1 and ms.get_auto_parallel_context("gradients_mean") is False
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, device_num=2, gradients_mean=True)
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("device_num") == 2 and ms.get_auto_parallel_context("gradients_mean") is True
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone" and ms.get_auto_parallel_context("device_num") == 1
    assert ms.ParallelMode.MODE_LIST == ["stand_alone", "data_parallel", "hybrid_parallel", "semi_auto_parallel",
                                         "auto_parallel"]


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"parallel_mode": "x"}, ValueError, "'parallel_mode' only supports"),
    ({"device_num": 0}, ValueError, "'device_num' must be a positive integer, but got 0"),
    ({"global_rank": -1}, ValueError, r"'global_rank' must be in \[0, 4095\]"),
    ({"gradients_mean": 1}, TypeError, "'gradients_mean' must be bool"),
    ({"nope": 1}, ValueError, "nope is not recognized"),
])
def test_auto_parallel_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ms.set_auto_parallel_context(**kwargs)


def test_get_auto_parallel_context_unknown():
    with pytest.raises(ValueError, match="nope is not recognized"):
        ms.get_auto_parallel_context("nope")


def test_ps_context():
    ms.set_ps_context(enable_ps=False)
    assert ms.get_ps_context("enable_ps") is False and ms.get_ps_context("missing") is False
    ms.reset_ps_context()

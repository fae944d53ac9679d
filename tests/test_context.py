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
    with pytest.raises(TypeError, match="For 'context.set_context', the 'mode' must be int, but got 'x' of type str"):
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
    context._CTX.warned.discard("check_bprop")
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        ms.set_context(check_bprop=True)
        ms.set_context(check_bprop=False)
    assert ms.get_context("check_bprop") is False
    assert sum("check_bprop" in r.getMessage() and "no effect" in r.getMessage() for r in caplog.records) == 1
    ms.set_context(save_graphs=True, save_graphs_path="/tmp/graphs", enable_graph_kernel=True,
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
    ({"max_call_depth": 0}, ValueError, "'max_call_depth' must be a positive int, but got 0"),
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


def test_zoo_keys_of_mindspore_1x_are_accepted(tmp_path):
    ms.set_context(reserve_class_name_in_scope=False, graph_kernel_flags="--opt_level=2", enable_graph_kernel=True,
                   save_graphs=False, save_graphs_path=str(tmp_path / "graphs"), enable_auto_mixed_precision=True,
                   auto_tune_mode="GA", op_timeout=10)
    assert ms.get_context("reserve_class_name_in_scope") is False
    assert ms.get_context("graph_kernel_flags") == "--opt_level=2" and ms.get_context("enable_graph_kernel") is True
    assert ms.get_context("save_graphs_path") == str(tmp_path / "graphs") and (tmp_path / "graphs").is_dir()
    assert ms.get_context("op_timeout") == 10
    with pytest.raises(ValueError, match="enable_auto_mixed_precision is not recognized"):
        ms.get_context("enable_auto_mixed_precision")


def test_device_specific_keys_are_ignored_on_cpu_as_mindspore_does(caplog):
    ms.set_context(device_target="CPU")
    for key in ("max_device_memory", "mempool_block_size", "variable_memory_max_size", "enable_reduce_precision"):
        context._CTX.warned.discard(key + ".target")
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        ms.set_context(max_device_memory="30GB", mempool_block_size="2GB", variable_memory_max_size="30GB",
                       enable_reduce_precision=False)
    assert ms.get_context("max_device_memory") == 1024.0 and ms.get_context("mempool_block_size") == 1.0
    assert ms.get_context("variable_memory_max_size") == "0" and ms.get_context("enable_reduce_precision") is True
    assert any("'max_device_memory'" in r.getMessage() and "ignore it" in r.getMessage() for r in caplog.records)


def test_max_device_memory_is_checked_on_gpu(monkeypatch):
    monkeypatch.setattr(context._CTX, "device_target", "GPU")
    with pytest.raises(ValueError, match="'max_device_memory' should be in correct format.*but got '30G'"):
        ms.set_context(max_device_memory="30G")
    with pytest.raises(ValueError, match="should not be \"0GB\""):
        ms.set_context(max_device_memory="0GB")
    ms.set_context(max_device_memory="3.5GB")
    assert ms.get_context("max_device_memory") == 3.5


def test_max_call_depth_raises_the_python_recursion_limit():
    import sys
    before = sys.getrecursionlimit()
    try:
        ms.set_context(max_call_depth=before + 500)
        assert sys.getrecursionlimit() == before + 500 and ms.get_context("max_call_depth") == before + 500
        ms.set_context(max_call_depth=10)  # never lowered
        assert sys.getrecursionlimit() == before + 500
    finally:
        sys.setrecursionlimit(before)


def test_thread_keys_go_to_tensorflow(monkeypatch):
    import tensorflow as tf
    calls = []
    monkeypatch.setattr(tf.config.threading, "set_intra_op_parallelism_threads", lambda n: calls.append(("intra", n)))
    monkeypatch.setattr(tf.config.threading, "set_inter_op_parallelism_threads", lambda n: calls.append(("inter", n)))
    ms.set_context(runtime_num_threads=3, inter_op_parallel_num=2)
    assert calls == [("intra", 3), ("inter", 2)]
    assert ms.get_context("runtime_num_threads") == 3 and ms.get_context("inter_op_parallel_num") == 2


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"reserve_class_name_in_scope": 1}, TypeError,
     "'reserve_class_name_in_scope' must be bool, but got 1 of type int"),
    ({"enable_graph_kernel": 1}, TypeError, "'enable_graph_kernel' must be bool, but got 1 of type int"),
    ({"graph_kernel_flags": 1}, TypeError, "'graph_kernel_flags' must be str"),
    ({"save_graphs_path": 3}, TypeError, "'save_graphs_path' must be str"),
    ({"max_device_memory": 3}, TypeError, "'max_device_memory' must be str"),
    ({"op_timeout": -1}, ValueError, "'op_timeout' must be bigger than or equal to 0, but got -1"),
    ({"runtime_num_threads": -1}, ValueError, "'runtime_num_threads' must be bigger than or equal to 0"),
    # the type check runs before the other checks, as in MindSpore
    ({"nope": 1, "check_bprop": 1}, TypeError, "'check_bprop' must be bool"),
])
def test_set_context_type_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ms.set_context(**kwargs)


def test_auto_parallel_zoo_keys():
    ms.set_auto_parallel_context(all_reduce_fusion_config=[85, 160], parameter_broadcast=True, full_batch=True,
                                 strategy_ckpt_save_file="./s.ckpt", search_mode="sharding_propagation",
                                 enable_alltoall=True, pipeline_stages=2, loss_repeated_mean=False)
    assert ms.get_auto_parallel_context("all_reduce_fusion_config") == [85, 160]
    assert ms.get_auto_parallel_context("auto_parallel_search_mode") == "sharding_propagation"
    assert ms.get_auto_parallel_context("pipeline_stages") == 2 and ms.get_auto_parallel_context("full_batch")
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 32}})
    fusion = ms.get_auto_parallel_context("comm_fusion")
    assert fusion["allreduce"] == {"mode": "size", "config": 32} and fusion["openstate"] is True
    assert context._auto_parallel_is_set("pipeline_stages") and not context._auto_parallel_is_set("device_num")
    ms.reset_auto_parallel_context()
    assert not context._auto_parallel_is_set("pipeline_stages")


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"all_reduce_fusion_config": 5}, TypeError, "'all_reduce_fusion_config' must be list, but got int: 5"),
    ({"all_reduce_fusion_config": [20, 10]}, ValueError, r"sorted in ascending order, but got \[20, 10\]"),
    ({"pipeline_stages": 0}, ValueError, "'pipeline_stages' should be greater or equal 1, but got 0"),
    ({"search_mode": "bad"}, ValueError, "'search_mode' only supports .*but got 'bad'"),
    ({"strategy_ckpt_save_file": 3}, TypeError, "'strategy_ckpt_save_file' must be str"),
    ({"mirror_mean": True}, ValueError, "mirror_mean is not recognized"),
])
def test_auto_parallel_zoo_key_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ms.set_auto_parallel_context(**kwargs)

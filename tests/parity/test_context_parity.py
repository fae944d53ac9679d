"""set_context / set_auto_parallel_context keys the model zoo passes: accepted or refused as MindSpore 2.10 does
(same exception type), and read back with the same value."""
import pytest

import tfspore as tfs
from tfspore import context as tfs_context

ms = pytest.importorskip("mindspore")

# keys of MindSpore 1.x-2.2 the zoo passes, valid and invalid values
CONTEXT_CASES = [
    {"reserve_class_name_in_scope": False}, {"reserve_class_name_in_scope": 1}, {"enable_graph_kernel": True},
    {"enable_graph_kernel": 1}, {"graph_kernel_flags": "--opt_level=2"}, {"graph_kernel_flags": 1},
    {"max_call_depth": 10000}, {"max_call_depth": -1}, {"max_call_depth": "x"}, {"mempool_block_size": "2GB"},
    {"mempool_block_size": 3}, {"max_device_memory": "30GB"}, {"max_device_memory": 3},
    {"enable_reduce_precision": True}, {"enable_reduce_precision": 1}, {"variable_memory_max_size": "30GB"},
    {"variable_memory_max_size": 5}, {"save_graphs": True}, {"save_graphs": False}, {"save_graphs": 1},
    {"save_graphs": 5}, {"save_graphs": "x"}, {"save_graphs_path": 3}, {"runtime_num_threads": -1},
    {"device_id": 0}, {"device_id": "0"}, {"op_timeout": 100}, {"op_timeout": -1}, {"check_bprop": True},
    {"check_bprop": 1}, {"print_file_path": "./p"}, {"precompile_only": True}, {"bogus_key": 1},
    {"jit_syntax_level": 5}, {"enable_compile_cache": 1}, {"mode": 2}, {"device_target": "cpu"},
    {"disable_format_transform": True}, {"pynative_synchronize": 1},
]
DEPRECATED_UNREADABLE = [{"enable_auto_mixed_precision": True}, {"auto_tune_mode": "GA"}, {"enable_sparse": True}]
AUTO_PARALLEL_CASES = [
    {"all_reduce_fusion_config": [10, 20]}, {"all_reduce_fusion_config": 5}, {"all_reduce_fusion_config": [20, 10]},
    {"parameter_broadcast": True}, {"parameter_broadcast": 1}, {"full_batch": True}, {"full_batch": "x"},
    {"strategy_ckpt_save_file": "./s.ckpt"}, {"strategy_ckpt_save_file": 3}, {"strategy_ckpt_load_file": "./x.ckpt"},
    {"auto_parallel_search_mode": "dynamic_programming"}, {"search_mode": "sharding_propagation"},
    {"search_mode": "bad"}, {"enable_alltoall": True}, {"pipeline_stages": 2}, {"pipeline_stages": 0},
    {"loss_repeated_mean": False}, {"enable_parallel_optimizer": True}, {"global_rank": 1}, {"device_num": 8},
    {"device_num": 0}, {"gradients_mean": True}, {"gradients_mean": 1}, {"parallel_mode": "bad"},
    {"parallel_mode": "data_parallel"}, {"mirror_mean": True}, {"gradient_fp32_sync": False},
    {"comm_fusion": {"allreduce": {"mode": "auto", "config": None}}},
]


def _outcome(fw, setter, getter, kwargs):
    try:
        setter(**kwargs)
    except Exception as exc:  # noqa: BLE001  (the exception type is what is compared)
        return type(exc).__name__
    key = next(iter(kwargs))
    try:
        return ("ok", getter(key))
    except ValueError:
        return ("ok", "unreadable")


@pytest.fixture
def restore_both(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # every readable key a case may set, so that no case leaves MindSpore's context changed for later tests
    ms_saved = {}
    for case in CONTEXT_CASES:
        key = next(iter(case))
        try:
            ms_saved[key] = ms.get_context(key)
        except Exception:  # noqa: BLE001 - keys MindSpore cannot read back are not restored
            pass
    tfs_saved = (tfs_context._CTX.device_target, dict(tfs_context._CTX.values), tfs_context._CTX.device_id)
    tfs_context._CTX.device_target = "CPU"
    yield
    for key, value in ms_saved.items():
        if ms.get_context(key) != value:
            ms.set_context(**{key: value})
    ms.reset_auto_parallel_context()
    tfs_context._CTX.device_target, tfs_context._CTX.device_id = tfs_saved[0], tfs_saved[2]
    tfs_context._CTX.values.clear()
    tfs_context._CTX.values.update(tfs_saved[1])
    tfs.reset_auto_parallel_context()


@pytest.mark.parametrize("kwargs", CONTEXT_CASES + DEPRECATED_UNREADABLE, ids=str)
def test_set_context_key_matches_mindspore(kwargs, restore_both):
    import sys
    limit = sys.getrecursionlimit()
    try:
        want = _outcome(ms, ms.set_context, ms.get_context, kwargs)
        got = _outcome(tfs, tfs.set_context, tfs.get_context, kwargs)
    finally:
        sys.setrecursionlimit(limit)
    assert got == want


@pytest.mark.parametrize("kwargs", AUTO_PARALLEL_CASES, ids=str)
def test_set_auto_parallel_context_key_matches_mindspore(kwargs, restore_both):
    want = _outcome(ms, ms.set_auto_parallel_context, ms.get_auto_parallel_context, kwargs)
    got = _outcome(tfs, tfs.set_auto_parallel_context, tfs.get_auto_parallel_context, kwargs)
    assert got == want


def test_algo_parameters_match_mindspore():
    from mindspore.parallel import get_algo_parameters, reset_algo_parameters, set_algo_parameters
    keys = ("fully_use_devices", "elementwise_op_strategy_follow", "tensor_slice_align_enable",
            "tensor_slice_align_size", "enable_algo_approxi", "algo_approxi_epsilon")
    try:
        assert [tfs.get_algo_parameters(k) for k in keys] == [get_algo_parameters(k) for k in keys]
        for kwargs in ({"elementwise_op_strategy_follow": True}, {"fully_use_devices": False},
                       {"algo_approxi_epsilon": 0.3}, {"tensor_slice_align_size": 8}):
            set_algo_parameters(**kwargs)
            tfs.set_algo_parameters(**kwargs)
            key = next(iter(kwargs))
            assert tfs.get_algo_parameters(key) == get_algo_parameters(key)
        for kwargs in ({"bad": 1}, {"fully_use_devices": 1}, {"tensor_slice_align_size": 0},
                       {"algo_approxi_epsilon": 2.0}):
            with pytest.raises(Exception) as want:
                set_algo_parameters(**kwargs)
            with pytest.raises(Exception) as got:
                tfs.set_algo_parameters(**kwargs)
            assert got.type is want.type, kwargs
    finally:
        reset_algo_parameters()
        tfs.reset_algo_parameters()


def test_auto_parallel_context_object_matches_mindspore(restore_both):
    from mindspore.parallel._auto_parallel_context import auto_parallel_context as ms_apc
    from tfspore.parallel._auto_parallel_context import auto_parallel_context as tfs_apc
    for fw, apc in ((ms, ms_apc()), (tfs, tfs_apc())):
        fw.reset_auto_parallel_context()
    for apc in (ms_apc(), tfs_apc()):
        assert apc.get_device_num_is_set() is False and apc.get_parallel_mode() == "stand_alone"
        assert apc.get_pipeline_stages() == 1
    for fw in (ms, tfs):
        fw.set_auto_parallel_context(device_num=4)
    for apc in (ms_apc(), tfs_apc()):
        assert apc.get_device_num_is_set() is True and apc.get_device_num() == 4
        apc.set_all_reduce_fusion_split_indices([10, 20])
        assert apc.get_all_reduce_fusion_split_indices() == [10, 20]

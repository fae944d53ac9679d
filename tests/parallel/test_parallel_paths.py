"""mindspore.parallel names the zoo imports: set_algo_parameters and auto_parallel_context()."""
import pytest

import tfspore as ms
from tfspore.parallel import get_algo_parameters, reset_algo_parameters, set_algo_parameters
from tfspore.parallel._auto_parallel_context import auto_parallel_context


@pytest.fixture(autouse=True)
def _reset():
    yield
    reset_algo_parameters()
    ms.reset_auto_parallel_context()


def test_set_algo_parameters():
    assert get_algo_parameters("elementwise_op_strategy_follow") is False
    set_algo_parameters(elementwise_op_strategy_follow=True, fully_use_devices=False)
    assert get_algo_parameters("elementwise_op_strategy_follow") is True
    set_algo_parameters(tensor_slice_align_size=8, algo_approxi_epsilon=0.5)
    assert get_algo_parameters("tensor_slice_align_size") == 8 and get_algo_parameters("algo_approxi_epsilon") == 0.5
    reset_algo_parameters()
    assert get_algo_parameters("tensor_slice_align_size") == 16


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"bad": 1}, ValueError, "Set context keyword bad is not recognized!"),
    ({"fully_use_devices": 1}, TypeError, "'fully_use_devices' must be <class 'bool'>"),
    ({"tensor_slice_align_size": True}, TypeError, "'tensor_slice_align_size' must be <class 'int'>"),
    ({"tensor_slice_align_size": 2000}, ValueError, r"Align_size must be in \[1, 1024\], but got 2000"),
    ({"algo_approxi_epsilon": 0.0}, RuntimeError, r"'epsilon' must be in \(0, 1\]"),
])
def test_set_algo_parameters_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        set_algo_parameters(**kwargs)


def test_auto_parallel_context_object():
    apc = auto_parallel_context()
    assert apc.get_device_num_is_set() is False and apc.get_parallel_mode() == "stand_alone"
    assert apc.get_pipeline_stages() == 1 and apc.get_gradients_mean() is False
    ms.set_auto_parallel_context(device_num=4, gradients_mean=True)
    assert apc.get_device_num_is_set() is True and apc.get_device_num() == 4 and apc.get_gradients_mean() is True
    apc.set_all_reduce_fusion_split_indices([85, 160])
    assert apc.get_all_reduce_fusion_split_indices() == [85, 160]
    assert ms.get_auto_parallel_context("all_reduce_fusion_config") == [85, 160]
    apc.set_full_batch(True)
    assert ms.get_auto_parallel_context("full_batch") is True and apc.get_full_batch_is_set()
    with pytest.raises(ValueError, match="sorted in ascending order"):
        apc.set_all_reduce_fusion_split_indices([3, 1])
    with pytest.raises(ValueError, match="nope is not recognized"):
        apc.get_nope()
    apc.reset()
    assert apc.get_device_num_is_set() is False and apc.get_all_reduce_fusion_split_indices() == []


def test_import_paths():
    ms.alias_mindspore()
    try:
        from mindspore.parallel import set_algo_parameters as s1
        from mindspore.parallel._auto_parallel_context import auto_parallel_context as a1
        from mindspore.parallel._utils import _get_device_num, _get_gradients_mean, _get_parallel_mode  # noqa: F401
        import mindspore
    finally:
        ms.unalias_mindspore()
    assert s1 is set_algo_parameters and a1 is auto_parallel_context and mindspore.set_algo_parameters is s1

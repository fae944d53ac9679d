"""MindSpore 1.x import paths the model zoo still uses resolve to the same tfspore objects."""
import tfspore as ms
from tfspore import nn


def _import(statement):
    ms.alias_mindspore()
    try:
        scope = {}
        exec(statement, scope)  # noqa: S102  (the import statements are fixed strings)
        return scope
    finally:
        ms.unalias_mindspore()


def test_parallel_mode_paths():
    scope = _import("from mindspore.train.model import ParallelMode\nfrom mindspore.context import ParallelMode as P2")
    assert scope["ParallelMode"] is ms.ParallelMode is scope["P2"]


def test_nn_metrics_metric():
    scope = _import("from mindspore.nn.metrics.metric import Metric, rearrange_inputs\n"
                    "from mindspore.nn.metrics import Accuracy")
    assert scope["Metric"] is nn.Metric and scope["rearrange_inputs"] is ms.train.rearrange_inputs
    assert scope["Accuracy"] is nn.Accuracy


def test_cell_attr_register_records_the_arguments():
    scope = _import("from mindspore._extends import cell_attr_register")
    register = scope["cell_attr_register"]

    class Block(nn.Cell):
        @register
        def __init__(self, width, depth=2):
            super().__init__()
            self.width = width

    class Named(nn.Cell):
        @register(attrs=["width"])
        def __init__(self, width):
            super().__init__()
            self.width = width

    assert Block(8).cell_init_args == "Blockdict_values([8])"
    assert Block(8, depth=3).cell_init_args == "Blockdict_values([8, 3])"
    assert Named(4).cell_init_args == "Named[4]"

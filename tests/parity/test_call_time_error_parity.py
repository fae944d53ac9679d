"""Call-time shape, dtype and index errors: tfspore raises the exception type real MindSpore 2.10 raises.

MindSpore runs these cases in GRAPH_MODE (its PYNATIVE kernels fail under numpy 2 for some of
them); tfspore in both modes.
"""
import numpy as np
import pytest

import mindspore
import tfspore

_CASES = {
    "dense_features": (lambda m: m.nn.Dense(4, 3), [((2, 5), np.float32)]),
    "dense_int_input": (lambda m: m.nn.Dense(4, 3), [((2, 4), np.int32)]),
    "matmul_features": (lambda m: m.ops.MatMul(), [((2, 5), np.float32), ((4, 3), np.float32)]),
    "batchnorm_channels": (lambda m: m.nn.BatchNorm2d(3), [((2, 4, 2, 2), np.float32)]),
    "conv2d_channels": (lambda m: m.nn.Conv2d(3, 4, 3), [((1, 4, 8, 8), np.float32)]),
    "conv2d_small_input": (lambda m: m.nn.Conv2d(3, 4, 5, pad_mode="valid"), [((1, 3, 3, 3), np.float32)]),
    "maxpool_small_input": (lambda m: m.nn.MaxPool2d(3, 1), [((1, 1, 2, 2), np.float32)]),
    "avgpool_small_input": (lambda m: m.nn.AvgPool2d(3, 1), [((1, 1, 2, 2), np.float32)]),
    "add_broadcast": (lambda m: m.ops.Add(), [((2, 3), np.float32), ((4, 3), np.float32)]),
    "sparse_ce_float_labels": (lambda m: m.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                               [((2, 3), np.float32), ((2,), np.float32)]),
    "embedding_index": (lambda m: m.nn.Embedding(10, 4), [np.array([[1, 12]], np.int32)]),
}


def _run(fw, make, specs, mode):
    class Net(fw.nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = make(fw)

        def construct(self, *args):
            return self.op(*args)

    args = [fw.Tensor(s if isinstance(s, np.ndarray) else np.ones(s[0], s[1])) for s in specs]
    fw.set_context(mode=mode)
    try:
        Net()(*args)
    except Exception as e:  # pylint: disable=broad-except
        return type(e)
    finally:
        fw.set_context(mode=fw.PYNATIVE_MODE)
    return None


@pytest.mark.parametrize("name", sorted(_CASES))
def test_exception_type_matches_mindspore(name):
    make, specs = _CASES[name]
    expected = _run(mindspore, make, specs, mindspore.GRAPH_MODE)
    assert expected in (ValueError, TypeError, RuntimeError), expected
    for mode in (tfspore.PYNATIVE_MODE, tfspore.GRAPH_MODE):
        assert _run(tfspore, make, specs, mode) is expected, (name, mode)

"""mindspore.onnx.export: names, dynamic axes and refusals, run in onnxruntime."""
import os

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn

ort = pytest.importorskip("onnxruntime", reason="the onnx extra: pip install 'tfspore[onnx]'")


class _TwoHeads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.relu = nn.ReLU()

    def construct(self, x, y):
        h = self.fc(x) + y
        return self.relu(h), h


def test_input_output_names_and_dynamic_axes(tmp_path):
    net = _TwoHeads()
    net.set_train(True)
    x, y = np.ones((2, 4), np.float32), np.zeros((2, 3), np.float32)
    ms.onnx.export(net, ms.Tensor(x), ms.Tensor(y), file_name=str(tmp_path / "two"), input_names=["x", "y"],
                   output_names=["relu", "raw"], dynamic_axes={"x": {0: "batch"}, "y": {-2: "batch"}})
    assert os.listdir(tmp_path) == ["two.onnx"]
    assert net.training
    session = ort.InferenceSession(str(tmp_path / "two.onnx"), providers=["CPUExecutionProvider"])
    assert [(i.name, i.shape) for i in session.get_inputs()] == [("x", ["batch", 4]), ("y", ["batch", 3])]
    assert [o.name for o in session.get_outputs()] == ["relu", "raw"]
    rng = np.random.RandomState(0)
    x5, y5 = rng.standard_normal((5, 4)).astype(np.float32), rng.standard_normal((5, 3)).astype(np.float32)
    got = session.run(None, {"x": x5, "y": y5})
    net.set_train(False)
    want = [o.asnumpy() for o in net(ms.Tensor(x5), ms.Tensor(y5))]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def test_argument_errors(tmp_path):
    net, x = nn.Dense(4, 3), ms.Tensor(np.ones((1, 4), np.float32))
    path = str(tmp_path / "d")
    with pytest.raises(ValueError, match="For 'onnx.export', the 'net' must be"):
        ms.onnx.export(lambda v: v, x, file_name=path)
    with pytest.raises(ValueError, match="'input_names' must be list"):
        ms.onnx.export(net, x, file_name=path, input_names="x")
    with pytest.raises(ValueError, match="'input_names' must be a list of 1 names"):
        ms.onnx.export(net, x, file_name=path, input_names=["a", "b"])
    with pytest.raises(ValueError, match="'dynamic_axes' must be keyed by input names"):
        ms.onnx.export(net, x, file_name=path, dynamic_axes={"z": {0: "n"}})
    with pytest.raises(ValueError, match=r"dynamic_axes\['input_0'\] must be an axis of the input's 2 dimensions"):
        ms.onnx.export(net, x, file_name=path, dynamic_axes={"input_0": {2: "n"}})
    with pytest.raises(NotImplementedError, match="export_params=False"):
        ms.onnx.export(net, x, file_name=path, export_params=False)
    assert os.listdir(tmp_path) == []

"""`tfspore convert MODEL.mindir --to savedmodel|tflite|onnx OUTPUT`: the converted models give the
network's outputs; bad arguments end with one line and status 2."""
import os

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import nn
from tfspore.__main__ import main


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.fc(x))


@pytest.fixture(name="mindir")
def _mindir(tmp_path):
    """A MindIR file written by tfspore's export, the network and an input."""
    net = _Net()
    net.set_train(False)
    x = np.random.RandomState(0).standard_normal((2, 4)).astype(np.float32)
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "net"), file_format="MINDIR")
    return str(tmp_path / "net.mindir"), net(ms.Tensor(x)).asnumpy(), x


def test_convert_to_savedmodel_tflite_and_onnx(tmp_path, mindir, capsys):
    path, expected, x = mindir
    assert main(["convert", path, "--to", "savedmodel", str(tmp_path / "sm")]) == 0
    assert main(["convert", path, "--to", "tflite", str(tmp_path / "model")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"wrote tflite {tmp_path / 'model.tflite'}"
    serve = tf.saved_model.load(str(tmp_path / "sm")).signatures["serving_default"]
    np.testing.assert_allclose(serve(input_0=tf.constant(x))["output_0"].numpy(), expected, rtol=1e-6, atol=1e-6)
    runner = tf.lite.Interpreter(model_path=str(tmp_path / "model.tflite")).get_signature_runner("serving_default")
    np.testing.assert_allclose(runner(input_0=x)["output_0"], expected, rtol=1e-6, atol=1e-6)
    ort = pytest.importorskip("onnxruntime", reason="the onnx extra: pip install 'tfspore[onnx]'")
    assert main(["convert", path, "--to", "onnx", str(tmp_path / "model.onnx")]) == 0
    session = ort.InferenceSession(str(tmp_path / "model.onnx"), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(session.run(None, {"input_0": x})[0], expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("argv, message", [
    (["{tmp}/none.mindir", "--to", "savedmodel", "{tmp}/o"], "the argument 'model' must be an existing .mindir file"),
    (["{tmp}/junk.mindir", "--to", "tflite", "{tmp}/o"], "cannot convert"),
    (["{mindir}", "--to", "savedmodel", "{tmp}/no/such/dir/o"], "the parent directory of the argument 'output'"),
    (["{mindir}", "--to", "pb", "{tmp}/o"], "argument --to: invalid choice: 'pb'"),
    (["{mindir}", "{tmp}/o"], "the following arguments are required: --to"),
    (["{mindir}", "--to", "onnx", "{tmp}/o", "--dec_key", "zz"], "the argument 'dec_key' must be a hex string"),
])
def test_bad_arguments_give_one_line_and_status_2(tmp_path, mindir, capsys, argv, message):
    (tmp_path / "junk.mindir").write_bytes(b"not a model")
    args = [a.format(tmp=tmp_path, mindir=mindir[0]) for a in argv]
    assert main(["convert", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert message in err and "Traceback" not in err
    assert not os.path.exists(tmp_path / "o")


def test_help_text(capsys):
    assert main(["convert", "--help"]) == 0
    out = capsys.readouterr().out
    assert "tfspore convert [-h] --to {savedmodel,tflite,onnx}" in out and "--dec_key" in out

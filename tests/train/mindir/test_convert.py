"""MindIR to SavedModel / TFLite / ONNX without the network's code: outputs equal the MindIR graph's."""
import os

import numpy as np
import pytest
import tensorflow as tf

from tfspore.train.mindir import mindir_to_onnx, mindir_to_savedmodel, mindir_to_tflite
from tests.train.mindir import _mindir_files as files

X = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)


@pytest.fixture
def dense_file(tmp_path):
    return files.write(tmp_path / "dense.mindir", files.dense_model())


def test_to_savedmodel(dense_file, tmp_path):
    out = mindir_to_savedmodel(dense_file, str(tmp_path / "sm"))
    assert out == os.path.abspath(str(tmp_path / "sm"))
    serve = tf.saved_model.load(out).signatures["serving_default"]
    np.testing.assert_allclose(serve(input_0=tf.constant(X))["output_0"].numpy(), files.expected(X), rtol=1e-6)
    again = mindir_to_savedmodel(dense_file, out)  # an existing SavedModel is replaced
    assert os.path.isdir(again)


def test_to_tflite(dense_file, tmp_path):
    out = mindir_to_tflite(dense_file, str(tmp_path / "dense"))
    assert out.endswith("dense.tflite") and os.path.isfile(out)
    interp = tf.lite.Interpreter(model_path=out)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], X)
    interp.invoke()
    np.testing.assert_allclose(interp.get_tensor(interp.get_output_details()[0]["index"]), files.expected(X),
                               rtol=1e-6)


def test_to_onnx(dense_file, tmp_path):
    ort = pytest.importorskip("onnxruntime", reason="the onnx extra (tf2onnx, onnxruntime) is not installed")
    pytest.importorskip("tf2onnx", reason="the onnx extra (tf2onnx, onnxruntime) is not installed")
    out = mindir_to_onnx(dense_file, str(tmp_path / "dense"))
    assert out.endswith("dense.onnx")
    sess = ort.InferenceSession(out, providers=["CPUExecutionProvider"])
    got = sess.run(None, {sess.get_inputs()[0].name: X})[0]
    np.testing.assert_allclose(got, files.expected(X), rtol=1e-6)


def test_bad_mindir_path(tmp_path):
    with pytest.raises(ValueError, match="For 'mindir_to_savedmodel', the argument 'file_name'.*does not exist"):
        mindir_to_savedmodel(str(tmp_path / "missing.mindir"), str(tmp_path / "sm"))
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        mindir_to_tflite(str(tmp_path / "model.onnx"), str(tmp_path / "m"))

"""`tfspore export`: a network's Python file plus its checkpoint to SavedModel, TFLite and ONNX,
with one-line errors (status 2) for a wrong input shape or a checkpoint that does not fit."""
import os

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore.__main__ import main
from tfspore.cli import export
from tfspore.cli.common import ToolError
from tfspore.compat import is_mindspore_aliased
from tfspore.train.serialization import save_checkpoint

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LENET = os.path.join(ROOT, "examples", "models", "lenet.py") + ":LeNet5"


def _trained_lenet(tmp_path, num_class=10, fmt="ckpt"):
    """A LeNet5 with random weights, saved as a checkpoint; returns (net, path)."""
    net = export.load_network_factory(LENET)(num_class=num_class)
    rng = np.random.RandomState(0)
    for p in net.get_parameters():
        p.set_data(ms.Tensor((0.1 * rng.standard_normal(p.shape)).astype(np.float32)))
    path = str(tmp_path / f"lenet{num_class}.{fmt}")
    save_checkpoint(net, path, format=fmt)
    return net, path


def test_savedmodel_tflite_and_onnx_from_a_safetensors_checkpoint(tmp_path, capsys):
    net, ckpt = _trained_lenet(tmp_path, fmt="safetensors")
    assert not is_mindspore_aliased()  # the network file was imported under the alias, then it was undone
    x = np.random.RandomState(1).standard_normal((3, 1, 32, 32)).astype(np.float32)
    net.set_train(False)
    expected = net(ms.Tensor(x)).asnumpy()
    common = ["export", "--network", LENET, "--network_kwargs", '{"num_class": 10}', "--ckpt", ckpt,
              "--input", "1,1,32,32"]
    assert main([*common, "--output", str(tmp_path / "sm")]) == 0
    assert "serving_default -> {'output_0': [None, 10]}" in capsys.readouterr().out
    serve = tf.saved_model.load(str(tmp_path / "sm")).signatures["serving_default"]
    np.testing.assert_allclose(serve(input_0=tf.constant(x))["output_0"].numpy(), expected, rtol=1e-5, atol=1e-5)
    assert main([*common, "--fixed_batch", "--format", "tflite", "--output", str(tmp_path / "lenet")]) == 0
    runner = tf.lite.Interpreter(model_path=str(tmp_path / "lenet.tflite")).get_signature_runner("serving_default")
    np.testing.assert_allclose(runner(input_0=x[:1])["output_0"], expected[:1], rtol=1e-5, atol=1e-5)
    ort = pytest.importorskip("onnxruntime", reason="the onnx extra: pip install 'tfspore[onnx]'")
    assert main([*common, "--format", "onnx", "--output", str(tmp_path / "lenet.onnx")]) == 0
    session = ort.InferenceSession(str(tmp_path / "lenet.onnx"), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(session.run(None, {"input_0": x})[0], expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("extra, message", [
    (["--input", "1,3,32,32"], "the network does not accept inputs of the argument 'input' ([-1, 3, 32, 32]:float32)"),
    (["--input", "1,1,32,32", "--ckpt", "{ckpt5}"],
     "does not match the network: 'fc3.weight' has shape (5, 84) in it, the network's has (10, 84)"),
    (["--input", "1,1,32,32", "--ckpt", "{partial}"], "lacks the parameters"),
    (["--input", "1,1,32,32", "--network_kwargs", '{{"classes": 3}}'], "with the argument 'network_kwargs'"),
    (["--input", "1,x"], "the argument 'input' must be comma-separated ints"),
    (["--input", "1,1,32,32", "--ckpt", "{tmp}/none.ckpt"], "the argument 'ckpt' must be an existing .ckpt file"),
    (["--input", "1,1,32,32", "--format", "pb"], "argument --format: invalid choice: 'pb'"),
])
def test_bad_inputs_give_one_line_and_status_2(tmp_path, capsys, extra, message):
    _, ckpt5 = _trained_lenet(tmp_path, num_class=5)
    partial = str(tmp_path / "partial.ckpt")
    save_checkpoint({"conv1.weight": np.zeros((6, 1, 5, 5), np.float32)}, partial)
    args = [a.format(ckpt5=ckpt5, partial=partial, tmp=tmp_path) for a in extra]
    assert main(["export", "--network", LENET, *args, "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert message in err and "Traceback" not in err
    assert not os.path.exists(tmp_path / "out")


def test_network_argument_errors():
    with pytest.raises(ToolError, match="argument 'network' must be 'module:Name'"):
        export.load_network_factory("no_colon")
    with pytest.raises(ToolError, match="has no attribute 'Nope'"):
        export.load_network_factory(LENET.replace("LeNet5", "Nope"))
    with pytest.raises(ToolError, match="cannot import the module of the argument 'network'"):
        export.load_network_factory("no_such_package_xyz.models:Net")


def test_help_text(capsys):
    assert main(["export", "--help"]) == 0
    out = capsys.readouterr().out
    assert "tfspore export [-h]" in out and "--format {savedmodel,tflite,onnx,mindir}" in out


def test_mindir_export_then_convert_back_to_a_savedmodel(tmp_path):
    net, ckpt = _trained_lenet(tmp_path)
    x = np.random.RandomState(2).standard_normal((2, 1, 32, 32)).astype(np.float32)
    net.set_train(False)
    expected = net(ms.Tensor(x)).asnumpy()
    assert main(["export", "--network", LENET, "--ckpt", ckpt, "--input", "2,1,32,32", "--format", "mindir",
                 "--output", str(tmp_path / "lenet")]) == 0
    assert main(["convert", str(tmp_path / "lenet.mindir"), "--to", "savedmodel", str(tmp_path / "sm")]) == 0
    serve = tf.saved_model.load(str(tmp_path / "sm")).signatures["serving_default"]
    np.testing.assert_allclose(serve(input_0=tf.constant(x))["output_0"].numpy(), expected, rtol=1e-5, atol=1e-5)


def test_a_failing_write_gives_one_line_and_keeps_the_existing_output(tmp_path, capsys):
    (tmp_path / "taken").write_text("a file, not a SavedModel directory")
    assert main(["export", "--network", LENET, "--input", "1,1,32,32", "--output", str(tmp_path / "taken")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "writing the network as savedmodel" in err, err
    assert (tmp_path / "taken").read_text() == "a file, not a SavedModel directory"
    assert os.listdir(tmp_path) == ["taken"]

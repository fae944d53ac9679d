"""export(file_format='ONNX' | 'SAVEDMODEL' | 'TFLITE'): the files run to tfspore's outputs in
onnxruntime, in plain TensorFlow (a process that never imports tfspore) and in tf.lite's interpreter."""
import contextlib
import importlib.util
import itertools
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import nn
from tfspore.compat import alias_mindspore, unalias_mindspore
from tfspore.train import tf_export

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "examples", "models")
BERT_CFG = dict(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                max_position_embeddings=16)
_count = itertools.count()


@contextlib.contextmanager
def _aliased():
    alias_mindspore()
    try:
        yield
    finally:
        unalias_mindspore()


def _module(file):
    name = f"_tf_export_{file}_{next(_count)}"
    spec = importlib.util.spec_from_file_location(name, os.path.join(MODELS, file + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _build(name):
    """One of the example networks, with random (seeded) weights and BatchNorm statistics, and its inputs."""
    rng = np.random.RandomState(0)
    with _aliased():
        if name == "lenet":
            net = _module("lenet").LeNet5(num_class=10, num_channel=1)
            inputs = [rng.standard_normal((2, 1, 32, 32)).astype(np.float32)]
        elif name == "resnet18":
            net = _module("resnet").resnet18(class_num=10)
            inputs = [rng.standard_normal((2, 3, 32, 32)).astype(np.float32)]
        elif name == "mobilenetv2":
            mod = _module("mobilenetv2")
            net = mod.mobilenet_v2(mod.MobileNetV2Backbone(), mod.MobileNetV2Head(input_channel=1280, num_classes=10))
            inputs = [rng.standard_normal((2, 3, 32, 32)).astype(np.float32)]
        else:
            mod = _module("bert")
            net = mod.BertModel(mod.BertConfig(**BERT_CFG))
            ids = rng.randint(0, BERT_CFG["vocab_size"], (2, 8)).astype(np.int32)
            types = np.zeros((2, 8), np.int32)
            types[:, 4:] = 1
            mask = np.ones((2, 8), np.int32)
            mask[1, -3:] = 0
            inputs = [ids, types, mask]
    for p in net.get_parameters():
        if "variance" in p.name:
            p.set_data(ms.Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
        elif p.dtype == ms.float32:
            p.set_data(ms.Tensor((0.1 * rng.standard_normal(p.shape)).astype(np.float32)))
    return net, inputs


def _expected(net, inputs):
    net.set_train(False)
    out = net(*[ms.Tensor(x) for x in inputs])
    net.set_train(True)
    return [o.asnumpy() for o in (out if isinstance(out, (tuple, list)) else (out,))]


def _assert_close(actual, expected):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-4 * float(np.max(np.abs(e))))


# tf2onnx takes about 10 s of CPU for each of ResNet-18's and MobileNetV2's graphs: those two run with -m slow.
@pytest.mark.parametrize("name", ["lenet", pytest.param("resnet18", marks=pytest.mark.slow),
                                  pytest.param("mobilenetv2", marks=pytest.mark.slow), "bert"])
def test_onnx_runs_in_onnxruntime_to_tfspore_outputs(name, tmp_path):
    ort = pytest.importorskip("onnxruntime", reason="the onnx extra: pip install 'tfspore[onnx]'")
    net, inputs = _build(name)
    expected = _expected(net, inputs)
    ms.export(net, *[ms.Tensor(x) for x in inputs], file_name=str(tmp_path / name), file_format="ONNX")
    path = str(tmp_path / f"{name}.onnx")
    assert net.training  # MindSpore's export restores the training mode
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    assert [i.name for i in session.get_inputs()] == [f"input_{i}" for i in range(len(inputs))]
    got = session.run(None, {f"input_{i}": x for i, x in enumerate(inputs)})
    assert [o.name for o in session.get_outputs()] == [f"output_{i}" for i in range(len(expected))]
    _assert_close(got, expected)


def test_graph_mode_network_exports_to_onnx_and_savedmodel(tmp_path):
    ort = pytest.importorskip("onnxruntime", reason="the onnx extra: pip install 'tfspore[onnx]'")
    ms.set_context(mode=ms.GRAPH_MODE)
    net, inputs = _build("lenet")
    expected = _expected(net, inputs)
    x = ms.Tensor(inputs[0])
    ms.export(net, x, file_name=str(tmp_path / "g"), file_format="ONNX")
    ms.export(net, x, file_name=str(tmp_path / "g_sm"), file_format="SAVEDMODEL")
    session = ort.InferenceSession(str(tmp_path / "g.onnx"), providers=["CPUExecutionProvider"])
    _assert_close(session.run(None, {"input_0": inputs[0]}), expected)
    serve = tf.saved_model.load(str(tmp_path / "g_sm")).signatures["serving_default"]
    _assert_close([serve(input_0=tf.constant(inputs[0]))["output_0"].numpy()], expected)


def test_onnx_file_naming_refusals_and_custom_encryption(tmp_path):
    ort = pytest.importorskip("onnxruntime", reason="the onnx extra: pip install 'tfspore[onnx]'")
    net, x = nn.Dense(4, 2), ms.Tensor(np.ones((1, 4), np.float32))
    ms.export(net, x, file_name=str(tmp_path / "d.onnx"), file_format="ONNX")
    assert os.listdir(tmp_path) == ["d.onnx"]  # not d.onnx.onnx, no temporary left
    with pytest.raises(ValueError, match="not support dynamic shape"):
        ms.export(net, ms.Tensor(shape=[-1, 4], dtype=ms.float32), file_name=str(tmp_path / "e"),
                  file_format="ONNX")
    with pytest.raises(ValueError, match="only support customized encryption"):
        ms.export(net, x, file_name=str(tmp_path / "e"), file_format="ONNX", enc_key=b"0" * 16, enc_mode="AES-GCM")
    ms.export(net, x, file_name=str(tmp_path / "e"), file_format="ONNX", enc_key=b"k",
              enc_mode=lambda data, key: key + data[::-1])
    sealed = open(tmp_path / "e.onnx", "rb").read()
    assert sealed[:1] == b"k"
    x_np = np.arange(4, dtype=np.float32).reshape(1, 4)
    got = ort.InferenceSession(sealed[1:][::-1], providers=["CPUExecutionProvider"]).run(None, {"input_0": x_np})
    np.testing.assert_allclose(got[0], net(ms.Tensor(x_np)).asnumpy(), rtol=1e-6, atol=1e-6)


_PLAIN_TF = textwrap.dedent("""\
    import json, sys
    import numpy as np
    import tensorflow as tf
    results = {}
    for folder in sys.argv[1:]:
        inputs = np.load(f"{folder}/in.npz")
        xs = {f"input_{i}": inputs[f"input_{i}"] for i in range(len(inputs.files))}
        serve = tf.saved_model.load(f"{folder}/saved").signatures["serving_default"]
        saved = {k: v.numpy() for k, v in serve(**{k: tf.constant(x) for k, x in xs.items()}).items()}
        lite = tf.lite.Interpreter(model_path=f"{folder}/model.tflite").get_signature_runner("serving_default")(**xs)
        np.savez(f"{folder}/out.npz", **{f"saved_{k}": v for k, v in saved.items()},
                 **{f"lite_{k}": v for k, v in lite.items()})
    print(json.dumps({"tfspore_imported": "tfspore" in sys.modules or "mindspore" in sys.modules}))
""")


def test_savedmodel_and_tflite_run_in_plain_tensorflow(tmp_path):
    expected = {}
    for name in ("lenet", "bert"):
        net, inputs = _build(name)
        expected[name] = _expected(net, inputs)
        folder = tmp_path / name
        folder.mkdir()
        xs = [ms.Tensor(x) for x in inputs]
        ms.export(net, *xs, file_name=str(folder / "saved"), file_format="SAVEDMODEL")
        ms.export(net, *xs, file_name=str(folder / "model"), file_format="TFLITE")
        assert sorted(os.listdir(folder)) == ["model.tflite", "saved"]
        np.savez(folder / "in.npz", **{f"input_{i}": x for i, x in enumerate(inputs)})
    script = tmp_path / "plain_tf.py"
    script.write_text(_PLAIN_TF)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH="")
    run = subprocess.run([sys.executable, str(script), *[str(tmp_path / n) for n in expected]],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {"tfspore_imported": False}
    for name, want in expected.items():
        out = np.load(tmp_path / name / "out.npz")
        _assert_close([out[f"saved_output_{i}"] for i in range(len(want))], want)
        _assert_close([out[f"lite_output_{i}"] for i in range(len(want))], want)


def test_savedmodel_keeps_unknown_dimensions_and_replaces_the_directory(tmp_path):
    net = nn.Dense(4, 3)
    target = str(tmp_path / "sm")
    ms.export(net, ms.Tensor(np.ones((2, 4), np.float32)), file_name=target, file_format="SAVEDMODEL")
    outputs = tf_export.export_savedmodel(net, tf_export.input_specs([ms.Tensor(shape=[-1, 4], dtype=ms.float32)]),
                                          target)
    assert outputs == {"output_0": [None, 3]}
    x = np.random.RandomState(0).randn(5, 4).astype(np.float32)
    got = tf.saved_model.load(target).signatures["serving_default"](input_0=tf.constant(x))["output_0"].numpy()
    np.testing.assert_allclose(got, net(ms.Tensor(x)).asnumpy(), rtol=1e-6, atol=1e-6)
    assert os.listdir(tmp_path) == ["sm"]


def test_input_specs_and_their_errors():
    specs = tf_export.input_specs([ms.Tensor(np.ones((2, 3), np.int32)), np.zeros((4,), np.float16),
                                   ms.Tensor(shape=[-1, 5], dtype=ms.float32)])
    assert [(s.name, s.shape.as_list(), s.dtype) for s in specs] == [
        ("input_0", [2, 3], tf.int32), ("input_1", [4], tf.float16), ("input_2", [None, 5], tf.float32)]
    assert tf_export.input_specs([np.zeros((2, 3), np.float32)], dynamic_batch=True)[0].shape.as_list() == [None, 3]
    with pytest.raises(TypeError, match=r"For 'export', the 'inputs\[0\]' must be a Tensor"):
        tf_export.input_specs(["x"])
    with pytest.raises(ValueError, match="at least one example input"):
        tf_export.input_specs([])

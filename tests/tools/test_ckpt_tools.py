"""The checkpoint tools: .ckpt <-> TensorFlow checkpoint, inspection, SavedModel export."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import nn
from tfspore.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint
from tools import ckpt_inspect, ckpt_to_tf, export_savedmodel, tf_to_ckpt
from tools._common import ToolError, from_keras_layout, to_keras_layout

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, pad_mode="valid", has_bias=True)
        self.bn = nn.BatchNorm2d(3)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(12, 4)

    def construct(self, x):
        return self.fc(self.flatten(self.bn(self.conv(x))))


def _randomize(net, seed=0):
    rng = np.random.RandomState(seed)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(rng.randn(*p.shape).astype(np.float32)))
    return net


def _values(path):
    return {k: (v if isinstance(v, str) else v.asnumpy()) for k, v in load_checkpoint(path).items()}


def test_ckpt_to_tf_and_back_round_trip(tmp_path):
    net = _randomize(_Net())
    src = str(tmp_path / "net.ckpt")
    save_checkpoint(net, src, append_dict={"epoch_num": 3, "note": "abc"})
    names = ckpt_to_tf.convert(src, str(tmp_path / "tfckpt"))
    reader = tf.train.load_checkpoint(str(tmp_path / "tfckpt"))
    # name-based: every MindSpore name is a TensorFlow key, values unchanged
    assert sorted(reader.get_variable_to_shape_map()) == sorted(names)
    for p in net.get_parameters():
        np.testing.assert_array_equal(reader.get_tensor(p.name), p.asnumpy())
    assert reader.get_tensor("epoch_num") == 3
    out = str(tmp_path / "back.ckpt")
    tf_to_ckpt.convert(str(tmp_path / "tfckpt"), out)
    before, after = _values(src), _values(out)
    assert set(before) == set(after)
    for k in before:
        np.testing.assert_array_equal(after[k], before[k])
        if not isinstance(before[k], str):
            assert after[k].dtype == before[k].dtype


def test_keras_layout_gives_keras_layers_the_same_outputs(tmp_path):
    net = _randomize(_Net())
    src = str(tmp_path / "net.ckpt")
    save_checkpoint(net, src)
    ckpt_to_tf.convert(src, str(tmp_path / "k"), keras_layout=True)
    reader = tf.train.load_checkpoint(str(tmp_path / "k"))
    import keras
    x = np.random.RandomState(1).randn(2, 2, 4, 4).astype(np.float32)
    conv = keras.layers.Conv2D(3, 3, padding="valid")
    conv.build((None, 4, 4, 2))
    conv.set_weights([reader.get_tensor("conv.weight"), reader.get_tensor("conv.bias")])
    ours = net.conv(ms.Tensor(x)).asnumpy()
    theirs = np.transpose(conv(np.transpose(x, (0, 2, 3, 1))).numpy(), (0, 3, 1, 2))
    np.testing.assert_allclose(theirs, ours, rtol=1e-5, atol=1e-5)
    dense = keras.layers.Dense(4)
    dense.build((None, 12))
    dense.set_weights([reader.get_tensor("fc.weight"), reader.get_tensor("fc.bias")])
    h = np.random.RandomState(2).randn(3, 12).astype(np.float32)
    np.testing.assert_allclose(dense(h).numpy(), net.fc(ms.Tensor(h)).asnumpy(), rtol=1e-5, atol=1e-5)
    # and back: the Keras-layout checkpoint converts to the original .ckpt values
    tf_to_ckpt.convert(str(tmp_path / "k"), str(tmp_path / "back.ckpt"), keras_layout=True)
    for k, v in _values(src).items():
        np.testing.assert_array_equal(_values(str(tmp_path / "back.ckpt"))[k], v)


@pytest.mark.parametrize("shape", [(5, 3), (4, 2, 3), (4, 2, 3, 3), (4, 2, 1, 3, 3)])
def test_layout_maps_are_inverse(shape):
    v = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    k = to_keras_layout("a.weight", v)
    assert k.shape[-1] == shape[0]
    np.testing.assert_array_equal(from_keras_layout("a.weight", k), v)
    np.testing.assert_array_equal(to_keras_layout("a.bias", v), v)


def test_object_based_checkpoint_of_a_tfspore_net_and_optimizer(tmp_path):
    net = _randomize(_Net())
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    for p in opt.moments:
        p.set_data(ms.Tensor(np.full(p.shape, 0.5, np.float32)))
    prefix = tf.train.Checkpoint(net=net, opt=opt).write(str(tmp_path / "obj" / "ckpt"))
    out = str(tmp_path / "obj.ckpt")
    names = tf_to_ckpt.convert(prefix, out)
    expected = {p.name for p in net.get_parameters()} | {n for n, _ in opt.parameters_and_names()}
    assert set(names) == expected
    fresh = _Net()
    fresh_opt = nn.Momentum(fresh.trainable_params(), 0.1, 0.9)
    not_loaded, _ = load_param_into_net(fresh, load_checkpoint(out))
    assert not_loaded == []
    for a, b in zip(fresh.get_parameters(), net.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    not_loaded, _ = load_param_into_net(fresh_opt, load_checkpoint(out))
    assert not_loaded == []
    np.testing.assert_array_equal(fresh_opt.moments[0].asnumpy(), np.full(opt.moments[0].shape, 0.5))


def test_tf_to_ckpt_name_map_include_and_duplicates(tmp_path):
    tf.raw_ops.SaveV2(prefix=str(tmp_path / "n"), tensor_names=["dense/kernel", "dense/bias"],
                      shape_and_slices=["", ""], tensors=[tf.ones((3, 2)), tf.zeros((2,))])
    mapping = tmp_path / "map.json"
    mapping.write_text(json.dumps({"dense/kernel": "fc.weight", "dense/bias": "fc.bias"}))
    out = str(tmp_path / "n.ckpt")
    tf_to_ckpt.main([str(tmp_path / "n"), out, "--name_map", str(mapping), "--keras_layout",
                     "--include", "weight"])
    vals = _values(out)
    assert list(vals) == ["fc.weight"] and vals["fc.weight"].shape == (2, 3)
    mapping.write_text(json.dumps({"dense/kernel": "x", "dense/bias": "x"}))
    with pytest.raises(ToolError, match="both map to the name 'x'"):
        tf_to_ckpt.main([str(tmp_path / "n"), out, "--name_map", str(mapping)])
    # the earlier output is intact after the failed conversion
    assert list(_values(out)) == ["fc.weight"]


def test_unescape_of_object_graph_keys():
    assert tf_to_ckpt.mindspore_name("opt/moments..fc..weight/.ATTRIBUTES/VARIABLE_VALUE") == "moments.fc.weight"
    assert tf_to_ckpt.mindspore_name("net/a.Sb/w/.ATTRIBUTES/VARIABLE_VALUE") == "a/b.w"
    assert tf_to_ckpt.mindspore_name("net/bn/x/.ATTRIBUTES/VARIABLE_VALUE", keep_root=True) == "net.bn.x"
    assert tf_to_ckpt.mindspore_name("save_counter/.ATTRIBUTES/VARIABLE_VALUE") is None
    assert tf_to_ckpt.mindspore_name("_CHECKPOINTABLE_OBJECT_GRAPH") is None
    assert tf_to_ckpt.mindspore_name("plain.name") == "plain.name"


def test_encrypted_input_and_output(tmp_path):
    key = b"0123456789abcdef"
    net = _randomize(_Net())
    src = str(tmp_path / "enc.ckpt")
    save_checkpoint(net, src, enc_key=key, enc_mode="AES-CBC")
    with pytest.raises(ToolError, match="cannot read the checkpoint"):
        ckpt_to_tf.convert(src, str(tmp_path / "t"))
    ckpt_to_tf.main([src, str(tmp_path / "t"), "--dec_key", key.hex(), "--dec_mode", "AES-CBC"])
    out = str(tmp_path / "out.ckpt")
    tf_to_ckpt.main([str(tmp_path / "t"), out, "--enc_key", key.hex()])
    loaded = load_checkpoint(out, dec_key=key)
    np.testing.assert_array_equal(loaded["fc.weight"].asnumpy(), net.fc.weight.asnumpy())


def test_bad_arguments_name_the_argument(tmp_path):
    with pytest.raises(ToolError, match=r"argument 'ckpt'.*'/nonexistent.ckpt'"):
        ckpt_to_tf.convert("/nonexistent.ckpt", str(tmp_path / "x"))
    with pytest.raises(ToolError, match=r"argument 'checkpoint'"):
        tf_to_ckpt.convert(str(tmp_path / "missing"), str(tmp_path / "x.ckpt"))
    with pytest.raises(ToolError, match=r"argument 'key'.*'zz'"):
        ckpt_to_tf.main([str(tmp_path / "x.ckpt"), str(tmp_path / "y"), "--dec_key", "zz"])
    src = str(tmp_path / "net.ckpt")
    save_checkpoint(_Net(), src)
    (tmp_path / "a_file").write_text("")
    with pytest.raises(ToolError, match="cannot create the directory of the argument 'output'"):
        ckpt_to_tf.convert(src, str(tmp_path / "a_file" / "dir" / "x"))
    ckpt_to_tf.convert(src, str(tmp_path / "new" / "dir" / "x"))
    assert os.path.exists(str(tmp_path / "new" / "dir" / "x.index"))
    with pytest.raises(ToolError, match="directory of the argument 'output' must exist"):
        tf_to_ckpt.convert(str(tmp_path / "new" / "dir" / "x"), str(tmp_path / "no" / "x.ckpt"))
    with pytest.raises(ToolError, match="argument 'include'"):
        ckpt_to_tf.convert(src, str(tmp_path / "x"), include="^nothing$")
    with pytest.raises(ToolError, match="argument 'input'"):
        export_savedmodel.parse_input("1,a,3", False)
    with pytest.raises(ToolError, match="argument 'network'"):
        export_savedmodel.load_network_factory("no_colon")


def test_inspect_lists_names_dtypes_shapes_and_stats(tmp_path, capsys):
    src = str(tmp_path / "w.ckpt")
    save_checkpoint({"w": np.array([[1.0, 3.0]], np.float32), "step": np.array(7, np.int32)}, src,
                    append_dict={"tag": "x"})
    rows = ckpt_inspect.describe(src)
    assert rows[0] == {"name": "w", "dtype": "float32", "shape": [1, 2], "min": 1.0, "max": 3.0, "mean": 2.0}
    assert rows[1]["dtype"] == "int32" and rows[1]["shape"] == []
    assert rows[2] == {"name": "tag", "dtype": "str", "shape": [], "value": "x"}
    ckpt_inspect.main([src, "--json"])
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == rows


def test_export_savedmodel_serves_the_network_outputs(tmp_path):
    net = _randomize(_Net())
    src = str(tmp_path / "net.ckpt")
    save_checkpoint(net, src)
    fresh = _Net()
    out_dir = str(tmp_path / "sm")
    outputs = export_savedmodel.export(fresh, [export_savedmodel.parse_input("1,2,4,4", False)], out_dir, src)
    assert outputs == {"output_0": [None, 4]}
    x = np.random.RandomState(3).randn(5, 2, 4, 4).astype(np.float32)
    net.set_train(False)
    loaded = tf.saved_model.load(out_dir)
    got = loaded.signatures["serving_default"](input_0=tf.constant(x))["output_0"].numpy()
    np.testing.assert_allclose(got, net(ms.Tensor(x)).asnumpy(), rtol=1e-6, atol=1e-6)
    # re-exporting replaces the directory
    export_savedmodel.export(fresh, [export_savedmodel.parse_input("1,2,4,4", True)], out_dir, src)
    assert tf.saved_model.load(out_dir).signatures["serving_default"].structured_outputs["output_0"].shape[0] == 1
    assert sorted(p for p in os.listdir(tmp_path) if p.startswith(".export")) == []


def test_cli_exit_code_and_message(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ckpt_inspect.py"), str(tmp_path / "nope.ckpt")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2
    assert "ckpt_inspect: the argument 'ckpt' must be an existing .ckpt file" in r.stderr

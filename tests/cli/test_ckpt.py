"""`tfspore ckpt inspect|to-tf|from-tf`: safetensors in and out, name maps and transpose lists
(the model zoo's BERT ms2tf table as a file), and one-line errors with exit status 2."""
import ast
import json
import os

import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import nn
from tfspore.__main__ import main
from tfspore.cli import ckpt
from tfspore.cli.common import ToolError
from tfspore.train.serialization import load_checkpoint, save_checkpoint

ZOO_MS2TF = "/work/zoo/official/nlp/Bert/scripts/ms2tf/ms2tf_config.py"


def _values(path, fmt="ckpt"):
    return {k: (v if isinstance(v, str) else v.asnumpy()) for k, v in load_checkpoint(path, format=fmt).items()}


def _bert_like_names(layers):
    """MindSpore and TensorFlow names of a BERT encoder as the zoo's BERT names them ({tf: ms}, transposed)."""
    mapping, transpose = {}, []
    for i in range(layers):
        ms_p, tf_p = f"bert.bert.bert_encoder.layers.{i}.", f"bert/encoder/layer_{i}/"
        for ms_dense, tf_dense in [("attention.attention.query_layer", "attention/self/query"),
                                   ("attention.attention.key_layer", "attention/self/key"),
                                   ("attention.attention.value_layer", "attention/self/value"),
                                   ("attention.output.dense", "attention/output/dense"),
                                   ("intermediate", "intermediate/dense"), ("output.dense", "output/dense")]:
            mapping[f"{tf_p}{tf_dense}/kernel"] = f"{ms_p}{ms_dense}.weight"
            mapping[f"{tf_p}{tf_dense}/bias"] = f"{ms_p}{ms_dense}.bias"
            transpose.append(f"{ms_p}{ms_dense}.weight")
        for ms_ln, tf_ln in [("attention.output.layernorm", "attention/output/LayerNorm"),
                             ("output.layernorm", "output/LayerNorm")]:
            mapping[f"{tf_p}{tf_ln}/gamma"] = f"{ms_p}{ms_ln}.gamma"
            mapping[f"{tf_p}{tf_ln}/beta"] = f"{ms_p}{ms_ln}.beta"
    mapping["bert/embeddings/word_embeddings"] = "bert.bert.bert_embedding_lookup.embedding_table"
    return mapping, transpose


def _bert_like_checkpoint(path, mapping, transpose, hidden=4, fmt="ckpt"):
    rng = np.random.RandomState(0)
    entries = {}
    for ms_name in mapping.values():
        shape = (hidden + 1, hidden) if ms_name in transpose else \
            ((10, hidden) if "embedding" in ms_name else (hidden + 1 if ms_name.endswith("bias") else hidden,))
        entries[ms_name] = rng.standard_normal(shape).astype(np.float32)
    entries["moments.bert.bert.bert_encoder.layers.0.output.dense.weight"] = np.zeros((3, 3), np.float32)
    entries["global_step"] = np.array(7, np.int32)
    save_checkpoint(entries, path, format=fmt)
    return entries


def test_name_map_and_transpose_list_do_the_zoo_bert_tables_job(tmp_path):
    mapping, transpose = _bert_like_names(2)
    src = str(tmp_path / "bert.ckpt")
    entries = _bert_like_checkpoint(src, mapping, transpose)
    (tmp_path / "map.json").write_text(json.dumps(mapping))
    (tmp_path / "transpose.txt").write_text("# MindSpore names stored transposed in TensorFlow\n"
                                            + "\n".join(transpose))
    out = str(tmp_path / "tf" / "model.ckpt")
    assert main(["ckpt", "to-tf", src, out, "--name_map", str(tmp_path / "map.json"), "--transpose",
                 str(tmp_path / "transpose.txt"), "--only_mapped"]) == 0
    reader = tf.train.load_checkpoint(out)
    assert sorted(reader.get_variable_to_shape_map()) == sorted(mapping)
    # a TensorFlow Dense (x @ kernel + bias) gives MindSpore's nn.Dense output with the converted weights
    layer = "bert/encoder/layer_1/attention/self/query/"
    dense = nn.Dense(4, 5)
    dense.weight.set_data(ms.Tensor(entries[mapping[layer + "kernel"]]))
    dense.bias.set_data(ms.Tensor(entries[mapping[layer + "bias"]]))
    x = np.random.RandomState(1).standard_normal((3, 4)).astype(np.float32)
    tf_out = tf.matmul(x, reader.get_tensor(layer + "kernel")) + reader.get_tensor(layer + "bias")
    np.testing.assert_allclose(tf_out.numpy(), dense(ms.Tensor(x)).asnumpy(), rtol=1e-6, atol=1e-6)
    # and back with the same two files, to a .safetensors file this time
    back = str(tmp_path / "back.safetensors")
    assert main(["ckpt", "from-tf", out, back, "--name_map", str(tmp_path / "map.json"), "--transpose",
                 str(tmp_path / "transpose.txt")]) == 0
    got = _values(back, "safetensors")
    assert sorted(got) == sorted(mapping.values())
    for name, value in got.items():
        np.testing.assert_array_equal(value, entries[name])


@pytest.mark.skipif(not os.path.isfile(ZOO_MS2TF), reason="the model zoo checkout is not on this machine")
def test_the_zoo_bert_table_itself_as_a_map_file(tmp_path):
    tree = ast.parse(open(ZOO_MS2TF, encoding="utf-8").read())
    tables = {t.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
              for t in node.targets}
    mapping, transpose = tables["param_name_dict"], tables["transpose_list"]
    assert len(mapping) == 398
    src = str(tmp_path / "large.safetensors")
    entries = _bert_like_checkpoint(src, mapping, transpose, hidden=2, fmt="safetensors")
    (tmp_path / "map.json").write_text(json.dumps(mapping))
    (tmp_path / "transpose.json").write_text(json.dumps(transpose))
    names = ckpt.to_tf(src, str(tmp_path / "tf"), name_map=mapping, transpose=transpose, only_mapped=True)
    assert sorted(names) == sorted(mapping)
    reader = tf.train.load_checkpoint(str(tmp_path / "tf"))
    for tf_name, ms_name in mapping.items():
        value = entries[ms_name].T if ms_name in transpose else entries[ms_name]
        np.testing.assert_array_equal(reader.get_tensor(tf_name), value)


def test_inspect_reads_safetensors_and_to_tf_takes_them(tmp_path, capsys):
    src = str(tmp_path / "w.safetensors")
    save_checkpoint({"fc.weight": np.array([[1.0, 3.0]], np.float32), "step": np.array(7, np.int32)}, src,
                    format="safetensors")
    assert main(["ckpt", "inspect", src, "--json"]) == 0
    rows = {row["name"]: row for row in map(json.loads, capsys.readouterr().out.splitlines())}
    assert rows["fc.weight"] == {"name": "fc.weight", "dtype": "float32", "shape": [1, 2], "min": 1.0, "max": 3.0,
                                 "mean": 2.0}
    assert rows["step"]["dtype"] == "int32" and rows["step"]["shape"] == [] and rows["step"]["min"] == 7.0
    names = ckpt.to_tf(src, str(tmp_path / "t"), keras_layout=True)
    assert sorted(names) == ["fc.weight", "step"]
    np.testing.assert_array_equal(tf.train.load_checkpoint(str(tmp_path / "t")).get_tensor("fc.weight"), [[1.0], [3.0]])


def test_from_tf_to_safetensors_refuses_str_entries_and_encryption(tmp_path):
    tf.raw_ops.SaveV2(prefix=str(tmp_path / "n"), tensor_names=["a", "note"], shape_and_slices=["", ""],
                      tensors=[tf.ones((2,)), tf.constant("x")])
    with pytest.raises(ToolError, match="holds no str values"):
        ckpt.from_tf(str(tmp_path / "n"), str(tmp_path / "o.safetensors"))
    assert ckpt.from_tf(str(tmp_path / "n"), str(tmp_path / "o.safetensors"), include="^a$") == ["a"]
    np.testing.assert_array_equal(_values(str(tmp_path / "o.safetensors"), "safetensors")["a"], [1.0, 1.0])
    assert main(["ckpt", "from-tf", str(tmp_path / "n"), str(tmp_path / "o.safetensors"), "--enc_key",
                 "00" * 16]) == 2


@pytest.mark.parametrize("argv, message", [
    (["inspect", "missing.ckpt"], "tfspore ckpt inspect: the argument 'ckpt' must be an existing .ckpt file"),
    (["to-tf", "{src}", "{tmp}/o", "--transpose", "{tmp}/bad.txt"],
     "the argument 'transpose' names entries the checkpoint does not have: ['nope']"),
    (["to-tf", "{src}", "{tmp}/o", "--transpose", "{tmp}/vec.txt"], "only 2-D entries are transposed"),
    (["to-tf", "{src}", "{tmp}/o", "--name_map", "{tmp}/dup.json"], "a name map must be one to one"),
    (["to-tf", "{src}", "{tmp}/o", "--name_map", "{tmp}/missing.json"], "the argument 'name_map' must be a JSON"),
    (["from-tf", "{tmp}/none", "{tmp}/x.ckpt"], "the argument 'checkpoint' must be a TensorFlow checkpoint"),
    (["to-tf", "{src}"], "the following arguments are required: output"),
    (["frob"], "unknown command 'frob'"),
])
def test_bad_arguments_give_one_line_and_status_2(tmp_path, capsys, argv, message):
    src = str(tmp_path / "s.ckpt")
    save_checkpoint({"w": np.ones((2, 3), np.float32), "b": np.ones((3,), np.float32)}, src)
    (tmp_path / "bad.txt").write_text("nope\n")
    (tmp_path / "vec.txt").write_text("b\n")
    (tmp_path / "dup.json").write_text(json.dumps({"x": "w", "y": "w"}))
    args = [a.format(src=src, tmp=tmp_path) for a in argv]
    assert main(["ckpt", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert message in err
    assert "Traceback" not in err


def test_help_texts(capsys):
    assert main(["ckpt", "--help"]) == 0
    assert "to-tf CKPT OUTPUT" in capsys.readouterr().out
    for command, needle in [("inspect", "--include"), ("to-tf", "--name_map MAP.json"), ("from-tf", "--transpose")]:
        assert main(["ckpt", command, "--help"]) == 0
        out = capsys.readouterr().out
        assert f"tfspore ckpt {command} [-h]" in out and needle in out

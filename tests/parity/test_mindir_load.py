"""MindIR parity: files real MindSpore 2.10 exports run in tfspore to MindSpore's outputs.

For LeNet5, ResNet-18, MobileNetV2 and the BERT-style classifier of ``examples/models``, real
MindSpore (in this process) builds the network with fixed weights (``set_seed`` plus the zoo
test's perturbation of all-zero / all-one parameters), runs the fixed inputs in eval mode, and
writes ``mindspore.export(..., file_format='MINDIR')`` and a ``.ckpt``. tfspore then

* loads the ``.mindir`` with ``load`` and runs ``nn.GraphCell`` on it in PYNATIVE and GRAPH mode:
  MindSpore's outputs;
* builds the same network from the same source under the alias with the ``.ckpt``'s weights:
  the GraphCell's outputs (the file holds exactly the checkpoint's weights);
* saves each GraphCell with ``tf.saved_model.save`` and converts one file with
  ``mindir_to_savedmodel`` / ``mindir_to_tflite``; a Python process that never imports tfspore
  loads them with plain TensorFlow and gets MindSpore's outputs again.

MindSpore's own variants of the file are read too: an encrypted export (``enc_key``) and a
model saved in parts (graph file plus ``<name>_variables/data_0``, which MindSpore writes above
1 GB; forced here by lowering its threshold), plain and encrypted. Two small cells exercise the
operators beyond the four networks (transposed convolution, resizing, pooling variants, split,
slice, one-hot, cumsum, element-wise math, ...); a file with an operator tfspore lacks is refused
with its name, and unreadable files raise MindSpore's ``RuntimeError``.

Tolerance: as ``test_model_zoo``, |a - e| <= 1e-5 |e| + 1e-5 max|e| elementwise.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ms = pytest.importorskip("mindspore", reason="parity tests need mindspore==2.10.0")

import tfspore  # noqa: E402
from tfspore import nn  # noqa: E402
from tfspore.compat import alias_mindspore, unalias_mindspore  # noqa: E402
from tfspore.train.mindir import mindir_to_savedmodel, mindir_to_tflite  # noqa: E402
from tests.parity import model_zoo_ms_side as side  # noqa: E402
from tests.parity._ms_helpers import _warm_mindspore  # noqa: E402,F401  (autouse fixture)

NETS = ("lenet", "resnet18", "mobilenetv2", "bert")
RTOL = 1e-5
SUBPROCESS_TIMEOUT_S = 300


def assert_close(actual, expected, what):
    """|a - e| <= RTOL |e| + RTOL max|e|, elementwise."""
    actual = np.asarray(actual)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=RTOL * scale, err_msg=what)


def _outputs(value):
    values = value if isinstance(value, (tuple, list)) else (value,)
    return [v.asnumpy() if hasattr(v, "asnumpy") else np.asarray(v) for v in values]


def _build_ms(name):
    module = side.load_model_module(name, "mindir")
    ms.set_seed(side.SEED)
    net = side.build(name, module)
    side.perturb(net, ms)
    net.set_train(False)
    return net


class _Exports:
    """Real MindSpore's exports, made on first use: {name: {'mindir', 'ckpt', 'inputs', 'outputs'}}."""

    def __init__(self, folder):
        self.folder = folder
        self.runs = {}

    def __getitem__(self, name):
        if name not in self.runs:
            net = _build_ms(name)
            inputs = side.make_inputs(name)
            tensors = [ms.Tensor(x) for x in inputs]
            outputs = _outputs(net(*tensors))
            base = os.path.join(self.folder, name)
            ms.export(net, *tensors, file_name=base, file_format="MINDIR")
            ms.save_checkpoint(net, base + ".ckpt")
            self.runs[name] = {"mindir": base + ".mindir", "ckpt": base + ".ckpt", "inputs": inputs,
                               "outputs": outputs, "net": net}
        return self.runs[name]

    def __repr__(self):
        return f"<MindIR exports in {self.folder}>"


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    return _Exports(str(tmp_path_factory.mktemp("mindir")))


class _Cells(dict):
    """``nn.GraphCell(tfspore.load(...))`` of each export, loaded on first use (shared by the tests)."""

    def __init__(self, exports):
        super().__init__()
        self.exports = exports

    def __missing__(self, name):
        cell = nn.GraphCell(tfspore.load(self.exports[name]["mindir"]))
        self[name] = cell
        return cell

    def __repr__(self):
        return f"<GraphCells of {sorted(self)}>"


@pytest.fixture(scope="module")
def cells(exports):
    return _Cells(exports)


@pytest.mark.parametrize("name", NETS)
def test_mindspore_mindir_runs_in_graphcell(name, exports, cells, mode):
    run = exports[name]
    got = _outputs(cells[name](*[tfspore.Tensor(x) for x in run["inputs"]]))
    assert len(got) == len(run["outputs"])
    for i, (g, want) in enumerate(zip(got, run["outputs"])):
        assert_close(g, want, f"{name} output {i} ({mode})")


@pytest.mark.parametrize("name", ["lenet", "bert"])  # the other two: test_model_zoo (network == MindSpore)
def test_graphcell_matches_the_network_with_the_checkpoint(name, exports, cells):
    run = exports[name]
    alias_mindspore()
    try:
        module = side.load_model_module(name, "mindir_ts")
        net = side.build(name, module)
        not_loaded, _ = tfspore.load_param_into_net(net, tfspore.load_checkpoint(run["ckpt"]))
    finally:
        unalias_mindspore()
    assert not not_loaded
    net.set_train(False)
    inputs = [tfspore.Tensor(x) for x in run["inputs"]]
    want = _outputs(net(*inputs))
    got = _outputs(cells[name](*inputs))
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"{name} output {i}: GraphCell vs the network with the .ckpt")


def test_encrypted_mindir_needs_its_key(exports, tmp_path):
    run = exports["lenet"]
    key = b"0123456789abcdef"
    base = str(tmp_path / "lenet_enc")
    ms.export(run["net"], ms.Tensor(run["inputs"][0]), file_name=base, file_format="MINDIR", enc_key=key,
              enc_mode="AES-GCM")
    got = _outputs(nn.GraphCell(tfspore.load(base + ".mindir", dec_key=key, dec_mode="AES-GCM"))(
        tfspore.Tensor(run["inputs"][0])))
    assert_close(got[0], run["outputs"][0], "encrypted lenet")
    with pytest.raises(RuntimeError, match="encrypted"):
        tfspore.load(base + ".mindir")
    with pytest.raises(RuntimeError, match="decrypt"):
        tfspore.load(base + ".mindir", dec_key=b"fedcba9876543210")


@pytest.mark.parametrize("enc", [{}, {"enc_key": b"0123456789abcdef", "enc_mode": "AES-CBC"}],
                         ids=["plain", "encrypted"])
def test_mindir_saved_in_parts(exports, tmp_path, monkeypatch, enc):
    run = exports["lenet"]
    serialization = sys.modules["mindspore.train.serialization"]
    monkeypatch.setattr(serialization, "TOTAL_SAVE", 0)  # MindSpore splits above 1 GB; force it here
    base = str(tmp_path / "lenet")
    ms.export(run["net"], ms.Tensor(run["inputs"][0]), file_name=base, file_format="MINDIR", **enc)
    graph_file = base + "_graph.mindir"
    assert os.path.isfile(os.path.join(str(tmp_path), "lenet_variables", "data_0"))
    dec = {"dec_key": enc["enc_key"], "dec_mode": enc["enc_mode"]} if enc else {}
    got = _outputs(nn.GraphCell(tfspore.load(graph_file, **dec))(tfspore.Tensor(run["inputs"][0])))
    assert_close(got[0], run["outputs"][0], "lenet saved in parts")
    os.chmod(os.path.join(str(tmp_path), "lenet_variables", "data_0"), 0o600)
    os.remove(os.path.join(str(tmp_path), "lenet_variables", "data_0"))
    with pytest.raises(RuntimeError, match="data_0"):
        tfspore.load(graph_file, **dec)


_PLAIN_TF_CHECK = r"""
import json, sys
import numpy as np
import tensorflow as tf
cases = json.load(open(sys.argv[1]))
for case in cases:
    data = np.load(case["npz"])
    inputs = [data[f"input_{i}"] for i in range(case["n_inputs"])]
    wants = [data[f"output_{i}"] for i in range(case["n_outputs"])]
    if case["kind"] == "savedmodel":
        fn = tf.saved_model.load(case["path"]).signatures["serving_default"]
        names = sorted(fn.structured_input_signature[1])
        out = fn(**{n: tf.constant(x) for n, x in zip(names, inputs)})
        got = [out[k].numpy() for k in sorted(out, key=lambda k: int(k.rsplit("_", 1)[1]))]
    else:
        interp = tf.lite.Interpreter(model_path=case["path"])
        interp.allocate_tensors()
        for d, x in zip(sorted(interp.get_input_details(), key=lambda d: d["index"]), inputs):
            interp.set_tensor(d["index"], x)
        interp.invoke()
        got = [interp.get_tensor(d["index"]) for d in interp.get_output_details()]
    for i, (g, w) in enumerate(zip(got, wants)):
        scale = float(np.max(np.abs(w)))
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * scale, err_msg=f"{case['path']} output {i}")
    print("ok", case["kind"], case["path"])
assert "tfspore" not in sys.modules
"""


def test_saved_models_run_on_plain_tensorflow(exports, cells, tmp_path):
    import tensorflow as tf
    cases = []
    for name in NETS:
        run = exports[name]
        npz = str(tmp_path / f"{name}.npz")
        np.savez(npz, **{f"input_{i}": x for i, x in enumerate(run["inputs"])},
                 **{f"output_{i}": y for i, y in enumerate(run["outputs"])})
        path = str(tmp_path / f"{name}_graphcell")
        tf.saved_model.save(cells[name], path)
        cases.append({"kind": "savedmodel", "path": path, "npz": npz, "n_inputs": len(run["inputs"]),
                      "n_outputs": len(run["outputs"])})
    lenet = exports["lenet"]
    npz = str(tmp_path / "lenet.npz")
    converted = mindir_to_savedmodel(lenet["mindir"], str(tmp_path / "lenet_converted"))
    tflite = mindir_to_tflite(lenet["mindir"], str(tmp_path / "lenet"))
    assert tflite.endswith("lenet.tflite")
    cases += [{"kind": "savedmodel", "path": converted, "npz": npz, "n_inputs": 1, "n_outputs": 1},
              {"kind": "tflite", "path": tflite, "npz": npz, "n_inputs": 1, "n_outputs": 1}]
    spec = str(tmp_path / "cases.json")
    with open(spec, "w") as f:
        json.dump(cases, f)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    proc = subprocess.run([sys.executable, "-c", _PLAIN_TF_CHECK, spec], capture_output=True, text=True,
                          timeout=SUBPROCESS_TIMEOUT_S, env=env, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("ok ") == len(cases)


class _Mix1(ms.nn.Cell):
    """Operators beyond the four networks: grouped dilated conv, average pooling, element-wise math."""

    def __init__(self):
        super().__init__()
        self.conv = ms.nn.Conv2d(4, 4, 3, group=2, dilation=2, pad_mode="same", has_bias=True)
        self.avg = ms.nn.AvgPool2d(2, 2)
        self.dense = ms.nn.Dense(8, 5, activation="sigmoid")
        self.hswish = ms.nn.HSwish()
        self.log_softmax = ms.nn.LogSoftmax()

    def construct(self, x):
        y = self.avg(self.conv(x))
        z = ms.ops.reduce_sum(ms.ops.concat((y, ms.ops.exp(-y)), 1), 3)
        z = self.dense(ms.ops.transpose(z, (0, 2, 1)))
        a = ms.ops.sqrt(ms.ops.abs(z) + 1.0) / (ms.ops.maximum(z, 0.1) * 2)
        a = ms.ops.pow(a, 2.0) - ms.ops.erf(z) + ms.ops.minimum(z, ms.ops.tanh(z))
        b = self.hswish(a) + ms.ops.sigmoid(a) * ms.ops.relu(-a)
        c = ms.ops.tile(ms.ops.Squeeze(2)(ms.ops.expand_dims(b, 2)), (1, 2, 1))[:, 1:3, :]
        d = ms.ops.reduce_max(c, 1) + ms.ops.reduce_mean(c, 1)
        return self.log_softmax(d), ms.ops.softmax(c, -1)


class _Mix2(ms.nn.Cell):
    """Transposed conv, resizing, PReLU, split/slice, adaptive pooling, BatchNorm1d, argmax/one-hot."""

    def __init__(self):
        super().__init__()
        self.deconv = ms.nn.Conv2dTranspose(4, 3, 2, stride=2, pad_mode="same", has_bias=True)
        self.gap = ms.nn.AdaptiveAvgPool2d((1, 1))
        self.bn1d = ms.nn.BatchNorm1d(3)
        self.elu = ms.nn.ELU()
        self.lrelu = ms.nn.LeakyReLU(0.2)
        self.prelu = ms.nn.PReLU(3, 0.3)
        self.split = ms.ops.Split(1, 3)
        self.argmax = ms.ops.Argmax(axis=-1)
        self.onehot = ms.ops.OneHot()
        self.l2 = ms.ops.L2Normalize(axis=1)

    def construct(self, x):
        y = ms.ops.interpolate(self.deconv(x), size=(6, 6), mode="bilinear")
        y = self.prelu(ms.ops.ResizeNearestNeighbor((4, 4))(y))
        a, b, c = self.split(y)
        s = ms.ops.unstack(ms.ops.stack((a, ms.ops.floor(b), ms.ops.cos(c)), 0), 0)[1]
        s = s + ms.ops.slice(y, (0, 0, 0, 0), (2, 1, 4, 4))
        g = self.bn1d(ms.ops.reshape(self.gap(y), (2, 3)))
        g = self.elu(g) + self.lrelu(-g) + ms.ops.softplus(g) + ms.ops.reciprocal(ms.ops.abs(g) + 1)
        m = ms.ops.select(g > 0, g, ms.ops.zeros_like(g)) + ms.ops.broadcast_to(ms.ops.sin(g[:, :1]), (2, 3))
        idx = self.argmax(m)
        oh = self.onehot(idx, 3, ms.Tensor(1.0, ms.float32), ms.Tensor(0.0, ms.float32))
        cum = ms.ops.cumsum(m, 1) * oh + ms.ops.cast(ms.ops.logical_not(m > 0.5), ms.float32)
        return cum, self.l2(s.reshape(2, 16)), ms.ops.cast(idx, ms.int32)


class _Unsupported(ms.nn.Cell):
    def construct(self, x):
        return ms.ops.erfinv(ms.ops.tanh(x))


def _export_cell(cell, x, path):
    cell.set_train(False)
    outputs = _outputs(cell(ms.Tensor(x)))
    ms.export(cell, ms.Tensor(x), file_name=path, file_format="MINDIR")
    return path + ".mindir", outputs


@pytest.mark.parametrize("cell_class", [_Mix1, _Mix2], ids=["mix1", "mix2"])
def test_more_operators(cell_class, tmp_path):
    ms.set_seed(2)
    x = np.random.RandomState(0).standard_normal((2, 4, 4, 4)).astype(np.float32)
    path, want = _export_cell(cell_class(), x, str(tmp_path / "mix"))
    got = _outputs(nn.GraphCell(tfspore.load(path))(tfspore.Tensor(x)))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"{cell_class.__name__} output {i}")


def test_unsupported_operator_is_named(tmp_path):
    path, _ = _export_cell(_Unsupported(), np.zeros((2, 3), np.float32), str(tmp_path / "odd"))
    with pytest.raises(RuntimeError, match=r"odd.mindir' uses the operator\(s\) 'Erfinv'"):
        tfspore.load(path)


def test_unreadable_files_raise_like_mindspore(exports, tmp_path):
    data = open(exports["lenet"]["mindir"], "rb").read()
    for name, content in (("garbage.mindir", b"\x00"), ("cut.mindir", data[:len(data) // 2])):
        path = str(tmp_path / name)
        with open(path, "wb") as f:
            f.write(content)
        with pytest.raises(RuntimeError, match="Load MindIR failed"):
            ms.load(path)
        with pytest.raises(RuntimeError, match=f"Load MindIR failed.*{name}"):
            tfspore.load(path)


class _Block(ms.nn.Cell):
    @ms.lazy_inline
    def __init__(self):
        super().__init__()
        self.dense = ms.nn.Dense(4, 4)

    def construct(self, x):
        return ms.ops.relu(self.dense(x)) + x


class _Branchy(ms.nn.Cell):
    """Sub-graphs kept as calls (``lazy_inline``) and an ``if`` on a tensor (Switch over two graphs)."""

    def __init__(self):
        super().__init__()
        self.b1 = _Block()
        self.b2 = _Block()

    def construct(self, x, y):
        z = self.b2(self.b1(x))
        if y.sum() > 0:
            z = z * 2
        return z


class _Loop(ms.nn.Cell):
    def construct(self, x):
        while x.sum() < 10:
            x = x * 2
        return x


def test_subgraph_calls_and_tensor_conditions(tmp_path):
    ms.set_seed(4)
    net = _Branchy()
    net.set_train(False)
    x = np.random.RandomState(0).standard_normal((2, 4)).astype(np.float32)
    pos, neg = np.ones(2, np.float32), -np.ones(2, np.float32)
    want = {"pos": _outputs(net(ms.Tensor(x), ms.Tensor(pos)))[0], "neg": _outputs(net(ms.Tensor(x), ms.Tensor(neg)))[0]}
    ms.export(net, ms.Tensor(x), ms.Tensor(pos), file_name=str(tmp_path / "branchy"), file_format="MINDIR")
    cell = nn.GraphCell(tfspore.load(str(tmp_path / "branchy.mindir")))
    for key, y in (("pos", pos), ("neg", neg)):  # one traced graph takes both branches (tf.cond)
        assert_close(cell(tfspore.Tensor(x), tfspore.Tensor(y)).asnumpy(), want[key], f"branch {key}")


def test_loops_are_refused_when_loaded(tmp_path):
    path, _ = _export_cell(_Loop(), np.ones((2,), np.float32), str(tmp_path / "loop"))
    # MindSpore 2.10 writes this loop with scalar operators (LessScalar, ...) around a recursive graph;
    # load refuses it naming the file (tests/train/mindir/test_graph.py checks the recursion guard itself)
    with pytest.raises(RuntimeError, match="loop.mindir' (uses the operator|has a loop)"):
        tfspore.load(path)
